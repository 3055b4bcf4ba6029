//! Measures of a rule reading under perfect play, read from its solved tables:
//! what a historian comparing reconstructions asks of a game that is solved.
//!
//! For one table directory (a reading solved from its start) [`perfect_measures`]
//! gives:
//! - the **value and distance** of the start for its side to move, and who wins;
//! - the **shares** of the tables' positions (symmetry classes) won, lost and
//!   drawn for the side to move;
//! - how **forgiving the opening** is: of the start's legal moves, how many
//!   keep its value (a move keeps the value when the position after it is
//!   worth, to the player who moved, what the position before was: any
//!   winning move from a won position, a drawing one from a drawn one, every
//!   move from a lost one);
//! - the **principal line**: from the start, each ply the best move (the
//!   quickest win, else a draw, else the slowest loss; ties in the move
//!   generator's order), until the game ends, a position repeats (a draw under
//!   best play goes round), or the line reaches its limit; along it, the mean
//!   share of the moves that keep the value, and how **narrow** it is: the
//!   plies where exactly one of several moves keeps the value (for a decided
//!   game, the winner's such plies separately);
//! - the **length of the game under best play**: the distance, for a decided
//!   start; none for a draw.
//!
//! The values come from the tables through [`query_tables`] (every legal
//! move's exact result), so these measures are as exact as the tables, which
//! `huntsolve verify` re-derives. Reports: [`measures_markdown`],
//! [`measures_csv`]; the structures serialise to JSON.

use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::Progress;
use crate::retro::TierGame;
use crate::stats::files::{csv_table, markdown_table, Column};
use crate::table::{analyze_dir_with, query_tables, AnalyzeOptions, TableOracle};
use serde::Serialize;
use std::collections::HashSet;
use std::path::Path;

/// One ply of the principal line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LinePly {
    /// Ply number from the start (0: the start's move).
    pub ply: usize,
    /// The side to move, in the game's words.
    pub side: String,
    /// The position before the move.
    pub position: String,
    /// Its value for the side to move.
    pub value: String,
    /// Legal moves.
    pub moves: usize,
    /// Moves that keep the value.
    pub keep: usize,
    /// The move played (the best).
    #[serde(rename = "move")]
    pub mv: String,
}

/// How the principal line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LineEnd {
    /// The game is over.
    GameOver,
    /// A position of the line came back (a draw under best play goes round).
    Repeats,
    /// The line reached its limit of plies.
    Limit,
}

impl LineEnd {
    fn words(self) -> &'static str {
        match self {
            LineEnd::GameOver => "the game ends",
            LineEnd::Repeats => "a position repeats",
            LineEnd::Limit => "the line's limit",
        }
    }
}

/// The measures of one reading (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PerfectMeasures {
    /// Canonical rules string of the tables.
    pub rules: String,
    /// The table directory.
    pub tables: String,
    /// The start position.
    pub start: String,
    /// The side to move at the start.
    pub side_to_move: String,
    /// The start's value for its side to move.
    pub value: String,
    /// The side that wins under best play (`None`: a draw).
    pub winner: Option<String>,
    /// Plies to the end under best play (`None`: a draw, no end).
    pub length: Option<u32>,
    /// Positions (symmetry classes) of the tables.
    pub positions: u64,
    /// Shares of them won, lost and drawn for the side to move.
    pub won: f64,
    /// See [`PerfectMeasures::won`].
    pub lost: f64,
    /// See [`PerfectMeasures::won`].
    pub drawn: f64,
    /// The start's legal moves.
    pub first_moves: usize,
    /// Of them, those that keep the start's value.
    pub first_keep: usize,
    /// Plies of the principal line.
    pub line_plies: usize,
    /// How the line ended.
    pub line_end: LineEnd,
    /// Mean, over the line's plies, of the share of moves that keep the value.
    pub line_keep: Option<f64>,
    /// Plies of the line where exactly one of two or more moves keeps the value.
    pub only_moves: usize,
    /// Of those, the plies of the side that wins (`None`: a draw).
    pub winner_only_moves: Option<usize>,
    /// Plies of the line with a single legal move.
    pub forced: usize,
    /// The line, ply by ply.
    pub line: Vec<LinePly>,
}

