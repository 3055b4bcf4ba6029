//! A table streamed to its file batch by batch (the byte layout is the parent's).

use super::{corrupt, FormatError, WriteOptions, END_MAGIC, ENTRY, FORMAT_VERSION, MAGIC, PREFIX};
use rayon::prelude::*;
use std::io::Write;

/// Why a table could not be streamed: its contents, or the file it goes to.
pub(super) enum StreamError {
    Format(FormatError),
    Io(std::io::Error),
}

impl From<std::io::Error> for StreamError {
    fn from(e: std::io::Error) -> Self {
        StreamError::Io(e)
    }
}

/// Blocks compressed at once while streaming (4,096 blocks of 4,096 records:
/// at most 128 MiB of records in flight, however large the tier).
pub(super) const STREAM_BLOCKS: usize = 4096;

/// Writes the file of the serialised header `hbytes` and `len` records that
/// `block` gives range by range to `w`, in the byte layout of the module docs:
/// the prefix and header first, the block index (a placeholder, filled once
/// every block's length is known), then the blocks batch by batch, then the
/// trailer. Only one batch of compressed blocks is held, so writing a table
/// needs little memory beside the records' source; the file's crc32 is
/// combined from the crc of what precedes the blocks and the blocks' own.
pub(super) fn stream_table<W: Write + std::io::Seek>(
    w: &mut W,
    hbytes: &[u8],
    len: usize,
    block: &(dyn Fn(std::ops::Range<usize>) -> Vec<u16> + Sync),
    opts: &WriteOptions,
) -> std::result::Result<(), StreamError> {
    let level = opts.level;
    let per = opts.block_records as usize;
    let blocks = len.div_ceil(per);
    let mut head = Vec::with_capacity(PREFIX + hbytes.len() + 4);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(hbytes.len() as u32).to_le_bytes());
    head.extend_from_slice(hbytes);
    head.extend_from_slice(&crc32fast::hash(&head).to_le_bytes());
    let index_start = head.len();
    let data_start = index_start + ENTRY * blocks + 4;
    w.write_all(&head)?;
    w.seek(std::io::SeekFrom::Start(data_start as u64))?;
    let mut entries: Vec<(u32, u32)> = Vec::with_capacity(blocks);
    let mut data_crc = crc32fast::Hasher::new();
    let mut first = 0;
    while first < blocks {
        let last = (first + STREAM_BLOCKS).min(blocks);
        let compressed: Vec<Vec<u8>> = (first..last)
            .into_par_iter()
            .map(|k| {
                let want = ((k + 1) * per).min(len) - k * per;
                let chunk = block(k * per..k * per + want);
                if chunk.len() != want {
                    // A source that could not give its records (an unreadable
                    // part of an out-of-core tier): no table is written.
                    return Err(corrupt(format!(
                        "block {k}: {} records given for {want}",
                        chunk.len()
                    )));
                }
                let mut raw = Vec::with_capacity(chunk.len() * 2);
                raw.extend(chunk.iter().map(|r| r.to_le_bytes()[0]));
                raw.extend(chunk.iter().map(|r| r.to_le_bytes()[1]));
                super::super::zstd_ctx::compress(&raw, level)
                    .map_err(|e| corrupt(format!("compression failed: {e}")))
            })
            .collect::<std::result::Result<_, _>>()
            .map_err(StreamError::Format)?;
        for c in &compressed {
            w.write_all(c)?;
            data_crc.update(c);
            entries.push((c.len() as u32, crc32fast::hash(c)));
        }
        first = last;
    }
    let mut index = Vec::with_capacity(ENTRY * blocks + 4);
    let mut offset = data_start as u64;
    for &(length, crc) in &entries {
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&length.to_le_bytes());
        index.extend_from_slice(&crc.to_le_bytes());
        offset += u64::from(length);
    }
    let index_crc = crc32fast::hash(&index);
    index.extend_from_slice(&index_crc.to_le_bytes());
    debug_assert_eq!(index_start + index.len(), data_start);
    w.seek(std::io::SeekFrom::Start(index_start as u64))?;
    w.write_all(&index)?;
    let mut file_crc = crc32fast::Hasher::new();
    file_crc.update(&head);
    file_crc.update(&index);
    file_crc.combine(&data_crc);
    w.seek(std::io::SeekFrom::Start(offset))?;
    w.write_all(&file_crc.finalize().to_le_bytes())?;
    w.write_all(&END_MAGIC)?;
    w.flush()?;
    Ok(())
}
