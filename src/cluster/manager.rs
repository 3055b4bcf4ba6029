//! The manager (rank 0): checks the workers, keeps the tiers on disk, hands the
//! ready tiers out as [`crate::retro::schedule::Schedule`] decides, and writes the
//! summary.

use super::messages::{receive, send, stop_all, Order, Report};
use super::{ClusterOptions, Event, Job, Observer};
use crate::error::{Error, Result};
use crate::retro::driver::{
    check_memory_serial, kept_tier, make_summary, open_out_dir, plan, stored_start_record,
    write_summary, Plan, SolveReport, Summary, TierSummary,
};
use crate::retro::lock::LOCK_FILE;
use crate::retro::schedule::{Schedule, Verdict};
use crate::retro::{Scope, Solvable};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

/// The manager's setup: the plan, the memory check, the output directory.
fn manager_setup<G: Solvable>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
) -> Result<(Plan<G::Tier>, crate::retro::lock::DirLock)> {
    let plan = plan(game, scope)?;
    // The limit given applies to each worker; the manager itself holds no records.
    // Workers solve each tier as the one-process driver would under that limit
    // (compact, children sparse: `worker::work_on`).
    check_memory_serial(
        game,
        scope,
        &plan,
        options.memory_limit,
        crate::retro::driver::Compact::Auto,
    )?;
    let lock = open_out_dir(out_dir)?;
    Ok((plan, lock))
}

pub(super) fn manager<G: Solvable>(job: &Job<G>) -> Result<SolveReport> {
    let mut stopped = false;
    let result = manage(job, &mut stopped);
    // Whatever went wrong, the workers wait for an order: let them go (once). After an
    // interrupt they were signalled too, and some may be gone.
    if !stopped && !matches!(result, Err(Error::Interrupted)) {
        stop_all(&job.cluster.world);
    }
    result
}

/// The manager's work; sets `stopped` once it has told every worker to stop.
fn manage<G: Solvable>(job: &Job<G>, stopped: &mut bool) -> Result<SolveReport> {
    let world = &job.cluster.world;
    let workers = (world.size() - 1) as usize;
    let (plan, _lock) = manager_setup(job.game, job.scope, job.out_dir, job.options)?;
    let hosts = check_workers(world, job.out_dir)?;

    let order: Vec<G::Tier> = plan.waves.iter().flatten().copied().collect();
    let index_of: HashMap<G::Tier, usize> =
        order.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    let mut done: BTreeMap<G::Tier, TierSummary> = BTreeMap::new();
    // Resume: whole tables of these rules are kept.
    let mut kept = vec![false; order.len()];
    for (i, &t) in order.iter().enumerate() {
        if let Some(summary) = kept_tier(job.game, t, job.out_dir)? {
            done.insert(t, summary);
            kept[i] = true;
        }
    }
    let children: Vec<Vec<usize>> = order
        .iter()
        .map(|&t| {
            job.game
                .stored_children(t)
                .iter()
                .map(|c| index_of[c])
                .collect()
        })
        .collect();
    let sizes = order.iter().map(|&t| job.game.tier_size(t)).collect();
    let mut schedule = Schedule::new(sizes, &children, &kept, 1..world.size())
        .ok_or_else(|| Error::Internal("a stored child outside the plan".into()))?;
    let resumed = done.len();
    job.observer.event(&Event::Started {
        workers,
        tiers: order.len(),
        kept: resumed,
    });

    let mut run = Run {
        order: &order,
        hosts: &hosts,
        done,
        failures: Vec::new(),
        solved: 0,
        slots_solved: 0,
        started: Instant::now(),
    };
    run.hand_out(world, job.game, &mut schedule, job.observer)?;
    // Every worker is idle: let them go before the summary is read and written.
    stop_all(world);
    *stopped = true;
    if !run.failures.is_empty() {
        return Err(Error::Cluster(format!(
            "{}; the {} tables finished are kept in {} and a rerun resumes",
            run.failures.join("; "),
            run.done.len(),
            job.out_dir.display()
        )));
    }
    if run.done.len() < order.len() {
        return Err(Error::Internal(format!(
            "{} of {} tiers were never ready",
            order.len() - run.done.len(),
            order.len()
        )));
    }
    // The start position's value, read back from its tier's table.
    let start_record = stored_start_record(job.game, job.out_dir, |t| index_of.contains_key(&t))?;
    let summary = Summary {
        made_by: job.options.made_by.clone(),
        ..make_summary(job.game, &plan, &run.done, start_record)
    };
    write_summary(job.out_dir, &summary)?;
    Ok(SolveReport {
        summary,
        solved: run.solved,
        resumed,
        seconds: run.started.elapsed().as_secs_f64(),
        slots_solved: run.slots_solved,
    })
}

