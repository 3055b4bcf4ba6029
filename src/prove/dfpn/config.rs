//! How a prover is configured (`ProveConfig`, `Init`) and what a run reports
//! (`RunOutcome`, `StopReason`, `RunReport`).

use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How to prove.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    /// Worker threads sharing the table (at least 1).
    pub threads: usize,
    /// Wall-clock limit (`None`: until proven or stopped).
    pub time: Option<Duration>,
    /// Node limit over all threads (`None`: none).
    pub nodes: Option<u64>,
    /// ε of the 1+ε threshold trick.
    pub epsilon: f64,
    /// External stop flag.
    pub stop: Arc<AtomicBool>,
    /// Nodes of the first df-pn phase (later phases double).
    pub phase_nodes: u64,
    /// Alternate df-pn with the closure search (see [`crate::prove`]).
    pub closure: bool,
    /// Alternate df-pn with the local retrograde analysis (see
    /// [`crate::prove`]).
    pub local: bool,
    /// With several threads: plies from the root within which a child another
    /// thread is in counts as harder (virtual proof numbers); below them the
    /// threads follow the plain df-pn choice and share results through the table.
    pub spread_plies: u32,
    /// Key the proof table by [`Game::canonical_hash`](crate::game::Game::canonical_hash) (one entry per symmetry
    /// class of the board) instead of [`Game::hash`](crate::game::Game::hash).
    pub symmetry: bool,
    /// Initial proof and disproof numbers of new nodes.
    pub init: Init,
    /// At a new node, ask [`Game::wins_at_once`](crate::game::Game::wins_at_once) (a cheap test for a win in
    /// one move of the side to move) before counting it open.
    pub quick_check: bool,
}

/// Initial numbers of a new node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Init {
    /// (1, 1), plain df-pn.
    Plain,
    /// [`Game::proof_hint`](crate::game::Game::proof_hint) (df-pn+): from the position.
    #[default]
    Heuristic,
}

impl std::str::FromStr for Init {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Init, String> {
        match s {
            "plain" => Ok(Init::Plain),
            "heuristic" => Ok(Init::Heuristic),
            _ => Err(format!("{s}: expected plain or heuristic")),
        }
    }
}

impl Default for ProveConfig {
    fn default() -> Self {
        ProveConfig {
            threads: 1,
            time: None,
            nodes: None,
            epsilon: 0.25,
            stop: Arc::new(AtomicBool::new(false)),
            phase_nodes: 1 << 18,
            closure: true,
            local: true,
            spread_plies: DEFAULT_SPREAD_PLIES,
            symmetry: true,
            init: Init::Heuristic,
            quick_check: true,
        }
    }
}

/// Result of one run for one goal side. Not `#[non_exhaustive]`: a proof
/// search for a goal ends proven, disproven or undecided, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunOutcome {
    /// The goal side forces a win.
    Proven,
    /// The goal side cannot force a win (the other side holds at least a draw).
    Disproven,
    /// Stopped before either (time, node limit or interrupt).
    Unknown,
}

/// Why a run stopped before a proof or disproof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum StopReason {
    /// The time limit.
    Time,
    /// The node limit.
    Nodes,
    /// The memory budget (`--hash`): "out of memory budget".
    Memory,
    /// A line deeper than a prover thread's stack holds
    /// (`crate::prove::budget::MAX_FRAME_DEPTH` plies).
    Depth,
    /// A stop request (Ctrl-C or the caller's flag).
    Interrupt,
}

impl StopReason {
    /// Text for people.
    pub fn text(self) -> &'static str {
        match self {
            StopReason::Time => "time limit",
            StopReason::Nodes => "node limit",
            StopReason::Memory => "out of memory budget",
            StopReason::Depth => "line deeper than the thread's stack holds",
            StopReason::Interrupt => "interrupted",
        }
    }
}

/// Figures of one run.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    /// Index of the goal side.
    pub side: usize,
    /// Name of the goal side.
    pub side_name: &'static str,
    /// What was established.
    pub outcome: RunOutcome,
    /// Root proof number at the end (0: proven).
    pub pn: u32,
    /// Root disproof number at the end (0: disproven).
    pub dn: u32,
    /// Nodes expanded (all threads).
    pub nodes: u64,
    /// Positions generated and looked up (the children of every expansion,
    /// and the positions the closure search and local analysis met): the
    /// unit of an alpha-beta node count.
    pub positions: u64,
    /// Leaves answered by the tables.
    pub table_hits: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// For a proof: the plies the stored proof needs at most (from the table).
    pub proof_plies: Option<u32>,
    /// Why the run stopped, when its outcome is unknown.
    pub stopped: Option<StopReason>,
    /// Most bytes of the memory budget in use at once (the table included),
    /// over the prover's life so far.
    pub memory_peak_bytes: usize,
}

/// Default of [`ProveConfig::spread_plies`], measured with `bench --prove` (see
/// results/proofs.md): a penalty at every ply was 16x slower on 2 threads; none at
/// all measured the same as 3 (1.77x vs 1.76x over 1 thread), and 3 is kept so that
/// threads still start in different subtrees of the root.
pub const DEFAULT_SPREAD_PLIES: u32 = 3;
