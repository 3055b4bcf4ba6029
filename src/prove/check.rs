//! The certificate checker, independent of the prover: it knows the rules
//! engine ([`Game`]) and a way to read table values, nothing of proof numbers.
//!
//! It replays the graph from the root position breadth-first: every node gets
//! the position its first parent's move leads to, and every other edge into it
//! must lead to the same position. At the choosing side's nodes the move index
//! must be legal; at the other side's nodes the children must be exactly the
//! legal moves, in order. Terminal leaves must be over with the right result;
//! table leaves are probed again and must match the value stored and the table
//! file named in the header. A `win` graph must be acyclic (the goal side makes
//! progress); a `no-win` graph may cycle (endless play is a draw), so its check
//! is local: every node of the closed graph satisfies its own condition.
//!
//! A claim bounded by `within` plies (see [`super::certificate`]) is checked
//! the same way, plus: a `win` graph's longest line, each table leaf's
//! stored distance added, is at most `within` plies; in a `no-win` graph every node gets the plies its claim must cover
//! (`Certificate::plies_left`), a horizon leaf must have none left (and the
//! game must go on there), and a table leaf may be a win for the goal side
//! only at a distance beyond the plies left.
//!
//! Table leaves are read by the checker's own path to the tables
//! (`check/leaves.rs`, over the table module's probing API), not by the prover's
//! lookup: [`check_with_tables`].

use super::certificate::{Certificate, Kind, Node, TableRef};
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use crate::tier::TierGame;
use serde::Serialize;
use std::collections::VecDeque;
use std::path::PathBuf;

mod leaves;
pub(crate) use leaves::LeafTables;

/// Reads a table leaf: the table the position lies in and its value and
/// distance (`None`: no table given covers it).
pub(crate) type TableProbe<'a, G> =
    dyn Fn(&<G as Game>::Pos) -> Result<Option<(TableRef, Value, u32)>> + 'a;

/// What a table leaf reads as: its table and value and distance (`None`: no
/// table given covers it).
pub(crate) type LeafRead = Option<(TableRef, Value, u32)>;

/// Reads many table leaves at once, answering in the order asked (so a reader
/// may probe them in table order: [`LeafTables::leaves`]).
type LeafBatch<'a, G> = dyn Fn(&[<G as Game>::Pos]) -> Result<Vec<LeafRead>> + 'a;

/// Table leaves read per batch: bounds the positions held at once.
const LEAF_BATCH: usize = 1 << 22;

/// Whether a game value `v`, from the view of the side to move `mover`, is a
/// win for `side`. Written here again (the prover has its own): the checker
/// shares no code with what it checks.
fn won_by(v: Value, mover: usize, side: usize) -> bool {
    match v {
        Value::Win => mover == side,
        Value::Loss => mover != side,
        Value::Draw => false,
    }
}

/// Most plies a bounded claim may name (a header is untrusted input).
const MAX_WITHIN_CHECKED: u32 = 1_000_000;

/// Problems listed in a report at most (all are counted).
const MAX_LISTED: usize = 20;

/// What the checker found.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// Rules of the certificate.
    pub rules: String,
    /// Root position.
    pub position: String,
    /// Goal side name.
    pub side: String,
    /// What the certificate claims.
    pub kind: Kind,
    /// Nodes checked.
    pub nodes: u64,
    /// Terminal leaves.
    pub terminal_leaves: u64,
    /// Table leaves.
    pub table_leaves: u64,
    /// For `win`: the longest line in plies (an upper bound on the distance).
    pub depth: Option<u32>,
    /// The plies the claim is bounded by (absent: for ever).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<u32>,
    /// Table leaves read from a table file other than the one the
    /// certificate names (same tier, another crc32: the same records in
    /// other blocks), with [`check_with_other_table_files`]; their values
    /// were checked against the tables given.
    #[serde(skip_serializing_if = "is_zero")]
    pub other_table_files: u64,
    /// Number of problems found.
    pub problems: u64,
    /// The first problems.
    pub examples: Vec<String>,
}

impl CheckReport {
    /// Whether the certificate holds.
    pub fn ok(&self) -> bool {
        self.problems == 0
    }
}

