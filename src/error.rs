//! Error type shared by every layer of the library.
//!
//! Hand-written (no derive crate): each variant carries the context a user needs
//! to fix the problem (which file, which field, which ply).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Every error the library can return.
#[derive(Debug)]
pub enum Error {
    /// A rules string (`preset[,key=value...]`) could not be parsed.
    Rules(String),
    /// A board description (built-in or file) is invalid.
    Board(String),
    /// A position text could not be parsed or describes an impossible position.
    Position(String),
    /// A move text could not be parsed or is not legal in the position.
    Move(String),
    /// A table file is missing, corrupt, truncated or belongs to other rules.
    Table { path: PathBuf, reason: String },
    /// A manifest, configuration or other input file is invalid.
    Input(String),
    /// A job would need more memory than allowed.
    Memory(String),
    /// A check (verify, verify --search) ran to the end and found disagreements.
    Disagreement(String),
    /// The work was interrupted (Ctrl-C or a stop flag); finished work is on disk.
    Interrupted,
    /// An I/O error with the path or action that caused it.
    Io { context: String, source: io::Error },
    /// Anything that does not fit above, with an explanation.
    Other(String),
}

impl Error {
    /// Wraps an [`io::Error`] with what was being done.
    pub fn io(context: impl Into<String>, source: io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// A table error for `path`.
    pub fn table(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Error::Table {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rules(m) => write!(f, "invalid rules: {m}"),
            Error::Board(m) => write!(f, "invalid board: {m}"),
            Error::Position(m) => write!(f, "invalid position: {m}"),
            Error::Move(m) => write!(f, "invalid move: {m}"),
            Error::Table { path, reason } => write!(f, "table {}: {reason}", path.display()),
            Error::Input(m) => write!(f, "invalid input: {m}"),
            Error::Memory(m) => write!(f, "not enough memory: {m}"),
            Error::Disagreement(m) => write!(f, "{m}"),
            Error::Interrupted => write!(f, "interrupted; finished work is kept on disk"),
            Error::Io { context, source } => write!(f, "{context}: {source}"),
            Error::Other(m) => write!(f, "{m}"),
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

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
