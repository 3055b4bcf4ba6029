//! A slot's position from the index and its predecessors' ranks: tafl's
//! enumerations for the solver's propagation (`slot_pred_ranks`,
//! `slot_pred_edges`, `pred_ranks` in [`TierGame`]).
//!
//! Most un-moves slide a man back: the king stays, so the king class and the
//! symmetries that map the king's cell to its canonical cell stay too, and
//! each image of the predecessor is the child's image with one cell moved. Its
//! colex ranks then follow from the child's ranks with a term for each end of
//! the slide and one for each man the slide passes in the order
//! ([`step`], [`shift`]), instead of mapping and ranking every man again.

use super::{Index, TaflTier};
use crate::tafl::geometry::NONE;
use crate::tafl::{TaflGame, TaflMove, TaflPos};
use crate::tier::TierGame;

/// `BELOW[q]`: the cells below cell `q` (a load is cheaper than a 128-bit
/// variable shift, and ranking steps take several of these per un-move).
const BELOW: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut q = 0;
    while q < 128 {
        t[q] = (1u128 << q) - 1;
        q += 1;
    }
    t
};

/// The cells of `m` below cell `q`.
#[inline]
fn below(m: u128, q: u8) -> u128 {
    m & BELOW[q as usize & 127]
}

/// The colex rank of `x & !(1 << a) | 1 << b` among the cells of a set from
/// the rank `r` of `x` (which holds `a` and not `b`; all three are in the
/// set), `loc(q)` being the cells of the set below `q`. The members between
/// `a` and `b` move one place in the order, the others keep theirs.
#[inline]
fn step(idx: &Index, loc: impl Fn(u8) -> usize, x: u128, r: u64, a: u8, b: u8) -> u64 {
    let place = |m: u128, q: u8| below(m, q).count_ones() as usize + 1;
    let x0 = x & !(1u128 << a);
    let mut r = r
        .wrapping_sub(idx.binom[loc(a)][place(x, a)])
        .wrapping_add(idx.binom[loc(b)][place(x0, b)]);
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut between = x0 & !below(x0, lo) & below(x0, hi);
    while between != 0 {
        let c = between.trailing_zeros() as u8;
        between &= between - 1;
        let (l, k) = (loc(c), place(x, c));
        let k_new = if a < b { k - 1 } else { k + 1 };
        r = r
            .wrapping_sub(idx.binom[l][k])
            .wrapping_add(idx.binom[l][k_new]);
    }
    r
}

/// The colex rank of the defenders `def` among `free & !(att & !(1 << a) | 1 << b)`
/// from their rank `r` among `free & !att` (an attacker sliding from `a` to
/// `b`): each defender between the two cells has one more free cell below it
/// (`a < b`) or one fewer, and keeps its place among the defenders.
#[inline]
fn shift(idx: &Index, loc: &[u8; 128], att: u128, def: u128, r: u64, a: u8, b: u8) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut between = def & !below(def, lo) & below(def, hi);
    let mut r = r;
    while between != 0 {
        let c = between.trailing_zeros() as u8;
        between &= between - 1;
        let l = loc[c as usize] as usize - below(att, c).count_ones() as usize;
        let l_new = if a < b { l + 1 } else { l - 1 };
        let k = below(def, c).count_ones() as usize + 1;
        r = r
            .wrapping_sub(idx.binom[l][k])
            .wrapping_add(idx.binom[l_new][k]);
    }
    r
}

/// One image of the child under a symmetry mapping its king to the canonical cell.
#[derive(Clone, Copy, Default)]
struct Image<'a> {
    /// The symmetry's cell map.
    perm: &'a [u8],
    /// The attackers' and defenders' images.
    att: u128,
    def: u128,
    /// Their colex ranks: the attackers among the class's free cells, the
    /// defenders among those without attackers.
    att_rank: u64,
    def_rank: u64,
}

