//! Hunt games as a [`TierGame`].
//!
//! **Tiers.** A tier is (hunters in hand, prey in hand, prey captured), named
//! `h<hunters in hand>p<prey in hand>c<captured>`. Drops and captures change the
//! tier; steps (and the prey's pass) stay inside. Tiers in which the hunters
//! have already won by count (H11) are leaves.
//!
//! **Index** (scheme version [`crate::retro::driver::INDEX_VERSION`]). With `H`
//! hunters and `P` prey on a board of `n` points:
//! `index = (hunter_class · C(n−H, P) + prey_rank) · 2 + side`, where
//! - `hunter_class` numbers the hunter sets that are the smallest image (as a
//!   bit mask) of their orbit under the board's symmetry group, in increasing
//!   mask order (as chess tablebases place the king first);
//! - `prey_rank` is the combinatorial-number-system (colex) rank of the prey
//!   set among the `n − H` points free of hunters, in increasing point order;
//!   when the hunter set is fixed by some non-identity symmetries, the
//!   smallest rank over those symmetries is used, so the index is canonical
//!   for the whole position;
//! - `side` is 0 with the hunters to move, 1 with the prey to move.
//!
//! Slots whose prey set is not the smallest image under the hunter set's
//! stabiliser are empty ([`TierGame::unrank`] returns `None`).