/// Asks every worker to check that it sees the directory the manager locked
/// (through its lock file), can write to it and has the memory: the workers'
/// nodes by rank, or [`Error::Cluster`] with every worker's problem.
fn check_workers(world: &SimpleCommunicator, out_dir: &Path) -> Result<HashMap<i32, String>> {
    let workers = (world.size() - 1) as usize;
    let lock_text = crate::regular::read_to_string(out_dir.join(LOCK_FILE))
        .map_err(|e| Error::io(format!("reading {}", out_dir.join(LOCK_FILE).display()), e))?;
    for r in 1..world.size() {
        send(
            world,
            r,
            &Order::Check {
                lock: lock_text.clone(),
            },
        )?;
    }
    let mut hosts: HashMap<i32, String> = HashMap::new();
    let mut problems = Vec::new();
    while hosts.len() < workers {
        let (rank, report) = receive::<Report>(world, None)?;
        match report {
            Report::Ready { host, error } => {
                if let Some(e) = error {
                    problems.push(format!("rank {rank} on {host}: {e}"));
                }
                hosts.insert(rank, host);
            }
            other => {
                return Err(Error::Internal(format!(
                    "rank {rank} answered the check with {other:?}"
                )))
            }
        }
    }
    if !problems.is_empty() {
        return Err(Error::Cluster(format!(
            "{} of {workers} workers cannot take part:\n  {}",
            problems.len(),
            problems.join("\n  ")
        )));
    }
    Ok(hosts)
}

/// The tiers handed out and the reports taken so far.
struct Run<'a, T> {
    /// The plan's tiers in order (a tier travels as its index here).
    order: &'a [T],
    /// Every worker's node.
    hosts: &'a HashMap<i32, String>,
    /// Tiers finished, kept ones included.
    done: BTreeMap<T, TierSummary>,
    /// What failed, one line a tier.
    failures: Vec<String>,
    /// Tiers solved in this run, and their slots.
    solved: usize,
    slots_solved: u64,
    started: Instant,
}

impl<T: Copy + Ord> Run<'_, T> {
    fn host(&self, rank: i32) -> String {
        self.hosts.get(&rank).cloned().unwrap_or_default()
    }

    /// Sends the orders `schedule` decides and takes the workers' reports until
    /// no tier is in flight; after a stop request, reports the tiers in flight
    /// and returns [`Error::Interrupted`].
    fn hand_out<G: Solvable<Tier = T>>(
        &mut self,
        world: &SimpleCommunicator,
        game: &G,
        schedule: &mut Schedule,
        observer: &dyn Observer,
    ) -> Result<()> {
        loop {
            for (rank, i) in schedule.assign() {
                send(world, rank, &Order::Solve { index: i })?;
            }
            if schedule.is_over() {
                return Ok(());
            }
            let (rank, report) = match receive::<Report>(world, None) {
                Ok(x) => x,
                Err(Error::Interrupted) => {
                    let in_flight = schedule
                        .in_flight()
                        .map(|(r, i)| (game.tier_name(self.order[i]), r, self.host(r)))
                        .collect();
                    observer.event(&Event::Stopped { in_flight });
                    return Err(Error::Interrupted);
                }
                Err(e) => return Err(e),
            };
            self.take(game, schedule, observer, rank, report)?;
        }
    }

    /// One worker's report.
    fn take<G: Solvable<Tier = T>>(
        &mut self,
        game: &G,
        schedule: &mut Schedule,
        observer: &dyn Observer,
        rank: i32,
        report: Report,
    ) -> Result<()> {
        let unexpected = |other: Report| {
            Error::Internal(format!("rank {rank} sent an unexpected report {other:?}"))
        };
        match report {
            Report::Done {
                index,
                summary,
                seconds,
            } => {
                if schedule.solved(rank, index) == Verdict::Unexpected {
                    return Err(unexpected(Report::Done {
                        index,
                        summary,
                        seconds,
                    }));
                }
                let t = self.order[index];
                self.solved += 1;
                self.slots_solved += game.tier_size(t);
                self.done.insert(t, summary);
                let elapsed = self.started.elapsed().as_secs_f64();
                observer.event(&Event::Solved {
                    tier: game.tier_name(t),
                    rank,
                    seconds,
                    done: self.done.len(),
                    total: self.order.len(),
                    slots_per_second: if elapsed > 0.0 {
                        self.slots_solved as f64 / elapsed
                    } else {
                        0.0
                    },
                });
            }
            Report::Failed { index, error } => {
                if schedule.failed(rank, index) == Verdict::Unexpected {
                    return Err(unexpected(Report::Failed { index, error }));
                }
                let tier = game.tier_name(self.order[index]);
                let host = self.host(rank);
                observer.event(&Event::Failed {
                    tier: tier.clone(),
                    rank,
                    host: host.clone(),
                    error: error.clone(),
                });
                self.failures.push(format!(
                    "tier {tier} failed on rank {rank} ({host}): {error}"
                ));
            }
            other => return Err(unexpected(other)),
        }
        Ok(())
    }
}
