//! How the value moves across a family of readings: the perfect-play measures
//! of readings that differ in a few options (fewer prey, another capture
//! threshold), one row each in the order given, with a column per option in
//! which they differ and the places where the winner changes from one row to
//! the next. Given the readings of a game with 1, 2, ... prey in that order it
//! is the fewer-pieces map (the n-cows map of the seed games).
//!
//! The options are read from each reading's canonical rules string
//! (`preset,key=value,...`; an option not named there is the preset's own,
//! shown as "preset").

use crate::stats::files::{markdown_table, Column};
use crate::stats::measures::{pct, verdict, PerfectMeasures};

/// `preset,key=value,...` as (preset, [(key, value)]); a part without `=` is
/// a key with an empty value.
fn options(rules: &str) -> (&str, Vec<(&str, &str)>) {
    let mut parts = rules.split(',');
    let preset = parts.next().unwrap_or("");
    let opts = parts
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    (preset, opts)
}

/// The value `key` has in `rules`, or "preset" when the rules leave it at the
/// preset's own.
fn option_value(rules: &str, key: &str) -> String {
    options(rules)
        .1
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("preset".to_string(), |(_, v)| v.to_string())
}

/// The options whose values are not the same in every row, in the order they
/// first appear.
fn varying_keys(rows: &[PerfectMeasures]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for m in rows {
        for (k, _) in options(&m.rules).1 {
            if !keys.iter().any(|x| x == k) {
                keys.push(k.to_string());
            }
        }
    }
    keys.retain(|k| {
        let first = option_value(&rows[0].rules, k);
        rows.iter().any(|m| option_value(&m.rules, k) != first)
    });
    keys
}

/// The readings as a map (see the module docs), in Markdown: the table, then
/// where the winner changes between neighbouring rows, or that it never does.
pub fn measures_map(rows: &[PerfectMeasures]) -> String {
    if rows.is_empty() {
        return "No readings.\n".to_string();
    }
    let keys = varying_keys(rows);
    let presets_differ = rows
        .iter()
        .any(|m| options(&m.rules).0 != options(&rows[0].rules).0);
    let mut columns: Vec<Column<'_, PerfectMeasures>> =
        vec![Column::markdown("reading", |m: &PerfectMeasures| {
            format!("`{}`", m.rules)
        })];
    if presets_differ {
        columns.push(Column::markdown("preset", |m: &PerfectMeasures| {
            options(&m.rules).0.to_string()
        }));
    }
    for k in &keys {
        columns.push(Column::markdown(
            format!("`{k}`"),
            move |m: &PerfectMeasures| option_value(&m.rules, k),
        ));
    }
    columns.extend([
        Column::markdown("value from the start", verdict),
        Column::markdown("won / lost / drawn %", |m: &PerfectMeasures| {
            format!("{} / {} / {}", pct(m.won), pct(m.lost), pct(m.drawn))
        }),
        Column::markdown("first moves keeping it", |m: &PerfectMeasures| {
            format!("{} of {}", m.first_keep, m.first_moves)
        }),
    ]);
    let mut s = markdown_table(&columns, rows);
    let changes: Vec<String> = rows
        .windows(2)
        .filter(|w| w[0].winner != w[1].winner)
        .map(|w| {
            format!(
                "- from `{}` to `{}`: {} → {}\n",
                w[0].rules,
                w[1].rules,
                verdict(&w[0]),
                verdict(&w[1])
            )
        })
        .collect();
    if changes.is_empty() {
        let winner = match &rows[0].winner {
            Some(w) => format!("the {w} win"),
            None => "a draw".to_string(),
        };
        s.push_str(&format!(
            "\nThe winner is the same in every row: {winner} under perfect play.\n"
        ));
    } else {
        s.push_str("\nWhere the winner changes from one row to the next:\n\n");
        for c in changes {
            s.push_str(&c);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::measures::LineEnd;

    fn row(rules: &str, winner: Option<&str>, length: Option<u32>) -> PerfectMeasures {
        PerfectMeasures {
            rules: rules.to_string(),
            tables: String::new(),
            start: String::new(),
            side_to_move: "people".to_string(),
            value: if winner.is_some() { "win" } else { "draw" }.to_string(),
            winner: winner.map(str::to_string),
            length,
            positions: 10,
            won: 0.5,
            lost: 0.25,
            drawn: 0.25,
            first_moves: 6,
            first_keep: 2,
            line_plies: 0,
            line_end: LineEnd::GameOver,
            line_keep: None,
            only_moves: 0,
            winner_only_moves: None,
            forced: 0,
            line: Vec::new(),
        }
    }

    /// The options that differ become columns (the preset's own shown as
    /// such), and each change of winner between neighbours is listed, not a
    /// change of length alone.
    #[test]
    fn a_map_lists_the_differing_options_and_where_the_winner_changes() {
        let rows = [
            row("pulijudamu", None, None),
            row("pulijudamu,prey=6,hunter_win=6", None, None),
            row("pulijudamu,prey=7,hunter_win=7", Some("goats"), Some(37)),
            row("pulijudamu,prey=8,hunter_win=8", Some("goats"), Some(27)),
        ];
        let md = measures_map(&rows);
        assert!(
            md.contains("| reading | `prey` | `hunter_win` | value"),
            "{md}"
        );
        assert!(
            md.contains("| `pulijudamu` | preset | preset | draw |"),
            "{md}"
        );
        assert!(md.contains("| 7 | 7 | goats win in 37 |"), "{md}");
        assert!(
            md.contains(
                "- from `pulijudamu,prey=6,hunter_win=6` to `pulijudamu,prey=7,hunter_win=7`: \
                 draw → goats win in 37\n"
            ),
            "{md}"
        );
        assert_eq!(md.matches("- from").count(), 1, "{md}");
    }

    /// Readings of one winner say so; an option every row sets alike is no
    /// column; readings of several presets get a preset column.
    #[test]
    fn a_map_without_a_change_says_the_winner_is_the_same() {
        let rows = [
            row("mysore-tiger,chain=continue,hunter_win=1", None, None),
            row("mysore-tiger,chain=continue,hunter_win=2", None, None),
        ];
        let md = measures_map(&rows);
        assert!(md.contains("same in every row: a draw"), "{md}");
        assert!(
            md.contains("`hunter_win`") && !md.contains("`chain`"),
            "{md}"
        );
        assert!(!md.contains("| preset |"), "{md}");
        let two = [
            row("kaooa-6", None, None),
            row("kaooa", Some("crows"), Some(15)),
        ];
        let md = measures_map(&two);
        assert!(md.contains("| reading | preset | value"), "{md}");
        assert!(md.contains(": draw → crows win in 15\n"), "{md}");
        assert_eq!(measures_map(&[]), "No readings.\n");
    }
}
