//! A slide of a predecessor checked without generating its moves: legal, and
//! capturing or not. Retrograde un-move generation (`retro::tafl_tiers`) asks
//! this once per candidate predecessor; the answers are exactly those of
//! `Game::legal_moves` and `Game::is_capture` (`tests_unmoves.rs`).

use super::geometry::NONE;
use super::{bit, TaflGame, TaflMove, TaflPos};

impl TaflGame {
    /// Whether a piece of the side to move landing on `to` could capture
    /// anything: an enemy piece (the king included) stands next to `to`. Every
    /// capture [`Self::play_full`] makes takes a piece adjacent to the
    /// destination, so `false` here means the move captures nothing (a capture
    /// rule reaching further, such as a shield wall, must widen this test).
    #[inline]
    pub(crate) fn may_capture_at(&self, pos: &TaflPos, to: u8) -> bool {
        let enemy = if pos.attackers_to_move {
            pos.defenders | if pos.king == NONE { 0 } else { bit(pos.king) }
        } else {
            pos.attackers
        };
        self.geo.nb[to as usize]
            .iter()
            .any(|&q| q != NONE && enemy & bit(q) != 0)
    }

    /// Whether `mv` is a legal move of `pred` that captures nothing, decided
    /// without generating `pred`'s moves (retrograde un-move generation calls
    /// this once per candidate predecessor).
    ///
    /// Exactly `outcome(pred).is_none() && legal_moves(pred).contains(&mv) &&
    /// !is_capture(pred, mv)`: the game is not decided in `pred`, the piece on
    /// `mv.from` belongs to the side to move, `mv.to` lies on one of its rays
    /// with every cell up to it empty, the throne (if crossed) may be crossed
    /// by that piece, the piece may stop on `mv.to`, and the capture test at
    /// `mv.to` finds nothing. A legal move also means the side to move has a
    /// move, so the no-move part of [`Game::outcome`](crate::game::Game::outcome) cannot apply.
    pub(crate) fn quiet_slide_legal(&self, pred: &TaflPos, mv: TaflMove) -> bool {
        self.slide_legal(pred, mv) && !self.slide_captures(pred, mv)
    }

    /// Whether `mv` is a legal move of `pred`: [`Self::quiet_slide_legal`]
    /// without the capture test.
    pub(crate) fn slide_legal(&self, pred: &TaflPos, mv: TaflMove) -> bool {
        let g = &*self.geo;
        if pred.king == NONE || mv.from as usize >= g.cells || mv.to as usize >= g.cells {
            return false;
        }
        let is_king = mv.from == pred.king;
        let own = if pred.attackers_to_move {
            pred.attackers
        } else {
            pred.defenders | bit(pred.king)
        };
        if own & bit(mv.from) == 0 || self.decided(pred).is_some() {
            return false;
        }
        let (pass, forbid) = if is_king {
            (self.rules.throne_pass_king, self.forbid_king)
        } else {
            (self.rules.throne_pass_men, self.forbid_men)
        };
        let to = bit(mv.to);
        if forbid & to != 0 {
            return false;
        }
        let rays = &g.ray[mv.from as usize];
        let Some(d) = (0..4).find(|&d| rays[d] & to != 0) else {
            return false;
        };
        // The cells crossed and the destination must be empty.
        let path = rays[d] & !g.ray[mv.to as usize][d];
        let occ = pred.attackers | pred.defenders | bit(pred.king);
        if path & occ != 0 {
            return false;
        }
        // Crossing the (then necessarily empty) throne needs the pass option;
        // stopping on it is governed by `forbid` above.
        if !pass && path & !to & g.throne_bit != 0 {
            return false;
        }
        true
    }

    /// [`Self::slide_legal`] for a slide whose path the caller built: the
    /// piece on `mv.from` belongs to the side to move, every cell it crosses
    /// and `mv.to` are empty, it crosses the throne only if it may, and a man
    /// lands on a cell men may stand on (the retrograde un-move walker's
    /// slides). What is left to ask: the game is not decided in `pred`, and
    /// the king may stop on `mv.to`.
    ///
    /// `men_decided` is the caller's memo for the predecessors of one child
    /// that move a man (start with `None`): whether the game is decided reads
    /// the king's cell and whether attackers are left, which such
    /// predecessors share, and the men only through the encirclement rule, for
    /// which they are then asked each time.
    #[inline]
    pub(crate) fn built_slide_legal(
        &self,
        pred: &TaflPos,
        mv: TaflMove,
        men_decided: &mut Option<bool>,
    ) -> bool {
        let is_king = mv.from == pred.king;
        let decided = if is_king || (self.rules.encirclement && !pred.attackers_to_move) {
            self.decided(pred).is_some()
        } else {
            *men_decided.get_or_insert_with(|| self.decided(pred).is_some())
        };
        debug_assert_eq!(decided, self.decided(pred).is_some());
        let ok = !decided && (!is_king || self.forbid_king & bit(mv.to) == 0);
        debug_assert_eq!(ok, self.slide_legal(pred, mv));
        ok
    }

    /// Whether the legal slide `mv` of `pred` captures. Every capture rule
    /// reads the board after the move and the cell moved to (the anvils, the
    /// hostile cells, the king's surroundings: see [`Self::play_full`]), never
    /// the cell moved from, so all the slides of one piece of a side to one
    /// cell that end on the same board capture alike.
    pub(crate) fn slide_captures(&self, pred: &TaflPos, mv: TaflMove) -> bool {
        self.may_capture_at(pred, mv.to) && self.play_full(pred, mv).1 != 0
    }
}
