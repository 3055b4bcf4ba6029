//! Local retrograde analysis: the third phase of a run, after df-pn and the
//! closure search (see the module docs of [`crate::prove`]).
//!
//! From the root, a breadth-first walk enumerates the positions reachable by
//! either side's moves, up to the phase's node budget and the memory budget.
//! Positions whose value the prover already knows are leaves (terminal
//! positions, table values, final entries of the proof table); positions the
//! walk could not expand form the *frontier*. Then a retrograde pass over the
//! enumerated graph computes the goal side's winning set twice:
//!
//! 1. with the frontier counted as **not** won: every position in this set is
//!    a true win (an ordinary inductive proof with real leaves only), stored as
//!    a final proof with its distance;
//! 2. continued with the frontier counted as **won**: every position outside
//!    this larger set is a true non-win, since the opponent keeps the play
//!    outside it for ever (a cycle is a draw) or reaches a known non-win,
//!    without ever touching the frontier. These are stored as final disproofs.
//!
//! Both results hold on any path (they depend on no position above the root),
//! so they are final table entries, and certificates are extracted from them
//! as from the closure search's. Where the closure search looks for one
//! strategy of the opponent depth first (and recurses as deep as the strategy
//! is long), this phase walks every move breadth first with no recursion:
//! it settles drawn endgames whose drawing region is large but bounded by
//! known leaves, e.g. two leopards against two cows on the 49-point board
//! (about 2.6 million positions), where the closure search ran out of memory.

use super::{key_of, Known, Worker};
use crate::game::{Game, Oracle};
use crate::prove::tt::{Entry, INF, MAX_FINITE};
use hashbrown::HashMap;

/// Bytes charged per position of the walk: its entry of the index map (16
/// bytes, up to 2.3 times with the map's slack), its hash, kind, distance,
/// counters and list offsets (26 bytes, twice with vector growth slack), the
/// flags and offsets of the retrograde pass and its queue entry (18 bytes).
/// The position itself is charged twice its size while it waits to be
/// expanded.
const LOCAL_NODE_BYTES: usize = 112;
/// Bytes charged per move of the walk: the child's index (twice, for vector
/// growth slack) and the parent's index in the reverse lists.
const LOCAL_EDGE_BYTES: usize = 12;

/// The most positions, and the most moves, one walk holds: its graph is
/// indexed by `u32` (child lists, parent lists, the queue), so the walk stops
/// growing there as it does when the memory budget runs out (the rest is
/// frontier). At 112 bytes a position this is reached only with a budget of
/// hundreds of GiB (or 48 GiB of moves), but no budget is assumed.
const MAX_LOCAL_INDEX: usize = u32::MAX as usize;

/// Kinds of walked positions.
const INTERIOR: u8 = 0;
const LEAF_WIN: u8 = 1;
const LEAF_NO_WIN: u8 = 2;
const FRONTIER: u8 = 3;
/// Flag: the goal side moves (an OR node).
const OR_NODE: u8 = 4;

impl<'a, G: Game, O: Oracle<G>> Worker<'a, G, O> {
    /// Local retrograde analysis from `root`: the final (pn, dn, dist) of the
    /// root if it settled it, `None` otherwise. Proofs and disproofs it finds
    /// go to the table either way.
    pub(crate) fn local_root(&mut self, root: &G::Pos) -> Option<(u32, u32, u32)> {
        let root_hash = self.key(root);
        if let Some(r) = self.look(root, root_hash).settled() {
            return Some(r);
        }
        let mut charged = 0usize;
        let r = self.local_walk(root, root_hash, &mut charged, MAX_LOCAL_INDEX);
        self.acct.release(charged);
        r
    }

    /// Charges `n` bytes without stopping the run when they do not fit.
    fn local_charge(&mut self, n: usize, charged: &mut usize) -> bool {
        if self.acct.charge(n) {
            *charged += n;
            true
        } else {
            self.memory_hit = true;
            false
        }
    }

