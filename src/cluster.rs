//! Solving one tier graph across machines on MPI (feature `mpi`): `huntsolve
//! solve ... --mpi` started by `mpirun` or `srun`.
//!
//! Rank 0 is the manager, every other rank a worker. All ranks build the same
//! [`plan`] (the order is deterministic), so a tier travels as its index in the
//! plan. The manager:
//! 1. creates the output directory and takes its lock ([`open_out_dir`]), then asks
//!    every worker to check that it sees that very directory (the lock file with
//!    the manager's process id) and can write to it, and that its largest tier fits
//!    its memory limit;
//! 2. keeps every tier already on disk ([`kept_tier`]: resume);
//! 3. hands the largest ready tier (every stored child solved) to an idle worker,
//!    until every tier is solved, and writes `summary.json`.
//!
//! A worker reads the children of its tier from the shared directory, solves the
//! tier with its own rayon threads and writes the table by temporary file and
//! rename ([`solve_and_write_tier`], the step the one-process driver runs too),
//! then reports the tier's statistics.
//!
//! Faults: a worker whose tier fails reports the error; the manager hands out no
//! more tiers, waits for the tiers in flight (their tables are kept) and returns
//! [`Error::Cluster`] naming the tier, rank and host. A worker killed outright
//! makes `mpirun` (or `srun --kill-on-bad-exit`) stop the job: the manager, told
//! to stop by SIGTERM, reports the tiers in flight through [`Event::Stopped`] and
//! returns [`Error::Interrupted`]. Tables on disk are whole in every case, so a
//! rerun resumes.
//!
//! **Split tiers** (`--split-tiers`, or automatically when `memory_limit` is given
//! and the largest tier fits it only in shares): every rank, rank 0 included, is
//! a part of every tier, in plan order ([`crate::retro::split`], whose logic is
//! MPI-free and tested in-process); this module gives it [`MpiTransport`], an
//! `MPI_Alltoall` of the byte counts and an `MPI_Alltoallv` of the bytes after a
//! polled non-blocking barrier. A rank killed outright ends the job as above;
//! a rank still running sees the stop request in that barrier or between its
//! sweeps and rank 0 names the unfinished tier ([`Event::Split`]). A rank blocked
//! inside the all-to-all (its peer died after the barrier) cannot notice it: the
//! command line's watchdog on rank 0 then names the tier and ends the process.
//!
//! Messages are JSON in byte buffers (no derived MPI datatypes, so no unsafe code
//! in this crate). Idle ranks poll with short sleeps instead of MPI's busy-waiting
//! receive, so a waiting manager or worker leaves the cores to the solvers.

use crate::error::{Error, Result};
use crate::progress::{stop_requested, NoProgress};
use crate::retro::driver::{
    batch_memory, check_memory_serial, default_memory_limit, format_bytes, kept_tier, load_records,
    make_summary, open_out_dir, plan, solve_and_write_tier, write_summary, Plan, SolveReport,
    TierSummary,
};
use crate::retro::lock::LOCK_FILE;
use crate::retro::split::{
    plan_part_memory, solve_split, SplitEvent, SplitOptions, SplitSolveOptions, Transport,
};
use crate::retro::{ChildValues, Scope, Solvable};
use crate::tier::decode;
use crate::variant::AnyGame;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// This process's place in an MPI job: initialised once, finalised when dropped.
pub struct Cluster {
    _universe: Universe,
    world: SimpleCommunicator,
    host: String,
    /// Workers on this node (ranks other than 0 sharing its memory).
    local_workers: usize,
    /// Ranks on this node, rank 0 included (a split solve's parts).
    local_ranks: usize,
}

impl Cluster {
    /// Initialises MPI (a process started without `mpirun` is a job of one).
    pub fn init() -> Result<Cluster> {
        let universe =
            mpi::initialize().ok_or_else(|| Error::Internal("MPI was initialised twice".into()))?;
        let world = universe.world();
        let host = mpi::environment::processor_name().unwrap_or_else(|_| "?".into());
        // The ranks of this node, to share its memory and cores among its workers.
        let local = world.split_shared(world.rank());
        let mut ranks = vec![0i32; local.size() as usize];
        local.all_gather_into(&world.rank(), &mut ranks[..]);
        let local_workers = ranks.iter().filter(|&&r| r != 0).count();
        Ok(Cluster {
            _universe: universe,
            world,
            host,
            local_workers,
            local_ranks: ranks.len(),
        })
    }

    /// This process's rank (0: the manager).
    pub fn rank(&self) -> i32 {
        self.world.rank()
    }

