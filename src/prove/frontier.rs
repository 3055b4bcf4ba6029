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
//! first line is `HSFRONTIER 1 <crc32 of the rest>`, then a JSON document of
//! [`State`]: the rules, fingerprint, and per frontier position (by the
//! class's hash and the goal side) its outcome, tries, root numbers and
//! certificate file. A rerun reads it and skips what is settled; a state file
//! of other rules or a damaged one is refused.

mod assemble;
mod graph;
mod state;

pub use state::{Entry, State, STATE_FILE};

use super::certificate::{Certificate, Kind, TableRef};
use super::check::check;
use super::dfpn::{Init, ProveConfig, Prover, RunOutcome};
use super::tables::TableDirs;
use super::ProofTable;
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use crate::hunt::{HuntGame, HuntPos};
use crate::progress::{stop_requested, NoProgress, Progress};
use assemble::{assemble, load_cert};
use graph::{enumerate, evaluate, select, Kind2, NO_RANK};
use serde::Serialize;
use state::{read_state, state_path, write_state};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
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
    /// The file's trailer crc32 (of every byte before the last 12).
    pub crc32: u32,
    /// Frontier certificates spliced in (one per image used).
    pub spliced: usize,
    /// Table leaves (by the check).
    pub table_leaves: u64,
    /// Whether the independent check found it holds (always true in a result:
    /// one that does not hold is an error).
    pub holds: bool,
}

/// A proof run of one frontier position.
struct Job {
    node: u32,
    nodes: u64,
}

/// What a run found.
struct Done {
    node: u32,
    outcome: RunOutcome,
    nodes: u64,
    limit: u64,
    pn: u32,
    dn: u32,
    /// Stopped by the driver (the start was decided, time is out): not a try.
    interrupted: bool,
    cert: Option<Result<Certificate>>,
}

struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
}

