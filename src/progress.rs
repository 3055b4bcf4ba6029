//! Progress reporting and cooperative cancellation for long library calls.
//!
//! The library never prints: long jobs report through a [`Progress`] value that
//! the command line turns into indicatif bars, and poll [`stop_requested`] so
//! that Ctrl-C ends them cleanly with finished work kept on disk.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Longest time limit any option accepts, in seconds (about 11.6 days): far
/// beyond any run of this tool, and far below what overflows a `Duration` or
/// an `Instant` (`--time 1e308` panicked).
pub(crate) const MAX_SECONDS: f64 = 1e6;

/// Whether `s` is a usable time limit in seconds: finite, above 0 and at most
/// `MAX_SECONDS`.
pub fn valid_seconds(s: f64) -> bool {
    s.is_finite() && s > 0.0 && s <= MAX_SECONDS
}

/// The message for an option `what` given `s` seconds that [`valid_seconds`]
/// refuses (a huge value is shown as `1e308`, not in 309 digits).
pub fn seconds_message(what: &str, s: f64) -> String {
    let shown = if s.is_finite() && s.abs() < 1e7 {
        format!("{s}")
    } else {
        format!("{s:e}")
    };
    format!("{what} {shown}: expected seconds above 0 and at most {MAX_SECONDS}")
}

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
    /// [`Progress::stage`] whose work is counted in `unit`s (`slots`,
    /// `levels`), for a reader of a log. Default: [`Progress::stage`].
    fn stage_in(&self, label: &str, total: u64, _unit: &str) {
        self.stage(label, total)
    }
    /// `n` more units of the current stage are done.
    fn advance(&self, _n: u64) {}
    /// A one-line status message (shown beside the bar, never printed by the library).
    fn message(&self, _msg: &str) {}
    /// A message worth a line of its own in a log (a checkpoint resumed or
    /// ignored), unlike the frequent [`Progress::message`]. Default:
    /// [`Progress::message`].
    fn note(&self, msg: &str) {
        self.message(msg)
    }
    /// `done` of the job's `total` tiers are finished (solved or kept from disk).
    fn tiers_done(&self, _done: usize, _total: usize) {}
    /// The current stage is finished.
    fn finish_stage(&self) {}
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