    /// Number of processes in the job.
    pub fn size(&self) -> i32 {
        self.world.size()
    }

    /// Name of this process's node.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Workers running on this node.
    pub fn local_workers(&self) -> usize {
        self.local_workers
    }

    /// Ends every process of the job with `code` (after an interrupt, when the
    /// other ranks may be gone and a clean finalisation could wait for them).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// Options of [`solve_mpi`].
#[derive(Clone, Debug, Default)]
pub struct ClusterOptions {
    /// Rayon threads per worker (0: this node's cores divided among its workers).
    pub threads: usize,
    /// Memory limit per worker (`None`: 80 % of its node's `MemAvailable`
    /// divided among the node's workers).
    pub memory_limit: Option<u64>,
    /// Solve every tier split across all ranks ([`crate::retro::split`]) instead
    /// of handing whole tiers to workers. Also chosen when `memory_limit` is
    /// given, the largest tier does not fit it whole and its share does.
    pub split_tiers: bool,
}

/// What the manager reports while it works (rank 0 only).
#[derive(Clone, Debug)]
pub enum Event {
    /// Every worker is ready; `kept` tiers were found on disk.
    Started {
        /// Worker processes.
        workers: usize,
        /// Tiers of the scope.
        tiers: usize,
        /// Tiers kept from an earlier run.
        kept: usize,
    },
    /// A worker solved a tier.
    Solved {
        /// Tier name.
        tier: String,
        /// The worker's rank.
        rank: i32,
        /// Seconds the worker spent on it (loading children, solving, writing).
        seconds: f64,
        /// Tiers finished so far, kept ones included.
        done: usize,
        /// Tiers of the scope.
        total: usize,
        /// Slots solved in this run per second of wall-clock time, across workers.
        slots_per_second: f64,
    },
    /// A worker's tier failed; no more tiers are handed out.
    Failed {
        /// Tier name.
        tier: String,
        /// The worker's rank.
        rank: i32,
        /// The worker's node.
        host: String,
        /// The error the worker reported.
        error: String,
    },
    /// The manager was told to stop (Ctrl-C, or `mpirun` ending the job because a
    /// process died) with these tiers in flight: (tier, rank, host).
    Stopped {
        /// Tiers being solved when the stop came.
        in_flight: Vec<(String, i32, String)>,
    },
    /// Every tier is solved split across the ranks; `automatic` when chosen because
    /// the largest tier does not fit a rank's memory limit whole.
    SplitMode {
        /// Ranks (parts of every tier).
        ranks: usize,
        /// Chosen by the memory limit, not `--split-tiers`.
        automatic: bool,
    },
    /// What the split solve reports (rank 0).
    Split(crate::retro::split::SplitEvent),
}

/// Receiver of the manager's [`Event`]s (the command line prints them).
pub trait Observer {
    /// One event.
    fn event(&self, event: &Event);
}

/// Manager to worker.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
enum Order {
    /// Check the output directory (its lock file must hold `lock`) and memory.
    Check { lock: String },
    /// Solve the tier with this index in the plan.
    Solve { index: usize },
    /// The job is over.
    Stop,
}

/// Worker to manager.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
enum Report {
    /// Answer to [`Order::Check`]: `error` says what is wrong, if anything.
    Ready { host: String, error: Option<String> },
    /// A tier was solved and its table written.
    Done {
        index: usize,
        summary: TierSummary,
        seconds: f64,
    },
    /// A tier failed.
    Failed { index: usize, error: String },
}

fn send<M: serde::Serialize>(world: &SimpleCommunicator, rank: i32, message: &M) -> Result<()> {
    let bytes = serde_json::to_vec(message)
        .map_err(|e| Error::Internal(format!("encoding an MPI message: {e}")))?;
    world.process_at_rank(rank).send(&bytes[..]);
    Ok(())
}

/// The next message from `from` (any rank when `None`), with its sender. Polls
/// with sleeps of up to 2 ms (MPI's blocking receive would spin a core); returns
/// [`Error::Interrupted`] when a stop is requested meanwhile.
fn receive<M: serde::de::DeserializeOwned>(
    world: &SimpleCommunicator,
    from: Option<i32>,
) -> Result<(i32, M)> {
    let mut pause = Duration::from_micros(50);
    loop {
        let probe = match from {
            Some(r) => world.process_at_rank(r).immediate_matched_probe(),
            None => world.any_process().immediate_matched_probe(),
        };
        if let Some(matched) = probe {
            let (bytes, status) = matched.matched_receive_vec::<u8>();
            let message = serde_json::from_slice(&bytes).map_err(|e| {
                Error::Internal(format!(
                    "undecodable MPI message from rank {}: {e}",
                    status.source_rank()
                ))
            })?;
            return Ok((status.source_rank(), message));
        }
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(2));
    }
}

