//! Error type shared by every layer of the library.
//!
//! Hand-written (no derive crate): each variant carries the context a user needs
//! to fix the problem (which file, which field, which ply). Errors are typed by
//! concern (the command line, a file given, rules, tables, certificates, I/O, an
//! interruption, a disagreement, a bug), so that a caller decides by the variant,
//! never by the message.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Every error the library can return.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A rules string (`preset[,key=value...]`) could not be parsed.
    Rules(String),
    /// A board description (built-in or file) is invalid.
    Board(String),
    /// A position text could not be parsed or describes an impossible position.
    Position(String),
    /// A move text could not be parsed or is not legal in the position.
    Move(String),
    /// A table file is missing, damaged or belongs to other rules: what is
    /// wrong ([`TableFault`]) and the details.
    Table {
        /// The file (or directory) concerned.
        path: PathBuf,
        /// What kind of problem it is.
        fault: TableFault,
        /// The details, for a person.
        reason: String,
    },
    /// A command-line option or value is wrong (or an argument of a library
    /// call that stands for one): out of range, in conflict with another
    /// option, an unknown name, or a combination the command does not take.
    Usage(String),
    /// A file the user gave (a manifest, a game log, a frontier state file, a
    /// work directory's own files) does not hold what it should; or, without a
    /// path, the data a command was given (the games to rate).
    Input {
        /// The file concerned, when there is one.
        path: Option<PathBuf>,
        /// What is wrong, for a person.
        reason: String,
    },
    /// A proof certificate is damaged, malformed, of other rules or does not
    /// match what it is read for; or one cannot be made. A certificate that
    /// reads well but whose claim does not hold is a [`Error::Disagreement`].
    Certificate {
        /// The certificate file, when there is one.
        path: Option<PathBuf>,
        /// What is wrong, for a person.
        reason: String,
    },
    /// Rules from an untrusted source (a certificate, an explorer request) name
    /// a board file, which only the command line may: the board named and the
    /// built-in boards.
    BoardFileRefused {
        /// The board the rules name.
        board: String,
        /// The built-in boards, for the message.
        builtin: String,
    },
    /// A job would need more memory than allowed.
    Memory(String),
    /// The work was interrupted (Ctrl-C or a stop flag); finished work is on disk.
    Interrupted,
    /// An I/O error with the path or action that caused it.
    Io {
        /// What was being done, with the path.
        context: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// A check found a disagreement (`verify`, `check-proof`): the data or the
    /// program is wrong, and the exit status is 1.
    Disagreement(String),
    /// A broken invariant of the library itself (a bug, never the user's
    /// mistake), with what was found.
    Internal(String),
    /// A process of a solve across machines (`solve --mpi`) failed or could not
    /// take part: which rank, on which host, with which tier, and why.
    Cluster(String),
    /// Jobs of a batch (`solve MANIFEST`) failed; each job's own error is in
    /// the batch's results and was reported as it happened.
    JobsFailed {
        /// Jobs that failed.
        failed: usize,
        /// Jobs of the batch.
        total: usize,
    },
}

impl Error {
    /// Wraps an [`io::Error`] with what was being done; a path refused for not
    /// being a regular file (`crate::regular`) is the [`Error::Input`] naming it.
    pub fn io(context: impl Into<String>, source: io::Error) -> Self {
        if let Some(refused) = crate::regular::NotRegular::of(&source) {
            return Error::input(&refused.path, refused.to_string());
        }
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// A table error for `path`.
    pub fn table(path: impl Into<PathBuf>, fault: TableFault, reason: impl Into<String>) -> Self {
        Error::Table {
            path: path.into(),
            fault,
            reason: reason.into(),
        }
    }

    /// An input error about the file `path`.
    pub fn input(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Error::Input {
            path: Some(path.into()),
            reason: reason.into(),
        }
    }

    /// An input error about the data a command was given, not a file.
    pub fn input_data(reason: impl Into<String>) -> Self {
        Error::Input {
            path: None,
            reason: reason.into(),
        }
    }

    /// A certificate error about the file `path`.
    pub fn certificate(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Error::Certificate {
            path: Some(path.into()),
            reason: reason.into(),
        }
    }

    /// A certificate error about a certificate held in memory (being checked
    /// or made), not read from a file.
    pub fn certificate_data(reason: impl Into<String>) -> Self {
        Error::Certificate {
            path: None,
            reason: reason.into(),
        }
    }

    /// `self`, naming `path` when it is an input or certificate error that
    /// names no file yet (the file the data came from); any other error as it is.
    pub fn in_file(self, path: &Path) -> Self {
        match self {
            Error::Input { path: None, reason } => Error::input(path, reason),
            Error::Certificate { path: None, reason } => Error::certificate(path, reason),
            other => other,
        }
    }

    /// The process exit status for this error, like ripgrep's: 1 when a check
    /// disagreed, 130 when interrupted, 2 for every other error (bad usage or
    /// input, unreadable or damaged files, and internal errors). Every variant
    /// is listed, so that a new one is given its status here.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Disagreement(_) => 1,
            Error::Interrupted => 130,
            Error::Rules(_)
            | Error::Board(_)
            | Error::Position(_)
            | Error::Move(_)
            | Error::Usage(_)
            | Error::Table { .. }
            | Error::Input { .. }
            | Error::Certificate { .. }
            | Error::BoardFileRefused { .. }
            | Error::Memory(_)
            | Error::Io { .. }
            | Error::Internal(_)
            | Error::Cluster(_)
            | Error::JobsFailed { .. } => 2,
        }
    }
}

