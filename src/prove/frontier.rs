//! The frontier driver: a proof of the start assembled from proofs of the
//! positions a few plies in (Lim & Nievergelt's Tigers and Goats, 2009;
//! Takizawa's Othello, 2024), for hunt games.
//!
//! # Method
//! 1. **Enumerate** the positions up to `depth` plies from the start, one node
//!    per symmetry class ([`Game::canonical_hash`]; transpositions merged),
//!    into a graph: terminal positions and positions the tables know are
//!    leaves, the positions at `depth` are the *frontier*, the rest are inner
//!    nodes whose children are the classes their moves reach. A class first
//!    met at a smaller depth keeps that depth (an edge back to it may close a
//!    cycle in the movement phase; the evaluation below counts cycles as draws).
//! 2. **Score** every frontier position with a short df-pn run
//!    ([`FrontierConfig::score_nodes`]): a run that decides it settles it (its
//!    certificate is kept); the others keep their root proof and disproof
//!    numbers as estimates.
//! 3. **Select**: the *cost* of proving the start's goal is computed over the
//!    graph as df-pn computes proof numbers (at the goal side's nodes the
//!    smallest child, at the opponent's the sum), with each open frontier
//!    position's estimate at the bottom; likewise the cost of disproving it
//!    (sum and smallest swapped). The cheaper is the *guess*, and the set of
//!    frontier positions under the cheapest solution (one child where one
//!    suffices, every child where all are needed) is the selection: the fewest
//!    positions whose values would decide the start, by the estimates.
//!    Knuth's generalisation of Dijkstra's algorithm computes both costs in one
//!    pass each, over cycles too (a solution found this way is acyclic).
//! 4. **Prove** the selected positions, cheapest first, one df-pn run each
//!    (one per thread, all threads sharing one proof table), from
//!    [`FrontierConfig::job_nodes`] nodes, twice the last limit each time a
//!    position is tried again, up to [`FrontierConfig::max_job_nodes`]. Each result
//!    re-evaluates the graph; a result against the guess (or a position left
//!    open) changes the costs, and the next selection takes what is now known
//!    into account. The loop ends when the start is decided, the time is out,
//!    or nothing is left to try.
//! 5. **Assemble** the start's certificate: the graph above the frontier
//!    (on the actual positions, every move replayed) with each frontier
//!    position's own certificate spliced in, mapped onto the image of the
//!    class that occurs (the certificate of a class is for one member; a
//!    symmetry maps it node by node onto another). The result is one ordinary
//!    certificate ([`super::certificate`]), checked by [`super::check`]
//!    before the driver reports it: nothing of the driver's bookkeeping is
//!    trusted, `huntsolve check-proof` re-checks the file.
//!
//! # Evaluation
//! The values of the graph, given the frontier's known values, are two
//! fixpoints: the goal side's wins are the least fixpoint of "one child won
//! (goal side to move) / every child won (opponent to move)" (each win gets a
//! rank, one more than the child that made it, so following smaller ranks
//! builds an acyclic proof); the non-wins are the nodes outside the least
//! fixpoint that counts every open frontier position as won (the opponent keeps
//! away from them and from every win for ever, or reaches a known non-win:
//! endless play is a draw). This is the local retrograde analysis of the
//! prover, on the graph above the frontier.
//!
//! # Resuming
//! With an output directory, every result is written at once: each decided
//! frontier position's certificate to `DIR/certs/`, and the state
//! (`DIR/frontier-state.txt`) by a temporary file and a rename. The state's
//! first line is `HSFRONTIER 1 <crc32 of the rest>` (`2` for a reproducible
//! run, which older builds refuse), then a JSON document of
//! [`State`]: the rules, fingerprint, and per frontier position (by the
//! class's hash and the goal side) its outcome, tries, root numbers and
//! certificate file. A rerun reads it and skips what is settled; a state file
//! of other rules or a damaged one is refused.
//!
//! # Reproducible runs
//! A run's result depends on what the runs before it left in the shared
//! proof table; a resumed run starts from an empty table and finds other
//! proofs, and two threads take results in the order they finish. So only an
//! uninterrupted one-thread run re-makes its certificate to its bytes. With
//! [`FrontierConfig::reproducible`] (one thread) the driver runs the jobs
//! itself and, at a boundary between runs every
//! [`FrontierConfig::snapshot_every`] and when it ends between runs, saves the
//! proof table (`proof-table.s<side>.<n>.zst`) with the state, which then also
//! holds the selection under way and the evaluation counters. A rerun loads
//! both and continues exactly where the saved run was: the runs, their results
//! and the certificate are those of an uninterrupted run (a run killed inside
//! a job loses what it did since the last save). The settings that shape the
//! runs are recorded in the state, and a rerun with others is refused. `--time`
//! is checked between runs (a run in progress is finished, so that the table
//! can be saved).
//!
mod assemble;
mod graph;
mod run;
mod snapshot;
mod state;

