//! Checkpoints of one tier's solver state at a level boundary of propagation,
//! so that a killed solve of a long tier resumes from its last level instead
//! of its start (`solver::solve_tier_checkpointed`).
//!
//! A checkpoint holds everything the rest of the solve depends on: the words
//! of every slot (decided records, undecided counters, the scan's
//! not-yet-propagated marks, and those of slots propagation decided when its
//! lists were full: where these are is found again from the words on
//! resuming), the listed frontier (distance → slots), the
//! scan's per-segment distance sets, the next distance and the number of
//! levels done. Resuming from it gives the records of an uninterrupted solve:
//! the rest of propagation is a function of that state (frontiers are sorted
//! before use).
//!
//! It is written to `PATH.tmp<pid>` and renamed over `PATH` once synced, so a
//! reader sees a whole checkpoint or the previous one, never half of one. It is
//! streamed: the words go out segment by segment through a small buffer, with
//! no second copy of the state in memory.
//!
//! Byte layout (little-endian):
//!
//! ```text
//! offset  bytes  field
//! 0       8      magic "HSCKPT\x1a\n"
//! 8       4      format version (2; 1 had no marks of full lists)
//! 12      8      rules fingerprint
//! 20      4      n: length of the rules string, then n bytes of it (UTF-8)
//! ..      4      m: length of the tier name, then m bytes of it
//! ..      8      tier size in slots
//! ..      4      frontier entry width w (4 or 8 bytes)
//! ..      4      next distance to process
//! ..      4      levels processed
//! ..      4      the scan's largest distance + 1 (0: none)
//! ..      8      s: segments of the scan's distance sets, then s × 4 u64
//! ..      8      b: listed distances, then per distance: u32 distance,
//!                u64 k, k slots of w bytes
//! ..      4·size one solver word per slot
//! ..      4      CRC-32 (crc32fast) of every byte before it
//! ```
//!
//! Reading checks the magic, version, rules (fingerprint and string), tier,
//! size and width before it allocates anything, bounds every count by the
//! tier's size, and checks the CRC and the end of the file: a foreign,
//! truncated or damaged checkpoint is an [`Error::Table`], never a panic and
//! never wrong data.

use super::{CheckpointReport, Checkpointing, ScanLevels, Slot, Words};
use crate::error::{Error, Result, TableFault};
use crate::progress::Progress;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// First bytes of every checkpoint file.
pub(crate) const MAGIC: &[u8; 8] = b"HSCKPT\x1a\n";
/// Format version this build writes and reads.
/// Version 2: a decided word may carry the solver's `SPILL` mark, which a
/// build reading version 1 would not sweep.
pub(crate) const VERSION: u32 = 2;
/// Longest rules string or tier name a checkpoint may hold.
const MAX_TEXT: u32 = 1 << 16;
/// Words converted per write or read call.
const WORDS_PER_BUF: usize = 1 << 16;

/// What a checkpoint must belong to.
#[derive(Clone, Debug)]
pub(in crate::retro) struct Identity<'a> {
    pub rules: &'a str,
    pub fingerprint: u64,
    pub tier: &'a str,
    pub size: u64,
}

/// A checkpoint read back: the solver state at a level boundary.
pub(in crate::retro) struct State<S> {
    pub words: Words,
    pub scan: ScanLevels,
    pub buckets: BTreeMap<u32, Vec<S>>,
    pub from: u32,
    pub levels: u32,
}

/// A writer that counts and checksums what passes through.
pub(in crate::retro) struct Summing<W> {
    pub(in crate::retro) inner: W,
    pub(in crate::retro) crc: crc32fast::Hasher,
    pub(in crate::retro) bytes: u64,
}

impl<W: Write> Summing<W> {
    pub(in crate::retro) fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.crc.update(b);
        self.bytes += b.len() as u64;
        self.inner.write_all(b)
    }
}

/// A reader that checksums what passes through; errors name the file.
pub(in crate::retro) struct Checked<'p, R> {
    pub(in crate::retro) inner: R,
    pub(in crate::retro) crc: crc32fast::Hasher,
    pub(in crate::retro) path: &'p Path,
    /// Whether `inner` decompresses: its read errors (other than a short file)
    /// are then damage, not a failing disk.
    pub(in crate::retro) decoding: bool,
}

