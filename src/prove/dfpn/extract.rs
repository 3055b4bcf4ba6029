//! Extraction of a certificate from a finished run: the solution graph read
//! off the proof table, re-proving positions whose entries were overwritten.
//! The file format is [`crate::prove::certificate`]'s; the checker
//! ([`crate::prove::check`]) shares nothing of this code.

use super::{wins_for, Prover, RunOutcome, Worker, STACK_BYTES};
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Oracle, Value};
use crate::prove::budget::{vec_bytes, MAX_SMALL_FRAME_DEPTH, MEMO_ENTRY_BYTES, SMALL_FRAME_BYTES};
use crate::prove::certificate::{renumber, CertHeader, Certificate, Kind, Node, TableRef};
use hashbrown::{HashMap, HashSet};

/// Names the table a leaf comes from: `(tier, file crc32)`.
pub type LeafTable<'a, G> = dyn Fn(&<G as Game>::Pos) -> Result<Option<TableRef>> + Sync + 'a;

struct Builder<'a, 'b, G: Game, O: Oracle<G>> {
    prover: &'a Prover<'a, G, O>,
    worker: Worker<'a, G, O>,
    side: usize,
    kind: Kind,
    memo: HashMap<u64, u32>,
    stack: HashSet<u64>,
    nodes: Vec<Node>,
    tables: Vec<TableRef>,
    leaf_table: &'b LeafTable<'b, G>,
    max_nodes: usize,
    /// Stack-set entries charged (its largest size so far).
    stack_charged: usize,
    /// Frames of the recursion now (at most [`MAX_SMALL_FRAME_DEPTH`]).
    depth: usize,
}

/// Bytes a node may take in the builder's vector (with growth slack) and its
/// list of children.
fn node_bytes(n: &Node) -> usize {
    2 * std::mem::size_of::<Node>()
        + match n {
            Node::All(k) => vec_bytes::<u32>(k.capacity()),
            _ => 0,
        }
}

