//! Steps 2 and 4 of the frontier method: the worker threads (one df-pn run at
//! a time each, all on one shared proof table) and the driver's loop, which
//! queues the scoring runs, then each selection, and records every result in
//! the state (and its certificate under `certs/`).

use super::graph::{evaluate, select, Graph, Job, NO_RANK};
use super::snapshot;
use super::state::{write_state, Entry, Pending, State};
use super::{cost_text, FrontierConfig, FrontierResult, INF, MAX_JOB_CERT_NODES};
use crate::error::{Error, Result};
use crate::game::Notation;
use crate::hunt::{HuntGame, HuntPos};
use crate::progress::{stop_requested, NoProgress, Progress};
use crate::prove::certificate::{Certificate, TableRef};
use crate::prove::dfpn::{ProveConfig, Prover, RunOutcome};
use crate::prove::tables::TableDirs;
use crate::prove::ProofTable;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What one frontier call works on, shared by the driver and its workers.
pub(super) struct Ctx<'a> {
    pub(super) game: &'a HuntGame,
    pub(super) tables: &'a TableDirs<HuntGame>,
    pub(super) cfg: &'a FrontierConfig,
    /// The goal side.
    pub(super) side: usize,
    pub(super) g: &'a Graph,
    /// The graph's frontier nodes.
    pub(super) frontier: &'a [u32],
    /// Where decided positions' certificates go (with an output directory).
    pub(super) cert_dir: Option<PathBuf>,
    /// When the time is out (`None`: no time limit).
    pub(super) deadline: Option<Instant>,
}

impl Ctx<'_> {
    fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    fn time_out(&self) -> bool {
        self.time_left().is_some_and(|t| t.is_zero())
    }
}

/// What is known per graph node: its state entry, its certificate and its
/// value (`Some(true)`: the goal side wins).
pub(super) struct Marks {
    pub(super) entry_of: Vec<Option<usize>>,
    pub(super) certs: Vec<Option<Certificate>>,
    pub(super) known: Vec<Option<bool>>,
}

/// The value a state entry records (`None`: open).
pub(super) fn known_of(e: &Entry) -> Option<bool> {
    match e.outcome {
        RunOutcome::Proven => Some(true),
        RunOutcome::Disproven => Some(false),
        RunOutcome::Unknown => None,
    }
}

