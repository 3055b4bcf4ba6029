//! Hunt move generation: drops, steps, single captures and capture chains, the
//! end of the game, and the [`Game`] rules interface of [`HuntGame`].

use super::position::bits;
use super::{
    Chain, FirstDrop, HuntGame, HuntMove, HuntPos, HunterStart, MoveKind, PreyNoMoves, PreyStart,
    Removal, Side,
};
use crate::board::Board;
use crate::game::{Game, Value};

/// Board tables copied into fixed-size arrays (no bounds checks, one pointer
/// from the game) plus the Zobrist keys: everything the move generator touches.
#[derive(Debug)]
pub(super) struct Tables {
    pub(super) all: u64,
    pub(super) neighbours: [u64; 64],
    pub(super) jump_over: [u64; 64],
    pub(super) jump_to: [[u8; 64]; 64],
}

impl Tables {
    pub(super) fn new(b: &Board) -> Tables {
        let mut t = Tables {
            all: b.all_mask(),
            neighbours: [0; 64],
            jump_over: [0; 64],
            jump_to: [[crate::board::NO_JUMP; 64]; 64],
        };
        for i in 0..b.len() {
            t.neighbours[i] = b.neighbours[i];
            t.jump_over[i] = b.jump_over[i];
            t.jump_to[i] = b.jump_to[i];
        }
        t
    }
}

impl HuntGame {
    /// Whether the hunters have already won (H11).
    pub(crate) fn hunters_have_won(&self, p: &HuntPos) -> bool {
        p.captured as u32 >= self.win_captures
            || p.prey.count_ones() + (p.prey_in_hand as u32) < self.static_threshold
    }

    #[inline]
    pub(super) fn empty(&self, p: &HuntPos) -> u64 {
        self.tables.all & !(p.hunters | p.prey)
    }