/// Solves `scope` of `game` into `out_dir` with every process of `cluster`.
/// Every rank calls it with the same arguments; the manager (rank 0) returns the
/// report, a worker `None` once the manager lets it go.
pub fn solve_mpi(
    cluster: &Cluster,
    game: &AnyGame,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
    observer: &dyn Observer,
) -> Result<Option<SolveReport>> {
    if cluster.size() < 2 && !options.split_tiers {
        return Err(Error::Input(
            "--mpi needs at least 2 processes, a manager and a worker: start it with mpirun -np N (N ≥ 2) or srun".into(),
        ));
    }
    crate::with_game!(game, g => {
        if use_split(g, scope, cluster, options)? {
            if cluster.rank() == 0 {
                observer.event(&Event::SplitMode {
                    ranks: cluster.size() as usize,
                    automatic: !options.split_tiers,
                });
            }
            return solve_split_mpi(cluster, g, scope, out_dir, options, observer);
        }
        if cluster.rank() == 0 {
            manager(cluster, g, scope, out_dir, options, observer).map(Some)
        } else {
            worker(cluster, g, scope, out_dir, options).map(|()| None)
        }
    })
}

/// Whether this job solves split: asked for, or the largest tier does not fit an
/// explicit per-rank limit whole but its share does (the same answer on every
/// rank: the plan and the options are the same).
fn use_split<G: Solvable>(
    game: &G,
    scope: &Scope,
    cluster: &Cluster,
    options: &ClusterOptions,
) -> Result<bool> {
    if options.split_tiers {
        return Ok(true);
    }
    let Some(limit) = options.memory_limit else {
        return Ok(false);
    };
    let plan = plan(game, scope)?;
    Ok(plan.memory_serial > limit
        && plan_part_memory(game, &plan, cluster.size() as usize)? <= limit)
}

/// The split solve: every rank a part of every tier, exchanging through MPI.
fn solve_split_mpi<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
    observer: &dyn Observer,
) -> Result<Option<SolveReport>> {
    let share = cluster.local_ranks.max(1);
    let limit = match options.memory_limit {
        Some(l) => Some(l),
        None => default_memory_limit().map(|m| m / share as u64),
    };
    let threads = match options.threads {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .div_ceil(share)
            .max(1),
        n => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Input(format!("cannot start worker threads: {e}")))?;
    let mut transport = MpiTransport {
        world: &cluster.world,
    };
    let opts = SplitSolveOptions {
        memory_limit: limit,
        split: SplitOptions {
            pool: Some(std::sync::Arc::new(pool)),
            ..SplitOptions::default()
        },
    };
    let observe = |e: &SplitEvent| observer.event(&Event::Split(e.clone()));
    solve_split(
        game,
        scope,
        out_dir,
        &mut transport,
        &opts,
        &observe,
        &NoProgress,
    )
}

/// The split solve's [`Transport`] over MPI: the byte counts by `MPI_Alltoall`,
/// then the bytes by `MPI_Alltoallv`. Each exchange first waits in a
/// non-blocking barrier polled with short sleeps, so that a rank waiting for
/// the others leaves the cores to them and notices a stop request (then it
/// returns [`Error::Interrupted`]).
pub struct MpiTransport<'a> {
    world: &'a SimpleCommunicator,
}

impl Transport for MpiTransport<'_> {
    fn part(&self) -> usize {
        self.world.rank() as usize
    }

    fn parts(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let n = self.parts();
        if out.len() != n {
            return Err(Error::Internal(format!(
                "an exchange of {} buffers among {n} ranks",
                out.len()
            )));
        }
        let mut barrier = self.world.immediate_barrier();
        let mut pause = Duration::from_micros(20);
        loop {
            match barrier.test() {
                Ok(_) => break,
                Err(r) => {
                    if stop_requested() {
                        // The barrier cannot be completed any more; it must not be dropped.
                        std::mem::forget(r);
                        return Err(Error::Interrupted);
                    }
                    barrier = r;
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(1));
                }
            }
        }
        let too_big = || {
            Error::Internal(
                "an exchange of the split solve exceeds 2 GiB per rank; use smaller batches".into(),
            )
        };
        let counts: Vec<i32> = out
            .iter()
            .map(|b| i32::try_from(b.len()))
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| too_big())?;
        let mut rcounts = vec![0i32; n];
        self.world.all_to_all_into(&counts[..], &mut rcounts[..]);
        let displs = |c: &[i32]| -> Result<Vec<i32>> {
            let mut d = Vec::with_capacity(c.len());
            let mut at = 0i32;
            for &x in c {
                d.push(at);
                at = at.checked_add(x).ok_or_else(too_big)?;
            }
            Ok(d)
        };
        let (sdispls, rdispls) = (displs(&counts)?, displs(&rcounts)?);
        let total: usize = rcounts.iter().map(|&c| c as usize).sum();
        let send: Vec<u8> = out.concat();
        let mut recv = vec![0u8; total];
        {
            let sp = Partition::new(&send[..], &counts[..], &sdispls[..]);
            let mut rp = PartitionMut::new(&mut recv[..], &rcounts[..], &rdispls[..]);
            self.world.all_to_all_varcount_into(&sp, &mut rp);
        }
        Ok(rdispls
            .iter()
            .zip(&rcounts)
            .map(|(&d, &c)| recv[d as usize..(d + c) as usize].to_vec())
            .collect())
    }
}

