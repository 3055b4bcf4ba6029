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
//! - `list-<level>-<producer>`: the update files that pass wrote, each with
//!   its record count and CRC-32, written after them and before the
//!   producer's part: a file is applied only as its list names it, so a
//!   missing, damaged or foreign update file is never applied (the tier
//!   starts over instead);
//! - `state`: the layout, the next distance, the levels counted and the pass
//!   under way (text, temporary file and rename).
//!
//! The directory is the solver's own: a symbolic link, a file of another
//! name or anything but a regular file in it is refused ([`check_dir`]), and
//! only the solver's names are ever removed ([`remove_own`]).

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

/// Path of the list of update files that `producer` wrote at pass `level`.
fn list_path(dir: &Path, level: u32, producer: usize) -> PathBuf {
    dir.join(format!("list-{level}-{producer}"))
}

/// The numbers of `prefix` followed by `n` numbers joined by `sep`.
fn numbers(name: &str, prefix: &str, seps: &[&str]) -> Option<Vec<u64>> {
    let mut rest = name.strip_prefix(prefix)?;
    let mut out = Vec::new();
    for sep in seps.iter().chain([&""]) {
        let (num, tail) = if sep.is_empty() {
            (rest, "")
        } else {
            rest.split_once(sep)?
        };
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.len() > 19 {
            return None;
        }
        out.push(num.parse().ok()?);
        rest = tail;
    }
    Some(out)
}

/// Whether `name` is one the out-of-core solver writes (a part, an update
/// file, a list, the state, or a temporary file of one of them).
pub(super) fn own_name(name: &str) -> bool {
    let base = match name.find(".tmp") {
        Some(i) => {
            let pid = &name[i + 4..];
            if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
                return false;
            }
            &name[..i]
        }
        None => name,
    };
    base == "state"
        || numbers(base, "part-", &["of"]).is_some()
        || numbers(base, "upd-", &["-", "-"]).is_some()
        || numbers(base, "list-", &["-"]).is_some()
}

/// Refuses a directory that is not the solver's own: a symbolic link (a
/// tier that starts over would clear what the link reaches), a file of a
/// name the solver does not write, or a link, pipe, device or directory under
/// one of its names (a pipe would block the solve, a link to `/dev/zero`
/// would be read without end). An absent directory is fine.
pub(in crate::retro) fn check_dir(dir: &Path) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::input(
            dir,
            format!(
                "{why}; the out-of-core solver works in a directory of its own and removes \
                 only its own files there: move it away, or give another --out"
            ),
        ))
    };
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(format!("reading {}", dir.display()), e)),
        Ok(m) if m.file_type().is_symlink() => return refuse("a symbolic link".into()),
        Ok(m) if !m.is_dir() => return refuse("not a directory".into()),
        Ok(_) => {}
    }
    let io = |e| Error::io(format!("reading {}", dir.display()), e);
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !own_name(&name) {
            return refuse(format!("it holds '{name}', which the solver did not write"));
        }
        if !entry.file_type().map_err(io)?.is_file() {
            return refuse(format!("'{name}' is not a regular file"));
        }
    }
    Ok(())
}

/// Removes the solver's own files of `dir` (regular files of its names) and
/// then the directory if that leaves it empty; a symbolic link is left alone.
pub(in crate::retro) fn remove_own(dir: &Path) -> Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => {}
        _ => return Ok(()),
    }
    let io = |e| Error::io(format!("clearing {}", dir.display()), e);
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if own_name(&name) && entry.file_type().map_err(io)?.is_file() {
            remove(&entry.path())?;
        }
    }
    // Not empty: something that is not the solver's stays, with its directory.
    let _ = std::fs::remove_dir(dir);
    Ok(())
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
        if let Some([d, l, p]) = numbers(&name, "upd-", &["-", "-"]).as_deref() {
            let (Ok(d), Ok(l), Ok(p)) =
                (usize::try_from(*d), u32::try_from(*l), usize::try_from(*p))
            else {
                return Err(Error::input(
                    dir,
                    format!("update file '{name}' has numbers no solve writes"),
                ));
            };
            out.insert((d, l, p));
        }
    }
    Ok(out)
}

