//! The index of a hunt tier: canonical hunter sets, prey ranks among the free points, the symmetry maps, and the bit tricks they use.

use crate::game::Game;
use crate::hunt::{HuntGame, HuntPos};
use crate::tier::binomial;
use crate::tier::cache;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Canonical hunter sets for one number of hunters on board.
#[derive(Debug)]
pub(super) struct HunterSets {
    /// Canonical masks in increasing order.
    pub(super) masks: Vec<u64>,
    /// Per class: symmetries (other than the identity) fixing the set.
    pub(super) stabiliser: Vec<Vec<u8>>,
    /// Indexed by the colex rank of *any* hunter set of this size among all
    /// points: its class and the range of `to_canon` listing the symmetries
    /// that map it onto the class's canonical mask. Precomputed so that
    /// [`Index::rank`] maps the prey only under those few symmetries instead
    /// of mapping the hunters under every symmetry twice.
    pub(super) lookup: Vec<(u32, u32, u32)>,
    /// Symmetry numbers referenced by `lookup`.
    pub(super) to_canon: Vec<u8>,
}

/// Precomputed ranking data of one board and hunter count.
#[derive(Debug)]
pub(super) struct Index {
    pub(super) n: usize,
    /// `table[s][chunk][byte]`: image under symmetry `s` of `byte` at bit offset `8·chunk`.
    pub(super) table: Vec<[[u64; 256]; 8]>,
    /// `binom[a][b]` = C(a, b), a flat array: one load per lookup (a `Vec` of
    /// `Vec`s cost a second, dependent load in the unranking loop).
    pub(super) binom: Box<[[u64; 65]; 65]>,
    /// Colex rank by chunks of [`CHUNK_BITS`] bits: entry `(c · 2^CHUNK_BITS + bits) ·
    /// (n + 1) + below` is the rank contribution of chunk `c` holding `bits` when
    /// `below` members lie in lower chunks. Turns the per-member loop of
    /// [`Index::prey_rank`] (the hottest code of solve and verify under `perf`) into
    /// one lookup per chunk.
    pub(super) chunk_rank: Vec<u64>,
    /// Indexed by the number of hunters on board.
    pub(super) sets: Vec<HunterSets>,
    /// `point[s][q]`: the image of point `q` under symmetry `s`.
    pub(super) point: Vec<[u8; 64]>,
}

/// Width of the chunks of [`Index::chunk_rank`].
pub(super) const CHUNK_BITS: usize = 6;

