//! The search worker: one thread's negamax with principal variation search,
//! quiescence on captures, transposition-table cuts, killers and history,
//! repetition detection along the path, and oracle (table) probes.

use super::score::{from_tt, to_tt, value_score};
use super::*;

/// Cheap hash of a move for the history table.
pub(super) fn move_slot<M: std::hash::Hash>(mv: &M) -> usize {
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

pub(super) struct Shared {
    /// Internal stop: limits reached or the main thread finished.
    pub(super) stop: AtomicBool,
    /// The caller's stop flag.
    pub(super) external: Arc<AtomicBool>,
    pub(super) nodes: AtomicU64,
    pub(super) start: Instant,
    pub(super) node_limit: Option<u64>,
    pub(super) time_limit: Option<Duration>,
}

impl Shared {
    pub(super) fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.external.load(Ordering::Relaxed)
            || stop_requested()
    }
}

pub(super) struct Worker<'a, G: Game, O: Oracle<G>> {
    pub(super) game: &'a G,
    pub(super) oracle: &'a O,
    pub(super) tt: &'a TransTable,
    pub(super) shared: &'a Shared,
    pub(super) id: usize,
    pub(super) exact: bool,
    pub(super) history_set: HashSet<u64>,
    pub(super) qdepth: u32,
    pub(super) move_limit: Option<u32>,
    pub(super) game_ply: usize,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    pub(super) stopped: bool,
    pub(super) incomplete: bool,
    pub(super) seldepth: usize,
    pub(super) path: Vec<u64>,
    pub(super) moves: Vec<Vec<G::Move>>,
    pub(super) order: Vec<Vec<(i32, u16)>>,
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    pub(super) hist: Vec<i32>,
    pub(super) pv: Vec<Vec<G::Move>>,
}

impl<'a, G: Evaluate, O: Oracle<G>> Worker<'a, G, O> {
    pub(super) fn new(
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
    pub(super) fn tick(&mut self) -> bool {
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

    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The principal variation at `ply` becomes `mv` followed by the one found below it.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    pub(super) fn is_repetition(&self, hash: u64) -> bool {
        // The current position is the last entry of `path`.
        let n = self.path.len();
        n >= 2 && self.path[..n - 1].contains(&hash) || self.history_set.contains(&hash)
    }

    /// Appends the moves of `ply` other than `tt_move` to `order`, best first
    /// (captures by size, killers, history). Capture detection can cost a move
    /// application, so it is done only when the table move did not cut off.
    pub(super) fn order_moves(
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

    pub(super) fn negamax(
        &mut self,
        pos: &G::Pos,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
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
            if let Some(s) = self.path_or_oracle(pos, hash, ply) {
                return s;
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
            if ply > 0 && e.depth as i32 >= depth && !pv_node {
                if let Some(s) = self.tt_cut(&e, alpha, beta, ply) {
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
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    if !self.game.is_capture(pos, mv) {
                        self.remember_quiet_cut(mv, side, depth, ply);
                    }
                    break;
                }
            }
        }
        self.order[ply] = order;
        let bound = Bound::of(best, alpha0, beta);
        self.store(hash, best, depth, bound, best_idx, ply);
        best
    }

    /// A score without search for a position below the root: a repetition or
    /// the move limit (0, the search incomplete), or the oracle's value.
    #[inline]
    fn path_or_oracle(&mut self, pos: &G::Pos, hash: u64, ply: usize) -> Option<i32> {
        if self.is_repetition(hash) {
            self.incomplete = true;
            return Some(0);
        }
        if let Some(limit) = self.move_limit {
            if (self.game_ply + ply) as u32 >= limit {
                self.incomplete = true;
                return Some(0);
            }
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            return Some(value_score(v, d, ply));
        }
        None
    }

    /// The score of a deep enough table entry whose bound cuts at (alpha, beta).
    #[inline]
    fn tt_cut(&mut self, e: &Entry, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        let s = from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        if !cut {
            return None;
        }
        if s.abs() <= PROVEN {
            self.incomplete = true;
        }
        Some(s)
    }

    /// A quiet move that cut off: remembered for ordering (killer, history).
    #[inline]
    fn remember_quiet_cut(&mut self, mv: G::Move, side: usize, depth: i32, ply: usize) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let h = &mut self.hist[side * HIST_SIZE + move_slot(&mv)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    pub(super) fn store(
        &self,
        hash: u64,
        score: i32,
        depth: i32,
        bound: Bound,
        best: u16,
        ply: usize,
    ) {
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

    pub(super) fn qsearch(
        &mut self,
        pos: &G::Pos,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        q: u32,
    ) -> i32 {
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
                    self.update_pv(ply, mv);
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
    pub(super) fn root(
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
            let bound = Bound::of(best, alpha0, beta);
            self.store(hash, best, depth, bound, best_idx, 0);
        }
        best
    }
}
