//! Part files of an out-of-core tier: a part's bytes in frames of 2^16 slots
//! (the states and the counters apart; the distance sets in frames of 2^24
//! bytes), each compressed alone (zstd level 1) with the crc32 of its raw
//! bytes. A pass marks the frames it changes, and writing the part back
//! compresses only those: the others' compressed bytes are copied from the
//! file it replaces. Frames are compressed and decompressed in parallel.
//!
//! Byte layout (little-endian):
//!
//! ```text
//! 0   8   magic "HSOOCPT\x02"
//! 8   4   format version (1)
//! 12  4   h: bytes of the header and frame table that follow
//! 16  h   rules fingerprint (8), rules (4 + n), part name (4 + m), slots (8),
//!         next pass (4: 0 scanned, d + 1 after pass d), found (4), counted (1),
//!         frames (4), then per frame: array (1: 0 sets, 1 states, 2 counters),
//!         index (4), raw bytes (4), compressed bytes (4), raw crc32 (4), offset (8)
//! 16+h 4  crc32 of bytes 0 .. 16 + h
//! ..      the frames
//! ```
//!
//! Reading checks the header's crc, the identity, that every segment has
//! exactly one frame of the right size, and each frame's length and crc once
//! decompressed: a damaged part is an [`Error::Table`], never wrong data.

use super::super::{Boundary, Bytes, CompactKind, MAX_BYTE, SET_WORDS};
use crate::error::{Error, Result, TableFault};
use crate::retro::solver::checkpoint::{check_identity, ensure, Checked, Identity};
use rayon::prelude::*;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

const MAGIC: &[u8; 8] = b"HSOOCPT\x02";
const VERSION: u32 = 1;
/// Bytes of one frame's entry in the table.
const ENTRY: usize = 1 + 4 + 4 + 4 + 4 + 8;
/// Raw bytes of a frame of distance sets.
const SETS_FRAME: usize = 1 << 24;
/// Slots of a frame of states or counters (a segment holds whole frames).
const FRAME_BITS: u32 = 16;
const FRAME: usize = 1 << FRAME_BITS;
/// Frames compressed or decompressed at once (bounds the buffers).
const BATCH: usize = 256;

const SETS: u8 = 0;
const STATES: u8 = 1;
const COUNTERS: u8 = 2;

/// One frame of a part file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Frame {
    array: u8,
    index: u32,
    raw: u32,
    packed: u32,
    crc: u32,
    offset: u64,
}

/// A part read back: its bytes, its boundary and its file's frames.
pub(super) struct Part {
    pub bytes: Bytes,
    pub at: Boundary,
    pub frames: Vec<Frame>,
}

/// Which frames of a part a pass changed.
pub(super) struct Dirty(Vec<AtomicBool>);

impl Dirty {
    pub(super) fn new(bytes: &Bytes) -> Dirty {
        Dirty(
            (0..frames_of(bytes.len))
                .map(|_| AtomicBool::new(false))
                .collect(),
        )
    }

    /// Notes that slot `i` (its state or counter) changed.
    #[inline]
    pub(super) fn mark(&self, i: usize) {
        let d = &self.0[i >> FRAME_BITS];
        if !d.load(Ordering::Relaxed) {
            d.store(true, Ordering::Relaxed);
        }
    }

    fn is(&self, seg: usize) -> bool {
        self.0.get(seg).is_none_or(|d| d.load(Ordering::Relaxed))
    }
}

/// Frames of states (or of counters) of a part of `n` slots.
fn frames_of(n: usize) -> usize {
    n.div_ceil(FRAME)
}

/// The slots of frame `f` of `seg`-segmented bytes: its segment and range in it.
fn frame_span(n: usize, f: usize) -> (usize, std::ops::Range<usize>) {
    let start = f * FRAME;
    let len = FRAME.min(n - start);
    let mask = (1usize << super::super::SEG_BITS) - 1;
    (
        start >> super::super::SEG_BITS,
        start & mask..(start & mask) + len,
    )
}

fn corrupt(path: &Path, why: impl FnOnce() -> String) -> Error {
    Error::table(
        path,
        TableFault::Corrupt,
        format!("out-of-core part refused: {}", why()),
    )
}

/// The raw bytes of frame (`array`, `index`) of `bytes`.
fn raw(bytes: &Bytes, sets: &[u8], array: u8, index: usize) -> Vec<u8> {
    let (seg, span) = frame_span(bytes.len, index);
    let load = |segs: &[Vec<std::sync::atomic::AtomicU8>]| -> Vec<u8> {
        segs[seg][span.clone()]
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect()
    };
    match array {
        SETS => sets[index * SETS_FRAME..((index + 1) * SETS_FRAME).min(sets.len())].to_vec(),
        STATES => load(&bytes.segs),
        _ => bytes.counts.as_ref().map_or_else(Vec::new, |c| load(c)),
    }
}

