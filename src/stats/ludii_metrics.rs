//! Engine-play measures under Ludii's own definitions, computed from the game
//! records a comparison keeps.
//!
//! Each measure follows the `apply` method of a class in Ludii's
//! `Evaluation/src/metrics/` (repository `Ludeme/Ludii`), as stored at the
//! commit named in [`SOURCES`]. Ludii turns a finished trial into one utility
//! per player through `RankUtils.agentUtilities` (`Core/src/other/RankUtils.java`,
//! commit `b03afb983251b5b9b28a1931da54be97a1e4c182`): 1 for the winner, −1 for
//! the loser, and 0 for both players of a drawn trial, including a trial
//! stopped at the move limit (players without a rank get the draw rank). Here a
//! game's utilities come from its record's winner: a win by repetition or by
//! the exact referee is a win, every other game is a draw for both.
//!
//! Where huntsolve differs from Ludii:
//! - a turn is one ply, and a capture chain (several jumps by one piece) is one
//!   ply and one move, where a Ludii description may count each jump as a move
//!   of the same turn;
//! - Ludii's player 1 is the side moving first; here it is the record's
//!   `first` side;
//! - the random opening plies are part of every game, as Ludii's trials include
//!   all their moves;
//! - a game the exact referee ends has the length at which it was ended.
//!
//! Decisiveness (`DecisivenessMoves`, `DecisivenessTurns`) is left out: it is
//! the share of a trial before the eventual winner's state evaluation
//! (`Utils.evaluateState`, Ludii's own heuristics and AI) first exceeds a
//! threshold that `DecisivenessThreshold` also derives from those evaluations,
//! so it cannot be computed without Ludii's evaluation function.

use crate::stats::math::{self, Interval, Z95};
use crate::stats::tournament::{EndReason, GameRecord};

/// The Ludii class behind each measure: (measure, file, commit).
pub const SOURCES: [(&str, &str, &str); 10] = [
    (
        "balance",
        "Evaluation/src/metrics/single/outcome/Balance.java",
        "4bfeb09307f59fdbd52273ef88c8dec61168f7ae",
    ),
    (
        "drawishness",
        "Evaluation/src/metrics/single/outcome/Drawishness.java",
        "f805dd48e967486e4774885727ba238443227af3",
    ),
    (
        "advantage_p1",
        "Evaluation/src/metrics/single/outcome/AdvantageP1.java",
        "69b87b2acbd1da112a3ef44b10254770ddccf7ef",
    ),
    (
        "completion",
        "Evaluation/src/metrics/single/outcome/Completion.java",
        "845cda6f331fb0558c846f7ac279375549487590",
    ),
    (
        "timeouts",
        "Evaluation/src/metrics/single/outcome/Timeouts.java",
        "845cda6f331fb0558c846f7ac279375549487590",
    ),
    (
        "duration_turns",
        "Evaluation/src/metrics/single/duration/DurationTurns.java",
        "f805dd48e967486e4774885727ba238443227af3",
    ),
    (
        "duration_turns_sd",
        "Evaluation/src/metrics/single/duration/DurationTurnsStdDev.java",
        "a9490da6e0cda4ce9304a80ef9bfc71010d078cb",
    ),
    (
        "branching_factor",
        "Evaluation/src/metrics/multiple/metrics/BranchingFactor.java",
        "845cda6f331fb0558c846f7ac279375549487590",
    ),
    (
        "branching_factor (its average over a trial, then over trials)",
        "Evaluation/src/metrics/multiple/MultiMetricFramework.java",
        "3589d6c33875ac0bc5960d037be9e39c860c6bd5",
    ),
    (
        "decision_moves",
        "Evaluation/src/metrics/single/complexity/DecisionMoves.java",
        "ac29f5ff24e97018bafe2e2859330d44e7b4e564",
    ),
];