/// Whether the graph decides the start, given the frontier's values.
fn decided(g: &Graph, known: &[Option<bool>]) -> Option<bool> {
    let ev = evaluate(g, known);
    if ev.win_rank[0] != NO_RANK {
        Some(true)
    } else if ev.no_win[0] {
        Some(false)
    } else {
        None
    }
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

/// The jobs and the stop flag the driver shares with its workers.
struct Pool {
    queue: Mutex<Queue>,
    wake: Condvar,
    stop: Arc<AtomicBool>,
}

impl Pool {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the runs and closes the queue: every worker ends.
    fn close(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.lock().closed = true;
        self.wake.notify_all();
    }

    fn push(&self, jobs: impl IntoIterator<Item = Job>) {
        self.lock().jobs.extend(jobs);
        self.wake.notify_all();
    }

    /// The next job, waiting for one; `None` once the queue is closed.
    fn next(&self) -> Option<Job> {
        let mut q = self.lock();
        loop {
            if q.closed {
                return None;
            }
            if let Some(j) = q.jobs.pop_front() {
                return Some(j);
            }
            q = self.wake.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// One worker thread: the queued jobs one at a time, until the queue closes.
fn work(ctx: &Ctx, pool: &Pool, tt: &ProofTable, tx: mpsc::Sender<Done>) {
    while let Some(job) = pool.next() {
        if tx
            .send(run_job(ctx, &pool.stop, tt, &job, ctx.time_left()))
            .is_err()
        {
            return;
        }
    }
}

/// One df-pn run of a frontier position, with its certificate when it decides it.
/// `time`: the run's time limit (`None`: none; the shared-table driver
/// gives it the time left).
fn run_job(
    ctx: &Ctx,
    stop: &Arc<AtomicBool>,
    tt: &ProofTable,
    job: &Job,
    time: Option<Duration>,
) -> Done {
    let (game, tables, cfg, side) = (ctx.game, ctx.tables, ctx.cfg, ctx.side);
    let pos = ctx.g.nodes[job.node as usize].pos;
    let pcfg = ProveConfig {
        threads: 1,
        nodes: Some(job.nodes),
        time,
        stop: stop.clone(),
        symmetry: cfg.symmetry,
        init: cfg.init,
        quick_check: cfg.quick_check,
        ..Default::default()
    };
    let prover = Prover::new(game, tables, tt, pcfg);
    let r = prover.prove_side(&pos, side, &NoProgress);
    let interrupted = r.outcome == RunOutcome::Unknown
        && (stop.load(Ordering::Relaxed) || stop_requested() || (time.is_some() && ctx.time_out()));
    let cert = (r.outcome != RunOutcome::Unknown).then(|| {
        let leaf =
            |p: &HuntPos| -> Result<Option<TableRef>> { Ok(tables.leaf(game, p)?.map(|x| x.0)) };
        crate::prove::dfpn::extract(&prover, &pos, side, r.outcome, &leaf, MAX_JOB_CERT_NODES)
    });
    Done {
        node: job.node,
        outcome: r.outcome,
        nodes: r.nodes,
        limit: job.nodes,
        pn: r.pn,
        dn: r.dn,
        interrupted,
        cert,
    }
}

/// Steps 2 and 4 on `threads` workers: scores the frontier positions not in
/// the state, then proves the selections, until the start is decided
/// (`Some(win)`), the time is out or nothing is left to try (`None`).
pub(super) fn prove_frontier(
    ctx: &Ctx,
    state: &mut State,
    marks: &mut Marks,
    result: &mut FrontierResult,
    progress: &dyn Progress,
) -> Result<Option<bool>> {
    let tt = ProofTable::new(ctx.cfg.hash_mib.max(1));
    if ctx.cfg.reproducible {
        return drive_reproducible(ctx, &tt, state, marks, result, progress);
    }
    let pool = Pool {
        queue: Mutex::new(Queue {
            jobs: VecDeque::new(),
            closed: false,
        }),
        wake: Condvar::new(),
        stop: Arc::new(AtomicBool::new(false)),
    };
    let (tx, rx) = mpsc::channel::<Done>();
    let threads = ctx.cfg.threads.max(1);
    std::thread::scope(|scope| -> Result<Option<bool>> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (pool, tt) = (&pool, &tt);
            let spawned = std::thread::Builder::new()
                .name("frontier".into())
                .spawn_scoped(scope, move || work(ctx, pool, tt, tx));
            if let Err(e) = spawned {
                pool.close();
                return Err(Error::io("starting a frontier thread", e));
            }
        }
        drop(tx);
        let run = drive(ctx, &pool, &tt, &rx, state, marks, result, progress);
        pool.close();
        run
    })
}

/// While scoring, the graph is evaluated once every this many new values (an
/// evaluation walks the whole graph).
const EVAL_EVERY: u32 = 64;

/// Whether the driver evaluates the graph now: a value became known since the
/// last evaluation, and the scoring is over, or its runs are all taken
/// (`waiting`: runs queued and not yet taken), or [`EVAL_EVERY`] values came in.
/// Both drivers ask this, so that they stop at the same result.
fn evaluation_due(dirty: bool, scoring: bool, waiting: usize, since_eval: u32) -> bool {
    dirty && (!scoring || waiting == 0 || since_eval >= EVAL_EVERY)
}

/// The scoring runs: every frontier position not in the state, in frontier order.
fn scoring_jobs(ctx: &Ctx, marks: &Marks) -> Vec<Job> {
    ctx.frontier
        .iter()
        .filter(|&&i| marks.entry_of[i as usize].is_none())
        .map(|&i| Job {
            node: i,
            nodes: ctx.cfg.score_nodes.max(1),
        })
        .collect()
}

/// The driver's loop (see [`prove_frontier`]).
#[allow(clippy::too_many_arguments)]
fn drive(
    ctx: &Ctx,
    pool: &Pool,
    tt: &ProofTable,
    rx: &mpsc::Receiver<Done>,
    state: &mut State,
    marks: &mut Marks,
    result: &mut FrontierResult,
    progress: &dyn Progress,
) -> Result<Option<bool>> {
    let cfg = ctx.cfg;
    // 1. Scoring: every frontier position not in the state.
    let to_score = scoring_jobs(ctx, marks);
    progress.stage("frontier: scoring", to_score.len() as u64);
    let mut running = to_score.len();
    pool.push(to_score);
    let mut scoring = true;
    // Whether a value became known since the last evaluation.
    let mut dirty = true;
    let mut saved = Instant::now();
    let mut since_eval = 0u32;
    loop {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        if evaluation_due(dirty, scoring, running, since_eval) {
            dirty = false;
            since_eval = 0;
            if let Some(v) = decided(ctx.g, &marks.known) {
                return Ok(Some(v));
            }
        }
        if ctx.time_out() {
            return Ok(None);
        }
        if running == 0 {
            if scoring {
                scoring = false;
                progress.finish_stage();
                progress.stage("frontier: proving", 0);
            }
            // 3. Select and queue the selected positions.
            let queued = queue_selection(ctx, pool, tt, state, marks, result, progress);
            if queued == 0 {
                return Ok(None);
            }
            running += queued;
        }
        let wait = ctx
            .time_left()
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
        if record(ctx, d, state, marks)? {
            dirty = true;
            since_eval += 1;
        }
        // The state at most every 10 s (the certificates are on disk
        // already); a killed run loses the results of those seconds.
        if let Some(dir) = &cfg.out {
            if saved.elapsed() >= Duration::from_secs(10) {
                write_state(dir, state)?;
                saved = Instant::now();
            }
        }
    }
}

/// Step 3: selects the positions to prove next and queues them; the number
/// queued (0: nothing is left to try). Each selection is a new generation of
/// the proof table: the earlier selections' entries are replaced first.
fn queue_selection(
    ctx: &Ctx,
    pool: &Pool,
    tt: &ProofTable,
    state: &State,
    marks: &Marks,
    result: &mut FrontierResult,
    progress: &dyn Progress,
) -> usize {
    let jobs = next_selection(ctx, tt, state, marks, result, progress);
    let n = jobs.len();
    pool.push(jobs);
    n
}

/// Step 3: the positions to prove next, cheapest first (none: nothing is
/// left to try), with a new generation of the proof table for them.
fn next_selection(
    ctx: &Ctx,
    tt: &ProofTable,
    state: &State,
    marks: &Marks,
    result: &mut FrontierResult,
    progress: &dyn Progress,
) -> Vec<Job> {
    let sel = select(
        ctx.g,
        &marks.known,
        &marks.entry_of,
        &state.entries,
        ctx.cfg,
    );
    result.root_proof_cost = sel.proof_cost;
    result.root_disproof_cost = sel.disproof_cost;
    result.selections += 1;
    result.last_selection = sel.jobs.len();
    if sel.jobs.is_empty() {
        return Vec::new();
    }
    progress.message(&format!(
        "selection {}: {} positions (cost to prove {}, to disprove {}; table {}‰ full, repetition sets {}‰)",
        result.selections,
        sel.jobs.len(),
        cost_text(sel.proof_cost.unwrap_or(INF)),
        cost_text(sel.disproof_cost.unwrap_or(INF)),
        tt.hashfull(),
        tt.reps_full()
    ));
    if ctx.cfg.generations {
        tt.new_generation();
    }
    sel.jobs
}

/// The driver of a reproducible run (one thread; see the module docs of
/// `frontier`): the loop of [`drive`] with the runs made here, one at a time,
/// and the proof table saved with the state at boundaries between runs. The
/// steps and their order are [`drive`]'s on one worker, so an uninterrupted
/// run takes the same results.
fn drive_reproducible(
    ctx: &Ctx,
    tt: &ProofTable,
    state: &mut State,
    marks: &mut Marks,
    result: &mut FrontierResult,
    progress: &dyn Progress,
) -> Result<Option<bool>> {
    let cfg = ctx.cfg;
    let out = cfg.out.as_deref();
    let side = ctx.side as u8;
    let resumed = match out {
        Some(dir) => snapshot::load(dir, ctx.side, tt, state)?,
        None => None,
    };
    let (mut since_eval, mut dirty) = resumed.unwrap_or((0, true));
    // Scoring: every frontier position not in the state; else the selection
    // under way when the table was saved.
    let mut queue: VecDeque<Job> = scoring_jobs(ctx, marks).into();
    let mut scoring = !queue.is_empty();
    if scoring {
        state.set_pending(side, []);
        progress.stage("frontier: scoring", queue.len() as u64);
    } else {
        queue = pending_jobs(ctx, state)?;
        progress.stage("frontier: proving", 0);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut saved = Instant::now();
    let mut taken = 0u64;
    // Saves the table (`None`: no table, the start is decided) and the state,
    // at a boundary between runs.
    let save = |state: &mut State, tt: Option<&ProofTable>, since_eval: u32, dirty: bool| {
        if let Some(dir) = out {
            snapshot::save(dir, ctx.side, tt, state, since_eval, dirty)?;
            write_state(dir, state)?;
            snapshot::remove_others(dir, state);
        }
        Ok(())
    };
    loop {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        if evaluation_due(dirty, scoring, queue.len(), since_eval) {
            dirty = false;
            since_eval = 0;
            if let Some(v) = decided(ctx.g, &marks.known) {
                // A rerun evaluates at once and decides it again, running nothing.
                state.set_pending(side, []);
                save(state, None, EVAL_EVERY, true)?;
                return Ok(Some(v));
            }
        }
        if ctx.time_out() {
            save(state, Some(tt), since_eval, dirty)?;
            return Ok(None);
        }
        if queue.is_empty() {
            if scoring {
                scoring = false;
                progress.finish_stage();
                progress.stage("frontier: proving", 0);
            }
            queue = next_selection(ctx, tt, state, marks, result, progress).into();
            if queue.is_empty() {
                save(state, Some(tt), since_eval, dirty)?;
                return Ok(None);
            }
            state.set_pending(side, queue.iter().map(|j| pending_of(ctx, j)));
        }
        if saved.elapsed() >= cfg.snapshot_every {
            save(state, Some(tt), since_eval, dirty)?;
            saved = Instant::now();
        }
        let Some(job) = queue.pop_front() else {
            continue;
        };
        if !scoring {
            state.take_pending(side);
        }
        let d = run_job(ctx, &stop, tt, &job, None);
        result.runs += 1;
        result.nodes += d.nodes;
        if scoring {
            progress.advance(1);
        }
        if d.interrupted {
            // Stopped inside a run: the table holds part of it; the last
            // saved table and state stand.
            return Err(Error::Interrupted);
        }
        if record(ctx, d, state, marks)? {
            dirty = true;
            since_eval += 1;
        }
        taken += 1;
        if cfg.stop_after_results.is_some_and(|n| taken >= n) {
            save(state, Some(tt), since_eval, dirty)?;
            return Err(Error::Interrupted);
        }
    }
}

/// A selected run as the state keeps it.
fn pending_of(ctx: &Ctx, j: &Job) -> Pending {
    Pending {
        key: format!("{:016x}", ctx.g.nodes[j.node as usize].key),
        side: ctx.side as u8,
        nodes: j.nodes,
    }
}

/// The runs of the state's selection under way for this goal side, in order.
fn pending_jobs(ctx: &Ctx, state: &State) -> Result<VecDeque<Job>> {
    let side = ctx.side as u8;
    state
        .pending
        .iter()
        .filter(|p| p.side == side)
        .map(|p| {
            let node = u64::from_str_radix(&p.key, 16)
                .ok()
                .and_then(|k| ctx.g.index.get(&k))
                .copied()
                .filter(|&i| ctx.g.nodes[i as usize].kind == super::graph::Kind2::Frontier)
                .ok_or_else(|| {
                    Error::input_data(format!(
                        "the frontier state's selection names '{}', not a frontier position",
                        crate::error::bounded(&p.key)
                    ))
                })?;
            Ok(Job {
                node,
                nodes: p.nodes,
            })
        })
        .collect()
}

/// Records a finished run in the state entry of its position (made on its
/// first run), writing its certificate under `certs/`; whether the
/// position's value became known.
fn record(ctx: &Ctx, d: Done, state: &mut State, marks: &mut Marks) -> Result<bool> {
    let (game, side) = (ctx.game, ctx.side);
    let i = d.node as usize;
    let x = &ctx.g.nodes[i];
    let ei = match marks.entry_of[i] {
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
            marks.entry_of[i] = Some(state.entries.len() - 1);
            state.entries.len() - 1
        }
    };
    let mut outcome = d.outcome;
    let mut file = None;
    if let Some(c) = d.cert {
        match c {
            Ok(c) => {
                if let Some(dir) = &ctx.cert_dir {
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
                marks.certs[i] = Some(c);
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
    marks.known[i] = known_of(e);
    Ok(marks.known[i].is_some())
}
