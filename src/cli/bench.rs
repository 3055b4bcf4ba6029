//! `huntsolve bench`: a fixed search benchmark over both families.
//!
//! The suite is built from seeded random playouts of each bench preset that
//! exists (hunt: diviyan-keliya, cows-leopards-mogol, bagh-chal, kaooa; tafl:
//! tablut-hnefatafl, brandubh, caikaboroda), so it needs no hand-typed
//! positions. Every position is searched to a fixed depth with a cleared table;
//! the total node count is a signature of search behaviour (identical across
//! runs with one thread) and nodes/s the speed.
//!
//! With `--mcts N`, every suite position is searched instead by MCTS with N
//! iterations (one thread): iterations/s, playout plies/s and the mean
//! playout length per preset.

use super::args::{Hash, Threads};
use super::out::println;
use huntsolve::game::FullGame;
use huntsolve::game::NoOracle;
use huntsolve::search::{self, Limit, SearchConfig, TransTable};
use huntsolve::AnyGame;
use huntsolve::{Error, Result};
use std::time::Duration;

/// The presets of the suite and the playout length of their positions.
pub(crate) const SUITE: &[(&str, usize)] = &[
    ("diviyan-keliya", 40),
    ("cows-leopards-mogol", 30),
    ("bagh-chal", 30),
    ("kaooa", 12),
    ("tablut-hnefatafl", 16),
    ("brandubh", 10),
    ("caikaboroda", 16),
];

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Nominal search depth of every position.
    #[arg(long, default_value_t = 5, value_parser = super::args::DEPTH,
          conflicts_with_all = ["mcts", "retro", "ladder", "prove"])]
    pub depth: u32,
    #[command(flatten)]
    pub threads: Threads,
    /// Positions per preset.
    #[arg(long, default_value_t = 4, value_parser = super::args::whole::<usize>(1, 10_000, "positions"),
          conflicts_with_all = ["retro", "ladder", "prove"])]
    pub positions: usize,
    /// Seed of the playouts that build the suite.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED, conflicts_with = "retro")]
    pub seed: u64,
    #[command(flatten)]
    pub hash: Hash,
    /// Quiescence plies (default: per family, see the search docs).
    #[arg(long, value_parser = super::args::SEARCH_PLIES,
          conflicts_with_all = ["mcts", "retro", "ladder", "prove"])]
    pub qdepth: Option<u32>,
    /// Only these presets (comma-separated; default: the whole suite).
    #[arg(long, conflicts_with_all = ["retro", "ladder", "prove"])]
    pub only: Option<String>,
    /// Instead: the fixed proof suite of the df-pn prover (1 thread, then
    /// --threads if more than 1), with alpha-beta nodes/s on the same positions.
    #[arg(long, conflicts_with_all = ["mcts", "retro", "ladder"])]
    pub prove: bool,
    /// With --prove: plies from the root within which the prover's threads avoid
    /// each other's lines (virtual proof numbers; default 3, 0 = never).
    #[arg(long, value_name = "PLIES", requires = "prove", conflicts_with = "seeds",
          value_parser = super::args::SEARCH_PLIES)]
    pub spread_plies: Option<u32>,
    /// With --prove: the seed suite instead (positions of the seed games and their
    /// small-prey and capture-threshold variants, "hunters win?" up to a node cap
    /// each; `--threads` threads, default 1; --hash default 256).
    #[arg(long, requires = "prove")]
    pub seeds: bool,
    #[command(flatten)]
    pub prover: super::prove::ProverOpts,
    /// Benchmark MCTS instead: this many iterations from every position
    /// (one thread), reporting iterations/s and playout plies/s.
    #[arg(long, value_parser = super::args::whole::<u64>(1, 1_000_000_000, "iterations"),
          conflicts_with_all = ["retro", "ladder"])]
    pub mcts: Option<u64>,
    /// With --mcts: playout cut-off in plies (scored by the evaluation).
    #[arg(long, value_parser = super::args::whole::<u32>(1, 10_000, "plies"), requires = "mcts")]
    pub cutoff: Option<u32>,
    /// Benchmark the retrograde solver instead, on these rules: the tiers of
    /// --tiers solved in memory by the current solver and by the previous one
    /// (the baseline), with 1 thread and with --threads (default: one per core),
    /// in one run; every run must give the same records.
    #[arg(long, value_name = "RULES", conflicts_with = "ladder")]
    pub retro: Option<String>,
    /// With --retro: tiers to solve, comma-separated, children first (e.g. h0p1c2,h0p1c1).
    #[arg(long, value_name = "LIST", requires = "retro")]
    pub tiers: Option<String>,
    /// With --retro: directory of the solved child tiers (their records are also
    /// compared with tables of the benchmarked tiers found there). Default: tables.
    #[arg(long, value_name = "DIR", requires = "retro")]
    pub tables: Option<std::path::PathBuf>,
    /// With --retro: time only the current solver (no baseline runs).
    #[arg(long, requires = "retro")]
    pub no_baseline: bool,
    /// With --retro: also time the compact solver in both kinds (`compact`: one
    /// byte a slot; `counted`: two, state and counter; `solve --compact`) with the
    /// same thread counts.
    #[arg(long, requires = "retro")]
    pub compact: bool,
    /// With --retro: also time the out-of-core solver in this many parts (its
    /// files under DIR/.bench-ooc-<pid>, removed after) against the counted
    /// compact solver in memory, with the bytes it wrote to disk.
    #[arg(long, value_name = "PARTS", requires = "retro", value_parser = super::args::whole::<usize>(2, 4096, "parts"))]
    pub out_of_core: Option<usize>,
    /// With --retro: also time each tier split on the compact encoding across
    /// these numbers of parts (comma-separated, e.g. 2,3; the parts are threads
    /// of this process exchanging as MPI ranks would, the --threads shared
    /// among them, at least one a part; part files under DIR/.bench-split-<pid>,
    /// removed after) against the counted compact solver in memory, with the
    /// bytes the parts sent each other.
    #[arg(long, value_name = "PARTS", requires = "retro", value_delimiter = ',', value_parser = super::args::whole::<usize>(2, 64, "parts"))]
    pub split: Vec<usize>,
    /// Benchmark the ladder's rungs instead, on these rules (repeatable):
    /// --games self-play games at each rung of --engines, one after another
    /// on one thread; games/s, plies/s and the load average beside them.
    #[arg(long, value_name = "RULES")]
    pub ladder: Vec<String>,
    /// With --ladder: the rungs (comma-separated, as `compare --engines`).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,depth=2,depth=4,mcts=500:cutoff=20",
        requires = "ladder"
    )]
    pub engines: Vec<String>,
    /// With --ladder: games per rung (games 0..N of `compare --seed`).
    #[arg(long, default_value_t = 20, requires = "ladder", value_parser = super::args::GAMES)]
    pub games: u64,
    /// With --ladder: uniformly random plies at the start of each game.
    #[arg(long, default_value_t = 6, requires = "ladder", value_parser = super::args::RANDOM_PLIES)]
    pub random_plies: u32,
    /// With --retro, --prove or --ladder: machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

