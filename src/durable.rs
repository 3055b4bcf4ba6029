//! Durability of written files: the one place the library asks the system to put
//! a file's bytes on disk before it renames the file into place.

use std::fs::File;
use std::io;

/// Flushes `file`'s data and metadata to disk (`fsync`).
///
/// The library's own unit tests skip it: they write thousands of small scratch
/// files (a part file after every simulated kill) that no crash can reach, and
/// the flushes were a sixth of their time. The integration tests, the binary
/// and every user of the library flush.
pub(crate) fn sync(file: &File) -> io::Result<()> {
    if cfg!(test) {
        return Ok(());
    }
    file.sync_all()
}