impl Index {
    pub(super) fn build(game: &HuntGame) -> Index {
        let board = game.board();
        let n = board.len();
        let syms = board.symmetries.len();
        let mut table = vec![[[0u64; 256]; 8]; syms];
        for (s, t) in table.iter_mut().enumerate() {
            for (chunk, row) in t.iter_mut().enumerate() {
                for (byte, cell) in row.iter_mut().enumerate() {
                    *cell = board.map_mask(s, (byte as u64) << (8 * chunk) & board.all_mask());
                }
            }
        }
        let mut binom = Box::new([[0u64; 65]; 65]);
        for (a, row) in binom.iter_mut().enumerate() {
            for (b, cell) in row.iter_mut().enumerate() {
                *cell = binomial(a as u64, b as u64);
            }
        }
        let chunks = n.div_ceil(CHUNK_BITS);
        let mut chunk_rank = vec![0u64; (chunks << CHUNK_BITS) * (n + 1)];
        for c in 0..chunks {
            for bits in 0..1usize << CHUNK_BITS {
                for below in 0..=n {
                    let mut r = 0u64;
                    let mut k = below;
                    for i in 0..CHUNK_BITS {
                        if bits >> i & 1 == 1 {
                            k += 1;
                            let pos = c * CHUNK_BITS + i;
                            if pos < binom.len() && k < binom[pos].len() {
                                r += binom[pos][k];
                            }
                        }
                    }
                    chunk_rank[((c << CHUNK_BITS) + bits) * (n + 1) + below] = r;
                }
            }
        }
        let point = (0..syms)
            .map(|s| {
                let mut row = [0u8; 64];
                for (q, cell) in row.iter_mut().enumerate().take(n) {
                    *cell = board.map_mask(s, 1u64 << q).trailing_zeros() as u8;
                }
                row
            })
            .collect();
        let mut idx = Index {
            n,
            table,
            binom,
            chunk_rank,
            sets: Vec::new(),
            point,
        };
        for h in 0..=game.rules().hunters as usize {
            let mut masks = Vec::new();
            let mut stabiliser = Vec::new();
            for_each_subset(n, h, &mut |m| {
                if (0..syms).all(|s| idx.map(s, m) >= m) {
                    masks.push(m);
                    stabiliser.push(
                        (1..syms)
                            .filter(|&s| idx.map(s, m) == m)
                            .map(|s| s as u8)
                            .collect(),
                    );
                }
            });
            let class: HashMap<u64, u32> = masks
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, i as u32))
                .collect();
            let total = idx.binom[n][h] as usize;
            let mut lookup = vec![(0u32, 0u32, 0u32); total];
            let mut to_canon = Vec::new();
            for_each_subset(n, h, &mut |m| {
                let canon = (0..syms).map(|s| idx.map(s, m)).min().unwrap_or(m);
                let start = to_canon.len() as u32;
                to_canon.extend(
                    (0..syms)
                        .filter(|&s| idx.map(s, m) == canon)
                        .map(|s| s as u8),
                );
                let len = to_canon.len() as u32 - start;
                lookup[idx.prey_rank(0, m) as usize] = (class[&canon], start, len);
            });
            idx.sets.push(HunterSets {
                masks,
                stabiliser,
                lookup,
                to_canon,
            });
        }
        idx
    }

    #[inline]
    pub(super) fn map(&self, s: usize, mask: u64) -> u64 {
        let t = &self.table[s];
        let mut out = 0;
        let mut m = mask;
        let mut chunk = 0;
        while m != 0 {
            out |= t[chunk][(m & 0xff) as usize];
            m >>= 8;
            chunk += 1;
        }
        out
    }

    /// Colex rank of `prey` among the points not in `hunters` (disjoint sets):
    /// the prey are compressed onto `0..n − H` by squeezing out the hunter
    /// points (highest first, so lower positions stay put), then ranked chunk by
    /// chunk from [`Index::chunk_rank`].
    #[inline]
    pub(super) fn prey_rank(&self, hunters: u64, prey: u64) -> u64 {
        // Few members (endgames on the big boards): the member loop is shorter than
        // squeezing and walking every chunk.
        if prey.count_ones() <= 4 {
            return self.prey_rank_plain(hunters, prey);
        }
        self.compressed_rank(squeeze(prey, hunters))
    }

    /// Colex rank of a prey mask already compressed onto the points free of
    /// hunters (see [`squeeze`]), chunk by chunk from [`Index::chunk_rank`].
    #[inline]
    pub(super) fn compressed_rank(&self, mut x: u64) -> u64 {
        let stride = self.n + 1;
        let mut r = 0;
        let mut below = 0usize;
        let mut c = 0usize;
        while x != 0 {
            let bits = (x & ((1 << CHUNK_BITS) - 1)) as usize;
            r += self.chunk_rank[((c << CHUNK_BITS) + bits) * stride + below];
            below += bits.count_ones() as usize;
            x >>= CHUNK_BITS;
            c += 1;
        }
        r
    }

    /// The colex rank of `x & !(1 << a) | 1 << b` from the rank `r` of `x` (a
    /// compressed prey mask holding `a` and not `b`): one piece stepping from `a` to
    /// `b`. Only the members between the two points change their place in the
    /// order, so this costs one term per member in between (on a step, mostly
    /// none) instead of a walk over every chunk of the mask.
    #[cfg(test)]
    pub(super) fn step_rank(&self, x: u64, r: u64, a: u32, b: u32) -> u64 {
        self.step_to(&self.lift(x, r, a), b)
    }

    /// The part of [`Index::step_rank`] that does not depend on the target:
    /// `a`'s place in `x` and the rank without `a`'s term.
    #[inline]
    pub(super) fn lift(&self, x: u64, r: u64, a: u32) -> Lifted {
        let ia = (x & ((1u64 << a) - 1)).count_ones() as usize + 1;
        Lifted {
            x,
            r: r.wrapping_sub(self.binom[a as usize & 63][ia & 63]),
            a,
            ia,
        }
    }

    /// The rank after the lifted piece lands on `b` (a point not in the mask).
    #[inline]
    pub(super) fn step_to(&self, l: &Lifted, b: u32) -> u64 {
        let binom = &self.binom;
        let (x, a) = (l.x, l.a);
        let below_b = (x & ((1u64 << b) - 1)).count_ones() as usize;
        let mut r = l.r;
        if a < b {
            // `b` takes the place after the members below it but `a`; each member
            // in between moves one place down.
            r = r.wrapping_add(binom[b as usize & 63][below_b & 63]);
            let mut between = x & !((2u64 << a) - 1) & ((1u64 << b) - 1);
            let mut i = l.ia + 1;
            while between != 0 {
                let c = between.trailing_zeros() as usize & 63;
                between &= between - 1;
                r = r
                    .wrapping_sub(binom[c][i & 63])
                    .wrapping_add(binom[c][(i - 1) & 63]);
                i += 1;
            }
        } else {
            // Each member between `b` and `a` moves one place up.
            let mut i = below_b + 1;
            r = r.wrapping_add(binom[b as usize & 63][i & 63]);
            let mut between = x & !((2u64 << b) - 1) & ((1u64 << a) - 1);
            while between != 0 {
                let c = between.trailing_zeros() as usize & 63;
                between &= between - 1;
                r = r
                    .wrapping_sub(binom[c][i & 63])
                    .wrapping_add(binom[c][(i + 1) & 63]);
                i += 1;
            }
        }
        r
    }

    /// [`Index::prey_rank`] member by member (the definition).
    #[inline]
    pub(super) fn prey_rank_plain(&self, hunters: u64, prey: u64) -> u64 {
        let mut r = 0;
        let mut k = 1;
        let mut m = prey;
        while m != 0 {
            let q = m.trailing_zeros();
            m &= m - 1;
            let below = hunters & ((1u64 << q) - 1);
            let local = q - below.count_ones();
            r += self.binom[local as usize][k];
            k += 1;
        }
        r
    }

    /// Every point of the board.
    pub(super) fn all(&self) -> u64 {
        if self.n >= 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// The prey set of colex rank `rank` with `count` prey among the points not in `hunters`.
    pub(super) fn prey_unrank(&self, hunters: u64, count: usize, rank: u64) -> u64 {
        let free = self.n - hunters.count_ones() as usize;
        spread(self.compressed_unrank(free, count, rank), hunters)
    }

    /// The set of colex rank `rank` with `count` members among `0..free`: a prey
    /// mask compressed onto the points free of hunters (see [`squeeze`]).
    #[inline]
    pub(super) fn compressed_unrank(&self, free: usize, count: usize, mut rank: u64) -> u64 {
        // Colex digits decrease: the k-th is the largest c below the (k+1)-th with
        // C(c, k) <= rank, so one downward walk over the free points finds them
        // all (by 8 first, then one by one), in places among the free points.
        let mut x = 0u64;
        let mut c = free;
        for k in (2..=count).rev() {
            c -= 1;
            while c >= 8 && self.binom[c - 8][k] > rank {
                c -= 8;
            }
            while self.binom[c][k] > rank {
                c -= 1;
            }
            rank -= self.binom[c][k];
            x |= 1u64 << c;
        }
        // The last digit needs no walk: C(c, 1) = c, so it is the rank left.
        if count >= 1 {
            x |= 1u64 << rank;
        }
        x
    }

    /// [`Index::compressed_unrank`] of consecutive ranks of a sorted list (a
    /// propagation level's children): the thread's last unranked set of the same
    /// shape is the starting point when its rank is not larger. Colex digits
    /// are monotone in the rank, so while the higher digits agree each digit
    /// walks up from the last one's (mostly not at all); below the first digit
    /// that moved, the walk goes down as in `compressed_unrank`. The result is
    /// the same whatever the thread unranked before.
    #[inline]
    pub(super) fn compressed_unrank_sorted(&self, free: usize, count: usize, rank: u64) -> u64 {
        thread_local! {
            /// (free, count, rank, set) of the thread's last sorted unranking.
            static LAST: Cell<(usize, usize, u64, u64)> = const { Cell::new((0, 0, u64::MAX, 0)) };
        }
        let (lf, lc, lr, lx) = LAST.with(Cell::get);
        let x = if lf == free && lc == count && lr <= rank && count >= 1 {
            self.unrank_after(free, count, rank, lx)
        } else {
            self.compressed_unrank(free, count, rank)
        };
        LAST.with(|c| c.set((free, count, rank, x)));
        x
    }

    /// The set of rank `rank` from `prev`, a set of the same shape whose rank is
    /// not larger (see [`Index::compressed_unrank_sorted`]).
    fn unrank_after(&self, free: usize, count: usize, mut rank: u64, prev: u64) -> u64 {
        let binom = &self.binom;
        let mut x = 0u64;
        let mut hi = free;
        let mut same = true;
        let mut px = prev;
        for k in (2..=count).rev() {
            let pd = 63 - px.leading_zeros() as usize;
            px &= !(1u64 << pd);
            let mut c;
            if same {
                c = pd;
                while c + 1 < hi && binom[c + 1][k] <= rank {
                    c += 1;
                }
                same = c == pd;
            } else {
                c = hi - 1;
                while c >= 8 && binom[c - 8][k] > rank {
                    c -= 8;
                }
                while binom[c][k] > rank {
                    c -= 1;
                }
            }
            rank -= binom[c][k];
            x |= 1u64 << c;
            hi = c;
        }
        x | 1u64 << rank
    }

    /// The class of a hunter set, its canonical mask, and the symmetries that map
    /// the set onto that mask ([`HunterSets::lookup`]).
    #[inline]
    pub(super) fn canonical(&self, hunters: u64) -> (u32, u64, &[u8]) {
        let sets = &self.sets[hunters.count_ones() as usize];
        let (class, start, len) = sets.lookup[self.prey_rank(0, hunters) as usize];
        let syms = &sets.to_canon[start as usize..(start + len) as usize];
        (class, sets.masks[class as usize], syms)
    }

    pub(super) fn rank(&self, pos: &HuntPos) -> u64 {
        self.rank_stab(pos).0
    }

    /// The rank and the order of the position's stabiliser (symmetries fixing it).
    ///
    /// The symmetries that map the hunter set onto its canonical mask form a
    /// coset of the hunter set's stabiliser; those among them that also give
    /// the smallest prey rank form a coset of the position's stabiliser, so
    /// counting them gives its order.
    #[inline]
    pub(super) fn rank_stab(&self, pos: &HuntPos) -> (u64, u32) {
        self.rank_stab_with(pos, |s| self.map(s as usize, pos.prey))
    }

    /// [`Index::rank_stab`] with the prey's image under symmetry `s` from
    /// `prey_image(s)` (a caller ranking several positions with the same prey
    /// maps it once per symmetry).
    #[inline]
    pub(super) fn rank_stab_with(
        &self,
        pos: &HuntPos,
        mut prey_image: impl FnMut(u8) -> u64,
    ) -> (u64, u32) {
        let h = pos.hunters.count_ones() as usize;
        let p = pos.prey.count_ones() as usize;
        let (class, best_h, syms) = self.canonical(pos.hunters);
        let mut best_p = u64::MAX;
        let mut stab = 0;
        for &s in syms {
            let r = self.prey_rank(best_h, prey_image(s));
            if r < best_p {
                best_p = r;
                stab = 1;
            } else if r == best_p {
                stab += 1;
            }
        }
        let per = self.binom[self.n - h][p];
        (
            (class as u64 * per + best_p) * 2 + (!pos.hunter_to_move) as u64,
            stab,
        )
    }
}