/// Tells every worker to stop (best effort: used on the way out).
fn stop_all(world: &SimpleCommunicator) {
    for r in 1..world.size() {
        let _ = send(world, r, &Order::Stop);
    }
}

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

fn manager<G: Solvable>(
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

/// A worker's state once its setup succeeded.
struct WorkerState<G: Solvable> {
    order: Vec<G::Tier>,
    pool: rayon::ThreadPool,
    limit: Option<u64>,
    memory_serial: u64,
    /// Child records of the last tier, reused when the next one shares them.
    cache: HashMap<G::Tier, Arc<Vec<u16>>>,
}

fn worker_setup<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    options: &ClusterOptions,
) -> Result<WorkerState<G>> {
    let share = cluster.local_workers().max(1);
    let limit = match options.memory_limit {
        Some(l) => Some(l),
        None => default_memory_limit().map(|m| m / share as u64),
    };
    let plan = plan(game, scope)?;
    let threads = match options.threads {
        0 => std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .div_ceil(share)
            .max(1),
        n => n,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Input(format!("cannot start worker threads: {e}")))?;
    Ok(WorkerState {
        order: plan.waves.iter().flatten().copied().collect(),
        pool,
        limit,
        memory_serial: plan.memory_serial,
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
    match std::fs::read_to_string(&lock_path) {
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
    match state.limit {
        Some(l) if state.memory_serial > l => Some(format!(
            "its largest tier needs about {} with its children's records, but its memory limit is {} ({} workers share this node); give each worker more memory (--memory, fewer ranks per node)",
            format_bytes(state.memory_serial),
            format_bytes(l),
            cluster.local_workers()
        )),
        _ => None,
    }
}

/// Loads the children of `tier` from `out_dir`, solves it and writes its table.
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
    if let Some(l) = state.limit {
        let need = batch_memory(game, &[tier])?;
        if need > l {
            return Err(Error::Memory(format!(
                "tier {} needs about {}, but this worker's limit is {}",
                game.tier_name(tier),
                format_bytes(need),
                format_bytes(l)
            )));
        }
    }
    let kids = game.stored_children(tier);
    // Keep only the cached children this tier needs, then read the others.
    state.cache.retain(|t, _| kids.contains(t));
    let mut children = ChildValues::new();
    for &c in &kids {
        let records = match state.cache.get(&c) {
            Some(r) => r.clone(),
            None => {
                let r = Arc::new(load_records(game, out_dir, c)?);
                state.cache.insert(c, r.clone());
                r
            }
        };
        children.insert(c, records);
    }
    let (summary, _records) = state
        .pool
        .install(|| solve_and_write_tier(game, tier, &children, out_dir, &NoProgress))?;
    Ok(summary)
}

fn worker<G: Solvable>(
    cluster: &Cluster,
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    options: &ClusterOptions,
) -> Result<()> {
    let world = &cluster.world;
    // A failed setup is reported to the manager at its check, not here, so that
    // the manager can stop the job with every rank's reason.
    let mut setup = worker_setup(cluster, game, scope, options);
    loop {
        let (_, order) = receive::<Order>(world, Some(0))?;
        match order {
            Order::Stop => return Ok(()),
            Order::Check { lock } => {
                let error = match &setup {
                    Ok(state) => check_worker(cluster, state, out_dir, &lock),
                    Err(e) => Some(e.to_string()),
                };
                let host = cluster.host().to_string();
                send(world, 0, &Report::Ready { host, error })?;
            }
            Order::Solve { index } => {
                let started = Instant::now();
                let result = match &mut setup {
                    Ok(state) => work_on(game, state, index, out_dir),
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