/// Writes `bytes` at boundary `at` to `path` (temporary file, sync, rename).
/// With `old` (the frames of the file at `path`) and `dirty`, a segment the
/// pass left alone keeps its compressed bytes. Returns the bytes written.
pub(super) fn write(
    path: &Path,
    id: &Identity,
    bytes: &Bytes,
    at: Boundary,
    keep: Option<(&Dirty, &[Frame])>,
) -> Result<u64> {
    let sets: Vec<u8> = bytes
        .sets
        .iter()
        .flat_map(|s| {
            s.iter()
                .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
        })
        .collect();
    let mut plan: Vec<(u8, usize)> = (0..sets.len().div_ceil(SETS_FRAME).max(1))
        .map(|i| (SETS, i))
        .collect();
    let frames = frames_of(bytes.len);
    plan.extend((0..frames).map(|i| (STATES, i)));
    if bytes.counts.is_some() {
        plan.extend((0..frames).map(|i| (COUNTERS, i)));
    }
    let old = match keep {
        Some(_) => Some(
            File::open(path).map_err(|e| Error::io(format!("reading {}", path.display()), e))?,
        ),
        None => None,
    };
    let reuse = |array: u8, index: usize| -> Option<Frame> {
        let (dirty, frames) = keep?;
        if array == SETS || dirty.is(index) {
            return None;
        }
        frames
            .iter()
            .find(|f| f.array == array && f.index as usize == index)
            .copied()
    };
    let mut head = Vec::new();
    head.extend_from_slice(&id.fingerprint.to_le_bytes());
    for text in [id.rules, id.tier] {
        head.extend_from_slice(&(text.len() as u32).to_le_bytes());
        head.extend_from_slice(text.as_bytes());
    }
    head.extend_from_slice(&id.size.to_le_bytes());
    head.extend_from_slice(&at.from.to_le_bytes());
    head.extend_from_slice(&at.levels.to_le_bytes());
    head.push(u8::from(bytes.counts.is_some()));
    head.extend_from_slice(&(plan.len() as u32).to_le_bytes());
    let table_at = head.len();
    head.resize(table_at + plan.len() * ENTRY, 0);
    let data_start = 16 + head.len() as u64 + 4;
    crate::retro::solver::checkpoint::write_atomically(path, |mut file| {
        file.seek(SeekFrom::Start(data_start))?;
        let mut offset = data_start;
        let mut frames = Vec::with_capacity(plan.len());
        for batch in plan.chunks(BATCH) {
            let packed: Vec<std::io::Result<(Vec<u8>, Frame)>> = batch
                .par_iter()
                .map(|&(array, index)| {
                    if let (Some(f), Some(file)) = (reuse(array, index), old.as_ref()) {
                        let mut buf = vec![0u8; f.packed as usize];
                        file.read_exact_at(&mut buf, f.offset)?;
                        return Ok((buf, f));
                    }
                    let r = raw(bytes, &sets, array, index);
                    let crc = crc32fast::hash(&r);
                    let z = crate::table::zstd_ctx::compress(&r, 1)?;
                    let f = Frame {
                        array,
                        index: index as u32,
                        raw: r.len() as u32,
                        packed: z.len() as u32,
                        crc,
                        offset: 0,
                    };
                    Ok((z, f))
                })
                .collect();
            for p in packed {
                let (z, mut f) = p?;
                f.offset = offset;
                file.write_all(&z)?;
                offset += z.len() as u64;
                frames.push(f);
            }
        }
        let mut head = head;
        for (k, f) in frames.iter().enumerate() {
            let e = &mut head[table_at + k * ENTRY..table_at + (k + 1) * ENTRY];
            e[0] = f.array;
            e[1..5].copy_from_slice(&f.index.to_le_bytes());
            e[5..9].copy_from_slice(&f.raw.to_le_bytes());
            e[9..13].copy_from_slice(&f.packed.to_le_bytes());
            e[13..17].copy_from_slice(&f.crc.to_le_bytes());
            e[17..25].copy_from_slice(&f.offset.to_le_bytes());
        }
        let mut top = Vec::with_capacity(16 + head.len() + 4);
        top.extend_from_slice(MAGIC);
        top.extend_from_slice(&VERSION.to_le_bytes());
        top.extend_from_slice(&(head.len() as u32).to_le_bytes());
        top.extend_from_slice(&head);
        top.extend_from_slice(&crc32fast::hash(&top).to_le_bytes());
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&top)?;
        crate::durable::sync(&file)?;
        Ok(offset)
    })
}

/// A part file's header and frame table, read and checked.
struct Head {
    file: File,
    tier: String,
    n: usize,
    at: Boundary,
    want: CompactKind,
    frames: Vec<Frame>,
}

