//! huntsolve: rules engines, solvers and statistics for hunt games
//! (leopards and cows, Bagh-Chal, Kaooa) and tafl (Caikabōraḍa, Tablut, Brandubh).
//!
//! # The public API
//! Ten modules and the re-exports at the crate root; every other module is
//! private, and what the faces use of it is re-exported here.
//! - **Rules**: [`hunt::from_spec`], [`tafl::from_spec`] and [`AnyGame::parse`] turn a
//!   rules string (a preset with `key=value` options, docs/rules.md) into a game; the
//!   [`Game`] and [`Notation`] traits of [`game`] play it (`start`, `legal_moves`,
//!   `play`, `outcome`, the text forms of positions and moves), [`game::perft`]
//!   counts its tree. [`TierGame`] splits a game into tiers and ranks its positions.
//! - **Solve**: [`retro::solve`] solves a [`retro::Scope`] of a game's tiers into a
//!   directory of self-describing tables, one per tier, with `summary.json`
//!   ([`retro::SolveOptions`]: threads, memory bound, checkpoints, the compact solver).
//! - **Query**: [`table::TableOracle`] reads those tables (value and distance of a
//!   position); [`table::query_tables`] answers a position with every move's value,
//!   [`table::verify_dir`] re-derives tables from their children; [`answer`] answers a
//!   position by tables, prover or search, as `query` and the explorer do.
//! - **Prove**: [`prove::Prover`] (df-pn with tables as leaves) decides a position, and
//!   [`prove::extract`] writes the proof as a certificate that [`prove::check()`],
//!   which shares no code with the prover, re-checks.
//! - **Search and statistics**: [`search`] (alpha-beta that sees tables only as an
//!   [`Oracle`]), [`stats`] (tournaments, intervals, reports, sweeps) and the explorer's
//!   server [`serve`].
//! - **At the root**: errors ([`Error`], [`Result`]), progress and Ctrl-C
//!   ([`Progress`], [`NoProgress`], [`stop_requested`]), seeded random numbers
//!   ([`Rng`]), boards ([`Board`]), the record encoding ([`encode`], [`decode`]),
//!   and a small test game ([`TicTacToe`]).
//!
//! # Layers
//! Each layer uses only the layers above it (`tests/it/layers.rs` reads every `crate::`
//! path and keeps it so): base (`error`, `durable`, `progress`, `random`, `regular`,
//! `choice`); geometry (`board`); the rules interface (`game`, then `tier`: the tier
//! vocabulary the solver and the table format both speak); rules (`hunt`, `tafl`,
//! `toy`, then `variant`); storage (`table`); generation (`retro`, then `cluster` with
//! the feature `mpi`); search (`search`, `prove`); `answer`; `stats`; and the face
//! `serve`.
//!
//! The library never prints; the binary (`src/main.rs`, `src/cli/`) does.
//!
//! ## Rules
//! ```
//! use huntsolve::{game::perft, Game, Notation};
//! // Kaooa: 7 crows against 1 vulture on the ten points of a star.
//! let g = huntsolve::hunt::from_spec("kaooa").unwrap();
//! let start = g.start();
//! let mut moves = Vec::new();
//! g.legal_moves(&start, &mut moves);
//! assert_eq!(moves.len(), 10); // a crow may be dropped on any point
//! let after = g.play(&start, moves[0]);
//! // One text form for positions, read back to the same position.
//! let text = g.format_position(&after);
//! assert_eq!(g.parse_position(&text).unwrap(), after);
//! assert_eq!(perft(&g, &start, 3), 720);
//! assert!(huntsolve::hunt::from_spec("kaooa,no_such_option=1").is_err());
//! ```
//!
//! ## Solve and query
//! ```
//! use huntsolve::NoProgress;
//! use huntsolve::retro::{solve, Scope, SolveOptions};
//! use huntsolve::table::{query_tables, TableOracle};
//! use huntsolve::{Game, Value};
//! let g = huntsolve::hunt::from_spec("kaooa").unwrap();
//! let dir = std::env::temp_dir().join(format!("huntsolve-doc-solve-{}", std::process::id()));
//! let report = solve(&g, &Scope::Whole, &dir, &SolveOptions::default(), &NoProgress).unwrap();
//! assert!(report.solved > 0);
//! let oracle = TableOracle::new(&g, &dir).unwrap();
//! let q = query_tables(&oracle, &g.start()).unwrap();
//! // The crows, to move, win in 15 plies; every legal move is listed with its value.
//! assert_eq!((q.value, q.distance), (Some(Value::Win), Some(15)));
//! assert_eq!(q.moves.len(), 10);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! ## Prove
//! ```
//! use huntsolve::game::NoOracle;
//! use huntsolve::NoProgress;
//! use huntsolve::prove::{check, extract, ProofTable, ProveConfig, Prover, RunOutcome};
//! use huntsolve::{Game, Value};
//! let g = huntsolve::hunt::from_spec("kaooa").unwrap();
//! let start = g.start();
//! let tt = ProofTable::new(16); // MiB
//! let config = ProveConfig { nodes: Some(5_000_000), ..Default::default() };
//! let prover = Prover::new(&g, &NoOracle, &tt, config);
//! let (value, _runs) = prover.value(&start, &NoProgress);
//! assert_eq!(value, Some(Value::Win));
//! // The proof as a certificate, re-checked by the independent checker (no tables here).
//! let side = g.side_to_move(&start);
//! let cert = extract(&prover, &start, side, RunOutcome::Proven, &|_: &_| Ok(None), 1 << 22).unwrap();
//! assert!(check(&g, &cert, &|_: &_| Ok(None)).unwrap().ok());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

// The library's public face: ten modules, one per family of the API, and the
// re-exports below. Every other module is private; what the faces use of it is
// re-exported here, and the compiler (`unreachable_pub`, dead code) finds the rest.
pub mod answer;
pub mod game;
pub mod hunt;
pub mod prove;
pub mod retro;
pub mod search;
pub mod serve;
pub mod stats;
pub mod table;
pub mod tafl;

mod board;
mod choice;
#[cfg(feature = "mpi")]
mod cluster;
mod durable;
mod error;
mod progress;
mod random;
mod regular;
mod tier;
mod toy;
mod variant;

pub use board::{Board, BUILTIN, MAX_BOARD_FILE};
#[cfg(feature = "mpi")]
pub use cluster::{
    solve_mpi, Cluster, ClusterOptions, Event as ClusterEvent, Observer as ClusterObserver,
};
pub use durable::write_atomic;
pub use error::{bounded, quote, read_regular, Error, Result, TableFault, QUOTE_CHARS};
pub use game::{Evaluate, FullGame, Game, Notation, Oracle, Value};
pub use progress::{
    check_seconds, clear_stop, max_threads, request_stop, stop_requested, NoProgress, Progress,
    MAX_SECONDS,
};
pub use random::{mix64, Rng};
pub use tier::{decode, encode, Outcomes, TierGame, RECORD_ENCODING, REC_NONE};
pub use toy::{TicTacToe, TttPos};
pub use variant::check::{
    check_rules, CheckLine, CheckOptions, CheckReport, CheckStatus, Fault, PerftLine, FAULTS,
};
pub use variant::{all_presets, AnyGame};
