//! `huntsolve compare`: self-play tournaments between equal engines on two or
//! more rule variants, with a statistical report.

use super::args::Threads;
use super::out::{println, Bars};
use huntsolve::stats::{run_compare_with, write_compare};
use huntsolve::stats::{EngineSpec, TournamentConfig};
use huntsolve::Result;
use std::path::PathBuf;

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules strings (`preset[,key=value...]`), one per variant.
    #[arg(required = true)]
    pub rules: Vec<String>,
    /// Games per variant.
    #[arg(long, default_value_t = 100, value_parser = super::args::GAMES)]
    pub games: u64,
    /// Engine for both sides: random, greedy, depth=D or time=S.
    #[arg(long, default_value = "greedy")]
    pub engine: String,
    /// Base seed (game i uses seed + i).
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub threads: Threads,
    /// Uniformly random plies at the start of each game, so games differ.
    #[arg(long, default_value_t = 4, value_parser = super::args::RANDOM_PLIES)]
    pub random_plies: u32,
    /// With a search engine: sample the opening plies from a softmax over the
    /// root moves' scores at this temperature (evaluation units) instead of
    /// uniformly.
    #[arg(long, value_parser = super::args::real(0.0, false, MAX_SOFTMAX, "a temperature"))]
    pub softmax: Option<f64>,
    /// Move limit in plies, then a draw (default: the rules' limit, else 400).
    #[arg(long, value_parser = super::args::whole::<u32>(1, 1_000_000, "plies"))]
    pub max_plies: Option<u32>,
    /// Output directory (default: the git-ignored runs/compare-<first>-vs-<...>;
    /// results/ holds only the reports written there on purpose).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Strength ladder: play every variant with each of these engines
    /// (comma-separated, weakest first, e.g. random,depth=2,mcts=1000) and
    /// report how the variants' outcomes and ordering change with strength.
    /// Replaces --engine.
    #[arg(long, value_delimiter = ',')]
    pub engines: Vec<String>,
    /// With --engines: also play each pair of adjacent strengths against
    /// each other, the stronger engine on either side.
    #[arg(long)]
    pub asymmetric: bool,
    /// Solved tables (repeatable): a game reaching a position they cover ends
    /// there with its exact value (counted as adjudicated), and MCTS engines
    /// use them as proven leaves. Each directory serves the variant whose
    /// rules its tables were solved for.
    #[arg(long)]
    pub tables: Vec<PathBuf>,
    /// With --engines: cross-play every ordered pair of different rungs for
    /// this many games per variant and fit the rungs' ratings (Bradley-Terry
    /// with a side-0 advantage); the ladder is then ordered by measured
    /// strength and says when a rung is not stronger than the one below.
    #[arg(long, default_value_t = 0, value_parser = super::args::whole::<u64>(0, huntsolve::stats::MAX_GAMES, "games"))]
    pub rate: u64,
    /// With --tables: the tables do not end games; they serve the `perfect`
    /// engine and the exact values of the openings (the calibration) only.
    #[arg(long)]
    pub no_referee: bool,
}

/// Highest `--softmax` temperature (evaluation units): scores stay well inside
/// ±20000, so a hotter softmax is uniform already.
const MAX_SOFTMAX: f64 = 1e6;

