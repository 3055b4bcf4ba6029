//! A worker (every rank but 0): checks the shared directory and its memory, then
//! solves the tiers the manager orders, one at a time.

use super::messages::{receive, send, Order, Report};
use super::{Cluster, ClusterOptions, Job};
use crate::error::{Error, Result};
use crate::progress::NoProgress;
use crate::retro::driver::{
    check_memory_serial, format_bytes, plan, solve_tier_alone, Compact, Plan, SolveOptions,
    TierSummary,
};
use crate::retro::lock::LOCK_FILE;
use crate::retro::{ChildRecords, Scope, Solvable};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// A worker's state once its setup succeeded.
struct WorkerState<G: Solvable> {
    order: Vec<G::Tier>,
    pool: rayon::ThreadPool,
    limit: Option<u64>,
    /// Whether the plan fits `limit` one tier at a time, the largest tiers
    /// solved compact (their children held sparse where needed): the error if not.
    fits: std::result::Result<(), String>,
    /// How each tier is solved: the one-process driver's choice under `limit`.
    options: SolveOptions,
    /// Child records of the last tier, reused when the next one shares them.
    cache: HashMap<G::Tier, ChildRecords>,
}

fn worker_setup<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    options: &ClusterOptions,
) -> Result<WorkerState<G>> {
    let (limit, pool) = options.rank_resources(cluster.local_workers())?;
    let plan: Plan<G::Tier> = plan(game, scope)?;
    let fits =
        check_memory_serial(game, scope, &plan, limit, Compact::Auto).map_err(|e| e.to_string());
    Ok(WorkerState {
        order: plan.waves.iter().flatten().copied().collect(),
        pool,
        limit,
        fits,
        options: SolveOptions {
            threads: 0,
            memory_limit: limit,
            compact: Compact::Auto,
            made_by: None,
            ..SolveOptions::default()
        },
        cache: HashMap::new(),
    })
}

/// What is wrong with this worker's view of the output directory or its memory.
fn check_worker<G: Solvable>(
    cluster: &Cluster,
    state: &WorkerState<G>,
    out_dir: &Path,
    lock: &str,
) -> Option<String> {
    let dir = out_dir.display();
    let lock_path = out_dir.join(LOCK_FILE);
    match crate::regular::read_to_string(&lock_path) {
        Err(e) => {
            return Some(format!(
                "cannot reach the shared output directory {dir}: reading {}: {e} (the directory must be on a filesystem every node mounts at the same path)",
                lock_path.display()
            ))
        }
        Ok(text) if text != lock => {
            return Some(format!(
                "{dir} here is not the directory the manager writes (its lock file differs): the output directory must be on a filesystem every node shares"
            ))
        }
        Ok(_) => {}
    }
    let probe = out_dir.join(format!(".huntsolve.probe.{}", cluster.rank()));
    if let Err(e) = std::fs::write(&probe, b"probe\n").and_then(|()| std::fs::remove_file(&probe)) {
        return Some(format!(
            "cannot write into the shared output directory {dir}: {}: {e}",
            probe.display()
        ));
    }
    match (&state.fits, state.limit) {
        (Err(e), Some(l)) => Some(format!(
            "{e} (this worker's limit {} with {} workers on this node); give each worker more memory (--memory, fewer ranks per node)",
            format_bytes(l),
            cluster.local_workers()
        )),
        _ => None,
    }
}

/// Solves `tier` from its children's tables in `out_dir` and writes its table,
/// as the one-process driver does under this worker's limit: the full solver
/// where it fits, else the compact one (its children held sparse where even
/// that is over the limit, refused when their wins and losses are), with
/// checkpoints, so a tier killed on a worker resumes where it was when it is
/// given out again.
fn work_on<G: Solvable>(
    game: &G,
    state: &mut WorkerState<G>,
    index: usize,
    out_dir: &Path,
) -> Result<TierSummary> {
    let tier = *state
        .order
        .get(index)
        .ok_or_else(|| Error::Internal(format!("tier index {index} is outside the plan")))?;
    let WorkerState {
        pool,
        options,
        cache,
        ..
    } = state;
    pool.install(|| solve_tier_alone(game, tier, out_dir, options, cache, &NoProgress))
}

pub(super) fn worker<G: Solvable>(job: &Job<G>) -> Result<()> {
    let world = &job.cluster.world;
    // A failed setup is reported to the manager at its check, not here, so that
    // the manager can stop the job with every rank's reason.
    let mut setup = worker_setup(job.cluster, job.game, job.scope, job.options);
    loop {
        let (_, order) = receive::<Order>(world, Some(0))?;
        match order {
            Order::Stop => return Ok(()),
            Order::Check { lock } => {
                let error = match &setup {
                    Ok(state) => check_worker(job.cluster, state, job.out_dir, &lock),
                    Err(e) => Some(e.to_string()),
                };
                let host = job.cluster.host().to_string();
                send(world, 0, &Report::Ready { host, error })?;
            }
            Order::Solve { index } => {
                let started = Instant::now();
                let result = match &mut setup {
                    Ok(state) => work_on(job.game, state, index, job.out_dir),
                    Err(e) => Err(Error::Internal(format!(
                        "solve order after setup failed: {e}"
                    ))),
                };
                let report = match result {
                    Ok(summary) => Report::Done {
                        index,
                        summary,
                        seconds: started.elapsed().as_secs_f64(),
                    },
                    Err(Error::Interrupted) => return Err(Error::Interrupted),
                    Err(e) => Report::Failed {
                        index,
                        error: e.to_string(),
                    },
                };
                send(world, 0, &report)?;
            }
        }
    }
}
