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
