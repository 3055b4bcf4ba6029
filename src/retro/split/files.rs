//! Part files (write, validate, read) and their join into the usual table (the
//! memory a part needs is estimated with the rest of the plan, in `driver::plan`).

use super::{u32_at, u64_at, PartResult, Partition};
use crate::error::{Error, Result};
use crate::retro::driver::{tier_meta, TierSummary};
use crate::retro::scope::Solvable;
use crate::retro::solver::TierStats;
use crate::tier::{Outcomes, REC_NONE};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Path of part `k` of `n` of tier `name`'s records: `DIR/<name>.p<k>of<n>`.
pub(crate) fn part_path(out_dir: &Path, name: &str, k: usize, n: usize) -> PathBuf {
    out_dir.join(format!("{name}.p{k}of{n}"))
}

/// Magic of a part file.
const PART_MAGIC: &[u8; 8] = b"HSPART01";
/// Bytes of a part file's header: magic, rules fingerprint, tier size, range
/// start and end, levels, CRC-32 of the records.
const PART_HEADER: usize = 8 + 8 + 8 + 8 + 8 + 4 + 4;

/// Writes part `k`'s records (temporary file, then rename), streamed: no copy
/// of the records is made.
pub(super) fn write_part(path: &Path, fingerprint: u64, size: u64, p: &PartResult) -> Result<()> {
    write_part_from(path, fingerprint, size, &p.range, p.stats.levels, &|r| {
        p.records[r].to_vec()
    })
}

/// Writes the records of part `range` that `records` gives by local range
/// (temporary file, then rename), block by block: once for the CRC of the
/// header, once for the file.
pub(super) fn write_part_from(
    path: &Path,
    fingerprint: u64,
    size: u64,
    range: &Range<u64>,
    levels: u32,
    records: &(dyn Fn(Range<usize>) -> Vec<u16> + Sync),
) -> Result<()> {
    use std::io::Write;
    const BLOCK: usize = 1 << 16;
    let n = (range.end - range.start) as usize;
    let block = |i: usize| -> Vec<u8> {
        records(i..(i + BLOCK).min(n))
            .iter()
            .flat_map(|r| r.to_le_bytes())
            .collect()
    };
    let mut crc = crc32fast::Hasher::new();
    for i in (0..n).step_by(BLOCK) {
        crc.update(&block(i));
    }
    let tmp = path.with_file_name(format!(
        "{}.hst.tmp{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("part"),
        std::process::id()
    ));
    let io = |e| Error::io(format!("writing {}", tmp.display()), e);
    let written = (|| -> Result<()> {
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut w = std::io::BufWriter::new(file);
        let mut header = Vec::with_capacity(PART_HEADER);
        header.extend_from_slice(PART_MAGIC);
        header.extend_from_slice(&fingerprint.to_le_bytes());
        header.extend_from_slice(&size.to_le_bytes());
        header.extend_from_slice(&range.start.to_le_bytes());
        header.extend_from_slice(&range.end.to_le_bytes());
        header.extend_from_slice(&levels.to_le_bytes());
        header.extend_from_slice(&crc.finalize().to_le_bytes());
        w.write_all(&header).map_err(io)?;
        for i in (0..n).step_by(BLOCK) {
            w.write_all(&block(i)).map_err(io)?;
        }
        let file = w.into_inner().map_err(|e| io(e.into_error()))?;
        crate::durable::sync(&file).map_err(io)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| Error::io(format!("renaming {}", tmp.display()), e))
}

/// The levels stored in the part file at `path` when it is whole and belongs
/// to these rules, tier size and range; `None` otherwise (absent, damaged, stale).
pub(super) fn valid_part(
    path: &Path,
    fingerprint: u64,
    size: u64,
    range: &Range<u64>,
) -> Option<u32> {
    let bytes = crate::regular::read(path).ok()?;
    if bytes.len() != PART_HEADER + 2 * (range.end - range.start) as usize
        || &bytes[..8] != PART_MAGIC
        || u64_at(&bytes, 8) != fingerprint
        || u64_at(&bytes, 16) != size
        || u64_at(&bytes, 24) != range.start
        || u64_at(&bytes, 32) != range.end
    {
        return None;
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[PART_HEADER..]);
    (crc.finalize() == u32_at(&bytes, 44)).then(|| u32_at(&bytes, 40))
}

/// Every record of the part file at `path` (its header skipped; the join
/// checks the files, this is for `bench --retro --split`, which compares
/// the records with every other run's).
pub(super) fn part_records(path: &Path) -> Result<Vec<u16>> {
    let bytes = crate::regular::read(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let body = bytes.get(PART_HEADER..).unwrap_or_default();
    Ok(body
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// Records `range` of the tier, read from its part files (positioned reads).
fn read_parts(
    files: &[(Range<u64>, std::fs::File)],
    range: Range<usize>,
) -> std::io::Result<Vec<u16>> {
    use std::os::unix::fs::FileExt;
    let mut out = Vec::with_capacity(range.len());
    let (from, to) = (range.start as u64, range.end as u64);
    for (r, f) in files {
        let (a, b) = (from.max(r.start), to.min(r.end));
        if a >= b {
            continue;
        }
        let mut buf = vec![0u8; 2 * (b - a) as usize];
        f.read_exact_at(&mut buf, PART_HEADER as u64 + 2 * (a - r.start))?;
        out.extend(
            buf.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
    }
    Ok(out)
}

/// Joins the part files of `tier` into its table (part 0's job); the table's
/// statistics are computed from the records as they are read.
pub(super) fn join_parts<G: Solvable>(
    game: &G,
    tier: G::Tier,
    out_dir: &Path,
    parts: usize,
    levels: u32,
    seconds: f64,
) -> Result<TierSummary> {
    let name = game.tier_name(tier);
    let size = game.tier_size(tier);
    let part = Partition::wide(size, parts)?;
    let mut files = Vec::with_capacity(parts);
    for k in 0..parts {
        let path = part_path(out_dir, &name, k, parts);
        let f = crate::regular::open(&path)
            .map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
        files.push((part.range(k), f));
    }
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {name} has more slots than this machine indexes"
        ))
    })?;
    // Statistics need the records once; read them block by block.
    let mut outcomes = Outcomes::default();
    let step = 1usize << 22;
    let mut at = 0usize;
    while at < n {
        let to = (at + step).min(n);
        let recs = read_parts(&files, at..to)
            .map_err(|e| Error::io(format!("reading the parts of tier {name}"), e))?;
        outcomes.merge(&Outcomes::of_records(&recs));
        at = to;
    }
    let stats = TierStats { outcomes, levels };
    let placements = game.tier_placements(tier);
    let meta = tier_meta(game, &name, n, &stats, placements, seconds)?;
    let failure: Mutex<Option<std::io::Error>> = Mutex::new(None);
    let path = crate::table::table_path(out_dir, &name);
    crate::table::write_table_from(&path, &meta, n, &|r| {
        let len = r.len();
        read_parts(&files, r).unwrap_or_else(|e| {
            if let Ok(mut f) = failure.lock() {
                f.get_or_insert(e);
            }
            vec![REC_NONE; len]
        })
    })?;
    if let Some(e) = failure.into_inner().ok().flatten() {
        let _ = std::fs::remove_file(&path);
        return Err(Error::io(format!("reading the parts of tier {name}"), e));
    }
    for k in 0..parts {
        let p = part_path(out_dir, &name, k, parts);
        std::fs::remove_file(&p).map_err(|e| Error::io(format!("removing {}", p.display()), e))?;
    }
    Ok(TierSummary {
        tier: name,
        positions: placements,
        outcomes,
        seconds,
    })
}
