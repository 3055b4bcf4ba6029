//! The manager (rank 0): checks the workers, keeps the tiers on disk, hands the
//! ready tiers out as [`crate::retro::schedule::Schedule`] decides, and writes the
//! summary.

use super::messages::{receive, send, stop_all, Order, Report};
use super::{Cluster, ClusterOptions, Event, Observer};
use crate::error::{Error, Result};
use crate::retro::driver::{
    check_memory_serial, kept_tier, load_records, make_summary, open_out_dir, plan, write_summary,
    Plan, SolveReport, TierSummary,
};
use crate::retro::lock::LOCK_FILE;
use crate::retro::{Scope, Solvable};
use crate::tier::decode;
use mpi::traits::*;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
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
    // Workers solve with the full solver only (no compact tiers over MPI yet).
    check_memory_serial(
        game,
        scope,
        &plan,
        options.memory_limit,
        crate::retro::driver::Compact::Never,
    )?;
    let lock = open_out_dir(out_dir)?;
    Ok((plan, lock))
}

pub(super) fn manager<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
    observer: &dyn Observer,
) -> Result<SolveReport> {
    let mut stopped = false;
    let result = manage(
        cluster,
        game,
        scope,
        out_dir,
        options,
        observer,
        &mut stopped,
    );
    // Whatever went wrong, the workers wait for an order: let them go (once). After an
    // interrupt they were signalled too, and some may be gone.
    if !stopped && !matches!(result, Err(Error::Interrupted)) {
        stop_all(&cluster.world);
    }
    result
}

/// The manager's work; sets `stopped` once it has told every worker to stop.
fn manage<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
    observer: &dyn Observer,
    stopped: &mut bool,
) -> Result<SolveReport> {
    let world = &cluster.world;
    let workers = (world.size() - 1) as usize;
    let (plan, _lock) = manager_setup(game, scope, out_dir, options)?;
    // Every worker must see the directory the manager locked, through its lock file.
    let lock_text = std::fs::read_to_string(out_dir.join(LOCK_FILE))
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

    let order: Vec<G::Tier> = plan.waves.iter().flatten().copied().collect();
    let index_of: HashMap<G::Tier, usize> =
        order.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    // Children not yet solved, and the parents to tell when a tier is.
    let mut waiting: Vec<usize> = vec![0; order.len()];
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); order.len()];
    for (i, &t) in order.iter().enumerate() {
        for c in game.stored_children(t) {
            let ci = index_of[&c];
            waiting[i] += 1;
            parents[ci].push(i);
        }
    }
    let mut done: BTreeMap<G::Tier, TierSummary> = BTreeMap::new();
    let mut finished = vec![false; order.len()];
    let mut ready: BinaryHeap<(u64, std::cmp::Reverse<usize>)> = BinaryHeap::new();
    let mut newly_ready = Vec::new();
    // Resume: whole tables of these rules are kept.
    for (i, &t) in order.iter().enumerate() {
        if let Some(summary) = kept_tier(game, t, out_dir)? {
            done.insert(t, summary);
            finished[i] = true;
        }
    }
    for i in 0..order.len() {
        if finished[i] {
            for &p in &parents[i] {
                waiting[p] -= 1;
            }
        }
    }
    for i in 0..order.len() {
        if !finished[i] && waiting[i] == 0 {
            newly_ready.push(i);
        }
    }
    let kept = done.len();
    observer.event(&Event::Started {
        workers,
        tiers: order.len(),
        kept,
    });

    let started = Instant::now();
    let mut idle: Vec<i32> = (1..world.size()).rev().collect();
    let mut in_flight: BTreeMap<i32, usize> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    let (mut solved, mut slots_solved) = (0usize, 0u64);
    loop {
        // Largest ready tier first (ties: plan order).
        for i in newly_ready.drain(..) {
            ready.push((game.tier_size(order[i]), std::cmp::Reverse(i)));
        }
        while failures.is_empty() && !idle.is_empty() && !ready.is_empty() {
            let (Some(rank), Some((_, std::cmp::Reverse(i)))) = (idle.pop(), ready.pop()) else {
                break;
            };
            send(world, rank, &Order::Solve { index: i })?;
            in_flight.insert(rank, i);
        }
        if in_flight.is_empty() {
            break;
        }
        let (rank, report) = match receive::<Report>(world, None) {
            Ok(x) => x,
            Err(Error::Interrupted) => {
                let in_flight = in_flight
                    .iter()
                    .map(|(&r, &i)| {
                        let host = hosts.get(&r).cloned().unwrap_or_default();
                        (game.tier_name(order[i]), r, host)
                    })
                    .collect();
                observer.event(&Event::Stopped { in_flight });
                return Err(Error::Interrupted);
            }
            Err(e) => return Err(e),
        };
        in_flight.remove(&rank);
        idle.push(rank);
        match report {
            Report::Done {
                index,
                summary,
                seconds,
            } if index < order.len() && !finished[index] => {
                let t = order[index];
                finished[index] = true;
                solved += 1;
                slots_solved += game.tier_size(t);
                done.insert(t, summary);
                for &p in &parents[index] {
                    waiting[p] -= 1;
                    if waiting[p] == 0 && !finished[p] {
                        newly_ready.push(p);
                    }
                }
                let elapsed = started.elapsed().as_secs_f64();
                observer.event(&Event::Solved {
                    tier: game.tier_name(t),
                    rank,
                    seconds,
                    done: done.len(),
                    total: order.len(),
                    slots_per_second: if elapsed > 0.0 {
                        slots_solved as f64 / elapsed
                    } else {
                        0.0
                    },
                });
            }
            Report::Failed { index, error } if index < order.len() => {
                let tier = game.tier_name(order[index]);
                let host = hosts.get(&rank).cloned().unwrap_or_default();
                observer.event(&Event::Failed {
                    tier: tier.clone(),
                    rank,
                    host: host.clone(),
                    error: error.clone(),
                });
                failures.push(format!(
                    "tier {tier} failed on rank {rank} ({host}): {error}"
                ));
            }
            other => {
                return Err(Error::Internal(format!(
                    "rank {rank} sent an unexpected report {other:?}"
                )))
            }
        }
    }
    // Every worker is idle: let them go before the summary is read and written.
    stop_all(world);
    *stopped = true;
    if !failures.is_empty() {
        return Err(Error::Cluster(format!(
            "{}; the {} tables finished are kept in {} and a rerun resumes",
            failures.join("; "),
            done.len(),
            out_dir.display()
        )));
    }
    if done.len() < order.len() {
        return Err(Error::Internal(format!(
            "{} of {} tiers were never ready",
            order.len() - done.len(),
            order.len()
        )));
    }
    // The start position's value, read back from its tier's table.
    let start_pos = game.start();
    let start_tier = game.tier_of(&start_pos);
    let start_record = if index_of.contains_key(&start_tier) {
        let records = load_records(game, out_dir, start_tier)?;
        records
            .get(game.rank(start_tier, &start_pos) as usize)
            .copied()
            .and_then(decode)
    } else {
        None
    };
    let summary = make_summary(game, &plan, &done, start_record);
    write_summary(out_dir, &summary)?;
    Ok(SolveReport {
        summary,
        solved,
        resumed: kept,
        seconds: started.elapsed().as_secs_f64(),
        slots_solved,
    })
}