/// The lists in `dir`, as (level, producer).
pub(super) fn list_lists(dir: &Path) -> Result<BTreeSet<(u32, usize)>> {
    let io = |e| Error::io(format!("reading {}", dir.display()), e);
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry
            .map_err(io)?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if let Some([l, p]) = numbers(&name, "list-", &["-"]).as_deref() {
            if let (Ok(l), Ok(p)) = (u32::try_from(*l), usize::try_from(*p)) {
                out.insert((l, p));
            }
        }
    }
    Ok(out)
}

/// One update file as its pass's list records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Written {
    /// The part the updates are for.
    pub dest: usize,
    /// Its records (8 bytes each).
    pub records: u64,
    /// CRC-32 of its bytes.
    pub crc: u32,
}

const LIST_HEADER: &str = "huntsolve updates 1";

/// Writes the list of pass `level` of `producer` (temporary file and rename).
pub(super) fn write_list(dir: &Path, level: u32, producer: usize, files: &[Written]) -> Result<()> {
    let mut text = format!("{LIST_HEADER}\n");
    for w in files {
        text.push_str(&format!("{} {} {:08x}\n", w.dest, w.records, w.crc));
    }
    crate::retro::solver::checkpoint::write_atomically(
        &list_path(dir, level, producer),
        |mut f| {
            f.write_all(text.as_bytes())?;
            crate::durable::sync(&f)?;
            Ok(text.len() as u64)
        },
    )?;
    Ok(())
}

/// Reads a list: `None` when it is damaged (or longer than `parts` entries).
pub(super) fn read_list(
    dir: &Path,
    level: u32,
    producer: usize,
    parts: usize,
) -> Option<Vec<Written>> {
    let text = read_small(&list_path(dir, level, producer), 64 + 48 * parts as u64)?;
    let mut lines = text.lines();
    if lines.next()? != LIST_HEADER {
        return None;
    }
    let mut out = Vec::new();
    for line in lines {
        let mut f = line.split(' ');
        let dest = f.next()?.parse().ok()?;
        let records = f.next()?.parse().ok()?;
        let crc = u32::from_str_radix(f.next()?, 16).ok()?;
        if f.next().is_some() || out.iter().any(|w: &Written| w.dest == dest) {
            return None;
        }
        out.push(Written { dest, records, crc });
    }
    Some(out)
}

/// Removes the list of pass `level` of `producer`.
pub(super) fn remove_list(dir: &Path, level: u32, producer: usize) -> Result<()> {
    remove(&list_path(dir, level, producer))
}

