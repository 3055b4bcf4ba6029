//! The files of an out-of-core tier ([`super`]): the layout of its parts,
//! the update files the parts exchange, and the small state file of the passes.
//!
//! Everything lives in one directory, `DIR/<tier>.ooc/`, and every file
//! carries the identity of the tier's run (a random number drawn when the
//! tier starts from nothing, [`RunId`]) and the pass that made it, so a
//! resume can check them against each other:
//! - `state`: the run, the layout, whether the scan is done, the next
//!   distance, the levels counted, the pass under way, and what every part
//!   and list must be: each part's boundary and whether its last pass found a
//!   slot as of the last state written, and the lists that must exist (text
//!   with a CRC-32 line; temporary file and rename). It is written before
//!   the scan, after it, and at the start and end of every pass;
//! - `part-<k>of<P>`: part `k`'s bytes, a compact checkpoint
//!   ([`super::checkpoint`]: zstd, CRC-checked, written by a temporary file and
//!   a rename) whose identity names the run and whose boundary says how far
//!   the part is (`from`: 0 scanned, `d + 1` once pass `d` is done; `levels`:
//!   1 when pass `d` found a slot);
//! - `upd-<dest>-<level>-<producer>`: the updates part `producer` made at pass
//!   `level` to slots of part `dest`: a header of [`UPDATE_HEADER`] bytes (a
//!   magic, the run, dest, level and producer), then 8 bytes a record
//!   (little-endian `u64`: the slot in bits 0-47; bit 63 set, a loss at
//!   `level` (the slot wins at `level + 1`); clear, a won child taking bits
//!   48-55 edges off the slot's counter); written to a temporary file and
//!   renamed when the producer's pass is done, removed once `dest` has
//!   applied them;
//! - `list-<level>-<producer>`: the run, level and producer, then the update
//!   files that pass wrote, each with its record count and CRC-32, written
//!   after them and before the producer's part (an empty list for a pass that
//!   wrote none): a file is applied only as its list names it, and a list is
//!   removed only at the end of a pass, once the state no longer names it.
//!
//! A resume ([`super`]) starts the tier over when anything is missing, older,
//! newer or of another run than the state says.
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
/// Bytes of an update file's header.
pub(super) const UPDATE_HEADER: usize = 32;
/// The first bytes of an update file.
const UPDATE_MAGIC: &[u8; 8] = b"hsooupd2";

/// The identity of one out-of-core run of a tier: drawn at random when the
/// tier starts from nothing, written in its state, parts, lists and update
/// files, so files of another run (or another solve of the same tier) are
/// never mixed with this one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RunId(pub u64);

