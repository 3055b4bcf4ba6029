//! The df-pn search of one thread: a node's numbers from the table, the rules
//! and the oracle (`look`), the children combined with the 1+ε trick and weak
//! sums (`combine`), and the recursion under thresholds (`mid`, `run_root`).

use super::{
    key_of, wins_for, Init, Known, Look, Worker, NO_REP, PATH_DISPROOF_DN, PATH_DISPROOF_PN,
};
use crate::game::{Game, Oracle, Value};
use crate::prove::budget::{FRAME_BYTES, MAX_FRAME_DEPTH};
use crate::prove::tt::{Entry, Reps, INF, MAX_FINITE};
use std::sync::atomic::Ordering;

#[derive(Clone, Debug)]
struct Child<P> {
    pos: P,
    hash: u64,
    pn: u32,
    dn: u32,
    dist: u32,
    /// Numbers that cannot change while this frame lives (a leaf, a final
    /// table entry, a repetition or a path-dependent disproof).
    fixed: bool,
    /// For a disproof: the ply of the highest ancestor it repeats.
    rep: u32,
    /// For a path-dependent disproof: the ancestors it repeats.
    reps: Reps,
}

/// Result of a node search.
#[derive(Clone, Copy, Debug)]
struct Res {
    pn: u32,
    dn: u32,
    dist: u32,
    rep: u32,
    reps: Reps,
}

impl Res {
    /// Numbers of a node left open (its search was stopped).
    fn open() -> Res {
        Res::numbers(1, 1)
    }