    /// Whether the hunters have any legal action (ignores H11).
    pub(super) fn hunter_can_move(&self, p: &HuntPos) -> bool {
        let empty = self.empty(p);
        if p.hunters_in_hand > 0 && empty != 0 {
            return true;
        }
        if p.hunters_in_hand > 0 && self.rules.drop_before_move.0 {
            return false;
        }
        let b = &*self.tables;
        for h in bits(p.hunters) {
            if b.neighbours[h] & empty != 0 {
                return true;
            }
            for o in bits(b.jump_over[h] & p.prey) {
                if empty >> b.jump_to[h][o] & 1 == 1 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether some hunter on board can jump now (the first jump of every capture
    /// or chain): with compulsory captures, exactly when a step is illegal.
    pub(crate) fn hunter_can_capture(&self, p: &HuntPos) -> bool {
        let empty = self.empty(p);
        let b = &*self.tables;
        bits(p.hunters)
            .any(|h| bits(b.jump_over[h] & p.prey).any(|o| empty >> b.jump_to[h][o] & 1 == 1))
    }

    /// The number of legal steps (and the pass) of `p`, with its captures in
    /// `captures`, when every legal move is a step, a pass or a capture (no piece
    /// in hand for the side to move); `None` otherwise. The same moves as
    /// [`Game::legal_moves`] without listing the steps: the retrograde scan only
    /// counts them.
    pub(crate) fn steps_and_captures(
        &self,
        p: &HuntPos,
        captures: &mut Vec<HuntMove>,
    ) -> Option<u32> {
        captures.clear();
        if self.hunters_have_won(p) {
            return Some(0);
        }
        let empty = self.empty(p);
        let b = &*self.tables;
        let steps = |pieces: u64| -> u32 {
            bits(pieces)
                .map(|q| (b.neighbours[q] & empty).count_ones())
                .sum()
        };
        if p.hunter_to_move {
            if p.hunters_in_hand > 0 {
                return None;
            }
            self.gen_captures(p, captures);
            if self.rules.capture_compulsory && !captures.is_empty() {
                return Some(0);
            }
            Some(steps(p.hunters))
        } else {
            if p.prey_in_hand > 0 {
                return None;
            }
            let n = steps(p.prey);
            Some(if n == 0 && self.rules.prey_no_moves == PreyNoMoves::Pass {
                1
            } else {
                n
            })
        }
    }

    /// Whether the prey have any legal action other than a pass.
    pub(super) fn prey_can_move(&self, p: &HuntPos) -> bool {
        let empty = self.empty(p);
        if p.prey_in_hand > 0 && empty != 0 {
            return true;
        }
        if p.prey_in_hand > 0 && self.rules.drop_before_move.1 {
            return false;
        }
        bits(p.prey).any(|q| self.tables.neighbours[q] & empty != 0)
    }

    /// The points a hunter may be dropped on (none with no hunter in hand): the
    /// empty points, or only the centre for a first drop under `first_drop=centre`.
    #[inline]
    pub(super) fn hunter_drops(&self, p: &HuntPos, empty: u64) -> u64 {
        if p.hunters_in_hand == 0 {
            return 0;
        }
        if self.rules.first_drop == FirstDrop::Centre && p.hunters == 0 {
            if let Some(c) = self.board.centre {
                if empty >> c & 1 == 1 {
                    return 1 << c;
                }
            }
        }
        empty
    }

    pub(super) fn gen_hunter(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
        let empty = self.empty(p);
        let b = &*self.tables;
        let drops = self.hunter_drops(p, empty);
        if p.hunters_in_hand > 0 && (self.rules.drop_before_move.0 || p.hunters == 0) {
            for t in bits(drops) {
                out.push(HuntMove::drop(t as u8));
            }
            return;
        }
        self.gen_captures(p, out);
        if self.rules.capture_compulsory && !out.is_empty() {
            return;
        }
        for t in bits(drops) {
            out.push(HuntMove::drop(t as u8));
        }
        for h in bits(p.hunters) {
            for t in bits(b.neighbours[h] & empty) {
                out.push(HuntMove::step(h as u8, t as u8));
            }
        }
    }

    pub(super) fn gen_captures(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
        let b = &*self.tables;
        let empty = self.empty(p);
        match self.rules.chain {
            Chain::None => {
                for h in bits(p.hunters) {
                    for o in bits(b.jump_over[h] & p.prey) {
                        let t = b.jump_to[h][o];
                        if empty >> t & 1 == 1 {
                            out.push(HuntMove::capture(h as u8, t, 1 << o));
                        }
                    }
                }
            }
            _ => {
                let start = out.len();
                for h in bits(p.hunters) {
                    if b.jump_over[h] & p.prey == 0 {
                        continue;
                    }
                    let others = p.hunters & !(1u64 << h);
                    let first = out.len();
                    self.chain_dfs(p, others, h as u8, h as u8, 0, first, out);
                }
                if self.rules.chain == Chain::Maximal && out.len() > start {
                    let most = out[start..]
                        .iter()
                        .map(|m| m.captured.count_ones())
                        .max()
                        .unwrap_or(0);
                    let mut i = start;
                    while i < out.len() {
                        if out[i].captured.count_ones() < most {
                            out.swap_remove(i);
                        } else {
                            i += 1;
                        }
                    }
                }
            }
        }
    }

    /// Extends a chain of the hunter that started on `from` and stands on `cur`,
    /// having taken `taken`. Emits moves per the chain option; `first` is where
    /// this hunter's moves start in `out` (for merging equal chains).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chain_dfs(
        &self,
        p: &HuntPos,
        others: u64,
        from: u8,
        cur: u8,
        taken: u64,
        first: usize,
        out: &mut Vec<HuntMove>,
    ) {
        let b = &*self.tables;
        let live = p.prey & !taken;
        let blocked = others
            | match self.rules.removal {
                Removal::Immediate => live,
                Removal::EndOfTurn => p.prey,
            };
        let mut extended = false;
        for o in bits(b.jump_over[cur as usize] & live) {
            let t = b.jump_to[cur as usize][o];
            if blocked >> t & 1 == 1 {
                continue;
            }
            extended = true;
            let now = taken | 1 << o;
            if self.rules.chain == Chain::Optional {
                push_unique(out, first, HuntMove::capture(from, t, now));
            }
            self.chain_dfs(p, others, from, t, now, first, out);
        }
        if !extended && taken != 0 && self.rules.chain != Chain::Optional {
            push_unique(out, first, HuntMove::capture(from, cur, taken));
        }
    }

    pub(super) fn gen_prey(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
        let empty = self.empty(p);
        if p.prey_in_hand > 0 {
            for t in bits(empty) {
                out.push(HuntMove::drop(t as u8));
            }
            if self.rules.drop_before_move.1 {
                return;
            }
        }
        for q in bits(p.prey) {
            for t in bits(self.tables.neighbours[q] & empty) {
                out.push(HuntMove::step(q as u8, t as u8));
            }
        }
    }

    /// The landing points of a capture (a path from `from` to `to` taking
    /// exactly `captured`), found by search; `None` if no such path exists.
    pub(crate) fn capture_path(&self, p: &HuntPos, mv: &HuntMove) -> Option<Vec<u8>> {
        let others = p.hunters & !(1u64 << mv.from);
        let mut path = Vec::new();
        if self.path_dfs(p, others, mv, mv.from, 0, &mut path) {
            Some(path)
        } else {
            None
        }
    }

    pub(super) fn path_dfs(
        &self,
        p: &HuntPos,
        others: u64,
        mv: &HuntMove,
        cur: u8,
        taken: u64,
        path: &mut Vec<u8>,
    ) -> bool {
        if taken == mv.captured {
            return cur == mv.to;
        }
        let b = &*self.board;
        let live = p.prey & !taken;
        let blocked = others
            | match self.rules.removal {
                Removal::Immediate => live,
                Removal::EndOfTurn => p.prey,
            };
        for o in bits(b.jump_over[cur as usize] & live & mv.captured) {
            let t = b.jump_to[cur as usize][o];
            if blocked >> t & 1 == 1 {
                continue;
            }
            path.push(t);
            if self.path_dfs(p, others, mv, t, taken | 1 << o, path) {
                return true;
            }
            path.pop();
        }
        false
    }

    /// Follows a capture path given as landing points; returns the captured mask
    /// if every hop is a legal jump under the rules.
    pub(super) fn walk_path(&self, p: &HuntPos, from: u8, landings: &[u8]) -> Option<u64> {
        let b = &*self.board;
        let others = p.hunters & !(1u64 << from);
        let mut taken = 0u64;
        let mut cur = from;
        for &t in landings {
            let live = p.prey & !taken;
            let blocked = others
                | match self.rules.removal {
                    Removal::Immediate => live,
                    Removal::EndOfTurn => p.prey,
                };
            let o = bits(b.jump_over[cur as usize] & live)
                .find(|&o| b.jump_to[cur as usize][o] == t)?;
            if blocked >> t & 1 == 1 {
                return None;
            }
            taken |= 1 << o;
            cur = t;
        }
        Some(taken)
    }
}

#[inline]
pub(super) fn push_unique(out: &mut Vec<HuntMove>, first: usize, mv: HuntMove) {
    if !out[first..].contains(&mv) {
        out.push(mv);
    }
}

impl Game for HuntGame {
    type Pos = HuntPos;

    type Move = HuntMove;

    fn repetition(&self) -> crate::game::Repetition {
        match self.rules.repetition {
            super::Repetition::Draw => crate::game::Repetition::Draw,
            super::Repetition::Forbid => crate::game::Repetition::Forbid,
        }
    }

    fn family(&self) -> &'static str {
        "hunt"
    }

    fn rules_string(&self) -> String {
        self.canonical.clone()
    }

    fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    fn start(&self) -> HuntPos {
        let hand = matches!(self.rules.hunter_start, HunterStart::Hand);
        let prey_hand = matches!(self.rules.prey_start, PreyStart::Hand);
        self.make_pos(
            self.start_hunters,
            self.start_prey,
            if hand { self.rules.hunters } else { 0 },
            if prey_hand { self.rules.prey } else { 0 },
            0,
            self.rules.first == Side::Hunter,
        )
    }

    fn legal_moves(&self, pos: &HuntPos, out: &mut Vec<HuntMove>) {
        out.clear();
        if self.hunters_have_won(pos) {
            return;
        }
        if pos.hunter_to_move {
            self.gen_hunter(pos, out);
        } else {
            self.gen_prey(pos, out);
            if out.is_empty() && self.rules.prey_no_moves == PreyNoMoves::Pass {
                out.push(HuntMove::pass());
            }
        }
    }

    fn play(&self, pos: &HuntPos, mv: HuntMove) -> HuntPos {
        let k = &*self.keys;
        let mut p = *pos;
        let (from, to) = (mv.from as usize, mv.to as usize);
        match mv.kind {
            MoveKind::Drop => {
                if p.hunter_to_move {
                    debug_assert!(p.hunters_in_hand > 0);
                    p.hash ^= k.hunters_in_hand[p.hunters_in_hand as usize] ^ k.hunter[to];
                    p.hunters_in_hand -= 1;
                    p.hash ^= k.hunters_in_hand[p.hunters_in_hand as usize];
                    p.hunters |= 1 << to;
                } else {
                    debug_assert!(p.prey_in_hand > 0);
                    p.hash ^= k.prey_in_hand[p.prey_in_hand as usize] ^ k.prey[to];
                    p.prey_in_hand -= 1;
                    p.hash ^= k.prey_in_hand[p.prey_in_hand as usize];
                    p.prey |= 1 << to;
                }
            }
            MoveKind::Step => {
                if p.hunter_to_move {
                    p.hunters = p.hunters & !(1 << from) | 1 << to;
                    p.hash ^= k.hunter[from] ^ k.hunter[to];
                } else {
                    p.prey = p.prey & !(1 << from) | 1 << to;
                    p.hash ^= k.prey[from] ^ k.prey[to];
                }
            }
            MoveKind::Capture => {
                p.hunters = p.hunters & !(1 << from) | 1 << to;
                p.hash ^= k.hunter[from] ^ k.hunter[to];
                p.prey &= !mv.captured;
                for i in bits(mv.captured) {
                    p.hash ^= k.prey[i];
                }
                p.hash ^= k.captured[p.captured as usize];
                p.captured += mv.captured.count_ones() as u8;
                p.hash ^= k.captured[p.captured as usize];
            }
            MoveKind::Pass => {}
        }
        p.hunter_to_move = !p.hunter_to_move;
        p.hash ^= k.hunter_to_move;
        // The incremental hash is right whenever the parent's was (the solvers'
        // enumerations leave it unset: `retro::hunt_tiers`).
        debug_assert!(
            pos.hash != self.compute_hash(pos) || p.hash == self.compute_hash(&p),
            "incremental hash"
        );
        p
    }

    fn outcome(&self, pos: &HuntPos) -> Option<Value> {
        if self.hunters_have_won(pos) {
            return Some(if pos.hunter_to_move {
                Value::Win
            } else {
                Value::Loss
            });
        }
        if pos.hunter_to_move {
            if !self.hunter_can_move(pos) {
                return Some(Value::Loss);
            }
        } else if !self.prey_can_move(pos) {
            return match self.rules.prey_no_moves {
                PreyNoMoves::Loss => Some(Value::Loss),
                PreyNoMoves::Draw => Some(Value::Draw),
                PreyNoMoves::Pass => None,
            };
        }
        None
    }

    fn hash(&self, pos: &HuntPos) -> u64 {
        pos.hash
    }

    fn side_to_move(&self, pos: &HuntPos) -> usize {
        if pos.hunter_to_move {
            0
        } else {
            1
        }
    }

    fn side_name(&self, side: usize) -> &'static str {
        if side == 0 {
            "hunter"
        } else {
            "prey"
        }
    }

    fn side_label(&self, side: usize) -> &'static str {
        self.labels[side.min(1)]
    }

    fn is_capture(&self, _pos: &HuntPos, mv: HuntMove) -> bool {
        mv.kind == MoveKind::Capture
    }

    fn canonical_hash(&self, pos: &HuntPos) -> u64 {
        self.symmetric_hash(pos)
    }

    fn wins_at_once(&self, pos: &HuntPos) -> bool {
        self.hunt_wins_at_once(pos)
    }

    fn proof_hint(&self, pos: &HuntPos, side: usize) -> (u32, u32) {
        self.hunt_proof_hint(pos, side)
    }

    fn captures_of(&self, _pos: &HuntPos, mv: HuntMove) -> u32 {
        mv.captured.count_ones()
    }

    fn move_limit(&self) -> Option<u32> {
        self.rules.move_limit
    }

    fn random_move(&self, pos: &HuntPos, rng: &mut crate::random::Rng) -> Option<HuntMove> {
        self.random_move_fast(pos, rng)
    }
}
