//! Claims bounded by plies: "the goal side forces a win within D plies" or
//! "it cannot force one within D plies", by an exhaustive depth-bounded
//! AND/OR search, with a certificate the checker re-checks.
//!
//! Where df-pn cannot decide a position (the start of a seed game: a drawn
//! or far-off value in a tree too large), a bounded claim still says
//! something exact: the fastest forced win is longer than D plies, or at
//! most D. The search is plain: `wins(p, r)` (can the goal side force a
//! win within `r` plies from `p`?) is true at a terminal position won by the
//! goal side, false at any other terminal position or when `r = 0`, else the
//! goal side needs one move and its opponent's every move to lead to
//! `wins(child, r - 1)`. Positions carry no history and the rules count a
//! cycle as a draw, so the answer depends on the position and `r` alone and
//! is kept per position (by its Zobrist hash) as two bounds, monotone in
//! `r`: the fewest plies known to win and the most plies known not to. A
//! hash collision could only make the search wrong, never the claim: the
//! certificate is replayed move by move by [`super::check`], which shares
//! none of this code.
//!
//! The certificate ([`super::certificate`], header `within`) has a node per
//! (position, plies left) and a leaf per position: a `win` graph is acyclic by construction (plies
//! fall along every edge) and its longest line is at most D; a `no-win`
//! graph lists every move of the goal side, one refutation of the
//! opponent's, and ends in terminal leaves that are not won by the goal side
//! or in horizon leaves where no plies are left.
//!
//! No tables are read (a bounded claim from a seed game's start does not
//! reach them); the command line refuses `--tables` with `--within`.

use super::certificate::{CertHeader, Certificate, Kind, Node};
use super::dfpn::{wins_for, RunOutcome};
use crate::error::{Error, Result};
use crate::game::{Game, Notation};
use hashbrown::HashMap;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Most plies a bounded claim may name (the search recurses once a ply).
pub const MAX_WITHIN: u32 = 200;

/// Bytes a position's bounds take in the search's table (entry and the hash
/// map's share of empty slots), for the memory limit.
const ENTRY_BYTES: usize = 32;

/// How to run [`prove_within`].
#[derive(Clone, Debug)]
pub struct WithinConfig {
    /// The plies the claim covers (1 to [`MAX_WITHIN`]).
    pub plies: u32,
    /// Stop after this many expanded positions.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Memory for the positions' bounds, in MiB.
    pub hash_mib: usize,
}

/// What a bounded run found.
#[derive(Clone, Debug, Serialize)]
pub struct WithinReport {
    /// The goal side.
    pub side: usize,
    /// Its name.
    pub side_name: String,
    /// The plies the claim covers.
    pub plies: u32,
    /// Proven: a win within `plies`; disproven: none within `plies`.
    pub outcome: RunOutcome,
    /// Why the run stopped undecided (`nodes`, `time`, `memory`, `interrupted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// Positions expanded.
    pub nodes: u64,
    /// Positions whose bounds are kept.
    pub positions: usize,
    /// Wall seconds.
    pub seconds: f64,
}

/// What is known of a position: the fewest plies in which the goal side is
/// known to force a win, and the most in which it is known not to.
#[derive(Clone, Copy)]
struct Bounds {
    win_at: u32,
    /// -1: nothing known.
    no_win_upto: i64,
}

/// The search: the game, the goal side and the positions' bounds.
pub(crate) struct WithinSearch<'a, G: Game> {
    game: &'a G,
    side: usize,
    cfg: WithinConfig,
    memo: HashMap<u64, Bounds>,
    max_entries: usize,
    nodes: u64,
    started: Instant,
    stopped: Option<&'static str>,
}

