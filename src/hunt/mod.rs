//! The hunt-game family: leopards and cows (Diviyan Keliya, Cows and Leopards,
//! Kungser), Bagh-Chal and Kaooa, as one rules engine over [`Board`] geometry.
//!
//! Rules are a value ([`HuntRules`], options H1-H16 of rules-spec §2.1, with the
//! presets of §3.1); [`HuntGame`] holds the rules, the board and Zobrist keys
//! and implements [`Game`]. Side 0 is the hunter, side 1 the prey.
//!
//! # Position text
//! One character per point id (`H` hunter, `P` prey, `.` empty), then `/`,
//! the hands and captures as `h<hunters in hand>p<prey in hand>c<captured>`,
//! then `/` and the side to move (`h` or `p`):
//!
//! ```text
//! H.P....................../h1p23c0/h
//! ```
//!
//! The word `start` means the start position. Parsing checks the piece counts
//! against the rules (hunters on board + in hand = hunters; prey on board + in
//! hand + captured = prey).
//!
//! # Move notation
//! A drop is the point name (`e5`), a step `from-to` (`f2-e3`), a capture
//! `fromxto`, a chain every landing point (`c6xe6xe8`), and the prey's pass
//! (option `prey_no_moves=pass`) `pass`. A chain is one move; two chains with the
//! same start, end and captured prey are the same move (the notation shows the
//! first path found).

mod playout;
pub mod rules;

pub use rules::{
    Chain, FirstDrop, HuntRules, HunterStart, HunterWin, PreyNoMoves, Removal, Repetition, Side,
    KEYS, PRESETS,
};

use crate::board::Board;
use crate::error::{Error, Result};
use crate::game::{Game, Value};
use std::sync::Arc;

/// Parses a rules string `preset[,key=value...]` and builds the game.
pub fn from_spec(spec: &str) -> Result<HuntGame> {
    HuntGame::new(HuntRules::parse(spec)?)
}

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
    /// Zobrist hash (side to move included), kept up to date by [`Game::play`].
    pub hash: u64,
}

/// The kind of a [`HuntMove`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub fn drop(to: u8) -> Self {
        HuntMove {
            kind: MoveKind::Drop,
            from: to,
            to,
            captured: 0,
        }
    }
    /// A step.
    pub fn step(from: u8, to: u8) -> Self {
        HuntMove {
            kind: MoveKind::Step,
            from,
            to,
            captured: 0,
        }
    }
    /// A capture (one jump or a chain).
    pub fn capture(from: u8, to: u8, captured: u64) -> Self {
        HuntMove {
            kind: MoveKind::Capture,
            from,
            to,
            captured,
        }
    }
    /// The pass.
    pub fn pass() -> Self {
        HuntMove {
            kind: MoveKind::Pass,
            from: 0,
            to: 0,
            captured: 0,
        }
    }
}

/// Evaluation weights (centi-cows), settable by name with [`Game::set_eval_param`].
///
/// The score is computed for the hunters and negated when the prey are to move:
/// `capture * captured + mobility * (hunter steps + jumps) + threat * (single-jump
/// captures available) + en_prise * (distinct prey that can be jumped) +
/// trapped * (hunters with no step or jump) + in_hand * (prey still in hand)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per prey captured so far.
    pub capture: i32,
    /// Per hunter step or jump available.
    pub mobility: i32,
    /// Per single-jump capture available to the hunters.
    pub threat: i32,
    /// Per distinct prey some hunter could jump now.
    pub en_prise: i32,
    /// Per hunter that can neither step nor jump (usually negative).
    pub trapped: i32,
    /// Per prey still in hand (usually negative: prey in hand are safe and flexible).
    pub in_hand: i32,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            capture: 100,
            mobility: 4,
            threat: 10,
            en_prise: 30,
            trapped: -60,
            in_hand: -5,
        }
    }
}

const EVAL_NAMES: [&str; 6] = [
    "capture", "mobility", "threat", "en_prise", "trapped", "in_hand",
];

/// Board tables copied into fixed-size arrays (no bounds checks, one pointer
/// from the game) plus the Zobrist keys: everything the move generator touches.
#[derive(Debug)]
struct Tables {
    all: u64,
    neighbours: [u64; 64],
    jump_over: [u64; 64],
    jump_to: [[u8; 64]; 64],
}

