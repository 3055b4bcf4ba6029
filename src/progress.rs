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
pub const MAX_SECONDS: f64 = 1e6;

/// Fewest threads the bound allows whatever the machine: more than any core
/// count this tool targets; the bound refuses typos like `threads = 100000`,
/// which would exhaust the process's stack space or hang thread start-up.
const MIN_THREAD_BOUND: usize = 256;

/// The most worker threads any option or manifest may ask for: 256, or four
/// per core on bigger machines.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    MIN_THREAD_BOUND.max(4 * cores)
}

/// Whether `s` is a usable time limit in seconds: finite, above 0 and at most
/// `MAX_SECONDS`.
pub(crate) fn valid_seconds(s: f64) -> bool {
    s.is_finite() && s > 0.0 && s <= MAX_SECONDS
}

/// `s` when it is a usable time limit (at most `MAX_SECONDS`, about 11.6 days), else the
/// message of a usage error naming the option `what` (a huge value is shown as `1e308`, not
/// in 309 digits).
pub fn check_seconds(what: &str, s: f64) -> Result<f64, String> {
    if valid_seconds(s) {
        return Ok(s);
    }
    let shown = if s.is_finite() && s.abs() < 1e7 {
        format!("{s}")
    } else {
        format!("{s:e}")
    };
    Err(format!(
        "{what} {shown}: expected seconds above 0 and at most {MAX_SECONDS}"
    ))
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
    /// A note on the solver's internals (how a level was split, what spilled),
    /// for a user who asked for them (`--verbose`). Default: ignored.
    fn detail(&self, _msg: &str) {}
    /// `done` of the job's `total` tiers are finished (solved or kept from disk).
    fn tiers_done(&self, _done: usize, _total: usize) {}
    /// The current stage is finished.
    fn finish_stage(&self) {}
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// One [`Progress`] shared by jobs that run at once (a wave's independent tiers),
/// which has one current stage: the job that began the current stage owns it, and
/// only its work is counted in it. Without this, a tier's bar counted the slots of
/// every tier of the wave ("132386032 of 19896800 slots").
pub(crate) struct Shared<'a> {
    inner: &'a dyn Progress,
    /// Id of the job whose stage is current (`usize::MAX`: none).
    owner: std::sync::atomic::AtomicUsize,
}

impl<'a> Shared<'a> {
    /// Shares `inner` among jobs.
    pub(crate) fn new(inner: &'a dyn Progress) -> Self {
        Self {
            inner,
            owner: std::sync::atomic::AtomicUsize::new(usize::MAX),
        }
    }

    /// The reporter of job `id` (distinct ids for jobs that run at once).
    pub(crate) fn job(&self, id: usize) -> SharedJob<'_> {
        SharedJob { shared: self, id }
    }

    fn owns(&self, id: usize) -> bool {
        self.owner.load(Ordering::Relaxed) == id
    }
}

/// One job's view of a [`Shared`] progress.
pub(crate) struct SharedJob<'a> {
    shared: &'a Shared<'a>,
    id: usize,
}

impl Progress for SharedJob<'_> {
    fn stage(&self, label: &str, total: u64) {
        self.stage_in(label, total, "");
    }
    fn stage_in(&self, label: &str, total: u64, unit: &str) {
        self.shared.owner.store(self.id, Ordering::SeqCst);
        self.shared.inner.stage_in(label, total, unit);
    }
    fn advance(&self, n: u64) {
        if self.shared.owns(self.id) {
            self.shared.inner.advance(n);
        }
    }
    fn message(&self, msg: &str) {
        self.shared.inner.message(msg);
    }
    fn note(&self, msg: &str) {
        self.shared.inner.note(msg);
    }
    fn detail(&self, msg: &str) {
        self.shared.inner.detail(msg);
    }
    fn tiers_done(&self, done: usize, total: usize) {
        self.shared.inner.tiers_done(done, total);
    }
    fn finish_stage(&self) {
        if self
            .shared
            .owner
            .compare_exchange(self.id, usize::MAX, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.shared.inner.finish_stage();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records the events it receives.
    #[derive(Default)]
    struct Events(Mutex<Vec<String>>);

    impl Progress for Events {
        fn stage_in(&self, label: &str, total: u64, _unit: &str) {
            self.0
                .lock()
                .unwrap()
                .push(format!("stage {label} {total}"));
        }
        fn advance(&self, n: u64) {
            self.0.lock().unwrap().push(format!("advance {n}"));
        }
        fn finish_stage(&self) {
            self.0.lock().unwrap().push("finish".into());
        }
    }

    #[test]
    fn a_shared_stage_counts_only_its_owners_work() {
        let events = Events::default();
        let shared = Shared::new(&events);
        let (a, b) = (shared.job(0), shared.job(1));
        a.stage_in("a scan", 10, "slots");
        a.advance(3);
        b.stage_in("b scan", 5, "slots");
        a.advance(4); // a's stage is no longer shown: not counted in b's
        b.advance(2);
        a.finish_stage(); // not a's stage: b's stays open
        b.advance(1);
        b.finish_stage();
        a.advance(9); // no stage open
        assert_eq!(
            *events.0.lock().unwrap(),
            [
                "stage a scan 10",
                "advance 3",
                "stage b scan 5",
                "advance 2",
                "advance 1",
                "finish"
            ]
        );
    }
}
