//! The tier vocabulary shared by the retrograde solver ([`crate::retro`]) and the table layer
//! ([`crate::table`]): the [`TierGame`] interface and the record encoding. It sits with the
//! game traits, below both, so that neither imports the other to speak of tiers.
//!
//! A game is split into *tiers*: sets of positions closed under the moves that
//! do not change the tier (steps), while moves that change it (drops, captures)
//! lead to tiers solved earlier (its children). Inside a tier every position
//! has a dense index `0..tier_size`, reduced by the board's symmetries: `rank`
//! maps any position to the index of its symmetry class, `unrank` gives a
//! representative position for an index (or `None` for slots that are not a
//! canonical, well-formed position).

pub(crate) mod cache;

use crate::error::Result;
use crate::game::{Notation, Value};
use std::fmt::Debug;
use std::hash::Hash;

/// A game that can be solved tier by tier.
pub trait TierGame: Notation {
    /// A tier: e.g. (hunters in hand, prey in hand, prey captured) for hunt games.
    type Tier: Copy + Eq + Ord + Hash + Debug + Send + Sync;

    /// The tier of a position.
    fn tier_of(&self, pos: &Self::Pos) -> Self::Tier;
    /// Short, file-name-safe tier name (e.g. `h0p3c2`), parsed back by [`TierGame::parse_tier`].
    fn tier_name(&self, tier: Self::Tier) -> String;
    /// Parses a tier name.
    fn parse_tier(&self, name: &str) -> Result<Self::Tier>;
    /// Tiers reachable in one move that leaves `tier` (must be solved first).
    fn tier_children(&self, tier: Self::Tier) -> Vec<Self::Tier>;
    /// Whether every position of `tier` is terminal ([`Game::outcome`](crate::game::Game::outcome) is `Some`),
    /// e.g. a hunt tier in which the hunters have already captured enough. Such a
    /// tier is never solved nor stored: the value of each of its positions is its
    /// outcome at distance 0, which the solver, the verifier and queries read from
    /// [`Game::outcome`](crate::game::Game::outcome) directly. Default: `false`.
    fn tier_is_terminal(&self, _tier: Self::Tier) -> bool {
        false
    }
    /// The value, for its side to move, of the child that move `m` of `pos` leads to,
    /// when that child lies in terminal tier `child_tier` and the game knows the
    /// value without playing the move (every position of the tier has the same
    /// outcome for a given side to move, say). Default: `None` (the solvers play the
    /// move and read the child's outcome).
    fn terminal_child_value(
        &self,
        _pos: &Self::Pos,
        _m: Self::Move,
        _child_tier: Self::Tier,
    ) -> Option<crate::game::Value> {
        None
    }
    /// The children of `tier` that are stored as tables (the non-terminal ones).
    fn stored_children(&self, tier: Self::Tier) -> Vec<Self::Tier> {
        let mut out = self.tier_children(tier);
        out.retain(|&c| !self.tier_is_terminal(c));
        out
    }
    /// Number of index slots of the tier.
    fn tier_size(&self, tier: Self::Tier) -> u64;
    /// Index of the symmetry class of `pos` (which must lie in `tier`).
    fn rank(&self, tier: Self::Tier, pos: &Self::Pos) -> u64;
    /// [`TierGame::rank`] together with the order of the position's stabiliser
    /// (the number of board symmetries that map it onto itself), if known.
    ///
    /// With `Some`, the solver counts the in-tier moves from a predecessor class
    /// `q` into a class `c` as `u · |Stab(q)| / |Stab(c)|`, where `u` is the
    /// number of un-moves of `c`'s representative that land in class `q`,
    /// instead of regenerating the moves of `q`'s representative. That holds
    /// when [`TierGame::unmoves`] returns every (predecessor, move) pair exactly
    /// once and distinct moves of a position lead to distinct positions; an
    /// implementation returns `Some` only then. Default: `None` (the solver
    /// regenerates moves, which is always exact).
    fn rank_orbit(&self, tier: Self::Tier, pos: &Self::Pos) -> (u64, Option<u32>) {
        (self.rank(tier, pos), None)
    }
    /// The number of distinct positions among the images of `pos` under the
    /// board's symmetries (its orbit): how many placements its class stands for.
    /// Computed from the board's symmetry maps, not from [`TierGame::rank`], so
    /// that verification can check that the stored classes of a tier cover its
    /// placements exactly once (a rank collision drops a class, a non-canonical
    /// duplicate adds one). `None` when the game does not say; then that check is
    /// skipped. Default: `None`.
    fn orbit_size(&self, _pos: &Self::Pos) -> Option<u64> {
        None
    }
    /// A representative position of slot `index`, or `None` if the slot holds no
    /// canonical, well-formed position.
    fn unrank(&self, tier: Self::Tier, index: u64) -> Option<Self::Pos>;
    /// [`TierGame::unrank`] with the order of the representative's stabiliser, as
    /// [`TierGame::rank_orbit`] gives it. A game may know it from the index
    /// alone. Default: `unrank`, then `rank_orbit`.
    fn unrank_orbit(&self, tier: Self::Tier, index: u64) -> Option<(Self::Pos, Option<u32>)> {
        let pos = self.unrank(tier, index)?;
        let (_, stab) = self.rank_orbit(tier, &pos);
        Some((pos, stab))
    }
    /// Every position of the same tier from which one legal move leads to `pos`
    /// (duplicates allowed). Used by the solver instead of a reverse graph.
    fn unmoves(&self, pos: &Self::Pos, out: &mut Vec<Self::Pos>);
    /// Whether the position in slot `index` of `tier` may have in-tier
    /// predecessors (a non-empty [`TierGame::unmoves`]): a cheap test on the index
    /// alone. `false` must be certain; it lets the solver skip unranking decided
    /// slots that no position of the tier waits for (in a placement tier, every
    /// position whose last mover could only drop). Default: `true`.
    fn may_have_unmoves(&self, _tier: Self::Tier, _index: u64) -> bool {
        true
    }
    /// Whether some slot of `tier` fails [`TierGame::may_have_inner_moves`] (a
    /// placement tier, where one side must drop). `false` must be certain: the
    /// solver then skips the sweep of such slots and counts in-tier moves without
    /// ranking their children. Default: `true`.
    fn tier_has_moveless_slots(&self, _tier: Self::Tier) -> bool {
        true
    }
    /// The index and stabiliser order ([`TierGame::rank_orbit`]) of every
    /// in-tier predecessor of `pos` (which lies in `tier`): one entry per
    /// position [`TierGame::unmoves`] returns in `tier`, in any order. A game may
    /// rank the predecessors of one position faster together (they share most
    /// pieces). Default: [`TierGame::unmoves`] into `buf`, then
    /// [`TierGame::rank_orbit`] of each.
    fn pred_ranks(
        &self,
        tier: Self::Tier,
        pos: &Self::Pos,
        buf: &mut Vec<Self::Pos>,
        out: &mut Vec<(u64, Option<u32>)>,
    ) {
        out.clear();
        self.unmoves(pos, buf);
        for p in buf.iter() {
            if self.tier_of(p) == tier {
                out.push(self.rank_orbit(tier, p));
            }
        }
    }
    /// The stabiliser order of slot `index`'s representative ([`TierGame::unrank_orbit`])
    /// and its predecessors into `out` ([`TierGame::pred_ranks`]); `None` for a slot
    /// that holds no position. A game may share the work of the two (the slot's
    /// pieces are known from the index). Default: `unrank_orbit`, then `pred_ranks`.
    fn slot_pred_ranks(
        &self,
        tier: Self::Tier,
        index: u64,
        buf: &mut Vec<Self::Pos>,
        out: &mut Vec<(u64, Option<u32>)>,
    ) -> Option<Option<u32>> {
        out.clear();
        let (rep, stab) = self.unrank_orbit(tier, index)?;
        self.pred_ranks(tier, &rep, buf, out);
        Some(stab)
    }
    /// For a slot whose representative only the identity fixes, with every
    /// predecessor's stabiliser order known: appends `(rank, |Stab(q)|)` per
    /// in-tier un-move to `out` (the edges the child's decision removes from each
    /// predecessor's counter, see [`TierGame::rank_orbit`]) and returns `true`.
    /// Otherwise appends nothing and returns `false`, and the solver takes
    /// [`TierGame::slot_pred_ranks`]. A game may skip the intermediate list.
    /// Default: `false`.
    fn slot_pred_edges(
        &self,
        _tier: Self::Tier,
        _index: u64,
        _buf: &mut Vec<Self::Pos>,
        _out: &mut Vec<(u64, u16)>,
    ) -> bool {
        false
    }
    /// Whether the position in slot `index` of `tier` may have in-tier moves: a
    /// cheap test on the index alone. `false` must be certain (every legal move
    /// of the position leaves the tier, as when the side to move must drop); the
    /// solver then settles those slots first and lets the others read them
    /// instead of propagating them. Default: `true`.
    fn may_have_inner_moves(&self, _tier: Self::Tier, _index: u64) -> bool {
        true
    }
    /// The number of legal moves of `pos` (in `tier`) that stay in `tier`, with
    /// every other legal move in `exits`, when the game can count the first
    /// without listing them; `None` to have the solver list and classify every
    /// move. Default: `None`.
    fn count_inner_moves(
        &self,
        _tier: Self::Tier,
        _pos: &Self::Pos,
        _exits: &mut Vec<Self::Move>,
    ) -> Option<u32> {
        None
    }
    /// The tier and index of the child after each of `moves` (legal in `pos`, which
    /// lies in `tier`), in order, into `out`. With `inner` false, a child in `tier`
    /// itself gets index 0 (the solver only counts those), and a game may give a
    /// child in a terminal tier index 0 too (such tiers are not stored: the
    /// solvers read the child's outcome). A game may rank the
    /// children of one position faster together than one by one (they share most
    /// pieces). Default: [`Game::play`](crate::game::Game::play), [`TierGame::tier_of`],
    /// [`TierGame::rank`].
    fn child_indices(
        &self,
        tier: Self::Tier,
        pos: &Self::Pos,
        moves: &[Self::Move],
        inner: bool,
        out: &mut Vec<(Self::Tier, u64)>,
    ) {
        out.clear();
        for &m in moves {
            let child = self.play(pos, m);
            let ct = self.tier_of(&child);
            let index = if ct == tier && !inner {
                0
            } else {
                self.rank(ct, &child)
            };
            out.push((ct, index));
        }
    }
    /// Calls `f(index, position)` for every slot of `range` that `want` accepts
    /// (every slot without a `want`: a sweep over a whole range spares a call per
    /// slot) and that holds a position, in increasing index order, with the position
    /// [`TierGame::unrank`] gives, except that a game may leave its Zobrist hash
    /// ([`Game::hash`](crate::game::Game::hash)) unset: the sweeps rank positions
    /// by their pieces and never read it. A game may enumerate consecutive slots
    /// faster than it unranks them one by one (the solver's sweeps use this).
    /// Stops at the first error of `f`. Default: `unrank` each wanted index.
    fn for_each_slot(
        &self,
        tier: Self::Tier,
        range: std::ops::Range<u64>,
        want: Option<&dyn Fn(u64) -> bool>,
        f: &mut dyn FnMut(u64, &Self::Pos) -> Result<()>,
    ) -> Result<()> {
        for index in range {
            if want.is_none_or(|w| w(index)) {
                if let Some(pos) = self.unrank(tier, index) {
                    f(index, &pos)?;
                }
            }
        }
        Ok(())
    }
}

