//! Command-line definitions (clap derive). One file per subcommand; each has
//! `Args` and `run(Args) -> Result<()>`.

use clap::{Parser, Subcommand};
use huntsolve::Result;

pub mod analyze;
pub mod args;
pub mod bench;
pub mod bench_ladder;
pub mod bench_prove;
pub mod bench_retro;
pub mod bounds;
pub mod check;
pub mod compare;
pub mod explore;
pub mod frontier;
pub mod job;
pub mod measures;
pub mod openings;
pub mod out;
pub mod perft;
pub mod play;
pub mod playout;
pub mod presets;
pub mod prove;
pub mod query;
pub mod serve;
pub mod show;
pub mod solve;
pub mod solve_mpi;
pub mod sweep;
pub mod verify;

/// Solver and analysis tool for hunt games and tafl.
#[derive(Parser, Debug)]
#[command(name = "huntsolve", version, about, long_about = None)]
pub(crate) struct Cli {
    /// Also show the solvers' internal notes (how levels were split, memory use).
    #[arg(long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the rules presets of both families.
    Presets(presets::Args),
    /// Count leaf positions of the game tree (move generator check).
    Perft(perft::Args),
    /// Self-test a game before solving it: board, un-moves, index, symmetries, perft.
    Check(check::Args),
    /// Show a position: diagram, side to move, legal moves, result.
    Show(show::Args),
    /// Uniform random games: speed and outcome shares.
    Playout(playout::Args),
    /// Solve rules by retrograde analysis (a preset or a TOML manifest).
    Solve(solve::Args),
    /// Value, distance and every move's value of a position.
    Query(query::Args),
    /// Re-derive every table value from its children.
    Verify(verify::Args),
    /// Outcome counts and distance histograms of solved tables.
    Analyze(analyze::Args),
    /// Perfect-play measures of solved readings side by side (value, shares, forgiveness).
    Measures(measures::Args),
    /// Rank the first placements of a hunt game by search.
    Openings(openings::Args),
    /// Engine against engine (or a human).
    Play(play::Args),
    /// Fixed search benchmark: total nodes and nodes per second.
    Bench(bench::Args),
    /// Compare rule variants statistically by self-play.
    Compare(compare::Args),
    /// Solve a family of variants differing in one option and tabulate them.
    Sweep(sweep::Args),
    /// Prove a position's value by df-pn search (leaves: terminal positions and tables).
    Prove(prove::Args),
    /// Re-check a proof certificate written by `prove --save`.
    CheckProof(prove::CheckArgs),
    /// How many captures the hunters can force: proven and disproven thresholds.
    Bounds(bounds::Args),
    /// Prove the start from proofs of the positions a few plies in (the frontier method).
    Frontier(frontier::Args),
    /// Grid over two or three rule options: exact where it fits, ladder otherwise.
    Explore(explore::Args),
    /// The local browser explorer: every move's value on the board.
    Serve(serve::Args),
}

impl Command {
    /// Whether the user asked for JSON output (errors are then reported as JSON too).
    fn json(&self) -> bool {
        match self {
            Command::Presets(a) => a.json.json,
            Command::Check(a) => a.json.json,
            Command::Solve(a) => a.json.json,
            Command::Query(a) => a.json.json,
            Command::Verify(a) => a.json.json,
            Command::Analyze(a) => a.json.json,
            Command::Measures(a) => a.json.json,
            Command::Prove(a) => a.json.json,
            Command::CheckProof(a) => a.json.json,
            Command::Bounds(a) => a.json.json,
            Command::Frontier(a) => a.json.json,
            _ => false,
        }
    }
}

/// Parses the command line and runs the subcommand; also says whether the output
/// is JSON, so `main` can report an error in the same form.
pub(crate) fn main() -> (Result<()>, bool) {
    let cli = Cli::try_parse().unwrap_or_else(|e| exit_on_usage_error(e));
    let json = cli.command.json();
    out::set_verbose(cli.verbose);
    let result = match cli.command {
        Command::Presets(a) => presets::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Check(a) => check::run(a),
        Command::Show(a) => show::run(a),
        Command::Playout(a) => playout::run(a),
        Command::Solve(a) if a.mpi => solve_mpi::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Query(a) => query::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Measures(a) => measures::run(a),
        Command::Openings(a) => openings::run(a),
        Command::Play(a) => play::run(a),
        Command::Bench(a) => run_bench(a),
        Command::Compare(a) => compare::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Prove(a) => prove::run(a),
        Command::CheckProof(a) => prove::run_check(a),
        Command::Bounds(a) => bounds::run(a),
        Command::Frontier(a) => frontier::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Serve(a) => serve::run(a),
    };
    (result, json)
}

