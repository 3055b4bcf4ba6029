//! The in-process transport (the parts as threads of one process) and the runner of parts.

use super::Transport;
use crate::error::{Error, Result};
use std::sync::atomic::Ordering;
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The in-process transport: `parts` parts as threads of one process, each
/// with its end of a set of channels (`Threads::new` gives them all).
pub struct Threads {
    part: usize,
    senders: Vec<mpsc::Sender<(usize, u64, Vec<u8>)>>,
    receiver: mpsc::Receiver<(usize, u64, Vec<u8>)>,
    /// Messages of later exchanges that came early, by sender.
    early: Vec<std::collections::VecDeque<(u64, Vec<u8>)>>,
    round: u64,
    /// Set by a part whose thread ended without finishing (its peers stop waiting).
    gone: Arc<std::sync::atomic::AtomicBool>,
}

impl Threads {
    /// The ends of `parts` connected parts, part `k` at index `k`.
    pub(crate) fn new(parts: usize) -> Vec<Threads> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..parts).map(|_| mpsc::channel()).unzip();
        let gone = Arc::new(std::sync::atomic::AtomicBool::new(false));
        receivers
            .into_iter()
            .enumerate()
            .map(|(part, receiver)| Threads {
                part,
                senders: senders.clone(),
                receiver,
                early: vec![Default::default(); parts],
                round: 0,
                gone: gone.clone(),
            })
            .collect()
    }

    /// Marks this part as gone (its peers' exchanges fail instead of waiting).
    pub fn leave(&self) {
        self.gone.store(true, Ordering::SeqCst);
    }
}

impl Transport for Threads {
    fn part(&self) -> usize {
        self.part
    }

    fn parts(&self) -> usize {
        self.senders.len()
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
        let round = self.round;
        self.round += 1;
        let parts = self.parts();
        if out.len() != parts {
            return Err(Error::Internal(format!(
                "an exchange of {} buffers among {parts} parts",
                out.len()
            )));
        }
        for (k, bytes) in out.into_iter().enumerate() {
            // A part that has ended dropped its receiver: its buffer is lost.
            let _ = self.senders[k].send((self.part, round, bytes));
        }
        let mut got: Vec<Option<Vec<u8>>> = vec![None; parts];
        for (k, q) in self.early.iter_mut().enumerate() {
            if q.front().is_some_and(|m| m.0 == round) {
                got[k] = q.pop_front().map(|m| m.1);
            }
        }
        while got.iter().any(Option::is_none) {
            match self.receiver.recv_timeout(Duration::from_millis(20)) {
                Ok((k, r, bytes)) if r == round && got[k].is_none() => got[k] = Some(bytes),
                Ok((k, r, bytes)) => self.early[k].push_back((r, bytes)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if self.gone.load(Ordering::SeqCst) {
                        return Err(Error::Cluster(
                            "a part of the split solve ended without finishing".into(),
                        ));
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Error::Cluster("the split solve's channels closed".into()))
                }
            }
        }
        Ok(got.into_iter().map(Option::unwrap_or_default).collect())
    }
}

/// Runs `f` once per part on `parts` threads of this process, each with its
/// [`Threads`] transport and a rayon pool of `threads_per_part` threads; the
/// results by part.
pub fn run_parts<R: Send>(
    parts: usize,
    threads_per_part: usize,
    f: &(dyn Fn(&mut Threads) -> Result<R> + Sync),
) -> Vec<Result<R>> {
    let ends = Threads::new(parts);
    std::thread::scope(|s| {
        let handles: Vec<_> = ends
            .into_iter()
            .map(|mut t| {
                s.spawn(move || {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads_per_part.max(1))
                        .build()
                        .map_err(|e| {
                            Error::io("cannot start worker threads", std::io::Error::other(e))
                        });
                    let r = pool.and_then(|p| p.install(|| f(&mut t)));
                    if r.is_err() {
                        t.leave();
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Internal("a part's thread panicked".into())))
            })
            .collect()
    })
}
