//! What a report's engines are worth: the calibration of the strength ladder
//! against exact values (results/calibration.md: ladders on small variants
//! solved whole, every rung's verdicts on pairs of variants checked against
//! the exact comparison), compiled in as data, and the paragraph every
//! comparison and ladder report prints from it about its own engines.
//!
//! A unit test checks the figures against results/calibration.json, so the
//! data cannot drift from the page it quotes.

use std::fmt::Write as _;

/// One rung of the calibration, pooled over its families.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CalibratedRung {
    /// Engine text, as the ladder names it.
    pub(crate) engine: &'static str,
    /// Pairs of variants whose verdict was checked.
    pub(crate) pairs: u64,
    /// Verdicts with the exact difference's sign.
    pub(crate) agree: u64,
    /// Verdicts of the opposite sign.
    pub(crate) wrong: u64,
    /// "Not told apart" where the exact values differ.
    pub(crate) missed: u64,
    /// A difference claimed where the exact values are equal.
    pub(crate) false_difference: u64,
    /// Mean |self-play score − exact score| over the variants.
    pub(crate) mean_abs_error: f64,
}

/// Variants in the calibration, and games a variant at each rung.
const CALIBRATION_VARIANTS: u64 = 12;
const CALIBRATION_GAMES: u64 = 100;

/// The pooled rows of results/calibration.md ("Agreement by rung").
pub(crate) const CALIBRATED: &[CalibratedRung] = &[
    CalibratedRung {
        engine: "random",
        pairs: 18,
        agree: 9,
        wrong: 2,
        missed: 4,
        false_difference: 3,
        mean_abs_error: 0.453,
    },
    CalibratedRung {
        engine: "depth=1",
        pairs: 18,
        agree: 10,
        wrong: 0,
        missed: 4,
        false_difference: 4,
        mean_abs_error: 0.045,
    },
    CalibratedRung {
        engine: "depth=2",
        pairs: 18,
        agree: 13,
        wrong: 0,
        missed: 5,
        false_difference: 0,
        mean_abs_error: 0.048,
    },
    CalibratedRung {
        engine: "depth=4",
        pairs: 18,
        agree: 13,
        wrong: 0,
        missed: 5,
        false_difference: 0,
        mean_abs_error: 0.061,
    },
    CalibratedRung {
        engine: "mcts=300:cutoff=20",
        pairs: 18,
        agree: 8,
        wrong: 3,
        missed: 4,
        false_difference: 3,
        mean_abs_error: 0.216,
    },
    CalibratedRung {
        engine: "perfect",
        pairs: 18,
        agree: 13,
        wrong: 0,
        missed: 5,
        false_difference: 0,
        mean_abs_error: 0.013,
    },
];

/// The calibration row of `engine`, if it was calibrated.
pub(crate) fn calibrated(engine: &str) -> Option<&'static CalibratedRung> {
    CALIBRATED.iter().find(|r| r.engine == engine)
}

/// The report section on the engines' strength: for each engine what the
/// calibration measured of it (or that it was not calibrated), then what that
/// means for the report's conclusion. `drawn_everywhere` names the engines at
/// which every game of every variant was drawn.
pub(crate) fn strength_section(engines: &[String], drawn_everywhere: &[String]) -> String {
    let mut s = String::from("\n## What these engines' strength means\n\n");
    let _ = writeln!(
        s,
        "Self-play measures the rules as these engines play them, not the value under best play. How far a rung's verdict on a pair of variants can be trusted was measured in results/calibration.md: ladders of {CALIBRATION_GAMES} games a variant on {CALIBRATION_VARIANTS} small variants solved whole, each verdict checked against the exact comparison.\n"
    );
    for e in engines {
        match calibrated(e) {
            Some(r) => {
                let _ = writeln!(
                    s,
                    "- `{e}`: its verdicts agreed with the exact comparison in {} of {} pairs ({} in the wrong direction, {} differences missed, {} claimed where none is); its scores were {:.3} from the exact ones on average.",
                    r.agree, r.pairs, r.wrong, r.missed, r.false_difference, r.mean_abs_error
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "- `{e}`: not in the calibration; nothing measured says how often its verdicts agree with exact values."
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "\nEven the best calibrated rungs agreed in at most {} of {} pairs there, on variants far smaller than most studied here: a verdict from these engines is evidence about the rules as weak players meet them, and a difference they do not find may still be there.",
        CALIBRATED.iter().map(|r| r.agree).max().unwrap_or(0),
        CALIBRATED.first().map_or(0, |r| r.pairs)
    );
    if !drawn_everywhere.is_empty() {
        let _ = writeln!(
            s,
            "At {} every game was drawn: those engines did not find a way to win, which does not show that either side cannot win; the value under best play is what `huntsolve prove` and results/ establish.",
            drawn_everywhere
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures are those of results/calibration.json's pooled rows.
    #[test]
    fn calibration_figures_match_the_committed_report() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/calibration.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let pooled = &json["pooled"];
        let engines = json["engines"].as_array().unwrap();
        assert_eq!(engines.len(), CALIBRATED.len());
        for r in CALIBRATED {
            let p = &pooled[r.engine];
            assert_eq!(p["pairs"].as_u64(), Some(r.pairs), "{}", r.engine);
            assert_eq!(p["agree"].as_u64(), Some(r.agree), "{}", r.engine);
            assert_eq!(p["wrong"].as_u64(), Some(r.wrong), "{}", r.engine);
            assert_eq!(p["missed"].as_u64(), Some(r.missed), "{}", r.engine);
            assert_eq!(
                p["false_difference"].as_u64(),
                Some(r.false_difference),
                "{}",
                r.engine
            );
            let err = p["mean_abs_error"].as_f64().unwrap();
            assert!((err - r.mean_abs_error).abs() < 5e-4, "{}: {err}", r.engine);
            assert_eq!(
                p["err_n"].as_u64(),
                Some(CALIBRATION_VARIANTS),
                "{}",
                r.engine
            );
        }
        assert_eq!(
            json["families"][0]["games"].as_u64(),
            Some(CALIBRATION_GAMES)
        );
    }

    /// The section names every engine, says which were calibrated, and warns
    /// where every game was drawn.
    #[test]
    fn the_section_speaks_of_each_engine() {
        let s = strength_section(&["random".into(), "depth=3".into()], &["depth=3".into()]);
        assert!(
            s.contains("`random`: its verdicts agreed with the exact comparison in 9 of 18"),
            "{s}"
        );
        assert!(s.contains("`depth=3`: not in the calibration"), "{s}");
        assert!(s.contains("At `depth=3` every game was drawn"), "{s}");
        assert!(s.contains("results/calibration.md"), "{s}");
    }
}
