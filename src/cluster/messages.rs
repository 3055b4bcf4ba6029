//! The messages between the manager and its workers (JSON in byte buffers) and
//! their polled sending and receiving.

use crate::error::{Error, Result};
use crate::progress::stop_requested;
use crate::retro::TierSummary;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::time::Duration;

/// Manager to worker.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) enum Order {
    /// Check the output directory (its lock file must hold `lock`) and memory.
    Check { lock: String },
    /// Solve the tier with this index in the plan.
    Solve { index: usize },
    /// The job is over.
    Stop,
}

/// Worker to manager.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) enum Report {
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

pub(super) fn send<M: serde::Serialize>(
    world: &SimpleCommunicator,
    rank: i32,
    message: &M,
) -> Result<()> {
    let bytes = serde_json::to_vec(message)
        .map_err(|e| Error::Internal(format!("encoding an MPI message: {e}")))?;
    world.process_at_rank(rank).send(&bytes[..]);
    Ok(())
}

/// The next message from `from` (any rank when `None`), with its sender. Polls
/// with sleeps of up to 2 ms (MPI's blocking receive would spin a core); returns
/// [`Error::Interrupted`] when a stop is requested meanwhile.
pub(super) fn receive<M: serde::de::DeserializeOwned>(
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
            // Another build on that rank (a mixed installation), not a bug.
            let message = serde_json::from_slice(&bytes).map_err(|e| {
                Error::Cluster(format!(
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

/// Tells every worker to stop (best effort: used on the way out).
pub(super) fn stop_all(world: &SimpleCommunicator) {
    for r in 1..world.size() {
        let _ = send(world, r, &Order::Stop);
    }
}