use super::cache;
use super::scope::{binomial, tier_closure, Scope, Solvable};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::hunt::{HuntGame, HuntMove, HuntPos, HunterWin, MoveKind, PreyNoMoves};
use crate::tier::TierGame;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A hunt tier: pieces in hand and prey captured (the side to move is inside the tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HuntTier {
    /// Hunters still in hand.
    pub hunters_in_hand: u8,
    /// Prey still in hand.
    pub prey_in_hand: u8,
    /// Prey captured.
    pub captured: u8,
}

/// Canonical hunter sets for one number of hunters on board.
#[derive(Debug)]
struct HunterSets {
    /// Canonical masks in increasing order.
    masks: Vec<u64>,
    /// Per class: symmetries (other than the identity) fixing the set.
    stabiliser: Vec<Vec<u8>>,
    /// Indexed by the colex rank of *any* hunter set of this size among all
    /// points: its class and the range of `to_canon` listing the symmetries
    /// that map it onto the class's canonical mask. Precomputed so that
    /// [`Index::rank`] maps the prey only under those few symmetries instead
    /// of mapping the hunters under every symmetry twice.
    lookup: Vec<(u32, u32, u32)>,
    /// Symmetry numbers referenced by `lookup`.
    to_canon: Vec<u8>,
}

/// Precomputed ranking data of one board and hunter count.
#[derive(Debug)]
struct Index {
    n: usize,
    /// `table[s][chunk][byte]`: image under symmetry `s` of `byte` at bit offset `8·chunk`.
    table: Vec<[[u64; 256]; 8]>,
    /// `binom[a][b]` = C(a, b), a flat array: one load per lookup (a `Vec` of
    /// `Vec`s cost a second, dependent load in the unranking loop).
    binom: Box<[[u64; 65]; 65]>,
    /// Colex rank by chunks of [`CHUNK_BITS`] bits: entry `(c · 2^CHUNK_BITS + bits) ·
    /// (n + 1) + below` is the rank contribution of chunk `c` holding `bits` when
    /// `below` members lie in lower chunks. Turns the per-member loop of
    /// [`Index::prey_rank`] (the hottest code of solve and verify under `perf`) into
    /// one lookup per chunk.
    chunk_rank: Vec<u64>,
    /// Indexed by the number of hunters on board.
    sets: Vec<HunterSets>,
    /// `point[s][q]`: the image of point `q` under symmetry `s`.
    point: Vec<[u8; 64]>,
}

/// Width of the chunks of [`Index::chunk_rank`].
const CHUNK_BITS: usize = 6;

impl Index {
    fn build(game: &HuntGame) -> Index {
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
    fn map(&self, s: usize, mask: u64) -> u64 {
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
    fn prey_rank(&self, hunters: u64, prey: u64) -> u64 {
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
    fn compressed_rank(&self, mut x: u64) -> u64 {
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
    fn step_rank(&self, x: u64, r: u64, a: u32, b: u32) -> u64 {
        self.step_to(&self.lift(x, r, a), b)
    }

    /// The part of [`Index::step_rank`] that does not depend on the target:
    /// `a`'s place in `x` and the rank without `a`'s term.
    #[inline]
    fn lift(&self, x: u64, r: u64, a: u32) -> Lifted {
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
    fn step_to(&self, l: &Lifted, b: u32) -> u64 {
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
    fn prey_rank_plain(&self, hunters: u64, prey: u64) -> u64 {
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
    fn all(&self) -> u64 {
        if self.n >= 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }

    /// The prey set of colex rank `rank` with `count` prey among the points not in `hunters`.
    fn prey_unrank(&self, hunters: u64, count: usize, mut rank: u64) -> u64 {
        // Colex digits decrease: the k-th is the largest c below the (k+1)-th with
        // C(c, k) <= rank, so one downward walk over the free points finds them
        // all (by 8 first, then one by one), in places among the free points,
        // spread onto the board at the end.
        let mut x = 0u64;
        let mut c = self.n - hunters.count_ones() as usize;
        for k in (1..=count).rev() {
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
        spread(x, hunters)
    }

    fn rank(&self, pos: &HuntPos) -> u64 {
        self.rank_stab(pos).0
    }

    /// The rank and the order of the position's stabiliser (symmetries fixing it).
    ///
    /// The symmetries that map the hunter set onto its canonical mask form a
    /// coset of the hunter set's stabiliser; those among them that also give
    /// the smallest prey rank form a coset of the position's stabiliser, so
    /// counting them gives its order.
    #[inline]
    fn rank_stab(&self, pos: &HuntPos) -> (u64, u32) {
        let h = pos.hunters.count_ones() as usize;
        let p = pos.prey.count_ones() as usize;
        let sets = &self.sets[h];
        let (class, start, len) = sets.lookup[self.prey_rank(0, pos.hunters) as usize];
        let best_h = sets.masks[class as usize];
        let mut best_p = u64::MAX;
        let mut stab = 0;
        for &s in &sets.to_canon[start as usize..(start + len) as usize] {
            let r = self.prey_rank(best_h, self.map(s as usize, pos.prey));
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
fn squeeze(prey: u64, hunters: u64) -> u64 {
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
struct Lifted {
    /// The mask, the lifted member still in it.
    x: u64,
    /// The mask's rank less the lifted member's term.
    r: u64,
    /// The lifted member's place among the free points.
    a: u32,
    /// Its place (1-based) in the mask's order.
    ia: usize,
}

/// The inverse of [`squeeze`]: `x`, a set of places among the points free of
/// `hunters`, as points of the board (a gap opened at each hunter point, lowest
/// first, so the higher ones are found at their board position).
#[inline]
fn spread(mut x: u64, hunters: u64) -> u64 {
    let mut h = hunters;
    while h != 0 {
        let q = h.trailing_zeros();
        h &= h - 1;
        let low = (1u64 << q) - 1;
        x = (x & low) | ((x & !low) << 1);
    }
    x
}

/// The number of distinct values of `image(s)` for `s` in `0..n` (the images of a
/// position under a board's few symmetries: a quadratic scan beats hashing, and up
/// to 16 images stay on the stack, as verify asks this for every stored class).
pub(crate) fn distinct_images<T: Copy + Default + PartialEq>(
    n: usize,
    image: impl Fn(usize) -> T,
) -> u64 {
    let count = |items: &[T]| {
        (0..items.len())
            .filter(|&i| !items[..i].contains(&items[i]))
            .count() as u64
    };
    let mut buf = [T::default(); 16];
    if n <= buf.len() {
        for (s, slot) in buf[..n].iter_mut().enumerate() {
            *slot = image(s);
        }
        count(&buf[..n])
    } else {
        count(&(0..n).map(image).collect::<Vec<T>>())
    }
}

/// `mask` (a subset of the points `free`, listed in increasing order) as a mask
/// over the positions in that list.
fn compress(mask: u64, free: &[u8]) -> u64 {
    free.iter()
        .enumerate()
        .filter(|(_, &q)| mask >> q & 1 == 1)
        .fold(0, |acc, (i, _)| acc | 1u64 << i)
}

/// Calls `f` with every `k`-subset of `0..n` as a bit mask.
fn for_each_subset(n: usize, k: usize, f: &mut dyn FnMut(u64)) {
    fn rec(start: usize, n: usize, k: usize, acc: u64, f: &mut dyn FnMut(u64)) {
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

fn with_index<R>(game: &HuntGame, f: impl FnOnce(&Index) -> R) -> R {
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

/// Pieces on board in a tier: (hunters, prey), or `None` if the counts are impossible.
fn on_board(game: &HuntGame, t: HuntTier) -> Option<(usize, usize)> {
    let r = game.rules();
    let h = (r.hunters as i32) - t.hunters_in_hand as i32;
    let p = r.prey as i32 - t.prey_in_hand as i32 - t.captured as i32;
    let n = game.board().len() as i32;
    (h >= 0 && p >= 0 && h + p <= n).then_some((h as usize, p as usize))
}

/// Whether every position of the tier is already won by the hunters (H11).
fn tier_is_won(game: &HuntGame, t: HuntTier) -> bool {
    let Some((_, p)) = on_board(game, t) else {
        return true;
    };
    let prey = if p >= 64 { u64::MAX } else { (1u64 << p) - 1 };
    let probe = HuntPos {
        hunters: 0,
        prey,
        hunters_in_hand: t.hunters_in_hand,
        prey_in_hand: t.prey_in_hand,
        captured: t.captured,
        hunter_to_move: true,
        hash: 0,
    };
    game.hunters_have_won(&probe)
}

/// Whether, in tier `t` with the hunters (`hunter_to_move`) or the prey to move,
/// the side that moved last had no in-tier move at all: it still had pieces in
/// hand and must drop them before moving (H4), so it dropped (a move from
/// another tier) and no un-move of this tier leads here. Equally: with the other
/// side to move, that side has no in-tier move (every move of it is a drop).
/// Passes are the one exception kept conservative: a prey that may pass is never
/// ruled out.
fn last_mover_only_drops(game: &HuntGame, t: HuntTier, hunter_to_move: bool) -> bool {
    let rules = game.rules();
    if hunter_to_move {
        t.prey_in_hand > 0 && rules.drop_before_move.1 && rules.prey_no_moves != PreyNoMoves::Pass
    } else {
        t.hunters_in_hand > 0 && rules.drop_before_move.0
    }
}

impl TierGame for HuntGame {
    type Tier = HuntTier;

    fn tier_of(&self, pos: &HuntPos) -> HuntTier {
        HuntTier {
            hunters_in_hand: pos.hunters_in_hand,
            prey_in_hand: pos.prey_in_hand,
            captured: pos.captured,
        }
    }

    fn tier_name(&self, t: HuntTier) -> String {
        format!("h{}p{}c{}", t.hunters_in_hand, t.prey_in_hand, t.captured)
    }

    fn parse_tier(&self, name: &str) -> Result<HuntTier> {
        let bad = || Error::Input(format!("'{name}' is not a hunt tier name (e.g. h0p3c1)"));
        let rest = name.strip_prefix('h').ok_or_else(bad)?;
        let (h, rest) = rest.split_once('p').ok_or_else(bad)?;
        let (p, c) = rest.split_once('c').ok_or_else(bad)?;
        let num = |s: &str| s.parse::<u8>().map_err(|_| bad());
        let t = HuntTier {
            hunters_in_hand: num(h)?,
            prey_in_hand: num(p)?,
            captured: num(c)?,
        };
        if on_board(self, t).is_none() {
            return Err(Error::Input(format!(
                "tier '{name}' has impossible piece counts for {}",
                self.rules_string()
            )));
        }
        Ok(t)
    }

    fn tier_children(&self, t: HuntTier) -> Vec<HuntTier> {
        if tier_is_won(self, t) {
            return Vec::new();
        }
        let Some((_, p)) = on_board(self, t) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if t.hunters_in_hand > 0 {
            out.push(HuntTier {
                hunters_in_hand: t.hunters_in_hand - 1,
                ..t
            });
        }
        if t.prey_in_hand > 0 {
            out.push(HuntTier {
                prey_in_hand: t.prey_in_hand - 1,
                ..t
            });
        }
        let most = match self.rules().chain {
            crate::hunt::Chain::None => p.min(1),
            _ => p,
        };
        for k in 1..=most {
            out.push(HuntTier {
                captured: t.captured + k as u8,
                ..t
            });
        }
        out.retain(|&c| on_board(self, c).is_some());
        out
    }

    fn tier_is_terminal(&self, t: HuntTier) -> bool {
        tier_is_won(self, t)
    }

    fn tier_size(&self, t: HuntTier) -> u64 {
        let Some((h, p)) = on_board(self, t) else {
            return 0;
        };
        with_index(self, |idx| {
            // Saturating: a plan refuses a tier this large (`driver::plan`).
            (idx.sets[h].masks.len() as u64)
                .saturating_mul(idx.binom[idx.n - h][p])
                .saturating_mul(2)
        })
    }

    fn rank(&self, _t: HuntTier, pos: &HuntPos) -> u64 {
        with_index(self, |idx| idx.rank(pos))
    }

    fn rank_orbit(&self, _t: HuntTier, pos: &HuntPos) -> (u64, Option<u32>) {
        let (r, stab) = with_index(self, |idx| idx.rank_stab(pos));
        (r, Some(stab))
    }

    /// Distinct images of the piece sets under the board's symmetries
    /// ([`crate::board::Board::map_mask`]; the ranking tables are not used).
    fn orbit_size(&self, pos: &HuntPos) -> Option<u64> {
        let board = self.board();
        Some(distinct_images(board.symmetries.len(), |s| {
            (board.map_mask(s, pos.hunters), board.map_mask(s, pos.prey))
        }))
    }

    fn unrank(&self, t: HuntTier, index: u64) -> Option<HuntPos> {
        let (h, p) = on_board(self, t)?;
        with_index(self, |idx| {
            let side = index & 1;
            let rest = index >> 1;
            let per = idx.binom[idx.n - h][p];
            let (class, prank) = (rest / per, rest % per);
            let sets = &idx.sets[h];
            let hunters = *sets.masks.get(class as usize)?;
            let prey = idx.prey_unrank(hunters, p, prank);
            let pos = self.make_pos(
                hunters,
                prey,
                t.hunters_in_hand,
                t.prey_in_hand,
                t.captured,
                side == 0,
            );
            if !sets.stabiliser[class as usize].is_empty() && idx.rank(&pos) != index {
                return None;
            }
            Some(pos)
        })
    }

    /// A representative whose hunter set no symmetry but the identity fixes (on
    /// these boards, most) has a trivial stabiliser: nothing to rank.
    fn unrank_orbit(&self, t: HuntTier, index: u64) -> Option<(HuntPos, Option<u32>)> {
        let pos = self.unrank(t, index)?;
        let (h, p) = on_board(self, t)?;
        let stab = with_index(self, |idx| {
            let sets = &idx.sets[h];
            let class = (index >> 1) / idx.binom[idx.n - h][p];
            if sets.stabiliser[class as usize].is_empty() {
                1
            } else {
                idx.rank_stab(&pos).1
            }
        });
        Some((pos, Some(stab)))
    }

    fn may_have_unmoves(&self, t: HuntTier, index: u64) -> bool {
        // Slot parity is the side to move (see the index); the last mover is the other.
        !last_mover_only_drops(self, t, index & 1 == 0)
    }

    fn may_have_inner_moves(&self, t: HuntTier, index: u64) -> bool {
        // The side to move of this slot is the last mover of the other slot of the pair.
        !last_mover_only_drops(self, t, index & 1 == 1)
    }

    /// Steps and the pass stay in the tier, captures leave it; a side with a
    /// piece in hand takes the general path.
    fn count_inner_moves(
        &self,
        _t: HuntTier,
        pos: &HuntPos,
        exits: &mut Vec<HuntMove>,
    ) -> Option<u32> {
        self.steps_and_captures(pos, exits)
    }

    fn tier_has_moveless_slots(&self, t: HuntTier) -> bool {
        last_mover_only_drops(self, t, true) || last_mover_only_drops(self, t, false)
    }

    /// Un-steps whose legality needs at most a jump test (see
    /// [`TierGame::unmoves`] here) are ranked without building positions: an un-step of the prey keeps the
    /// hunter set, so its class and canonical symmetries are looked up once and
    /// the prey set is mapped and compressed once per such symmetry, each
    /// predecessor then being that mask with one compressed point moved (as in
    /// `child_indices`); an un-step of a hunter is ranked whole. Every other
    /// case takes the general path (un-moves, then their ranks).
    fn pred_ranks(
        &self,
        tier: HuntTier,
        pos: &HuntPos,
        buf: &mut Vec<HuntPos>,
        out: &mut Vec<(u64, Option<u32>)>,
    ) {
        out.clear();
        let t = self.tier_of(pos);
        if last_mover_only_drops(self, t, pos.hunter_to_move) || self.hunters_have_won(pos) {
            return;
        }
        let rules = self.rules();
        let hunter_moved = !pos.hunter_to_move;
        // With compulsory captures a hunter step is legal exactly when no jump is
        // (checked per predecessor below, without generating its moves).
        let always_legal = if hunter_moved {
            !(pos.hunters_in_hand > 0 && rules.drop_before_move.0)
        } else {
            !(pos.prey_in_hand > 0 && rules.drop_before_move.1)
                && rules.prey_no_moves != PreyNoMoves::Pass
        };
        let general = |buf: &mut Vec<HuntPos>, out: &mut Vec<(u64, Option<u32>)>| {
            self.unmoves(pos, buf);
            out.extend(
                buf.iter()
                    .filter(|p| self.tier_of(p) == tier)
                    .map(|p| self.rank_orbit(tier, p)),
            );
        };
        if !always_legal || t != tier {
            return general(buf, out);
        }
        let board = self.board();
        let empty = board.all_mask() & !(pos.hunters | pos.prey);
        with_index(self, |idx| {
            if hunter_moved {
                let mut m = pos.hunters;
                while m != 0 {
                    let to = m.trailing_zeros();
                    m &= m - 1;
                    let mut from = board.neighbours[to as usize] & empty;
                    while from != 0 {
                        let s = from.trailing_zeros();
                        from &= from - 1;
                        let pred = HuntPos {
                            hunters: pos.hunters & !(1u64 << to) | 1u64 << s,
                            hunter_to_move: true,
                            hash: 0,
                            ..*pos
                        };
                        if rules.capture_compulsory && self.hunter_can_capture(&pred) {
                            continue;
                        }
                        let (r, stab) = idx.rank_stab(&pred);
                        out.push((r, Some(stab)));
                    }
                }
                return;
            }
            let h = pos.hunters.count_ones() as usize;
            let p = pos.prey.count_ones() as usize;
            let sets = &idx.sets[h];
            let (class, start, len) = sets.lookup[idx.prey_rank(0, pos.hunters) as usize];
            let best_h = sets.masks[class as usize];
            let syms = &sets.to_canon[start as usize..(start + len) as usize];
            let mut images = [(0u8, 0u64, 0u64); 16];
            if syms.len() > images.len() {
                return general(buf, out);
            }
            for (k, &s) in syms.iter().enumerate() {
                let x = squeeze(idx.map(s as usize, pos.prey), best_h);
                images[k] = (s, x, idx.compressed_rank(x));
            }
            let images = &images[..syms.len()];
            // A point's place among the points free of hunters in image `s`.
            let at = |s: u8, q: u32| {
                let y = idx.point[s as usize][q as usize] as u32;
                y - (best_h & ((1u64 << y) - 1)).count_ones()
            };
            let base = class as u64 * idx.binom[idx.n - h][p];
            let mut lifted = [Lifted::default(); 16];
            let mut m = pos.prey;
            while m != 0 {
                let to = m.trailing_zeros();
                m &= m - 1;
                let mut from = board.neighbours[to as usize] & empty;
                if from == 0 {
                    continue;
                }
                for (l, &(sym, x, r0)) in lifted.iter_mut().zip(images) {
                    *l = idx.lift(x, r0, at(sym, to));
                }
                let lifted = &lifted[..images.len()];
                while from != 0 {
                    let s = from.trailing_zeros();
                    from &= from - 1;
                    let (mut best, mut stab) = (u64::MAX, 0u32);
                    for (l, &(sym, _, _)) in lifted.iter().zip(images) {
                        let r = idx.step_to(l, at(sym, s));
                        if r < best {
                            (best, stab) = (r, 1);
                        } else if r == best {
                            stab += 1;
                        }
                    }
                    // The predecessor has the prey to move: side bit 1.
                    out.push(((base + best) * 2 + 1, Some(stab)));
                }
            }
        })
    }

    /// Consecutive slots share their pieces pairwise (the side is the low bit), and
    /// consecutive prey ranks are consecutive in colex order, which is the numeric
    /// order of the prey mask compressed onto the points free of hunters: the next
    /// prey set is the next larger number with as many bits (Gosper's rule),
    /// spread back onto the free points. Only the first slot of each hunter class
    /// is unranked; the stabiliser check of symmetric classes is as in `unrank`.
    fn for_each_slot(
        &self,
        t: HuntTier,
        range: std::ops::Range<u64>,
        want: &dyn Fn(u64) -> bool,
        f: &mut dyn FnMut(u64, &HuntPos) -> Result<()>,
    ) -> Result<()> {
        let Some((h, p)) = on_board(self, t) else {
            return Ok(());
        };
        let end = range.end.min(self.tier_size(t));
        with_index(self, |idx| {
            let per = idx.binom[idx.n - h][p];
            let sets = &idx.sets[h];
            // The current pair: (class, prey rank) and its compressed prey mask.
            let mut state: Option<(u64, u64, u64)> = None;
            let mut free = [0u8; 64];
            let mut nfree;
            let mut pair = range.start >> 1;
            while pair * 2 < end {
                let (class, prank) = (pair / per, pair % per);
                let Some(&hunters) = sets.masks.get(class as usize) else {
                    break;
                };
                let x = match state {
                    Some((c, r, x)) if c == class && r + 1 == prank => {
                        // Gosper: the next larger mask with the same number of bits.
                        let low = x & x.wrapping_neg();
                        let ripple = x + low;
                        (((ripple ^ x) >> 2) / low) | ripple
                    }
                    _ => {
                        nfree = 0;
                        let mut fm = idx.all() & !hunters;
                        while fm != 0 {
                            free[nfree] = fm.trailing_zeros() as u8;
                            fm &= fm - 1;
                            nfree += 1;
                        }
                        compress(idx.prey_unrank(hunters, p, prank), &free[..nfree])
                    }
                };
                state = Some((class, prank, x));
                let mut prey = 0u64;
                let mut m = x;
                while m != 0 {
                    prey |= 1u64 << free[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                let symmetric = !sets.stabiliser[class as usize].is_empty();
                for side in 0..2u64 {
                    let index = pair * 2 + side;
                    if index < range.start || index >= end || !want(index) {
                        continue;
                    }
                    let pos = self.make_pos(
                        hunters,
                        prey,
                        t.hunters_in_hand,
                        t.prey_in_hand,
                        t.captured,
                        side == 0,
                    );
                    if symmetric && idx.rank(&pos) != index {
                        continue;
                    }
                    f(index, &pos)?;
                }
                pair += 1;
            }
            Ok(())
        })
    }

    /// With the prey to move, a drop or a step changes one or two prey points
    /// under the same hunter set: the hunter class and the symmetries that make it
    /// canonical are looked up once, the prey set is mapped and compressed once per
    /// such symmetry, and each child's prey rank is that compressed mask with the
    /// moved point's compressed image set (and the start cleared). Other moves are
    /// played and ranked.
    fn child_indices(
        &self,
        t: HuntTier,
        pos: &HuntPos,
        moves: &[HuntMove],
        inner: bool,
        out: &mut Vec<(HuntTier, u64)>,
    ) {
        out.clear();
        let general = |m: HuntMove, out: &mut Vec<(HuntTier, u64)>| {
            let child = self.play(pos, m);
            let ct = self.tier_of(&child);
            let index = if ct == t && !inner {
                0
            } else {
                with_index(self, |idx| idx.rank(&child))
            };
            out.push((ct, index));
        };
        if !inner
            && moves
                .iter()
                .all(|m| matches!(m.kind, MoveKind::Step | MoveKind::Pass))
        {
            // Every child is in the tier and only counted (a movement tier's common case).
            out.extend(moves.iter().map(|_| (t, 0)));
            return;
        }
        if pos.hunter_to_move {
            for &m in moves {
                match m.kind {
                    MoveKind::Step if !inner => out.push((t, 0)),
                    _ => general(m, out),
                }
            }
            return;
        }
        with_index(self, |idx| {
            let h = pos.hunters.count_ones() as usize;
            let p = pos.prey.count_ones() as usize;
            let sets = &idx.sets[h];
            let (class, start, len) = sets.lookup[idx.prey_rank(0, pos.hunters) as usize];
            let best_h = sets.masks[class as usize];
            let syms = &sets.to_canon[start as usize..(start + len) as usize];
            let mut images = [(0u8, 0u64); 16];
            if syms.len() > images.len() {
                for &m in moves {
                    general(m, out);
                }
                return;
            }
            for (k, &s) in syms.iter().enumerate() {
                images[k] = (s, squeeze(idx.map(s as usize, pos.prey), best_h));
            }
            let images = &images[..syms.len()];
            // Compressed position of the image of point `q` under `s`.
            let at = |s: u8, q: u8| {
                let y = idx.point[s as usize][q as usize] as u32;
                1u64 << (y - (best_h & ((1u64 << y) - 1)).count_ones())
            };
            let best = |f: &dyn Fn(u8, u64) -> u64| {
                images
                    .iter()
                    .map(|&(s, x)| idx.compressed_rank(f(s, x)))
                    .min()
                    .unwrap_or(0)
            };
            for &m in moves {
                match m.kind {
                    MoveKind::Drop => {
                        let ct = HuntTier {
                            prey_in_hand: t.prey_in_hand - 1,
                            ..t
                        };
                        let r = best(&|s, x| x | at(s, m.to));
                        let per = idx.binom[idx.n - h][p + 1];
                        out.push((ct, (class as u64 * per + r) * 2));
                    }
                    MoveKind::Step if !inner => out.push((t, 0)),
                    MoveKind::Step => {
                        let r = best(&|s, x| x & !at(s, m.from) | at(s, m.to));
                        let per = idx.binom[idx.n - h][p];
                        out.push((t, (class as u64 * per + r) * 2));
                    }
                    _ => general(m, out),
                }
            }
        })
    }

    fn unmoves(&self, pos: &HuntPos, out: &mut Vec<HuntPos>) {
        out.clear();
        if last_mover_only_drops(self, self.tier_of(pos), pos.hunter_to_move) {
            return;
        }
        let board = self.board();
        let empty = board.all_mask() & !(pos.hunters | pos.prey);
        let hunter_moved = !pos.hunter_to_move;
        let pieces = if hunter_moved { pos.hunters } else { pos.prey };
        let mut moves: Vec<HuntMove> = Vec::new();
        // A step can only be illegal in the predecessor when the game is over
        // there (same piece counts as `pos`), when drops must come first, or
        // when a capture is compulsory. Outside those cases every geometric
        // un-step is a legal step and regenerating the predecessor's moves
        // (the costliest part of un-move generation) is skipped.
        let rules = self.rules();
        if self.hunters_have_won(pos) {
            return;
        }
        let always_legal = if hunter_moved {
            !(rules.capture_compulsory || pos.hunters_in_hand > 0 && rules.drop_before_move.0)
        } else {
            !(pos.prey_in_hand > 0 && rules.drop_before_move.1)
        };
        let mut m = pieces;
        while m != 0 {
            let t = m.trailing_zeros() as u8;
            m &= m - 1;
            let mut from = board.neighbours[t as usize] & empty;
            while from != 0 {
                let s = from.trailing_zeros() as u8;
                from &= from - 1;
                let moved = |b: u64| b & !(1u64 << t) | 1u64 << s;
                let (h, p) = if hunter_moved {
                    (moved(pos.hunters), pos.prey)
                } else {
                    (pos.hunters, moved(pos.prey))
                };
                let pred = self.make_pos(
                    h,
                    p,
                    pos.hunters_in_hand,
                    pos.prey_in_hand,
                    pos.captured,
                    hunter_moved,
                );
                if always_legal {
                    out.push(pred);
                    continue;
                }
                // Keep it only if the step is legal there (drops first, compulsory capture...).
                self.legal_moves(&pred, &mut moves);
                if moves
                    .iter()
                    .any(|mv| mv.kind == MoveKind::Step && mv.from == s && mv.to == t)
                {
                    out.push(pred);
                }
            }
        }
        if !hunter_moved && self.rules().prey_no_moves == PreyNoMoves::Pass {
            let pred = HuntPos {
                hunter_to_move: false,
                ..*pos
            };
            let pred = self.make_pos(
                pred.hunters,
                pred.prey,
                pred.hunters_in_hand,
                pred.prey_in_hand,
                pred.captured,
                false,
            );
            self.legal_moves(&pred, &mut moves);
            if moves.iter().any(|mv| mv.kind == MoveKind::Pass) {
                out.push(pred);
            }
        }
    }
}

impl Solvable for HuntGame {
    fn scope_tiers(&self, scope: &Scope) -> Result<Vec<HuntTier>> {
        let r = self.rules();
        let cap = match r.hunter_win {
            HunterWin::Captures(n) => (n as u32).min(r.prey as u32),
            HunterWin::Static => r.prey as u32,
        };
        let movement = |max_on_board: u32| -> Vec<HuntTier> {
            (0..=cap)
                .map(|c| HuntTier {
                    hunters_in_hand: 0,
                    prey_in_hand: 0,
                    captured: c as u8,
                })
                .filter(|&t| on_board(self, t).is_some_and(|(_, p)| p as u32 <= max_on_board))
                .collect()
        };
        let roots =
            match scope {
                Scope::Whole => vec![self.tier_of(&self.start())],
                Scope::Movement => movement(u32::MAX),
                Scope::MaxPrey(n) => movement(*n),
                Scope::MaxInHand(n) => {
                    // Never more in hand than at the start (Bagh-Chal's tigers start on board).
                    let start = self.start();
                    let mut roots = Vec::new();
                    for hh in 0..=start.hunters_in_hand as u32 {
                        for ph in 0..=start.prey_in_hand as u32 {
                            if hh + ph > *n {
                                continue;
                            }
                            for c in 0..=cap {
                                let t = HuntTier {
                                    hunters_in_hand: hh as u8,
                                    prey_in_hand: ph as u8,
                                    captured: c as u8,
                                };
                                if on_board(self, t).is_some() {
                                    roots.push(t);
                                }
                            }
                        }
                    }
                    roots
                }
                Scope::Material { .. } => return Err(Error::Input(
                    "scope 'material' is for tafl; hunt games take whole, movement, max-prey=N or max-in-hand=N"
                        .into(),
                )),
            };
        Ok(tier_closure(self, &roots))
    }

    /// `Index::build`: per hunter count h, a lookup entry (12 bytes) and up to one
    /// symmetry byte for each of the C(n, h) hunter sets, plus a mask (8 bytes) and
    /// a stabiliser list (24 bytes and its symmetries) per class, bounded by C(n, h).
    fn index_bytes(&self) -> Option<u64> {
        let n = self.board().len() as u64;
        let syms = self.board().symmetries.len() as u64;
        let per_set = 12 + syms + 8 + 24 + syms;
        (0..=self.rules().hunters as u64).try_fold(0u64, |acc, h| {
            acc.checked_add(binomial(n, h).checked_mul(per_set)?)
        })
    }

    /// Measured on this machine (2 cores, x86-64, one thread): movement tiers
    /// of the seed boards about 6.4 M slots per CPU second (`solve
    /// cows-leopards-mogol --max-prey 6`: 760 M slots, 125 CPU-s; 5 M taken).
    /// A tier with pieces in hand costs per slot about a + b·d, where d is the
    /// mean number of drops a position has (the empty points, for the side or
    /// sides with pieces in hand: each drop's child is ranked in another tier),
    /// and twice b for a hunter's drop (a new hunter set is canonicalised
    /// again): a = 0.023 µs, b = 0.066 µs, fitted to the whole Bagh-Chal game
    /// (34.9 G slots in about 4 CPU-hours, about 6 drops a position) and
    /// `cows-leopards-mogol,prey=5`'s h0p1c0 (0.96 M slots/s, 15.5 drops); it
    /// predicts that game's h1p0c0 at 0.49 M (measured 0.54 M) and h1p1c0 at
    /// 0.32 M (0.45 M). The flat 2.4 M used before made the whole
    /// `cows-leopards-mogol,prey=7` look like 20 CPU-minutes; its placement
    /// tiers ran at 0.3-1 M slots/s.
    fn core_rate(&self, tier: HuntTier) -> f64 {
        let Some((h, p)) = on_board(self, tier).filter(|_| self.tier_has_moveless_slots(tier))
        else {
            return 5e6;
        };
        let empty = self.board().len().saturating_sub(h + p) as f64;
        // Each side is to move in half the slots.
        let drops = |in_hand: u8, weight: f64| {
            if in_hand > 0 {
                weight * empty / 2.0
            } else {
                0.0
            }
        };
        let weighted = drops(tier.hunters_in_hand, 2.0) + drops(tier.prey_in_hand, 1.0);
        let micros = 0.023 + 0.066 * weighted;
        (1e6 / micros).min(5e6)
    }

    fn tier_placements(&self, t: HuntTier) -> u64 {
        match on_board(self, t) {
            Some((h, p)) => {
                let n = self.board().len() as u64;
                binomial(n, h as u64)
                    .saturating_mul(binomial(n - h as u64, p as u64))
                    .saturating_mul(2)
            }
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    #[test]
    fn rank_unrank_round_trip_and_classes() {
        for spec in [
            "kaooa",
            "kaooa-6",
            "bagh-chal,prey=3,hunter_win=captures>=2",
        ] {
            let g = crate::hunt::from_spec(spec).unwrap();
            let tiers = g.scope_tiers(&Scope::Movement).unwrap();
            let syms = g.board().symmetries.len();
            for t in tiers.into_iter().take(3) {
                let mut classes = 0u64;
                let mut orbit_total = 0u64;
                for i in 0..g.tier_size(t) {
                    if let Some(p) = g.unrank(t, i) {
                        classes += 1;
                        assert_eq!(g.rank(t, &p), i, "{spec} {}", g.format_position(&p));
                        assert_eq!(g.tier_of(&p), t);
                        // Every image ranks to the same slot.
                        let mut orbit = std::collections::HashSet::new();
                        for s in 0..syms {
                            let q = g.map_pos(s, &p);
                            assert_eq!(g.rank(t, &q), i);
                            orbit.insert((q.hunters, q.prey));
                        }
                        orbit_total += orbit.len() as u64;
                    }
                }
                // The orbits of the classes cover every placement exactly once.
                assert_eq!(
                    orbit_total,
                    g.tier_placements(t),
                    "{spec} {}",
                    g.tier_name(t)
                );
                assert!(classes > 0);
            }
        }
    }

    #[test]
    fn chunked_prey_rank_equals_the_definition() {
        for spec in [
            "bagh-chal",
            "diviyan-keliya",
            "cows-leopards-mogol",
            "kaooa",
        ] {
            let g = crate::hunt::from_spec(spec).unwrap();
            let idx = shared(&g);
            let n = g.board().len();
            let mut rng = crate::random::Rng::new(5);
            for _ in 0..20_000 {
                let mut hunters = 0u64;
                for _ in 0..rng.below(5) {
                    hunters |= 1u64 << rng.below(n);
                }
                let mut prey = 0u64;
                for _ in 0..rng.below(n + 1) {
                    prey |= 1u64 << rng.below(n);
                }
                prey &= !hunters;
                assert_eq!(
                    idx.prey_rank(hunters, prey),
                    idx.prey_rank_plain(hunters, prey),
                    "{spec} {hunters:x} {prey:x}"
                );
                let count = prey.count_ones() as usize;
                assert_eq!(
                    idx.prey_unrank(hunters, count, idx.prey_rank(hunters, prey)),
                    prey,
                    "unrank {spec} {hunters:x} {prey:x}"
                );
            }
        }
    }

    /// The incremental rank of one piece's step equals ranking the new mask.
    #[test]
    fn step_rank_equals_ranking_the_stepped_mask() {
        for spec in ["cows-leopards-peralikatuma", "cows-leopards-mogol", "kaooa"] {
            let g = crate::hunt::from_spec(spec).unwrap();
            let idx = shared(&g);
            let n = g.board().len();
            let mut rng = crate::random::Rng::new(9);
            for _ in 0..20_000 {
                let mut x = 0u64;
                for _ in 0..rng.below(n) {
                    x |= 1u64 << rng.below(n);
                }
                let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
                x = (x | 1u64 << a) & !(1u64 << b);
                if a == b {
                    continue;
                }
                let stepped = x & !(1u64 << a) | 1u64 << b;
                assert_eq!(
                    idx.step_rank(x, idx.compressed_rank(x), a, b),
                    idx.compressed_rank(stepped),
                    "{spec} {x:x} {a} -> {b}"
                );
            }
        }
    }

    /// The batched child ranking equals playing each move and ranking the child.
    #[test]
    fn child_indices_equal_play_and_rank() {
        for (spec, scope) in [
            ("bagh-chal", Scope::MaxInHand(2)),
            ("kaooa", Scope::Whole),
            ("diviyan-keliya", Scope::MaxPrey(3)),
            ("bagh-chal,hunters=2,hunter_start=hand,prey=5", Scope::Whole),
        ] {
            let g = crate::hunt::from_spec(spec).unwrap();
            let mut rng = crate::random::Rng::new(11);
            let (mut moves, mut got) = (Vec::new(), Vec::new());
            let mut checked = 0;
            for t in g.scope_tiers(&scope).unwrap() {
                let size = g.tier_size(t);
                for _ in 0..300 {
                    let Some(p) = g.unrank(t, rng.below(size as usize) as u64) else {
                        continue;
                    };
                    g.legal_moves(&p, &mut moves);
                    for inner in [true, false] {
                        g.child_indices(t, &p, &moves, inner, &mut got);
                        assert_eq!(got.len(), moves.len());
                        for (&m, &(ct, r)) in moves.iter().zip(&got) {
                            let c = g.play(&p, m);
                            assert_eq!(ct, g.tier_of(&c), "{spec}");
                            if inner || ct != t {
                                assert_eq!(r, g.rank(ct, &c), "{spec} {}", g.format_position(&p));
                                checked += 1;
                            }
                        }
                    }
                }
            }
            assert!(checked > 1000, "{spec}: {checked}");
        }
    }

    fn shared(g: &HuntGame) -> std::sync::Arc<Index> {
        std::sync::Arc::new(Index::build(g))
    }

    #[test]
    fn tier_names_round_trip() {
        let g = crate::hunt::from_spec("kaooa").unwrap();
        let t = g.tier_of(&g.start());
        assert_eq!(g.parse_tier(&g.tier_name(t)).unwrap(), t);
        assert!(g.parse_tier("h9p9c9").is_err());
        assert!(g.parse_tier("x").is_err());
    }

    #[test]
    fn drops_make_a_tier_slower_in_the_time_estimate() {
        let g = crate::hunt::from_spec("cows-leopards-mogol,prey=5").unwrap();
        let tier = |h, p, c| HuntTier {
            hunters_in_hand: h,
            prey_in_hand: p,
            captured: c,
        };
        let movement = g.core_rate(tier(0, 0, 0));
        let prey_drops = g.core_rate(tier(0, 1, 0));
        let hunter_drops = g.core_rate(tier(1, 0, 0));
        let both = g.core_rate(tier(1, 1, 0));
        assert!(movement > prey_drops && prey_drops > hunter_drops && hunter_drops > both);
        // Near the rates measured on this game's tiers (0.96 M and 0.54 M slots/s).
        assert!((0.5e6..2e6).contains(&prey_drops), "{prey_drops}");
        assert!((0.25e6..1e6).contains(&hunter_drops), "{hunter_drops}");
    }
}
