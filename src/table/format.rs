//! The table file format: writing, and parsing from untrusted bytes.
//!
//! # Byte layout (format version 1, all integers little-endian)
//!
//! ```text
//! offset          size    field
//! 0               8       magic  b"HSTABLE\x1a"
//! 8               4       format version (u32) = 1
//! 12              4       header length H (u32), at most 1 MiB
//! 16              H       header: bincode 2.0.1 (standard config, serde) of `FileHeader`:
//!                           rules: String, fingerprint: u64, tier: String,
//!                           index_version: u32, encoding: u32, positions: u64,
//!                           extra: String (JSON), records: u64, block_records: u32,
//!                           blocks: u64
//! 16+H            4       crc32 of bytes [0, 16+H)
//! 20+H            16*B    block index, B = blocks entries of
//!                           offset (u64, absolute), length (u32), crc32 of the block (u32)
//! 20+H+16B        4       crc32 of the block index
//! D = 24+H+16B    ...     blocks, contiguous in order: block i starts where block i-1 ends
//!                           (block 0 at D). A block is one zstd frame holding
//!                           `block_records` records (the last one fewer) as byte planes:
//!                           all low bytes, then all high bytes (high bytes are nearly all
//!                           equal, so the planes compress better than interleaved u16s).
//! end-12          4       crc32 of every byte before it
//! end-8           8       end magic b"HSTEND\r\n"
//! ```
//!
//! Random access needs only the header and the block index (checked by their own
//! crc32 when a table is opened) and the one block holding the record (checked by
//! its crc32 when it is read). The whole-file crc32 is checked by full reads
//! ([`decode_table`], `Table::read_all`).
//!
//! **Two solves, two files, one checksum.** The blocks are a function of the
//! rules, the tier and the records (zstd at a fixed level), but the header's
//! `extra` JSON holds the solve's statistics: its wall-clock `seconds`, and its
//! `levels` as the solver method counted them. So two solves of a tier write
//! files that differ in bytes and length (the seconds' digits). Their
//! whole-file crc32 is the same all the same: the header is followed by its own
//! crc32, and the running CRC-32 after a message and its own CRC is a fixed
//! residue, whatever the message, so the whole-file crc32 depends only on what
//! follows the header (the block index and the blocks). A certificate names
//! each leaf table by that crc32, so it checks against tables solved again;
//! tables of the same records in other blocks (another block size or zstd
//! build) are checked with `check-proof --other-table-files`. Compare tables by
//! their records (`scripts/same-records.py`, the block crc32s).
//!
//! Every field is checked, and each failure has its own message; no input bytes can
//! make the parser panic or allocate more than the file's own size allows (the
//! header length, block count and block lengths are bounded by the file length
//! before anything is allocated).

pub use super::format_error::FormatError;
use super::format_error::{checksum, corrupt, truncated, unsupported};
use crate::error::{Error, Result};
use crate::tier::RECORD_ENCODING;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::path::{Path, PathBuf};
use stream::{stream_table, StreamError};

mod stream;

/// First eight bytes of every table file.
pub(crate) const MAGIC: [u8; 8] = *b"HSTABLE\x1a";
/// Last eight bytes of every table file.
pub(crate) const END_MAGIC: [u8; 8] = *b"HSTEND\r\n";
/// The format version this build writes and reads.
pub(crate) const FORMAT_VERSION: u32 = 1;
/// Default number of records per compressed block (8 KiB decoded). Measured with
/// `cargo bench -p huntsolve-benches --bench table` on a loaded 2-core machine, 4 Mi synthetic records:
/// a cold probe costs 24.5 µs with blocks of 4 Ki records, 75 µs with 16 Ki and
/// 177 µs with 64 Ki, while the files differ by under 10 % (0.096, 0.099 and
/// 0.105 bytes per record); the block index costs 16 bytes per block.
pub(crate) const DEFAULT_BLOCK_RECORDS: u32 = 4 * 1024;
/// Largest accepted header (bytes); the header is small, so more means corruption.
pub(crate) const MAX_HEADER: usize = 1 << 20;
/// Largest accepted number of records per block.
pub(crate) const MAX_BLOCK_RECORDS: u32 = 1 << 22;
/// Default zstd level: fast to write, and decoding speed barely depends on it.
pub(crate) const DEFAULT_LEVEL: i32 = 3;

/// Upper bound of zstd's expansion: every zstd block holds at most 128 KiB and
/// costs at least 4 bytes (an RLE block). Checking it bounds the memory a forged
/// header can make a reader allocate to 32768 times the file size.
const MAX_RATIO: u64 = 32 * 1024;