/// The child's images under the king cell's canonical symmetries, ranked once
/// for all the predecessors that slide a man back.
struct Child<'a> {
    class: usize,
    images: [Image<'a>; 8],
    n: usize,
    /// First slot of the predecessors' block (without the side bit) and the
    /// number of defender sets per attacker set.
    offset: u64,
    per_def: u64,
    /// The predecessors' side-to-move bit.
    side: u64,
}

impl<'a> Child<'a> {
    /// `None` when the king's cell has more canonical symmetries than an
    /// image array holds (no square board has).
    fn new(idx: &'a Index, pos: &TaflPos) -> Option<Child<'a>> {
        let (class, via) = &idx.canon[pos.king as usize];
        if via.len() > 8 {
            return None;
        }
        let kc = &idx.classes[*class];
        let a = pos.attackers.count_ones() as usize;
        let d = pos.defenders.count_ones() as usize;
        let mut images = [Image::default(); 8];
        for (img, &s) in images.iter_mut().zip(via) {
            let (att, def) = if s == 0 && idx.id0 {
                (pos.attackers, pos.defenders)
            } else {
                (
                    idx.map(s as usize, pos.attackers),
                    idx.map(s as usize, pos.defenders),
                )
            };
            *img = Image {
                perm: &idx.sym[s as usize],
                att,
                def,
                att_rank: idx.set_rank(kc.free, att),
                def_rank: idx.set_rank(kc.free & !att, def),
            };
        }
        Some(Child {
            class: *class,
            images,
            n: via.len(),
            offset: idx.offset(*class, a, d),
            per_def: idx.binom[kc.nfree - a.min(kc.nfree)][d],
            // The predecessors have the other side to move: `!pred.attackers_to_move`.
            side: pos.attackers_to_move as u64,
        })
    }

    /// The rank and stabiliser order of the predecessor whose man of the side
    /// that moved (`attackers`) stands on `from` instead of the child's `to`.
    #[inline]
    fn rank(&self, idx: &Index, attackers: bool, to: u8, from: u8) -> (u64, u32) {
        let moved = |img: &Image| {
            let (a, b) = (img.perm[to as usize], img.perm[from as usize]);
            let flip = 1u128 << a | 1u128 << b;
            if attackers {
                (img.att ^ flip, img.def)
            } else {
                (img.att, img.def ^ flip)
            }
        };
        let (mut best, mut stab) = (0, 1);
        if self.n > 1 {
            // The king on a line of symmetry: the smallest image, and how many give it.
            let mut best_image = moved(&self.images[0]);
            for (i, img) in self.images[..self.n].iter().enumerate().skip(1) {
                let image = moved(img);
                if image < best_image {
                    (best, best_image, stab) = (i, image, 1);
                } else if image == best_image {
                    stab += 1;
                }
            }
        }
        let img = &self.images[best];
        let loc = &idx.classes[self.class].loc;
        let (a, b) = (img.perm[to as usize], img.perm[from as usize]);
        let (att_rank, def_rank) = if attackers {
            (
                step(
                    idx,
                    |q| loc[q as usize] as usize,
                    img.att,
                    img.att_rank,
                    a,
                    b,
                ),
                shift(idx, loc, img.att, img.def, img.def_rank, a, b),
            )
        } else {
            // The defenders' set: the free cells without attackers.
            let loc = |q: u8| loc[q as usize] as usize - below(img.att, q).count_ones() as usize;
            (img.att_rank, step(idx, loc, img.def, img.def_rank, a, b))
        };
        let r = self.offset + att_rank * self.per_def + def_rank;
        (r * 2 + self.side, stab)
    }
}

impl TaflGame {
    /// The position in slot `index` of tier `t` (a tier with the king on
    /// board) and its stabiliser order, with the index at hand; `None` for a
    /// slot that holds no position.
    ///
    /// With `hashed` false the position's Zobrist hash is left at 0 (the
    /// solver's sweeps and predecessor ranks never read it).
    pub(super) fn unrank_in(
        &self,
        idx: &Index,
        t: TaflTier,
        index: u64,
        hashed: bool,
    ) -> Option<(TaflPos, u32)> {
        if t.king_captured {
            return None;
        }
        let (a, d) = (t.attackers as usize, t.defenders as usize);
        let slot = index >> 1;
        let k = idx.classes.len();
        if slot >= idx.offset(k, a, d) {
            return None;
        }
        // The last class whose block starts at or before `slot` (empty blocks share starts).
        let class = (0..k).rev().find(|&c| idx.offset(c, a, d) <= slot)?;
        let rest = slot - idx.offset(class, a, d);
        let kc = &idx.classes[class];
        let per_def = idx.binom[kc.nfree - a][d];
        let (att, def) = idx.sets_unrank(kc, a, d, rest / per_def, rest % per_def);
        let pos = if hashed {
            self.make_pos(att, def, kc.cell, index & 1 == 0)
        } else {
            TaflPos {
                attackers: att,
                defenders: def,
                king: kc.cell,
                attackers_to_move: index & 1 == 0,
                hash: 0,
            }
        };
        if kc.stab.is_empty() {
            return Some((pos, 1));
        }
        if idx.id0 {
            let stab = idx.canonical_stab(kc, att, def);
            debug_assert_eq!(
                stab,
                Some(idx.rank_stab(&pos)).and_then(|(r, s)| (r == index).then_some(s))
            );
            return stab.map(|s| (pos, s));
        }
        let (r, stab) = idx.rank_stab(&pos);
        (r == index).then_some((pos, stab))
    }