/// Version of the record encoding below, written into table headers.
pub const RECORD_ENCODING: u32 = 1;

/// Record of a slot that holds no position (non-canonical or malformed).
pub const REC_NONE: u16 = 0;
/// Record of a drawn position.
pub(crate) const REC_DRAW: u16 = 1;
/// Largest distance a record can hold.
pub(crate) const MAX_DISTANCE: u32 = (u16::MAX as u32 - 3) / 2;

/// Encodes a value and its distance in plies (win in d: `2 + 2d`, loss in d: `3 + 2d`).
pub fn encode(value: Value, distance: u32) -> u16 {
    debug_assert!(distance <= MAX_DISTANCE);
    match value {
        Value::Draw => REC_DRAW,
        Value::Win => (2 + 2 * distance) as u16,
        Value::Loss => (3 + 2 * distance) as u16,
    }
}

/// Decodes a record; `None` for [`REC_NONE`]. Draws have distance 0.
pub fn decode(record: u16) -> Option<(Value, u32)> {
    match record {
        REC_NONE => None,
        REC_DRAW => Some((Value::Draw, 0)),
        r => {
            let d = (r as u32 - 2) / 2;
            Some((if r % 2 == 0 { Value::Win } else { Value::Loss }, d))
        }
    }
}

/// Outcome counts over symmetry classes, values from the side to move's view:
/// the one shape of "how many won, lost, drawn" shared by the solver's tier
/// statistics, `summary.json`, sweeps and exact solutions (flattened into their
/// JSON, so the files keep their keys).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcomes {
    /// Classes holding a position (solved slots).
    pub classes: u64,
    /// Classes won by the side to move.
    pub wins: u64,
    /// Classes lost by the side to move.
    pub losses: u64,
    /// Drawn classes.
    pub draws: u64,
    /// Largest win or loss distance in plies (0 if none).
    pub max_distance: u32,
}