impl<R: Read> Checked<'_, R> {
    pub(in crate::retro) fn take(&mut self, buf: &mut [u8]) -> Result<()> {
        self.inner.read_exact(buf).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                Error::table(
                    self.path,
                    TableFault::Truncated,
                    "truncated checkpoint (shorter than its header says)",
                )
            } else if self.decoding {
                Error::table(
                    self.path,
                    TableFault::Corrupt,
                    format!("damaged checkpoint (cannot decompress: {e})"),
                )
            } else {
                Error::io(format!("reading {}", self.path.display()), e)
            }
        })?;
        self.crc.update(buf);
        Ok(())
    }

    /// Reads the stored crc32 of everything read so far and checks it, and
    /// that nothing follows it.
    pub(in crate::retro) fn end(&mut self) -> Result<()> {
        let want = self.crc.clone().finalize();
        let mut stored = [0u8; 4];
        self.inner.read_exact(&mut stored).map_err(|_| {
            Error::table(
                self.path,
                TableFault::Truncated,
                "truncated checkpoint (no checksum)",
            )
        })?;
        ensure(
            u32::from_le_bytes(stored) == want,
            self.path,
            TableFault::Checksum,
            || "checksum mismatch (the file is damaged)".into(),
        )?;
        let mut extra = [0u8; 1];
        ensure(
            matches!(self.inner.read(&mut extra), Ok(0)),
            self.path,
            TableFault::Corrupt,
            || "bytes after the checksum".into(),
        )
    }

    pub(in crate::retro) fn u32(&mut self) -> Result<u32> {
        let mut b = [0u8; 4];
        self.take(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub(in crate::retro) fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        self.take(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub(in crate::retro) fn text(&mut self, what: &str) -> Result<String> {
        let n = self.u32()?;
        ensure(n <= MAX_TEXT, self.path, TableFault::Corrupt, || {
            format!("{what} of {n} bytes")
        })?;
        let mut b = vec![0u8; n as usize];
        self.take(&mut b)?;
        String::from_utf8(b).map_err(|_| {
            Error::table(
                self.path,
                TableFault::Corrupt,
                format!("{what} is not UTF-8"),
            )
        })
    }

    fn slot<S: Slot>(&mut self, width: usize) -> Result<u64> {
        Ok(if width == 4 {
            u64::from(self.u32()?)
        } else {
            self.u64()?
        })
    }
}

/// One header invariant: an error of kind `fault` when it does not hold.
pub(in crate::retro) fn ensure(
    ok: bool,
    path: &Path,
    fault: TableFault,
    reason: impl FnOnce() -> String,
) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::table(
            path,
            fault,
            format!("checkpoint refused: {}", reason()),
        ))
    }
}

/// The temporary file a checkpoint of `path` is written to before the rename.
pub(in crate::retro) fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    path.with_file_name(name)
}