use state::State;
pub use state::STATE_FILE;

use super::dfpn::{Init, ProveConfig, RunOutcome};
use super::tables::TableDirs;
use crate::error::{Error, Result};
use crate::game::{Game, Value};
use crate::hunt::HuntGame;
use crate::progress::Progress;
use assemble::start_certificate;
use graph::{enumerate, Graph, Kind2};
use run::{known_of, prove_frontier, Ctx, Marks};
use serde::Serialize;
use state::{read_state, state_path, write_state};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Largest certificate of one frontier position (nodes).
pub(crate) const MAX_JOB_CERT_NODES: usize = 20_000_000;
/// Largest certificate of the start (nodes).
pub(crate) const MAX_START_CERT_NODES: usize = 100_000_000;
/// A cost no solution has.
const INF: u64 = u64::MAX;

/// How to run [`frontier`].
#[derive(Clone, Debug)]
pub struct FrontierConfig {
    /// Plies from the start to the frontier.
    pub depth: u32,
    /// Most graph nodes enumerated (a larger graph is refused).
    pub max_positions: usize,
    /// Threads (each proves one frontier position at a time).
    pub threads: usize,
    /// The shared proof table, MiB.
    pub hash_mib: usize,
    /// Wall-clock budget (`None`: none).
    pub time: Option<Duration>,
    /// Nodes of the scoring run of each frontier position.
    pub score_nodes: u64,
    /// Nodes of the first proof run of a selected position (doubling per try).
    pub job_nodes: u64,
    /// Most nodes of one run; a position open after it is given up.
    pub max_job_nodes: u64,
    /// Where to keep the state and the certificates (`None`: in memory only).
    pub out: Option<PathBuf>,
    /// Key classes by symmetry (the graph and the prover).
    pub symmetry: bool,
    /// Initial numbers of the prover.
    pub init: Init,
    /// The prover's win-in-one test.
    pub quick_check: bool,
    /// Each selection a new generation of the shared proof table (earlier
    /// selections' entries replaced first); `false`: every entry on an equal
    /// footing, as before generations existed (for measurements).
    pub generations: bool,
    /// Reproducible runs (see the module docs): one thread, the proof table
    /// saved with the state, so that a resumed run writes the certificate an
    /// uninterrupted one writes.
    pub reproducible: bool,
    /// How often a reproducible run saves its proof table and state.
    pub snapshot_every: Duration,
    /// Stop as if interrupted once this many results were taken (counting
    /// from this call), after writing the state: for testing resumption.
    #[doc(hidden)]
    pub stop_after_results: Option<u64>,
}

impl Default for FrontierConfig {
    fn default() -> Self {
        let p = ProveConfig::default();
        FrontierConfig {
            depth: 2,
            max_positions: 2_000_000,
            threads: 1,
            hash_mib: 256,
            time: None,
            score_nodes: 2_000,
            job_nodes: 100_000,
            max_job_nodes: 50_000_000,
            out: None,
            symmetry: p.symmetry,
            init: p.init,
            quick_check: p.quick_check,
            generations: true,
            reproducible: false,
            snapshot_every: Duration::from_secs(1800),
            stop_after_results: None,
        }
    }
}

/// The result of [`frontier`].
#[derive(Clone, Debug, Serialize)]
pub struct FrontierResult {
    /// Canonical rules.
    pub rules: String,
    /// The goal side's name.
    pub side: String,
    /// The depth of the frontier.
    pub depth: u32,
    /// Whether the goal side forces a win from the start.
    pub outcome: RunOutcome,
    /// Classes in the graph.
    pub graph_nodes: usize,
    /// Frontier classes.
    pub frontier: usize,
    /// Leaves above the frontier (terminal or in the tables).
    pub leaves: usize,
    /// Frontier classes proven, disproven, still open.
    pub proven: usize,
    /// See `proven`.
    pub disproven: usize,
    /// See `proven`.
    pub open: usize,
    /// Frontier positions resumed from the state file.
    pub resumed: usize,
    /// Runs made in this call (scoring included).
    pub runs: u64,
    /// Prover nodes in this call.
    pub nodes: u64,
    /// Selections made.
    pub selections: u32,
    /// The start's cost to prove, by the estimates (`None`: no solution).
    pub root_proof_cost: Option<u64>,
    /// The start's cost to disprove.
    pub root_disproof_cost: Option<u64>,
    /// Frontier positions in the last selection.
    pub last_selection: usize,
    /// The start's certificate, when decided.
    pub certificate: Option<StartCert>,
    /// Seconds.
    pub seconds: f64,
}

