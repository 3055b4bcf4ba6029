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

use super::certificate::{Certificate, Kind, Node, TableRef};
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use serde::Serialize;
use std::collections::VecDeque;

/// Reads a table leaf: the table the position lies in and its value and
/// distance (`None`: no table given covers it).
pub type TableProbe<'a, G> =
    dyn Fn(&<G as Game>::Pos) -> Result<Option<(TableRef, Value, u32)>> + 'a;

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
/// win from nothing). A violation is an input error (exit 2), not a panic.
pub(crate) fn validate(cert: &Certificate) -> Result<()> {
    let h = &cert.header;
    let n = cert.nodes.len();
    let bad = |m: String| Err(Error::Input(format!("the certificate is malformed: {m}")));
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
    for (i, node) in cert.nodes.iter().enumerate() {
        match node {
            Node::Terminal => {}
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
    let h = &cert.header;
    if h.rules != game.rules_string() || h.fingerprint != game.fingerprint() {
        return Err(Error::Input(format!(
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
    let chooser = match h.kind {
        Kind::Win => side,
        Kind::NoWin => 1 - side,
    };
    let mut report = CheckReport {
        // What is reported is what was checked: the canonical rules (equal to
        // the header's, checked above), the root as parsed, the side by index;
        // never a header text as written (a `side_name` of "hunter" on a prey
        // certificate, or control characters).
        rules: game.rules_string(),
        position: game.format_position(&root),
        side: game.side_name(side).to_string(),
        kind: h.kind,
        nodes: cert.nodes.len() as u64,
        terminal_leaves: 0,
        table_leaves: 0,
        depth: None,
        problems: 0,
        examples: Vec::new(),
    };
    let problem = |r: &mut CheckReport, msg: String| {
        r.problems += 1;
        if r.examples.len() < MAX_LISTED {
            r.examples.push(msg);
        }
    };
    let good = |v: Value, mover: usize| match h.kind {
        Kind::Win => won_by(v, mover, side),
        Kind::NoWin => !won_by(v, mover, side),
    };
    let n = cert.nodes.len();
    let mut pos: Vec<Option<G::Pos>> = vec![None; n];
    pos[0] = Some(root);
    let mut queue = VecDeque::from([0usize]);
    let mut moves = Vec::new();
    while let Some(v) = queue.pop_front() {
        let p = pos[v].clone().expect("queued nodes have a position");
        let mover = game.side_to_move(&p);
        let over = game.outcome(&p);
        let mut reach: Vec<(u32, G::Pos)> = Vec::new();
        match &cert.nodes[v] {
            Node::Terminal => {
                report.terminal_leaves += 1;
                match over {
                    None => problem(
                        &mut report,
                        format!("node {v}: marked terminal but the game goes on"),
                    ),
                    Some(val) if !good(val, mover) => problem(
                        &mut report,
                        format!("node {v}: the game ends in a {val} for the side to move, against the claim"),
                    ),
                    _ => {}
                }
            }
            Node::Table {
                table,
                value,
                distance,
            } => {
                report.table_leaves += 1;
                let named = &h.tables[*table as usize];
                match tables(&p)? {
                    // The tables given do not cover the leaf: the check cannot
                    // be made (missing tables, exit 2), which is not "does not hold".
                    None => {
                        return Err(Error::Input(format!(
                            "node {v}: no table given covers this position (the proof names tier {}); give --tables with that tier",
                            named.tier.escape_debug()
                        )))
                    }
                    Some((t, val, d)) => {
                        if t != *named {
                            problem(
                                &mut report,
                                format!(
                                    "node {v}: the proof names table {} (crc32 {:08x}), the position lies in {} (crc32 {:08x})",
                                    named.tier.escape_debug(), named.crc32, t.tier.escape_debug(), t.crc32
                                ),
                            );
                        } else if (val, d) != (*value, *distance) {
                            problem(
                                &mut report,
                                format!("node {v}: the table says {val} in {d}, the proof {value} in {distance}"),
                            );
                        } else if !good(val, mover) {
                            problem(
                                &mut report,
                                format!("node {v}: the table value {val} contradicts the claim"),
                            );
                        }
                    }
                }
            }
            Node::One { mv, child } => {
                if over.is_some() {
                    problem(&mut report, format!("node {v}: the game is over here"));
                } else if mover != chooser {
                    problem(
                        &mut report,
                        format!(
                            "node {v}: lists one move but {} is to move",
                            game.side_name(mover)
                        ),
                    );
                } else {
                    game.legal_moves(&p, &mut moves);
                    match moves.get(*mv as usize) {
                        None => problem(
                            &mut report,
                            format!("node {v}: move index {mv} of {} legal moves", moves.len()),
                        ),
                        Some(&m) => reach.push((*child, game.play(&p, m))),
                    }
                }
            }
            Node::All(children) => {
                if over.is_some() {
                    problem(&mut report, format!("node {v}: the game is over here"));
                } else if mover == chooser {
                    problem(
                        &mut report,
                        format!(
                            "node {v}: lists every move but {} chooses here",
                            game.side_name(mover)
                        ),
                    );
                } else {
                    game.legal_moves(&p, &mut moves);
                    if moves.len() != children.len() {
                        problem(
                            &mut report,
                            format!(
                                "node {v}: lists {} moves but {} are legal",
                                children.len(),
                                moves.len()
                            ),
                        );
                    } else {
                        for (&c, &m) in children.iter().zip(moves.iter()) {
                            reach.push((c, game.play(&p, m)));
                        }
                    }
                }
            }
        }
        for (c, cp) in reach {
            let c = c as usize;
            match &pos[c] {
                None => {
                    pos[c] = Some(cp);
                    queue.push_back(c);
                }
                Some(q) if *q != cp => problem(
                    &mut report,
                    format!("node {c}: reached by two different positions"),
                ),
                Some(_) => {}
            }
        }
    }
    let unreachable = pos.iter().filter(|p| p.is_none()).count();
    if unreachable > 0 {
        problem(
            &mut report,
            format!("{unreachable} nodes are not reached from the root"),
        );
    }
    if h.kind == Kind::Win {
        report.depth = cert.depth();
        if report.depth.is_none() {
            problem(
                &mut report,
                "the proof graph has a cycle (no progress to a win)".into(),
            );
        }
    }
    Ok(report)
}