/// The invariants [`Certificate::decode`] establishes, checked again for a
/// certificate built by hand (or by a faulty writer): node 0 exists, the
/// header counts the nodes, the goal side is 0 or 1, every table and child
/// index is in range, and an `All` node lists at least one child (a node with
/// no moves is terminal, as the prover sees it; an empty `All` would prove a
/// win from nothing). A violation is an [`Error::Certificate`] (exit 2), not a panic.
pub(crate) fn validate(cert: &Certificate) -> Result<()> {
    let h = &cert.header;
    let n = cert.nodes.len();
    let bad = |m: String| Err(Error::certificate_data(format!("malformed: {m}")));
    if n == 0 {
        return bad("it has no nodes".into());
    }
    if h.nodes != n as u64 {
        return bad(format!(
            "the header counts {} nodes, there are {n}",
            h.nodes
        ));
    }
    if h.side > 1 {
        return bad(format!("goal side {} (0 or 1 expected)", h.side));
    }
    // The plies of a bounded claim index a queue per ply count (`plies_left`).
    if h.within.is_some_and(|w| w > MAX_WITHIN_CHECKED) {
        return bad(format!(
            "a claim bounded by {} plies (at most {MAX_WITHIN_CHECKED} are checked)",
            h.within.unwrap_or_default()
        ));
    }
    for (i, node) in cert.nodes.iter().enumerate() {
        match node {
            Node::Terminal | Node::Horizon => {}
            Node::Table { table, .. } => {
                if *table as usize >= h.tables.len() {
                    return bad(format!(
                        "node {i}: table {table} of {} named",
                        h.tables.len()
                    ));
                }
            }
            Node::One { child, .. } => {
                if *child as usize >= n {
                    return bad(format!("node {i}: child {child} of {n} nodes"));
                }
            }
            Node::All(children) => {
                if children.is_empty() {
                    return bad(format!("node {i}: lists no moves"));
                }
                if let Some(c) = children.iter().find(|&&c| c as usize >= n) {
                    return bad(format!("node {i}: child {c} of {n} nodes"));
                }
            }
        }
    }
    Ok(())
}