    /// Numbers of an undecided node, or of a final one with no distance and no
    /// repetition.
    fn numbers(pn: u32, dn: u32) -> Res {
        Res {
            pn,
            dn,
            dist: 0,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }

    /// A proof in `dist` plies.
    fn proven(dist: u32) -> Res {
        Res {
            dist,
            ..Res::numbers(0, INF)
        }
    }

    /// A disproof that depends on the repetitions `rep` and `reps` (none: `NO_REP`).
    fn disproven(rep: u32, reps: Reps) -> Res {
        Res {
            rep,
            reps,
            ..Res::numbers(INF, 0)
        }
    }
}

impl<G: Game, O: Oracle<G>> Worker<'_, G, O> {
    fn leaf(&self, v: Value, mover: usize, dist: u32) -> Look {
        let (pn, dn) = if wins_for(v, mover, self.side) {
            (0, INF)
        } else {
            (INF, 0)
        };
        Look {
            pn,
            dn,
            dist,
            fixed: true,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }

    /// The key of `pos` in the proof table and on the path: its hash, or with
    /// [`ProveConfig::symmetry`] the hash shared by its symmetric images (the
    /// search is then df-pn on the game's quotient by the symmetries, whose
    /// values are the game's; see [`crate::prove`]).
    pub(crate) fn key(&self, pos: &G::Pos) -> u64 {
        if self.symmetry {
            self.game.canonical_hash(pos)
        } else {
            self.game.hash(pos)
        }
    }

    /// The numbers of a position seen from a parent: a terminal or table leaf,
    /// a repetition of the current path, a table entry, or a new leaf (a win
    /// in one move found by [`Game::wins_at_once`], else the initial numbers
    /// of [`ProveConfig::init`]). `hash` is the position's [`Worker::key`].
    pub(crate) fn look(&mut self, pos: &G::Pos, hash: u64) -> Look {
        self.looks += 1;
        if let Some(v) = self.game.outcome(pos) {
            return self.leaf(v, self.game.side_to_move(pos), 0);
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            self.hits += 1;
            return self.leaf(v, self.game.side_to_move(pos), d);
        }
        if let Some(&q) = self.path.get(&hash) {
            // A repetition is a draw: never a win for the goal side.
            return Look {
                pn: INF,
                dn: 0,
                dist: 0,
                fixed: true,
                rep: q,
                reps: Reps::one(hash),
            };
        }
        let key = key_of(hash, self.side);
        match self.tt.probe(key) {
            Some(e) if e.hint => {
                // A path-dependent disproof: it holds if every ancestor it
                // repeats is on the current path.
                if let Some(r) = self.tt.reps(key) {
                    let plies: Option<Vec<u32>> = r
                        .hashes()
                        .iter()
                        .map(|h| self.path.get(h).copied())
                        .collect();
                    if let Some(min) = plies.and_then(|p| p.into_iter().min()) {
                        return Look {
                            pn: INF,
                            dn: 0,
                            dist: 0,
                            fixed: true,
                            rep: min,
                            reps: r,
                        };
                    }
                }
                Look {
                    pn: e.pn,
                    dn: e.dn,
                    dist: 0,
                    fixed: false,
                    rep: NO_REP,
                    reps: Reps::default(),
                }
            }
            Some(e) => Look {
                pn: e.pn,
                dn: e.dn,
                dist: e.dist,
                fixed: e.is_final(),
                rep: NO_REP,
                reps: Reps::default(),
            },
            None => self.new_leaf(pos),
        }
    }

    /// The numbers of a position neither terminal, known, repeated nor in the table.
    fn new_leaf(&mut self, pos: &G::Pos) -> Look {
        if self.quick_check && self.game.wins_at_once(pos) {
            // The winning move's child is terminal: a result in one ply.
            return self.leaf(Value::Win, self.game.side_to_move(pos), 1);
        }
        let (pn, dn) = match self.init {
            Init::Plain => (1, 1),
            Init::Heuristic => {
                let (p, d) = self.game.proof_hint(pos, self.side);
                (p.clamp(1, MAX_FINITE), d.clamp(1, MAX_FINITE))
            }
        };
        Look {
            pn,
            dn,
            dist: 0,
            fixed: false,
            rep: NO_REP,
            reps: Reps::default(),
        }
    }

    fn busy_slot(&self, hash: u64) -> usize {
        (hash >> 48) as usize & (self.shared.busy.len() - 1)
    }

    /// Combines the children's numbers into the node's.
    fn combine(or: bool, ch: &[Child<G::Pos>]) -> Res {
        if or {
            if let Some(d) = ch.iter().filter(|c| c.pn == 0).map(|c| c.dist).min() {
                return Res::proven(d.saturating_add(1));
            }
            if ch.iter().all(|c| c.dn == 0) {
                let rep = ch.iter().map(|c| c.rep).min().unwrap_or(NO_REP);
                let mut reps = Reps::default();
                for c in ch {
                    reps.union(&c.reps);
                }
                return Res::disproven(rep, reps);
            }
            let pn = ch.iter().map(|c| c.pn).min().unwrap_or(INF);
            let dn = weak_sum(ch.iter().filter(|c| c.dn != 0).map(|c| c.dn));
            Res::numbers(pn, dn)
        } else {
            if let Some(c) = ch.iter().filter(|c| c.dn == 0).max_by_key(|c| c.rep) {
                return Res::disproven(c.rep, c.reps);
            }
            if ch.iter().all(|c| c.pn == 0) {
                let d = ch.iter().map(|c| c.dist).max().unwrap_or(0);
                return Res::proven(d.saturating_add(1));
            }
            let pn = weak_sum(ch.iter().filter(|c| c.pn != 0).map(|c| c.pn));
            let dn = ch.iter().map(|c| c.dn).min().unwrap_or(INF);
            Res::numbers(pn, dn)
        }
    }

    /// Searches the non-terminal position `pos` (on the path at `ply`) until its
    /// numbers reach a threshold or become final.
    fn mid(&mut self, pos: &G::Pos, hash: u64, ply: u32, thpn: u32, thdn: u32) -> Res {
        let start_nodes = self.nodes;
        self.tick();
        if ply as usize >= MAX_FRAME_DEPTH {
            // One more frame could overflow the thread's stack.
            self.shared.depth_out.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
            return Res::open();
        }
        let or = self.game.side_to_move(pos) == self.side;
        let Some((moves, frame)) = self.frame_moves::<Child<G::Pos>>(pos, FRAME_BYTES) else {
            return Res::open();
        };
        let mut ch = self.children(pos, &moves);
        let shared = self.shared;
        let busy = &shared.busy[self.busy_slot(hash)];
        busy.fetch_add(1, Ordering::Relaxed);
        let mut r = if ch.is_empty() {
            // The rules engine ends a game without moves in `outcome`; a
            // position without moves that is not over cannot be won.
            Res::numbers(INF, 0)
        } else {
            Self::combine(or, &ch)
        };
        // Virtual proof numbers near the root only: deeper, steering threads away
        // from each other's lines misled the search (13x the nodes on cyclic games).
        let threads = shared.busy.len() > 1 && ply < shared.spread_plies;
        while r.pn != 0 && r.dn != 0 && r.pn < thpn && r.dn < thdn && !self.stopped {
            if ply == 0 {
                shared.root_pn.store(r.pn, Ordering::Relaxed);
                shared.root_dn.store(r.dn, Ordering::Relaxed);
            }
            let Some((best, second)) = self.best_child(&ch, or, threads) else {
                break;
            };
            let c = &ch[best];
            let (cpn, cdn) = self.child_thresholds(or, (thpn, thdn), &r, c, second);
            let (cpos, chash) = (c.pos.clone(), c.hash);
            if !self.charge_path() {
                break;
            }
            self.path.insert(chash, ply + 1);
            let cr = self.mid(&cpos, chash, ply + 1, cpn, cdn);
            self.path.remove(&chash);
            let c = &mut ch[best];
            c.pn = cr.pn;
            c.dn = cr.dn;
            c.dist = cr.dist;
            c.rep = cr.rep;
            c.reps = cr.reps;
            // A disproof that depends on this path holds as long as this frame.
            c.fixed = cr.pn == 0 || cr.dn == 0;
            self.refresh(&mut ch, best);
            r = Self::combine(or, &ch);
        }
        busy.fetch_sub(1, Ordering::Relaxed);
        drop(ch);
        drop(moves);
        self.acct.release(frame);
        self.finish(hash, ply, start_nodes, r)
    }

    /// The children of `pos` by `moves`, each with what is known of it
    /// without search.
    fn children(&mut self, pos: &G::Pos, moves: &[G::Move]) -> Vec<Child<G::Pos>> {
        let mut ch: Vec<Child<G::Pos>> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let p = self.game.play(pos, m);
            let h = self.key(&p);
            let l = self.look(&p, h);
            ch.push(Child {
                pos: p,
                hash: h,
                pn: l.pn,
                dn: l.dn,
                dist: l.dist,
                fixed: l.fixed,
                rep: l.rep,
                reps: l.reps,
            });
        }
        ch
    }