/// The measures of the reading solved in `dir` (tables of `game`, the whole
/// game from its start), the principal line at most `limit` plies. An error
/// when the tables do not give the start's value or a move's value along the
/// line (measures need every position the line reaches).
pub fn perfect_measures<G: TierGame>(
    game: &G,
    dir: &Path,
    limit: usize,
    progress: &dyn Progress,
) -> Result<PerfectMeasures> {
    let census = analyze_dir_with(
        game,
        dir,
        &AnalyzeOptions {
            top: 0,
            by_side: false,
        },
        progress,
    )?;
    let oracle = TableOracle::new(game, dir)?;
    let start = game.start();
    let not_covered = |what: &str, pos: &G::Pos| {
        Error::input(
            dir,
            format!(
                "the tables do not give the value of {what} {}: perfect-play measures need the \
                 game solved from its start (solve the preset whole)",
                game.format_position(pos)
            ),
        )
    };
    let first = query_tables(&oracle, &start)?;
    let (Some(value), distance) = (first.value, first.distance) else {
        return Err(not_covered("the start", &start));
    };
    let side0 = game.side_to_move(&start);
    let winner_side = match value {
        Value::Win => Some(side0),
        Value::Loss => Some(1 - side0),
        Value::Draw => None,
    };
    let mut line = Vec::new();
    let mut seen = HashSet::new();
    let mut pos = start.clone();
    let line_end = loop {
        if line.len() >= limit {
            break LineEnd::Limit;
        }
        if !seen.insert(pos.clone()) {
            break LineEnd::Repeats;
        }
        let res = query_tables(&oracle, &pos)?;
        if res.moves.is_empty() {
            break LineEnd::GameOver;
        }
        let v = res
            .value
            .ok_or_else(|| not_covered("the line's position", &pos))?;
        if res.moves.iter().any(|m| m.value.is_none()) {
            return Err(not_covered("a move's result from", &pos));
        }
        let keep = res.moves.iter().filter(|m| m.value == Some(v)).count();
        let best = &res.moves[0];
        line.push(LinePly {
            ply: line.len(),
            side: game.side_label(game.side_to_move(&pos)).to_string(),
            position: res.position.clone(),
            value: v.name().to_string(),
            moves: res.moves.len(),
            keep,
            mv: best.mv.clone(),
        });
        let mut legal = Vec::new();
        game.legal_moves(&pos, &mut legal);
        let m = legal
            .iter()
            .copied()
            .find(|&m| game.format_move(&pos, m) == best.mv)
            .ok_or_else(|| {
                Error::Internal(format!(
                    "move {} of {} is not among its legal moves",
                    best.mv, res.position
                ))
            })?;
        pos = game.play(&pos, m);
    };
    let line_keep = (!line.is_empty()).then(|| {
        line.iter()
            .map(|p| p.keep as f64 / p.moves as f64)
            .sum::<f64>()
            / line.len() as f64
    });
    let only = |p: &&LinePly| p.keep == 1 && p.moves > 1;
    let winner_name = winner_side.map(|s| game.side_label(s).to_string());
    let share = |n: u64| {
        if census.positions == 0 {
            0.0
        } else {
            n as f64 / census.positions as f64
        }
    };
    Ok(PerfectMeasures {
        rules: game.rules_string(),
        tables: dir.display().to_string(),
        start: first.position.clone(),
        side_to_move: game.side_label(side0).to_string(),
        value: value.name().to_string(),
        winner: winner_name.clone(),
        length: distance.filter(|_| value != Value::Draw),
        positions: census.positions,
        won: share(census.wins),
        lost: share(census.losses),
        drawn: share(census.draws),
        first_moves: first.moves.len(),
        first_keep: first
            .moves
            .iter()
            .filter(|m| m.value == Some(value))
            .count(),
        line_plies: line.len(),
        line_end,
        line_keep,
        only_moves: line.iter().filter(only).count(),
        winner_only_moves: winner_name
            .as_ref()
            .map(|w| line.iter().filter(only).filter(|p| &p.side == w).count()),
        forced: line.iter().filter(|p| p.moves == 1).count(),
        line,
    })
}

pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The start's value in words: "the goats win in 21", "draw".
pub(crate) fn verdict(m: &PerfectMeasures) -> String {
    match (&m.winner, m.length) {
        (Some(w), Some(d)) => format!("{w} win in {d}"),
        (Some(w), None) => format!("{w} win"),
        (None, _) => "draw".to_string(),
    }
}

fn columns<'a>() -> Vec<Column<'a, PerfectMeasures>> {
    let opt = |x: Option<usize>| x.map_or("-".to_string(), |v| v.to_string());
    vec![
        Column::one("rules", |m: &PerfectMeasures| m.rules.clone())
            .shown("reading", |m: &PerfectMeasures| format!("`{}`", m.rules)),
        Column::one("side_to_move", |m: &PerfectMeasures| m.side_to_move.clone())
            .shown("first to move", |m: &PerfectMeasures| {
                m.side_to_move.clone()
            }),
        Column::one("value", |m: &PerfectMeasures| m.value.clone())
            .shown("value from the start", verdict),
        Column::one("winner", |m: &PerfectMeasures| {
            m.winner.clone().unwrap_or_default()
        }),
        Column::number("length", "plies under best play", |m: &PerfectMeasures| {
            m.length.map_or("-".to_string(), |d| d.to_string())
        }),
        Column::number("positions", "positions", |m: &PerfectMeasures| {
            m.positions.to_string()
        }),
        Column::many(&["won", "lost", "drawn"], |m: &PerfectMeasures| {
            vec![
                format!("{:.6}", m.won),
                format!("{:.6}", m.lost),
                format!("{:.6}", m.drawn),
            ]
        })
        .shown("won / lost / drawn %", |m: &PerfectMeasures| {
            format!("{} / {} / {}", pct(m.won), pct(m.lost), pct(m.drawn))
        }),
        Column::many(&["first_moves", "first_keep"], |m: &PerfectMeasures| {
            vec![m.first_moves.to_string(), m.first_keep.to_string()]
        })
        .shown("first moves keeping it", |m: &PerfectMeasures| {
            format!("{} of {}", m.first_keep, m.first_moves)
        })
        .right(),
        Column::many(&["line_plies", "line_end"], |m: &PerfectMeasures| {
            vec![m.line_plies.to_string(), format!("{:?}", m.line_end)]
        })
        .shown("principal line", |m: &PerfectMeasures| {
            format!("{} plies, then {}", m.line_plies, m.line_end.words())
        }),
        Column::one("line_keep", |m: &PerfectMeasures| {
            m.line_keep.map_or(String::new(), |x| format!("{x:.6}"))
        })
        .shown("moves keeping it on the line %", |m: &PerfectMeasures| {
            m.line_keep.map_or("-".to_string(), pct)
        })
        .right(),
        Column::many(
            &["only_moves", "winner_only_moves", "forced"],
            move |m: &PerfectMeasures| {
                vec![
                    m.only_moves.to_string(),
                    opt(m.winner_only_moves),
                    m.forced.to_string(),
                ]
            },
        )
        .shown("only moves (winner's)", move |m: &PerfectMeasures| {
            format!("{} ({})", m.only_moves, opt(m.winner_only_moves))
        })
        .right(),
    ]
}

