//! zstd with one compression and one decompression context per thread.
//!
//! `zstd::bulk::compress` and `decompress` create a context for every call,
//! and the out-of-core solver calls them once per 64 KiB frame: in a `perf`
//! profile of a pass on the peralikatuma49 7-cow tier, creating the contexts
//! was 4.4 % of the samples, beside the kernel zeroing fresh pages. Keeping
//! them per thread cut `bench --retro --out-of-core` by about 7 %
//! (results/out-of-core.md). The bytes written are the same as the one-shot
//! functions' (same level, same parameters; tested).

use std::cell::RefCell;
use std::io;

thread_local! {
    static COMPRESSOR: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// `data` compressed at `level`, by this thread's context.
pub(crate) fn compress(data: &[u8], level: i32) -> io::Result<Vec<u8>> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        match slot.as_mut() {
            Some((l, c)) if *l != level => {
                c.set_compression_level(level)?;
                *l = level;
            }
            Some(_) => {}
            None => *slot = Some((level, zstd::bulk::Compressor::new(level)?)),
        }
        match slot.as_mut() {
            Some((_, c)) => c.compress(data),
            None => Err(io::Error::other("no zstd compressor")),
        }
    })
}

/// `data` decompressed, at most `capacity` bytes, by this thread's context.
pub(crate) fn decompress(data: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new()?);
        }
        match slot.as_mut() {
            Some(d) => d.decompress(data, capacity),
            None => Err(io::Error::other("no zstd decompressor")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_as_the_one_shot_functions_and_back() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 13) as u8).collect();
        for level in [1, 3, 1, 19, 1] {
            let z = compress(&data, level).unwrap();
            assert_eq!(z, zstd::bulk::compress(&data, level).unwrap());
            assert_eq!(decompress(&z, data.len()).unwrap(), data);
        }
        // Too small a capacity is an error, not a truncated result, and the
        // context stays usable.
        let z = compress(&data, 1).unwrap();
        assert!(decompress(&z, data.len() - 1).is_err());
        assert!(decompress(b"not zstd", 100).is_err());
        assert_eq!(decompress(&z, data.len()).unwrap(), data);
    }
}