impl<'a, G: Game> WithinSearch<'a, G> {
    /// A search for goal side `side` (0 or 1).
    pub(crate) fn new(game: &'a G, side: usize, cfg: WithinConfig) -> Result<Self> {
        if cfg.plies == 0 || cfg.plies > MAX_WITHIN {
            return Err(Error::Usage(format!(
                "--within {}: expected 1 to {MAX_WITHIN} plies",
                cfg.plies
            )));
        }
        if side > 1 {
            return Err(Error::Usage(format!("goal side {side} (0 or 1 expected)")));
        }
        crate::game::require_cycles_drawn(game, "the bounded prover")?;
        let max_entries = (cfg.hash_mib.max(1) << 20) / ENTRY_BYTES;
        Ok(WithinSearch {
            game,
            side,
            cfg,
            memo: HashMap::new(),
            max_entries,
            nodes: 0,
            started: Instant::now(),
            stopped: None,
        })
    }

    /// Whether the goal side forces a win within `r` plies from `pos`
    /// (`None`: stopped by a limit).
    fn wins(&mut self, pos: &G::Pos, r: u32) -> Option<bool> {
        let game = self.game;
        let mover = game.side_to_move(pos);
        if let Some(v) = game.outcome(pos) {
            return Some(wins_for(v, mover, self.side));
        }
        if r == 0 {
            return Some(false);
        }
        let key = game.hash(pos);
        if let Some(b) = self.memo.get(&key) {
            if r >= b.win_at {
                return Some(true);
            }
            if r as i64 <= b.no_win_upto {
                return Some(false);
            }
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.limit_reached() {
            return None;
        }
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let choosing = mover == self.side;
        // The goal side needs one winning move, its opponent one that is not.
        let mut won = !choosing;
        for m in moves {
            let child = game.play(pos, m);
            let w = self.wins(&child, r - 1)?;
            if w == choosing {
                won = choosing;
                break;
            }
        }
        if self.memo.len() >= self.max_entries && !self.memo.contains_key(&key) {
            self.stopped = Some("memory");
            return None;
        }
        let b = self.memo.entry(key).or_insert(Bounds {
            win_at: u32::MAX,
            no_win_upto: -1,
        });
        if won {
            b.win_at = b.win_at.min(r);
        } else {
            b.no_win_upto = b.no_win_upto.max(r as i64);
        }
        Some(won)
    }

    fn limit_reached(&mut self) -> bool {
        if crate::progress::stop_requested() {
            self.stopped = Some("interrupted");
        } else if self.cfg.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = Some("nodes");
        } else if self.cfg.time.is_some_and(|t| self.started.elapsed() >= t) {
            self.stopped = Some("time");
        }
        self.stopped.is_some()
    }

    /// Runs the search from `root`.
    pub(crate) fn run(&mut self, root: &G::Pos) -> WithinReport {
        self.started = Instant::now();
        let outcome = match self.wins(root, self.cfg.plies) {
            Some(true) => RunOutcome::Proven,
            Some(false) => RunOutcome::Disproven,
            None => RunOutcome::Unknown,
        };
        WithinReport {
            side: self.side,
            side_name: self.game.side_name(self.side).to_string(),
            plies: self.cfg.plies,
            outcome,
            stopped: if outcome == RunOutcome::Unknown {
                self.stopped
            } else {
                None
            },
            nodes: self.nodes,
            positions: self.memo.len(),
            seconds: self.started.elapsed().as_secs_f64(),
        }
    }

    /// Whether the search's bounds show the claim (`win`: a win within `r`
    /// plies; else none within `r`) at `pos`, without searching.
    fn known(&self, pos: &G::Pos, r: u32, win: bool) -> bool {
        let game = self.game;
        if let Some(v) = game.outcome(pos) {
            return wins_for(v, game.side_to_move(pos), self.side) == win;
        }
        if r == 0 {
            return !win;
        }
        match self.memo.get(&game.hash(pos)) {
            Some(b) if win => r >= b.win_at,
            Some(b) => r as i64 <= b.no_win_upto,
            None => false,
        }
    }
}