/// `prey` compressed onto the points free of `hunters` (disjoint sets): the hunter
/// points are squeezed out, highest first, so lower positions stay put.
#[inline]
pub(super) fn squeeze(prey: u64, hunters: u64) -> u64 {
    let mut x = prey;
    let mut h = hunters;
    while h != 0 {
        let q = 63 - h.leading_zeros();
        h &= !(1u64 << q);
        let low = (1u64 << q) - 1;
        x = (x & low) | ((x >> 1) & !low);
    }
    x
}

/// A compressed prey mask with one member lifted off (see [`Index::lift`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Lifted {
    /// The mask, the lifted member still in it.
    pub(super) x: u64,
    /// The mask's rank less the lifted member's term.
    pub(super) r: u64,
    /// The lifted member's place among the free points.
    pub(super) a: u32,
    /// Its place (1-based) in the mask's order.
    pub(super) ia: usize,
}

/// The inverse of [`squeeze`]: `x`, a set of places among the points free of
/// `hunters`, as points of the board (a gap opened at each hunter point, lowest
/// first, so the higher ones are found at their board position).
#[inline]
pub(super) fn spread(mut x: u64, hunters: u64) -> u64 {
    let mut h = hunters;
    while h != 0 {
        let q = h.trailing_zeros();
        h &= h - 1;
        let low = (1u64 << q) - 1;
        x = (x & low) | ((x & !low) << 1);
    }
    x
}

