//! `huntsolve frontier <rules> --depth D [--side NAME] [--tables DIR]... [--time S]
//! [--threads N] [--hash MiB] [--out DIR] [--json]`: proves the start of a hunt game
//! from proofs of the positions `D` plies in ([`huntsolve::prove::frontier`]): the
//! graph above the frontier and each frontier certificate make one certificate of
//! the start, re-checked by the independent checker (and by `check-proof` on the
//! file written to `--out`). Resumable: a rerun with the same `--out` skips the
//! positions already decided. Tafl rules: exit 2.

use super::args::{Hash, Json, Threads};
use super::out;
use super::prove::ProverOpts;
use huntsolve::game::{Game, Value};
use huntsolve::prove::RunOutcome;
use huntsolve::prove::TableDirs;
use huntsolve::prove::{frontier, frontier_value, FrontierConfig, FrontierResult};
use huntsolve::Progress;
use huntsolve::{AnyGame, Error, Result};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `frontier`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: a hunt preset with options (e.g. `bagh-chal,hunter_win=captures>=2`).
    rules: String,
    /// Plies from the start to the frontier.
    #[arg(long, value_name = "D", value_parser = super::args::DEPTH)]
    depth: u32,
    /// Prove one side's win only (`hunter`/`prey` or a traditional name, or 0/1);
    /// default: the value of the start (the mover's win, else the opponent's, else a draw).
    #[arg(long)]
    side: Option<String>,
    /// Directories of tables of these rules, used as leaves (repeatable).
    #[arg(long)]
    tables: Vec<PathBuf>,
    /// Time limit in seconds (all runs together).
    #[arg(long, value_parser = super::args::seconds())]
    time: Option<f64>,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    hash: Hash,
    /// Keep the state, the frontier certificates and the start's certificate here
    /// (a rerun resumes).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Nodes of the scoring run of each frontier position.
    #[arg(long, value_name = "N", default_value_t = 2_000, value_parser = super::args::NODES)]
    score_nodes: u64,
    /// Nodes of the first proof run of a selected position (doubling per try).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = super::args::NODES)]
    job_nodes: u64,
    /// Most nodes of one run; a position still open after it is given up.
    #[arg(long, value_name = "N", default_value_t = 50_000_000, value_parser = super::args::NODES)]
    max_job_nodes: u64,
    /// Most classes enumerated above and at the frontier.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, value_parser = super::args::whole::<usize>(1, 1_000_000_000, "classes"))]
    max_positions: usize,
    /// Treat the shared proof table's entries alike whatever selection made
    /// them (the behaviour before table generations; for measurements). By
    /// default each selection starts a new generation and older entries are
    /// replaced first.
    #[arg(long)]
    no_table_generations: bool,
    /// One thread, the proof table saved with the state in `--out`: a resumed run
    /// writes the certificate an uninterrupted one writes (guide: frontier).
    #[arg(long)]
    reproducible: bool,
    /// Minutes between saves of a reproducible run's proof table.
    #[arg(long, value_name = "MIN", default_value_t = 30.0, value_parser = super::args::real(0.0, false, huntsolve::MAX_SECONDS / 60.0, "minutes"), requires = "reproducible")]
    snapshot_every: f64,
    #[command(flatten)]
    opts: ProverOpts,
    #[command(flatten)]
    pub(crate) json: Json,
}

#[derive(Serialize)]
struct Out {
    rules: String,
    /// `win`/`loss`/`draw`/`unknown` for the side to move, or `proven`/`disproven`/`unknown` with `--side`.
    value: String,
    runs: Vec<FrontierResult>,
}

