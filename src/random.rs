//! Random numbers and hashing (base layer): the SplitMix64 mixer used as a hash function,
//! a small seedable generator for reproducible playouts and samples, and Zobrist key lists.

/// SplitMix64 finaliser: a good 64-bit mixing function.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 64-bit hash of a text: FNV-1a over its bytes, finished with [`mix64`].
/// Stable across platforms and versions (fingerprints written into files use it).
pub(crate) fn hash_str(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix64(h)
}

/// A small, fast, seedable generator (SplitMix64). Deterministic across
/// platforms, so seeded games and keys are reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }
    /// Uniform integer in `0..n` (`n > 0`), without modulo bias worth noticing.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    /// Uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` Zobrist keys derived from `seed` (the same seed gives the same keys).
pub(crate) fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut r = Rng::new(seed);
    (0..n).map(|_| r.next_u64()).collect()
}
