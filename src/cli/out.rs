//! Output helpers shared by the subcommands: stdout writes that turn a broken
//! pipe into a clean exit, and indicatif progress bars behind the library's
//! [`Progress`] trait.

use huntsolve::progress::Progress;
use huntsolve::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::sync::Mutex;

/// Writes `text` to stdout (no newline added), mapping errors to [`Error::Io`].
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::io("writing to stdout", e))
}

/// Writes `text` and a newline to stdout.
pub fn println(text: &str) -> Result<()> {
    print(&format!("{text}\n"))
}

/// What the command's `--json` document, once printed, says: 0 nothing
/// printed, 1 a report (a check's disagreement, exit 1, is its outcome), 2 a
/// report that also holds the error the command then returns.
static JSON_PRINTED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Prints the command's `--json` document. A check that then disagrees
/// (exit 1) adds no second document: stdout holds exactly one.
pub fn print_json_document(text: &str) -> Result<()> {
    JSON_PRINTED.fetch_max(1, std::sync::atomic::Ordering::SeqCst);
    println(text)
}

/// [`print_json_document`] for a document that holds the error the command
/// returns next (any exit status): no `{"error": ...}` document follows it.
pub fn print_json_document_with_error(text: &str) -> Result<()> {
    JSON_PRINTED.store(2, std::sync::atomic::Ordering::SeqCst);
    println(text)
}

/// Whether the error of exit status `code` is already in the printed `--json` document.
pub fn json_document_covers(code: u8) -> bool {
    match JSON_PRINTED.load(std::sync::atomic::Ordering::SeqCst) {
        0 => false,
        1 => code == 1,
        _ => true,
    }
}

/// An indicatif bar per stage, drawn on stderr. When stderr is not a terminal
/// (a batch run logged to a file) the bar is hidden, so a plain line per finished
/// stage is written instead: a long solve never goes silent for an hour.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    /// Label and start of the current stage, for the plain-line log.
    log: Option<Mutex<Option<(String, std::time::Instant)>>>,
}

impl Bars {
    /// A new, idle reporter.
    pub fn new() -> Self {
        use std::io::IsTerminal;
        Bars {
            bar: Mutex::new(None),
            log: (!std::io::stderr().is_terminal()).then(|| Mutex::new(None)),
        }
    }
}

impl Default for Bars {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress for Bars {
    fn stage(&self, label: &str, total: u64) {
        let bar = if total > 0 {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template(
                    "{prefix:>16} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        } else {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template(
                    "{prefix:>16} [{elapsed_precise}] {spinner} {human_pos} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b
        };
        bar.set_prefix(label.to_string());
        if let Some(Ok(mut cur)) = self.log.as_ref().map(|l| l.lock()) {
            *cur = Some((label.to_string(), std::time::Instant::now()));
        }
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(old) = slot.take() {
                old.finish_and_clear();
            }
            *slot = Some(bar);
        }
    }
    fn advance(&self, n: u64) {
        if let Ok(slot) = self.bar.lock() {
            if let Some(b) = slot.as_ref() {
                b.inc(n);
            }
        }
    }
    fn message(&self, msg: &str) {
        if let Ok(slot) = self.bar.lock() {
            if let Some(b) = slot.as_ref() {
                b.set_message(msg.to_string());
            }
        }
    }
    fn finish_stage(&self) {
        let done = if let Ok(mut slot) = self.bar.lock() {
            slot.take().map(|b| {
                b.finish_and_clear();
                b.position()
            })
        } else {
            None
        };
        if let Some(Ok(mut cur)) = self.log.as_ref().map(|l| l.lock()) {
            if let Some((label, t0)) = cur.take() {
                let n = done.map_or(String::new(), |n| format!(" ({n} done)"));
                eprintln!(
                    "{label}: finished in {:.1} s{n}",
                    t0.elapsed().as_secs_f64()
                );
            }
        }
    }
}
