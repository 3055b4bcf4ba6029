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

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside
/// it, named uniquely for this process and call (`NAME.tmp<pid>-<n>`, created
/// new, so two writers never share one), flushed to disk, then renamed over
/// `path`. A reader, or a run killed midway, sees the old file or the new one,
/// never half of one; on any error the temporary file is removed.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(
        ".tmp{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = path.with_file_name(name);
    let written = File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            sync(&f)
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    /// The new bytes replace the old whole, and no temporary file is left;
    /// a write into a folder that does not exist fails and leaves nothing.
    #[test]
    fn an_atomic_write_replaces_whole_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("huntsolve-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.md");
        std::fs::write(&path, "old text, longer than the new one").unwrap();
        super::write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report.md"]);
        assert!(super::write_atomic(&dir.join("missing/report.md"), b"x").is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