/// Bytes before the header.
const PREFIX: usize = 16;
/// Bytes of one block index entry.
const ENTRY: usize = 16;
/// Bytes after the last block: file crc32 and end magic.
const TRAILER: usize = 12;

/// What a table file says about itself (the agreed interface with the solver).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableMeta {
    /// Canonical rules string of the game ([`crate::Game::rules_string`]).
    pub rules: String,
    /// Rules fingerprint ([`crate::Game::fingerprint`]).
    pub fingerprint: u64,
    /// Tier name ([`crate::retro::TierGame::tier_name`]).
    pub tier: String,
    /// Version of the game's index scheme (rank/unrank) used to write the records.
    pub index_version: u32,
    /// Record encoding ([`RECORD_ENCODING`]).
    pub encoding: u32,
    /// Number of positions the solver counted (its own statistic; the number of
    /// records is [`Table`](super::Table)'s `records()`).
    pub positions: u64,
    /// Solver statistics as JSON (may be empty).
    pub extra: String,
}

/// The serialised header: the metadata plus the block geometry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct FileHeader {
    rules: String,
    fingerprint: u64,
    tier: String,
    index_version: u32,
    encoding: u32,
    positions: u64,
    extra: String,
    records: u64,
    block_records: u32,
    blocks: u64,
}

/// One block index entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// Absolute file offset of the compressed block.
    pub offset: u64,
    /// Compressed length in bytes.
    pub length: u32,
    /// crc32 of the compressed bytes.
    pub crc: u32,
}

/// Everything needed for random access, parsed from the start of a file.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The table's metadata.
    pub meta: TableMeta,
    /// Number of records (index slots).
    pub records: u64,
    /// Records per block (the last block may hold fewer).
    pub block_records: u32,
    /// The block index.
    pub blocks: Vec<BlockEntry>,
    /// Exact length the file must have.
    pub file_len: u64,
}

impl Layout {
    /// Number of records in block `b`.
    pub(crate) fn records_in(&self, b: usize) -> usize {
        let start = b as u64 * self.block_records as u64;
        (self.records - start).min(self.block_records as u64) as usize
    }
}

