//! The closure search that complements df-pn on cyclic games: a depth-first
//! search for a closed set of positions in which the attacking side never wins
//! (see the module docs of [`crate::prove`]). Its failures are ordinary proofs;
//! on success the whole set is stored as disproved.

use super::*;

/// State of the closure search: the positions assumed not won by the goal
/// side (in insertion order, so a failed attempt removes what it added).
pub(super) struct Closure {
    pub(super) in_set: HashMap<u64, ()>,
    pub(super) journal: Vec<u64>,
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
        let hash = self.game.hash(pos);
        let l = self.look(pos, hash);
        if l.fixed && l.rep == NO_REP && (l.pn == 0 || l.dn == 0) {
            return Some((l.pn, l.dn, l.dist));
        }
        let mut cl = Closure {
            in_set: HashMap::new(),
            journal: Vec::new(),
        };
        match self.close(pos, hash, &mut cl) {
            Close::Stopped => None,
            Close::Win(d) => Some((0, INF, d)),
            Close::NoWin => {
                for h in cl.journal {
                    self.tt.store(
                        key_of(h, self.side),
                        Entry {
                            pn: INF,
                            dn: 0,
                            work: 1 << 30,
                            dist: 0,
                            hint: false,
                        },
                    );
                }
                Some((INF, 0, 0))
            }
        }
    }

    pub(super) fn close(&mut self, pos: &G::Pos, hash: u64, cl: &mut Closure) -> Close {
        if self.tick() {
            return Close::Stopped;
        }
        if cl.in_set.contains_key(&hash) {
            return Close::NoWin;
        }
        if let Some(v) = self.game.outcome(pos) {
            return if wins_for(v, self.game.side_to_move(pos), self.side) {
                Close::Win(0)
            } else {
                Close::NoWin
            };
        }
        if let Some((v, d)) = self.oracle.probe(self.game, pos) {
            self.hits += 1;
            return if wins_for(v, self.game.side_to_move(pos), self.side) {
                Close::Win(d)
            } else {
                Close::NoWin
            };
        }
        let key = key_of(hash, self.side);
        if let Some(e) = self.tt.probe(key) {
            if e.pn == 0 {
                return Close::Win(e.dist);
            }
            if e.dn == 0 && !e.hint {
                return Close::NoWin;
            }
        }
        let mark = cl.journal.len();
        cl.in_set.insert(hash, ());
        cl.journal.push(hash);
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        let mut kids: Vec<(u64, u64, G::Pos)> = moves
            .iter()
            .map(|&m| {
                let c = self.game.play(pos, m);
                let h = self.game.hash(&c);
                // Order: most likely to fail first for the goal side's moves
                // (a quick refutation), most likely to hold for the opponent's.
                let order = match self.tt.probe(key_of(h, self.side)) {
                    Some(e) if e.pn == 0 => 0,
                    Some(e) if e.dn == 0 => u64::MAX,
                    Some(e) => ((e.pn as u64) << 20) / (e.dn.max(1) as u64),
                    None => 1 << 20,
                };
                (order, h, c)
            })
            .collect();
        let or = self.game.side_to_move(pos) == self.side;
        if or {
            kids.sort_by_key(|k| k.0);
            for (_, h, c) in &kids {
                match self.close(c, *h, cl) {
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
            for (_, h, c) in &kids {
                match self.close(c, *h, cl) {
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
