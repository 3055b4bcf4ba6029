//! A cache of decoded table blocks shared by every table and thread.
//!
//! Sharded by key (16 mutexes, so threads rarely wait on each other), each shard
//! evicting with the CLOCK approximation of LRU: a hit only sets a flag, so the
//! hot path is a lock, a hash lookup and an `Arc` clone. Loading happens outside
//! the lock; two threads missing the same block at once both decode it and the
//! second insertion is dropped, which is cheaper than holding a lock over I/O.

use crate::error::Result;
use hashbrown::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

const SHARDS: usize = 16;

/// Key of a cached block: (table id, block number).
pub(crate) type BlockKey = (u64, u32);

struct Slot {
    key: BlockKey,
    data: Arc<[u16]>,
    referenced: bool,
}

#[derive(Default)]
struct Shard {
    map: HashMap<BlockKey, usize>,
    slots: Vec<Slot>,
    hand: usize,
    bytes: usize,
}

impl Shard {
    fn insert(&mut self, key: BlockKey, data: Arc<[u16]>, cap: usize) -> Arc<[u16]> {
        if let Some(&i) = self.map.get(&key) {
            return self.slots[i].data.clone();
        }
        let size = data.len() * 2;
        // Evict until the block fits; a shard always keeps at least the new block.
        while !self.slots.is_empty() && self.bytes + size > cap {
            if self.hand >= self.slots.len() {
                self.hand = 0;
            }
            if self.slots[self.hand].referenced {
                self.slots[self.hand].referenced = false;
                self.hand += 1;
            } else {
                let old = self.slots.swap_remove(self.hand);
                self.map.remove(&old.key);
                self.bytes -= old.data.len() * 2;
                if let Some(moved) = self.slots.get(self.hand) {
                    self.map.insert(moved.key, self.hand);
                }
            }
        }
        self.map.insert(key, self.slots.len());
        self.bytes += size;
        self.slots.push(Slot {
            key,
            data: data.clone(),
            referenced: false,
        });
        data
    }
}

/// Decoded blocks of any number of tables, bounded in bytes.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    shard_cap: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// Default cache size: 256 MiB of decoded records.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

impl BlockCache {
    /// A cache holding up to about `bytes` bytes of decoded records.
    pub(crate) fn new(bytes: usize) -> Self {
        BlockCache {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            shard_cap: (bytes / SHARDS).max(1),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn shard(&self, key: BlockKey) -> &Mutex<Shard> {
        let h = crate::random::mix64(key.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ key.1 as u64);
        &self.shards[(h % SHARDS as u64) as usize]
    }

    /// The block under `key`, decoded by `load` when it is not cached.
    pub(crate) fn get_or_load(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Vec<u16>>,
    ) -> Result<Arc<[u16]>> {
        let shard = self.shard(key);
        {
            // A poisoned shard only means another thread panicked mid-update of plain
            // data; the map and slots stay consistent enough to keep serving.
            let mut s = shard.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(&i) = s.map.get(&key) {
                s.slots[i].referenced = true;
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(s.slots[i].data.clone());
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let data: Arc<[u16]> = load()?.into();
        let mut s = shard.lock().unwrap_or_else(|p| p.into_inner());
        Ok(s.insert(key, data, self.shard_cap))
    }

    /// (hits, misses) since creation.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    /// Bytes of decoded records currently held.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|p| p.into_inner()).bytes)
            .sum()
    }

    /// Drops every cached block (benchmarks of cold probes).
    pub fn clear(&self) {
        for s in &self.shards {
            *s.lock().unwrap_or_else(|p| p.into_inner()) = Shard::default();
        }
    }
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (h, m) = self.stats();
        f.debug_struct("BlockCache")
            .field("shard_cap", &self.shard_cap)
            .field("hits", &h)
            .field("misses", &m)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_within_budget_and_keeps_serving() {
        let cache = BlockCache::new(SHARDS * 4 * 2 * 100); // ~4 blocks of 100 records per shard
        for round in 0..3 {
            for k in 0..200u32 {
                let got = cache
                    .get_or_load((1, k), || Ok(vec![k as u16; 100]))
                    .unwrap();
                assert_eq!(got[0], k as u16, "round {round}");
            }
        }
        assert!(cache.bytes() <= SHARDS * 4 * 2 * 100 + SHARDS * 200);
        let (hits, misses) = cache.stats();
        assert_eq!(hits + misses, 600);
        assert!(misses > 200, "a cache this small must miss on re-reads");
    }

    #[test]
    fn hits_after_load_and_load_errors_pass_through() {
        let cache = BlockCache::new(1 << 20);
        cache.get_or_load((7, 0), || Ok(vec![1, 2, 3])).unwrap();
        let again = cache
            .get_or_load((7, 0), || {
                Err(crate::Error::Internal("must not load".into()))
            })
            .unwrap();
        assert_eq!(&*again, &[1, 2, 3]);
        assert!(cache
            .get_or_load((7, 1), || Err(crate::Error::Internal("boom".into())))
            .is_err());
        assert_eq!(cache.stats(), (1, 2));
    }
}