struct Line {
    nodes: u64,
    time: Duration,
}

fn bench_game<G: FullGame>(g: &G, args: &Args, plies: usize, tt: &TransTable) -> Line {
    let positions = search::random_positions(g, args.positions, plies, args.seed);
    let mut line = Line {
        nodes: 0,
        time: Duration::ZERO,
    };
    for pos in positions {
        tt.clear();
        let cfg = SearchConfig {
            limits: vec![Limit::Depth(args.depth)],
            threads: args.threads.or(1),
            qdepth: args.qdepth,
            ..Default::default()
        };
        let r = search::search(g, &pos, &NoOracle, &cfg, tt);
        line.nodes += r.nodes;
        line.time += r.time;
    }
    line
}

/// Totals of an MCTS benchmark.
#[derive(Default)]
struct MctsLine {
    iterations: u64,
    playout_plies: u64,
    playouts: u64,
    time: Duration,
}

fn bench_mcts<G: huntsolve::game::FullGame>(
    g: &G,
    args: &Args,
    plies: usize,
    iterations: u64,
) -> MctsLine {
    use huntsolve::stats::{search, MctsConfig};
    let positions = search::random_positions(g, args.positions, plies, args.seed);
    let cfg = MctsConfig {
        iterations: Some(iterations),
        cutoff: args.cutoff,
        ..MctsConfig::default()
    };
    let mut line = MctsLine::default();
    for (i, pos) in positions.iter().enumerate() {
        let mut rng = huntsolve::Rng::new(args.seed.wrapping_add(i as u64));
        let r = search(g, pos, &[], &NoOracle, &cfg, &mut rng);
        line.iterations += r.iterations;
        line.playout_plies += r.playout_plies;
        line.playouts += r.playouts;
        line.time += r.time;
    }
    line
}