/// Result of parsing a file prefix: either the layout, or how many leading bytes
/// the parser needs to finish (the caller reads that many and calls again).
#[derive(Debug)]
pub(crate) enum HeadParse {
    /// The header and block index are complete and consistent.
    Done(Layout),
    /// The prefix is too short; this many bytes are needed.
    Need(usize),
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Parses the header and block index from `prefix` (the first bytes of a file of
/// `file_len` bytes). Pure function over bytes: the single entry point of all
/// header parsing, so it can be fuzzed. Errors are human-readable reasons.
pub(crate) fn parse_head(
    prefix: &[u8],
    file_len: u64,
) -> std::result::Result<HeadParse, FormatError> {
    let min = (PREFIX + 4 + 4 + TRAILER) as u64;
    if file_len < min {
        return Err(truncated(format!(
            "truncated: {file_len} bytes is shorter than the smallest table ({min} bytes)"
        )));
    }
    if prefix.len() < PREFIX {
        return Ok(HeadParse::Need(PREFIX));
    }
    if prefix[..8] != MAGIC {
        return Err(corrupt("bad magic: not a huntsolve table file"));
    }
    let version = u32_at(prefix, 8);
    if version != FORMAT_VERSION {
        return Err(unsupported(format!(
            "unsupported format version {version} (this build reads version {FORMAT_VERSION})"
        )));
    }
    let hlen = u32_at(prefix, 12) as usize;
    if hlen > MAX_HEADER {
        return Err(corrupt(format!(
            "corrupt header: header length {hlen} exceeds the limit of {MAX_HEADER} bytes"
        )));
    }
    let head_end = PREFIX + hlen + 4;
    if head_end as u64 + 4 + TRAILER as u64 > file_len {
        return Err(truncated(format!(
            "truncated: the header needs {} bytes but the file has {file_len}",
            head_end + 4 + TRAILER
        )));
    }
    if prefix.len() < head_end {
        return Ok(HeadParse::Need(head_end));
    }
    let stored = u32_at(prefix, PREFIX + hlen);
    if crc32fast::hash(&prefix[..PREFIX + hlen]) != stored {
        return Err(checksum("header checksum mismatch (corrupt header)"));
    }
    let h = decode_header(&prefix[PREFIX..PREFIX + hlen])?;
    // Every block is at least one byte, so the count is bounded by the file length
    // before the index is allocated.
    let index_len = h
        .blocks
        .checked_mul(ENTRY as u64 + 1)
        .ok_or_else(|| corrupt("corrupt header: block count overflows"))?;
    // Checked: a forged block count near `u64::MAX / 17` passes the multiplication.
    let index_end = (head_end as u64 + 4 + TRAILER as u64).checked_add(index_len);
    if index_end.is_none_or(|end| end > file_len) {
        return Err(truncated(format!(
            "truncated: {} blocks do not fit in {file_len} bytes",
            h.blocks
        )));
    }
    let nblocks = h.blocks as usize;
    let data_start = head_end + ENTRY * nblocks + 4;
    if prefix.len() < data_start {
        return Ok(HeadParse::Need(data_start));
    }
    let index = &prefix[head_end..head_end + ENTRY * nblocks];
    if crc32fast::hash(index) != u32_at(prefix, head_end + ENTRY * nblocks) {
        return Err(checksum(
            "block index checksum mismatch (corrupt block index)",
        ));
    }
    let (blocks, next) = block_entries(index, &h, data_start as u64)?;
    let want_len = next + TRAILER as u64;
    if want_len != file_len {
        return Err(if want_len > file_len {
            truncated(format!(
                "truncated: the file has {file_len} bytes, its block index needs {want_len}"
            ))
        } else {
            corrupt(format!(
                "corrupt file: {} unexpected bytes after the last block",
                file_len - want_len
            ))
        });
    }
    Ok(HeadParse::Done(Layout {
        meta: TableMeta {
            rules: h.rules,
            fingerprint: h.fingerprint,
            tier: h.tier,
            index_version: h.index_version,
            encoding: h.encoding,
            positions: h.positions,
            extra: h.extra,
        },
        records: h.records,
        block_records: h.block_records,
        blocks,
        file_len,
    }))
}

/// The header fields from their bytes, checked against one another.
fn decode_header(bytes: &[u8]) -> std::result::Result<FileHeader, FormatError> {
    let config = bincode::config::standard().with_limit::<MAX_HEADER>();
    let (h, used): (FileHeader, usize) = bincode::serde::decode_from_slice(bytes, config)
        .map_err(|e| corrupt(format!("corrupt header: does not decode ({e})")))?;
    if used != bytes.len() {
        return Err(corrupt(format!(
            "corrupt header: {} trailing bytes after the header fields",
            bytes.len() - used
        )));
    }
    if h.encoding != RECORD_ENCODING {
        return Err(unsupported(format!(
            "unsupported record encoding {} (this build reads encoding {RECORD_ENCODING})",
            h.encoding
        )));
    }
    if h.block_records == 0 || h.block_records > MAX_BLOCK_RECORDS {
        return Err(corrupt(format!(
            "corrupt header: {} records per block (accepted 1..={MAX_BLOCK_RECORDS})",
            h.block_records
        )));
    }
    let want_blocks = h.records.div_ceil(h.block_records as u64);
    if h.blocks != want_blocks {
        return Err(corrupt(format!(
            "corrupt header: {} blocks for {} records of {} per block (expected {want_blocks})",
            h.blocks, h.records, h.block_records
        )));
    }
    Ok(h)
}

/// The entries of a block index that checks out: each block right after the
/// previous one, none empty or too small for its records. Returns them and
/// the offset after the last block.
fn block_entries(
    index: &[u8],
    h: &FileHeader,
    data_start: u64,
) -> std::result::Result<(Vec<BlockEntry>, u64), FormatError> {
    let mut blocks = Vec::with_capacity(index.len() / ENTRY);
    let mut next = data_start;
    for (i, e) in index.chunks_exact(ENTRY).enumerate() {
        let entry = BlockEntry {
            offset: u64_at(e, 0),
            length: u32_at(e, 8),
            crc: u32_at(e, 12),
        };
        if entry.offset != next || entry.length == 0 {
            return Err(corrupt(format!(
                "corrupt block index: block {i} at offset {} length {} (expected offset {next})",
                entry.offset, entry.length
            )));
        }
        let raw = 2 * (h.records - i as u64 * h.block_records as u64).min(h.block_records as u64);
        if raw > MAX_RATIO * entry.length as u64 {
            return Err(corrupt(format!(
                "corrupt block index: block {i} of {} bytes cannot hold {raw} bytes of records",
                entry.length
            )));
        }
        next += entry.length as u64;
        blocks.push(entry);
    }
    Ok((blocks, next))
}

/// Checks and decodes one compressed block of `n` records. Pure function over bytes.
pub(crate) fn decode_block(
    bytes: &[u8],
    entry: &BlockEntry,
    n: usize,
    b: usize,
) -> std::result::Result<Vec<u16>, FormatError> {
    let mut out = vec![0u16; n];
    decode_block_into(bytes, entry, &mut out, b)?;
    Ok(out)
}

/// [`decode_block`] into a caller's slice (its length is the record count).
pub(crate) fn decode_block_into(
    bytes: &[u8],
    entry: &BlockEntry,
    out: &mut [u16],
    b: usize,
) -> std::result::Result<(), FormatError> {
    let n = out.len();
    if bytes.len() != entry.length as usize {
        return Err(truncated(format!(
            "truncated: block {b} has {} of its {} bytes",
            bytes.len(),
            entry.length
        )));
    }
    if crc32fast::hash(bytes) != entry.crc {
        return Err(checksum(format!(
            "block {b} checksum mismatch (corrupt block)"
        )));
    }
    // One decompression context per thread (super::zstd_ctx) saves an allocation per block.
    let raw = super::zstd_ctx::decompress(bytes, 2 * n);
    let raw = raw.map_err(|e| corrupt(format!("corrupt block {b}: does not decompress ({e})")))?;
    if raw.len() != 2 * n {
        return Err(corrupt(format!(
            "corrupt block {b}: {} bytes decompressed, expected {}",
            raw.len(),
            2 * n
        )));
    }
    let (lo, hi) = raw.split_at(n);
    for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
        *o = u16::from_le_bytes([l, h]);
    }
    Ok(())
}

/// Checks and decodes a whole table file held in memory: header, block index,
/// every block and the whole-file checksum. Pure function over bytes (fuzzable).
pub fn decode_table(bytes: &[u8]) -> std::result::Result<(Layout, Vec<u16>), FormatError> {
    let layout = match parse_head(bytes, bytes.len() as u64)? {
        HeadParse::Done(l) => l,
        // parse_head only asks for more when the prefix is shorter than the file.
        HeadParse::Need(n) => {
            return Err(truncated(format!(
                "truncated: {n} bytes needed, {} present",
                bytes.len()
            )))
        }
    };
    if bytes[bytes.len() - 8..] != END_MAGIC {
        return Err(corrupt("bad end marker: truncated or corrupt file end"));
    }
    // Blocks before the file checksum, so a damaged block is named; in parallel,
    // since the solver reads whole child tiers this way. The allocation is bounded
    // by the file size (see `MAX_RATIO`).
    let mut records = vec![0u16; layout.records as usize];
    records
        .par_chunks_mut(layout.block_records as usize)
        .zip(layout.blocks.par_iter())
        .enumerate()
        .map(|(b, (out, e))| {
            let start = e.offset as usize;
            decode_block_into(&bytes[start..start + e.length as usize], e, out, b)
        })
        .collect::<std::result::Result<(), FormatError>>()?;
    check_trailer(bytes)?;
    Ok((layout, records))
}

/// Checks the end magic and the whole-file crc32 of a complete file.
pub(crate) fn check_trailer(bytes: &[u8]) -> std::result::Result<(), FormatError> {
    if bytes.len() < TRAILER {
        return Err(truncated("truncated: no trailer"));
    }
    let end = bytes.len();
    if bytes[end - 8..] != END_MAGIC {
        return Err(corrupt("bad end marker: truncated or corrupt file end"));
    }
    if crc32fast::hash(&bytes[..end - TRAILER]) != u32_at(bytes, end - TRAILER) {
        return Err(checksum("file checksum mismatch (corrupt file)"));
    }
    Ok(())
}

/// Options of [`write_table_with`].
#[derive(Clone, Copy, Debug)]
pub struct WriteOptions {
    /// Records per compressed block.
    pub block_records: u32,
    /// zstd compression level.
    pub level: i32,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            block_records: DEFAULT_BLOCK_RECORDS,
            level: DEFAULT_LEVEL,
        }
    }
}

