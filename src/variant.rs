//! One rules value for any family: parses `preset[,key=value...]` and dispatches
//! to the family that owns the preset.

use crate::error::{Error, Result};
use crate::{hunt, tafl};

/// A game of either family.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Leopards and cows, Bagh-Chal, Kaooa.
    Hunt(hunt::HuntGame),
    /// Caikabōraḍa, Tablut, Brandubh.
    Tafl(tafl::TaflGame),
}

/// Every preset of both families: (family, name, description).
pub fn all_presets() -> Vec<(&'static str, &'static str, &'static str)> {
    let mut v: Vec<_> = hunt::PRESETS.iter().map(|&(n, d)| ("hunt", n, d)).collect();
    v.extend(tafl::PRESETS.iter().map(|&(n, d)| ("tafl", n, d)));
    v
}

impl AnyGame {
    /// Parses a rules string; the preset name decides the family.
    pub fn parse(spec: &str) -> Result<AnyGame> {
        let name = spec.split(',').next().unwrap_or("").trim();
        if hunt::PRESETS.iter().any(|&(n, _)| n == name) {
            return hunt::from_spec(spec).map(AnyGame::Hunt);
        }
        if tafl::PRESETS.iter().any(|&(n, _)| n == name) {
            return tafl::from_spec(spec).map(AnyGame::Tafl);
        }
        let names: Vec<&str> = all_presets().iter().map(|p| p.1).collect();
        Err(Error::Rules(format!(
            "unknown preset '{name}'; accepted: {}",
            names.join(", ")
        )))
    }
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
///
/// ```ignore
/// with_game!(&any, g => run_perft(g, depth))
/// ```
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::variant::AnyGame::Hunt($g) => $body,
            $crate::variant::AnyGame::Tafl($g) => $body,
        }
    };
}
