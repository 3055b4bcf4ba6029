//! huntsolve: rules engines, solvers and statistics for hunt games
//! (leopards and cows, Bagh-Chal, Kaooa) and tafl (Caikabōraḍa, Tablut, Brandubh).
//!
//! Layering: geometry ([`board`]) → rules ([`hunt`], [`tafl`], behind [`game::Game`])
//! → solvers ([`retro`], [`search`]) → storage ([`table`]) → statistics ([`stats`]).
//! The library never prints; the binary (`src/main.rs`, `src/cli/`) does.
#![forbid(unsafe_code)]

pub mod board;
pub mod error;
pub mod game;
pub mod hunt;
pub mod progress;
pub mod prove;
pub mod retro;
pub mod search;
pub mod stats;
pub mod table;
pub mod tafl;
pub mod toy;
pub mod variant;
pub mod zobrist;

pub use error::{Error, Result};
pub use game::{Game, Oracle, Value};
pub use variant::AnyGame;
