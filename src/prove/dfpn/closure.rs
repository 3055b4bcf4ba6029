//! The closure search that complements df-pn on cyclic games: a depth-first
//! search for a closed set of positions in which the attacking side never wins
//! (see the module docs of [`crate::prove`]). Its failures are ordinary proofs;
//! on success the whole set is stored as disproved.

use super::{key_of, Known, Worker};
use crate::game::{Game, Oracle};
use crate::prove::budget::{CLOSURE_ENTRY_BYTES, MAX_SMALL_FRAME_DEPTH, SMALL_FRAME_BYTES};
use crate::prove::tt::{Entry, INF};
use hashbrown::HashMap;

/// State of the closure search: the positions assumed not won by the goal
/// side (in insertion order, so a failed attempt removes what it added).
pub(super) struct Closure {
    pub(super) in_set: HashMap<u64, ()>,
    pub(super) journal: Vec<u64>,
    /// Entries charged to the memory budget: the most the set has held (a
    /// hash map and a vector keep their capacity when emptied).
    pub(super) charged: usize,
    /// Frames of the recursion now (at most [`MAX_SMALL_FRAME_DEPTH`]).
    pub(super) depth: usize,
}

/// Result of the closure search at a position.
pub(super) enum Close {
    /// The goal side wins (a proof, with the plies it needs at most).
    Win(u32),
    /// Not a win, given the positions assumed so far.
    NoWin,
    Stopped,
}

impl<'a, G: Game, O: Oracle<G>> Worker<'a, G, O> {
    /// The closure search from `pos` as a root; the final (pn, dn, dist) if
    /// it finished. Its results go to the table: every proof it found, and on
    /// success every position of the closed set as a final disproof.
    pub(crate) fn closure_root(&mut self, pos: &G::Pos) -> Option<(u32, u32, u32)> {
        let hash = self.key(pos);
        if let Some(r) = self.look(pos, hash).settled() {
            return Some(r);
        }
        let mut cl = Closure {
            in_set: HashMap::new(),
            journal: Vec::new(),
            charged: 0,
            depth: 0,
        };
        let r = self.close(pos, hash, &mut cl);
        // The set's charge goes with it (its positions are stored below or dropped).
        self.acct.release(cl.charged * CLOSURE_ENTRY_BYTES);
        match r {
            Close::Stopped => None,
            Close::Win(d) => Some((0, INF, d)),
            Close::NoWin => {
                for h in cl.journal {
                    self.tt.store(key_of(h, self.side), Entry::DISPROVEN);
                }
                Some((INF, 0, 0))
            }
        }
    }

    pub(super) fn close(&mut self, pos: &G::Pos, hash: u64, cl: &mut Closure) -> Close {
        self.looks += 1;
        if self.tick() {
            return Close::Stopped;
        }
        if cl.in_set.contains_key(&hash) {
            return Close::NoWin;
        }
        match self.known(pos, hash) {
            Known::Win(d) => return Close::Win(d),
            Known::NoWin => return Close::NoWin,
            Known::Open => {}
        }
        let key = key_of(hash, self.side);
        if cl.journal.len() == cl.charged {
            if !self.charge(CLOSURE_ENTRY_BYTES) {
                return Close::Stopped;
            }
            cl.charged += 1;
        }
        if cl.depth >= MAX_SMALL_FRAME_DEPTH {
            // One more frame could overflow the stack: the phase ends, as if
            // the memory budget were spent.
            self.memory_hit = true;
            self.stopped = true;
            return Close::Stopped;
        }
        let Some((moves, frame)) = self.frame_moves::<(u64, u32)>(pos, SMALL_FRAME_BYTES) else {
            return Close::Stopped;
        };
        let mark = cl.journal.len();
        cl.in_set.insert(hash, ());
        cl.journal.push(hash);
        cl.depth += 1;
        let r = self.close_children(pos, key, mark, moves, cl);
        cl.depth -= 1;
        self.acct.release(frame);
        r
    }

    fn close_children(
        &mut self,
        pos: &G::Pos,
        key: u64,
        mark: usize,
        moves: Vec<G::Move>,
        cl: &mut Closure,
    ) -> Close {
        // (order, move index): a child is played again when it is searched,
        // which keeps the frames of this deep recursion small.
        let mut kids: Vec<(u64, u32)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let c = self.game.play(pos, m);
                let h = self.key(&c);
                // Order: most likely to fail first for the goal side's moves
                // (a quick refutation), most likely to hold for the opponent's.
                let order = match self.tt.probe(key_of(h, self.side)) {
                    Some(e) if e.pn == 0 => 0,
                    Some(e) if e.dn == 0 => u64::MAX,
                    Some(e) => ((e.pn as u64) << 20) / (e.dn.max(1) as u64),
                    None => 1 << 20,
                };
                (order, i as u32)
            })
            .collect();
        let or = self.game.side_to_move(pos) == self.side;
        if or {
            kids.sort_by_key(|k| k.0);
            for &(_, i) in &kids {
                let c = self.game.play(pos, moves[i as usize]);
                let h = self.key(&c);
                match self.close(&c, h, cl) {
                    Close::NoWin => {}
                    Close::Win(d) => {
                        self.rollback(cl, mark);
                        self.store_win(key, d + 1);
                        return Close::Win(d + 1);
                    }
                    Close::Stopped => return Close::Stopped,
                }
            }
            Close::NoWin
        } else {
            kids.sort_by_key(|k| std::cmp::Reverse(k.0));
            let mut worst = 0;
            for &(_, i) in &kids {
                let c = self.game.play(pos, moves[i as usize]);
                let h = self.key(&c);
                match self.close(&c, h, cl) {
                    Close::NoWin => return Close::NoWin,
                    Close::Win(d) => {
                        worst = worst.max(d);
                        // What this attempt assumed goes with it.
                        self.rollback(cl, mark + 1);
                    }
                    Close::Stopped => return Close::Stopped,
                }
            }
            self.rollback(cl, mark);
            self.store_win(key, worst + 1);
            Close::Win(worst + 1)
        }
    }

    pub(super) fn rollback(&self, cl: &mut Closure, mark: usize) {
        for h in cl.journal.drain(mark..) {
            cl.in_set.remove(&h);
        }
    }
}
