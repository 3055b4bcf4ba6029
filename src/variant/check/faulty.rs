//! Deliberate faults for the checker's own tests: a game wrapped so that one of
//! its parts disagrees with the others, as a bug in a new game would. Every
//! fault must make one named check fail (`tests/it/check_cmd.rs` runs each
//! through `huntsolve check --fault NAME`, a flag hidden from `--help`). The
//! wrapped game plays as the real one except for the faulty part; the parts the
//! solver takes faster paths for fall back to the trait's defaults, which are
//! built on the faulty part, so only the fault disagrees.

use crate::error::{quote, Error, Result};
use crate::game::{Game, Notation, Value};
use crate::tier::TierGame;

/// A fault to inject, and the check that must catch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// The un-moves forget the last parent (check `unmoves`).
    UnmoveDropped,
    /// The un-moves list the first parent twice (check `parents`).
    UnmoveTwice,
    /// `rank` swaps pairs of classes (check `index`).
    Rank,
    /// `tier_children` forgets the first child tier (check `tiers`).
    TierChildren,
    /// The class hash is the plain hash, blind to symmetry (check `classes`).
    ClassHash,
    /// `child_indices` gives the first child a wrong index (check `paths`).
    ChildIndex,
}

/// Every fault with its name (for `--fault` and its error message).
pub const FAULTS: &[(&str, Fault)] = &[
    ("unmove-dropped", Fault::UnmoveDropped),
    ("unmove-twice", Fault::UnmoveTwice),
    ("rank", Fault::Rank),
    ("tier-children", Fault::TierChildren),
    ("class-hash", Fault::ClassHash),
    ("child-index", Fault::ChildIndex),
];

impl Fault {
    /// The fault of this name.
    pub fn parse(name: &str) -> Result<Fault> {
        FAULTS
            .iter()
            .find(|f| f.0 == name)
            .map(|f| f.1)
            .ok_or_else(|| {
                let names: Vec<&str> = FAULTS.iter().map(|f| f.0).collect();
                Error::Usage(format!(
                    "unknown fault {}; accepted: {}",
                    quote(name),
                    names.join(", ")
                ))
            })
    }
}

/// A game with one fault.
#[derive(Clone, Debug)]
pub(crate) struct Faulty<G> {
    pub(crate) inner: G,
    pub(crate) fault: Fault,
}

impl<G: TierGame> Game for Faulty<G> {
    type Pos = G::Pos;
    type Move = G::Move;
    fn rules_string(&self) -> String {
        self.inner.rules_string()
    }
    fn family(&self) -> &'static str {
        self.inner.family()
    }
    fn start(&self) -> G::Pos {
        self.inner.start()
    }
    fn legal_moves(&self, pos: &G::Pos, out: &mut Vec<G::Move>) {
        self.inner.legal_moves(pos, out)
    }
    fn play(&self, pos: &G::Pos, mv: G::Move) -> G::Pos {
        self.inner.play(pos, mv)
    }
    fn outcome(&self, pos: &G::Pos) -> Option<Value> {
        self.inner.outcome(pos)
    }
    fn hash(&self, pos: &G::Pos) -> u64 {
        self.inner.hash(pos)
    }
    fn side_to_move(&self, pos: &G::Pos) -> usize {
        self.inner.side_to_move(pos)
    }
    fn canonical_hash(&self, pos: &G::Pos) -> u64 {
        if self.fault == Fault::ClassHash {
            self.inner.hash(pos)
        } else {
            self.inner.canonical_hash(pos)
        }
    }
}

impl<G: TierGame> Notation for Faulty<G> {
    fn format_position(&self, pos: &G::Pos) -> String {
        self.inner.format_position(pos)
    }
    fn parse_position(&self, text: &str) -> Result<G::Pos> {
        self.inner.parse_position(text)
    }
    fn format_move(&self, pos: &G::Pos, mv: G::Move) -> String {
        self.inner.format_move(pos, mv)
    }
}

impl<G: TierGame> TierGame for Faulty<G> {
    type Tier = G::Tier;
    fn tier_of(&self, pos: &G::Pos) -> G::Tier {
        self.inner.tier_of(pos)
    }
    fn tier_name(&self, tier: G::Tier) -> String {
        self.inner.tier_name(tier)
    }
    fn parse_tier(&self, name: &str) -> Result<G::Tier> {
        self.inner.parse_tier(name)
    }
    fn tier_children(&self, tier: G::Tier) -> Vec<G::Tier> {
        let mut out = self.inner.tier_children(tier);
        if self.fault == Fault::TierChildren && !out.is_empty() {
            out.remove(0);
        }
        out
    }
    fn tier_is_terminal(&self, tier: G::Tier) -> bool {
        self.inner.tier_is_terminal(tier)
    }
    fn tier_size(&self, tier: G::Tier) -> u64 {
        self.inner.tier_size(tier)
    }
    fn rank(&self, tier: G::Tier, pos: &G::Pos) -> u64 {
        let r = self.inner.rank(tier, pos);
        if self.fault == Fault::Rank && r ^ 2 < self.inner.tier_size(tier) {
            r ^ 2
        } else {
            r
        }
    }
    fn rank_orbit(&self, tier: G::Tier, pos: &G::Pos) -> (u64, Option<u32>) {
        (self.rank(tier, pos), self.inner.rank_orbit(tier, pos).1)
    }
    fn orbit_size(&self, pos: &G::Pos) -> Option<u64> {
        self.inner.orbit_size(pos)
    }
    fn unrank(&self, tier: G::Tier, index: u64) -> Option<G::Pos> {
        self.inner.unrank(tier, index)
    }
    fn unmoves(&self, pos: &G::Pos, out: &mut Vec<G::Pos>) {
        self.inner.unmoves(pos, out);
        match self.fault {
            Fault::UnmoveDropped => {
                out.pop();
            }
            Fault::UnmoveTwice => {
                if let Some(first) = out.first().cloned() {
                    out.push(first);
                }
            }
            _ => {}
        }
    }
    fn child_indices(
        &self,
        tier: G::Tier,
        pos: &G::Pos,
        moves: &[G::Move],
        inner: bool,
        out: &mut Vec<(G::Tier, u64)>,
    ) {
        self.inner.child_indices(tier, pos, moves, inner, out);
        if self.fault == Fault::ChildIndex && inner {
            if let Some(first) = out.first_mut() {
                first.1 ^= 2;
            }
        }
    }
}