/// Reads and checks the header and frame table of the part at `path`
/// (`None` when there is none); `want` is `kind` when the part has counters.
fn read_head(path: &Path, id: &Identity, kind: CompactKind) -> Result<Option<Head>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("opening {}", path.display()), e)),
    };
    let io = |e| Error::io(format!("reading {}", path.display()), e);
    let len = file.metadata().map_err(io)?.len();
    let mut top = [0u8; 16];
    file.read_exact(&mut top)
        .map_err(|_| corrupt(path, || "shorter than its header".into()))?;
    ensure(&top[..8] == MAGIC, path, TableFault::Corrupt, || {
        "not an out-of-core part (bad magic)".into()
    })?;
    let version = u32::from_le_bytes([top[8], top[9], top[10], top[11]]);
    ensure(version == VERSION, path, TableFault::Unsupported, || {
        format!("part format version {version}, this build reads {VERSION}")
    })?;
    let h = u32::from_le_bytes([top[12], top[13], top[14], top[15]]) as u64;
    ensure(h + 20 <= len, path, TableFault::Truncated, || {
        format!("a header of {h} bytes in a file of {len}")
    })?;
    let mut head = vec![0u8; h as usize + 4];
    file.read_exact(&mut head).map_err(io)?;
    let (body, stored) = head.split_at(h as usize);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&top);
    crc.update(body);
    ensure(
        crc.finalize().to_le_bytes() == stored,
        path,
        TableFault::Checksum,
        || "header checksum mismatch (the file is damaged)".into(),
    )?;
    // The header is read as a checkpoint's (the same identity, the same faults).
    let mut c = Checked {
        inner: body,
        crc: crc32fast::Hasher::new(),
        path,
        decoding: false,
    };
    let (tier, size) = check_identity(&mut c, id)?;
    let at = Boundary {
        scanned: size,
        from: c.u32()?,
        levels: c.u32()?,
    };
    let mut flag = [0u8; 1];
    c.take(&mut flag)?;
    let counted = flag[0] == 1;
    let n = usize::try_from(size).map_err(|_| corrupt(path, || "too many slots".into()))?;
    let want = if counted && kind == CompactKind::Counted {
        CompactKind::Counted
    } else {
        CompactKind::Plain
    };
    let count = c.u32()? as usize;
    let mut table = Vec::with_capacity(count.min(1 << 20));
    for _ in 0..count {
        let mut e = [0u8; ENTRY];
        c.take(&mut e)?;
        let u = |a: usize| u32::from_le_bytes([e[a], e[a + 1], e[a + 2], e[a + 3]]);
        let mut off = [0u8; 8];
        off.copy_from_slice(&e[17..25]);
        table.push(Frame {
            array: e[0],
            index: u(1),
            raw: u(5),
            packed: u(9),
            crc: u(13),
            offset: u64::from_le_bytes(off),
        });
    }
    let frames = table;
    let set_bytes = Bytes::chunks_for(n) * SET_WORDS * 8;
    let nf = frames_of(n);
    let slots_in = |i: usize| (i < nf).then(|| FRAME.min(n - i * FRAME));
    // Every frame where it belongs, once; every segment covered.
    let mut seen = std::collections::HashSet::new();
    for f in &frames {
        let i = f.index as usize;
        let size_ok = match f.array {
            SETS => f.raw as usize == SETS_FRAME.min(set_bytes.saturating_sub(i * SETS_FRAME)),
            STATES => slots_in(i) == Some(f.raw as usize),
            COUNTERS => counted && slots_in(i) == Some(f.raw as usize),
            _ => false,
        };
        let inside = f
            .offset
            .checked_add(u64::from(f.packed))
            .is_some_and(|e| e <= len);
        ensure(
            size_ok && inside && seen.insert((f.array, i)),
            path,
            TableFault::Corrupt,
            || {
                format!(
                    "frame {} of array {} does not fit the part",
                    f.index, f.array
                )
            },
        )?;
    }
    let want_frames = set_bytes.div_ceil(SETS_FRAME).max(1) + nf * (1 + usize::from(counted));
    ensure(
        frames.len() == want_frames,
        path,
        TableFault::Corrupt,
        || format!("{} frames for {want_frames} segments", frames.len()),
    )?;
    Ok(Some(Head {
        file,
        tier,
        n,
        at,
        want,
        frames,
    }))
}

