//! Tafl positions and moves: the position and move types, the Zobrist hash, and
//! positions mapped by a board symmetry.

use super::geometry::NONE;
use super::{bit, TaflGame};

/// A tafl position. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaflPos {
    /// Attacker men.
    pub attackers: u128,
    /// Defender men (king excluded).
    pub defenders: u128,
    /// King's cell (`x + y * n`), 255 once captured.
    pub king: u8,
    /// Whether the attackers are to move.
    pub attackers_to_move: bool,
    /// Zobrist hash (kept up to date incrementally by [`Game::play`](crate::game::Game::play)).
    pub hash: u64,
}

/// A move: a slide from one cell to another (cell indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaflMove {
    /// Start cell.
    pub from: u8,
    /// Destination cell.
    pub to: u8,
}

impl TaflGame {
    /// The position mapped by symmetry `s` (0..8: the symmetries of the square, identity first).
    pub fn transform(&self, pos: &TaflPos, s: usize) -> TaflPos {
        let king = if pos.king == NONE {
            NONE
        } else {
            self.geo.sym[s][pos.king as usize]
        };
        self.make_pos(
            self.geo.map_bits(s, pos.attackers),
            self.geo.map_bits(s, pos.defenders),
            king,
            pos.attackers_to_move,
        )
    }

    /// Builds a position and computes its hash (no legality check; see
    /// [`Notation::parse_position`](crate::game::Notation::parse_position) for a checked constructor).
    pub fn make_pos(
        &self,
        attackers: u128,
        defenders: u128,
        king: u8,
        attackers_to_move: bool,
    ) -> TaflPos {
        let mut p = TaflPos {
            attackers,
            defenders,
            king,
            attackers_to_move,
            hash: 0,
        };
        p.hash = self.compute_hash(&p);
        p
    }

    /// Zobrist hash recomputed from scratch.
    pub(crate) fn compute_hash(&self, p: &TaflPos) -> u64 {
        let g = &*self.geo;
        let mut h = if p.attackers_to_move {
            g.z_att_to_move
        } else {
            0
        };
        let mut a = p.attackers;
        while a != 0 {
            h ^= g.z_att[a.trailing_zeros() as usize];
            a &= a - 1;
        }
        let mut d = p.defenders;
        while d != 0 {
            h ^= g.z_def[d.trailing_zeros() as usize];
            d &= d - 1;
        }
        if p.king != NONE {
            h ^= g.z_king[p.king as usize];
        }
        h
    }

    #[inline]
    pub(super) fn king_bit(p: &TaflPos) -> u128 {
        if p.king == NONE {
            0
        } else {
            bit(p.king)
        }
    }
}
