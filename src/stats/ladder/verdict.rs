//! The verdict on a pair of variants: side 0's score and the captures compared at every strength, in plain sentences.

use super::report::possessive;
use super::{LadderCell, PairVerdict};
use crate::stats::material::CaptureComparison;
use crate::stats::math::{Interval, Z95};

/// Side 0's score of `a` minus `b` with a 95 % normal interval.
pub(super) fn difference(a: &LadderCell, b: &LadderCell) -> Interval {
    let var = |c: &LadderCell| {
        if c.games == 0 {
            return 0.0;
        }
        let n = c.games as f64;
        let m = c.score0.estimate;
        let second = (c.wins[0] as f64 + 0.25 * c.draws as f64) / n;
        (second - m * m).max(0.0) / n
    };
    let d = a.score0.estimate - b.score0.estimate;
    let half = Z95 * (var(a) + var(b)).sqrt();
    Interval {
        estimate: d,
        lo: d - half,
        hi: d + half,
    }
}

/// ` (no clear difference at A and B)`, or nothing when `none` is empty.
fn no_difference_at(none: &[&str]) -> String {
    if none.is_empty() {
        String::new()
    } else {
        format!(" (no clear difference at {})", list(none))
    }
}

pub(super) fn list(names: &[&str]) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        _ => format!(
            "{} and {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Signs of intervals: +1 above 0, −1 below, 0 when it holds 0.
pub(super) fn interval_sign(d: &Interval) -> i32 {
    if d.lo > 0.0 {
        1
    } else if d.hi < 0.0 {
        -1
    } else {
        0
    }
}

/// The strengths (by name) at which `signs` equals `s`.
fn engines_with<'a>(cells: &'a [LadderCell], signs: &[i32], s: i32) -> Vec<&'a str> {
    cells
        .iter()
        .zip(signs)
        .filter(|(_, &g)| g == s)
        .map(|(c, _)| c.engine.as_str())
        .collect()
}

