//! A reproducible frontier run's saved proof table (`DIR/proof-table.s<side>.<n>.zst`,
//! zstd over [`ProofTable::save`]'s bytes), written beside the state at a
//! boundary between runs so that a resumed run continues from exactly the
//! table the uninterrupted one had there.

use super::state::{Snapshot, State};
use crate::error::{Error, Result};
use crate::prove::ProofTable;
use std::path::Path;

/// The zstd level of a saved table (mostly empty slots: level 1 is fast and small).
const LEVEL: i32 = 1;

fn name(side: usize, n: u64) -> String {
    format!("proof-table.s{side}.{n}.zst")
}

/// Saves `tt` as goal side `side`'s next snapshot and records it in `state`
/// with the driver's evaluation counters (`tt` `None`: the run ended with the
/// start decided, and no table is needed to decide it again); the caller
/// writes the state.
pub(super) fn save(
    dir: &Path,
    side: usize,
    tt: Option<&ProofTable>,
    state: &mut State,
    since_eval: u32,
    dirty: bool,
) -> Result<()> {
    let n = state.snapshots.iter().map(|s| s.n).max().unwrap_or(0) + 1;
    let file = match tt {
        Some(tt) => Some(write(dir, &name(side, n), tt)?),
        None => None,
    };
    let crc = file.as_ref().map_or(0, |f| f.1);
    state.snapshots.retain(|s| s.side as usize != side);
    state.snapshots.push(Snapshot {
        side: side as u8,
        n,
        file: file.map(|f| f.0),
        crc,
        since_eval,
        dirty,
    });
    Ok(())
}

/// Writes `tt` to `dir/file` (a temporary file, then a rename); the file's
/// name and the table's crc32.
fn write(dir: &Path, file: &str, tt: &ProofTable) -> Result<(String, u32)> {
    let path = dir.join(file);
    let tmp = dir.join(format!(".{file}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<u32> {
        let f = std::fs::File::create(&tmp)?;
        let mut z = zstd::Encoder::new(std::io::BufWriter::with_capacity(1 << 20, f), LEVEL)?;
        let crc = tt.save(&mut z)?;
        let f = z.finish()?.into_inner().map_err(|e| e.into_error())?;
        crate::durable::sync(&f)?;
        Ok(crc)
    })();
    let crc = match written {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io(format!("writing {}", tmp.display()), e));
        }
    };
    std::fs::rename(&tmp, &path)
        .map_err(|e| Error::io(format!("renaming to {}", path.display()), e))?;
    Ok((file.to_string(), crc))
}

/// Fills `tt` from goal side `side`'s snapshot in the state; the evaluation
/// counters saved with it, or `None` when the state holds none for this side.
pub(super) fn load(
    dir: &Path,
    side: usize,
    tt: &ProofTable,
    state: &State,
) -> Result<Option<(u32, bool)>> {
    let Some(s) = state.snapshots.iter().find(|s| s.side as usize == side) else {
        return Ok(None);
    };
    let Some(file) = &s.file else {
        return Ok(Some((s.since_eval, s.dirty)));
    };
    let path = dir.join(file);
    if file.contains(['/', '\\']) || !file.starts_with("proof-table.") {
        return Err(Error::input(&path, "not a saved proof table's name"));
    }
    let damaged = |why: String| {
        Error::input(
            &path,
            format!(
                "the saved proof table cannot be read ({why}); remove the state to start again"
            ),
        )
    };
    let f = crate::regular::open(&path).map_err(|e| damaged(e.to_string()))?;
    let mut z = zstd::Decoder::new(f).map_err(|e| damaged(e.to_string()))?;
    let crc = tt.load(&mut z).map_err(|e| damaged(e.to_string()))?;
    if crc != s.crc {
        return Err(damaged("it is not the one the state names".into()));
    }
    Ok(Some((s.since_eval, s.dirty)))
}

/// Removes the saved tables of `dir` the state does not name.
pub(super) fn remove_others(dir: &Path, state: &State) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let named = state
            .snapshots
            .iter()
            .any(|s| s.file.as_deref() == Some(n.as_str()));
        if n.starts_with("proof-table.") && n.ends_with(".zst") && !named {
            let _ = std::fs::remove_file(e.path());
        }
    }
}