impl<'a, G: Notation, O: Oracle<G>> Builder<'a, '_, G, O> {
    /// Charges `n` bytes to the prover's memory budget, or fails with
    /// "out of memory budget".
    fn charge(&mut self, n: usize) -> Result<()> {
        if self.worker.acct.charge(n) {
            return Ok(());
        }
        Err(Error::Memory(format!(
            "out of memory budget: the certificate needs more than the {} MiB of --hash \
             ({} nodes built so far)",
            self.prover.tt.budget().cap() >> 20,
            self.nodes.len()
        )))
    }

    /// Records `id` as the certificate node of position `h`.
    fn memo_insert(&mut self, h: u64, id: u32) -> Result<()> {
        self.charge(MEMO_ENTRY_BYTES)?;
        self.memo.insert(h, id);
        Ok(())
    }

    fn stack_insert(&mut self, h: u64) -> Result<()> {
        if self.stack.len() >= self.stack_charged {
            self.charge(MEMO_ENTRY_BYTES)?;
            self.stack_charged += 1;
        }
        self.stack.insert(h);
        Ok(())
    }

    /// Charges a frame of `positions` children (and their move list).
    fn frame<P>(&mut self, positions: usize, moves: usize) -> Result<usize> {
        if self.depth >= MAX_SMALL_FRAME_DEPTH {
            return Err(Error::Memory(format!(
                "the certificate is deeper than a prover thread's stack holds ({MAX_SMALL_FRAME_DEPTH} levels)"
            )));
        }
        self.depth += 1;
        let n = SMALL_FRAME_BYTES
            + vec_bytes::<(u32, usize, P)>(positions)
            + vec_bytes::<G::Move>(moves)
            + vec_bytes::<u32>(positions);
        self.charge(n)?;
        Ok(n)
    }

    fn table_leaf(&mut self, pos: &G::Pos, value: Value, distance: u32) -> Result<Node> {
        let t = (self.leaf_table)(pos)?.ok_or_else(|| {
            Error::Internal(format!(
                "a leaf's table could not be named: {}",
                self.prover.game.format_position(pos)
            ))
        })?;
        let i = match self.tables.iter().position(|x| *x == t) {
            Some(i) => i,
            None => {
                self.tables.push(t);
                self.tables.len() - 1
            }
        };
        Ok(Node::Table {
            table: i as u32,
            value,
            distance,
        })
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        self.charge(node_bytes(&n))?;
        if self.nodes.len() >= self.max_nodes {
            return Err(Error::Memory(format!(
                "the certificate would exceed {} nodes",
                self.max_nodes
            )));
        }
        self.nodes.push(n);
        Ok(self.nodes.len() as u32 - 1)
    }

    /// Proves `pos` for the goal side if the table does not already say so.
    fn outcome_of(&mut self, pos: &G::Pos) -> RunOutcome {
        let h = self.worker.key(pos);
        let l = self.worker.look(pos, h);
        let (pn, dn) = if l.pn == 0 || l.dn == 0 {
            (l.pn, l.dn)
        } else {
            let r = self.worker.run_root(pos);
            (r.0, r.1)
        };
        if pn == 0 {
            RunOutcome::Proven
        } else if dn == 0 {
            RunOutcome::Disproven
        } else {
            RunOutcome::Unknown
        }
    }

    fn unknown(&self, pos: &G::Pos) -> Error {
        if self.prover.out_of_memory() {
            return Error::Memory(format!(
                "out of memory budget: re-proving {} for the certificate needs more than \
                 the {} MiB of --hash",
                self.prover.game.format_position(pos),
                self.prover.tt.budget().cap() >> 20
            ));
        }
        Error::certificate_data(format!(
            "position {} could not be re-proven within the budget \
             (a larger --hash keeps proofs in the table)",
            self.prover.game.format_position(pos)
        ))
    }

    /// Returns a frame's charge when it ends.
    fn end_frame(&mut self, frame: usize) {
        self.depth -= 1;
        self.worker.acct.release(frame);
    }

    /// An acyclic proof of `pos`; `None` when every way leads back to the stack.
    fn win(&mut self, pos: &G::Pos) -> Result<Option<u32>> {
        let g = self.prover.game;
        let h = g.hash(pos);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(Some(id));
        }
        if self.stack.contains(&h) {
            return Ok(None);
        }
        let mover = g.side_to_move(pos);
        if let Some(v) = g.outcome(pos) {
            if !wins_for(v, mover, self.side) {
                return Ok(None);
            }
            let id = self.push(Node::Terminal)?;
            self.memo_insert(h, id)?;
            return Ok(Some(id));
        }
        if let Some((v, d)) = self.prover.oracle.probe(g, pos) {
            if !wins_for(v, mover, self.side) {
                return Ok(None);
            }
            let n = self.table_leaf(pos, v, d)?;
            let id = self.push(n)?;
            self.memo_insert(h, id)?;
            return Ok(Some(id));
        }
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let frame = self.frame::<G::Pos>(moves.len(), moves.capacity())?;
        self.stack_insert(h)?;
        let node = if mover == self.side {
            // Proven children first, shortest stored proof first.
            let mut cands: Vec<(u32, usize, G::Pos)> = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let c = g.play(pos, m);
                    let l = self.worker.look(&c, self.worker.key(&c));
                    let key = if l.pn == 0 {
                        l.dist
                    } else if l.dn == 0 {
                        u32::MAX
                    } else {
                        u32::MAX - 1
                    };
                    (key, i, c)
                })
                .collect();
            cands.sort_by_key(|c| c.0);
            let mut found = None;
            for (key, i, c) in cands {
                if key == u32::MAX {
                    break;
                }
                if key == u32::MAX - 1 && self.outcome_of(&c) != RunOutcome::Proven {
                    continue;
                }
                if let Some(cid) = self.win(&c)? {
                    found = Some(Node::One {
                        mv: i as u32,
                        child: cid,
                    });
                    break;
                }
            }
            found
        } else {
            let mut kids = Vec::with_capacity(moves.len());
            let mut ok = true;
            for &m in &moves {
                let c = g.play(pos, m);
                match self.outcome_of(&c) {
                    RunOutcome::Proven => {}
                    RunOutcome::Disproven => {
                        return Err(Error::Internal(format!(
                            "certificate: a reply from {} is disproven; the run's proof is inconsistent",
                            g.format_position(pos)
                        )))
                    }
                    RunOutcome::Unknown => return Err(self.unknown(&c)),
                }
                match self.win(&c)? {
                    Some(cid) => kids.push(cid),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            ok.then_some(Node::All(kids))
        };
        self.stack.remove(&h);
        self.end_frame(frame);
        match node {
            Some(n) => {
                let id = self.push(n)?;
                self.memo_insert(h, id)?;
                Ok(Some(id))
            }
            None => Ok(None),
        }
    }

    /// A closed strategy graph of the opponent from `pos` (a true non-win).
    fn no_win(&mut self, pos: &G::Pos) -> Result<u32> {
        let g = self.prover.game;
        let h = g.hash(pos);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let id = self.push(Node::Terminal)?;
        self.memo_insert(h, id)?;
        let mover = g.side_to_move(pos);
        if g.outcome(pos).is_some() {
            return Ok(id);
        }
        if let Some((v, d)) = self.prover.oracle.probe(g, pos) {
            self.nodes[id as usize] = self.table_leaf(pos, v, d)?;
            return Ok(id);
        }
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let frame = self.frame::<G::Pos>(moves.len(), moves.capacity())?;
        let children: Vec<G::Pos> = moves.iter().map(|&m| g.play(pos, m)).collect();
        if mover == self.side {
            let mut kids = Vec::with_capacity(children.len());
            // The node's list of children stays (charged here, not in `push`).
            self.charge(vec_bytes::<u32>(children.len()))?;
            for c in &children {
                kids.push(self.no_win(c)?);
            }
            self.nodes[id as usize] = Node::All(kids);
            self.end_frame(frame);
            return Ok(id);
        }
        // A child already in the graph closes a cycle at no cost; then a known
        // disproof; then the prover, most promising first.
        let pick = children
            .iter()
            .position(|c| self.memo.contains_key(&g.hash(c)));
        let pick = match pick {
            Some(i) => Some(i),
            None => {
                let mut order: Vec<(u32, usize)> = children
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (self.worker.look(c, self.worker.key(c)).dn, i))
                    .collect();
                order.sort();
                let mut found = None;
                for (_, i) in order {
                    match self.outcome_of(&children[i]) {
                        RunOutcome::Disproven => {
                            found = Some(i);
                            break;
                        }
                        RunOutcome::Unknown => return Err(self.unknown(&children[i])),
                        RunOutcome::Proven => {}
                    }
                }
                found
            }
        };
        let i = pick.ok_or_else(|| {
            Error::Internal(format!(
                "certificate: every reply from {} is proven; the run's disproof is inconsistent",
                g.format_position(pos)
            ))
        })?;
        let cid = self.no_win(&children[i])?;
        self.nodes[id as usize] = Node::One {
            mv: i as u32,
            child: cid,
        };
        self.end_frame(frame);
        Ok(id)
    }
}

