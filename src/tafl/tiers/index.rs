//! The tafl index (module docs of [`super`]): the canonical king classes, the
//! colex ranks of the attacker and defender sets, the stabiliser's smallest
//! rank, built once per rule set ([`with_index`]).

use crate::tafl::{CornerAccess, TaflGame, TaflPos, TaflRules};
use crate::tier::binomial;
use crate::tier::cache;
use std::cell::RefCell;
use std::sync::OnceLock;

/// Most men of one side an index handles (tafl layouts have at most 24).
pub(crate) const MAX_MEN: usize = 48;

/// One canonical king cell.
#[derive(Debug)]
pub(super) struct KingClass {
    /// The king's cell.
    pub(super) cell: u8,
    /// Cells free for men with the king here (`M` minus the king).
    pub(super) free: u128,
    /// `|free|`.
    pub(super) nfree: usize,
    /// The cells of `free` in increasing order (local index → cell).
    pub(super) cells: Vec<u8>,
    /// Symmetries other than the identity fixing the king cell.
    pub(super) stab: Vec<u8>,
    /// `loc[c]`: the cells of `free` below cell `c` (`c`'s local index when in `free`).
    pub(super) loc: [u8; 128],
}

/// Precomputed ranking data of one rule set.
#[derive(Debug)]
pub(super) struct Index {
    /// `sym[s][c]`: image of cell `c` under symmetry `s`.
    pub(super) sym: Vec<Vec<u8>>,
    /// Symmetry 0 is the identity (it is, on every board; checked, not assumed).
    pub(super) id0: bool,
    /// Canonical king classes in increasing cell order.
    pub(super) classes: Vec<KingClass>,
    /// Per cell: (king class of its canonical image, symmetries mapping it there).
    pub(super) canon: Vec<(usize, Vec<u8>)>,
    /// `binom[n][k]` for `n <= 128`, `k <=` [`MAX_MEN`]: rows of fixed length,
    /// one load a lookup (a `Vec` of `Vec`s cost a dependent load and a bounds
    /// check more, and ranking is mostly these lookups).
    pub(super) binom: Vec<[u64; MAX_MEN + 1]>,
    /// First slot (without the side bit) of each king class's block, per
    /// material: `offsets[(a · (MAX_MEN + 1) + d) · (classes + 1) + class]`, the
    /// entry for `class = classes.len()` being the tier's total. Precomputed
    /// because summing the lower blocks on every rank showed up in profiles.
    pub(super) offsets: Vec<u64>,
}

impl Index {
    pub(super) fn build(game: &TaflGame) -> Index {
        let geo = game.geometry();
        let men = men_cells(game);
        let sym = geo.sym.clone();
        let mut classes = Vec::new();
        let mut class_of_cell = vec![usize::MAX; geo.cells];
        for c in 0..geo.cells {
            if (0..sym.len()).all(|s| sym[s][c] as usize >= c) {
                let free = men & !(1u128 << c);
                class_of_cell[c] = classes.len();
                classes.push(KingClass {
                    cell: c as u8,
                    free,
                    nfree: free.count_ones() as usize,
                    cells: (0..128u8).filter(|&q| free >> q & 1 != 0).collect(),
                    stab: (1..sym.len())
                        .filter(|&s| sym[s][c] as usize == c)
                        .map(|s| s as u8)
                        .collect(),
                    loc: std::array::from_fn(|q| (free & ((1u128 << q) - 1)).count_ones() as u8),
                });
            }
        }
        let canon = (0..geo.cells)
            .map(|c| {
                let best = (0..sym.len()).map(|s| sym[s][c]).min().unwrap_or(c as u8);
                let via = (0..sym.len())
                    .filter(|&s| sym[s][c] == best)
                    .map(|s| s as u8)
                    .collect();
                (class_of_cell[best as usize], via)
            })
            .collect();
        let binom = (0..=128u64)
            .map(|a| std::array::from_fn(|b| binomial(a, b as u64)))
            .collect();
        let id0 = sym
            .first()
            .is_some_and(|p| p.iter().enumerate().all(|(c, &x)| x as usize == c));
        let mut idx = Index {
            id0,
            sym,
            classes,
            canon,
            binom,
            offsets: Vec::new(),
        };
        let k = idx.classes.len();
        let mut offsets = Vec::with_capacity((MAX_MEN + 1) * (MAX_MEN + 1) * (k + 1));
        for a in 0..=MAX_MEN {
            for d in 0..=MAX_MEN {
                let mut sum = 0;
                for c in 0..k {
                    offsets.push(sum);
                    // Saturating: materials far beyond any solvable tier overflow u64.
                    sum = idx.block(c, a, d).saturating_add(sum);
                }
                offsets.push(sum);
            }
        }
        idx.offsets = offsets;
        idx
    }