/// Ludii's measures of one reading's games with one engine.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LudiiMetrics {
    /// Reading (variant) name as given on the command line.
    pub variant: String,
    /// Engine text.
    pub engine: String,
    /// Games measured.
    pub games: u64,
    /// `Balance`: 1 − |win rate of side 0 − win rate of side 1|, a win rate
    /// being the mean of (utility + 1) / 2. Ludii sums these halves into an
    /// `int` array, so a draw adds nothing to either side; with two players the
    /// draws' halves would cancel in the difference anyway. Interval: from side
    /// 0's score interval (`math::balance_from_score`).
    pub balance: Interval,
    /// `Drawishness`: share of games in which every player's utility is 0.
    /// Its description says "not including timeouts", but its code counts every
    /// game without a winner, and a timed-out trial has utility 0 for both
    /// players; this follows the code. Interval: Wilson.
    pub drawishness: Interval,
    /// `AdvantageP1`: mean of player 1's (utility + 1) / 2, player 1 being the
    /// side that moves first: a win 1, any draw ½ (timeouts included).
    /// Interval: score interval (`math::score_interval`).
    pub advantage_p1: Interval,
    /// `Completion`: share of games with a winner (`status().winner() != 0`).
    /// Interval: Wilson.
    pub completion: Interval,
    /// `Timeouts`: share of games ended by the move or turn limit
    /// (`EndType.MoveLimit`/`TurnLimit`); a repetition draw is not a timeout.
    /// Interval: Wilson.
    pub timeouts: Interval,
    /// `DurationTurns`: mean number of turns per game (plies here).
    pub duration_turns: f64,
    /// `DurationTurnsStdDev`: the population standard deviation (divided by
    /// the number of games, not one less) of the turns per game.
    pub duration_turns_sd: f64,
    /// `BranchingFactor` with `MultiMetricValue.Average`: per game, the mean
    /// number of legal moves over the positions before its moves (a game
    /// without moves counts 0), then the mean over games. `None` when some
    /// record lacks its legal-move counts.
    pub branching_factor: Option<f64>,
    /// `DecisionMoves`: per game, the share of its moves played where more than
    /// one move was legal, then the mean over games. Games without moves are
    /// left out (Ludii would divide 0 by 0). Interval: the Wilson interval of
    /// the decision positions pooled over all games, widened where needed to
    /// hold the per-game mean. `None` when some record lacks its legal-move
    /// counts.
    pub decision_moves: Option<Interval>,
    /// Games without a move (ended in the start position): left out of
    /// `decision_moves`.
    pub games_without_moves: u64,
}

/// Ludii's measures of `games`, the games of `variant` played by `engine`.
pub fn ludii_metrics(variant: &str, engine: &str, games: &[GameRecord]) -> LudiiMetrics {
    let n = games.len() as u64;
    let count = |f: &dyn Fn(&GameRecord) -> bool| games.iter().filter(|r| f(r)).count() as u64;
    let wins = [
        count(&|r| r.winner == Some(0)),
        count(&|r| r.winner == Some(1)),
    ];
    let draws = n - wins[0] - wins[1];
    let balance = math::balance_from_score(&math::score_interval(wins[0], draws, wins[1], Z95));
    let first_won = count(&|r| r.winner == Some(r.first));
    let first_lost = count(&|r| r.winner.is_some_and(|w| w != r.first));
    let advantage_p1 = math::score_interval(first_won, draws, first_lost, Z95);
    let timeouts = count(&|r| r.end == EndReason::MoveLimit);
    let turns: Vec<f64> = games.iter().map(|r| f64::from(r.plies)).collect();
    let (duration_turns, duration_turns_sd) = if turns.is_empty() {
        (0.0, 0.0)
    } else {
        let mean = math::mean(&turns);
        let var = turns.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / turns.len() as f64;
        (mean, var.sqrt())
    };
    let recorded = games
        .iter()
        .all(|r| r.legal_counts.len() == r.plies as usize);
    let games_without_moves = count(&|r| r.plies == 0);
    let (branching_factor, decision_moves) = if recorded && n > 0 {
        let branching = games
            .iter()
            .map(|r| {
                if r.legal_counts.is_empty() {
                    0.0
                } else {
                    r.legal_counts.iter().map(|&c| f64::from(c)).sum::<f64>()
                        / r.legal_counts.len() as f64
                }
            })
            .sum::<f64>()
            / n as f64;
        let with_moves: Vec<&GameRecord> = games.iter().filter(|r| r.plies > 0).collect();
        let decisions = |r: &GameRecord| r.legal_counts.iter().filter(|&&c| c > 1).count() as u64;
        let share = if with_moves.is_empty() {
            0.0
        } else {
            with_moves
                .iter()
                .map(|r| decisions(r) as f64 / r.legal_counts.len() as f64)
                .sum::<f64>()
                / with_moves.len() as f64
        };
        let pooled = math::wilson(
            with_moves.iter().map(|r| decisions(r)).sum(),
            with_moves.iter().map(|r| r.legal_counts.len() as u64).sum(),
            Z95,
        );
        let decision = Interval {
            estimate: share,
            lo: pooled.lo.min(share),
            hi: pooled.hi.max(share),
        };
        (Some(branching), Some(decision))
    } else {
        (None, None)
    };
    LudiiMetrics {
        variant: variant.to_string(),
        engine: engine.to_string(),
        games: n,
        balance,
        drawishness: math::wilson(draws, n, Z95),
        advantage_p1,
        completion: math::wilson(wins[0] + wins[1], n, Z95),
        timeouts: math::wilson(timeouts, n, Z95),
        duration_turns,
        duration_turns_sd,
        branching_factor,
        decision_moves,
        games_without_moves,
    }
}