/// Encodes a complete table file in memory.
pub fn encode_table(
    meta: &TableMeta,
    records: &[u16],
    opts: &WriteOptions,
) -> std::result::Result<Vec<u8>, FormatError> {
    encode_table_from(meta, records.len(), &|r| records[r].to_vec(), opts)
}

/// [`encode_table`] of `len` records that `block` gives range by range (one
/// compressed block at a time), so that no array of every record is needed.
pub(crate) fn encode_table_from(
    meta: &TableMeta,
    len: usize,
    block: &(dyn Fn(std::ops::Range<usize>) -> Vec<u16> + Sync),
    opts: &WriteOptions,
) -> std::result::Result<Vec<u8>, FormatError> {
    let hbytes = table_header(meta, len, opts)?;
    let mut out = std::io::Cursor::new(Vec::new());
    stream_table(&mut out, &hbytes, len, block, opts).map_err(|e| match e {
        StreamError::Format(f) => f,
        StreamError::Io(e) => corrupt(format!("writing to memory: {e}")),
    })?;
    Ok(out.into_inner())
}

/// The serialised header of a table of `len` records, checked: the encoding
/// this build writes, the block size, valid extra JSON, the header's size.
fn table_header(
    meta: &TableMeta,
    len: usize,
    opts: &WriteOptions,
) -> std::result::Result<Vec<u8>, FormatError> {
    if meta.encoding != RECORD_ENCODING {
        return Err(corrupt(format!(
            "record encoding {} is not the one this build writes ({RECORD_ENCODING})",
            meta.encoding
        )));
    }
    if opts.block_records == 0 || opts.block_records > MAX_BLOCK_RECORDS {
        return Err(corrupt(format!(
            "{} records per block (accepted 1..={MAX_BLOCK_RECORDS})",
            opts.block_records
        )));
    }
    if !meta.extra.is_empty() {
        serde_json::from_str::<serde_json::Value>(&meta.extra)
            .map_err(|e| corrupt(format!("extra statistics are not valid JSON: {e}")))?;
    }
    let header = FileHeader {
        rules: meta.rules.clone(),
        fingerprint: meta.fingerprint,
        tier: meta.tier.clone(),
        index_version: meta.index_version,
        encoding: meta.encoding,
        positions: meta.positions,
        extra: meta.extra.clone(),
        records: len as u64,
        block_records: opts.block_records,
        blocks: len.div_ceil(opts.block_records as usize) as u64,
    };
    let hbytes = bincode::serde::encode_to_vec(&header, bincode::config::standard())
        .map_err(|e| corrupt(format!("header does not encode: {e}")))?;
    if hbytes.len() > MAX_HEADER {
        return Err(corrupt(format!(
            "header of {} bytes exceeds the limit of {MAX_HEADER} (extra JSON too long?)",
            hbytes.len()
        )));
    }
    Ok(hbytes)
}