/// `mask` (a subset of the points `free`, listed in increasing order) as a mask
/// over the positions in that list.
pub(super) fn compress(mask: u64, free: &[u8]) -> u64 {
    free.iter()
        .enumerate()
        .filter(|(_, &q)| mask >> q & 1 == 1)
        .fold(0, |acc, (i, _)| acc | 1u64 << i)
}

/// Calls `f` with every `k`-subset of `0..n` as a bit mask.
pub(super) fn for_each_subset(n: usize, k: usize, f: &mut dyn FnMut(u64)) {
    pub(super) fn rec(start: usize, n: usize, k: usize, acc: u64, f: &mut dyn FnMut(u64)) {
        if k == 0 {
            f(acc);
            return;
        }
        for i in start..=n - k {
            rec(i + 1, n, k - 1, acc | 1u64 << i, f);
        }
    }
    if k <= n {
        rec(0, n, k, 0, f);
    }
}

pub(super) fn with_index<R>(game: &HuntGame, f: impl FnOnce(&Index) -> R) -> R {
    thread_local! {
        static LOCAL: cache::Local<u64, Index> = const { RefCell::new(None) };
    }
    static GLOBAL: cache::Global<u64, Index> = OnceLock::new();
    cache::with_cached(
        &LOCAL,
        &GLOBAL,
        game.fingerprint(),
        || Index::build(game),
        f,
    )
}