    /// The best open child and the second-best value, by the number that
    /// matters here (the proof number where the goal side moves, `or`); with
    /// several threads (`threads`), a child another thread is in counts as
    /// harder. `None`: no child is open.
    fn best_child(&self, ch: &[Child<G::Pos>], or: bool, threads: bool) -> Option<(usize, u64)> {
        let shared = self.shared;
        let value = |c: &Child<G::Pos>| -> u64 {
            let v = if or { c.pn } else { c.dn } as u64;
            if threads && !c.fixed {
                let b = shared.busy[(c.hash >> 48) as usize & (shared.busy.len() - 1)]
                    .load(Ordering::Relaxed) as u64;
                v + b * v.max(1)
            } else {
                v
            }
        };
        let mut best = usize::MAX;
        let (mut b1, mut b2) = (u64::MAX, u64::MAX);
        for (i, c) in ch.iter().enumerate() {
            if c.pn == 0 || c.dn == 0 {
                continue;
            }
            let v = value(c);
            if v < b1 {
                b2 = b1;
                b1 = v;
                best = i;
            } else if v < b2 {
                b2 = v;
            }
        }
        (best != usize::MAX).then_some((best, b2))
    }

    /// The thresholds (pn, dn) of child `c` of a node with numbers `r` and
    /// thresholds `th`: the 1+ε trick on the number that matters (up to
    /// (1+ε) times the second-best child's, `second`, and at least one more
    /// than the child's own), the rest of the node's threshold on the other.
    fn child_thresholds(
        &self,
        or: bool,
        th: (u32, u32),
        r: &Res,
        c: &Child<G::Pos>,
        second: u64,
    ) -> (u32, u32) {
        let (thpn, thdn) = th;
        let eps = self.eps;
        let grow = |second: u64, own: u32| -> u32 {
            let g = if second >= INF as u64 {
                INF as u64
            } else {
                ((second as f64) * (1.0 + eps)).ceil() as u64
            };
            g.max(own as u64 + 1).min(INF as u64) as u32
        };
        let rest = |th: u32, node: u32, own: u32| -> u32 {
            if th == INF {
                INF
            } else {
                (th as u64 - node as u64 + own as u64).min(INF as u64) as u32
            }
        };
        if or {
            (thpn.min(grow(second, c.pn)), rest(thdn, r.dn, c.dn))
        } else {
            (rest(thpn, r.pn, c.pn), thdn.min(grow(second, c.dn)))
        }
    }