/// Runs `compare`.
pub(crate) fn run(args: Args) -> Result<()> {
    let engine = EngineSpec::parse(&args.engine)?;
    huntsolve::stats::check_games(args.games)?;
    let cfg = TournamentConfig {
        games: args.games,
        seed: args.seed,
        engine,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        threads: args.threads.or(0),
        softmax: args.softmax,
        engine_side1: None,
        referee: None,
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let names: Vec<String> = args
            .rules
            .iter()
            .map(|r| huntsolve::stats::safe_name(r))
            .collect();
        PathBuf::from(DEFAULT_DIR).join(format!("compare-{}", names.join("-vs-")))
    });
    // The report folder: refuse a file (or a path under one) before any game is played.
    if let Some(file) = out.ancestors().find(|p| p.exists() && !p.is_dir()) {
        return Err(huntsolve::Error::Usage(format!(
            "--out {}: {} is a file, not a directory",
            out.display(),
            file.display()
        )));
    }
    let command = reproduce_command(&args, &cfg, &out);
    let bars = Bars::new();
    // Taken before the games: the checkout may move on during a long run.
    let build = build_info();
    let tables = huntsolve::stats::table_dirs(&args.tables)?;
    if !args.engines.is_empty() {
        return run_ladder_cli(&args, &cfg, &tables, &out, &command, &build, &bars);
    }
    if args.asymmetric || args.rate > 0 {
        return Err(huntsolve::Error::Usage(
            "--asymmetric and --rate need --engines (a ladder of at least two engines)".into(),
        ));
    }
    if args.no_referee {
        return Err(huntsolve::Error::Usage(
            "--no-referee needs --engines (a ladder) and --tables".into(),
        ));
    }
    // A softmax samples a search's root scores; an engine without them ignores it.
    let searches = |e: &EngineSpec| {
        matches!(
            e,
            EngineSpec::Depth(_) | EngineSpec::Time(_) | EngineSpec::WithTables(_)
        )
    };
    if args.softmax.is_some() && !searches(&cfg.engine) {
        return Err(huntsolve::Error::Usage(format!(
            "--softmax samples the opening plies from a search's scores; engine {} does not search \
             (use depth=D or time=S, or drop --softmax)",
            cfg.engine.text()
        )));
    }
    let mut report = run_compare_with(&args.rules, &cfg, &tables, &out, &command, &bars)?;
    report.build = build;
    let files = write_compare(&out, &report)?;
    for v in &report.variants {
        println(&format!(
            "{:<32} games {:>5}  {} {:>5.1}% [{:.1},{:.1}]  {} {:>5.1}% [{:.1},{:.1}]  draws {:>5.1}%  limit {:>4}  length {:.1}",
            v.name,
            v.games,
            v.side_names[0],
            100.0 * v.win_rate[0].estimate,
            100.0 * v.win_rate[0].lo,
            100.0 * v.win_rate[0].hi,
            v.side_names[1],
            100.0 * v.win_rate[1].estimate,
            100.0 * v.win_rate[1].lo,
            100.0 * v.win_rate[1].hi,
            100.0 * v.draw_rate.estimate,
            v.move_limit,
            v.length_mean.estimate
        ))?;
    }
    for (a, v) in report.agreement.iter().zip(&report.variants) {
        println(&agreement_line(a, &v.side_names))?;
    }
    for p in &report.pairs {
        for w in &p.win_rates {
            println(&format!("  {}", w.sentence))?;
        }
        println(&format!("  {}", p.sentence))?;
    }
    if let Some((_, _, s)) = &report.overall {
        println(&format!("  All variants: {s}"))?;
    }
    println(&format!(
        "{:.1} s wall ({} games played now); {}",
        report.wall_seconds,
        report.played_now,
        report_line(&out, files.first(), args.out.is_none())
    ))
}

fn run_ladder_cli(
    args: &Args,
    cfg: &TournamentConfig,
    tables: &[huntsolve::stats::TableDir],
    out: &std::path::Path,
    command: &str,
    build: &str,
    bars: &Bars,
) -> Result<()> {
    use huntsolve::stats::{run_ladder, write_ladder, LadderOptions};
    if args.no_referee && tables.is_empty() {
        return Err(huntsolve::Error::Usage(
            "--no-referee needs --tables (the tables it keeps from refereeing)".into(),
        ));
    }
    let opts = LadderOptions {
        asymmetric: args.asymmetric,
        rate_games: args.rate,
        no_referee: args.no_referee,
    };
    let engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_>>()?;
    let r = run_ladder(
        &huntsolve::stats::LadderRun {
            specs: &args.rules,
            engines: &engines,
            base: cfg,
            tables,
            opts: &opts,
            out_dir: out,
            command,
            build,
        },
        bars,
    )?;
    let files = write_ladder(out, &r)?;
    for row in &r.cells {
        for c in row {
            println(&format!(
                "{:<32} {:<18} {} {:>5.1}%  {} {:>5.1}%  draws {:>5.1}%  score {:.3} [{:.3},{:.3}]  adjudicated {}",
                c.variant,
                c.engine,
                r.side_names[0],
                100.0 * c.win_rate[0].estimate,
                r.side_names[1],
                100.0 * c.win_rate[1].estimate,
                100.0 * c.draw_rate.estimate,
                c.score0.estimate,
                c.score0.lo,
                c.score0.hi,
                c.adjudicated
            ))?;
        }
    }
    println(&r.summary)?;
    for w in &r.warnings {
        println(&format!("warning: {w}"))?;
    }
    for v in &r.verdicts {
        println(&format!("  {}", v.sentence))?;
        if !v.captures_in_sentence {
            println(&format!("    captures: {}", v.captures_sentence))?;
        }
        if !v.strongest.is_empty() {
            println(&format!("    {}", v.strongest))?;
        }
    }
    for row in &r.ludii {
        println(&agreement_line(&row.agreement, &row.side_names))?;
    }
    if !r.measured_order.is_empty() {
        println(&format!(
            "measured order (weakest first): {}",
            r.measured_order.join(" < ")
        ))?;
    }
    if let Some(c) = &r.calibration {
        for k in &c.rungs {
            println(&format!(
                "calibration {:<18} verdicts agreeing with the exact values {}/{} (wrong direction {}), mean |score - exact| {:.3}",
                k.engine, k.agree, k.pairs, k.wrong, k.mean_abs_error
            ))?;
        }
    }
    println(&format!(
        "{:.1} s wall ({} games played now, {} read from the stored games); {}",
        r.wall_seconds,
        r.played.now,
        r.played.games.saturating_sub(r.played.now),
        report_line(out, files.first(), args.out.is_none())
    ))
}