/// Checks `cert` against `game`. A certificate of other rules, or one whose
/// root cannot be read, is an error; a claim that does not hold is a report
/// with problems.
pub fn check<G: Notation>(
    game: &G,
    cert: &Certificate,
    tables: &TableProbe<G>,
) -> Result<CheckReport> {
    check_batched(
        game,
        cert,
        &|ps: &[G::Pos]| ps.iter().map(tables).collect(),
        true,
    )
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// [`check`], with the table leaves read in batches after the replay (each
/// batch in one call, so the reader can sort its probes by table and slot).
fn check_batched<G: Notation>(
    game: &G,
    cert: &Certificate,
    tables: &LeafBatch<G>,
    same_files: bool,
) -> Result<CheckReport> {
    let h = &cert.header;
    if h.rules != game.rules_string() || h.fingerprint != game.fingerprint() {
        return Err(Error::certificate_data(format!(
            "the proof is for rules '{}' (fingerprint {:016x}), not '{}' ({:016x})",
            h.rules,
            h.fingerprint,
            game.rules_string(),
            game.fingerprint()
        )));
    }
    // The prover and this checker count a cycle as a draw: a certificate of
    // other repetition rules would be checked against rules it does not follow.
    crate::game::require_cycles_drawn(game, "check-proof")?;
    validate(cert)?;
    let root = game.parse_position(&h.position)?;
    let side = h.side as usize;
    let mut walk = Walk {
        game,
        cert,
        side,
        chooser: match h.kind {
            Kind::Win => side,
            Kind::NoWin => 1 - side,
        },
        report: CheckReport {
            // What is reported is what was checked: the canonical rules (equal
            // to the header's, checked above), the root as parsed, the side by
            // index; never a header text as written (a `side_name` of "hunter"
            // on a prey certificate, or control characters).
            rules: game.rules_string(),
            position: game.format_position(&root),
            side: game.side_name(side).to_string(),
            kind: h.kind,
            nodes: cert.nodes.len() as u64,
            terminal_leaves: 0,
            table_leaves: 0,
            depth: None,
            within: h.within,
            other_table_files: 0,
            problems: 0,
            examples: Vec::new(),
        },
        moves: Vec::new(),
        leaves: Vec::new(),
        same_files,
        plies_left: match (h.kind, h.within) {
            (Kind::NoWin, Some(d)) => Some(cert.plies_left(d)),
            _ => None,
        },
    };
    let n = cert.nodes.len();
    let mut pos: Vec<Option<G::Pos>> = vec![None; n];
    pos[0] = Some(root);
    let mut queue = VecDeque::from([0usize]);
    while let Some(v) = queue.pop_front() {
        let p = pos[v].clone().expect("queued nodes have a position");
        for (c, cp) in walk.node(v, &p) {
            let c = c as usize;
            match &pos[c] {
                None => {
                    pos[c] = Some(cp);
                    queue.push_back(c);
                }
                Some(q) if *q != cp => {
                    walk.problem(format!("node {c}: reached by two different positions"))
                }
                Some(_) => {}
            }
        }
    }
    // Table leaves in node order, a batch at a time; positions are taken
    // out of `pos` as they are read (each is needed once more, here).
    walk.leaves.sort_unstable();
    let leaves = std::mem::take(&mut walk.leaves);
    for batch in leaves.chunks(LEAF_BATCH) {
        let ps: Vec<G::Pos> = batch
            .iter()
            .map(|&v| pos[v as usize].clone().expect("leaves have a position"))
            .collect();
        let reads = tables(&ps)?;
        if reads.len() != ps.len() {
            return Err(Error::Internal(format!(
                "{} table leaves asked, {} answered",
                ps.len(),
                reads.len()
            )));
        }
        for ((&v, p), read) in batch.iter().zip(&ps).zip(reads) {
            walk.table_leaf(v as usize, p, read)?;
        }
    }
    let unreachable = pos.iter().filter(|p| p.is_none()).count();
    if unreachable > 0 {
        walk.problem(format!("{unreachable} nodes are not reached from the root"));
    }
    if h.kind == Kind::Win {
        walk.report.depth = cert.depth();
        // A bounded win counts the plies a table leaf still needs (its stored
        // distance, checked against the tables above) beyond the line to it.
        let bound = cert.depth_with(&|node| match node {
            Node::Table { distance, .. } => *distance,
            _ => 0,
        });
        match (walk.report.depth, bound, h.within) {
            (None, _, _) => {
                walk.problem("the proof graph has a cycle (no progress to a win)".into())
            }
            (Some(_), Some(d), Some(w)) if d > w => walk.problem(format!(
                "the longest line, with its table leaves' distances, has {d} plies, more than the {w} claimed"
            )),
            _ => {}
        }
    }
    Ok(walk.report)
}

/// Checks `cert` against `game` with its table leaves read from `dirs` (asked
/// in order, the first holding a leaf's tier answers) by the checker's own
/// path to the tables (`LeafTables`), never by the prover's lookup.
pub fn check_with_tables<G: TierGame>(
    game: &G,
    cert: &Certificate,
    dirs: &[PathBuf],
) -> Result<CheckReport> {
    let tables = LeafTables::open(game, dirs)?;
    check_batched(game, cert, &|ps: &[G::Pos]| tables.leaves(ps), true)
}

/// [`check_with_tables`] accepting, for a table leaf, any table of the tier
/// the certificate names, not only the very file (its crc32, which does not
/// depend on the header: tables solved again by the same build match it):
/// the same records in other blocks (another block size or zstd build). Sound
/// as long as the tables given are right (`verify` them): every leaf's value
/// and distance are still checked against them.
/// The report counts such leaves ([`CheckReport::other_table_files`]).
pub fn check_with_other_table_files<G: TierGame>(
    game: &G,
    cert: &Certificate,
    dirs: &[PathBuf],
) -> Result<CheckReport> {
    let tables = LeafTables::open(game, dirs)?;
    check_batched(game, cert, &|ps: &[G::Pos]| tables.leaves(ps), false)
}

/// The replay of a certificate: what every node is checked against, and the
/// report so far.
struct Walk<'a, G: Notation> {
    game: &'a G,
    cert: &'a Certificate,
    /// The goal side.
    side: usize,
    /// The side that plays one move at its nodes.
    chooser: usize,
    report: CheckReport,
    moves: Vec<G::Move>,
    /// The table leaves met, read after the replay.
    leaves: Vec<u32>,
    /// Whether a table leaf must come from the very file the certificate
    /// names (its crc32), or any table of its tier will do.
    same_files: bool,
    /// For a `no-win` claim bounded by `within`: the plies each node covers.
    plies_left: Option<Vec<u32>>,
}