/// The assembled certificate of the start.
#[derive(Clone, Debug, Serialize)]
pub struct StartCert {
    /// The file written (with an output directory).
    pub file: Option<String>,
    /// Nodes.
    pub nodes: usize,
    /// Bytes of the encoded file.
    pub bytes: usize,
    /// The sha256 of the file's bytes (hex): its name (the trailer crc32
    /// does not depend on the header).
    pub sha256: String,
    /// Frontier certificates spliced in (one per image used).
    pub spliced: usize,
    /// Table leaves (counted by the check, or in the certificate when it was
    /// not checked).
    pub table_leaves: u64,
    /// Whether the independent check found it holds: `Some(true)` (one that
    /// does not hold is an error), or `None` when it was not checked because it
    /// has table leaves and no table directory was given (an assembly from a
    /// saved state needs no tables; `check-proof FILE --tables DIR` checks it).
    pub holds: Option<bool>,
}

/// Proves or disproves "`side` forces a win" from the start of `game` by the
/// frontier method (see the module docs). Errors: bad input, a damaged state
/// file, unreadable tables, an interrupt, a certificate that does not hold
/// ([`Error::Disagreement`]).
pub fn frontier(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    side: usize,
    cfg: &FrontierConfig,
    progress: &dyn Progress,
) -> Result<FrontierResult> {
    super::check_repetition_rule(game)?;
    if side > 1 {
        return Err(Error::Usage(format!("goal side {side}: 0 or 1 expected")));
    }
    let t0 = Instant::now();
    let rules = game.rules_string();
    let fp = game.fingerprint();
    let cert_dir = cfg.out.as_ref().map(|d| d.join("certs"));
    if let Some(d) = &cert_dir {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::io(format!("creating {}", d.display()), e))?;
    }
    let mut state = match &cfg.out {
        Some(d) => read_state(&state_path(d), &rules, fp)?,
        None => None,
    }
    .unwrap_or(State {
        rules: rules.clone(),
        fingerprint: fp,
        entries: Vec::new(),
        reproducible: None,
        pending: Vec::new(),
        snapshots: Vec::new(),
    });
    if cfg.reproducible && cfg.threads > 1 {
        return Err(Error::Usage(
            "reproducible frontier runs use one thread (--threads 1)".into(),
        ));
    }
    let settings = cfg.reproducible.then(|| reproducible_settings(cfg));
    if state.entries.is_empty() {
        state.reproducible = settings.clone();
    } else if state.reproducible != settings {
        let was = state
            .reproducible
            .as_deref()
            .unwrap_or("one shared proof table");
        let now = settings.as_deref().unwrap_or("one shared proof table");
        return Err(Error::Usage(format!(
            "the frontier state in {} was made with {was}, not {now}; \
             resume with the same settings or use another --out",
            cfg.out
                .as_deref()
                .unwrap_or(std::path::Path::new("."))
                .display()
        )));
    }
    progress.message(&format!("enumerating {} plies", cfg.depth));
    let g = enumerate(game, tables, cfg, side)?;
    let frontier_ids: Vec<u32> = (0..g.nodes.len() as u32)
        .filter(|&i| g.nodes[i as usize].kind == Kind2::Frontier)
        .collect();
    let (mut marks, resumed) = resume(&g, &state, side).map_err(|e| match &cfg.out {
        Some(d) => e.in_file(&state_path(d)),
        None => e,
    })?;
    let mut result = FrontierResult {
        rules,
        side: game.side_name(side).to_string(),
        depth: cfg.depth,
        outcome: RunOutcome::Unknown,
        graph_nodes: g.nodes.len(),
        frontier: frontier_ids.len(),
        leaves: g
            .nodes
            .iter()
            .filter(|x| matches!(x.kind, Kind2::Leaf(_)))
            .count(),
        proven: 0,
        disproven: 0,
        open: 0,
        resumed,
        runs: 0,
        nodes: 0,
        selections: 0,
        root_proof_cost: None,
        root_disproof_cost: None,
        last_selection: 0,
        certificate: None,
        seconds: 0.0,
    };
    let ctx = Ctx {
        game,
        tables,
        cfg,
        side,
        g: &g,
        frontier: &frontier_ids,
        cert_dir,
        deadline: cfg.time.map(|t| t0 + t),
    };
    let outcome = prove_frontier(&ctx, &mut state, &mut marks, &mut result, progress);
    // A reproducible run writes its state with its saved table, itself.
    if let Some(dir) = cfg.out.as_ref().filter(|_| !cfg.reproducible) {
        write_state(dir, &state)?;
    }
    let outcome = outcome?;
    for &i in &frontier_ids {
        match marks.known[i as usize] {
            Some(true) => result.proven += 1,
            Some(false) => result.disproven += 1,
            None => result.open += 1,
        }
    }
    if let Some(w) = outcome {
        result.certificate = Some(start_certificate(&ctx, &state, &mut marks, w)?);
        result.outcome = if w {
            RunOutcome::Proven
        } else {
            RunOutcome::Disproven
        };
    }
    result.seconds = t0.elapsed().as_secs_f64();
    Ok(result)
}

