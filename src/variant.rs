//! One rules value for any family: parses `preset[,key=value...]` and dispatches
//! to the family that owns the preset.

pub(crate) mod check;

use crate::error::{quote, Error, Result};
use crate::{hunt, tafl};

/// A game of either family.
/// Not `#[non_exhaustive]`: a closed dispatch over the families, matched
/// whole by [`with_game!`](crate::with_game); a new family is added here and in that macro.
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
        AnyGame::parse_with(spec, hunt::from_spec)
    }

    /// [`AnyGame::parse`] for rules from an untrusted source (the explorer's
    /// requests): a `board=` option must name a built-in board, so no file is
    /// read. Board files are for the command line.
    pub fn parse_builtin(spec: &str) -> Result<AnyGame> {
        AnyGame::parse_with(spec, hunt::from_spec_builtin)
    }

    /// The preset name decides the family; a hunt game is read by `hunt_from`.
    /// Tafl boards are sizes (`9x9`, `7x7`), never files.
    fn parse_with(spec: &str, hunt_from: fn(&str) -> Result<hunt::HuntGame>) -> Result<AnyGame> {
        let name = spec.split(',').next().unwrap_or("").trim();
        if hunt::PRESETS.iter().any(|&(n, _)| n == name) {
            return hunt_from(spec).map(AnyGame::Hunt);
        }
        if tafl::PRESETS.iter().any(|&(n, _)| n == name) {
            return tafl::from_spec(spec).map(AnyGame::Tafl);
        }
        Err(unknown_preset(name))
    }
}

/// The presets nearest to a mistyped `name` (by edit distance, case ignored), at most
/// a third of its length away (at least 2): a typo's likely intent, named first.
fn nearest_presets(name: &str) -> Vec<&'static str> {
    let lower = name.to_lowercase();
    let reach = (lower.chars().count() / 3).max(2);
    let scored: Vec<(usize, &'static str)> = all_presets()
        .iter()
        .map(|p| (strsim::levenshtein(&lower, p.1), p.1))
        .filter(|&(d, _)| d <= reach)
        .collect();
    let best = scored.iter().map(|s| s.0).min();
    scored
        .into_iter()
        .filter(|s| Some(s.0) == best)
        .map(|s| s.1)
        .collect()
}

fn unknown_preset(name: &str) -> Error {
    let names: Vec<&str> = all_presets().iter().map(|p| p.1).collect();
    let near = nearest_presets(name);
    let guess = if near.is_empty() {
        String::new()
    } else {
        let near: Vec<String> = near.iter().map(|n| quote(n)).collect();
        format!(" (did you mean {}?)", near.join(" or "))
    };
    Error::Rules(format!(
        "unknown preset {}{guess}; accepted: {}",
        quote(name),
        names.join(", ")
    ))
}

/// Runs `$body` with `$g` bound to the concrete game inside an [`AnyGame`].
///
/// ```
/// use huntsolve::{game::perft, with_game, AnyGame, Game};
///
/// // Leaf counts (Kaooa at depth 2: 10 drops, then 9; Brandubh at depth 1: 40
/// // moves), through one generic call whatever the family.
/// for (rules, depth, leaves) in [("kaooa", 2, 90), ("brandubh", 1, 40)] {
///     let any = AnyGame::parse(rules)?;
///     assert_eq!(with_game!(&any, g => perft(g, &g.start(), depth)), leaves);
/// }
/// # Ok::<(), huntsolve::Error>(())
/// ```
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::AnyGame::Hunt($g) => $body,
            $crate::AnyGame::Tafl($g) => $body,
        }
    };
}

#[cfg(test)]
mod tests_tafl;

#[cfg(test)]
mod tests_presets {
    use super::*;

    /// A preset typo names the nearest preset first, then the whole list; a name
    /// far from every preset gets the list alone.
    #[test]
    fn a_preset_typo_suggests_the_nearest_preset() {
        let e = AnyGame::parse("kaoao,prey=6").unwrap_err().to_string();
        assert!(
            e.contains("unknown preset 'kaoao' (did you mean 'kaooa'?); accepted: "),
            "{e}"
        );
        let e = AnyGame::parse("Brandub").unwrap_err().to_string();
        assert!(e.contains("(did you mean 'brandubh'?)"), "{e}");
        let e = AnyGame::parse("zzzzzzzzzzzz").unwrap_err().to_string();
        assert!(
            !e.contains("did you mean") && e.contains("accepted: "),
            "{e}"
        );
    }
}
