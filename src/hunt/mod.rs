//! PLACEHOLDER until the hunt engine lands (issue 2). Replaced wholesale.
use crate::error::{Error, Result};

/// Placeholder type so the dispatch compiles.
pub type HuntGame = crate::toy::TicTacToe;

/// Presets: (name, one-line description).
pub const PRESETS: &[(&str, &str)] = &[];

/// Parses a rules string.
pub fn from_spec(spec: &str) -> Result<HuntGame> {
    Err(Error::Rules(format!(
        "'{spec}': the hunt engine is not built yet"
    )))
}
