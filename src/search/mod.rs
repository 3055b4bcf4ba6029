//! Parallel alpha-beta search over any [`Game`].
//!
//! Negamax with principal variation search, iterative deepening, aspiration
//! windows, a capture quiescence search, move ordering (table move, captures,
//! killers, history), a shared lock-free transposition table ([`tt`]),
//! repetition detection (a position repeated on the current line or in the game
//! history scores as a draw), exact values from an [`Oracle`] and Lazy SMP:
//! every thread runs its own iterative deepening on the shared table, helpers
//! with perturbed move orders and staggered depths; the main thread's result is
//! returned.
//!
//! Scores are from the side to move's view. Heuristic scores stay well inside
//! ±[`PROVEN`]; a proven win in `d` plies scores `MATE - d` and a proven loss
//! `-(MATE - d)` (as in chess engines), counted from the root.
//!
//! **Exact mode** ([`SearchConfig::exact`]) never evaluates: a horizon leaf is
//! "unknown" (scored 0 and marked incomplete), so every win/loss score is a
//! proof. Iterative deepening stops at the first depth that proves a win or a
//! loss (its distance is the depth-to-end under optimal play: the winner
//! hurries, the loser delays). A draw is reported as proven only when an
//! iteration finished without touching a horizon, a repetition or an inexact
//! table entry, i.e. the game tree below the root was exhausted; otherwise the
//! result is "unknown beyond depth N". Only proven bounds enter the table in
//! exact mode, so the graph-history problems of repetition cannot leak into
//! proofs.

pub mod openings;
pub mod suite;
pub mod tt;

use crate::game::{Evaluate, Game, Oracle, Value};
use crate::progress::stop_requested;
use hashbrown::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use tt::{Bound, Entry, TransTable, NO_MOVE};

/// Score of a win at the root itself; a win in `d` plies is `MATE - d`.
pub const MATE: i32 = 30_000;
/// Scores beyond ±`PROVEN` are proven wins/losses.
pub const PROVEN: i32 = 20_000;
/// Larger than any score.
pub const INF: i32 = 32_000;
/// Deepest nominal search depth.
pub const MAX_DEPTH: u32 = 120;
/// Plies of capture quiescence search below the horizon.
const QDEPTH: u32 = 8;
const MAX_PLY: usize = MAX_DEPTH as usize + QDEPTH as usize + 4;
const HIST_SIZE: usize = 4096;

/// One search limit; a search stops at the first limit reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Nominal depth in plies (iterative deepening up to it).
    Depth(u32),
    /// Total nodes over all threads (with one thread the stop is exact).
    Nodes(u64),
    /// Wall-clock time.
    Time(Duration),
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Limits (none: up to [`MAX_DEPTH`] or until stopped).
    pub limits: Vec<Limit>,
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Exact mode: no evaluation, only proofs (see the module docs).
    pub exact: bool,
    /// Search every root move with a full window, so that each root move gets
    /// an exact score (for `query`, `openings`, softmax play); slower.
    pub all_moves: bool,
    /// Restrict the root to these indices of the legal move list (`None`: all).
    pub root_moves: Option<Vec<usize>>,
    /// Hashes of the positions played before the root (for repetition).
    pub history: Vec<u64>,
    /// External stop flag (set it from another thread to stop the search).
    pub stop: Arc<AtomicBool>,
    /// Plies of capture quiescence search below the horizon (at most 8;
    /// `None`: [`default_qdepth`] of the game family).
    pub qdepth: Option<u32>,
}

/// Default quiescence depth of a family. Hunt moves carry their captures, so
/// finding them is free; a tafl capture is known only by applying the move,
/// which makes a capture search cost a move application per legal move of
/// every leaf, so it is off for tafl.
pub fn default_qdepth(family: &str) -> u32 {
    if family == "tafl" {
        0
    } else {
        QDEPTH
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            limits: Vec::new(),
            threads: 1,
            exact: false,
            all_moves: false,
            root_moves: None,
            history: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            qdepth: None,
        }
    }
}