/// The readings side by side as a Markdown table, with what each column means.
pub fn measures_markdown(rows: &[PerfectMeasures]) -> String {
    let mut s = markdown_table(&columns(), rows);
    s.push_str(
        "\nValues are for the side first to move, under perfect play, read from the solved \
         tables. A move keeps the value when it leaves the player who made it as well off as \
         before (a winning move from a won position, a drawing one from a drawn one, any \
         move from a lost one). The principal line plays the best move each ply (the quickest \
         win, else a draw, else the slowest loss). An only move is a ply of that line where \
         exactly one of two or more moves keeps the value: the fewer there are, the more \
         forgiving the game.\n",
    );
    s
}

/// The readings as CSV (one row each; the line itself is in the JSON only).
pub fn measures_csv(rows: &[PerfectMeasures]) -> Result<String> {
    csv_table(&columns(), rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;
    use crate::retro::{solve, Scope, SolveOptions};

    fn solved(spec: &str, tag: &str) -> (crate::hunt::HuntGame, std::path::PathBuf) {
        let g = crate::hunt::from_spec(spec).unwrap();
        let dir =
            std::env::temp_dir().join(format!("huntsolve-measures-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        solve(
            &g,
            &Scope::Whole,
            &dir,
            &SolveOptions::default(),
            &NoProgress,
        )
        .unwrap();
        (g, dir)
    }

    /// Kaooa: the crows, first, win in 15 (results/proofs.md); kaooa-6 is a
    /// draw. The line of a win is as long as its distance and ends the game;
    /// a drawn line goes round; every ply's counts are the query's.
    #[test]
    fn kaooa_s_measures_follow_its_values() {
        let (g, dir) = solved("kaooa", "kaooa");
        let m = perfect_measures(&g, &dir, 400, &NoProgress).unwrap();
        assert_eq!(m.value, "win");
        assert_eq!(m.winner.as_deref(), Some(m.side_to_move.as_str()));
        assert_eq!(m.length, Some(15));
        assert_eq!(m.line_end, LineEnd::GameOver);
        assert_eq!(m.line_plies, 15);
        assert!(m.first_keep >= 1 && m.first_keep <= m.first_moves);
        assert!((m.won + m.lost + m.drawn - 1.0).abs() < 1e-9);
        // Along a won line the loser's every move keeps the value (all lose).
        for p in &m.line {
            assert!(p.keep >= 1 && p.keep <= p.moves, "{p:?}");
            if p.value == "loss" {
                assert_eq!(p.keep, p.moves, "{p:?}");
            }
        }
        assert!(m.winner_only_moves.unwrap() <= m.only_moves);
        let (g6, dir6) = solved("kaooa-6", "kaooa6");
        let d = perfect_measures(&g6, &dir6, 400, &NoProgress).unwrap();
        assert_eq!(
            (d.value.as_str(), d.winner.clone(), d.length),
            ("draw", None, None)
        );
        assert_eq!(d.line_end, LineEnd::Repeats);
        assert!(d.line.iter().all(|p| p.value == "draw"));
        let both = [m, d];
        let md = measures_markdown(&both);
        assert!(md.contains("win in 15") && md.contains("| draw |"), "{md}");
        let csv = measures_csv(&both).unwrap();
        assert_eq!(csv.lines().count(), 3, "{csv}");
        let limited = perfect_measures(&g, &dir, 3, &NoProgress).unwrap();
        assert_eq!((limited.line_plies, limited.line_end), (3, LineEnd::Limit));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&dir6);
    }

    /// Tables of part of a game do not give the start: a clear error.
    #[test]
    fn tables_without_the_start_are_refused() {
        let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
        let dir =
            std::env::temp_dir().join(format!("huntsolve-measures-part-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        solve(
            &g,
            &Scope::MaxPrey(2),
            &dir,
            &SolveOptions::default(),
            &NoProgress,
        )
        .unwrap();
        let e = perfect_measures(&g, &dir, 10, &NoProgress).unwrap_err();
        assert!(e.to_string().contains("solved from its start"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