/// The sentence on one side's captures in `a` against `b` across strengths.
fn captures_direction(a: &str, b: &str, side: &str, cells: &[LadderCell], signs: &[i32]) -> String {
    // "the hunter captures", "the attackers capture".
    let verb = if side.ends_with('s') {
        "capture"
    } else {
        "captures"
    };
    let (up, down, none) = (
        engines_with(cells, signs, 1),
        engines_with(cells, signs, -1),
        engines_with(cells, signs, 0),
    );
    let n = signs.len();
    if up.len() == n {
        format!(
            "the {side} {verb} more in {a} than in {b} at every strength tried ({})",
            list(&up)
        )
    } else if down.len() == n {
        format!(
            "the {side} {verb} more in {b} than in {a} at every strength tried ({})",
            list(&down)
        )
    } else if !up.is_empty() && !down.is_empty() {
        format!(
            "the difference in the {} captures reverses: more in {a} at {}, in {b} at {}{}",
            possessive(side),
            list(&up),
            list(&down),
            no_difference_at(&none)
        )
    } else if !up.is_empty() {
        format!(
            "the {side} {verb} more in {a} than in {b} at {}; no clear difference at {}",
            list(&up),
            list(&none)
        )
    } else if !down.is_empty() {
        format!(
            "the {side} {verb} more in {b} than in {a} at {}; no clear difference at {}",
            list(&down),
            list(&none)
        )
    } else {
        format!(
            "no clear difference in the {} captures at any strength tried",
            possessive(side)
        )
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether two cells hold the same results: outcomes and captures.
fn same_results(x: &LadderCell, y: &LadderCell) -> bool {
    let trim = |v: &[u64]| {
        let end = v.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        v[..end].to_vec()
    };
    x.games == y.games
        && x.wins == y.wins
        && x.draws == y.draws
        && (0..2).all(|s| trim(&x.capture_counts[s]) == trim(&y.capture_counts[s]))
}

/// The verdict on two variants (`ra`, `rb`: their cells across strengths;
/// `sides`: the side names). The results decide it where they can; where
/// every game of both variants is drawn, the captures speak instead. The
/// sentence says so when the two variants gave identical results, when no
/// engine moved (every game decided by the tables after the opening), and
/// at the strengths where the tables ended most of the games.
pub fn pair_verdict(
    a: &str,
    b: &str,
    ra: &[LadderCell],
    rb: &[LadderCell],
    sides: &[String; 2],
) -> PairVerdict {
    let diffs: Vec<Interval> = ra.iter().zip(rb).map(|(x, y)| difference(x, y)).collect();
    let signs: Vec<i32> = diffs.iter().map(interval_sign).collect();
    let results = results_sentence(a, b, &sides[0], ra, &signs);
    let captures: Vec<Vec<CaptureComparison>> = ra
        .iter()
        .zip(rb)
        .map(|(x, y)| {
            (0..2)
                .map(|s| CaptureComparison::new(s, &x.capture_counts[s], &y.capture_counts[s]))
                .collect()
        })
        .collect();
    let captures_text = captures_text(a, b, sides, ra, rb, &captures);
    let captures_sentence = format!("{}.", upper_first(&captures_text));
    let all_drawn = ra.iter().chain(rb).all(|c| c.wins == [0, 0]);
    let mut sentence = if ra.len() == rb.len() && ra.iter().zip(rb).all(|(x, y)| same_results(x, y))
    {
        format!(
            "{a} and {b} gave identical results (outcomes and captures) at every strength tried: these games do not tell them apart."
        )
    } else if all_drawn {
        format!(
            "Every game of {a} and {b} was drawn at every strength tried, so the results cannot tell them apart; by captures, {captures_text}."
        )
    } else {
        results
    };
    sentence.push_str(&tables_notes(a, b, ra, rb));
    PairVerdict {
        a: a.to_string(),
        b: b.to_string(),
        differences: diffs,
        captures,
        sentence,
        captures_sentence,
        strongest: String::new(),
    }
}

/// What the score differences (`signs`, one per strength of `ra`) say: which
/// variant gives the first side (`side0`) more, where.
fn results_sentence(a: &str, b: &str, side0: &str, ra: &[LadderCell], signs: &[i32]) -> String {
    let (up, down, none) = (
        engines_with(ra, signs, 1),
        engines_with(ra, signs, -1),
        engines_with(ra, signs, 0),
    );
    let n = signs.len();
    if up.len() == n {
        format!(
            "{a} gives the {side0} a higher score than {b} at every strength tried ({}).",
            list(&up)
        )
    } else if down.len() == n {
        format!(
            "{b} gives the {side0} a higher score than {a} at every strength tried ({}).",
            list(&down)
        )
    } else if !up.is_empty() && !down.is_empty() {
        format!(
            "The difference reverses: {a} gives the {side0} more at {}, {b} at {}{}.",
            list(&up),
            list(&down),
            no_difference_at(&none)
        )
    } else if !up.is_empty() {
        format!(
            "{a} gives the {side0} a higher score than {b} at {}; no clear difference at {}.",
            list(&up),
            list(&none)
        )
    } else if !down.is_empty() {
        format!(
            "{b} gives the {side0} a higher score than {a} at {}; no clear difference at {}.",
            list(&down),
            list(&none)
        )
    } else {
        format!(
            "No clear difference between {a} and {b} in the {} score at any strength tried.",
            possessive(side0)
        )
    }
}

/// What the captures say, side by side (only the sides that captured in some
/// game), from `captures` (per strength, per side); not capitalised.
fn captures_text(
    a: &str,
    b: &str,
    sides: &[String; 2],
    ra: &[LadderCell],
    rb: &[LadderCell],
    captures: &[Vec<CaptureComparison>],
) -> String {
    let captured = |s: usize| {
        ra.iter()
            .chain(rb)
            .any(|c| c.capture_counts[s].iter().skip(1).any(|&k| k > 0))
    };
    let parts: Vec<String> = (0..2)
        .filter(|&s| captured(s))
        .map(|s| {
            let signs: Vec<i32> = captures.iter().map(|c| c[s].sign()).collect();
            captures_direction(a, b, &sides[s], ra, &signs)
        })
        .collect();
    if parts.is_empty() {
        format!("no piece was captured in any game of {a} or {b}")
    } else {
        parts.join("; ")
    }
}

/// The notes on the strengths where the exact tables decided every game
/// before any engine moved, or ended most of them (empty when none did).
fn tables_notes(a: &str, b: &str, ra: &[LadderCell], rb: &[LadderCell]) -> String {
    let mut notes = String::new();
    let unplayed: Vec<&str> = ra
        .iter()
        .zip(rb)
        .filter(|(x, y)| x.unplayed() && y.unplayed())
        .map(|(x, _)| x.engine.as_str())
        .collect();
    if !unplayed.is_empty() {
        notes.push_str(&format!(
            " (At {} every game was decided by the exact tables before any engine moved: that strength says nothing about play.)",
            list(&unplayed)
        ));
    }
    let mostly = |c: &LadderCell| c.games > 0 && c.adjudicated * 2 > c.games;
    let adjudicated: Vec<&str> = ra
        .iter()
        .zip(rb)
        .filter(|(x, y)| !(x.unplayed() && y.unplayed()) && (mostly(x) || mostly(y)))
        .map(|(x, _)| x.engine.as_str())
        .collect();
    if !adjudicated.is_empty() {
        notes.push_str(&format!(
            " (At {} most games of {a} or {b} were ended by the exact tables: the results there are mostly the tables' values of the positions the engines reached, not the outcome of their play.)",
            list(&adjudicated)
        ));
    }
    notes
}