/// The frontier nodes' entries in the state (goal side `side`), and how many
/// there are.
fn resume(g: &Graph, state: &State, side: usize) -> Result<(Marks, usize)> {
    let n = g.nodes.len();
    // Per node: the state entry, when there is one.
    let mut entry_of: Vec<Option<usize>> = vec![None; n];
    let mut resumed = 0;
    for (ei, e) in state.entries.iter().enumerate() {
        if e.side as usize != side {
            continue;
        }
        let Ok(k) = u64::from_str_radix(&e.key, 16) else {
            return Err(Error::input_data(format!(
                "the frontier state names key '{}' (hex expected)",
                crate::error::bounded(&e.key)
            )));
        };
        if let Some(&i) = g.index.get(&k) {
            if g.nodes[i as usize].kind == Kind2::Frontier {
                entry_of[i as usize] = Some(ei);
                resumed += 1;
            }
        }
    }
    let known = entry_of
        .iter()
        .map(|ei| ei.and_then(|ei| known_of(&state.entries[ei])))
        .collect();
    let marks = Marks {
        entry_of,
        certs: vec![None; n],
        known,
    };
    Ok((marks, resumed))
}

/// The settings that shape a reproducible run's results, as its state records them.
fn reproducible_settings(cfg: &FrontierConfig) -> String {
    format!(
        "reproducible runs: depth {}, a {} MiB table, {} scoring nodes, \
         {} to {} nodes a run, generations {}, symmetry {}, init {:?}, quick check {}",
        cfg.depth,
        cfg.hash_mib.max(1),
        cfg.score_nodes.max(1),
        cfg.job_nodes.max(1),
        cfg.max_job_nodes.max(1),
        cfg.generations,
        cfg.symmetry,
        cfg.init,
        cfg.quick_check
    )
}

fn cost_text(c: u64) -> String {
    if c == INF {
        "none".into()
    } else {
        c.to_string()
    }
}

/// The value of the start for its mover from up to two frontier runs (as
/// [`Prover::value`](super::Prover::value)): the mover's win, else the opponent's, else a draw.
pub fn frontier_value(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    cfg: &FrontierConfig,
    progress: &dyn Progress,
) -> Result<(Option<Value>, Vec<FrontierResult>)> {
    let mover = game.side_to_move(&game.start());
    let first = frontier(game, tables, mover, cfg, progress)?;
    match first.outcome {
        RunOutcome::Proven => return Ok((Some(Value::Win), vec![first])),
        RunOutcome::Unknown => return Ok((None, vec![first])),
        RunOutcome::Disproven => {}
    }
    let mut cfg2 = cfg.clone();
    cfg2.time = cfg
        .time
        .map(|t| t.saturating_sub(Duration::from_secs_f64(first.seconds)));
    let second = frontier(game, tables, 1 - mover, &cfg2, progress)?;
    let v = match second.outcome {
        RunOutcome::Proven => Some(Value::Loss),
        RunOutcome::Disproven => Some(Value::Draw),
        RunOutcome::Unknown => None,
    };
    Ok((v, vec![first, second]))
}
