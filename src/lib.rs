//! huntsolve: rules engines, solvers and statistics for hunt games
//! (leopards and cows, Bagh-Chal, Kaooa) and tafl (Caikabōraḍa, Tablut, Brandubh).
//!
//! Layering: geometry → rules ([`hunt`], [`tafl`], behind [`game::Game`])
//! → solvers → storage → batch/statistics. The library never prints; the
//! binary (`src/main.rs`, `src/cli/`) does.
#![forbid(unsafe_code)]

pub mod error;
pub mod game;
pub mod hunt;
pub mod progress;
pub mod tafl;
pub mod toy;
pub mod variant;
pub mod zobrist;

pub use error::{Error, Result};
pub use game::{Game, Value};
pub use variant::AnyGame;
