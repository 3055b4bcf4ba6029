//! The df-pn prover: exact values far beyond the tables, with certificates.
//!
//! # What it proves
//! Goals are one-sided: "side S can force a win", where a draw (a terminal
//! draw or endless play) counts against S. [`dfpn::Prover::prove_side`] proves
//! or disproves one goal; [`dfpn::Prover::value`] combines two runs: the mover
//! forces a win → win; otherwise the opponent forces a win → loss; otherwise
//! (both disproven) → draw, each disproof showing that the other side holds at
//! least a draw. The run reports say which runs were needed.
//!
//! # Search
//! Depth-first proof-number search (Nagai 2002) over the generic rules
//! interface (only `start`, `legal_moves`, `play`, `outcome`, `hash` and
//! `side_to_move` of [`crate::game::Game`]), with the 1+ε threshold trick
//! (Pawlewicz & Lew 2007: a child's threshold is `⌈(1+ε)·second-best⌉`, which
//! cuts the re-expansions of plain df-pn), and a transposition table (`tt`)
//! of proof and disproof numbers in a fixed amount of memory, replaced by work
//! done. Leaves: terminal positions ([`crate::game::Game::outcome`]) and every
//! position an [`crate::game::Oracle`] knows (the tables given with `--tables`).
//!
//! # Symmetry, initial numbers, wins in one
//! - **Keys by symmetry class** ([`ProveConfig::symmetry`], on by default): the
//!   table, the path (repetitions), the closure search's set and the local
//!   analysis key a position by [`crate::game::Game::canonical_hash`], the
//!   smallest Zobrist hash over its images under the board's symmetries (hunt
//!   games; other games keep their plain hash). The search is then df-pn on
//!   the *quotient* game, whose positions are the classes: a class's moves
//!   are those of whichever member is searched, and since a symmetry of the
//!   rules maps moves onto moves, outcomes onto outcomes and cycles onto
//!   cycles, the quotient's values are the game's. Everything below (the
//!   repetition argument, the hints, the closure and local phases) holds for
//!   the quotient as for any game; a move into an image of an ancestor is a
//!   repetition of the quotient, and the opponent's strategy that closes on it
//!   unfolds into one of the game by applying the symmetry. Certificates are
//!   built on the actual positions (`certificate` keys its nodes by
//!   [`crate::game::Game::hash`], asking the table by class), because the
//!   checker replays moves: an image needs nodes of its own.
//! - **Initial numbers** ([`ProveConfig::init`]): a new node gets
//!   [`crate::game::Game::proof_hint`] (df-pn+; hunt games: the captures still
//!   needed for the hunters' goal, the hunters' remaining moves for the
//!   prey's) or, with [`dfpn::Init::Plain`], (1, 1). They steer, never decide.
//! - **Wins in one** ([`ProveConfig::quick_check`]): a new node whose side to
//!   move wins at once by [`crate::game::Game::wins_at_once`] (hunt: a capture
//!   reaching the threshold, or a prey move that leaves the hunters without a
//!   move; each confirmed by playing it and asking the rules' outcome) is
//!   final at distance 1 without an expansion.
//!
//! Threads share the table; each runs df-pn from the root. Within the first
//! [`dfpn::ProveConfig::spread_plies`] plies a child another thread is inside
//! counts as harder (its number is multiplied by one plus the number of threads
//! in it: a simple form of Kaneko's virtual proof numbers), so threads spread
//! over different subtrees near the root; deeper they follow the plain df-pn
//! choice. Applied at every ply, the penalty multiplied the nodes of the cyclic
//! positions of `bench --prove` by 4-13 (threads kept each other out of the
//! lines that mattered); see results/proofs.md for the measurement.
//!
//! # Repetition and the graph-history interaction (GHI)
//! Positions carry no history; the rules say a cycle is a draw
//! (`repetition=draw`, every preset today; the prover refuses other settings).
//! A move back to a position on the current search path is a leaf that is
//! *disproven* for S (a draw is not a win), with the ply of the repeated
//! ancestor attached. Soundness then rests on three facts:
//!
//! 1. **A proof never relies on a repetition.** An OR node (S to move) is
//!    proven by one proven child, an AND node by all children proven; a
//!    repetition leaf is disproven, so it never takes part in a proof. Proofs
//!    are built bottom-up from terminal and table wins, so every stored proof
//!    holds on any path, and proven entries are stored as final.
//! 2. **A disproof may rely on a repetition, and is then path-dependent.** Each
//!    disproof carries the smallest ply `r` of an ancestor it repeats (an OR
//!    node: the minimum over its children, all disproven; an AND node: the
//!    largest over its disproven children, i.e. the least dependent one). At a
//!    node of ply `p`, a disproof with `r ≥ p` only repeats the node itself or
//!    positions below it: the opponent's strategy closes on itself, which holds
//!    on any path, and it is stored as final. A disproof with `r < p` depends on
//!    the path above and is **never stored as final**: it is kept only in the
//!    frame of its parent, where the path is the same for the frame's whole
//!    life, and returned upwards with its `r`.
//! 3. **First-repetition semantics equals cycle semantics** for the goal "S
//!    wins": S, when winning, has a strategy that never repeats (its distance
//!    to the win strictly decreases), and when not winning, the opponent keeps
//!    it from winning for ever.
//!
//! Path-dependent disproofs are also kept as *hints*: the entry is marked, and
//! its repetition set (up to `tt::MAX_REPS` ancestor hashes) is stored
//! beside the table. A hint counts as a disproof again when every ancestor of
//! its set is on the current path: the opponent's strategy below it then ends
//! in the same repetitions (each repeated position is an ancestor), so this is
//! exactly as sound as the disproof that stored it.
//!
//! # The closure search (disproofs of draws in cycles)
//! df-pn is poor at disproofs whose strategy is a cycle: the disproof of a
//! drawn movement phase depends on ever-changing ancestors and is re-derived
//! again and again (on kaooa-6, 20 M nodes without a disproof). So each run
//! alternates df-pn phases (all threads) with a *closure search* and a *local
//! retrograde analysis* (one thread each; see below), each round twice as
//! long as the previous, from 2^18 nodes. The closure
//! search is a depth-first search for a set D of positions, containing the
//! root, that is closed: at every position of D where S moves, every move
//! leads into D or to a known non-win, and where the opponent moves, some move
//! does. Such a set proves that S wins nowhere in D (the opponent keeps the
//! play inside D or reaches a non-win; endless play is a draw). Positions are
//! added to D as they are entered (so a cycle back into D holds, co-inductively)
//! and an attempt that fails is removed with everything it added, in
//! insertion order. A failure is never an assumption: it comes only from
//! wins of S at leaves and "every opponent move fails" or "some S move
//! fails", i.e. it is an ordinary (inductive) proof that S wins, stored as
//! such. On success every position of D is stored as a final disproof.
//! Children are tried in the order df-pn's numbers suggest. Its recursion is
//! capped at `budget::MAX_SMALL_FRAME_DEPTH` frames (the thread's stack);
//! a phase cut short by that cap or by the memory budget drops the closure
//! search from the rest of the run.
//!
//! # The local retrograde analysis (large drawn regions)
//! The closure search follows one strategy depth first; when the opponent's
//! drawing region is large (two leopards against two cows on the 49-point
//! board: about 2.6 million positions), its line outgrows the stack or the
//! budget. The third phase of each round (`dfpn`'s `local` module) walks
//! breadth first every position reachable from the root, up to half a
//! phase's nodes and the memory budget, stopping at known positions
//! (terminal, table, final table entries); what it could not expand is the
//! frontier. A retrograde pass then marks the goal side's wins counting the
//! frontier as not won (true wins, stored as proofs with their distance),
//! and continues counting the frontier as won: what is still unmarked is a
//! true non-win (the opponent stays away from the frontier and every win
//! for ever, or reaches a known non-win), stored as final disproofs. Both
//! hold on any path. A phase cut short by the memory budget drops the local
//! analysis from the rest of the run.
//!
//! Non-final numbers are heuristics and may come from any path; they decide
//! only where to search, never a value. The root's final result is therefore a
//! sound proof or disproof. A 64-bit hash collision in the table could in
//! principle corrupt a result; certificates (`certificate`) are checked by
//! replaying the rules ([`check`]), which removes that doubt.
//!
//! # Memory
//! `--hash MiB` bounds everything the prover keeps: the table, the search
//! frames, the closure search's set and the certificate being built are
//! charged to one budget before they are allocated (`budget`). A run that
//! would exceed it stops unknown with [`StopReason::Memory`] ("out of memory
//! budget"); certificate extraction returns [`crate::error::Error::Memory`].
//!
//! # Certificates
//! [`extract`] (beside the prover, in `dfpn`) turns a finished run into a
//! solution graph, written in the format of `certificate`: for a
//! proof, an acyclic graph with one move at S's nodes and every legal move at
//! the opponent's; for a disproof, a closed strategy graph of the opponent (one
//! move at its nodes, every move at S's; cycles are draws). Leaves are terminal
//! positions or table values. [`check`] re-checks a certificate with the rules
//! engine, the certificate format and the tables only (no code of `dfpn`).