/// Writes a checkpoint of the solver state to `path` (temporary file, sync,
/// rename); returns its size in bytes.
pub(in crate::retro) fn write<S: Slot>(
    path: &Path,
    id: &Identity,
    words: &Words,
    scan: &ScanLevels,
    buckets: &BTreeMap<u32, Vec<S>>,
    from: u32,
    levels: u32,
) -> Result<u64> {
    write_atomically(path, |file| {
        let mut out = Summing {
            inner: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            bytes: 0,
        };
        out.put(MAGIC)?;
        out.put(&VERSION.to_le_bytes())?;
        out.put(&id.fingerprint.to_le_bytes())?;
        for text in [id.rules, id.tier] {
            out.put(&(text.len() as u32).to_le_bytes())?;
            out.put(text.as_bytes())?;
        }
        out.put(&id.size.to_le_bytes())?;
        let width = std::mem::size_of::<S>();
        out.put(&(width as u32).to_le_bytes())?;
        out.put(&from.to_le_bytes())?;
        out.put(&levels.to_le_bytes())?;
        out.put(&scan.max.map_or(0, |m| m + 1).to_le_bytes())?;
        out.put(&(scan.segs.len() as u64).to_le_bytes())?;
        for seg in &scan.segs {
            for x in seg {
                out.put(&x.to_le_bytes())?;
            }
        }
        out.put(&(buckets.len() as u64).to_le_bytes())?;
        let mut buf: Vec<u8> = Vec::with_capacity(WORDS_PER_BUF * 8);
        for (&d, slots) in buckets {
            out.put(&d.to_le_bytes())?;
            out.put(&(slots.len() as u64).to_le_bytes())?;
            for part in slots.chunks(WORDS_PER_BUF) {
                buf.clear();
                for s in part {
                    let i = s.get();
                    if width == 4 {
                        buf.extend_from_slice(&(i as u32).to_le_bytes());
                    } else {
                        buf.extend_from_slice(&i.to_le_bytes());
                    }
                }
                out.put(&buf)?;
            }
        }
        for seg in &words.segs {
            for part in seg.chunks(WORDS_PER_BUF) {
                buf.clear();
                for w in part {
                    buf.extend_from_slice(
                        &w.load(std::sync::atomic::Ordering::Relaxed).to_le_bytes(),
                    );
                }
                out.put(&buf)?;
            }
        }
        let crc = out.crc.clone().finalize();
        out.inner.write_all(&crc.to_le_bytes())?;
        out.bytes += 4;
        let file = out.inner.into_inner().map_err(|e| e.into_error())?;
        crate::durable::sync(&file)?;
        Ok(out.bytes)
    })
}

/// Writes a file by `fill` into a temporary file beside `path` (which `fill`
/// syncs), then renames it over `path`; on any error the temporary file is
/// removed. Returns what `fill` returns (the bytes written).
pub(in crate::retro) fn write_atomically(
    path: &Path,
    fill: impl FnOnce(File) -> std::io::Result<u64>,
) -> Result<u64> {
    let tmp = tmp_path(path);
    let io = |e| Error::io(format!("writing checkpoint {}", tmp.display()), e);
    let file = File::create(&tmp).map_err(io)?;
    let bytes = match fill(file) {
        Ok(b) => b,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
    };
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(
            format!("renaming {} to {}", tmp.display(), path.display()),
            e,
        )
    })?;
    Ok(bytes)
}

/// Reads a checkpoint's rules, tier and size, and refuses them unless they are
/// `id`'s: [`TableFault::WrongRules`] for other rules, [`TableFault::WrongTier`]
/// for another tier or size. Returns the tier name and size.
pub(in crate::retro) fn check_identity<R: Read>(
    r: &mut Checked<R>,
    id: &Identity,
) -> Result<(String, u64)> {
    let path = r.path;
    let fingerprint = r.u64()?;
    let rules = r.text("rules string")?;
    ensure(
        fingerprint == id.fingerprint && rules == id.rules,
        path,
        TableFault::WrongRules,
        || {
            format!(
                "it belongs to rules '{rules}', not '{}'; use another output directory",
                id.rules
            )
        },
    )?;
    let tier = r.text("tier name")?;
    let size = r.u64()?;
    ensure(
        tier == id.tier && size == id.size,
        path,
        TableFault::WrongTier,
        || {
            format!(
                "it is of tier {tier} with {size} slots, not {} with {}",
                id.tier, id.size
            )
        },
    )?;
    Ok((tier, size))
}