/// Extracts the certificate of a finished run (`outcome` proven or disproven
/// for goal `side` at `pos`), re-proving positions whose entries were
/// overwritten. `leaf_table` names the table of a table leaf; `max_nodes`
/// bounds the certificate.
pub fn extract<G: Notation, O: Oracle<G>>(
    prover: &Prover<'_, G, O>,
    pos: &G::Pos,
    side: usize,
    outcome: RunOutcome,
    leaf_table: &LeafTable<'_, G>,
    max_nodes: usize,
) -> Result<Certificate> {
    let kind = match outcome {
        RunOutcome::Proven => Kind::Win,
        RunOutcome::Disproven => Kind::NoWin,
        RunOutcome::Unknown => {
            return Err(Error::certificate_data(
                "none can be made: the run ended before a proof or disproof",
            ))
        }
    };
    let game = prover.game;
    // The recursion is as deep as the longest line; give it the prover's stack.
    std::thread::scope(|scope| {
        let job = std::thread::Builder::new()
            .name("certificate".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || -> Result<Certificate> {
                let mut b = Builder {
                    prover,
                    worker: prover.worker(side, 0),
                    side,
                    kind,
                    memo: HashMap::new(),
                    stack: HashSet::new(),
                    nodes: Vec::new(),
                    tables: Vec::new(),
                    leaf_table,
                    max_nodes,
                    stack_charged: 0,
                    depth: 0,
                };
                let root = match b.kind {
                    Kind::Win => b.win(pos)?.ok_or_else(|| {
                        Error::Internal(
                            "certificate: no acyclic proof found among the stored proofs".into(),
                        )
                    })?,
                    Kind::NoWin => b.no_win(pos)?,
                };
                // The renumbered copy and its two index vectors.
                let copy = b.nodes.iter().map(node_bytes).sum::<usize>()
                    + vec_bytes::<u32>(2 * b.nodes.len());
                b.charge(copy)?;
                let nodes = renumber(&b.nodes, root);
                Ok(Certificate {
                    header: CertHeader {
                        rules: game.rules_string(),
                        fingerprint: game.fingerprint(),
                        position: game.format_position(pos),
                        side: side as u8,
                        side_name: game.side_name(side).to_string(),
                        kind: b.kind,
                        nodes: nodes.len() as u64,
                        tables: b.tables,
                        writer: format!("huntsolve {} prove", env!("CARGO_PKG_VERSION")),
                        within: None,
                    },
                    nodes,
                })
            })
            .map_err(|e| Error::io("starting the certificate thread", e))?;
        job.join()
            .unwrap_or_else(|_| Err(Error::Internal("the certificate thread panicked".into())))
    })
}