pub(crate) mod bounds;
pub(crate) mod budget;
pub(crate) mod certificate;
pub(crate) mod check;
pub(crate) mod dfpn;
pub(crate) mod frontier;
pub(crate) mod tables;
pub(crate) mod tt;
pub(crate) mod within;

pub use dfpn::{
    extract, wins_for, LeafTable, ProveConfig, Prover, RunOutcome, RunReport, StopReason,
};
pub use tt::ProofTable;

use crate::error::Result;
use crate::game::Game;

/// Checks that the rules score repetition as a draw (the prover's semantics).
pub fn check_repetition_rule<G: Game>(game: &G) -> Result<()> {
    crate::game::require_cycles_drawn(game, "the prover")
}

#[cfg(test)]
mod tests_leaves;
#[cfg(test)]
mod tests_memory;
#[cfg(test)]
mod tests_within;

pub use bounds::{bounds, threshold_variant, Bounds, BoundsConfig};
pub use certificate::{check_save_path, CertHeader, Certificate, Kind, Node, TableRef};
pub use check::{check, check_with_other_table_files, check_with_tables, CheckReport};
pub use dfpn::{num, Init, DEFAULT_SPREAD_PLIES};
pub use frontier::{frontier, frontier_value, FrontierConfig, FrontierResult, STATE_FILE};
pub use tables::TableDirs;
pub use within::{prove_within, WithinConfig, WithinReport, MAX_WITHIN};
