//! Output helpers shared by the subcommands: stdout writes that turn a broken
//! pipe into a clean exit, and indicatif progress bars behind the library's
//! [`Progress`] trait.

use huntsolve::Progress;
use huntsolve::{Error, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::sync::Mutex;

/// Writes `text` to stdout (no newline added), mapping errors to [`Error::Io`].
/// What an unfinished df-pn run leaves, in plain words: "undecided after
/// 1,234 prover nodes (proof number 601, disproof number 74: at least that
/// many positions still to settle to prove it, or to refute it)". `inf` means
/// that side of the question is settled.
pub(crate) fn undecided(nodes: u64, pn: u32, dn: u32) -> String {
    format!(
        "undecided after {nodes} prover nodes (proof number {}, disproof number {}: at least that many positions still to settle to prove it, or to refute it)",
        huntsolve::prove::num(pn),
        huntsolve::prove::num(dn)
    )
}

/// The lines of what results/ records about `pos` (nothing when it records
/// nothing), each `recorded <claim> (<evidence>; <page>)`, under `label`.
pub(crate) fn recorded_lines<G: huntsolve::game::Game + huntsolve::game::Notation>(
    game: &G,
    pos: &G::Pos,
    label: &str,
) -> String {
    huntsolve::stats::known_claims(game, pos)
        .into_iter()
        .map(|k| format!("{label}{}\n", huntsolve::stats::claim_line(k)))
        .collect()
}

pub(crate) fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::io("writing to stdout", e))
}

/// Writes `text` and a newline to stdout.
pub(crate) fn println(text: &str) -> Result<()> {
    print(&format!("{text}\n"))
}

/// What the command's `--json` document, once printed, says: 0 nothing
/// printed, 1 a report (a check's disagreement, exit 1, is its outcome), 2 a
/// report that also holds the error the command then returns.
static JSON_PRINTED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Prints the command's `--json` document. A check that then disagrees
/// (exit 1) adds no second document: stdout holds exactly one.
pub(crate) fn print_json_document(text: &str) -> Result<()> {
    JSON_PRINTED.fetch_max(1, std::sync::atomic::Ordering::SeqCst);
    println(text)
}

/// A check's report: with `json`, `report` as the one `--json` document
/// ([`print_json_document`]: a disagreement that follows adds none), else
/// `text(report)`.
pub(crate) fn print_check_report<T: serde::Serialize>(
    json: bool,
    report: &T,
    text: impl FnOnce(&T) -> String,
) -> Result<()> {
    if json {
        let s = serde_json::to_string_pretty(report)
            .map_err(|e| huntsolve::Error::Internal(format!("JSON: {e}")))?;
        print_json_document(&s)
    } else {
        print(&text(report))
    }
}

/// [`print_json_document`] for a document that holds the error the command
/// returns next (any exit status): no `{"error": ...}` document follows it.
fn print_json_document_with_error(text: &str) -> Result<()> {
    JSON_PRINTED.store(2, std::sync::atomic::Ordering::SeqCst);
    println(text)
}

/// Prints a report that may have failed to save its certificate: `o` as the
/// `--json` document when `json` (holding `save_error`, which is then not
/// printed again), else `text`; then returns `save_error`.
pub(crate) fn print_saved<T: serde::Serialize>(
    json: bool,
    o: &T,
    text: impl FnOnce() -> String,
    save_error: Option<Error>,
) -> Result<()> {
    if json {
        let s = serde_json::to_string(o).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        if save_error.is_some() {
            print_json_document_with_error(&s)?;
        } else {
            print_json_document(&s)?;
        }
    } else {
        print(&text())?;
    }
    save_error.map_or(Ok(()), Err)
}

/// Whether the error of exit status `code` is already in the printed `--json` document.
pub(crate) fn json_document_covers(code: u8) -> bool {
    match JSON_PRINTED.load(std::sync::atomic::Ordering::SeqCst) {
        0 => false,
        1 => code == 1,
        _ => true,
    }
}

