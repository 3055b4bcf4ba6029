//! Checkpoints of the compact solver ([`super`]) at a level boundary,
//! so that a killed compact tier (hours at 9 cows and above) resumes from its
//! last level instead of its scan.
//!
//! Between two passes of its scan (each a 64th of the tier, at most 2^26
//! slots) and between two levels, the compact solver's whole state is its
//! bytes (one a slot), the chunks' distance sets, how many slots are scanned,
//! the next distance and the number of levels done: the rest of the solve is
//! a function of them, so a resumed solve gives the records of an
//! uninterrupted one. The scan is checkpointed too, as it is nearly all of a
//! draw-heavy tier's time (299 of 300 s on the 37-point board's 8-cow tier).
//!
//! The bytes of a seed endgame are almost all one value (draws), so the body
//! is one zstd stream (level 1, with zstd's own content checksum): the 8.9 G
//! bytes of cows-leopards-mogol's 8-cow tier would be 8.9 GB raw. It is
//! streamed through a small buffer (no second copy of the state), written to
//! `PATH.tmp<pid>`, synced and renamed over `PATH`
//! (`checkpoint::write_atomically`).
//!
//! Byte layout (little-endian):
//!
//! ```text
//! offset  bytes  field
//! 0       8      magic "HSCKPC\x1a\n"
//! 8       4      format version (2)
//! 12      ..     one zstd stream of:
//!         8      rules fingerprint
//!         4+n    rules string (length, UTF-8)
//!         4+m    tier name
//!         8      tier size in slots
//!         8      slots scanned (the size once the scan is done)
//!         4      next distance to process (0 while scanning)
//!         4      levels processed (0 while scanning)
//!         1      kind: 0 plain, 1 counted (`CompactKind`)
//!         8      c: chunks (must be the tier's), then c × SET_WORDS u64 distance sets
//!         size   one byte a slot
//!         size   counted only: one counter byte a slot
//!         4      CRC-32 (crc32fast) of every byte of the stream before it
//! ```
//!
//! Reading checks the magic, version, rules, tier and size before it
//! allocates anything, every byte's value, the CRC and the end of the stream:
//! a foreign, truncated or damaged checkpoint is an [`Error::Table`], never a
//! panic and never wrong data.

use super::{Boundary, Bytes, CompactKind, MAX_BYTE, SET_WORDS};
use crate::error::{Error, Result, TableFault};
use crate::retro::solver::checkpoint::{
    check_identity, ensure, write_atomically, Checked, Identity, Summing,
};
use std::io::{BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::atomic::Ordering;

/// First bytes of every compact checkpoint.
pub(crate) const COMPACT_MAGIC: &[u8; 8] = b"HSCKPC\x1a\n";
/// Format version this build writes and reads.
pub(crate) const COMPACT_VERSION: u32 = 2;
/// Bytes converted per write or read call.
const BUF: usize = 1 << 20;

/// A compact checkpoint read back.
pub(super) struct CompactState {
    pub bytes: Bytes,
    pub at: Boundary,
}

/// Writes a checkpoint of the compact state to `path`; returns its size on disk.
pub(super) fn write(path: &Path, id: &Identity, bytes: &Bytes, at: Boundary) -> Result<u64> {
    write_atomically(path, |file| {
        let mut raw = BufWriter::with_capacity(BUF, file);
        raw.write_all(COMPACT_MAGIC)?;
        raw.write_all(&COMPACT_VERSION.to_le_bytes())?;
        let mut enc = zstd::stream::write::Encoder::new(raw, 1)?;
        enc.include_checksum(true)?;
        let mut out = Summing {
            inner: enc,
            crc: crc32fast::Hasher::new(),
            bytes: 0,
        };
        out.put(&id.fingerprint.to_le_bytes())?;
        for text in [id.rules, id.tier] {
            out.put(&(text.len() as u32).to_le_bytes())?;
            out.put(text.as_bytes())?;
        }
        out.put(&id.size.to_le_bytes())?;
        out.put(&at.scanned.to_le_bytes())?;
        out.put(&at.from.to_le_bytes())?;
        out.put(&at.levels.to_le_bytes())?;
        out.put(&[u8::from(bytes.kind() == CompactKind::Counted)])?;
        out.put(&(bytes.sets.len() as u64).to_le_bytes())?;
        let mut buf: Vec<u8> = Vec::with_capacity(BUF);
        for part in bytes.sets.chunks(BUF / (8 * SET_WORDS)) {
            buf.clear();
            for set in part {
                for w in set {
                    buf.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
                }
            }
            out.put(&buf)?;
        }
        for seg in bytes.segs.iter().chain(bytes.counts.iter().flatten()) {
            for part in seg.chunks(BUF) {
                buf.clear();
                buf.extend(part.iter().map(|b| b.load(Ordering::Relaxed)));
                out.put(&buf)?;
            }
        }
        let crc = out.crc.clone().finalize();
        out.inner.write_all(&crc.to_le_bytes())?;
        let raw = out.inner.finish()?;
        let file = raw.into_inner().map_err(|e| e.into_error())?;
        crate::durable::sync(&file)?;
        Ok(file.metadata()?.len())
    })
}

/// Reads the compact checkpoint at `path`: `Ok(None)` when there is none, an
/// [`Error::Table`] when it is not a whole checkpoint of `id` (faults as in
/// [`crate::retro::solver::checkpoint::read`]). A counted checkpoint read for `want` plain
/// is read plain (its counters read and dropped, never allocated).
pub(super) fn read(path: &Path, id: &Identity, want: CompactKind) -> Result<Option<CompactState>> {
    let file = match crate::regular::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("opening {}", path.display()), e)),
    };
    let mut raw = Checked {
        inner: BufReader::with_capacity(BUF, file),
        crc: crc32fast::Hasher::new(),
        path,
        decoding: false,
    };
    let mut magic = [0u8; 8];
    raw.take(&mut magic)?;
    ensure(&magic == COMPACT_MAGIC, path, TableFault::Corrupt, || {
        "not a huntsolve compact checkpoint (bad magic)".into()
    })?;
    let version = raw.u32()?;
    ensure(
        version == COMPACT_VERSION,
        path,
        TableFault::Unsupported,
        || format!("format version {version}, this build reads {COMPACT_VERSION}"),
    )?;
    let dec = zstd::stream::read::Decoder::with_buffer(raw.inner).map_err(|e| {
        Error::table(
            path,
            TableFault::Corrupt,
            format!("damaged checkpoint (cannot decompress: {e})"),
        )
    })?;
    let mut r = Checked {
        inner: dec,
        crc: crc32fast::Hasher::new(),
        path,
        decoding: true,
    };
    let (tier, size) = check_identity(&mut r, id)?;
    let at = Boundary {
        scanned: r.u64()?,
        from: r.u32()?,
        levels: r.u32()?,
    };
    ensure(
        at.scanned == size || (at.scanned < size && at.from == 0 && at.levels == 0),
        path,
        TableFault::Corrupt,
        || {
            format!(
                "{} of {size} slots scanned at distance {}",
                at.scanned, at.from
            )
        },
    )?;
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {tier} has {size} slots, more than this machine can address"
        ))
    })?;
    let mut flag = [0u8; 1];
    r.take(&mut flag)?;
    ensure(flag[0] <= 1, path, TableFault::Corrupt, || {
        format!("compact kind {} (0 plain, 1 counted)", flag[0])
    })?;
    let stored = if flag[0] == 1 {
        CompactKind::Counted
    } else {
        CompactKind::Plain
    };
    let kind = if want == CompactKind::Plain {
        CompactKind::Plain
    } else {
        stored
    };
    let chunks = r.u64()?;
    ensure(
        chunks == Bytes::chunks_for(n) as u64,
        path,
        TableFault::Corrupt,
        || format!("{chunks} distance sets for a tier of {size} slots"),
    )?;
    let bytes = Bytes::new(n, &tier, kind)?;
    read_body(&mut r, &bytes, stored, path)?;
    r.end()?;
    Ok(Some(CompactState { bytes, at }))
}