/// Frame `f` of the part at `path`, read, decompressed and checked.
fn frame_bytes(file: &File, f: &Frame, path: &Path) -> Result<Vec<u8>> {
    let mut z = vec![0u8; f.packed as usize];
    file.read_exact_at(&mut z, f.offset)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let r = crate::table::zstd_ctx::decompress(&z, f.raw as usize)
        .map_err(|e| corrupt(path, || format!("a frame does not decompress: {e}")))?;
    ensure(
        r.len() == f.raw as usize && crc32fast::hash(&r) == f.crc,
        path,
        TableFault::Checksum,
        || format!("frame {} of array {} is damaged", f.index, f.array),
    )?;
    if f.array == STATES {
        ensure(
            // The largest byte, not `all`: a reduction the compiler vectorizes.
            r.iter().copied().max().unwrap_or(0) <= MAX_BYTE,
            path,
            TableFault::Corrupt,
            || "a byte that is no compact state".into(),
        )?;
    }
    Ok(r)
}

/// Reads the part at `path` (`None` when there is none): every frame of
/// `kind` (a plain read leaves the counters out), checked. `spare`, the bytes
/// of a part read before, is filled instead of new bytes when its size and
/// kind fit: every byte of it is overwritten, and the kernel need not zero
/// fresh pages for every part of every pass.
pub(super) fn read(
    path: &Path,
    id: &Identity,
    kind: CompactKind,
    spare: Option<Bytes>,
) -> Result<Option<Part>> {
    let Some(Head {
        file,
        tier,
        n,
        at,
        want,
        frames,
    }) = read_head(path, id, kind)?
    else {
        return Ok(None);
    };
    let mut bytes = match spare {
        Some(b) if b.len == n && b.kind() == want => b,
        other => {
            // Freed first: never two parts' bytes at once.
            drop(other);
            Bytes::new(n, &tier, want)?
        }
    };
    let set_bytes = bytes.sets.len() * SET_WORDS * 8;
    let mut sets = vec![0u8; set_bytes];
    let wanted: Vec<&Frame> = frames
        .iter()
        .filter(|f| f.array != COUNTERS || want == CompactKind::Counted)
        .collect();
    for batch in wanted.chunks(BATCH) {
        let raws: Vec<Result<Vec<u8>>> = batch
            .par_iter()
            .map(|f| frame_bytes(&file, f, path))
            .collect();
        for (f, r) in batch.iter().zip(raws) {
            let r = r?;
            let i = f.index as usize;
            let (seg, span) = frame_span(n, i);
            let dest = match f.array {
                SETS => {
                    sets[i * SETS_FRAME..i * SETS_FRAME + r.len()].copy_from_slice(&r);
                    continue;
                }
                STATES => &mut bytes.segs[seg][span],
                _ => match &mut bytes.counts {
                    Some(c) => &mut c[seg][span],
                    None => continue,
                },
            };
            // The bytes are this function's own: plain stores, which the
            // compiler turns into a copy (atomic stores stay byte by byte).
            for (d, &x) in dest.iter_mut().zip(r.iter()) {
                *d.get_mut() = x;
            }
        }
    }
    for (s, w) in bytes.sets.iter_mut().zip(sets.chunks_exact(SET_WORDS * 8)) {
        for (a, b) in s.iter_mut().zip(w.chunks_exact(8)) {
            let mut x = [0u8; 8];
            x.copy_from_slice(b);
            *a.get_mut() = u64::from_le_bytes(x);
        }
    }
    Ok(Some(Part { bytes, at, frames }))
}

/// The states of a part on disk, read frame by frame (the table of an
/// out-of-core tier is written from them without a part in memory).
pub(super) struct States {
    file: File,
    path: std::path::PathBuf,
    n: usize,
    /// The frames of states, by index.
    frames: Vec<Frame>,
}

/// The states of the part at `path` (`None` when there is none), its header
/// and frame table checked; each frame is checked when read.
pub(super) fn states(path: &Path, id: &Identity) -> Result<Option<States>> {
    let Some(head) = read_head(path, id, CompactKind::Plain)? else {
        return Ok(None);
    };
    let mut frames: Vec<Frame> = head
        .frames
        .into_iter()
        .filter(|f| f.array == STATES)
        .collect();
    frames.sort_by_key(|f| f.index);
    Ok(Some(States {
        file: head.file,
        path: path.to_path_buf(),
        n: head.n,
        frames,
    }))
}

impl States {
    /// The state bytes of the part's slots `range`.
    pub(super) fn get(&self, range: std::ops::Range<usize>) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(range.len());
        let end = range.end.min(self.n);
        let mut i = range.start;
        while i < end {
            let f = i >> FRAME_BITS;
            let frame = self.frames.get(f).ok_or_else(|| {
                corrupt(&self.path, || format!("no frame of states for slot {i}"))
            })?;
            let raw = frame_bytes(&self.file, frame, &self.path)?;
            let first = f * FRAME;
            let to = end.min(first + raw.len());
            out.extend_from_slice(&raw[i - first..to - first]);
            i = to;
        }
        Ok(out)
    }
}