/// An indicatif bar per stage, drawn on stderr. When stderr is not a terminal
/// (a batch run logged to a file or a pipe) the bar is hidden and a few plain
/// lines are written instead, each naming the job, the tiers done of the job's
/// tiers and the units counted: a stage that took [`LOG_EVERY`] or more, a line
/// at most every [`LOG_EVERY`] otherwise (and one during a stage longer than
/// [`LOG_HEARTBEAT`]), the end of the job, and the solver's notes. A long solve
/// never goes silent for an hour, and the main job's 215 small tiers no longer
/// write 394 lines of `h0p1c2 propagate: finished in 0.0 s (0 done)`.
pub(crate) struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    /// The plain-line log (stderr not a terminal).
    log: Option<Mutex<Log>>,
}

/// `--verbose`: the solvers' internal notes are shown ([`Progress::detail`]).
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets `--verbose` for the whole run.
pub(crate) fn set_verbose(on: bool) {
    VERBOSE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// A line at least this often while work finishes (and any stage this long).
pub(crate) const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(10);
/// A line during a stage that has run this long since the last line.
pub(crate) const LOG_HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(30);

/// State of the plain-line log.
struct Log {
    /// The job's name (empty: none), e.g. `kaooa [whole]`.
    job: String,
    started: Instant,
    last_line: Instant,
    /// Label, start and unit of the current stage.
    stage: Option<(String, Instant, String)>,
    /// Tiers done and the job's tiers, once the driver has said.
    tiers: Option<(usize, usize)>,
}

use std::time::Instant;

/// The report and table directories of a run named `name` (`sweep-...`,
/// `explore-...`): a trial run leaves the tracked results/ alone (the
/// git-ignored `runs/<name>`, as `compare` does); with `--out`, everything the
/// run writes goes under it, its tables too (`OUT/tables`, unless `--tables`).
pub(crate) fn run_dirs(
    name: &str,
    out: &Option<std::path::PathBuf>,
    tables: &Option<std::path::PathBuf>,
) -> (std::path::PathBuf, std::path::PathBuf) {
    use std::path::PathBuf;
    let report = out
        .clone()
        .unwrap_or_else(|| PathBuf::from("runs").join(name));
    let tables = match (tables, out) {
        (Some(t), _) => t.clone(),
        (None, Some(o)) => o.join("tables"),
        (None, None) => PathBuf::from("tables").join(name),
    };
    (report, tables)
}

/// `n thing` or `n things`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Log {
    /// `kaooa [whole], 12/52 tiers: ` (the parts known so far).
    fn prefix(&self) -> String {
        let tiers = self
            .tiers
            .map(|(k, n)| format!("{k}/{}", plural(n as u64, "tier", "tiers")));
        match (self.job.is_empty(), tiers) {
            (true, None) => String::new(),
            (true, Some(t)) => format!("{t}: "),
            (false, None) => format!("{}: ", self.job),
            (false, Some(t)) => format!("{}, {t}: ", self.job),
        }
    }
    fn line(&mut self, text: &str) {
        eprintln!("{}{text}", self.prefix());
        self.last_line = Instant::now();
    }
}

impl Bars {
    /// A new, idle reporter.
    pub(crate) fn new() -> Self {
        Self::for_job("")
    }

    /// A reporter whose log lines name `job` (e.g. `kaooa [whole]`).
    pub(crate) fn for_job(job: &str) -> Self {
        use std::io::IsTerminal;
        let now = Instant::now();
        Bars {
            bar: Mutex::new(None),
            log: (!std::io::stderr().is_terminal()).then(|| {
                Mutex::new(Log {
                    job: job.to_string(),
                    started: now,
                    last_line: now,
                    stage: None,
                    tiers: None,
                })
            }),
        }
    }