/// Writes a table: to a temporary file in the same directory, fsync, then rename,
/// so a reader sees either no file or a complete one.
pub fn write_table(path: &Path, meta: &TableMeta, records: &[u16]) -> Result<()> {
    write_table_with(path, meta, records, &WriteOptions::default())
}

/// [`write_table`] of `len` records that `block` gives range by range
/// (as `encode_table_from` encodes).
pub(crate) fn write_table_from(
    path: &Path,
    meta: &TableMeta,
    len: usize,
    block: &(dyn Fn(std::ops::Range<usize>) -> Vec<u16> + Sync),
) -> Result<()> {
    stream_to_file(path, meta, len, block, &WriteOptions::default())
}

/// The table of `len` records that `block` gives, streamed to `path` by
/// [`stream_table`] through [`write_file`]: no copy of the file in memory.
fn stream_to_file(
    path: &Path,
    meta: &TableMeta,
    len: usize,
    block: &(dyn Fn(std::ops::Range<usize>) -> Vec<u16> + Sync),
    opts: &WriteOptions,
) -> Result<()> {
    let hbytes = table_header(meta, len, opts).map_err(|e| e.at(path))?;
    write_file(path, &mut |w, tmp| {
        stream_table(w, &hbytes, len, block, opts).map_err(|e| match e {
            StreamError::Format(f) => f.at(path),
            StreamError::Io(e) => Error::io(format!("writing {}", tmp.display()), e),
        })
    })
}

/// [`write_table`] with explicit block size and compression level.
pub fn write_table_with(
    path: &Path,
    meta: &TableMeta,
    records: &[u16],
    opts: &WriteOptions,
) -> Result<()> {
    stream_to_file(path, meta, records.len(), &|r| records[r].to_vec(), opts)
}