/// A small text file, `None` when unreadable, not UTF-8 or over `max` bytes.
fn read_small(path: &Path, max: u64) -> Option<String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(max + 1)
        .read_to_string(&mut text)
        .ok()?;
    (text.len() as u64 <= max).then_some(text)
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
/// [`APPLY_RECORDS`], calling `apply` on each. Refused before any record is
/// applied when its length is not the list's; its checksum is compared with
/// the list's at the end (an error then: the caller writes nothing of what
/// it applied).
pub(super) fn read_updates(
    dir: &Path,
    (d, l, p): (usize, u32, usize),
    want: &Written,
    apply: &mut dyn FnMut(&[u64]) -> Result<()>,
) -> Result<u64> {
    let path = update_path(dir, d, l, p);
    let io = |e| Error::io(format!("reading {}", path.display()), e);
    let mut file = std::fs::File::open(&path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len != want.records.saturating_mul(8) {
        return Err(Error::table(
            &path,
            crate::error::TableFault::Truncated,
            format!(
                "an update file of the out-of-core solver has {len} bytes, its list says {} records",
                want.records
            ),
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    let bytes = read_records(&mut file, &path, &mut crc, apply)?;
    if crc.finalize() != want.crc {
        return Err(Error::table(
            &path,
            crate::error::TableFault::Checksum,
            "an update file of the out-of-core solver does not match its list's checksum",
        ));
    }
    Ok(bytes)
}

/// Whether update file `u` is whole: the length and checksum its list gives.
pub(super) fn update_is_whole(dir: &Path, u: UpdateFile, want: &Written) -> bool {
    read_updates(dir, u, want, &mut |_| Ok(())).is_ok()
}

fn read_records(
    file: &mut std::fs::File,
    path: &Path,
    crc: &mut crc32fast::Hasher,
    apply: &mut dyn FnMut(&[u64]) -> Result<()>,
) -> Result<u64> {
    let io = |e| Error::io(format!("reading {}", path.display()), e);
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
        crc.update(&raw[..got]);
        if got % 8 != 0 {
            return Err(Error::table(
                path,
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
    files: Vec<Mutex<Option<Outbox>>>,
}

/// One update file being written: its writer, records and checksum so far.
struct Outbox {
    writer: BufWriter<std::fs::File>,
    records: u64,
    crc: crc32fast::Hasher,
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
            *slot = Some(Outbox {
                writer: BufWriter::with_capacity(WRITE_BUFFER, f),
                records: 0,
                crc: crc32fast::Hasher::new(),
            });
        }
        if let Some(w) = slot.as_mut() {
            let mut buf = Vec::with_capacity(recs.len() * 8);
            for r in recs {
                buf.extend_from_slice(&r.to_le_bytes());
            }
            w.writer.write_all(&buf).map_err(io)?;
            w.crc.update(&buf);
            w.records += recs.len() as u64;
        }
        Ok(())
    }

    /// Syncs and renames every file written, then writes their list; returns
    /// their (dest, level, producer), what the list says of each, and their
    /// bytes. On an error every temporary file is removed.
    pub(super) fn finish(self) -> Result<(Vec<(UpdateFile, Written)>, u64)> {
        let mut done = Vec::new();
        let mut bytes = 0;
        let mut first_err = None;
        for (dest, m) in self.files.iter().enumerate() {
            let w = match m.lock() {
                Ok(mut g) => g.take(),
                Err(_) => None,
            };
            let Some(Outbox {
                writer: w,
                records,
                crc,
            }) = w
            else {
                continue;
            };
            let tmp = self.tmp(dest);
            let res = (|| -> std::io::Result<u64> {
                let f = w.into_inner().map_err(|e| e.into_error())?;
                crate::durable::sync(&f)?;
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
                    let written = Written {
                        dest,
                        records,
                        crc: crc.finalize(),
                    };
                    done.push(((dest, self.level, self.producer), written));
                }
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    first_err.get_or_insert(Error::io(format!("writing {}", tmp.display()), e));
                }
            }
        }
        if let Some(e) = first_err {
            return Err(e);
        }
        let listed: Vec<Written> = done.iter().map(|&(_, w)| w).collect();
        write_list(&self.dir, self.level, self.producer, &listed)?;
        Ok((done, bytes))
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
        "huntsolve out-of-core 2\nslots {}\nparts {}\nfrom {}\nlevels {}\npass {}\n",
        layout.n,
        layout.parts,
        p.from,
        p.levels,
        p.current.map_or("-".to_string(), |d| d.to_string())
    );
    crate::retro::solver::checkpoint::write_atomically(&path, |mut f| {
        f.write_all(text.as_bytes())?;
        crate::durable::sync(&f)?;
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
    let text = read_small(&state_path(dir), 4096)?;
    let mut lines = text.lines();
    if lines.next()? != "huntsolve out-of-core 2" {
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
        std::fs::write(dir.join("state"), "huntsolve out-of-core 2\nslots x\n").unwrap();
        assert_eq!(read_state(&dir, &l), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