/// The state to resume a tier (`name`) from: what `read` (the full or the
/// compact solver's format) finds at `ckpt`'s path (`None` without
/// checkpointing or without a checkpoint). A checkpoint of other rules means a
/// mixed-up output directory: refused ([`TableFault::WrongRules`]). One that
/// is damaged, truncated, of another tier or format is ignored (and replaced
/// by the next one written): said on `progress`, and why in `report.ignored`.
pub(in crate::retro) fn resume_state<T>(
    ckpt: Option<&Checkpointing>,
    name: &str,
    report: &mut CheckpointReport,
    progress: &dyn Progress,
    read: impl FnOnce(&Path) -> Result<Option<T>>,
) -> Result<Option<T>> {
    let Some(c) = ckpt else {
        return Ok(None);
    };
    match read(&c.path) {
        Ok(state) => Ok(state),
        Err(
            e @ Error::Table {
                fault: TableFault::WrongRules,
                ..
            },
        ) => Err(e),
        Err(e @ Error::Table { .. }) => {
            progress.note(&format!("{name}: {e}; solving the tier from its start"));
            report.ignored = Some(e.to_string());
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Reads the checkpoint at `path`: `Ok(None)` when there is none, an
/// [`Error::Table`] when it is not a whole checkpoint of `id` (the fault says
/// why: [`TableFault::WrongRules`] for other rules, [`TableFault::WrongTier`]
/// for another tier or size, `Truncated`, `Checksum`, `Corrupt` or
/// `Unsupported` otherwise).
pub(in crate::retro) fn read<S: Slot>(path: &Path, id: &Identity) -> Result<Option<State<S>>> {
    let file = match crate::regular::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("opening {}", path.display()), e)),
    };
    let mut r = Checked {
        inner: BufReader::with_capacity(1 << 20, file),
        crc: crc32fast::Hasher::new(),
        path,
        decoding: false,
    };
    let mut magic = [0u8; 8];
    r.take(&mut magic)?;
    ensure(&magic == MAGIC, path, TableFault::Corrupt, || {
        "not a huntsolve checkpoint (bad magic)".into()
    })?;
    let version = r.u32()?;
    ensure(version == VERSION, path, TableFault::Unsupported, || {
        format!("format version {version}, this build reads {VERSION}")
    })?;
    let (tier, size) = check_identity(&mut r, id)?;
    let width = r.u32()? as usize;
    ensure(
        width == std::mem::size_of::<S>(),
        path,
        TableFault::Corrupt,
        || format!("frontier entries of {width} bytes for a tier of {size} slots"),
    )?;
    let from = r.u32()?;
    let levels = r.u32()?;
    let max = r.u32()?;
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {tier} has {size} slots, more than this machine can address"
        ))
    })?;
    let words_segs = Words::segments_for(n);
    let nsegs = r.u64()?;
    ensure(
        nsegs <= words_segs as u64,
        path,
        TableFault::Corrupt,
        || format!("{nsegs} scan segments for {words_segs} segments of words"),
    )?;
    let mut scan = ScanLevels {
        segs: Vec::with_capacity(nsegs as usize),
        max: max.checked_sub(1),
    };
    for _ in 0..nsegs {
        let mut seg = [0u64; 4];
        for x in &mut seg {
            *x = r.u64()?;
        }
        scan.segs.push(seg);
    }
    let nb = r.u64()?;
    ensure(nb <= size, path, TableFault::Corrupt, || {
        format!("{nb} listed distances in a tier of {size} slots")
    })?;
    let mut buckets: BTreeMap<u32, Vec<S>> = BTreeMap::new();
    let mut listed = 0u64;
    for _ in 0..nb {
        let d = r.u32()?;
        let k = r.u64()?;
        listed = listed.saturating_add(k);
        // A slot is listed once, when it is decided.
        ensure(listed <= size, path, TableFault::Corrupt, || {
            format!("more listed slots than the tier's {size}")
        })?;
        let mut v: Vec<S> = Vec::new();
        v.try_reserve_exact(k as usize).map_err(|_| {
            Error::Memory(format!(
                "tier {tier}: cannot allocate the checkpoint's frontier"
            ))
        })?;
        for _ in 0..k {
            let i = r.slot::<S>(width)?;
            ensure(i < size, path, TableFault::Corrupt, || {
                format!("frontier slot {i} past the tier's {size}")
            })?;
            v.push(S::of(i));
        }
        ensure(
            buckets.insert(d, v).is_none(),
            path,
            TableFault::Corrupt,
            || format!("distance {d} listed twice"),
        )?;
    }
    let words = Words::new(n, &tier)?;
    let mut buf = vec![0u8; WORDS_PER_BUF * 4];
    for seg in &words.segs {
        for part in seg.chunks(WORDS_PER_BUF) {
            let b = &mut buf[..part.len() * 4];
            r.take(b)?;
            for (w, x) in part.iter().zip(b.chunks_exact(4)) {
                let x = u32::from_le_bytes([x[0], x[1], x[2], x[3]]);
                w.store(x, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }
    r.end()?;
    Ok(Some(State {
        words,
        scan,
        buckets,
        from,
        levels,
    }))
}
