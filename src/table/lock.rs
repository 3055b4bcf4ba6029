//! One writer per output directory, and no debris from the last one.
//!
//! A solve holds `DIR/.huntsolve.lock` (created exclusively, holding the writer's
//! process id) until it returns. A second solve into the same directory refuses
//! while that process lives; a lock left by a process that no longer runs (kill -9,
//! power loss) is taken over. Holding the lock, the solve removes the temporary files
//! a killed or disk-full run leaves behind: `*.hst.tmpNNN` (table writes),
//! `*.ckpt.tmpNNN` (checkpoint writes) and `summary.json.tmp`. Both are only ever renamed into place whole, so removing them
//! loses nothing.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Name of the lock file inside the output directory.
pub(crate) const LOCK_FILE: &str = ".huntsolve.lock";

/// File in the output directory naming the tier a split solve is working on
/// (written by part 0 of `split::solve_split` before the tier starts, removed
/// when the solve ends), so that a rerun can say which tier an earlier run left
/// unfinished even when that run was killed before it could say so. Named here,
/// with the other files a writer leaves in the directory.
pub const UNFINISHED_MARK: &str = ".split-unfinished";

/// An exclusive claim on an output directory, released when dropped.
#[derive(Debug)]
pub(crate) struct DirLock {
    path: PathBuf,
}

impl DirLock {
    /// Takes the lock on `dir` (which must exist), or says who holds it.
    pub(crate) fn acquire(dir: &Path) -> Result<DirLock> {
        let path = dir.join(LOCK_FILE);
        // Two attempts: the second after removing a lock whose process is gone.
        for _ in 0..2 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    writeln!(f, "{}", std::process::id())
                        .map_err(|e| Error::io(format!("writing {}", path.display()), e))?;
                    return Ok(DirLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // A FIFO here would block the read for ever: refused, and left alone.
                    let text = match crate::regular::read_to_string(&path) {
                        Err(e) if crate::regular::NotRegular::of(&e).is_some() => {
                            return Err(Error::io(format!("reading {}", path.display()), e))
                        }
                        read => read.unwrap_or_default(),
                    };
                    match text.trim().parse::<u32>() {
                        Ok(pid) if process_alive(pid) => {
                            return Err(Error::input(dir, format!(
                                "being written by another huntsolve (process {pid}); wait for it or choose another --out (remove {} if that process is not huntsolve)",
                                path.display()
                            )))
                        }
                        // Stale (or half-written by a writer killed at once): take over.
                        _ => {
                            let _ = std::fs::remove_file(&path);
                        }
                    }
                }
                Err(e) => return Err(Error::io(format!("creating {}", path.display()), e)),
            }
        }
        Err(Error::input(
            dir,
            format!(
                "could not take the lock {} (another writer keeps creating it)",
                path.display()
            ),
        ))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` exists (Linux `/proc`; elsewhere assume it does, so a
/// lock is never taken from a live writer).
pub(crate) fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        // Our own pid in the file: left by an earlier process that had the same id.
        return false;
    }
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    let dir = proc.join(pid.to_string());
    if !dir.exists() {
        return false;
    }
    // A zombie (killed, not yet reaped: in a container whose first process reaps
    // no orphans it stays one) holds no lock.
    match std::fs::read_to_string(dir.join("stat")) {
        Ok(stat) => !is_zombie_stat(&stat),
        Err(_) => true,
    }
}

/// Whether a `/proc/PID/stat` line is a zombie's: the state after the command
/// name in parentheses (which may itself hold spaces and parentheses) is `Z`.
fn is_zombie_stat(stat: &str) -> bool {
    stat.rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())
        == Some("Z")
}

/// Removes the temporary files a killed or failed writer left in `dir`
/// (`*.hst.tmp<pid>`, `*.ckpt.tmp<pid>`, `.split-unfinished.tmp<pid>`,
/// `summary.json.tmp`); returns how many. Call it holding the [`DirLock`].
pub(crate) fn remove_stale_temporaries(dir: &Path) -> Result<usize> {
    let rd =
        std::fs::read_dir(dir).map_err(|e| Error::io(format!("listing {}", dir.display()), e))?;
    // The split solve's mark, written as `<mark>.tmp<pid>` and renamed.
    let mark_tmp = format!("{UNFINISHED_MARK}.tmp");
    let mut removed = 0;
    for entry in rd {
        let entry = entry.map_err(|e| Error::io(format!("listing {}", dir.display()), e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stale = name == "summary.json.tmp"
            || [".hst.tmp", ".ckpt.tmp", mark_tmp.as_str()]
                .iter()
                .any(|tmp| {
                    name.split_once(tmp)
                        .is_some_and(|(_, pid)| pid.bytes().all(|b| b.is_ascii_digit()))
                });
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::remove_file(entry.path())
                .map_err(|e| Error::io(format!("removing {}", entry.path().display()), e))?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zombie_holds_no_lock() {
        assert!(is_zombie_stat("2328 (huntsolve) Z 1 2328 2328 0 -1"));
        assert!(is_zombie_stat("7 (a) b) (c) Z 1 7"));
        assert!(!is_zombie_stat("2328 (huntsolve) S 1 2328 2328 0 -1"));
        assert!(!is_zombie_stat("7 (Z) R 1"));
        assert!(!is_zombie_stat("garbage"));
        // This test's own process is alive and no zombie.
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
            assert!(!is_zombie_stat(&stat));
        }
    }

    #[test]
    fn a_lock_left_by_an_unreaped_process_is_stale() {
        if !Path::new("/proc/self/stat").exists() {
            return;
        }
        let Ok(mut child) = std::process::Command::new("true").spawn() else {
            return;
        };
        let pid = child.id();
        // Not reaped yet: once it has exited it is a zombie.
        let mut waited = 0;
        while process_alive(pid) && waited < 500 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            waited += 1;
        }
        assert!(
            !process_alive(pid),
            "an exited, unreaped child counts as alive"
        );
        assert!(Path::new(&format!("/proc/{pid}")).exists());
        let _ = child.wait();
    }
}
