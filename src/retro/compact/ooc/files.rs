//! The files of an out-of-core tier ([`super`]): the layout of its parts,
//! the update files the parts exchange, and the small state file of the passes.
//!
//! Everything lives in one directory, `DIR/<tier>.ooc/`:
//! - `part-<k>of<P>`: part `k`'s bytes, a compact checkpoint
//!   ([`super::checkpoint`]: zstd, CRC-checked, written by a temporary file and
//!   a rename) whose boundary says how far the part is (`from`: 0 scanned,
//!   `d + 1` once pass `d` is done; `levels`: 1 when pass `d` found a slot);
//! - `upd-<dest>-<level>-<producer>`: the updates part `producer` made at pass
//!   `level` to slots of part `dest`, 8 bytes each (little-endian `u64`: the
//!   slot in bits 0-47; bit 63 set, a loss at `level` (the slot wins at
//!   `level + 1`); clear, a won child taking bits 48-55 edges off the slot's
//!   counter); written to a temporary file and renamed when the producer's
//!   pass is done, removed once `dest` has applied them;
//! - `state`: the layout, the next distance, the levels counted and the pass
//!   under way (text, temporary file and rename).

use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::io::{BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::retro::compact::CHUNK;

/// An update file: (dest, level, producer).
pub(super) type UpdateFile = (usize, u32, usize);

/// Bits of a slot in an update record.
pub(super) const SLOT_BITS: u32 = 48;
/// Mask of the slot in an update record.
pub(super) const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;
/// An update record's flag: a loss at the file's level (the slot wins one later).
pub(super) const LOST_CHILD: u64 = 1 << 63;
/// Records buffered by a job before it hands them to the file.
pub(super) const JOB_RECORDS: usize = 1 << 13;
/// Records read and applied at a time.
pub(super) const APPLY_RECORDS: usize = 1 << 14;
/// Buffer of one update file being written.
pub(super) const WRITE_BUFFER: usize = 1 << 16;

/// The parts of a tier: consecutive runs of whole chunks (so a part's distance
/// sets are its own), as even as the chunks allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub n: usize,
    pub parts: usize,
    chunks: usize,
}

impl Layout {
    /// `n` slots in (at most) `parts` parts, one chunk at least each.
    pub(super) fn new(n: usize, parts: usize) -> Layout {
        let chunks = n.div_ceil(CHUNK);
        Layout {
            n,
            parts: parts.clamp(1, chunks.max(1)),
            chunks,
        }
    }

    fn first_chunk(&self, k: usize) -> usize {
        (k as u128 * self.chunks as u128 / self.parts as u128) as usize
    }

    /// The slots of part `k`.
    pub(super) fn range(&self, k: usize) -> Range<usize> {
        (self.first_chunk(k) * CHUNK).min(self.n)..(self.first_chunk(k + 1) * CHUNK).min(self.n)
    }

    /// The part that holds slot `i` (`i < n`).
    pub(super) fn owner(&self, i: usize) -> usize {
        let c = (i / CHUNK) as u128;
        (((c + 1) * self.parts as u128 - 1) / self.chunks as u128) as usize
    }
}

/// Path of part `k`.
pub(super) fn part_path(dir: &Path, k: usize, parts: usize) -> PathBuf {
    dir.join(format!("part-{k}of{parts}"))
}

/// Path of the updates of `producer` at pass `level` for part `dest`.
fn update_path(dir: &Path, dest: usize, level: u32, producer: usize) -> PathBuf {
    dir.join(format!("upd-{dest}-{level}-{producer}"))
}

/// The update files in `dir`, as (dest, level, producer); temporary files
/// (of a killed run) are removed.
pub(super) fn list_updates(dir: &Path) -> Result<BTreeSet<(usize, u32, usize)>> {
    let io = |e| Error::io(format!("reading {}", dir.display()), e);
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".tmp") {
            remove(&entry.path())?;
            continue;
        }
        let Some(rest) = name.strip_prefix("upd-") else {
            continue;
        };
        let f: Vec<&str> = rest.split('-').collect();
        if let [d, l, p] = f[..] {
            if let (Ok(d), Ok(l), Ok(p)) = (d.parse(), l.parse(), p.parse()) {
                out.insert((d, l, p));
            }
        }
    }
    Ok(out)
}

