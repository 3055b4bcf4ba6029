//! The sides in the games' own words, for the page: the JSON's machine fields
//! (`side`, `sides`: the rules engine's `hunter`/`prey` or
//! `attackers`/`defenders`, which the command line also accepts) stay as they
//! are, and `side_label`/`side_labels` carry these names beside them.

/// Names of (side 0, side 1) by the hunt preset a canonical rules string
/// starts with (docs/rules.md: the hunter is the leopard, tiger or vulture).
/// `kungser` prints as `cows-leopards-mogol`, so it needs no entry.
const HUNT_WORDS: &[(&str, [&str; 2])] = &[
    ("diviyan-keliya", ["leopards", "cows"]),
    ("diviyan-keliya-ludii", ["leopards", "cows"]),
    ("diviyan-keliya-ludii-multi", ["leopards", "cows"]),
    ("cows-leopards-peralikatuma", ["leopards", "cows"]),
    ("cows-leopards-mogol", ["leopards", "cows"]),
    ("cows-leopards-mogol43", ["leopards", "cows"]),
    ("bagh-chal", ["tigers", "goats"]),
    ("bagh-chal-ludii", ["tigers", "goats"]),
    ("kaooa", ["vulture", "crows"]),
    ("kaooa-6", ["vulture", "crows"]),
];

/// The display names of the two sides of a game of `family` whose canonical
/// rules string is `rules`; `names` (the rules engine's) where the game has no
/// words of its own (tafl: attackers and defenders are the seed's words).
pub(super) fn side_labels(
    family: &str,
    rules: &str,
    names: [&'static str; 2],
) -> [&'static str; 2] {
    let preset = rules.split(',').next().unwrap_or("");
    match family {
        "hunt" => HUNT_WORDS
            .iter()
            .find(|(p, _)| *p == preset)
            .map_or(names, |&(_, words)| words),
        _ => names,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn every_hunt_preset_has_its_words() {
        for &(preset, _) in crate::hunt::PRESETS {
            let canonical = crate::hunt::from_spec(preset).unwrap().rules_string();
            let words = side_labels("hunt", &canonical, ["hunter", "prey"]);
            assert_ne!(words, ["hunter", "prey"], "{preset} ({canonical})");
        }
    }

    #[test]
    fn options_keep_the_preset_s_words_and_tafl_keeps_its_own() {
        assert_eq!(
            side_labels("hunt", "kaooa,capture_compulsory=true", ["hunter", "prey"]),
            ["vulture", "crows"]
        );
        assert_eq!(
            side_labels("tafl", "caikaboroda", ["attackers", "defenders"]),
            ["attackers", "defenders"]
        );
    }
}
