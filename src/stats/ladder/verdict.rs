//! The verdict on a pair of variants: side 0's score and the captures compared at every strength, in plain sentences.

use super::report::possessive;
use super::{LadderCell, PairVerdict};
use crate::stats::material::CaptureComparison;
use crate::stats::math::Interval;

/// Side 0's score of `a` minus `b` with a 95 % interval (Newcombe's, from the
/// two cells' score intervals: it keeps a width where a cell is one-sided).
pub(super) fn difference(a: &LadderCell, b: &LadderCell) -> Interval {
    crate::stats::math::difference_interval(&a.score0, &b.score0)
}

/// ` (not told apart by these games at A and B)`, or nothing when `none` is empty.
fn no_difference_at(none: &[String]) -> String {
    if none.is_empty() {
        String::new()
    } else {
        format!(" (not told apart by these games at {})", list_owned(none))
    }
}

/// [`list`] of owned names.
fn list_owned(names: &[String]) -> String {
    list(&names.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The strengths at which the difference's interval holds 0, each with the
/// interval in points: what these games leave open there, so that "not told
/// apart" is never read as "alike".
fn untold(cells: &[LadderCell], diffs: &[Interval], signs: &[i32]) -> Vec<String> {
    cells
        .iter()
        .zip(diffs)
        .zip(signs)
        .filter(|(_, &g)| g == 0)
        .map(|((c, d), _)| {
            format!(
                "{} (the difference lies anywhere in [{:+.1}, {:+.1}] points)",
                c.engine,
                100.0 * d.lo,
                100.0 * d.hi
            )
        })
        .collect()
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
            no_difference_at(&none.iter().map(|e| e.to_string()).collect::<Vec<_>>())
        )
    } else if !up.is_empty() {
        format!(
            "the {side} {verb} more in {a} than in {b} at {}; not told apart by these games at {}",
            list(&up),
            list(&none)
        )
    } else if !down.is_empty() {
        format!(
            "the {side} {verb} more in {b} than in {a} at {}; not told apart by these games at {}",
            list(&down),
            list(&none)
        )
    } else {
        format!(
            "these games do not tell the {} captures apart at any strength tried",
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
    let results = results_sentence(a, b, &sides[0], ra, &diffs, &signs);
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
    let identical = ra.len() == rb.len() && ra.iter().zip(rb).all(|(x, y)| same_results(x, y));
    let mut sentence = if identical {
        format!(
            "{a} and {b} gave identical results (outcomes and captures) at every strength tried: these games do not tell them apart."
        )
    } else if all_drawn {
        let games: u64 = ra.iter().chain(rb).map(|c| c.games).sum();
        format!(
            "Every game of {a} and {b} was drawn at every strength tried ({games} games: the decisive share is below {:.1} % (95 %) for these engines), so the results cannot tell them apart; by captures, {captures_text}.",
            100.0 * crate::stats::math::none_seen_upper(games)
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
        captures_in_sentence: all_drawn && !identical,
        strongest: String::new(),
    }
}

/// What the score differences (`diffs` and their `signs`, one per strength
/// of `ra`) say: which variant gives the first side (`side0`) more, where,
/// and how wide a difference the games leave open where they do not tell.
fn results_sentence(
    a: &str,
    b: &str,
    side0: &str,
    ra: &[LadderCell],
    diffs: &[Interval],
    signs: &[i32],
) -> String {
    let (up, down, none) = (
        engines_with(ra, signs, 1),
        engines_with(ra, signs, -1),
        untold(ra, diffs, signs),
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
            "{a} gives the {side0} a higher score than {b} at {}; not told apart by these games at {}.",
            list(&up),
            list_owned(&none)
        )
    } else if !down.is_empty() {
        format!(
            "{b} gives the {side0} a higher score than {a} at {}; not told apart by these games at {}.",
            list(&down),
            list_owned(&none)
        )
    } else {
        format!(
            "These games do not tell {a} and {b} apart by the {} score at any strength tried: at {}. That is not evidence that the two play alike.",
            possessive(side0),
            list_owned(&none)
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
