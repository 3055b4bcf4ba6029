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
use super::dfpn::wins_for;
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use serde::Serialize;
use std::collections::VecDeque;

/// Reads a table leaf: the table the position lies in and its value and
/// distance (`None`: no table given covers it).
pub type TableProbe<'a, G> =
    dyn Fn(&<G as Game>::Pos) -> Result<Option<(TableRef, Value, u32)>> + 'a;

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
    let root = game.parse_position(&h.position)?;
    let side = h.side as usize;
    let chooser = match h.kind {
        Kind::Win => side,
        Kind::NoWin => 1 - side,
    };
    let mut report = CheckReport {
        rules: h.rules.clone(),
        position: h.position.clone(),
        side: h.side_name.clone(),
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
        Kind::Win => wins_for(v, mover, side),
        Kind::NoWin => !wins_for(v, mover, side),
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
                    None => problem(
                        &mut report,
                        format!(
                            "node {v}: no table given covers this position (tier {})",
                            named.tier
                        ),
                    ),
                    Some((t, val, d)) => {
                        if t != *named {
                            problem(
                                &mut report,
                                format!(
                                    "node {v}: the proof names table {} (crc32 {:08x}), the position lies in {} (crc32 {:08x})",
                                    named.tier, named.crc32, t.tier, t.crc32
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