impl<G: Notation> WithinSearch<'_, G> {
    /// The certificate of a decided run from `root` (`outcome` Proven or
    /// Disproven), of at most `max_nodes` nodes.
    pub(crate) fn certificate(
        &self,
        root: &G::Pos,
        outcome: RunOutcome,
        max_nodes: usize,
    ) -> Result<Certificate> {
        let win = match outcome {
            RunOutcome::Proven => true,
            RunOutcome::Disproven => false,
            RunOutcome::Unknown => {
                return Err(Error::certificate_data(
                    "none can be made: the bounded claim is undecided",
                ))
            }
        };
        let mut b = Builder {
            search: self,
            win,
            nodes: Vec::new(),
            ids: HashMap::new(),
            max_nodes,
        };
        b.build(root, self.cfg.plies)?;
        let game = self.game;
        Ok(Certificate {
            header: CertHeader {
                rules: game.rules_string(),
                fingerprint: game.fingerprint(),
                position: game.format_position(root),
                side: self.side as u8,
                side_name: game.side_name(self.side).to_string(),
                kind: if win { Kind::Win } else { Kind::NoWin },
                nodes: b.nodes.len() as u64,
                tables: Vec::new(),
                writer: format!("huntsolve {} prove --within", env!("CARGO_PKG_VERSION")),
                within: Some(self.cfg.plies),
            },
            nodes: b.nodes,
        })
    }
}

/// Writes the certificate's nodes, one per (position, plies left).
struct Builder<'s, 'a, G: Game> {
    search: &'s WithinSearch<'a, G>,
    win: bool,
    nodes: Vec<Node>,
    ids: HashMap<(u64, u32), u32>,
    max_nodes: usize,
}

impl<G: Game> Builder<'_, '_, G> {
    fn push(&mut self, node: Node) -> Result<u32> {
        if self.nodes.len() >= self.max_nodes {
            return Err(Error::certificate_data(format!(
                "it would exceed {} nodes",
                self.max_nodes
            )));
        }
        self.nodes.push(node);
        Ok(self.nodes.len() as u32 - 1)
    }

    fn build(&mut self, pos: &G::Pos, r: u32) -> Result<u32> {
        let (game, side, win) = (self.search.game, self.search.side, self.win);
        // A leaf stands for its position whatever the plies left: one node per
        // position (the key's plies u32::MAX for a terminal one, 0 for a horizon).
        let over = game.outcome(pos).is_some();
        let key = (game.hash(pos), if over { u32::MAX } else { r });
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = self.push(if r == 0 && !over {
            Node::Horizon
        } else {
            Node::Terminal
        })?;
        self.ids.insert(key, id);
        if over || r == 0 {
            return Ok(id);
        }
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let chooser = if win { side } else { 1 - side };
        if game.side_to_move(pos) == chooser {
            let (i, child) = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| (i, game.play(pos, m)))
                .find(|(_, c)| self.search.known(c, r - 1, win))
                .ok_or_else(|| {
                    Error::Internal(
                        "bounded certificate: a decided position has no known move".into(),
                    )
                })?;
            let c = self.build(&child, r - 1)?;
            self.nodes[id as usize] = Node::One {
                mv: i as u32,
                child: c,
            };
        } else {
            let mut kids = Vec::with_capacity(moves.len());
            for m in moves {
                let child = game.play(pos, m);
                if !self.search.known(&child, r - 1, win) {
                    return Err(Error::Internal(
                        "bounded certificate: a move of the other side is not decided".into(),
                    ));
                }
                kids.push(self.build(&child, r - 1)?);
            }
            self.nodes[id as usize] = Node::All(kids);
        }
        Ok(id)
    }
}

/// Runs a bounded claim for `side` from `root`: the report and, when the
/// claim is decided and `max_cert_nodes` is given, its certificate (at most
/// that many nodes).
pub fn prove_within<G: Notation>(
    game: &G,
    root: &G::Pos,
    side: usize,
    cfg: WithinConfig,
    max_cert_nodes: Option<usize>,
) -> Result<(WithinReport, Option<Certificate>)> {
    let mut s = WithinSearch::new(game, side, cfg)?;
    let report = s.run(root);
    let cert = match max_cert_nodes {
        Some(max) if report.outcome != RunOutcome::Unknown => {
            Some(s.certificate(root, report.outcome, max)?)
        }
        _ => None,
    };
    Ok((report, cert))
}