/// A table file to `path`, its bytes written by `fill` (given the buffered
/// file and its temporary path): temporary file, fsync, rename, directory
/// fsync; on any error the temporary file is removed and `path` untouched.
fn write_file(
    path: &Path,
    fill: &mut dyn FnMut(&mut std::io::BufWriter<File>, &Path) -> Result<()>,
) -> Result<()> {
    let tmp = tmp_path(path);
    let result = (|| -> Result<()> {
        let f =
            File::create(&tmp).map_err(|e| Error::io(format!("creating {}", tmp.display()), e))?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        fill(&mut w, &tmp)?;
        let f = w
            .into_inner()
            .map_err(|e| Error::io(format!("writing {}", tmp.display()), e.into_error()))?;
        crate::durable::sync(&f).map_err(|e| Error::io(format!("syncing {}", tmp.display()), e))?;
        std::fs::rename(&tmp, path).map_err(|e| {
            Error::io(
                format!("renaming {} to {}", tmp.display(), path.display()),
                e,
            )
        })
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    // Make the rename itself durable; not every platform can open a directory.
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = crate::durable::sync(&d);
        }
    }
    Ok(())
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(format!(".tmp{}", std::process::id()));
    path.with_file_name(name)
}

/// Path of the table of `tier_name` in `dir`: `DIR/<tier>.hst`.
pub fn table_path(dir: &Path, tier_name: &str) -> PathBuf {
    dir.join(format!("{tier_name}.hst"))
}

#[cfg(test)]
mod tests {
    use super::stream::STREAM_BLOCKS;
    use super::*;

    /// A table of more blocks than one streaming batch (block_records 1, so
    /// 10,000 blocks in three batches) decodes to its records with every
    /// checksum valid, and the file streamed to disk is the bytes encoded in
    /// memory; a damaged byte in the last batch's blocks is caught.
    #[test]
    fn streamed_tables_span_batches() {
        let records: Vec<u16> = (0..10_000u32).map(|i| (i * 7 % 251) as u16).collect();
        let meta = TableMeta {
            rules: "r".into(),
            fingerprint: 7,
            tier: "t".into(),
            index_version: 1,
            encoding: RECORD_ENCODING,
            positions: records.len() as u64,
            extra: "{\"seconds\":1.5}".into(),
        };
        let opts = WriteOptions {
            block_records: 1,
            level: DEFAULT_LEVEL,
        };
        assert!(records.len() > 2 * STREAM_BLOCKS);
        let bytes = encode_table(&meta, &records, &opts).unwrap();
        let (layout, back) = decode_table(&bytes).unwrap();
        assert_eq!(back, records);
        assert_eq!(layout.blocks.len(), records.len());
        let dir = std::env::temp_dir().join(format!("hs-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.hst");
        write_table_with(&path, &meta, &records, &opts).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let mut bad = bytes.clone();
        let at = bad.len() - TRAILER - 3;
        bad[at] ^= 0x40;
        assert!(decode_table(&bad).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A forged file whose checksums are all valid but whose header claims far more
    /// records than its blocks can hold must be refused before anything is allocated.
    #[test]
    fn forged_record_counts_are_refused() {
        let h = FileHeader {
            rules: "r".into(),
            fingerprint: 0,
            tier: "t".into(),
            index_version: 0,
            encoding: RECORD_ENCODING,
            positions: 0,
            extra: String::new(),
            records: 1 << 30,
            block_records: 1 << 22,
            blocks: 256,
        };
        let hb = bincode::serde::encode_to_vec(&h, bincode::config::standard()).unwrap();
        let mut f = MAGIC.to_vec();
        f.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        f.extend_from_slice(&(hb.len() as u32).to_le_bytes());
        f.extend_from_slice(&hb);
        f.extend_from_slice(&crc32fast::hash(&f).to_le_bytes());
        let index_start = f.len();
        let data = (index_start + 256 * ENTRY + 4) as u64;
        for i in 0..256u64 {
            f.extend_from_slice(&(data + i).to_le_bytes());
            f.extend_from_slice(&1u32.to_le_bytes());
            f.extend_from_slice(&crc32fast::hash(&[0]).to_le_bytes());
        }
        let icrc = crc32fast::hash(&f[index_start..]);
        f.extend_from_slice(&icrc.to_le_bytes());
        f.extend(std::iter::repeat_n(0u8, 256));
        let fcrc = crc32fast::hash(&f);
        f.extend_from_slice(&fcrc.to_le_bytes());
        f.extend_from_slice(&END_MAGIC);
        let e = decode_table(&f).unwrap_err();
        assert!(e.reason.contains("cannot hold"), "{e}");
    }
}