/// Runs `bench`: the `--retro`, `--ladder` and `--prove` forms, whose files
/// take [`bench::Args`], or the search benchmark of `bench.rs` itself (so that
/// `bench.rs` needs none of them and they need only it).
fn run_bench(args: bench::Args) -> Result<()> {
    if let Some(why) = bench_ignored(&args) {
        return Err(huntsolve::Error::Usage(why));
    }
    if let Some(rules) = &args.retro {
        return bench_retro::run(&args, rules, &out::Bars::new());
    }
    if !args.ladder.is_empty() {
        return bench_ladder::run(&args, &out::Bars::new());
    }
    if args.prove && args.seeds {
        return bench_prove::bench_seeds(
            args.threads.or(1),
            args.hash.or(256),
            args.seed,
            args.prover,
            args.json,
        );
    }
    if args.prove {
        return bench_prove::bench_prove(
            args.threads.or(1),
            args.hash.or(64),
            args.seed,
            args.spread_plies
                .unwrap_or(huntsolve::prove::DEFAULT_SPREAD_PLIES),
            args.prover,
            args.json,
        );
    }
    bench::run(args)
}

/// An option given to `bench` that its mode would ignore, named with the mode
/// (clap refuses the rest: see the `conflicts_with` of [`bench::Args`]; these
/// are the options of structs shared with other commands).
fn bench_ignored(args: &bench::Args) -> Option<String> {
    let mode = if args.retro.is_some() {
        "--retro"
    } else if !args.ladder.is_empty() {
        "--ladder"
    } else if args.prove {
        "--prove"
    } else if args.mcts.is_some() {
        "--mcts"
    } else {
        "the search benchmark"
    };
    let given = [
        (
            "--threads",
            args.threads.threads.is_some(),
            ["--mcts"].as_slice(),
        ),
        (
            "--hash",
            args.hash.hash.is_some(),
            &["--mcts", "--retro", "--ladder"],
        ),
        (
            "--init",
            args.prover.init != huntsolve::prove::Init::default(),
            &["--mcts", "--retro", "--ladder", "the search benchmark"],
        ),
        (
            "--no-symmetry",
            args.prover.no_symmetry,
            &["--mcts", "--retro", "--ladder", "the search benchmark"],
        ),
        (
            "--no-quick-check",
            args.prover.no_quick_check,
            &["--mcts", "--retro", "--ladder", "the search benchmark"],
        ),
        ("--json", args.json, &["--mcts", "the search benchmark"]),
    ];
    given
        .iter()
        .find(|(_, on, ignored_by)| *on && ignored_by.contains(&mode))
        .map(|(name, _, _)| format!("bench: {name} has no effect on {mode}; leave it out"))
}

/// Prints a usage error and exits as clap does, except that a long value or
/// argument it quotes is shortened like the library's messages
/// ([`huntsolve::bounded`]): clap echoes an invalid `--threads` of 100 kB whole.
fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::{ContextKind, ContextValue};
    let long: Vec<String> = [ContextKind::InvalidValue, ContextKind::InvalidArg]
        .into_iter()
        .filter_map(|k| match e.get(k) {
            Some(ContextValue::String(v)) if v.chars().count() > huntsolve::QUOTE_CHARS => {
                Some(v.clone())
            }
            _ => None,
        })
        .collect();
    use std::io::Write;
    let wants_json = std::env::args_os().any(|a| a == "--json");
    let is_error = e.exit_code() != 0; // not --help or --version
    if long.is_empty() && !(wants_json && is_error) {
        e.exit()
    }
    let mut text = e.render().to_string();
    for v in &long {
        text = text.replace(v.as_str(), &huntsolve::bounded(v));
    }
    if wants_json && is_error {
        // `--json` was asked for: the usage error too is a JSON document on
        // stdout (its first line, without clap's `error: `), as every other error.
        let first = text.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first);
        let obj = serde_json::json!({"error": message, "exit_code": e.exit_code()});
        // Best effort: stdout may be closed.
        let _ = writeln!(std::io::stdout(), "{obj}");
    }
    eprint!("{text}");
    std::process::exit(e.exit_code())
}