/// What one engine's games say about a reading, against its exact value
/// from solved tables.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EngineAgreement {
    /// Reading (variant) name as given on the command line.
    pub variant: String,
    /// Canonical rules string (the key `huntsolve measures` rows share).
    pub rules: String,
    /// Engine text.
    pub engine: String,
    /// Whether tables gave the start position's exact value; without them
    /// there is no agreement to report.
    pub solved: bool,
    /// Side 0's exact score at the start under perfect play (1 a win, ½ a
    /// draw, 0 a loss), when solved.
    pub exact_score0: Option<f64>,
    /// The engines' conclusion from side 0's score interval over their games:
    /// +1 side 0 favoured (the interval above ½), −1 side 1 favoured (below
    /// ½), 0 balanced or undecided (the interval holds ½).
    pub conclusion: i32,
    /// Whether the conclusion has the exact start value's sign (`None`:
    /// not solved).
    pub agrees: Option<bool>,
    /// Per side: engine moves (after the random opening plies) from a
    /// position the tables cover to one they cover.
    pub moves_checked: [u64; 2],
    /// Of those, the moves that keep the position's exact value for the side
    /// that made them.
    pub moves_kept: [u64; 2],
    /// `moves_kept / moves_checked` per side (Wilson; `[0, 1]` without moves).
    pub kept_share: [Interval; 2],
}

impl EngineAgreement {
    /// The engines' conclusion in words, with side names.
    pub fn conclusion_words(&self, side_names: &[String; 2]) -> String {
        match self.conclusion {
            1 => format!("{} favoured", side_names[0]),
            -1 => format!("{} favoured", side_names[1]),
            _ => "balanced or undecided".to_string(),
        }
    }
}

/// The sign of a score against ½: +1, −1 or 0.
fn score_sign(lo: f64, hi: f64) -> i32 {
    if lo > 0.5 {
        1
    } else if hi < 0.5 {
        -1
    } else {
        0
    }
}

/// The agreement of `games` (played by `engine` on `game`) with the exact
/// values of `oracle` (`None`: not solved). Each game is replayed from its
/// moves; an unreadable move is an error.
pub fn engine_agreement<G: crate::game::FullGame>(
    variant: &str,
    engine: &str,
    game: &G,
    oracle: Option<&dyn crate::game::Oracle<G>>,
    games: &[GameRecord],
) -> crate::error::Result<EngineAgreement> {
    use crate::game::Value;
    let n = games.len() as u64;
    let wins0 = games.iter().filter(|r| r.winner == Some(0)).count() as u64;
    let wins1 = games.iter().filter(|r| r.winner == Some(1)).count() as u64;
    let score0 = math::score_interval(wins0, n - wins0 - wins1, wins1, Z95);
    let conclusion = score_sign(score0.lo, score0.hi);
    let start = game.start();
    let exact_score0 = oracle.and_then(|o| o.probe(game, &start)).map(|(v, _)| {
        let mover = match v {
            Value::Win => 1.0,
            Value::Draw => 0.5,
            Value::Loss => 0.0,
        };
        if game.side_to_move(&start) == 0 {
            mover
        } else {
            1.0 - mover
        }
    });
    let mut checked = [0u64; 2];
    let mut kept = [0u64; 2];
    if let Some(o) = oracle {
        for r in games {
            let mut pos = game.start();
            for (i, text) in r.moves.iter().enumerate() {
                let mv = game.parse_move(&pos, text)?;
                let next = game.play(&pos, mv);
                if i as u32 >= r.random_plies {
                    if let (Some((before, _)), Some((after, _))) =
                        (o.probe(game, &pos), o.probe(game, &next))
                    {
                        let side = game.side_to_move(&pos);
                        checked[side] += 1;
                        // The child's value is its mover's; flipped, the side that moved.
                        if after.flip() == before {
                            kept[side] += 1;
                        }
                    }
                }
                pos = next;
            }
        }
    }
    let agrees = exact_score0.map(|s| {
        let exact = if s > 0.5 {
            1
        } else if s < 0.5 {
            -1
        } else {
            0
        };
        exact == conclusion
    });
    Ok(EngineAgreement {
        variant: variant.to_string(),
        rules: game.rules_string(),
        engine: engine.to_string(),
        solved: exact_score0.is_some(),
        exact_score0,
        conclusion,
        agrees,
        moves_checked: checked,
        moves_kept: kept,
        kept_share: [
            math::wilson(kept[0], checked[0], Z95),
            math::wilson(kept[1], checked[1], Z95),
        ],
    })
}