    fn with_log(&self, f: impl FnOnce(&mut Log)) {
        if let Some(Ok(mut log)) = self.log.as_ref().map(|l| l.lock()) {
            f(&mut log);
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
        self.stage_in(label, total, "");
    }
    fn stage_in(&self, label: &str, total: u64, unit: &str) {
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
        self.with_log(|log| {
            log.stage = Some((label.to_string(), Instant::now(), unit.to_string()));
        });
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(old) = slot.take() {
                old.finish_and_clear();
            }
            *slot = Some(bar);
        }
    }
    fn advance(&self, n: u64) {
        let mut at = None;
        if let Ok(slot) = self.bar.lock() {
            if let Some(b) = slot.as_ref() {
                b.inc(n);
                at = Some((b.position(), b.length()));
            }
        }
        let Some(log) = &self.log else { return };
        // Never wait for the log: advance is called from the solver's threads.
        let Ok(mut log) = log.try_lock() else { return };
        if log.last_line.elapsed() < LOG_HEARTBEAT {
            return;
        }
        if let (Some((label, t0, unit)), Some((pos, len))) = (log.stage.clone(), at) {
            let unit = if unit.is_empty() { "done".into() } else { unit };
            let of = len.map_or(String::new(), |l| format!(" of {l}"));
            let text = format!(
                "{label}: {pos}{of} {unit} after {:.0} s",
                t0.elapsed().as_secs_f64()
            );
            log.line(&text);
        }
    }
    fn message(&self, msg: &str) {
        if let Ok(slot) = self.bar.lock() {
            if let Some(b) = slot.as_ref() {
                b.set_message(msg.to_string());
            }
        }
    }
    fn note(&self, msg: &str) {
        self.message(msg);
        self.with_log(|log| log.line(msg));
    }
    fn detail(&self, msg: &str) {
        if VERBOSE.load(std::sync::atomic::Ordering::Relaxed) {
            self.note(msg);
        }
    }
    fn tiers_done(&self, done: usize, total: usize) {
        self.with_log(|log| {
            log.tiers = Some((done, total));
            if done >= total {
                let text = format!("finished in {:.1} s", log.started.elapsed().as_secs_f64());
                log.line(&text);
            } else if log.last_line.elapsed() >= LOG_EVERY {
                let text = format!("{:.0} s so far", log.started.elapsed().as_secs_f64());
                log.line(&text);
            }
        });
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
        self.with_log(|log| {
            if let Some((label, t0, unit)) = log.stage.take() {
                let took = t0.elapsed();
                if took < LOG_EVERY && log.last_line.elapsed() < LOG_EVERY {
                    return;
                }
                let n = done.map_or(String::new(), |n| {
                    if unit.is_empty() {
                        format!(" ({n} done)")
                    } else {
                        format!(" ({n} {unit})")
                    }
                });
                let text = format!("{label} finished in {:.1} s{n}", took.as_secs_f64());
                log.line(&text);
            }
        });
    }
}

/// A certificate file's name: the sha256 of its bytes in hex (as `sha256sum`
/// prints it; the library names the certificates it writes the same way).
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The two sides' machine words (`Game::side_name`: certificates, JSON,
/// file names) and their names in the game's own words (`Game::side_label`:
/// what people read).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideWords {
    names: [&'static str; 2],
    labels: [&'static str; 2],
}

impl SideWords {
    pub(crate) fn of<G: huntsolve::Game>(game: &G) -> SideWords {
        SideWords {
            names: [game.side_name(0), game.side_name(1)],
            labels: [game.side_label(0), game.side_label(1)],
        }
    }

    /// The label of the side whose machine word is `name` (`name` itself for
    /// a word of neither side).
    pub(crate) fn label<'a>(&self, name: &'a str) -> &'a str {
        match self.names.iter().position(|n| *n == name) {
            Some(s) => self.labels[s],
            None => name,
        }
    }
}

pub(crate) use huntsolve::game::side_says;