    #[inline]
    pub(super) fn map(&self, s: usize, mut bits: u128) -> u128 {
        let perm = &self.sym[s];
        let mut out = 0u128;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= 1u128 << perm[c];
        }
        out
    }

    /// Slots of one king class's block (without the side bit).
    #[inline]
    pub(super) fn block(&self, class: usize, a: usize, d: usize) -> u64 {
        let f = self.classes[class].nfree;
        if a + d > f {
            return 0;
        }
        self.binom[f][a].saturating_mul(self.binom[f - a][d])
    }

    /// First slot (without the side bit) of a king class's block; with
    /// `class == classes.len()`, the number of slots of the tier (without the side bit).
    #[inline]
    pub(super) fn offset(&self, class: usize, a: usize, d: usize) -> u64 {
        self.offsets[(a * (MAX_MEN + 1) + d) * (self.classes.len() + 1) + class]
    }

    /// Colex rank of `set` among the cells of `free`.
    #[inline]
    pub(super) fn set_rank(&self, free: u128, set: u128) -> u64 {
        let mut r = 0;
        let mut k = 1;
        let mut m = set;
        while m != 0 {
            let q = m.trailing_zeros();
            m &= m - 1;
            let local = (free & ((1u128 << q) - 1)).count_ones() as usize;
            r += self.binom[local][k];
            k += 1;
        }
        r
    }

    /// The `count`-subset of `0..n` with colex rank `rank`, written to
    /// `out[..count]` in increasing order.
    #[inline]
    pub(super) fn local_unrank(&self, n: usize, count: usize, mut rank: u64, out: &mut [u8]) {
        // The chosen indices decrease with k: each is searched below the last.
        let mut hi = n;
        for k in (1..=count).rev() {
            // Largest c < hi with C(c, k) <= rank, by bisection (a board has up
            // to 120 cells, a downward walk cost one step a cell): c = k - 1
            // always qualifies (C(k-1, k) = 0), and C(c, k) grows with c.
            let mut lo = k - 1;
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if self.binom[mid][k] <= rank {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            rank -= self.binom[lo][k];
            out[k - 1] = lo as u8;
            hi = lo;
        }
    }

    /// The attacker and defender sets of king class `kc` with ranks `att_rank`
    /// (among the class's free cells) and `def_rank` (among those left).
    pub(super) fn sets_unrank(
        &self,
        kc: &KingClass,
        a: usize,
        d: usize,
        att_rank: u64,
        def_rank: u64,
    ) -> (u128, u128) {
        let mut att_local = [0u8; MAX_MEN];
        let mut def_local = [0u8; MAX_MEN];
        self.local_unrank(kc.nfree, a, att_rank, &mut att_local);
        self.local_unrank(kc.nfree - a, d, def_rank, &mut def_local);
        let mut att = 0u128;
        for &l in &att_local[..a] {
            att |= 1u128 << kc.cells[l as usize];
        }
        let mut def = 0u128;
        for &j in &def_local[..d] {
            // The j-th free cell without attackers: skip the attackers' local
            // indices at or below it (they are in increasing order).
            let mut i = j as usize;
            for &l in &att_local[..a] {
                if l as usize <= i {
                    i += 1;
                }
            }
            def |= 1u128 << kc.cells[i];
        }
        (att, def)
    }

    /// For men `(att, def)` with the king on the canonical cell of `kc`: the
    /// order of the position's stabiliser when they are their smallest image
    /// under the cell's symmetries (the position is its slot's
    /// representative, as [`Index::rank_stab`] would find), `None` when some
    /// symmetry gives a smaller one. Maps the defenders only under the
    /// symmetries that fix the attackers, and ranks nothing.
    #[inline]
    pub(super) fn canonical_stab(&self, kc: &KingClass, att: u128, def: u128) -> Option<u32> {
        let mut stab = 1;
        for &s in &kc.stab {
            let a = self.map(s as usize, att);
            if a == att {
                let d = self.map(s as usize, def);
                if d < def {
                    return None;
                }
                stab += u32::from(d == def);
            } else if a < att {
                return None;
            }
        }
        Some(stab)
    }

    /// Index of a position with its king on board.
    #[inline]
    pub(super) fn rank(&self, pos: &TaflPos) -> u64 {
        self.rank_stab(pos).0
    }

    /// Index of a position with its king on board, and the order of the
    /// position's stabiliser (the symmetries mapping it onto itself).
    ///
    /// The symmetries in `via` (those mapping the king's cell to its canonical
    /// cell) form a coset of the canonical cell's stabiliser; the ones among
    /// them giving the smallest rank all map the position onto the same
    /// canonical representative, so they form a coset of the position's
    /// stabiliser and counting them gives its order.
    #[inline]
    pub(super) fn rank_stab(&self, pos: &TaflPos) -> (u64, u32) {
        self.rank_stab_with(pos, |s| {
            (
                self.map(s as usize, pos.attackers),
                self.map(s as usize, pos.defenders),
            )
        })
    }

    /// [`Index::rank_stab`] with `image(s)` the images of the attackers and
    /// the defenders under symmetry `s` (for a symmetry other than the
    /// identity): the caller may have them at hand.
    #[inline]
    pub(super) fn rank_stab_with(
        &self,
        pos: &TaflPos,
        mut image: impl FnMut(u8) -> (u128, u128),
    ) -> (u64, u32) {
        let (class, via) = &self.canon[pos.king as usize];
        let kc = &self.classes[*class];
        let a = pos.attackers.count_ones() as usize;
        let d = pos.defenders.count_ones() as usize;
        let per_def = self.binom[kc.nfree - a.min(kc.nfree)][d];
        // Same-size subsets of one set of cells are in colex order exactly when
        // their bit masks are in numeric order, so the image of smallest rank is
        // the one with the smallest (attackers, defenders) masks, and only that
        // one is ranked.
        let mut best = (u128::MAX, u128::MAX);
        let mut stab = 0;
        for &s in via {
            let image = if s == 0 && self.id0 {
                (pos.attackers, pos.defenders)
            } else {
                image(s)
            };
            if image < best {
                best = image;
                stab = 1;
            } else if image == best {
                stab += 1;
            }
        }
        let (att, def) = best;
        let r = self.set_rank(kc.free, att) * per_def + self.set_rank(kc.free & !att, def);
        (
            (self.offset(*class, a, d) + r) * 2 + (!pos.attackers_to_move) as u64,
            stab,
        )
    }
}

/// The index of `game`'s rules, built once per rule set. Keyed by the rules
/// value itself (a cheap comparison), not the fingerprint, which formats the
/// rules string on every call and dominated rank/unrank time.
pub(super) fn with_index<R>(game: &TaflGame, f: impl FnOnce(&Index) -> R) -> R {
    thread_local! {
        static LOCAL: cache::Local<TaflRules, Index> = const { RefCell::new(None) };
    }
    static GLOBAL: cache::Global<TaflRules, Index> = OnceLock::new();
    cache::with_cached(&LOCAL, &GLOBAL, *game.rules(), || Index::build(game), f)
}

/// Cells a man may stand on under these rules.
pub(crate) fn men_cells(game: &TaflGame) -> u128 {
    let geo = game.geometry();
    let mut forbid = geo.throne_bit;
    if game.rules().corner_access == CornerAccess::KingOnly {
        forbid |= geo.corners;
    }
    geo.all & !forbid
}