impl Tables {
    fn new(b: &Board) -> Tables {
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

/// Zobrist keys of one game.
#[derive(Debug)]
struct Keys {
    hunter: [u64; 64],
    prey: [u64; 64],
    hunters_in_hand: [u64; 65],
    prey_in_hand: [u64; 65],
    captured: [u64; 65],
    hunter_to_move: u64,
}

impl Keys {
    fn new() -> Keys {
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

/// A hunt game: rules, board, keys and evaluation weights.
#[derive(Clone, Debug)]
pub struct HuntGame {
    rules: HuntRules,
    board: Arc<Board>,
    tables: Arc<Tables>,
    keys: Arc<Keys>,
    start_hunters: u64,
    /// Captures that win for the hunters (`u32::MAX` under `static`).
    win_captures: u32,
    /// Under `static`: the hunters win when prey on board + in hand < this.
    static_threshold: u32,
    /// `M_k` of the board for the rules' hunter count, when computable.
    m_hunters: Option<u32>,
    weights: EvalWeights,
    canonical: String,
    fingerprint: u64,
}

impl HuntGame {
    /// Builds the game: loads the board, resolves starting points, and derives
    /// the win thresholds. Errors name the offending option.
    pub fn new(mut rules: HuntRules) -> Result<HuntGame> {
        rules.check()?;
        let board = if crate::board::BUILTIN.iter().any(|b| b.0 == rules.board) {
            Board::builtin(&rules.board)?
        } else if rules.board.contains('/') || rules.board.contains('.') {
            Board::from_file(std::path::Path::new(&rules.board))?
        } else {
            return Err(Error::Rules(format!(
                "unknown board '{}'; accepted: {} or a board file path",
                rules.board,
                crate::board::BUILTIN
                    .iter()
                    .map(|b| b.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        if rules.hunters as usize + rules.prey as usize > board.len() {
            return Err(Error::Rules(format!(
                "{} hunters and {} prey do not fit on the {} points of {}",
                rules.hunters,
                rules.prey,
                board.len(),
                board.name
            )));
        }
        let mut start_hunters = 0u64;
        if let HunterStart::Points(names) = &rules.hunter_start {
            for n in names {
                let id = board.point_by_name(n).ok_or_else(|| {
                    Error::Rules(format!("hunter_start: no point '{n}' on {}", board.name))
                })?;
                if start_hunters >> id & 1 == 1 {
                    return Err(Error::Rules(format!("hunter_start: '{n}' listed twice")));
                }
                start_hunters |= 1 << id;
            }
            // Canonical order: by point id.
            let mut ids: Vec<u8> = (0..64).filter(|i| start_hunters >> i & 1 == 1).collect();
            ids.sort_unstable();
            rules.hunter_start =
                HunterStart::Points(ids.iter().map(|&i| board.name_of(i).to_string()).collect());
        }
        if rules.first_drop == FirstDrop::Centre && board.centre.is_none() {
            return Err(Error::Rules(format!(
                "first_drop=centre: board {} has no centre point",
                board.name
            )));
        }
        let m_hunters = board.min_prey_to_immobilise(rules.hunters as usize);
        let (win_captures, static_threshold) = match rules.hunter_win {
            HunterWin::Captures(n) => (n as u32, 0),
            HunterWin::Static => {
                let m = m_hunters.ok_or_else(|| {
                    Error::Rules(format!(
                        "hunter_win=static: M_{} of {} is too costly to enumerate",
                        rules.hunters, board.name
                    ))
                })?;
                (u32::MAX, m)
            }
        };
        let canonical = rules.canonical();
        let mut fp = 0x9e37_79b9_7f4a_7c15u64 ^ board.digest();
        for b in canonical.bytes() {
            fp = crate::random::mix64(fp ^ b as u64);
        }
        Ok(HuntGame {
            rules,
            tables: Arc::new(Tables::new(&board)),
            board: Arc::new(board),
            keys: Arc::new(Keys::new()),
            start_hunters,
            win_captures,
            static_threshold,
            m_hunters,
            weights: EvalWeights::default(),
            canonical,
            fingerprint: fp,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &HuntRules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// `M_k` of the board for the rules' number of hunters (§1.6), if computed.
    pub fn m_hunters(&self) -> Option<u32> {
        self.m_hunters
    }

    /// The evaluation weights.
    pub fn weights(&self) -> EvalWeights {
        self.weights
    }

    /// Builds a position from its parts, computing the hash.
    pub fn make_pos(
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
    pub fn compute_hash(&self, p: &HuntPos) -> u64 {
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
    pub fn map_pos(&self, sym: usize, p: &HuntPos) -> HuntPos {
        self.make_pos(
            self.board.map_mask(sym, p.hunters),
            self.board.map_mask(sym, p.prey),
            p.hunters_in_hand,
            p.prey_in_hand,
            p.captured,
            p.hunter_to_move,
        )
    }

    /// Whether the hunters have already won (H11).
    pub fn hunters_have_won(&self, p: &HuntPos) -> bool {
        p.captured as u32 >= self.win_captures
            || p.prey.count_ones() + (p.prey_in_hand as u32) < self.static_threshold
    }

    #[inline]
    fn empty(&self, p: &HuntPos) -> u64 {
        self.tables.all & !(p.hunters | p.prey)
    }

    /// Whether the hunters have any legal action (ignores H11).
    fn hunter_can_move(&self, p: &HuntPos) -> bool {
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

    /// Whether the prey have any legal action other than a pass.
    fn prey_can_move(&self, p: &HuntPos) -> bool {
        let empty = self.empty(p);
        if p.prey_in_hand > 0 && empty != 0 {
            return true;
        }
        if p.prey_in_hand > 0 && self.rules.drop_before_move.1 {
            return false;
        }
        bits(p.prey).any(|q| self.tables.neighbours[q] & empty != 0)
    }

    fn gen_hunter(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
        let empty = self.empty(p);
        let b = &*self.tables;
        let mut drops = 0u64;
        if p.hunters_in_hand > 0 {
            drops = empty;
            if self.rules.first_drop == FirstDrop::Centre && p.hunters == 0 {
                if let Some(c) = self.board.centre {
                    if empty >> c & 1 == 1 {
                        drops = 1 << c;
                    }
                }
            }
            if self.rules.drop_before_move.0 || p.hunters == 0 {
                for t in bits(drops) {
                    out.push(HuntMove::drop(t as u8));
                }
                return;
            }
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

    fn gen_captures(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
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
    fn chain_dfs(
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

    fn gen_prey(&self, p: &HuntPos, out: &mut Vec<HuntMove>) {
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
    pub fn capture_path(&self, p: &HuntPos, mv: &HuntMove) -> Option<Vec<u8>> {
        let others = p.hunters & !(1u64 << mv.from);
        let mut path = Vec::new();
        if self.path_dfs(p, others, mv, mv.from, 0, &mut path) {
            Some(path)
        } else {
            None
        }
    }

    fn path_dfs(
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
    fn walk_path(&self, p: &HuntPos, from: u8, landings: &[u8]) -> Option<u64> {
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

    fn point(&self, name: &str) -> Result<u8> {
        self.board
            .point_by_name(name)
            .ok_or_else(|| Error::Move(format!("no point '{name}' on board {}", self.board.name)))
    }

    fn legal_list(&self, pos: &HuntPos) -> String {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            return "none".into();
        }
        let mut v: Vec<String> = moves.iter().map(|&m| self.format_move(pos, m)).collect();
        v.sort();
        v.join(" ")
    }
}

/// Iterates the set bits of a mask as indices.
#[inline]
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
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

#[inline]
fn push_unique(out: &mut Vec<HuntMove>, first: usize, mv: HuntMove) {
    if !out[first..].contains(&mv) {
        out.push(mv);
    }
}

impl Game for HuntGame {
    type Pos = HuntPos;
    type Move = HuntMove;

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
        self.make_pos(
            self.start_hunters,
            0,
            if hand { self.rules.hunters } else { 0 },
            self.rules.prey,
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
        debug_assert_eq!(p.hash, self.compute_hash(&p));
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

    fn is_capture(&self, _pos: &HuntPos, mv: HuntMove) -> bool {
        mv.kind == MoveKind::Capture
    }

    fn captures_of(&self, _pos: &HuntPos, mv: HuntMove) -> u32 {
        mv.captured.count_ones()
    }

    fn format_position(&self, pos: &HuntPos) -> String {
        let mut s: String = (0..self.board.len())
            .map(|i| {
                if pos.hunters >> i & 1 == 1 {
                    'H'
                } else if pos.prey >> i & 1 == 1 {
                    'P'
                } else {
                    '.'
                }
            })
            .collect();
        s.push_str(&format!(
            "/h{}p{}c{}/{}",
            pos.hunters_in_hand,
            pos.prey_in_hand,
            pos.captured,
            if pos.hunter_to_move { 'h' } else { 'p' }
        ));
        s
    }

    fn parse_position(&self, text: &str) -> Result<HuntPos> {
        let text = text.trim();
        if text == "start" {
            return Ok(self.start());
        }
        let bad = |m: String| Error::Position(format!("'{text}': {m}"));
        let parts: Vec<&str> = text.split(['/', '|']).collect();
        if parts.len() != 3 {
            return Err(bad(
                "expected POINTS/h<n>p<n>c<n>/<h|p>, e.g. 'H..P/h1p23c0/h', or 'start'".into(),
            ));
        }
        let cells = parts[0];
        if cells.chars().count() != self.board.len() {
            return Err(bad(format!(
                "{} point characters for the {} points of {}",
                cells.chars().count(),
                self.board.len(),
                self.board.name
            )));
        }
        let (mut hunters, mut prey) = (0u64, 0u64);
        for (i, c) in cells.chars().enumerate() {
            match c {
                'H' => hunters |= 1 << i,
                'P' => prey |= 1 << i,
                '.' => {}
                _ => return Err(bad(format!("character '{c}' at point {i}; use H, P or ."))),
            }
        }
        let counts = parts[1];
        let num = |tag: char, rest: &str| -> Result<(u8, usize)> {
            let r = rest
                .strip_prefix(tag)
                .ok_or_else(|| bad(format!("expected '{tag}<n>' in '{counts}'")))?;
            let len = r.chars().take_while(|c| c.is_ascii_digit()).count();
            let n = r[..len]
                .parse::<u8>()
                .map_err(|_| bad(format!("bad number after '{tag}' in '{counts}'")))?;
            Ok((n, 1 + len))
        };
        let (hih, a) = num('h', counts)?;
        let (pih, b) = num('p', &counts[a..])?;
        let (cap, c) = num('c', &counts[a + b..])?;
        if a + b + c != counts.len() {
            return Err(bad(format!("trailing text in '{counts}'")));
        }
        let hunter_to_move = match parts[2] {
            "h" => true,
            "p" => false,
            s => return Err(bad(format!("side '{s}'; use h or p"))),
        };
        let r = &self.rules;
        if hunters.count_ones() + hih as u32 != r.hunters as u32 {
            return Err(bad(format!(
                "{} hunters on the board and {hih} in hand; the rules have {}",
                hunters.count_ones(),
                r.hunters
            )));
        }
        if prey.count_ones() + pih as u32 + cap as u32 != r.prey as u32 {
            return Err(bad(format!(
                "{} prey on the board, {pih} in hand and {cap} captured; the rules have {}",
                prey.count_ones(),
                r.prey
            )));
        }
        Ok(self.make_pos(hunters, prey, hih, pih, cap, hunter_to_move))
    }

    fn format_move(&self, pos: &HuntPos, mv: HuntMove) -> String {
        let n = |i: u8| self.board.name_of(i).to_string();
        match mv.kind {
            MoveKind::Drop => n(mv.to),
            MoveKind::Step => format!("{}-{}", n(mv.from), n(mv.to)),
            MoveKind::Pass => "pass".into(),
            MoveKind::Capture => {
                let mut s = n(mv.from);
                match self.capture_path(pos, &mv) {
                    Some(path) => {
                        for t in path {
                            s.push('x');
                            s.push_str(&n(t));
                        }
                    }
                    // Not a capture of this position; show its ends.
                    None => {
                        s.push('x');
                        s.push_str(&n(mv.to));
                    }
                }
                s
            }
        }
    }

    fn parse_move(&self, pos: &HuntPos, text: &str) -> Result<HuntMove> {
        let t = text.trim();
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        let wanted = if t == "pass" {
            Some(HuntMove::pass())
        } else if t.contains('x') {
            let names: Vec<&str> = t.split('x').collect();
            let ids = names
                .iter()
                .map(|n| self.point(n))
                .collect::<Result<Vec<u8>>>()?;
            if ids.len() < 2 {
                return Err(Error::Move(format!(
                    "'{t}': a capture needs a landing point"
                )));
            }
            self.walk_path(pos, ids[0], &ids[1..])
                .map(|mask| HuntMove::capture(ids[0], *ids.last().unwrap_or(&ids[0]), mask))
        } else if let Some((a, b)) = t.split_once('-') {
            Some(HuntMove::step(self.point(a)?, self.point(b)?))
        } else {
            Some(HuntMove::drop(self.point(t)?))
        };
        match wanted {
            Some(m) if moves.contains(&m) => Ok(m),
            _ => Err(Error::Move(format!(
                "'{t}' is not legal here; legal moves: {}",
                self.legal_list(pos)
            ))),
        }
    }

    fn diagram(&self, pos: &HuntPos) -> String {
        let mut s = self.board.draw(|i| {
            if pos.hunters >> i & 1 == 1 {
                'H'
            } else if pos.prey >> i & 1 == 1 {
                'P'
            } else {
                '.'
            }
        });
        s.push_str(&format!(
            "hunters in hand {}, prey in hand {}, captured {}, {} to move\n",
            pos.hunters_in_hand,
            pos.prey_in_hand,
            pos.captured,
            if pos.hunter_to_move { "hunter" } else { "prey" }
        ));
        s
    }

    fn evaluate(&self, pos: &HuntPos) -> i32 {
        let w = &self.weights;
        let b = &*self.tables;
        let empty = self.empty(pos);
        let (mut mobility, mut threats, mut en_prise, mut trapped) = (0i32, 0i32, 0u64, 0i32);
        for h in bits(pos.hunters) {
            let steps = (b.neighbours[h] & empty).count_ones() as i32;
            let mut jumps = 0;
            for o in bits(b.jump_over[h] & pos.prey) {
                if empty >> b.jump_to[h][o] & 1 == 1 {
                    jumps += 1;
                    en_prise |= 1 << o;
                }
            }
            mobility += steps + jumps;
            threats += jumps;
            if steps + jumps == 0 {
                trapped += 1;
            }
        }
        let score = w.capture * pos.captured as i32
            + w.mobility * mobility
            + w.threat * threats
            + w.en_prise * en_prise.count_ones() as i32
            + w.trapped * trapped
            + w.in_hand * pos.prey_in_hand as i32;
        let score = score.clamp(-19_000, 19_000);
        if pos.hunter_to_move {
            score
        } else {
            -score
        }
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        let w = &mut self.weights;
        let slot = match key {
            "capture" => &mut w.capture,
            "mobility" => &mut w.mobility,
            "threat" => &mut w.threat,
            "en_prise" => &mut w.en_prise,
            "trapped" => &mut w.trapped,
            "in_hand" => &mut w.in_hand,
            _ => {
                return Err(Error::Input(format!(
                    "unknown hunt evaluation weight '{key}'; accepted: {}",
                    EVAL_NAMES.join(", ")
                )))
            }
        };
        if !(-1000..=1000).contains(&value) {
            return Err(Error::Input(format!(
                "evaluation weight {key}={value} is outside -1000..=1000"
            )));
        }
        *slot = value;
        Ok(())
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        let w = &self.weights;
        vec![
            ("capture", w.capture),
            ("mobility", w.mobility),
            ("threat", w.threat),
            ("en_prise", w.en_prise),
            ("trapped", w.trapped),
            ("in_hand", w.in_hand),
        ]
    }

    fn move_limit(&self) -> Option<u32> {
        self.rules.move_limit
    }

    fn random_move(&self, pos: &HuntPos, rng: &mut crate::random::Rng) -> Option<HuntMove> {
        self.random_move_fast(pos, rng)
    }
}