/// Reads the distance sets, the state bytes and (when `stored` is counted)
/// the counter bytes into `bytes`, checking every state byte.
fn read_body<R: std::io::Read>(
    r: &mut Checked<R>,
    bytes: &Bytes,
    stored: CompactKind,
    path: &Path,
) -> Result<()> {
    let mut buf = vec![0u8; BUF];
    let per = BUF / (8 * SET_WORDS);
    for part in bytes.sets.chunks(per) {
        let b = &mut buf[..part.len() * 8 * SET_WORDS];
        r.take(b)?;
        for (set, x) in part.iter().zip(b.chunks_exact(8 * SET_WORDS)) {
            for (w, y) in set.iter().zip(x.chunks_exact(8)) {
                let mut v = [0u8; 8];
                v.copy_from_slice(y);
                w.store(u64::from_le_bytes(v), Ordering::Relaxed);
            }
        }
    }
    for seg in &bytes.segs {
        read_segment(r, seg, &mut buf, Some(path))?;
    }
    if stored == CompactKind::Counted {
        // Any byte is a counter; read into the counters, or past them.
        match &bytes.counts {
            Some(counts) => {
                for seg in counts {
                    read_segment(r, seg, &mut buf, None)?;
                }
            }
            None => {
                let mut left = bytes.segs.iter().map(Vec::len).sum::<usize>();
                while left > 0 {
                    let k = left.min(BUF);
                    r.take(&mut buf[..k])?;
                    left -= k;
                }
            }
        }
    }
    Ok(())
}

/// Reads one segment of bytes; with `states` (the file's path), each must be a
/// compact state.
fn read_segment<R: std::io::Read>(
    r: &mut Checked<R>,
    seg: &[std::sync::atomic::AtomicU8],
    buf: &mut [u8],
    states: Option<&Path>,
) -> Result<()> {
    for part in seg.chunks(BUF) {
        let b = &mut buf[..part.len()];
        r.take(b)?;
        if let Some(path) = states {
            ensure(
                b.iter().all(|&x| x <= MAX_BYTE),
                path,
                TableFault::Corrupt,
                || "a byte that is no compact state".into(),
            )?;
        }
        for (w, &x) in part.iter().zip(b.iter()) {
            w.store(x, Ordering::Relaxed);
        }
    }
    Ok(())
}