    /// [`TierGame::pred_ranks`] with the index at hand: `push(rank, order)` per
    /// in-tier un-move of `pos`, a man's un-move ranked from the child's ranks
    /// ([`Child::rank`]), the king's ranked whole.
    pub(super) fn pred_ranks_in(
        &self,
        idx: &Index,
        tier: TaflTier,
        pos: &TaflPos,
        push: &mut impl FnMut(u64, u32),
    ) {
        // Un-moves keep the material: they lie in `pos`'s tier.
        if pos.king == NONE || tier.king_captured || self.tier_of(pos) != tier {
            return;
        }
        let attackers = !pos.attackers_to_move;
        let mut child: Option<Option<Child>> = None;
        // A king's un-move keeps the men: each symmetry maps them once, when first needed.
        let mut images = [None; 8];
        let mut image = |s: u8| {
            let map = || {
                (
                    idx.map(s as usize, pos.attackers),
                    idx.map(s as usize, pos.defenders),
                )
            };
            match images.get_mut(s as usize) {
                Some(cell) => *cell.get_or_insert_with(map),
                None => map(),
            }
        };
        // Whether a slide captures depends on the board after it and the cell
        // moved to (`slide_captures`): once per piece of the child, not per un-move.
        let mut captures: (u8, bool) = (NONE, false);
        let mut men_decided = None;
        let quiet = |pred: &TaflPos, mv: TaflMove| {
            if !self.built_slide_legal(pred, mv, &mut men_decided) {
                return false;
            }
            if captures.0 != mv.to {
                captures = (mv.to, self.slide_captures(pred, mv));
            }
            debug_assert_eq!(captures.1, self.slide_captures(pred, mv));
            !captures.1
        };
        self.for_each_unmove(pos, quiet, |pred, to, from| {
            let men = (to != pos.king)
                .then(|| child.get_or_insert_with(|| Child::new(idx, pos)).as_ref())
                .flatten();
            let (r, stab) = match men {
                Some(c) => c.rank(idx, attackers, to, from),
                None if to == pos.king => idx.rank_stab_with(pred, &mut image),
                None => idx.rank_stab(pred),
            };
            debug_assert_eq!((r, stab), idx.rank_stab(pred));
            push(r, stab);
        });
    }
}
