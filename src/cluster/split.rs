//! Split tiers over MPI: every rank a part of every tier ([`crate::retro::split`]),
//! exchanging through [`MpiTransport`].

use super::{Event, Job};
use crate::error::{Error, Result};
use crate::progress::{stop_requested, NoProgress};
use crate::retro::driver::SolveReport;
use crate::retro::split::{solve_split, SplitEvent, SplitOptions, SplitSolveOptions, Transport};
use crate::retro::Solvable;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::time::Duration;

/// The split solve: every rank a part of every tier, exchanging through MPI.
pub(super) fn solve_split_mpi<G: Solvable>(job: &Job<G>) -> Result<Option<SolveReport>> {
    let (limit, pool) = job.options.rank_resources(job.cluster.local_ranks)?;
    let mut transport = MpiTransport {
        world: &job.cluster.world,
    };
    let opts = SplitSolveOptions {
        memory_limit: limit,
        split: SplitOptions {
            pool: Some(std::sync::Arc::new(pool)),
            checkpoint_every: job.options.checkpoint_every,
            ..SplitOptions::default()
        },
        made_by: job.options.made_by.clone(),
    };
    let observe = |e: &SplitEvent| job.observer.event(&Event::Split(e.clone()));
    solve_split(
        job.game,
        job.scope,
        job.out_dir,
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
pub(crate) struct MpiTransport<'a> {
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
            Error::Cluster(
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
        // Each buffer held once at a time beside the received bytes: the
        // messages dropped once concatenated, the send buffer once sent.
        let send: Vec<u8> = out.concat();
        drop(out);
        let mut recv = vec![0u8; total];
        {
            let sp = Partition::new(&send[..], &counts[..], &sdispls[..]);
            let mut rp = PartitionMut::new(&mut recv[..], &rcounts[..], &rdispls[..]);
            self.world.all_to_all_varcount_into(&sp, &mut rp);
        }
        drop(send);
        Ok(rdispls
            .iter()
            .zip(&rcounts)
            .map(|(&d, &c)| recv[d as usize..(d + c) as usize].to_vec())
            .collect())
    }
}
