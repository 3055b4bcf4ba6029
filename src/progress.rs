//! Progress reporting and cooperative cancellation for long library calls.
//!
//! The library never prints: long jobs report through a [`Progress`] value that
//! the command line turns into indicatif bars, and poll [`stop_requested`] so
//! that Ctrl-C ends them cleanly with finished work kept on disk.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every long-running library call to stop at its next check.
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested (Ctrl-C or [`request_stop`]).
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Clears a stop request (tests and interactive use).
pub fn clear_stop() {
    STOP.store(false, Ordering::SeqCst);
}

/// Receiver of progress events. All methods have no-op defaults.
pub trait Progress: Sync {
    /// A new stage begins: `label` names it, `total` is the amount of work (0: unknown).
    fn stage(&self, _label: &str, _total: u64) {}
    /// `n` more units of the current stage are done.
    fn advance(&self, _n: u64) {}
    /// A one-line status message (shown beside the bar, never printed by the library).
    fn message(&self, _msg: &str) {}
    /// The current stage is finished.
    fn finish_stage(&self) {}
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