    /// Local retrograde analysis after the walk (see the module docs): the
    /// root's final (pn, dn, dist) if it is settled.
    fn local_walk(
        &mut self,
        root: &G::Pos,
        root_hash: u64,
        charged: &mut usize,
        cap: usize,
    ) -> Option<(u32, u32, u32)> {
        let side = self.side;
        let LocalGraph {
            hashes,
            kind,
            mut dist,
            first,
            outdeg,
            kids,
        } = self.local_graph(root, root_hash, charged, cap)?;
        let n = hashes.len();
        // Reverse lists: the parents of each position (charged with the nodes
        // and moves), then the children lists are dropped.
        let (start, parents) = parent_lists(n, &kids, &first, &outdeg);
        drop(kids);
        drop(first);
        // Pass 1: real leaves only, settled in order of distance. A position
        // is queued once: an OR node with its first (nearest) won child, an
        // AND node with its last (farthest).
        let mut won = vec![false; n];
        let mut queued = vec![false; n];
        let mut left = outdeg;
        let mut heap = std::collections::BinaryHeap::new();
        for (k, &t) in kind.iter().enumerate() {
            if t == LEAF_WIN {
                heap.push(std::cmp::Reverse((dist[k], k as u32)));
                queued[k] = true;
            }
        }
        let propagate = |heap: &mut std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32)>>,
                         won: &mut [bool],
                         queued: &mut [bool],
                         left: &mut [u32],
                         dist: &mut [u32]| {
            while let Some(std::cmp::Reverse((d, k))) = heap.pop() {
                let k = k as usize;
                won[k] = true;
                dist[k] = d;
                let up = d.saturating_add(1).min(MAX_FINITE);
                for &p in &parents[start[k] as usize..start[k + 1] as usize] {
                    let p = p as usize;
                    if queued[p] || kind[p] & 3 != INTERIOR {
                        continue;
                    }
                    if kind[p] & OR_NODE == 0 {
                        left[p] -= 1;
                        if left[p] > 0 {
                            continue;
                        }
                    }
                    queued[p] = true;
                    heap.push(std::cmp::Reverse((up, p as u32)));
                }
            }
        };
        propagate(&mut heap, &mut won, &mut queued, &mut left, &mut dist);
        let key = |h: u64| key_of(h, side);
        for k in 0..n {
            if won[k] && kind[k] & 3 == INTERIOR {
                self.store_win(key(hashes[k]), dist[k]);
            }
        }
        if won[0] {
            return Some((0, INF, dist[0]));
        }
        // Pass 2: the frontier counted as won; what stays out is no win.
        for (k, &t) in kind.iter().enumerate() {
            if t == FRONTIER {
                heap.push(std::cmp::Reverse((0, k as u32)));
                queued[k] = true;
            }
        }
        propagate(&mut heap, &mut won, &mut queued, &mut left, &mut dist);
        for k in 0..n {
            if !won[k] && kind[k] & 3 == INTERIOR {
                self.tt.store(key(hashes[k]), Entry::DISPROVEN);
            }
        }
        (!won[0]).then_some((INF, 0, 0))
    }

    /// The walk: interior positions expanded breadth first from `root` while
    /// the budgets last (`None`: the run was stopped, or no room for the root).
    /// At most `cap` positions and `cap` moves (at most [`MAX_LOCAL_INDEX`]),
    /// so every index fits a `u32`.
    fn local_graph(
        &mut self,
        root: &G::Pos,
        root_hash: u64,
        charged: &mut usize,
        cap: usize,
    ) -> Option<LocalGraph> {
        let cap = cap.min(MAX_LOCAL_INDEX);
        let side = self.side;
        // Positions get their index when first met; interior ones are
        // expanded in that order (breadth first), so the children lists are
        // stored one after the other: `first[i]..first[i] + outdeg[i]` in `kids`.
        let mut index: HashMap<u64, u32> = HashMap::new();
        let mut hashes: Vec<u64> = Vec::new();
        let mut kind: Vec<u8> = Vec::new();
        // Leaves: the distance of a win; interior nodes: the result's distance.
        let mut dist: Vec<u32> = Vec::new();
        let mut first: Vec<u32> = Vec::new();
        let mut outdeg: Vec<u32> = Vec::new();
        let mut kids: Vec<u32> = Vec::new();
        let mut queue: std::collections::VecDeque<(u32, G::Pos)> = Default::default();
        let node_bytes = LOCAL_NODE_BYTES + 2 * std::mem::size_of::<(u32, G::Pos)>();
        if !self.local_charge(node_bytes, charged) {
            return None;
        }
        let or = |g: &G, p: &G::Pos| {
            if g.side_to_move(p) == side {
                OR_NODE
            } else {
                0
            }
        };
        index.insert(root_hash, 0);
        hashes.push(root_hash);
        kind.push(INTERIOR | or(self.game, root));
        dist.push(0);
        first.push(0);
        outdeg.push(0);
        queue.push_back((0, root.clone()));
        // Walk: expand interior positions breadth first while budgets last.
        let mut moves = Vec::new();
        let mut room = true;
        while let Some((i, pos)) = queue.pop_front() {
            let i = i as usize;
            if !room || self.tick() {
                if self.shared.should_stop() {
                    return None;
                }
                room = false;
                kind[i] = FRONTIER;
                continue;
            }
            moves.clear();
            self.game.legal_moves(&pos, &mut moves);
            // More moves than the indices hold: no room, as for the budget.
            if kids.len() + moves.len() > cap
                || !self.local_charge(LOCAL_EDGE_BYTES * moves.len(), charged)
            {
                room = false;
                kind[i] = FRONTIER;
                continue;
            }
            first[i] = kids.len() as u32;
            for &m in &moves {
                let c = self.game.play(&pos, m);
                let h = self.key(&c);
                self.looks += 1;
                if let Some(&j) = index.get(&h) {
                    kids.push(j);
                    continue;
                }
                if hashes.len() >= cap || !self.local_charge(node_bytes, charged) {
                    // No room for the child: the parent stays unexpanded.
                    room = false;
                    break;
                }
                let j = hashes.len() as u32;
                let (k, d) = self.classify(&c, h);
                index.insert(h, j);
                hashes.push(h);
                dist.push(d);
                first.push(0);
                outdeg.push(0);
                if k == INTERIOR {
                    kind.push(INTERIOR | or(self.game, &c));
                    queue.push_back((j, c));
                } else {
                    kind.push(k);
                }
                kids.push(j);
            }
            if room {
                outdeg[i] = kids.len() as u32 - first[i];
            } else {
                kids.truncate(first[i] as usize);
                kind[i] = FRONTIER;
            }
        }
        drop(queue);
        drop(index);
        Some(LocalGraph {
            hashes,
            kind,
            dist,
            first,
            outdeg,
            kids,
        })
    }

    /// The kind of a position met by the walk, with a win's distance.
    fn classify(&mut self, pos: &G::Pos, hash: u64) -> (u8, u32) {
        match self.known(pos, hash) {
            Known::Win(d) => (LEAF_WIN, d),
            Known::NoWin => (LEAF_NO_WIN, 0),
            Known::Open => (INTERIOR, 0),
        }
    }
}

/// The graph of the walk, by index (the root is 0): each position's hash,
/// kind and distance, and its children `kids[first[i]..first[i] + outdeg[i]]`.
struct LocalGraph {
    hashes: Vec<u64>,
    kind: Vec<u8>,
    /// Leaves: the distance of a win; interior nodes: the result's distance.
    dist: Vec<u32>,
    first: Vec<u32>,
    outdeg: Vec<u32>,
    kids: Vec<u32>,
}

/// The parents of each of the `n` positions: `parents[start[k]..start[k + 1]]`.
fn parent_lists(n: usize, kids: &[u32], first: &[u32], outdeg: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for &c in kids {
        start[c as usize + 1] += 1;
    }
    for k in 0..n {
        start[k + 1] += start[k];
    }
    let mut parents = vec![0u32; kids.len()];
    let mut fill = start.clone();
    for p in 0..n {
        let f = first[p] as usize;
        for &c in &kids[f..f + outdeg[p] as usize] {
            parents[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    (start, parents)
}

#[cfg(test)]
mod tests;