/// Removes a file (absent: nothing to do).
pub(super) fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(Error::io(format!("removing {}", path.display()), e))
        }
        _ => Ok(()),
    }
}

/// Removes update file (dest, level, producer).
pub(super) fn remove_update(dir: &Path, (d, l, p): (usize, u32, usize)) -> Result<()> {
    remove(&update_path(dir, d, l, p))
}

/// Reads update file (dest, level, producer) in batches of at most
/// [`APPLY_RECORDS`], calling `apply` on each.
pub(super) fn read_updates(
    dir: &Path,
    (d, l, p): (usize, u32, usize),
    apply: &mut dyn FnMut(&[u64]) -> Result<()>,
) -> Result<u64> {
    let path = update_path(dir, d, l, p);
    let io = |e| Error::io(format!("reading {}", path.display()), e);
    let mut file = std::fs::File::open(&path).map_err(io)?;
    let mut raw = vec![0u8; APPLY_RECORDS * 8];
    let mut recs = Vec::with_capacity(APPLY_RECORDS);
    let mut bytes = 0u64;
    loop {
        let mut got = 0;
        while got < raw.len() {
            match file.read(&mut raw[got..]).map_err(io)? {
                0 => break,
                k => got += k,
            }
        }
        if got % 8 != 0 {
            return Err(Error::table(
                &path,
                crate::error::TableFault::Truncated,
                "an update file of the out-of-core solver ends inside a record",
            ));
        }
        recs.clear();
        recs.extend(raw[..got].chunks_exact(8).map(|b| {
            let mut x = [0u8; 8];
            x.copy_from_slice(b);
            u64::from_le_bytes(x)
        }));
        bytes += got as u64;
        if !recs.is_empty() {
            apply(&recs)?;
        }
        if got < raw.len() {
            return Ok(bytes);
        }
    }
}

/// The update files one part writes during one pass, one per destination,
/// opened on the first record.
pub(super) struct Outboxes {
    dir: PathBuf,
    level: u32,
    producer: usize,
    files: Vec<Mutex<Option<BufWriter<std::fs::File>>>>,
}

impl Outboxes {
    pub(super) fn new(dir: &Path, level: u32, producer: usize, parts: usize) -> Outboxes {
        Outboxes {
            dir: dir.to_path_buf(),
            level,
            producer,
            files: (0..parts).map(|_| Mutex::new(None)).collect(),
        }
    }

    fn tmp(&self, dest: usize) -> PathBuf {
        let p = update_path(&self.dir, dest, self.level, self.producer);
        p.with_file_name(format!(
            "{}.tmp{}",
            p.file_name().and_then(|n| n.to_str()).unwrap_or("upd"),
            std::process::id()
        ))
    }

    /// Appends `recs` to the file for `dest`.
    pub(super) fn put(&self, dest: usize, recs: &[u64]) -> Result<()> {
        if recs.is_empty() {
            return Ok(());
        }
        let tmp = self.tmp(dest);
        let io = |e| Error::io(format!("writing {}", tmp.display()), e);
        let mut slot = self.files[dest]
            .lock()
            .map_err(|_| Error::Internal("an update file's lock is poisoned".into()))?;
        if slot.is_none() {
            let f = std::fs::File::create(&tmp).map_err(io)?;
            *slot = Some(BufWriter::with_capacity(WRITE_BUFFER, f));
        }
        if let Some(w) = slot.as_mut() {
            let mut buf = Vec::with_capacity(recs.len() * 8);
            for r in recs {
                buf.extend_from_slice(&r.to_le_bytes());
            }
            w.write_all(&buf).map_err(io)?;
        }
        Ok(())
    }