impl RunId {
    /// A new run's identity (the standard library's random hash keys, the
    /// clock and the process).
    pub(super) fn fresh() -> RunId {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(t.as_nanos());
        }
        h.write_u32(std::process::id());
        RunId(h.finish())
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// The header of update file (dest, level, producer) of run `run`.
fn update_header(run: RunId, (d, l, p): UpdateFile) -> [u8; UPDATE_HEADER] {
    let mut h = [0u8; UPDATE_HEADER];
    h[..8].copy_from_slice(UPDATE_MAGIC);
    h[8..16].copy_from_slice(&run.0.to_le_bytes());
    // Dest and producer below 2^32: a layout has at most a few thousand parts.
    h[16..20].copy_from_slice(&(d as u32).to_le_bytes());
    h[20..24].copy_from_slice(&l.to_le_bytes());
    h[24..28].copy_from_slice(&(p as u32).to_le_bytes());
    h
}

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

const LIST_HEADER: &str = "huntsolve updates 2";

/// The second line of a list: its run, pass and producer.
fn list_identity(run: RunId, level: u32, producer: usize) -> String {
    format!("run {run} level {level} producer {producer}")
}

/// Writes the list of pass `level` of `producer` (temporary file and rename).
pub(super) fn write_list(
    dir: &Path,
    run: RunId,
    level: u32,
    producer: usize,
    files: &[Written],
) -> Result<()> {
    let mut text = format!("{LIST_HEADER}\n{}\n", list_identity(run, level, producer));
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

/// Reads a list: `None` when it is damaged, of another run, pass or
/// producer than its name and `run` say, or longer than `parts` entries.
pub(super) fn read_list(
    dir: &Path,
    run: RunId,
    level: u32,
    producer: usize,
    parts: usize,
) -> Option<Vec<Written>> {
    let text = read_small(&list_path(dir, level, producer), 128 + 48 * parts as u64)?;
    let mut lines = text.lines();
    if lines.next()? != LIST_HEADER || lines.next()? != list_identity(run, level, producer) {
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

/// Reads update file (dest, level, producer) of run `run` in batches of at
/// most [`APPLY_RECORDS`], calling `apply` on each. Refused before any record
/// is applied when its length is not the list's or its header names another
/// run, pass or part; its checksum (header and records) is compared with the
/// list's at the end (an error then: the caller writes nothing of what it
/// applied).
pub(super) fn read_updates(
    dir: &Path,
    run: RunId,
    u: UpdateFile,
    want: &Written,
    apply: &mut dyn FnMut(&[u64]) -> Result<()>,
) -> Result<u64> {
    let (d, l, p) = u;
    let path = update_path(dir, d, l, p);
    let io = |e| Error::io(format!("reading {}", path.display()), e);
    let mut file = std::fs::File::open(&path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let records_len = want.records.saturating_mul(8);
    if len != records_len.saturating_add(UPDATE_HEADER as u64) {
        return Err(Error::table(
            &path,
            crate::error::TableFault::Truncated,
            format!(
                "an update file of the out-of-core solver has {len} bytes, its list says {} records",
                want.records
            ),
        ));
    }
    let mut head = [0u8; UPDATE_HEADER];
    file.read_exact(&mut head).map_err(io)?;
    if head != update_header(run, u) {
        return Err(Error::table(
            &path,
            crate::error::TableFault::WrongTier,
            "an update file of the out-of-core solver is of another run, pass or part than its name says",
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
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

/// Whether update file `u` of run `run` is whole: its header, and the
/// length and checksum its list gives.
pub(super) fn update_is_whole(dir: &Path, run: RunId, u: UpdateFile, want: &Written) -> bool {
    read_updates(dir, run, u, want, &mut |_| Ok(())).is_ok()
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
    run: RunId,
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
    pub(super) fn new(
        dir: &Path,
        run: RunId,
        level: u32,
        producer: usize,
        parts: usize,
    ) -> Outboxes {
        Outboxes {
            dir: dir.to_path_buf(),
            run,
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
            let mut writer = BufWriter::with_capacity(WRITE_BUFFER, f);
            let head = update_header(self.run, (dest, self.level, self.producer));
            writer.write_all(&head).map_err(io)?;
            let mut crc = crc32fast::Hasher::new();
            crc.update(&head);
            *slot = Some(Outbox {
                writer,
                records: 0,
                crc,
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
        write_list(&self.dir, self.run, self.level, self.producer, &listed)?;
        Ok((done, bytes))
    }
}

/// The state of an out-of-core run: where its passes are and what its
/// parts and lists must be. Written before the scan, after it and at the
/// start and end of every pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct State {
    /// The run's identity.
    pub run: RunId,
    /// Whether every part is scanned.
    pub scanned: bool,
    /// The next distance to look for.
    pub from: u32,
    /// Levels that held a slot.
    pub levels: u32,
    /// The pass under way, if any.
    pub current: Option<u32>,
    /// Per part: its boundary's `from` when the state was written (a part
    /// written later in the pass under way is one past that pass).
    pub done: Vec<u32>,
    /// Per part: whether its last pass found a slot, as `done`.
    pub found: Vec<bool>,
    /// The lists that must exist, as (level, producer), besides those of
    /// the parts written in the pass under way.
    pub lists: BTreeSet<(u32, usize)>,
}

impl State {
    /// A new run of `parts` parts, nothing scanned.
    pub(super) fn fresh(parts: usize) -> State {
        State {
            run: RunId::fresh(),
            scanned: false,
            from: 0,
            levels: 0,
            current: None,
            done: vec![0; parts],
            found: vec![false; parts],
            lists: BTreeSet::new(),
        }
    }
}

/// Path of the state file.
fn state_path(dir: &Path) -> PathBuf {
    dir.join("state")
}

const STATE_HEADER: &str = "huntsolve out-of-core 3";

/// The state's text, without its CRC line.
fn state_text(layout: &Layout, st: &State) -> String {
    let join = |v: Vec<String>| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(" ")
        }
    };
    format!(
        "{STATE_HEADER}\nrun {}\nslots {}\nparts {}\nscanned {}\nfrom {}\nlevels {}\npass {}\n\
         done {}\nfound {}\nlists {}\n",
        st.run,
        layout.n,
        layout.parts,
        if st.scanned { "yes" } else { "no" },
        st.from,
        st.levels,
        st.current.map_or("-".to_string(), |d| d.to_string()),
        join(st.done.iter().map(u32::to_string).collect()),
        join(st.found.iter().map(|&f| u8::from(f).to_string()).collect()),
        join(st.lists.iter().map(|(l, p)| format!("{l}-{p}")).collect()),
    )
}

/// Writes the state (temporary file and rename).
pub(super) fn write_state(dir: &Path, layout: &Layout, st: &State) -> Result<()> {
    let path = state_path(dir);
    let mut text = state_text(layout, st);
    text.push_str(&format!("crc {:08x}\n", crc32fast::hash(text.as_bytes())));
    crate::retro::solver::checkpoint::write_atomically(&path, |mut f| {
        f.write_all(text.as_bytes())?;
        crate::durable::sync(&f)?;
        Ok(text.len() as u64)
    })?;
    Ok(())
}

/// What [`read_state`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum StateFile {
    /// No state file.
    Absent,
    /// A state of this layout.
    Read(State),
    /// A state that cannot be used, and why.
    Unusable(String),
}

/// Reads the state of a run of `layout`.
pub(super) fn read_state(dir: &Path, layout: &Layout) -> StateFile {
    let path = state_path(dir);
    if !path.exists() {
        return StateFile::Absent;
    }
    let max = 4096 + 64 * layout.parts as u64;
    let Some(text) = read_small(&path, max) else {
        return StateFile::Unusable("the state is unreadable".into());
    };
    match parse_state(&text, layout) {
        Ok(st) => StateFile::Read(st),
        Err(why) => StateFile::Unusable(why),
    }
}

fn parse_state(text: &str, layout: &Layout) -> std::result::Result<State, String> {
    let damaged = || "the state is damaged".to_string();
    let (body, crc_line) = text
        .trim_end_matches('\n')
        .rsplit_once('\n')
        .ok_or_else(damaged)?;
    let body = format!("{body}\n");
    let crc = crc_line
        .strip_prefix("crc ")
        .and_then(|c| u32::from_str_radix(c, 16).ok())
        .ok_or_else(damaged)?;
    if crc32fast::hash(body.as_bytes()) != crc {
        return Err(damaged());
    }
    let mut lines = body.lines();
    if lines.next() != Some(STATE_HEADER) {
        return Err("the state is of another format".into());
    }
    let mut field = |key: &str| -> std::result::Result<String, String> {
        lines
            .next()
            .and_then(|l| l.strip_prefix(key))
            .and_then(|l| l.strip_prefix(' '))
            .map(String::from)
            .ok_or_else(damaged)
    };
    let num = |t: &str| t.parse::<u64>().map_err(|_| damaged());
    let run = u64::from_str_radix(&field("run")?, 16).map_err(|_| damaged())?;
    let n = num(&field("slots")?)?;
    let parts = num(&field("parts")?)?;
    if n != layout.n as u64 || parts != layout.parts as u64 {
        return Err(format!(
            "the state is of another layout ({n} slots in {parts} parts, not {} in {})",
            layout.n, layout.parts
        ));
    }
    let scanned = match field("scanned")?.as_str() {
        "yes" => true,
        "no" => false,
        _ => return Err(damaged()),
    };
    let small = |t: &str| t.parse::<u32>().map_err(|_| damaged());
    let from = small(&field("from")?)?;
    let levels = small(&field("levels")?)?;
    let current = match field("pass")?.as_str() {
        "-" => None,
        d => Some(small(d)?),
    };
    let words = |t: String| -> Vec<String> {
        if t == "-" {
            Vec::new()
        } else {
            t.split(' ').map(String::from).collect()
        }
    };
    let done = words(field("done")?)
        .iter()
        .map(|w| small(w))
        .collect::<std::result::Result<Vec<u32>, String>>()?;
    let found = words(field("found")?)
        .iter()
        .map(|w| match w.as_str() {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(damaged()),
        })
        .collect::<std::result::Result<Vec<bool>, String>>()?;
    let mut lists = BTreeSet::new();
    for w in words(field("lists")?) {
        let (l, p) = w.split_once('-').ok_or_else(damaged)?;
        let p = usize::try_from(num(p)?).map_err(|_| damaged())?;
        if p >= layout.parts {
            return Err(damaged());
        }
        lists.insert((small(l)?, p));
    }
    if done.len() != layout.parts || found.len() != layout.parts || lines.next().is_some() {
        return Err(damaged());
    }
    Ok(State {
        run: RunId(run),
        scanned,
        from,
        levels,
        current,
        done,
        found,
        lists,
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
    fn the_state_round_trips_and_another_layout_or_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("huntsolve-ooc-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let l = Layout::new(5 * CHUNK, 3);
        assert_eq!(read_state(&dir, &l), StateFile::Absent);
        let mut later = State::fresh(3);
        later.scanned = true;
        later.from = 7;
        later.levels = 5;
        later.current = Some(9);
        later.done = vec![8, 10, 3];
        later.found = vec![true, false, true];
        later.lists = [(7, 0), (9, 1)].into_iter().collect();
        for st in [State::fresh(3), later] {
            write_state(&dir, &l, &st).unwrap();
            assert_eq!(read_state(&dir, &l), StateFile::Read(st));
            let other = read_state(&dir, &Layout::new(5 * CHUNK, 2));
            assert!(
                matches!(&other, StateFile::Unusable(w) if w.contains("another layout")),
                "{other:?}"
            );
        }
        // One digit changed: the CRC line no longer agrees.
        let text = std::fs::read_to_string(dir.join("state")).unwrap();
        std::fs::write(dir.join("state"), text.replace("from 7", "from 8")).unwrap();
        assert_eq!(
            read_state(&dir, &l),
            StateFile::Unusable("the state is damaged".into())
        );
        std::fs::write(dir.join("state"), "huntsolve out-of-core 2\nslots x\n").unwrap();
        assert!(matches!(read_state(&dir, &l), StateFile::Unusable(_)));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_list_or_update_file_of_another_run_or_pass_is_not_read() {
        let dir = std::env::temp_dir().join(format!("huntsolve-ooc-ids-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (run, other) = (RunId(1), RunId(2));
        let boxes = Outboxes::new(&dir, run, 4, 1, 3);
        boxes.put(2, &[5, 6, 7]).unwrap();
        let (made, _) = boxes.finish().unwrap();
        assert_eq!(made.len(), 1);
        let (u, w) = made[0];
        assert_eq!(read_list(&dir, run, 4, 1, 3), Some(vec![w]));
        assert_eq!(read_list(&dir, other, 4, 1, 3), None);
        let mut got = Vec::new();
        read_updates(&dir, run, u, &w, &mut |r| {
            got.extend_from_slice(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, [5, 6, 7]);
        assert!(!update_is_whole(&dir, other, u, &w));
        // The same bytes under another name (another pass) are refused.
        std::fs::copy(dir.join("upd-2-4-1"), dir.join("upd-2-5-1")).unwrap();
        assert!(!update_is_whole(&dir, run, (2, 5, 1), &w));
        // And the list under another pass's name.
        std::fs::copy(dir.join("list-4-1"), dir.join("list-5-1")).unwrap();
        assert_eq!(read_list(&dir, run, 5, 1, 3), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