impl Outcomes {
    /// Counts one class of `value` at `distance` plies.
    pub(crate) fn add(&mut self, value: Value, distance: u32) {
        self.classes += 1;
        match value {
            Value::Win => self.wins += 1,
            Value::Loss => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
        if value != Value::Draw {
            self.max_distance = self.max_distance.max(distance);
        }
    }

    /// Adds the counts of `other` (sums, and the larger distance).
    pub(crate) fn merge(&mut self, other: &Outcomes) {
        self.classes += other.classes;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.max_distance = self.max_distance.max(other.max_distance);
    }

    /// The counts of the records of a solved tier ([`REC_NONE`] slots skipped).
    pub fn of_records(records: &[u16]) -> Outcomes {
        let mut o = Outcomes::default();
        for &r in records {
            if let Some((v, d)) = decode(r) {
                o.add(v, d);
            }
        }
        o
    }
}

impl<'a> std::iter::Sum<&'a Outcomes> for Outcomes {
    fn sum<I: Iterator<Item = &'a Outcomes>>(iter: I) -> Outcomes {
        let mut o = Outcomes::default();
        for x in iter {
            o.merge(x);
        }
        o
    }
}

/// Binomial coefficient C(n, k) (0 when k > n; saturates at `u64::MAX`).
pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
    }
    u64::try_from(r).unwrap_or(u64::MAX)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        for v in [Value::Win, Value::Loss] {
            for d in [0, 1, 2, 77, MAX_DISTANCE] {
                assert_eq!(decode(encode(v, d)), Some((v, d)));
            }
        }
        assert_eq!(decode(encode(Value::Draw, 0)), Some((Value::Draw, 0)));
        assert_eq!(decode(REC_NONE), None);
    }
}