    /// Syncs and renames every file written; returns their (dest, level,
    /// producer) and their bytes. On an error every temporary file is removed.
    pub(super) fn finish(self) -> Result<(Vec<UpdateFile>, u64)> {
        let mut done = Vec::new();
        let mut bytes = 0;
        let mut first_err = None;
        for (dest, m) in self.files.iter().enumerate() {
            let w = match m.lock() {
                Ok(mut g) => g.take(),
                Err(_) => None,
            };
            let Some(w) = w else { continue };
            let tmp = self.tmp(dest);
            let res = (|| -> std::io::Result<u64> {
                let f = w.into_inner().map_err(|e| e.into_error())?;
                f.sync_all()?;
                let len = f.metadata()?.len();
                std::fs::rename(
                    &tmp,
                    update_path(&self.dir, dest, self.level, self.producer),
                )?;
                Ok(len)
            })();
            match res {
                Ok(len) => {
                    bytes += len;
                    done.push((dest, self.level, self.producer));
                }
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    first_err.get_or_insert(Error::io(format!("writing {}", tmp.display()), e));
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok((done, bytes)),
        }
    }
}

/// Where the passes are: written after the scan and at the start and end of
/// every pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Passes {
    /// The next distance to look for.
    pub from: u32,
    /// Levels that held a slot.
    pub levels: u32,
    /// The pass under way, if any.
    pub current: Option<u32>,
}

/// Path of the state file.
fn state_path(dir: &Path) -> PathBuf {
    dir.join("state")
}

/// Writes the state (temporary file and rename).
pub(super) fn write_state(dir: &Path, layout: &Layout, p: &Passes) -> Result<()> {
    let path = state_path(dir);
    let text = format!(
        "huntsolve out-of-core 1\nslots {}\nparts {}\nfrom {}\nlevels {}\npass {}\n",
        layout.n,
        layout.parts,
        p.from,
        p.levels,
        p.current.map_or("-".to_string(), |d| d.to_string())
    );
    crate::retro::solver::checkpoint::write_atomically(&path, |mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        Ok(text.len() as u64)
    })?;
    Ok(())
}

/// Whether `dir` has a state file (readable or not).
pub(super) fn has_state(dir: &Path) -> bool {
    state_path(dir).exists()
}

/// Reads the state: `None` when there is none, or when it is of another layout
/// or unreadable (the caller starts the tier over).
pub(super) fn read_state(dir: &Path, layout: &Layout) -> Option<Passes> {
    let text = std::fs::read_to_string(state_path(dir)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != "huntsolve out-of-core 1" {
        return None;
    }
    let mut field = |key: &str| -> Option<String> {
        lines
            .next()?
            .strip_prefix(key)?
            .strip_prefix(' ')
            .map(String::from)
    };
    let n: usize = field("slots")?.parse().ok()?;
    let parts: usize = field("parts")?.parse().ok()?;
    let from = field("from")?.parse().ok()?;
    let levels = field("levels")?.parse().ok()?;
    let pass = field("pass")?;
    let current = if pass == "-" {
        None
    } else {
        Some(pass.parse().ok()?)
    };
    (n == layout.n && parts == layout.parts).then_some(Passes {
        from,
        levels,
        current,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_runs_of_whole_chunks_and_owners_match() {
        for n in [1usize, CHUNK - 1, CHUNK, 3 * CHUNK + 5, 10 * CHUNK] {
            for parts in 1..7 {
                let l = Layout::new(n, parts);
                assert!(l.parts >= 1 && l.parts <= n.div_ceil(CHUNK));
                assert_eq!(l.range(0).start, 0);
                assert_eq!(l.range(l.parts - 1).end, n);
                for k in 0..l.parts {
                    let r = l.range(k);
                    assert!(
                        !r.is_empty() && r.start.is_multiple_of(CHUNK),
                        "{n} {parts} {k}"
                    );
                    for i in [r.start, r.end - 1] {
                        assert_eq!(l.owner(i), k, "n {n} parts {parts} slot {i}");
                    }
                    if k + 1 < l.parts {
                        assert_eq!(r.end, l.range(k + 1).start);
                    }
                }
            }
        }
    }

    #[test]
    fn the_state_round_trips_and_another_layout_is_not_read() {
        let dir = std::env::temp_dir().join(format!("huntsolve-ooc-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let l = Layout::new(5 * CHUNK, 3);
        for p in [
            Passes {
                from: 0,
                levels: 0,
                current: None,
            },
            Passes {
                from: 7,
                levels: 5,
                current: Some(9),
            },
        ] {
            write_state(&dir, &l, &p).unwrap();
            assert_eq!(read_state(&dir, &l), Some(p));
            assert_eq!(read_state(&dir, &Layout::new(5 * CHUNK, 2)), None);
        }
        std::fs::write(dir.join("state"), "huntsolve out-of-core 1\nslots x\n").unwrap();
        assert_eq!(read_state(&dir, &l), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
