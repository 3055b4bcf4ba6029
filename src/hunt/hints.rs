//! What the df-pn prover asks of a hunt position beyond the rules: a hash
//! shared by the position's images under the board's symmetries, a cheap
//! check for a win in one move, and initial proof and disproof numbers.
//!
//! The symmetric hash XORs the same Zobrist keys as [`HuntGame::compute_hash`],
//! each piece's key taken at its image point, for every symmetry at once
//! ([`SymKeys`]: per point, one key per symmetry), and keeps the smallest.
//! Hands, captures and the side to move are the same in every image.

use super::position::bits;
use super::position::Keys;
use super::{HuntGame, HuntPos};
use crate::board::Board;
use crate::game::{Game, Value};

/// Most symmetries the symmetric hash uses (the built-in boards have at most
/// 10). With more, the first [`MAX_SYMS`] are used: equal keys still mean
/// symmetric positions, a few images merely get keys of their own.
pub(crate) const MAX_SYMS: usize = 16;

/// Zobrist keys of the pieces at the image points: entry `i · syms + s` is the
/// key of a piece on point `i` mapped by symmetry `s`.
#[derive(Debug)]
pub(super) struct SymKeys {
    syms: usize,
    hunter: Vec<u64>,
    prey: Vec<u64>,
}

impl SymKeys {
    pub(super) fn new(board: &Board, keys: &Keys) -> SymKeys {
        let syms = board.symmetries.len().clamp(1, MAX_SYMS);
        let mut hunter = vec![0u64; 64 * syms];
        let mut prey = vec![0u64; 64 * syms];
        for i in 0..board.len() {
            for s in 0..syms {
                let j = board.symmetries[s][i] as usize;
                hunter[i * syms + s] = keys.hunter[j];
                prey[i * syms + s] = keys.prey[j];
            }
        }
        SymKeys { syms, hunter, prey }
    }
}

impl HuntGame {
    /// The smallest hash over the position's images under the board's
    /// symmetries (see the module docs).
    pub(super) fn symmetric_hash(&self, p: &HuntPos) -> u64 {
        let sk = &*self.sym_keys;
        let n = sk.syms;
        if n == 1 {
            return p.hash;
        }
        let mut h = [0u64; MAX_SYMS];
        for i in bits(p.hunters) {
            let k = &sk.hunter[i * n..i * n + n];
            for (a, b) in h.iter_mut().zip(k) {
                *a ^= b;
            }
        }
        for i in bits(p.prey) {
            let k = &sk.prey[i * n..i * n + n];
            for (a, b) in h.iter_mut().zip(k) {
                *a ^= b;
            }
        }
        // Symmetry 0 is the identity: what the board does not contribute.
        let rest = p.hash ^ h[0];
        h[..n].iter().map(|x| x ^ rest).min().unwrap_or(p.hash)
    }

    /// Captures the hunters still need to win (at least 1 while the game goes on).
    fn captures_needed(&self, p: &HuntPos) -> u32 {
        if self.win_captures != u32::MAX {
            return self.win_captures.saturating_sub(p.captured as u32).max(1);
        }
        let left = p.prey.count_ones() + p.prey_in_hand as u32;
        (left + 1).saturating_sub(self.static_threshold).max(1)
    }

    /// Empty points a hunter can step to, plus available jumps (a rough count
    /// of the hunters' moves; hunters in hand with an empty point count as free).
    fn hunter_mobility(&self, p: &HuntPos) -> u32 {
        let empty = self.empty(p);
        if p.hunters_in_hand > 0 && empty != 0 {
            return 8;
        }
        let t = &*self.tables;
        let mut steps = 0u64;
        let mut jumps = 0u32;
        for h in bits(p.hunters) {
            steps |= t.neighbours[h] & empty;
            for o in bits(t.jump_over[h] & p.prey) {
                jumps += (empty >> t.jump_to[h][o] & 1) as u32;
            }
        }
        steps.count_ones() + jumps
    }