/// Most characters of user input an error message quotes (see [`quote`]).
pub const QUOTE_CHARS: usize = 200;

/// User input as an error message quotes it: `'text'`, or, when it is longer than
/// [`QUOTE_CHARS`] characters, its beginning and its length (`'xxx…' (10000000 bytes)`),
/// so that a 10 MB position does not come back as 10 MB of error. Every message that
/// echoes what the user typed (positions, moves, rules, sizes, names) goes through here.
pub fn quote(text: &str) -> String {
    match cut(text) {
        None => format!("'{}'", visible(text)),
        Some(head) => format!("'{}…' ({} bytes)", visible(head), text.len()),
    }
}

/// `text` with its control characters escaped (`\u{1b}`, `\n`), so that echoed
/// input cannot move the cursor, clear the screen or forge a line of output.
fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// [`quote`] without the quotation marks: `text`, or its first [`QUOTE_CHARS`]
/// characters, `…` and its length in bytes.
pub fn bounded(text: &str) -> String {
    match cut(text) {
        None => visible(text),
        Some(head) => format!("{}… ({} bytes)", visible(head), text.len()),
    }
}

/// The first [`QUOTE_CHARS`] characters of `text`, when it has more.
fn cut(text: &str) -> Option<&str> {
    text.char_indices()
        .nth(QUOTE_CHARS)
        .map(|(end, _)| &text[..end])
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rules(m) => write!(f, "invalid rules: {m}"),
            Error::Board(m) => write!(f, "invalid board: {m}"),
            Error::Position(m) => write!(f, "invalid position: {m}"),
            Error::Move(m) => write!(f, "invalid move: {m}"),
            Error::Table { path, reason, .. } => write!(f, "table {}: {reason}", path.display()),
            Error::Usage(m) => write!(f, "invalid usage: {m}"),
            Error::Input { path: None, reason } => write!(f, "invalid input: {reason}"),
            Error::Input {
                path: Some(p),
                reason,
            } => write!(f, "invalid input: {}: {reason}", p.display()),
            Error::Certificate { path: None, reason } => write!(f, "certificate: {reason}"),
            Error::Certificate {
                path: Some(p),
                reason,
            } => write!(f, "certificate {}: {reason}", p.display()),
            Error::BoardFileRefused { board, builtin } => write!(
                f,
                "invalid rules: board {}: only built-in boards are accepted here ({builtin}); \
                 board files are read only at the command line",
                quote(board)
            ),
            Error::Memory(m) => write!(f, "not enough memory: {m}"),
            Error::Interrupted => write!(f, "interrupted; finished work is kept on disk"),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
            Error::Disagreement(m) => write!(f, "{m}"),
            Error::Internal(m) => write!(f, "internal error (a bug; please report it): {m}"),
            Error::Cluster(m) => write!(f, "{m}"),
            Error::JobsFailed { failed, total } => {
                write!(f, "{failed} of {total} jobs failed (see the status column)")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// What is wrong with a table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableFault {
    /// No such file, or a directory without the tables asked for.
    Missing,
    /// Not a regular file, or a directory that is not one.
    NotAFile,
    /// Shorter than its header says.
    Truncated,
    /// Bytes that do not decode (bad magic, header, index or block).
    Corrupt,
    /// A stored checksum does not match the bytes.
    Checksum,
    /// A format version or record encoding this build does not read.
    Unsupported,
    /// The table belongs to other rules (fingerprint or rules string).
    WrongRules,
    /// The table is not the tier or size expected.
    WrongTier,
    /// The file changed while it was open.
    Changed,
    /// A record or slot that should not be there (or is missing).
    BadRecord,
}

impl TableFault {}

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Reads the regular file `path` whole: [`std::fs::read`], except that a FIFO, a
/// device or a directory is refused before it is opened, an [`Error::Input`]
/// naming the path ("not a regular file (a FIFO)"), instead of a read that may
/// never end.
pub fn read_regular(path: &std::path::Path) -> Result<Vec<u8>> {
    crate::regular::read(path).map_err(|e| Error::io(format!("reading {}", path.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `query -` echoed a line's control bytes raw (an escape sequence reached
    /// the terminal): quoted input shows them escaped.
    #[test]
    fn control_characters_are_escaped_where_input_is_echoed() {
        assert_eq!(quote("a\u{1b}[2Jb"), "'a\\u{1b}[2Jb'");
        assert_eq!(bounded("x\ny\tz"), "x\\ny\\tz");
        assert_eq!(bounded("caikabōraḍa"), "caikabōraḍa");
    }

    /// One error of every variant, with the exit status each must give.
    fn every_variant() -> Vec<(Error, u8)> {
        vec![
            (Error::Rules("r".into()), 2),
            (Error::Board("b".into()), 2),
            (Error::Position("p".into()), 2),
            (Error::Move("m".into()), 2),
            (Error::Usage("--games 0: expected 1 to 10".into()), 2),
            (Error::table("t.hst", TableFault::Corrupt, "bad block"), 2),
            (Error::input("jobs.toml", "no [[job]] entries"), 2),
            (Error::input_data("nothing to plot"), 2),
            (Error::certificate("k.proof", "bad magic"), 2),
            (Error::certificate_data("malformed: it has no nodes"), 2),
            (
                Error::BoardFileRefused {
                    board: "x.board".into(),
                    builtin: "b1".into(),
                },
                2,
            ),
            (Error::Memory("m".into()), 2),
            (Error::Interrupted, 130),
            (Error::io("reading x", io::Error::other("gone")), 2),
            (
                Error::Disagreement("the certificate does not hold".into()),
                1,
            ),
            (Error::Internal("i".into()), 2),
            (Error::Cluster("c".into()), 2),
            (
                Error::JobsFailed {
                    failed: 1,
                    total: 3,
                },
                2,
            ),
        ]
    }

    /// The exit status is the concern's: 1 a check disagreed, 130 interrupted,
    /// 2 every other error (usage, input, rules, tables, certificates, I/O, bugs).
    #[test]
    fn every_concern_has_its_exit_status() {
        for (e, code) in every_variant() {
            assert_eq!(e.exit_code(), code, "{e:?}");
        }
    }

    #[test]
    fn the_new_concerns_say_what_and_where() {
        assert_eq!(
            Error::Usage("--games 0: expected 1 to 10".into()).to_string(),
            "invalid usage: --games 0: expected 1 to 10"
        );
        assert_eq!(
            Error::input("jobs.toml", "manifest: no [[job]] entries").to_string(),
            "invalid input: jobs.toml: manifest: no [[job]] entries"
        );
        assert_eq!(
            Error::input_data("nothing to plot").to_string(),
            "invalid input: nothing to plot"
        );
        assert_eq!(
            Error::certificate("k.proof", "file checksum mismatch").to_string(),
            "certificate k.proof: file checksum mismatch"
        );
        assert_eq!(
            Error::certificate_data("malformed: it has no nodes").to_string(),
            "certificate: malformed: it has no nodes"
        );
        assert_eq!(
            Error::JobsFailed {
                failed: 2,
                total: 5
            }
            .to_string(),
            "2 of 5 jobs failed (see the status column)"
        );
    }

    /// `in_file` names the file an input or certificate error came from, once;
    /// it leaves a named file and every other concern alone.
    #[test]
    fn in_file_names_the_file_of_pathless_input_and_certificates_only() {
        let p = Path::new("dir/k.proof");
        let e = Error::certificate_data("malformed: x").in_file(p);
        assert!(
            matches!(&e, Error::Certificate { path: Some(q), .. } if q == p),
            "{e:?}"
        );
        let e = Error::input_data("damaged").in_file(p);
        assert!(
            matches!(&e, Error::Input { path: Some(q), .. } if q == p),
            "{e:?}"
        );
        let e = Error::input("first", "damaged").in_file(p);
        assert!(
            matches!(&e, Error::Input { path: Some(q), .. } if q == Path::new("first")),
            "{e:?}"
        );
        for (e, code) in every_variant() {
            let kept = e.to_string();
            let e = e.in_file(p);
            if !matches!(e, Error::Input { .. } | Error::Certificate { .. }) {
                assert_eq!(e.to_string(), kept);
            }
            assert_eq!(e.exit_code(), code);
        }
    }

    #[test]
    fn long_input_is_quoted_by_its_beginning_and_length() {
        assert_eq!(quote("e5"), "'e5'");
        let exact = "x".repeat(QUOTE_CHARS);
        assert_eq!(quote(&exact), format!("'{exact}'"));
        let long = "é".repeat(10 * QUOTE_CHARS);
        let q = quote(&long);
        assert_eq!(
            q,
            format!("'{}…' ({} bytes)", "é".repeat(QUOTE_CHARS), long.len())
        );
        assert_eq!(bounded(&long), q[1..].replacen("…'", "…", 1));
    }
}
