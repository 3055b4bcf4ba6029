//! The comparison report's table of Ludii's measures and of the agreement
//! with exact values: one column list for Markdown and `ludii.csv`.
//!
//! `ludii.csv` has one row per reading and engine, keyed by `rules`, the
//! canonical rules string, which is also the first column of `huntsolve
//! measures --csv`: joining the two files on `rules` puts the engines'
//! measures beside the perfect-play ones (see docs/guide.md).

use crate::error::Result;
use crate::stats::files::{csv_table, markdown_table, Column};
use crate::stats::ludii_metrics::{EngineAgreement, LudiiMetrics, SOURCES};
use crate::stats::math::Interval;
use std::fmt::Write as _;

/// What a row says where no tables solved the reading.
pub(crate) const NOT_SOLVED: &str = "not solved: no agreement column";

/// One reading at one engine, as a ladder report keeps it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LudiiRow {
    /// Ludii's measures of the games.
    pub measures: LudiiMetrics,
    /// The games against the exact values.
    pub agreement: EngineAgreement,
    /// The reading's side names (side 0, side 1).
    pub side_names: [String; 2],
}

fn share(iv: &Interval) -> String {
    format!("{:.3} [{:.3}, {:.3}]", iv.estimate, iv.lo, iv.hi)
}

fn exact_words(a: &EngineAgreement, sides: &[String; 2]) -> String {
    match a.exact_score0 {
        None => NOT_SOLVED.to_string(),
        Some(s) if s > 0.5 => format!("{} win", sides[0]),
        Some(s) if s < 0.5 => format!("{} win", sides[1]),
        Some(_) => "draw".to_string(),
    }
}

fn agrees_word(a: &EngineAgreement) -> &'static str {
    match a.agrees {
        None => "not solved",
        Some(true) => "yes",
        Some(false) => "no",
    }
}

fn kept(a: &EngineAgreement, side: usize) -> String {
    if !a.solved {
        return "-".to_string();
    }
    format!(
        "{} of {}: {}",
        a.moves_kept[side],
        a.moves_checked[side],
        share(&a.kept_share[side])
    )
}

fn columns<'a>() -> Vec<Column<'a, LudiiRow>> {
    let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.6}"));
    vec![
        Column::one("variant", |r: &LudiiRow| r.measures.variant.clone())
            .shown("variant", |r: &LudiiRow| r.measures.variant.clone()),
        Column::one("rules", |r: &LudiiRow| r.agreement.rules.clone()),
        Column::one("engine", |r: &LudiiRow| r.measures.engine.clone())
            .shown("engine", |r: &LudiiRow| format!("`{}`", r.measures.engine)),
        Column::number("games", "games", |r: &LudiiRow| {
            r.measures.games.to_string()
        }),
        Column::interval("balance", |r: &LudiiRow| &r.measures.balance)
            .shown("balance", |r: &LudiiRow| share(&r.measures.balance)),
        Column::interval("drawishness", |r: &LudiiRow| &r.measures.drawishness)
            .shown("drawishness", |r: &LudiiRow| share(&r.measures.drawishness)),
        Column::interval("advantage_p1", |r: &LudiiRow| &r.measures.advantage_p1)
            .shown("advantage P1", |r: &LudiiRow| {
                share(&r.measures.advantage_p1)
            }),
        Column::interval("completion", |r: &LudiiRow| &r.measures.completion)
            .shown("completion", |r: &LudiiRow| share(&r.measures.completion)),
        Column::interval("timeouts", |r: &LudiiRow| &r.measures.timeouts)
            .shown("timeouts", |r: &LudiiRow| share(&r.measures.timeouts)),
        Column::many(&["duration_turns", "duration_turns_sd"], |r: &LudiiRow| {
            vec![
                format!("{:.6}", r.measures.duration_turns),
                format!("{:.6}", r.measures.duration_turns_sd),
            ]
        })
        .shown("turns (sd)", |r: &LudiiRow| {
            format!(
                "{:.1} ({:.1})",
                r.measures.duration_turns, r.measures.duration_turns_sd
            )
        })
        .right(),
        Column::one("branching_factor", move |r: &LudiiRow| {
            opt(r.measures.branching_factor)
        })
        .shown("branching factor", |r: &LudiiRow| {
            r.measures
                .branching_factor
                .map_or("not recorded".to_string(), |b| format!("{b:.2}"))
        })
        .right(),
        Column::many(
            &["decision_moves", "decision_moves_lo", "decision_moves_hi"],
            |r: &LudiiRow| match &r.measures.decision_moves {
                Some(d) => d.values(),
                None => vec![String::new(); 3],
            },
        )
        .shown("decision moves", |r: &LudiiRow| {
            r.measures
                .decision_moves
                .as_ref()
                .map_or("not recorded".to_string(), share)
        }),
        Column::many(&["solved", "exact_score0"], move |r: &LudiiRow| {
            vec![
                r.agreement.solved.to_string(),
                opt(r.agreement.exact_score0),
            ]
        })
        .shown("exact start value", |r: &LudiiRow| {
            exact_words(&r.agreement, &r.side_names)
        }),
        Column::one("conclusion", |r: &LudiiRow| {
            r.agreement.conclusion.to_string()
        })
        .shown("engines' conclusion", |r: &LudiiRow| {
            r.agreement.conclusion_words(&r.side_names)
        }),
        Column::one("agrees", |r: &LudiiRow| {
            agrees_word(&r.agreement).to_string()
        })
        .shown("agrees", |r: &LudiiRow| {
            agrees_word(&r.agreement).to_string()
        }),
        Column::many(
            &[
                "moves_checked_side0",
                "moves_kept_side0",
                "kept_share_side0",
                "kept_share_side0_lo",
                "kept_share_side0_hi",
                "moves_checked_side1",
                "moves_kept_side1",
                "kept_share_side1",
                "kept_share_side1_lo",
                "kept_share_side1_hi",
            ],
            |r: &LudiiRow| {
                let mut v = Vec::new();
                for side in 0..2 {
                    v.push(r.agreement.moves_checked[side].to_string());
                    v.push(r.agreement.moves_kept[side].to_string());
                    v.extend(r.agreement.kept_share[side].values());
                }
                v
            },
        )
        .shown("side 0 moves keeping the exact value", |r: &LudiiRow| {
            kept(&r.agreement, 0)
        }),
        Column::markdown("side 1 moves keeping the exact value", |r: &LudiiRow| {
            kept(&r.agreement, 1)
        }),
    ]
}