/// Runs `frontier`.
pub(crate) fn run(args: Args) -> Result<()> {
    let game = match AnyGame::parse(&args.rules)? {
        AnyGame::Hunt(g) => g,
        _ => {
            return Err(Error::Usage(format!(
                "frontier: {} is a tafl game; the frontier driver is built for hunt games \
                 (its symmetry maps and capture thresholds are the hunt family's)",
                args.rules
            )))
        }
    };
    let side = args
        .side
        .as_deref()
        .map(|s| {
            huntsolve::game::side_by_name(&game, s).ok_or_else(|| {
                Error::Usage(format!(
                    "--side {}: not a side of these rules; expected {}",
                    huntsolve::quote(s),
                    huntsolve::game::side_choices(&game)
                ))
            })
        })
        .transpose()?;
    let tables = TableDirs::open(&game, &args.tables)?;
    let probe = ProverOpts::apply(args.opts, Default::default());
    let cfg = FrontierConfig {
        depth: args.depth,
        max_positions: args.max_positions.max(1),
        threads: args.threads.or(1),
        hash_mib: args.hash.or(256),
        time: args.time.map(Duration::from_secs_f64),
        score_nodes: args.score_nodes.max(1),
        job_nodes: args.job_nodes.max(1),
        max_job_nodes: args.max_job_nodes.max(1),
        out: args.out.clone(),
        symmetry: probe.symmetry,
        init: probe.init,
        quick_check: probe.quick_check,
        generations: !args.no_table_generations,
        reproducible: args.reproducible,
        snapshot_every: Duration::from_secs_f64(args.snapshot_every * 60.0),
        stop_after_results: None,
    };
    let bars = out::Bars::new();
    let res = match side {
        Some(s) => frontier(&game, &tables, s, &cfg, &bars).map(|r| {
            let v = match r.outcome {
                RunOutcome::Proven => "proven",
                RunOutcome::Disproven => "disproven",
                RunOutcome::Unknown => "unknown",
            };
            (v.to_string(), vec![r])
        }),
        None => frontier_value(&game, &tables, &cfg, &bars).map(|(v, rs)| {
            let v = match v {
                Some(Value::Win) => "win",
                Some(Value::Loss) => "loss",
                Some(Value::Draw) => "draw",
                None => "unknown",
            };
            (v.to_string(), rs)
        }),
    };
    bars.finish_stage();
    let (value, runs) = res?;
    let o = Out {
        rules: game.rules_string(),
        value,
        runs,
    };
    if args.json.json {
        let s = serde_json::to_string(&o).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        return out::println(&s);
    }
    out::print(&text(&o))
}

fn text(o: &Out) -> String {
    let mut s = format!("rules    {}\n", o.rules);
    for r in &o.runs {
        let what = match r.outcome {
            RunOutcome::Proven => "proven",
            RunOutcome::Disproven => "disproven",
            RunOutcome::Unknown => "unknown",
        };
        let cost = |c: Option<u64>| c.map_or("none".to_string(), |c| c.to_string());
        s.push_str(&format!(
            "{} wins? {what}: depth {}, {} classes ({} frontier, {} leaves), frontier {} proven / {} disproven / {} open ({} resumed), {} runs, {} nodes, {} selections (last {}), root cost to prove {} / to disprove {}, {:.2} s\n",
            r.side,
            r.depth,
            r.graph_nodes,
            r.frontier,
            r.leaves,
            r.proven,
            r.disproven,
            r.open,
            r.resumed,
            r.runs,
            r.nodes,
            r.selections,
            r.last_selection,
            cost(r.root_proof_cost),
            cost(r.root_disproof_cost),
            r.seconds
        ));
        if let Some(c) = &r.certificate {
            let verdict = match c.holds {
                Some(true) => "holds".to_string(),
                Some(false) => "does not hold".to_string(),
                None => format!(
                    "written, not checked: no tables were given for its table leaves; check it with `huntsolve check-proof {} --tables DIR`",
                    c.file.as_deref().unwrap_or("FILE")
                ),
            };
            s.push_str(&format!(
                "  certificate {} nodes {} bytes sha256 {}, {} frontier certificates spliced, {} table leaves{}: {verdict}\n",
                c.nodes,
                c.bytes,
                c.sha256,
                c.spliced,
                c.table_leaves,
                c.file.as_ref().map_or(String::new(), |f| format!(" ({f})"))
            ));
        }
    }
    s.push_str(&format!("value    {}\n", o.value));
    s
}