    /// Whether some hunter has a jump over a prey onto an empty point (the
    /// geometry only: the rules may still forbid it, e.g. while dropping).
    fn any_jump(&self, p: &HuntPos) -> bool {
        let empty = self.empty(p);
        let t = &*self.tables;
        bits(p.hunters)
            .any(|h| bits(t.jump_over[h] & p.prey).any(|o| empty >> t.jump_to[h][o] & 1 == 1))
    }

    /// See [`Game::wins_at_once`]: the hunters capture enough now, or the prey
    /// leave the hunters without a move. Every `true` is confirmed by playing
    /// the move and asking [`Game::outcome`]; the cheap tests before only
    /// decide when that is worth trying.
    pub(super) fn hunt_wins_at_once(&self, p: &HuntPos) -> bool {
        let mut moves = Vec::new();
        if p.hunter_to_move {
            if !self.any_jump(p) {
                return false;
            }
            self.legal_moves(p, &mut moves);
            return moves
                .iter()
                .any(|&m| m.captured != 0 && self.outcome(&self.play(p, m)) == Some(Value::Loss));
        }
        // The prey to move: worth a look when the hunters have at most one
        // target point left (one prey can fill it) and none in hand.
        if p.hunters_in_hand > 0 {
            return false;
        }
        let empty = self.empty(p);
        let t = &*self.tables;
        let mut targets = 0u64;
        for h in bits(p.hunters) {
            targets |= t.neighbours[h] & empty;
            for o in bits(t.jump_over[h] & p.prey) {
                let to = t.jump_to[h][o] as u32;
                if to < 64 {
                    targets |= empty & (1u64 << to);
                }
            }
        }
        if targets.count_ones() > 1 {
            return false;
        }
        self.legal_moves(p, &mut moves);
        moves
            .iter()
            .any(|&m| self.outcome(&self.play(p, m)) == Some(Value::Loss))
    }

    /// See [`Game::proof_hint`]: the hunters' goal looks near with few
    /// captures still needed, the prey's with few hunter moves left.
    pub(super) fn hunt_proof_hint(&self, p: &HuntPos, side: usize) -> (u32, u32) {
        let need = self.captures_needed(p).min(16);
        let mob = match self.hunter_mobility(p) {
            0..=1 => 1,
            2..=3 => 2,
            _ => 3,
        };
        if side == 0 {
            (need, mob)
        } else {
            (mob, need)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    /// The symmetric hash is the smallest full hash over the images, equal for
    /// every image, and "wins at once" is confirmed by the rules.
    #[test]
    fn symmetric_hash_is_the_least_image_hash_and_wins_at_once_are_real() {
        for spec in [
            "kaooa",
            "bagh-chal",
            "cows-leopards-mogol",
            "diviyan-keliya,hunter_win=captures>=1",
        ] {
            let g = crate::hunt::from_spec(spec).unwrap();
            let syms = g.board().symmetries.len();
            let mut rng = Rng::new(7);
            let mut moves = Vec::new();
            let (mut quick, mut seen) = (0, 0);
            for game in 0..40 {
                let mut p = g.start();
                for _ in 0..(10 + game) {
                    let least = (0..syms)
                        .map(|s| g.compute_hash(&g.map_pos(s, &p)))
                        .min()
                        .unwrap();
                    assert_eq!(g.symmetric_hash(&p), least, "{spec}");
                    for s in 0..syms {
                        assert_eq!(g.symmetric_hash(&g.map_pos(s, &p)), least, "{spec}");
                    }
                    if g.outcome(&p).is_some() {
                        break;
                    }
                    g.legal_moves(&p, &mut moves);
                    let wins = moves
                        .iter()
                        .any(|&m| g.outcome(&g.play(&p, m)) == Some(Value::Loss));
                    // Never a false "yes"; count how often a real one is found.
                    if g.hunt_wins_at_once(&p) {
                        assert!(wins, "{spec}");
                        quick += 1;
                    }
                    seen += wins as u32;
                    let (pn, dn) = g.hunt_proof_hint(&p, 0);
                    assert!(pn >= 1 && dn >= 1);
                    p = g.play(&p, moves[rng.below(moves.len())]);
                }
            }
            assert!(quick <= seen);
        }
    }
}
