//! huntsolve: rules engines, solvers and statistics for hunt games
//! (leopards and cows, Bagh-Chal, Kaooa) and tafl (Caikabōraḍa, Tablut, Brandubh).
//!
//! # Layers
//! Each layer uses only the layers above it in this list (a test,
//! `tests/it/layers.rs`, reads every `crate::` path and keeps it so):
//! 1. base: [`error`], [`progress`], [`random`] (random numbers and hashing), [`choice`]
//!    (option words described once);
//! 2. geometry: [`board`] (points, lines, jumps, symmetries);
//! 3. the rules interface: [`game`] (the [`Game`] traits, [`Value`], [`Oracle`]),
//!    then [`tier`] (the tier vocabulary: [`tier::TierGame`] and the record
//!    encoding, spoken by both the solver and the table format);
//! 4. rules: [`hunt`], [`tafl`], [`toy`] (a test game), then [`variant`]
//!    ([`AnyGame`], one value for any rules string);
//! 5. storage: [`table`] (file format, probing, verification, analysis);
//! 6. generation: [`retro`] (the retrograde solver), which writes through
//!    [`table`]'s public API; then `cluster` (feature `mpi`: the same tier graph
//!    solved by MPI processes across machines, over [`retro`]'s driver);
//! 7. search: [`search`] (alpha-beta), which sees tables only as an [`Oracle`],
//!    and [`prove`] (the df-pn prover and its certificates; it reads tables
//!    as leaves through [`table`]);
//! 8. combinations of tables and search: [`answer`] (query with fallback,
//!    `verify --search`);
//! 9. statistics: [`stats`] (tournaments, intervals, reports, sweeps);
//! 10. faces: [`serve`] (the browser explorer's server and JSON API; it serves,
//!     and like the command line it may use every layer above).
//!
//! The library never prints; the binary (`src/main.rs`, `src/cli/`) does.
//!
//! # The public API in four families
//! - **Rules**: [`hunt::from_spec`], [`tafl::from_spec`] and [`AnyGame::parse`] turn a
//!   rules string (a preset with `key=value` options, docs/rules.md) into a game; the
//!   [`Game`] and [`Notation`] traits play it (`start`, `legal_moves`, `play`,
//!   `outcome`, the text forms of positions and moves), [`game::perft`] counts its tree.
//! - **Solve**: [`retro::solve`] solves a [`retro::Scope`] of a game's tiers into a
//!   directory of self-describing tables, one per tier, with `summary.json`
//!   ([`retro::SolveOptions`]: threads, memory bound, checkpoints, the compact solver).
//! - **Query**: [`table::TableOracle`] reads those tables (value and distance of a
//!   position); [`table::query_tables`] answers a position with every move's value,
//!   [`table::verify_dir`] re-derives tables from their children.
//! - **Prove**: [`prove::Prover`] (df-pn with tables as leaves) decides a position, and
//!   [`prove::extract`] writes the proof as a certificate that
//!   [`prove::check::check`], which shares no code with the prover, re-checks.
//!
//! The statistics ([`stats`]) and the explorer's server ([`serve`]) are built on these.
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
//! use huntsolve::progress::NoProgress;
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
//! use huntsolve::progress::NoProgress;
//! use huntsolve::prove::{check::check, extract, ProofTable, ProveConfig, Prover, RunOutcome};
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

pub mod answer;
pub mod board;
pub mod choice;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod error;
pub mod game;
pub mod hunt;
pub mod progress;
pub mod prove;
pub mod random;
pub mod retro;
pub mod search;
pub mod serve;
pub mod stats;
pub mod table;
pub mod tafl;
pub mod tier;
pub mod toy;
pub mod variant;

pub use error::{Error, Result, TableFault};
pub use game::{Evaluate, FullGame, Game, Notation, Oracle, Value};
pub use variant::AnyGame;
