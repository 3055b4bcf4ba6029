//! An open table file with random access through positioned reads.
//!
//! Why not memory mapping: `memmap2::Mmap::map` is `unsafe` (another process may
//! truncate or change the file under the mapping) and the crate is
//! `#![forbid(unsafe_code)]`. Records sit in compressed blocks anyway, so every
//! cold probe decodes a block whatever the I/O method; a positioned read of one
//! block (`FileExt::read_exact_at`, no shared file cursor, so threads need no lock)
//! costs a system call on top of the decode, and the decoded-block cache makes warm
//! probes free of I/O. The bench `benches/table.rs` measures both paths.

use super::cache::{BlockCache, BlockKey};
use super::format::{
    decode_block, decode_table, parse_head, BlockEntry, HeadParse, Layout, TableMeta,
};
use crate::error::{Error, Result, TableFault};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Decoded-block budget of a table opened on its own (not through a `TableSet`).
const OWN_CACHE_BYTES: usize = 4 << 20;

/// An open, structurally checked table file.
#[derive(Debug)]
pub struct Table {
    path: PathBuf,
    file: File,
    layout: Layout,
    id: u64,
    cache: Arc<BlockCache>,
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Refuses anything but a regular file (after symlinks) before it is opened: opening a
/// FIFO named like a table would block until a writer appears, and a device never ends.
fn ensure_regular(path: &Path) -> Result<()> {
    match crate::regular::check(path) {
        Ok(()) => Ok(()),
        Err(e) if crate::regular::NotRegular::of(&e).is_some() => {
            Err(Error::table(path, TableFault::NotAFile, e.to_string()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(Error::table(path, TableFault::Missing, "no such file"))
        }
        Err(e) => Err(Error::io(format!("opening table {}", path.display()), e)),
    }
}

/// The blocks' crc32s computed from a stream of the file's bytes, in file order.
struct BlockCrcs<'a> {
    entries: &'a [BlockEntry],
    /// Block numbers sorted by offset.
    order: Vec<usize>,
    /// Position in `order` of the block being hashed or next to start.
    next: usize,
    hasher: crc32fast::Hasher,
}

impl<'a> BlockCrcs<'a> {
    fn new(entries: &'a [BlockEntry]) -> Self {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&b| entries[b].offset);
        BlockCrcs {
            entries,
            order,
            next: 0,
            hasher: crc32fast::Hasher::new(),
        }
    }

    /// Feeds the bytes at file offset `at`; `Err(block)` names a block whose
    /// crc32 disagrees with the index (or that overlaps the one before it).
    fn feed(&mut self, at: u64, bytes: &[u8]) -> std::result::Result<(), usize> {
        let end = at + bytes.len() as u64;
        let mut pos = at;
        while let Some(&b) = self.order.get(self.next) {
            let e = self.entries[b];
            let (start, stop) = (e.offset, e.offset + u64::from(e.length));
            if start >= end {
                break;
            }
            let from = start.max(pos);
            let to = stop.min(end);
            self.hasher
                .update(&bytes[(from - at) as usize..(to - at) as usize]);
            if to < stop {
                break;
            }
            let done = std::mem::replace(&mut self.hasher, crc32fast::Hasher::new());
            if done.finalize() != e.crc {
                return Err(b);
            }
            self.next += 1;
            pos = to;
            if let Some(&n) = self.order.get(self.next) {
                if self.entries[n].offset < stop {
                    return Err(n);
                }
            }
        }
        Ok(())
    }

    /// A block not wholly seen by the end of the stream.
    fn unfinished(&self) -> Option<usize> {
        self.order.get(self.next).copied()
    }
}

impl Table {
    /// Opens a table with its own small block cache; checks magic, version, header,
    /// block index and file length (blocks are checked when read).
    pub fn open(path: &Path) -> Result<Table> {
        Table::open_with_cache(path, Arc::new(BlockCache::new(OWN_CACHE_BYTES)))
    }

    /// Opens a table sharing `cache` with other tables.
    pub(crate) fn open_with_cache(path: &Path, cache: Arc<BlockCache>) -> Result<Table> {
        ensure_regular(path)?;
        let file = crate::regular::open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::table(path, TableFault::Missing, "no such file")
            } else {
                Error::io(format!("opening table {}", path.display()), e)
            }
        })?;
        let file_len = file
            .metadata()
            .map_err(|e| Error::io(format!("reading metadata of {}", path.display()), e))?
            .len();
        // One read covers the header and index of all but huge tables.
        let mut want = file_len.min(64 << 10) as usize;
        let layout = loop {
            let mut buf = vec![0u8; want];
            read_at(&file, &mut buf, 0)
                .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
            match parse_head(&buf, file_len).map_err(|e| e.at(path))? {
                HeadParse::Done(l) => break l,
                // parse_head has checked that `n` fits in the file before asking.
                HeadParse::Need(n) if n > want && n as u64 <= file_len => want = n,
                HeadParse::Need(n) => {
                    return Err(Error::table(
                        path,
                        TableFault::Truncated,
                        format!("truncated: {n} bytes needed, {file_len} present"),
                    ))
                }
            }
        };
        Ok(Table {
            path: path.to_path_buf(),
            file,
            layout,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            cache,
        })
    }

    /// The table's metadata.
    pub fn meta(&self) -> &TableMeta {
        &self.layout.meta
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Number of records (index slots).
    pub fn records(&self) -> u64 {
        self.layout.records
    }

    /// Number of compressed blocks.
    pub fn blocks(&self) -> usize {
        self.layout.blocks.len()
    }

    /// Records per block.
    pub fn block_records(&self) -> u32 {
        self.layout.block_records
    }

    /// File size in bytes.
    pub fn file_len(&self) -> u64 {
        self.layout.file_len
    }

    /// Checks that the table belongs to the expected rules.
    pub fn check_rules(&self, rules: &str, fingerprint: u64) -> Result<()> {
        let m = self.meta();
        if m.fingerprint != fingerprint || m.rules != rules {
            return Err(Error::table(
                &self.path, TableFault::WrongRules,
                format!(
                    "wrong rules: the table is for '{}' (fingerprint {:016x}), expected '{rules}' ({fingerprint:016x})",
                    m.rules, m.fingerprint
                ),
            ));
        }
        Ok(())
    }

    /// Reads and decodes block `b` from disk, bypassing the cache.
    pub fn load_block(&self, b: usize) -> Result<Vec<u16>> {
        let entry = self.layout.blocks.get(b).ok_or_else(|| {
            Error::table(
                &self.path,
                TableFault::BadRecord,
                format!("block {b} out of range ({} blocks)", self.blocks()),
            )
        })?;
        let mut buf = vec![0u8; entry.length as usize];
        read_at(&self.file, &mut buf, entry.offset).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                Error::table(
                    &self.path,
                    TableFault::Truncated,
                    format!("truncated: block {b} lies beyond the end of the file"),
                )
            } else {
                Error::io(format!("reading {}", self.path.display()), e)
            }
        })?;
        decode_block(&buf, entry, self.layout.records_in(b), b).map_err(|e| e.at(&self.path))
    }

    /// The decoded block `b`, through the cache.
    pub(crate) fn block(&self, b: usize) -> Result<Arc<[u16]>> {
        let key: BlockKey = (self.id, b as u32);
        self.cache.get_or_load(key, || self.load_block(b))
    }

    /// The record at `index`.
    pub fn get(&self, index: u64) -> Result<u16> {
        if index >= self.layout.records {
            return Err(Error::table(
                &self.path,
                TableFault::BadRecord,
                format!(
                    "index {index} out of range (the table has {} records)",
                    self.layout.records
                ),
            ));
        }
        let br = self.layout.block_records as u64;
        let block = self.block((index / br) as usize)?;
        Ok(block[(index % br) as usize])
    }

    /// Checks the whole file's bytes against its stored checksum (the trailer's
    /// crc32 of every byte before it) and every block against its own crc32 in
    /// the block index, in one pass reading 1 MiB pieces without decoding a
    /// block: what a rerun does before it keeps a finished table. The header and
    /// the index were checked against their crc32s on opening; a block whose
    /// bytes were changed with the file's crc32 made consistent again is
    /// damaged all the same.
    pub(crate) fn check_bytes(&self) -> Result<()> {
        use std::io::Read;
        ensure_regular(&self.path)?;
        let io = |e| Error::io(format!("reading {}", self.path.display()), e);
        let mut f = crate::regular::open(&self.path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        let damaged =
            |why: &str| Error::table(&self.path, TableFault::Checksum, format!("damaged: {why}"));
        if len != self.file_len() || len < 12 {
            return Err(damaged("its length changed since it was opened"));
        }
        let mut left = len - 12;
        let mut crc = crc32fast::Hasher::new();
        let mut blocks = BlockCrcs::new(&self.layout.blocks);
        let mut buf = vec![0u8; 1 << 20];
        let mut at = 0u64;
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            f.read_exact(&mut buf[..n]).map_err(io)?;
            crc.update(&buf[..n]);
            if let Err(b) = blocks.feed(at, &buf[..n]) {
                return Err(damaged(&format!(
                    "block {b}'s bytes do not match its checksum in the block index"
                )));
            }
            at += n as u64;
            left -= n as u64;
        }
        if let Some(b) = blocks.unfinished() {
            return Err(damaged(&format!("block {b} lies beyond the file's data")));
        }
        let mut stored = [0u8; 4];
        f.read_exact(&mut stored).map_err(io)?;
        if crc.finalize() != u32::from_le_bytes(stored) {
            return Err(damaged("its bytes do not match the file's checksum"));
        }
        Ok(())
    }

    /// Reads the whole file and returns every record, checking every block and the
    /// whole-file checksum (and that the file still has the header it was opened with).
    pub fn read_all(&self) -> Result<Vec<u16>> {
        ensure_regular(&self.path)?;
        let bytes = crate::regular::read(&self.path)
            .map_err(|e| Error::io(format!("reading {}", self.path.display()), e))?;
        let (layout, records) = decode_table(&bytes).map_err(|e| e.at(&self.path))?;
        if layout.meta != self.layout.meta || layout.blocks != self.layout.blocks {
            return Err(Error::table(
                &self.path,
                TableFault::Changed,
                "the file changed since it was opened",
            ));
        }
        Ok(records)
    }
}