fn run_mcts(args: &Args, iterations: u64, only: &Option<Vec<&str>>) -> Result<()> {
    println(&format!(
        "{:<22} {:>10} {:>12} {:>12} {:>14} {:>12}",
        "preset", "iterations", "time s", "iter/s", "playout ply/s", "plies/playout"
    ))?;
    let mut total = MctsLine::default();
    for &(name, plies) in SUITE {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let any = AnyGame::parse(name)?;
        let l = huntsolve::with_game!(&any, g => bench_mcts(g, args, plies, iterations));
        let secs = l.time.as_secs_f64().max(1e-9);
        println(&format!(
            "{:<22} {:>10} {:>12.3} {:>12.0} {:>14.0} {:>12.1}",
            name,
            l.iterations,
            secs,
            l.iterations as f64 / secs,
            l.playout_plies as f64 / secs,
            l.playout_plies as f64 / l.playouts.max(1) as f64
        ))?;
        total.iterations += l.iterations;
        total.playout_plies += l.playout_plies;
        total.time += l.time;
    }
    println(&format!(
        "total: {} iterations, {:.3} s, {:.0} iterations/s, one thread{}",
        total.iterations,
        total.time.as_secs_f64(),
        total.iterations as f64 / total.time.as_secs_f64().max(1e-9),
        match args.cutoff {
            Some(c) => format!(", playouts cut at {c} plies"),
            None => String::new(),
        }
    ))
}

/// Runs `bench` (its `--retro`, `--ladder` and `--prove` forms are run from
/// `super::run_bench`: their files build on this one's [`Args`]).
pub(crate) fn run(args: Args) -> Result<()> {
    if let Some(n) = args.mcts {
        if n == 0 {
            return Err(Error::Usage("--mcts: at least 1 iteration".into()));
        }
        let only: Option<Vec<&str>> = args
            .only
            .as_deref()
            .map(|s| s.split(',').map(str::trim).collect());
        return run_mcts(&args, n, &only);
    }
    if args.depth == 0 || args.depth > search::MAX_DEPTH {
        return Err(Error::Usage(format!(
            "--depth {}: accepted 1..={}",
            args.depth,
            search::MAX_DEPTH
        )));
    }
    let only: Option<Vec<&str>> = args
        .only
        .as_deref()
        .map(|s| s.split(',').map(str::trim).collect());
    // Every name must be a preset of the suite: an unknown or empty one is a typo,
    // not a request to benchmark less (or something else).
    if let Some(o) = &only {
        let suite: Vec<&str> = SUITE.iter().map(|s| s.0).collect();
        if let Some(bad) = o.iter().find(|n| !suite.contains(n)) {
            return Err(Error::Usage(format!(
                "--only: '{bad}' is not a preset of the suite; accepted: {}",
                suite.join(", ")
            )));
        }
    }
    let known: Vec<&str> = huntsolve::all_presets().iter().map(|p| p.1).collect();
    let tt = TransTable::new(args.hash.or(64))?;
    let mut total = Line {
        nodes: 0,
        time: Duration::ZERO,
    };
    let mut ran = 0;
    println(&format!(
        "{:<22} {:>5} {:>14} {:>10} {:>12}",
        "preset", "depth", "nodes", "time s", "nodes/s"
    ))?;
    for &(name, plies) in SUITE {
        if let Some(o) = &only {
            if !o.contains(&name) {
                continue;
            }
        }
        if !known.contains(&name) {
            continue;
        }
        let any = AnyGame::parse(name)?;
        let line = huntsolve::with_game!(&any, g => bench_game(g, &args, plies, &tt));
        println(&format!(
            "{:<22} {:>5} {:>14} {:>10.3} {:>12.0}",
            name,
            args.depth,
            line.nodes,
            line.time.as_secs_f64(),
            line.nodes as f64 / line.time.as_secs_f64().max(1e-9)
        ))?;
        total.nodes += line.nodes;
        total.time += line.time;
        ran += 1;
    }
    if ran == 0 {
        // No bench preset exists yet (engines not built): bench the test game.
        let g = huntsolve::TicTacToe { line_weight: 10 };
        let line = bench_game(&g, &args, 2, &tt);
        println(&format!(
            "{:<22} {:>5} {:>14} {:>10.3} {:>12.0}",
            "tictactoe",
            args.depth,
            line.nodes,
            line.time.as_secs_f64(),
            line.nodes as f64 / line.time.as_secs_f64().max(1e-9)
        ))?;
        total = line;
    }
    println(&format!(
        "total: {} nodes, {:.3} s, {:.0} nodes/s, {} thread(s)",
        total.nodes,
        total.time.as_secs_f64(),
        total.nodes as f64 / total.time.as_secs_f64().max(1e-9),
        args.threads.or(1)
    ))
}