    /// Transpositions: the children other than `best` that were searched
    /// elsewhere meanwhile get their numbers from the table.
    fn refresh(&self, ch: &mut [Child<G::Pos>], best: usize) {
        for (j, c) in ch.iter_mut().enumerate() {
            if j == best || c.fixed {
                continue;
            }
            if let Some(e) = self.tt.probe(key_of(c.hash, self.side)) {
                c.pn = e.pn;
                c.dn = e.dn;
                c.dist = e.dist;
                c.fixed = e.is_final();
            }
        }
    }

    /// The end of a node's search (at `ply`, begun at `start_nodes`): a
    /// disproof's repetitions trimmed to the ancestors above it, the result
    /// stored (a disproof that depends on the path only as a hint), and at
    /// the root its numbers published.
    fn finish(&mut self, hash: u64, ply: u32, start_nodes: u64, mut r: Res) -> Res {
        if r.dn == 0 && r.rep != NO_REP {
            if r.rep >= ply {
                // Only repetitions of this node or below: holds on any path.
                r.rep = NO_REP;
                r.reps = Reps::default();
            } else {
                // Ancestors at this node or below are inside its strategy.
                let path = &self.path;
                r.reps.retain(|h| path.get(&h).is_some_and(|&q| q < ply));
            }
        }
        // A disproof that depends on the path above is stored only as a hint
        // (non-final numbers that say "nearly disproven"), never as final.
        let (pn, dn) = if r.dn == 0 && r.rep != NO_REP {
            if !r.reps.overflow {
                self.tt.store_reps(key_of(hash, self.side), r.reps);
            }
            (PATH_DISPROOF_PN, PATH_DISPROOF_DN)
        } else {
            (r.pn, r.dn)
        };
        self.tt.store(
            key_of(hash, self.side),
            Entry {
                pn,
                dn,
                work: self.nodes - start_nodes,
                dist: if r.pn == 0 { r.dist } else { 0 },
                hint: r.dn == 0 && r.rep != NO_REP,
            },
        );
        if ply == 0 {
            self.shared.root_pn.store(r.pn, Ordering::Relaxed);
            self.shared.root_dn.store(r.dn, Ordering::Relaxed);
        }
        r
    }

    /// A position's final value for the goal side if known without search:
    /// terminal, in the tables, or a final (path-independent) table entry.
    pub(crate) fn known(&mut self, pos: &G::Pos, hash: u64) -> Known {
        let mover = self.game.side_to_move(pos);
        if let Some(v) = self.game.outcome(pos) {
            return if wins_for(v, mover, self.side) {
                Known::Win(0)
            } else {
                Known::NoWin
            };
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            self.hits += 1;
            return if wins_for(v, mover, self.side) {
                Known::Win(d)
            } else {
                Known::NoWin
            };
        }
        match self.tt.probe(key_of(hash, self.side)) {
            Some(e) if e.pn == 0 => Known::Win(e.dist),
            Some(e) if e.dn == 0 && !e.hint => Known::NoWin,
            _ => Known::Open,
        }
    }

    pub(super) fn store_win(&self, key: u64, dist: u32) {
        self.tt.store(
            key,
            Entry {
                pn: 0,
                dn: INF,
                work: 1 << 20,
                dist,
                hint: false,
            },
        );
    }

    /// Proves or disproves `pos` as a root (empty path above it), until final
    /// or stopped. Returns (pn, dn, dist).
    pub(crate) fn run_root(&mut self, pos: &G::Pos) -> (u32, u32, u32) {
        let hash = self.key(pos);
        let l = self.look(pos, hash);
        if let Some(r) = l.settled() {
            return r;
        }
        self.path.clear();
        if !self.charge_path() {
            return (l.pn, l.dn, l.dist);
        }
        self.path.insert(hash, 0);
        let r = self.mid(pos, hash, 0, INF, INF);
        self.path.clear();
        self.flush();
        (r.pn, r.dn, r.dist)
    }
}

/// The additive number of a node from its open children: the largest plus one
/// per other child (weak proof-number search, Ueda et al. 2008), which does
/// not count a transposition or a cycle twice the way a plain sum does.
fn weak_sum(it: impl Iterator<Item = u32>) -> u32 {
    let (mut max, mut k) = (0u64, 0u64);
    for v in it {
        max = max.max(v as u64);
        k += 1;
    }
    (max + k.saturating_sub(1)).min(MAX_FINITE as u64) as u32
}
