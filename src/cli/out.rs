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

/// An indicatif bar per stage, drawn on stderr (hidden when stderr is not a terminal).
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// A new, idle reporter.
    pub fn new() -> Self {
        Bars {
            bar: Mutex::new(None),
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
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(b) = slot.take() {
                b.finish_and_clear();
            }
        }
    }
}
