//! The errors of the table format ([`super::format`]): typed by kind, so no
//! caller classifies a fault by its text.

use crate::error::{Error, TableFault};
use std::path::Path;

/// What is wrong with the bytes of a table: the kind (typed, so no caller reads
/// it from the text) and the details for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// What kind of problem it is.
    pub fault: TableFault,
    /// The details, for a person (they start with the kind: `truncated: ...`).
    pub reason: String,
}

impl FormatError {
    /// The table error of the file at `path`.
    pub(crate) fn at(self, path: &Path) -> Error {
        Error::table(path, self.fault, self.reason)
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for FormatError {}

pub(crate) fn bad(fault: TableFault, reason: impl Into<String>) -> FormatError {
    FormatError {
        fault,
        reason: reason.into(),
    }
}

pub(crate) fn truncated(reason: impl Into<String>) -> FormatError {
    bad(TableFault::Truncated, reason)
}

pub(crate) fn corrupt(reason: impl Into<String>) -> FormatError {
    bad(TableFault::Corrupt, reason)
}

pub(crate) fn checksum(reason: impl Into<String>) -> FormatError {
    bad(TableFault::Checksum, reason)
}

pub(crate) fn unsupported(reason: impl Into<String>) -> FormatError {
    bad(TableFault::Unsupported, reason)
}
