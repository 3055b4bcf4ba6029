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

/// Saves `tt` as the next snapshot of goal side `side` and records it in
/// `state` (with the driver's evaluation counters); the caller writes the state.
pub(super) fn save(
    dir: &Path,
    side: usize,
    tt: &ProofTable,
    state: &mut State,
    since_eval: u32,
    dirty: bool,
) -> Result<()> {
    let n = state.snapshot.as_ref().map_or(1, |s| s.n + 1);
    let file = name(side, n);
    let path = dir.join(&file);
    let tmp = dir.join(format!(".{file}.{}.tmp", std::process::id()));
    let io = |e| Error::io(format!("writing {}", tmp.display()), e);
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
            return Err(io(e));
        }
    };
    std::fs::rename(&tmp, &path)
        .map_err(|e| Error::io(format!("renaming to {}", path.display()), e))?;
    state.snapshot = Some(Snapshot {
        side: side as u8,
        n,
        file,
        crc,
        since_eval,
        dirty,
    });
    Ok(())
}

/// Fills `tt` from the state's snapshot of goal side `side`; `false` when the
/// state names none for this side.
pub(super) fn load(dir: &Path, side: usize, tt: &ProofTable, state: &State) -> Result<bool> {
    let Some(s) = state.snapshot.as_ref().filter(|s| s.side as usize == side) else {
        return Ok(false);
    };
    let path = dir.join(&s.file);
    if s.file.contains(['/', '\\']) || !s.file.starts_with("proof-table.") {
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
    let f = std::fs::File::open(&path).map_err(|e| damaged(e.to_string()))?;
    let mut z = zstd::Decoder::new(f).map_err(|e| damaged(e.to_string()))?;
    let crc = tt.load(&mut z).map_err(|e| damaged(e.to_string()))?;
    if crc != s.crc {
        return Err(damaged("it is not the one the state names".into()));
    }
    Ok(true)
}

/// Removes the saved tables of `dir` other than the state's own.
pub(super) fn remove_others(dir: &Path, state: &State) {
    let keep = state.snapshot.as_ref().map(|s| s.file.as_str());
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with("proof-table.") && n.ends_with(".zst") && Some(n.as_str()) != keep {
            let _ = std::fs::remove_file(e.path());
        }
    }
}