fn lock(q: &Mutex<Queue>) -> std::sync::MutexGuard<'_, Queue> {
    q.lock().unwrap_or_else(|e| e.into_inner())
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
        return Err(Error::Input(format!("goal side {side}: 0 or 1 expected")));
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
    });
    progress.message(&format!("enumerating {} plies", cfg.depth));
    let g = enumerate(game, tables, cfg, side)?;
    let n = g.nodes.len();
    let frontier_ids: Vec<u32> = (0..n as u32)
        .filter(|&i| g.nodes[i as usize].kind == Kind2::Frontier)
        .collect();
    // Per node: the state entry, when there is one.
    let mut entry_of: Vec<Option<usize>> = vec![None; n];
    let mut certs: Vec<Option<Certificate>> = vec![None; n];
    let mut resumed = 0;
    for (ei, e) in state.entries.iter().enumerate() {
        if e.side as usize != side {
            continue;
        }
        let Ok(k) = u64::from_str_radix(&e.key, 16) else {
            return Err(Error::Input(format!(
                "the frontier state file names key '{}' (hex expected)",
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
    let known_of = |e: &Entry| match e.outcome {
        RunOutcome::Proven => Some(true),
        RunOutcome::Disproven => Some(false),
        RunOutcome::Unknown => None,
    };
    let mut known: Vec<Option<bool>> = vec![None; n];
    for i in 0..n {
        if let Some(ei) = entry_of[i] {
            known[i] = known_of(&state.entries[ei]);
        }
    }
    let mut result = FrontierResult {
        rules: rules.clone(),
        side: game.side_name(side).to_string(),
        depth: cfg.depth,
        outcome: RunOutcome::Unknown,
        graph_nodes: n,
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
    let deadline = cfg.time.map(|t| t0 + t);
    let time_left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let tt = ProofTable::new(cfg.hash_mib.max(1));
    let stop = Arc::new(AtomicBool::new(false));
    let queue = Mutex::new(Queue {
        jobs: VecDeque::new(),
        closed: false,
    });
    let wake = Condvar::new();
    let (tx, rx) = mpsc::channel::<Done>();
    let threads = cfg.threads.max(1);

    let decided = |known: &[Option<bool>]| -> Option<bool> {
        let ev = evaluate(&g, known);
        if ev.win_rank[0] != NO_RANK {
            Some(true)
        } else if ev.no_win[0] {
            Some(false)
        } else {
            None
        }
    };

    let outcome = std::thread::scope(|scope| -> Result<Option<bool>> {
        // The workers: one df-pn run at a time each, on the shared table.
        let close = |stop_runs: bool| {
            if stop_runs {
                stop.store(true, Ordering::Relaxed);
            }
            lock(&queue).closed = true;
            wake.notify_all();
        };
        for _ in 0..threads {
            let tx = tx.clone();
            let (queue, wake, stop, tt, g) = (&queue, &wake, &stop, &tt, &g);
            let time_left = &time_left;
            let spawned = std::thread::Builder::new()
                .name("frontier".into())
                .spawn_scoped(scope, move || loop {
                    let job = {
                        let mut q = lock(queue);
                        loop {
                            if q.closed {
                                return;
                            }
                            if let Some(j) = q.jobs.pop_front() {
                                break j;
                            }
                            q = wake.wait(q).unwrap_or_else(|e| e.into_inner());
                        }
                    };
                    let pos = g.nodes[job.node as usize].pos;
                    let pcfg = ProveConfig {
                        threads: 1,
                        nodes: Some(job.nodes),
                        time: time_left(),
                        stop: stop.clone(),
                        symmetry: cfg.symmetry,
                        init: cfg.init,
                        quick_check: cfg.quick_check,
                        ..Default::default()
                    };
                    let prover = Prover::new(game, tables, tt, pcfg);
                    let r = prover.prove_side(&pos, side, &NoProgress);
                    let interrupted = r.outcome == RunOutcome::Unknown
                        && (stop.load(Ordering::Relaxed)
                            || stop_requested()
                            || time_left().is_some_and(|t| t.is_zero()));
                    let cert = (r.outcome != RunOutcome::Unknown).then(|| {
                        let leaf = |p: &HuntPos| -> Result<Option<TableRef>> {
                            Ok(tables.leaf(game, p)?.map(|x| x.0))
                        };
                        super::dfpn::extract(
                            &prover,
                            &pos,
                            side,
                            r.outcome,
                            &leaf,
                            MAX_JOB_CERT_NODES,
                        )
                    });
                    let done = Done {
                        node: job.node,
                        outcome: r.outcome,
                        nodes: r.nodes,
                        limit: job.nodes,
                        pn: r.pn,
                        dn: r.dn,
                        interrupted,
                        cert,
                    };
                    if tx.send(done).is_err() {
                        return;
                    }
                });
            if let Err(e) = spawned {
                close(true);
                return Err(Error::io("starting a frontier thread", e));
            }
        }
        drop(tx);
        let run = (|| -> Result<Option<bool>> {
            let mut running = 0usize;
            // 1. Scoring: every frontier position not in the state.
            let to_score: Vec<u32> = frontier_ids
                .iter()
                .copied()
                .filter(|&i| entry_of[i as usize].is_none())
                .collect();
            progress.stage("frontier: scoring", to_score.len() as u64);
            {
                let mut q = lock(&queue);
                for &i in &to_score {
                    q.jobs.push_back(Job {
                        node: i,
                        nodes: cfg.score_nodes.max(1),
                    });
                    running += 1;
                }
            }
            wake.notify_all();
            let mut scoring = true;
            // Whether a value became known since the last evaluation.
            let mut dirty = true;
            let mut saved = Instant::now();
            let mut since_eval = 0u32;
            loop {
                if stop_requested() {
                    return Err(Error::Interrupted);
                }
                // While scoring, the graph is evaluated every 64 new values
                // (an evaluation walks the whole graph).
                if dirty && (!scoring || running == 0 || since_eval >= 64) {
                    dirty = false;
                    since_eval = 0;
                    if let Some(v) = decided(&known) {
                        return Ok(Some(v));
                    }
                }
                if time_left().is_some_and(|t| t.is_zero()) {
                    return Ok(None);
                }
                if running == 0 {
                    if scoring {
                        scoring = false;
                        progress.finish_stage();
                        progress.stage("frontier: proving", 0);
                    }
                    // 3. Select and queue the selected positions.
                    let sel = select(&g, &known, &entry_of, &state.entries, cfg);
                    result.root_proof_cost = sel.proof_cost;
                    result.root_disproof_cost = sel.disproof_cost;
                    result.selections += 1;
                    result.last_selection = sel.jobs.len();
                    if sel.jobs.is_empty() {
                        return Ok(None);
                    }
                    progress.message(&format!(
                        "selection {}: {} positions (cost to prove {}, to disprove {})",
                        result.selections,
                        sel.jobs.len(),
                        cost_text(sel.proof_cost.unwrap_or(INF)),
                        cost_text(sel.disproof_cost.unwrap_or(INF))
                    ));
                    running += sel.jobs.len();
                    lock(&queue).jobs.extend(sel.jobs);
                    wake.notify_all();
                }
                let wait = time_left()
                    .unwrap_or(Duration::from_secs(1))
                    .min(Duration::from_millis(500));
                let d = match rx.recv_timeout(wait) {
                    Ok(d) => d,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(Error::Internal("the frontier workers ended early".into()))
                    }
                };
                running -= 1;
                result.runs += 1;
                result.nodes += d.nodes;
                if scoring {
                    progress.advance(1);
                }
                if d.interrupted {
                    continue;
                }
                let i = d.node as usize;
                let x = &g.nodes[i];
                let ei = match entry_of[i] {
                    Some(ei) => ei,
                    None => {
                        state.entries.push(Entry {
                            key: format!("{:016x}", x.key),
                            position: game.format_position(&x.pos),
                            side: side as u8,
                            outcome: RunOutcome::Unknown,
                            tries: 0,
                            nodes: 0,
                            pn: 1,
                            dn: 1,
                            limit: 0,
                            certificate: None,
                        });
                        entry_of[i] = Some(state.entries.len() - 1);
                        state.entries.len() - 1
                    }
                };
                let mut outcome = d.outcome;
                let mut file = None;
                if let Some(c) = d.cert {
                    match c {
                        Ok(c) => {
                            if let Some(dir) = &cert_dir {
                                let name = format!(
                                    "{:016x}.s{side}.{}.proof",
                                    x.key,
                                    if outcome == RunOutcome::Proven {
                                        "win"
                                    } else {
                                        "no-win"
                                    }
                                );
                                c.write(&dir.join(&name))?;
                                file = Some(name);
                            }
                            certs[i] = Some(c);
                        }
                        Err(Error::Interrupted) => return Err(Error::Interrupted),
                        // No certificate: the result does not count (tried again later).
                        Err(_) => outcome = RunOutcome::Unknown,
                    }
                }
                let e = &mut state.entries[ei];
                e.outcome = outcome;
                e.tries += 1;
                e.nodes = e.nodes.max(d.nodes);
                e.pn = d.pn;
                e.dn = d.dn;
                e.certificate = file;
                if outcome == RunOutcome::Unknown {
                    e.limit = e.limit.max(d.limit);
                }
                known[i] = known_of(e);
                if known[i].is_some() {
                    dirty = true;
                    since_eval += 1;
                }
                // The state at most every 10 s (the certificates are on disk
                // already); a killed run loses the results of those seconds.
                if let Some(dir) = &cfg.out {
                    if saved.elapsed() >= Duration::from_secs(10) {
                        write_state(dir, &state)?;
                        saved = Instant::now();
                    }
                }
            }
        })();
        close(true);
        run
    });
    if let Some(dir) = &cfg.out {
        write_state(dir, &state)?;
    }
    let outcome = outcome?;
    for &i in &frontier_ids {
        match known[i as usize] {
            Some(true) => result.proven += 1,
            Some(false) => result.disproven += 1,
            None => result.open += 1,
        }
    }
    if let Some(w) = outcome {
        // Certificates of resumed positions come from their files.
        for &i in &frontier_ids {
            let i = i as usize;
            if known[i].is_some() && certs[i].is_none() {
                let e = &state.entries[entry_of[i].unwrap_or(0)];
                certs[i] = Some(load_cert(game, cfg, e)?);
            }
        }
        let ev = evaluate(&g, &known);
        let (cert, spliced) = assemble(game, tables, &g, &ev, &certs, side, w, cfg.symmetry)?;
        let bytes = cert.encode();
        let mut file = None;
        if let Some(d) = &cfg.out {
            let safe: String = rules
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let path = d.join(format!(
                "{safe}.s{side}.d{}.{}.proof",
                cfg.depth,
                if w { "win" } else { "no-win" }
            ));
            cert.write(&path)?;
            file = Some(path.display().to_string());
        }
        let probe = |p: &HuntPos| tables.leaf(game, p);
        let report = check(game, &cert, &probe)?;
        let want = if w { Kind::Win } else { Kind::NoWin };
        let holds = report.ok()
            && cert.header.kind == want
            && cert.header.side as usize == side
            && cert.header.position == game.format_position(&game.start());
        if !holds {
            return Err(Error::Disagreement(format!(
                "frontier: the start's certificate ({}) does not hold: {}",
                file.as_deref().unwrap_or("in memory"),
                report.examples.first().map_or("", |s| s.as_str())
            )));
        }
        result.outcome = if w {
            RunOutcome::Proven
        } else {
            RunOutcome::Disproven
        };
        result.certificate = Some(StartCert {
            file,
            nodes: cert.nodes.len(),
            bytes: bytes.len(),
            crc32: crc32fast::hash(&bytes[..bytes.len().saturating_sub(12)]),
            spliced,
            table_leaves: report.table_leaves,
            holds,
        });
    }
    result.seconds = t0.elapsed().as_secs_f64();
    Ok(result)
}

fn cost_text(c: u64) -> String {
    if c == INF {
        "none".into()
    } else {
        c.to_string()
    }
}

/// The value of the start for its mover from up to two frontier runs (as
/// [`Prover::value`]): the mover's win, else the opponent's, else a draw.
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