/// `ludii.csv`: one row per reading and engine.
pub(crate) fn csv(rows: &[LudiiRow]) -> Result<String> {
    csv_table(&columns(), rows)
}

/// The report section: the table of `rows` and what its columns follow
/// (no rows: a report written before they were kept).
pub(crate) fn section(rows: &[LudiiRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n## Measures under Ludii's definitions, and agreement with perfect play\n"
    );
    if rows.is_empty() {
        let _ = writeln!(
            s,
            "Not recorded: this report was written before these measures were kept.\n"
        );
        return s;
    }
    s.push_str(&markdown_table(&columns(), rows));
    let _ = writeln!(
        s,
        "\nThese columns follow the code of Ludii's evaluation metrics (repository \
         `Ludeme/Ludii`, the `apply` method of each class), with 95 % intervals \
         (Wilson for shares, the score interval for balance and advantage P1; \
         decision moves: the Wilson interval of the decision positions pooled \
         over the games, widened to hold the per-game mean). Sources:\n"
    );
    for (name, file, commit) in SOURCES {
        let _ = writeln!(s, "- {name}: `{file}` at commit `{commit}`");
    }
    let _ = writeln!(
        s,
        "\nHow they differ from Ludii's: a turn is one ply, and a capture chain \
         (several jumps by one piece) is one turn and one move; player 1 is the side \
         that moves first; the random opening plies count as moves; a game ended by \
         the solved tables (adjudicated) counts with its exact result and its length \
         at that point; a repetition ends a game as a draw (or a win where the rules \
         say so), not a timeout. Drawishness counts every game without a winner, \
         timeouts included, as Ludii's code does (its description says timeouts are \
         not included). Decisiveness is left out: Ludii measures it with its own \
         state evaluation (heuristics) and a threshold derived from them.\n"
    );
    let _ = writeln!(
        s,
        "Agreement: the exact start value comes from the solved tables given with \
         `--tables` (perfect play from the start position; the games begin with \
         random opening plies, which can change the value). The engines' conclusion \
         is read from side 0's score interval: a side is favoured when the interval \
         lies on its side of ½, else the reading is balanced or undecided; it agrees \
         when it has the sign of the exact value (a draw agrees with balanced). A \
         move keeps the exact value when it leaves its mover as well off as before; \
         only engine moves (after the opening plies) between positions the tables \
         cover are counted. Where the tables also referee, a game ends at the first \
         covered position, so few moves may be checked. A reading without tables \
         says \"{NOT_SOLVED}\".\n"
    );
    s
}
