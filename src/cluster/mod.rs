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
//! rename ([`solve_tier_alone`]: the step the one-process driver runs too: the
//! full solver where the tier fits the worker's limit, else the compact one, its
//! children held sparse where need be, with checkpoints),
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
//! MPI-free and tested in-process); this module gives it `split::MpiTransport`, an
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
use crate::retro::driver::{default_memory_limit, plan, SolveReport};
use crate::retro::split::plan_part_memory;
use crate::retro::{Scope, Solvable};
use crate::variant::AnyGame;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::path::Path;

mod manager;
mod messages;
mod split;
mod worker;

use manager::manager;
use split::solve_split_mpi;
use worker::worker;

/// One rank's share of a job: what [`solve_mpi`] was given, the game resolved.
struct Job<'a, G> {
    cluster: &'a Cluster,
    game: &'a G,
    scope: &'a Scope,
    out_dir: &'a Path,
    options: &'a ClusterOptions,
    observer: &'a dyn Observer,
}

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
    pub(crate) fn size(&self) -> i32 {
        self.world.size()
    }

    /// Name of this process's node.
    pub(crate) fn host(&self) -> &str {
        &self.host
    }

    /// Workers running on this node.
    pub(crate) fn local_workers(&self) -> usize {
        self.local_workers
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
    /// Least time between two checkpoints of a tier split on the compact
    /// encoding (`solve --checkpoint-minutes`; zero: at every level; `None`:
    /// none): a rerun of a killed job resumes the tier from them.
    pub checkpoint_every: Option<std::time::Duration>,
    /// Who asked for the solve, written into `summary.json` by the manager
    /// (or part 0 of a split solve); `None`: the field is absent.
    pub made_by: Option<crate::retro::driver::MadeBy>,
}

impl ClusterOptions {
    /// One rank's memory limit and worker pool when `share` ranks run on its node:
    /// the options' limit, else the default limit divided by `share`; the options'
    /// threads, else the node's cores divided by `share` (at least one).
    fn rank_resources(&self, share: usize) -> Result<(Option<u64>, rayon::ThreadPool)> {
        let share = share.max(1);
        let limit = match self.memory_limit {
            Some(l) => Some(l),
            None => default_memory_limit().map(|m| m / share as u64),
        };
        let threads = match self.threads {
            0 => std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .div_ceil(share)
                .max(1),
            n => n,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Error::io("cannot start worker threads", std::io::Error::other(e)))?;
        Ok((limit, pool))
    }
}

/// What the manager reports while it works (rank 0 only).
#[derive(Clone, Debug)]
#[non_exhaustive]
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
        return Err(Error::Usage(
            "--mpi needs at least 2 processes, a manager and a worker: start it with mpirun -np N (N ≥ 2) or srun".into(),
        ));
    }
    crate::with_game!(game, g => {
        let job = Job {
            cluster,
            game: g,
            scope,
            out_dir,
            options,
            observer,
        };
        if use_split(g, scope, cluster, options)? {
            if cluster.rank() == 0 {
                observer.event(&Event::SplitMode {
                    ranks: cluster.size() as usize,
                    automatic: !options.split_tiers,
                });
            }
            return solve_split_mpi(&job);
        }
        if cluster.rank() == 0 {
            manager(&job).map(Some)
        } else {
            worker(&job).map(|()| None)
        }
    })
}

/// Whether this job solves split: asked for, or the largest tier does not fit an
/// explicit per-rank limit whole, even compact with its children held sparse,
/// but its share does (the same answer on every
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
    // Whole tiers go to workers whenever the one-process driver could solve
    // them under the limit, compact and with children sparse if need be (the
    // least it needs: `memory_sparse`); split only beyond that.
    Ok(plan.memory_sparse.min(plan.memory_serial) > limit
        && plan_part_memory(game, &plan, cluster.size() as usize, true)? <= limit)
}