impl<G: Notation> Walk<'_, G> {
    fn problem(&mut self, msg: String) {
        self.report.problems += 1;
        if self.report.examples.len() < MAX_LISTED {
            self.report.examples.push(msg);
        }
    }

    /// Whether a value `v` for the side to move `mover` agrees with the claim.
    fn good(&self, v: Value, mover: usize) -> bool {
        match self.cert.header.kind {
            Kind::Win => won_by(v, mover, self.side),
            Kind::NoWin => !won_by(v, mover, self.side),
        }
    }

    /// Whether a goal side's win in `distance` plies at node `v` is beyond
    /// the plies its bounded `no-win` claim covers.
    fn beyond(&self, v: usize, distance: u32) -> bool {
        self.plies_left
            .as_ref()
            .is_some_and(|left| distance > left[v])
    }

    /// Checks node `v` at position `p`; returns the children it reaches, with
    /// their positions.
    fn node(&mut self, v: usize, p: &G::Pos) -> Vec<(u32, G::Pos)> {
        let game = self.game;
        let mover = game.side_to_move(p);
        let over = game.outcome(p);
        let mut reach = Vec::new();
        match &self.cert.nodes[v] {
            Node::Terminal => {
                self.report.terminal_leaves += 1;
                match over {
                    None => self.problem(format!("node {v}: marked terminal but the game goes on")),
                    Some(val) if !self.good(val, mover) => self.problem(format!(
                        "node {v}: the game ends in a {val} for the side to move, against the claim"
                    )),
                    _ => {}
                }
            }
            Node::Table { .. } => {
                self.report.table_leaves += 1;
                self.leaves.push(v as u32);
            }
            Node::Horizon => match &self.plies_left {
                None => self.problem(format!(
                    "node {v}: a horizon leaf outside a no-win claim bounded by plies"
                )),
                Some(left) if left[v] > 0 => self.problem(format!(
                    "node {v}: a horizon leaf with {} plies of the claim left",
                    left[v]
                )),
                Some(_) if over.is_some() => {
                    self.problem(format!("node {v}: a horizon leaf where the game is over"))
                }
                Some(_) => {}
            },
            Node::One { mv, child } => {
                if over.is_some() {
                    self.problem(format!("node {v}: the game is over here"));
                } else if mover != self.chooser {
                    self.problem(format!(
                        "node {v}: lists one move but {} is to move",
                        game.side_name(mover)
                    ));
                } else {
                    game.legal_moves(p, &mut self.moves);
                    match self.moves.get(*mv as usize) {
                        None => {
                            let legal = self.moves.len();
                            self.problem(format!(
                                "node {v}: move index {mv} of {legal} legal moves"
                            ))
                        }
                        Some(&m) => reach.push((*child, game.play(p, m))),
                    }
                }
            }
            Node::All(children) => {
                if over.is_some() {
                    self.problem(format!("node {v}: the game is over here"));
                } else if mover == self.chooser {
                    self.problem(format!(
                        "node {v}: lists every move but {} chooses here",
                        game.side_name(mover)
                    ));
                } else {
                    game.legal_moves(p, &mut self.moves);
                    if self.moves.len() != children.len() {
                        let legal = self.moves.len();
                        self.problem(format!(
                            "node {v}: lists {} moves but {legal} are legal",
                            children.len()
                        ));
                    } else {
                        for (&c, &m) in children.iter().zip(self.moves.iter()) {
                            reach.push((c, game.play(p, m)));
                        }
                    }
                }
            }
        }
        reach
    }

    /// Checks table leaf `v` at position `p` against what its table says.
    fn table_leaf(&mut self, v: usize, p: &G::Pos, read: LeafRead) -> Result<()> {
        let Node::Table {
            table,
            value,
            distance,
        } = &self.cert.nodes[v]
        else {
            return Err(Error::Internal(format!("node {v} is not a table leaf")));
        };
        let mover = self.game.side_to_move(p);
        let named = &self.cert.header.tables[*table as usize];
        match read {
            // The tables given do not cover the leaf: the check cannot
            // be made (missing tables, exit 2), which is not "does not hold".
            None => {
                return Err(Error::Usage(format!(
                    "node {v}: no table given covers this position (the proof names tier {}); give --tables with that tier",
                    named.tier.escape_debug()
                )))
            }
            Some((t, val, d)) => {
                let other_file = t.tier == named.tier && t.crc32 != named.crc32;
                if other_file && !self.same_files {
                    self.report.other_table_files += 1;
                }
                if t != *named && (self.same_files || t.tier != named.tier) {
                    let hint = if t.tier == named.tier {
                        " (the same records in other blocks, e.g. another block size? \
                         --other-table-files checks the leaves against it)"
                    } else {
                        ""
                    };
                    self.problem(format!(
                        "node {v}: the proof names table {} (crc32 {:08x}), the position lies in {} (crc32 {:08x}){hint}",
                        named.tier.escape_debug(), named.crc32, t.tier.escape_debug(), t.crc32
                    ));
                } else if (val, d) != (*value, *distance) {
                    self.problem(format!(
                        "node {v}: the table says {val} in {d}, the proof {value} in {distance}"
                    ));
                } else if !self.good(val, mover) && !self.beyond(v, d) {
                    self.problem(format!(
                        "node {v}: the table value {val} contradicts the claim"
                    ));
                }
            }
        }
        Ok(())
    }
}
