//! `huntsolve explore`: a grid over two or three rule options; each variant
//! is solved exactly where its plan fits, played on the strength ladder
//! otherwise, and the variants are ranked (see `huntsolve::stats::explore`).

use super::args::Threads;
use super::compare::made_by;
use super::out::{println, Bars};
use huntsolve::retro::{default_memory_limit, parse_size, SolveOptions};
use huntsolve::stats::safe_name;
use huntsolve::stats::{run_explore, write_explore, ExploreConfig, GridOption};
use huntsolve::stats::{EngineSpec, TournamentConfig};
use huntsolve::Result;
use std::path::PathBuf;

/// Arguments of `explore`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Base rules string (`preset[,key=value...]`).
    pub rules: String,
    /// An option of the grid, KEY=V1,V2,... or KEY=A..B (give it two or three times).
    #[arg(long, required = true)]
    pub grid: Vec<String>,
    /// Ladder engines for the variants not solved exactly (comma-separated, weakest first).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,depth=2,mcts=300:cutoff=20"
    )]
    pub engines: Vec<String>,
    /// Games per variant and strength on the ladder.
    #[arg(long, default_value_t = 100, value_parser = super::args::GAMES)]
    pub games: u64,
    /// Base seed of the ladder games.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    pub seed: u64,
    /// Uniformly random opening plies of the ladder games.
    #[arg(long, default_value_t = 4, value_parser = super::args::RANDOM_PLIES)]
    pub random_plies: u32,
    #[command(flatten)]
    pub threads: Threads,
    /// Memory limit of an exact solve, e.g. 4G (default: 80 % of MemAvailable).
    #[arg(long, value_parser = super::args::size)]
    pub memory: Option<String>,
    /// Largest index (symmetry-reduced slots) solved exactly; bigger variants
    /// go to the ladder even when they would fit in memory (a time guard).
    #[arg(long, default_value_t = 20_000_000, value_parser = super::args::whole::<u64>(0, 10_000_000_000_000, "slots"))]
    pub max_exact_slots: u64,
    /// Tables root, one directory per exact variant (default: OUT/tables with
    /// --out, else tables/explore-<rules>).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    /// Report directory (default: the git-ignored runs/explore-<rules>).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `explore`.
pub(crate) fn run(args: Args) -> Result<()> {
    huntsolve::stats::check_games(args.games)?;
    let grid: Vec<GridOption> = args
        .grid
        .iter()
        .map(|g| GridOption::parse(g))
        .collect::<Result<_>>()?;
    let engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_>>()?;
    let name = format!("explore-{}", safe_name(&args.rules));
    let (out, tables) = super::out::run_dirs(&name, &args.out, &args.tables);
    let memory_limit = match args.memory.as_deref() {
        Some(t) => Some(parse_size(t)?),
        None => default_memory_limit(),
    };
    let mut command = format!("huntsolve explore '{}'", args.rules);
    for g in &args.grid {
        command.push_str(&format!(" --grid '{g}'"));
    }
    command.push_str(&format!(
        " --engines {} --games {} --seed {} --random-plies {} --max-exact-slots {} --tables {} --out {}",
        args.engines.join(","),
        args.games,
        args.seed,
        args.random_plies,
        args.max_exact_slots,
        tables.display(),
        out.display()
    ));
    if let Some(n) = args.threads.threads {
        command.push_str(&format!(" --threads {n}"));
    }
    if let Some(m) = &args.memory {
        command.push_str(&format!(" --memory {m}"));
    }
    let cfg = ExploreConfig {
        engines,
        tournament: TournamentConfig {
            games: args.games,
            seed: args.seed,
            random_plies: args.random_plies,
            threads: args.threads.or(0),
            ..TournamentConfig::default()
        },
        solve: SolveOptions {
            threads: args.threads.or(0),
            memory_limit,
            made_by: Some(made_by()),
            ..Default::default()
        },
        max_exact_slots: args.max_exact_slots,
        tables,
    };
    let build = cfg
        .solve
        .made_by
        .as_ref()
        .map(|m| m.build.clone())
        .unwrap_or_default();
    let bars = Bars::new();
    let r = run_explore(&args.rules, &grid, &cfg, &out, &command, &build, &bars)?;
    let files = write_explore(&out, &r)?;
    for (i, x) in r.rows.iter().enumerate() {
        println(&format!(
            "{:>3} {:<60} {:<6} balance {:.2} [{:.2},{:.2}]  decisive {:.2}  length {:.1}{}",
            i + 1,
            x.rules,
            if x.method == huntsolve::stats::Method::Exact {
                "exact"
            } else {
                "ladder"
            },
            x.balance.estimate,
            x.balance.lo,
            x.balance.hi,
            x.decisiveness.estimate,
            x.length.estimate,
            x.exact_value
                .as_deref()
                .map(|v| format!("  value for side 0: {v}"))
                .unwrap_or_default()
        ))?;
    }
    // The run's own time, and the games' when some were read back (a rerun
    // plays nothing and takes the rendering's time only).
    let games = if r.played.games > r.played.now {
        format!(
            " ({} ladder games, {} played now; {:.1} s of play in the games' own times)",
            r.played.games, r.played.now, r.played.seconds
        )
    } else {
        String::new()
    };
    println(&format!(
        "{:.1} s wall for this run{games}; report: {}",
        r.wall_seconds,
        files
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    ))
}