impl SearchConfig {
    /// A configuration searching to a fixed depth.
    pub fn depth(depth: u32) -> Self {
        SearchConfig {
            limits: vec![Limit::Depth(depth)],
            ..Default::default()
        }
    }

    fn max_depth(&self) -> u32 {
        self.limits
            .iter()
            .filter_map(|l| match l {
                Limit::Depth(d) => Some(*d),
                _ => None,
            })
            .min()
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH)
    }
}

/// The score of one root move in the last completed iteration.
#[derive(Clone, Debug)]
pub struct RootMove<G: Game> {
    /// The move.
    pub mv: G::Move,
    /// Its index in the root's legal move list.
    pub index: usize,
    /// Score (side to move at the root). An upper bound unless `exact`.
    pub score: i32,
    /// Whether `score` is exact (always with [`SearchConfig::all_moves`]).
    pub exact: bool,
    /// Proven value and distance of the move from the root (`None`: not proven).
    pub proven: Option<(Value, u32)>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<G: Game> {
    /// Score of the root from the side to move's view.
    pub score: i32,
    /// Best move (`None` only when the root is terminal or has no move).
    pub best: Option<G::Move>,
    /// Principal variation starting with `best`.
    pub pv: Vec<G::Move>,
    /// Last completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// Proven value and distance in plies (exact mode proves draws too).
    pub proven: Option<(Value, u32)>,
    /// Root moves with their scores, best first.
    pub root_moves: Vec<RootMove<G>>,
    /// Whether the search was cut short by a stop request or the time/node limit
    /// before reaching its depth limit.
    pub interrupted: bool,
}

impl<G: Game> SearchResult<G> {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Proven value and distance encoded by a score, if it is a proof.
pub fn proven_of(score: i32) -> Option<(Value, u32)> {
    if score > PROVEN {
        Some((Value::Win, (MATE - score) as u32))
    } else if score < -PROVEN {
        Some((Value::Loss, (MATE + score) as u32))
    } else {
        None
    }
}

/// Text form of a score: `win in 7`, `loss in 4`, or centi-pieces (`+35`).
pub fn score_text(score: i32) -> String {
    match proven_of(score) {
        Some((v, d)) => format!("{v} in {d}"),
        None => format!("{score:+}"),
    }
}

/// Score of a terminal or oracle value at `ply` plies from the root.
fn value_score(v: Value, dist: u32, ply: usize) -> i32 {
    let d = (ply as i64 + dist as i64).min((MATE - PROVEN - 1) as i64) as i32;
    match v {
        Value::Win => MATE - d,
        Value::Loss => -(MATE - d),
        Value::Draw => 0,
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// Cheap hash of a move for the history table.
fn move_slot<M: std::hash::Hash>(mv: &M) -> usize {
    struct H(u64);
    impl std::hash::Hasher for H {
        fn finish(&self) -> u64 {
            crate::random::mix64(self.0)
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        fn write_u8(&mut self, i: u8) {
            self.0 = (self.0 ^ i as u64).wrapping_mul(0x100_0000_01b3);
        }
        fn write_u16(&mut self, i: u16) {
            self.0 = (self.0 ^ i as u64).wrapping_mul(0x100_0000_01b3);
        }
        fn write_u32(&mut self, i: u32) {
            self.0 = (self.0 ^ i as u64).wrapping_mul(0x100_0000_01b3);
        }
        fn write_u64(&mut self, i: u64) {
            self.0 = (self.0 ^ i).wrapping_mul(0x100_0000_01b3);
        }
        fn write_usize(&mut self, i: usize) {
            self.write_u64(i as u64);
        }
    }
    let mut h = H(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut h);
    std::hash::Hasher::finish(&h) as usize & (HIST_SIZE - 1)
}

struct Shared {
    /// Internal stop: limits reached or the main thread finished.
    stop: AtomicBool,
    /// The caller's stop flag.
    external: Arc<AtomicBool>,
    nodes: AtomicU64,
    start: Instant,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
}

impl Shared {
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.external.load(Ordering::Relaxed)
            || stop_requested()
    }
}

struct Worker<'a, G: Game, O: Oracle<G>> {
    game: &'a G,
    oracle: &'a O,
    tt: &'a TransTable,
    shared: &'a Shared,
    id: usize,
    exact: bool,
    history_set: HashSet<u64>,
    qdepth: u32,
    move_limit: Option<u32>,
    game_ply: usize,
    nodes: u64,
    flushed: u64,
    stopped: bool,
    incomplete: bool,
    seldepth: usize,
    path: Vec<u64>,
    moves: Vec<Vec<G::Move>>,
    order: Vec<Vec<(i32, u16)>>,
    killers: Vec<[Option<G::Move>; 2]>,
    hist: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
}

impl<'a, G: Evaluate, O: Oracle<G>> Worker<'a, G, O> {
    fn new(
        game: &'a G,
        oracle: &'a O,
        tt: &'a TransTable,
        shared: &'a Shared,
        cfg: &SearchConfig,
        id: usize,
    ) -> Self {
        Worker {
            game,
            oracle,
            tt,
            shared,
            id,
            exact: cfg.exact,
            history_set: cfg.history.iter().copied().collect(),
            qdepth: cfg
                .qdepth
                .unwrap_or_else(|| default_qdepth(game.family()))
                .min(QDEPTH),
            move_limit: if cfg.exact { None } else { game.move_limit() },
            game_ply: cfg.history.len(),
            nodes: 0,
            flushed: 0,
            stopped: false,
            incomplete: false,
            seldepth: 0,
            path: Vec::with_capacity(MAX_PLY + 1),
            moves: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            killers: vec![[None, None]; MAX_PLY + 1],
            hist: vec![0; 2 * HIST_SIZE],
            pv: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
        }
    }

    /// Counts a node and checks the limits; true when the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if let Some(limit) = self.shared.node_limit {
            let others = self.shared.nodes.load(Ordering::Relaxed) - self.flushed;
            if self.nodes + others >= limit {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            if let Some(t) = self.shared.time_limit {
                if self.shared.start.elapsed() >= t {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
            if self.shared.should_stop() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn is_repetition(&self, hash: u64) -> bool {
        // The current position is the last entry of `path`.
        let n = self.path.len();
        n >= 2 && self.path[..n - 1].contains(&hash) || self.history_set.contains(&hash)
    }

    /// Appends the moves of `ply` other than `tt_move` to `order`, best first
    /// (captures by size, killers, history). Capture detection can cost a move
    /// application, so it is done only when the table move did not cut off.
    fn order_moves(
        &self,
        pos: &G::Pos,
        ply: usize,
        tt_move: u16,
        hash: u64,
        order: &mut Vec<(i32, u16)>,
    ) {
        let side = self.game.side_to_move(pos) & 1;
        let first = order.len();
        for (i, &mv) in self.moves[ply].iter().enumerate() {
            if i as u16 == tt_move {
                continue;
            }
            let caps = self.game.captures_of(pos, mv);
            let s = if caps > 0 {
                (1 << 24) + caps as i32 * 1000
            } else if self.killers[ply][0] == Some(mv) {
                1 << 22
            } else if self.killers[ply][1] == Some(mv) {
                (1 << 22) - 1
            } else {
                let mut h = self.hist[side * HIST_SIZE + move_slot(&mv)];
                if self.id > 0 {
                    // Lazy SMP: helpers break ties differently so threads diverge.
                    h += (crate::random::mix64(hash ^ (i as u64) ^ ((self.id as u64) << 40)) & 63)
                        as i32;
                }
                h
            };
            order.push((s, i as u16));
        }
        // Stable sort keeps the generator's order among equals: deterministic.
        order[first..].sort_by_key(|e| std::cmp::Reverse(e.0));
    }

    fn negamax(&mut self, pos: &G::Pos, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.game.outcome(pos) {
            return value_score(v, 0, ply);
        }
        let hash = self.game.hash(pos);
        if ply > 0 {
            if self.is_repetition(hash) {
                self.incomplete = true;
                return 0;
            }
            if let Some(limit) = self.move_limit {
                if (self.game_ply + ply) as u32 >= limit {
                    self.incomplete = true;
                    return 0;
                }
            }
            if let Some((v, d)) = self.oracle.probe(self.game, pos) {
                return value_score(v, d, ply);
            }
        }
        if depth <= 0 || ply >= MAX_PLY - QDEPTH as usize - 2 {
            self.incomplete = true;
            if self.exact {
                return 0;
            }
            return self.qsearch(pos, alpha, beta, ply, self.qdepth);
        }
        let pv_node = beta - alpha > 1;
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(hash) {
            tt_move = e.best;
            let s = from_tt(e.score, ply);
            if ply > 0 && e.depth as i32 >= depth && !pv_node {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    if s.abs() <= PROVEN {
                        self.incomplete = true;
                    }
                    return s;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.game.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return 0;
        }
        if tt_move as usize >= moves.len() {
            tt_move = NO_MOVE;
        }
        self.moves[ply] = moves;
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        let mut ordered = tt_move == NO_MOVE;
        if ordered {
            self.order_moves(pos, ply, tt_move, hash, &mut order);
        } else {
            order.push((1 << 30, tt_move));
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_idx = NO_MOVE;
        let side = self.game.side_to_move(pos) & 1;
        let mut n = 0;
        loop {
            if n == order.len() {
                if ordered {
                    break;
                }
                // The table move did not cut off: order the rest now.
                self.order_moves(pos, ply, tt_move, hash, &mut order);
                ordered = true;
                if n == order.len() {
                    break;
                }
            }
            let idx = order[n].1;
            let mv = self.moves[ply][idx as usize];
            let child = self.game.play(pos, mv);
            self.path.push(self.game.hash(&child));
            let score = if n == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            n += 1;
            self.path.pop();
            if self.stopped {
                self.order[ply] = order;
                return 0;
            }
            if score > best {
                best = score;
                best_idx = idx;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if score >= beta {
                    if !self.game.is_capture(pos, mv) {
                        // A quiet move that cut off: remember it for ordering.
                        if self.killers[ply][0] != Some(mv) {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = Some(mv);
                        }
                        let h = &mut self.hist[side * HIST_SIZE + move_slot(&mv)];
                        *h = (*h + depth * depth).min(1 << 20);
                    }
                    break;
                }
            }
        }
        self.order[ply] = order;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(hash, best, depth, bound, best_idx, ply);
        best
    }

    fn store(&self, hash: u64, score: i32, depth: i32, bound: Bound, best: u16, ply: usize) {
        let bound = if self.exact {
            // Only proofs enter the table in exact mode: a win is a lower bound
            // ("wins within d"), a loss an upper bound ("loses within d").
            if score > PROVEN && bound != Bound::Upper {
                Bound::Lower
            } else if score < -PROVEN && bound != Bound::Lower {
                Bound::Upper
            } else {
                return;
            }
        } else {
            bound
        };
        self.tt.store(
            hash,
            Entry {
                score: to_tt(score, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
                best,
            },
        );
    }

    fn qsearch(&mut self, pos: &G::Pos, mut alpha: i32, beta: i32, ply: usize, q: u32) -> i32 {
        self.pv[ply].clear();
        if ply > 0 && self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if let Some(v) = self.game.outcome(pos) {
                return value_score(v, 0, ply);
            }
        }
        let stand = self.game.evaluate(pos).clamp(-PROVEN + 1, PROVEN - 1);
        if stand >= beta || q == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        self.game.legal_moves(pos, &mut moves);
        let mut caps: Vec<(u32, G::Move)> = moves
            .iter()
            .map(|&m| (self.game.captures_of(pos, m), m))
            .filter(|c| c.0 > 0)
            .collect();
        self.moves[ply] = moves;
        caps.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut best = stand;
        for (_, mv) in caps {
            let child = self.game.play(pos, mv);
            let s = -self.qsearch(&child, -beta, -alpha, ply + 1, q - 1);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if s >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Searches the root moves at `depth` inside `(alpha, beta)`; updates each
    /// root move's score and sorts them best first. Returns the best score.
    fn root(
        &mut self,
        pos: &G::Pos,
        roots: &mut [RootMove<G>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        all_moves: bool,
    ) -> i32 {
        #![allow(clippy::needless_range_loop)]
        let alpha0 = alpha;
        let hash = self.game.hash(pos);
        self.path.clear();
        self.path.push(hash);
        self.nodes += 1;
        let mut best = -INF;
        let mut best_idx = NO_MOVE;
        let mut root_pv = Vec::new();
        for n in 0..roots.len() {
            let mv = roots[n].mv;
            let child = self.game.play(pos, mv);
            self.path.push(self.game.hash(&child));
            let a = if all_moves { alpha0 } else { alpha };
            let score = if n == 0 || all_moves {
                -self.negamax(&child, depth - 1, -beta, -a, 1)
            } else {
                let mut s = -self.negamax(&child, depth - 1, -a - 1, -a, 1);
                if s > a && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -a, 1);
                }
                s
            };
            self.path.pop();
            if self.stopped {
                break;
            }
            let r = &mut roots[n];
            r.score = score;
            r.exact = score > a && score < beta;
            r.proven = if r.exact || (score > PROVEN && score >= beta) {
                proven_of(score)
            } else {
                None
            };
            if score > best {
                best = score;
                best_idx = r.index as u16;
                root_pv.clear();
                root_pv.push(mv);
                root_pv.extend_from_slice(&self.pv[1]);
            }
            if score > alpha {
                alpha = score;
            }
            if score >= beta && !all_moves {
                break;
            }
        }
        if !self.stopped {
            // Stable: equal scores keep their previous order (determinism).
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            self.pv[0] = root_pv;
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store(hash, best, depth, bound, best_idx, 0);
        }
        best
    }
}

/// Searches `pos` with a fresh table of `hash_mib` MiB (deterministic with one
/// thread and a depth or node limit).
pub fn search_fresh<G: Evaluate, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    cfg: &SearchConfig,
    hash_mib: usize,
) -> SearchResult<G> {
    let tt = TransTable::new(hash_mib);
    search(game, pos, oracle, cfg, &tt)
}

/// Searches `pos` using (and filling) `tt`, which may be reused across calls.
pub fn search<G: Evaluate, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    cfg: &SearchConfig,
    tt: &TransTable,
) -> SearchResult<G> {
    let start = Instant::now();
    tt.new_search();
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let wanted: Vec<usize> = match &cfg.root_moves {
        Some(list) => list.iter().copied().filter(|&i| i < moves.len()).collect(),
        None => (0..moves.len()).collect(),
    };
    let roots: Vec<RootMove<G>> = wanted
        .iter()
        .map(|&i| RootMove {
            mv: moves[i],
            index: i,
            score: -INF,
            exact: false,
            proven: None,
        })
        .collect();
    let mut result = SearchResult {
        score: 0,
        best: roots.first().map(|r| r.mv),
        pv: roots.first().map(|r| vec![r.mv]).unwrap_or_default(),
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        proven: None,
        root_moves: roots.clone(),
        interrupted: false,
    };
    if let Some(v) = game.outcome(pos) {
        result.score = value_score(v, 0, 0);
        result.proven = Some((v, 0));
        result.best = None;
        result.pv.clear();
        result.nodes = 1;
        result.time = start.elapsed();
        return result;
    }
    if roots.is_empty() {
        result.time = start.elapsed();
        return result;
    }
    let shared = Shared {
        stop: AtomicBool::new(false),
        external: cfg.stop.clone(),
        nodes: AtomicU64::new(0),
        start,
        node_limit: cfg.limits.iter().find_map(|l| match l {
            Limit::Nodes(n) => Some(*n),
            _ => None,
        }),
        time_limit: cfg.limits.iter().find_map(|l| match l {
            Limit::Time(t) => Some(*t),
            _ => None,
        }),
    };
    let threads = cfg.threads.max(1);
    let max_depth = cfg.max_depth();
    let main_result = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for id in 1..threads {
            let (shared, roots) = (&shared, roots.clone());
            handles.push(scope.spawn(move || {
                let mut w = Worker::new(game, oracle, tt, shared, cfg, id);
                let mut roots = roots;
                // Staggered depths: odd helpers start one ply deeper.
                let mut depth = 1 + (id as u32 & 1);
                while depth <= max_depth && !shared.should_stop() {
                    w.root(pos, &mut roots, depth as i32, -INF, INF, false);
                    if w.stopped {
                        break;
                    }
                    depth += 1;
                }
                w.flush_nodes();
            }));
        }
        let r = iterate(game, oracle, tt, &shared, cfg, pos, roots, max_depth);
        // The main thread is done: stop the helpers.
        shared.stop.store(true, Ordering::Relaxed);
        for h in handles {
            let _ = h.join();
        }
        r
    });
    let mut r = main_result;
    r.nodes = shared.nodes.load(Ordering::Relaxed);
    r.time = start.elapsed();
    r
}

/// The main thread's iterative deepening.
#[allow(clippy::too_many_arguments)]
fn iterate<G: Evaluate, O: Oracle<G>>(
    game: &G,
    oracle: &O,
    tt: &TransTable,
    shared: &Shared,
    cfg: &SearchConfig,
    pos: &G::Pos,
    mut roots: Vec<RootMove<G>>,
    max_depth: u32,
) -> SearchResult<G> {
    let mut w = Worker::new(game, oracle, tt, shared, cfg, 0);
    let mut result = SearchResult {
        score: 0,
        best: Some(roots[0].mv),
        pv: vec![roots[0].mv],
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        proven: None,
        root_moves: roots.clone(),
        interrupted: false,
    };
    let mut prev: i32 = 0;
    for depth in 1..=max_depth {
        w.incomplete = false;
        let score = if !cfg.exact && depth >= 4 && prev.abs() < PROVEN && !cfg.all_moves {
            // Aspiration window around the previous score, widened on failure.
            let mut delta = 40;
            loop {
                let (a, b) = ((prev - delta).max(-INF), (prev + delta).min(INF));
                let s = w.root(pos, &mut roots, depth as i32, a, b, false);
                if w.stopped || (s > a && s < b) {
                    break s;
                }
                delta *= 4;
                if delta > 4000 {
                    break w.root(pos, &mut roots, depth as i32, -INF, INF, false);
                }
            }
        } else {
            w.root(pos, &mut roots, depth as i32, -INF, INF, cfg.all_moves)
        };
        if w.stopped {
            result.interrupted = true;
            break;
        }
        prev = score;
        result.score = score;
        result.depth = depth;
        result.seldepth = w.seldepth as u32;
        result.best = Some(roots[0].mv);
        result.pv = w.pv[0].clone();
        if result.pv.is_empty() {
            result.pv.push(roots[0].mv);
        }
        result.root_moves = roots.clone();
        result.proven = proven_of(score);
        if result.proven.is_none() && !w.incomplete {
            // The whole tree below the root was searched to its ends.
            result.proven = Some((Value::Draw, 0));
            for r in result.root_moves.iter_mut() {
                if r.exact && r.score == 0 {
                    r.proven = Some((Value::Draw, 0));
                }
            }
        }
        if cfg.exact && result.proven.is_some() && !cfg.all_moves {
            break;
        }
        if result.proven.is_some() && !w.incomplete {
            break;
        }
        if let Some(t) = shared.time_limit {
            // A new iteration typically costs several times the last one.
            if shared.start.elapsed() * 3 >= t {
                break;
            }
        }
    }
    w.flush_nodes();
    result
}