/// One reading's agreement with perfect play, as `compare` prints it.
fn agreement_line(a: &huntsolve::stats::EngineAgreement, sides: &[String; 2]) -> String {
    let Some(exact) = a.exact_score0 else {
        return format!(
            "  {} {}: not solved: no agreement column",
            a.variant, a.engine
        );
    };
    let value = if exact > 0.5 {
        format!("{} win", sides[0])
    } else if exact < 0.5 {
        format!("{} win", sides[1])
    } else {
        "draw".to_string()
    };
    let agrees = if a.agrees == Some(true) {
        "agrees"
    } else {
        "disagrees"
    };
    format!(
        "  {} {}: exact start value {value}; engines' conclusion {} ({agrees}); moves keeping the exact value: {} {}/{}, {} {}/{}",
        a.variant,
        a.engine,
        a.conclusion_words(sides),
        sides[0],
        a.moves_kept[0],
        a.moves_checked[0],
        sides[1],
        a.moves_kept[1],
        a.moves_checked[1]
    )
}

/// Where a report goes without `--out`: git-ignored (`/runs` in .gitignore), so
/// a trial run leaves the tracked results/ alone.
const DEFAULT_DIR: &str = "runs";

/// The line that says where the report went, and that a default folder is
/// a scratch one.
fn report_line(
    out: &std::path::Path,
    first: Option<&std::path::PathBuf>,
    defaulted: bool,
) -> String {
    let file = first.map(|p| p.display().to_string()).unwrap_or_default();
    if defaulted {
        format!(
            "report: {file} (in {}, git-ignored; --out DIR to keep it elsewhere)",
            out.display()
        )
    } else {
        format!("report: {file}")
    }
}

/// The full command line with every setting spelled out, for the report.
fn reproduce_command(args: &Args, cfg: &TournamentConfig, out: &std::path::Path) -> String {
    let mut c = String::from("huntsolve compare");
    for r in &args.rules {
        c.push(' ');
        c.push_str(r);
    }
    let engine = if args.engines.is_empty() {
        format!("--engine {}", cfg.engine.text())
    } else {
        format!("--engines {}", args.engines.join(","))
    };
    c.push_str(&format!(
        " --games {} {engine} --seed {} --random-plies {}",
        cfg.games, cfg.seed, cfg.random_plies
    ));
    if args.asymmetric {
        c.push_str(" --asymmetric");
    }
    if args.rate > 0 {
        c.push_str(&format!(" --rate {}", args.rate));
    }
    for t in &args.tables {
        c.push_str(&format!(" --tables {}", t.display()));
    }
    if args.no_referee {
        c.push_str(" --no-referee");
    }
    if let Some(t) = cfg.softmax {
        c.push_str(&format!(" --softmax {t}"));
    }
    if let Some(m) = cfg.max_plies {
        c.push_str(&format!(" --max-plies {m}"));
    }
    if cfg.threads > 0 {
        c.push_str(&format!(" --threads {}", cfg.threads));
    }
    c.push_str(&format!(" --out {}", out.display()));
    c
}

/// The git commit this binary was built from (with `-dirty` when the code
/// had uncommitted changes; recorded by `build.rs`, not read from the working
/// directory, which may hold another commit) and the build profile, for the
/// reports; `unknown commit` when built outside a git checkout.
pub(crate) fn build_info() -> String {
    let commit = env!("HUNTSOLVE_BUILD_COMMIT");
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    format!(
        "{commit}, {profile} build of huntsolve {}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Who made a solve's `summary.json` (or a report): this process's command
/// line ([`command_line`]) and the build ([`build_info`]).
pub(crate) fn made_by() -> huntsolve::retro::MadeBy {
    huntsolve::retro::MadeBy {
        command: command_line(),
        build: build_info(),
    }
}

/// This process's command line, each argument quoted for a POSIX shell where
/// it needs to be.
fn command_line() -> String {
    let plain = |a: &str| {
        !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./=,:+@%-".contains(c))
    };
    std::env::args()
        .map(|a| {
            if plain(&a) {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
