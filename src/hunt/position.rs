//! Hunt positions and moves: the position type, the move type, Zobrist keys and
//! the incremental hash, and positions mapped by a board symmetry.

use super::HuntGame;

/// A hunt position: bitboards (bit i = point id i), hands, captures, side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HuntPos {
    /// Hunters on the board.
    pub hunters: u64,
    /// Prey on the board.
    pub prey: u64,
    /// Hunters still to be dropped.
    pub hunters_in_hand: u8,
    /// Prey still to be dropped.
    pub prey_in_hand: u8,
    /// Prey captured so far.
    pub captured: u8,
    /// Whether the hunters are to move.
    pub hunter_to_move: bool,
    /// Zobrist hash (side to move included), kept up to date by [`Game::play`](crate::game::Game::play).
    pub hash: u64,
}

/// The kind of a [`HuntMove`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveKind {
    /// A piece from hand onto `to`.
    Drop,
    /// A step along an edge from `from` to `to`.
    Step,
    /// One jump or a chain from `from` ending on `to`, removing `captured`.
    Capture,
    /// The prey pass (only with `prey_no_moves=pass`).
    Pass,
}

/// A move. Captures are identified by start, end and captured mask, so two
/// chains ending in the same position are one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HuntMove {
    /// What the move does.
    pub kind: MoveKind,
    /// Start point (equal to `to` for drops and passes).
    pub from: u8,
    /// End point.
    pub to: u8,
    /// Prey taken (captures only).
    pub captured: u64,
}

impl HuntMove {
    /// A drop on `to`.
    pub(crate) fn drop(to: u8) -> Self {
        HuntMove {
            kind: MoveKind::Drop,
            from: to,
            to,
            captured: 0,
        }
    }
    /// A step.
    pub(crate) fn step(from: u8, to: u8) -> Self {
        HuntMove {
            kind: MoveKind::Step,
            from,
            to,
            captured: 0,
        }
    }
    /// A capture (one jump or a chain).
    pub(crate) fn capture(from: u8, to: u8, captured: u64) -> Self {
        HuntMove {
            kind: MoveKind::Capture,
            from,
            to,
            captured,
        }
    }
    /// The pass.
    pub(crate) fn pass() -> Self {
        HuntMove {
            kind: MoveKind::Pass,
            from: 0,
            to: 0,
            captured: 0,
        }
    }
}

/// Iterates the set bits of a mask as indices.
#[inline]
pub(super) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            // `& 63` tells the compiler the index fits the 64-entry tables.
            let i = m.trailing_zeros() as usize & 63;
            m &= m - 1;
            Some(i)
        }
    })
}

/// Zobrist keys of one game.
#[derive(Debug)]
pub(super) struct Keys {
    pub(super) hunter: [u64; 64],
    pub(super) prey: [u64; 64],
    pub(super) hunters_in_hand: [u64; 65],
    pub(super) prey_in_hand: [u64; 65],
    pub(super) captured: [u64; 65],
    pub(super) hunter_to_move: u64,
}

impl Keys {
    pub(super) fn new() -> Keys {
        let k = crate::random::keys(0x4855_4e54_5a4f_4252, 64 * 2 + 65 * 3 + 1);
        let arr64 = |o: usize| -> [u64; 64] { std::array::from_fn(|i| k[o + i]) };
        let arr65 = |o: usize| -> [u64; 65] { std::array::from_fn(|i| k[o + i]) };
        Keys {
            hunter: arr64(0),
            prey: arr64(64),
            hunters_in_hand: arr65(128),
            prey_in_hand: arr65(193),
            captured: arr65(258),
            hunter_to_move: k[323],
        }
    }
}

impl HuntGame {
    /// Builds a position from its parts, computing the hash.
    pub(crate) fn make_pos(
        &self,
        hunters: u64,
        prey: u64,
        hunters_in_hand: u8,
        prey_in_hand: u8,
        captured: u8,
        hunter_to_move: bool,
    ) -> HuntPos {
        let mut p = HuntPos {
            hunters,
            prey,
            hunters_in_hand,
            prey_in_hand,
            captured,
            hunter_to_move,
            hash: 0,
        };
        p.hash = self.compute_hash(&p);
        p
    }

    /// The hash recomputed from scratch (the incremental one must equal it).
    pub(crate) fn compute_hash(&self, p: &HuntPos) -> u64 {
        let k = &self.keys;
        let mut h = 0;
        for i in bits(p.hunters) {
            h ^= k.hunter[i];
        }
        for i in bits(p.prey) {
            h ^= k.prey[i];
        }
        h ^= k.hunters_in_hand[p.hunters_in_hand.min(64) as usize];
        h ^= k.prey_in_hand[p.prey_in_hand.min(64) as usize];
        h ^= k.captured[p.captured.min(64) as usize];
        if p.hunter_to_move {
            h ^= k.hunter_to_move;
        }
        h
    }

    /// The image of a position under symmetry `sym` of the board.
    pub(crate) fn map_pos(&self, sym: usize, p: &HuntPos) -> HuntPos {
        self.make_pos(
            self.board.map_mask(sym, p.hunters),
            self.board.map_mask(sym, p.prey),
            p.hunters_in_hand,
            p.prey_in_hand,
            p.captured,
            p.hunter_to_move,
        )
    }
}
