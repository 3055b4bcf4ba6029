//! PLACEHOLDER until the tafl engine lands (issue 3). Replaced wholesale.
use crate::error::{Error, Result};

/// Placeholder type so the dispatch compiles.
pub type TaflGame = crate::toy::TicTacToe;

/// Presets: (name, one-line description).
pub const PRESETS: &[(&str, &str)] = &[];

/// Parses a rules string.
pub fn from_spec(spec: &str) -> Result<TaflGame> {
    Err(Error::Rules(format!(
        "'{spec}': the tafl engine is not built yet"
    )))
}
