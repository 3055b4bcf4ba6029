//! Metrics of one variant's games, and tests between variants.
//!
//! Per variant: wins per side, draws by kind, game length, captures, and the
//! metrics Ludii's portal publishes, each with a 95 % interval:
//! - **balance** = 1 − |win rate of side 0 − win rate of side 1| (from side
//!   0's score interval, [`math::balance_from_score`]);
//! - **completion** = share of games with a winner (Wilson);
//! - **drawishness** = share of games drawn by the rules, by repetition or
//!   by the exact referee, not counting move-limit games (Wilson);
//! - **timeouts** = share of games stopped at the move limit (Wilson);
//! - **first-player advantage** = the first mover's score, a win counting 1
//!   and any draw ½ (score interval, [`math::score_interval`]);
//! - **duration** = mean length in plies (bootstrap).

use crate::error::Result;
use crate::stats::math::{self, Interval, TestResult, Z95};
use crate::stats::tournament::{EndReason, GameRecord};

/// Bootstrap resamples for every bootstrap interval.
pub(crate) const BOOTSTRAP_RESAMPLES: usize = 2000;

/// Metrics of one variant.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct VariantMetrics {
    /// Name as given on the command line.
    pub name: String,
    /// Canonical rules string.
    pub rules: String,
    /// Rules fingerprint.
    pub fingerprint: u64,
    /// Names of side 0 and side 1 in the game's own words (`Game::side_label`).
    pub side_names: [String; 2],
    /// Side that moves first.
    pub first: u8,
    /// Number of games.
    pub games: u64,
    /// Wins of side 0 and side 1.
    pub wins: [u64; 2],
    /// Draws by the rules (terminal draws).
    pub rule_draws: u64,
    /// Draws by threefold repetition.
    pub repetition_draws: u64,
    /// Games stopped at the move limit.
    pub move_limit: u64,
    /// Games ended by the exact referee (solved tables), of any outcome.
    #[serde(default)]
    pub adjudicated: u64,
    /// Of those, the drawn ones.
    #[serde(default)]
    pub adjudicated_draws: u64,
    /// Win rate of each side (Wilson).
    pub win_rate: [Interval; 2],
    /// Share of all draws of any kind (Wilson).
    pub draw_rate: Interval,
    /// Ludii balance (from side 0's score interval).
    pub balance: Interval,
    /// Ludii completion (Wilson).
    pub completion: Interval,
    /// Ludii drawishness (Wilson).
    pub drawishness: Interval,
    /// Ludii timeouts (Wilson).
    pub timeouts: Interval,
    /// First mover's score (score interval).
    pub first_player_advantage: Interval,
    /// Mean game length in plies (bootstrap) = Ludii duration.
    pub length_mean: Interval,
    /// Standard deviation of game length.
    pub length_sd: f64,
    /// Median, minimum and maximum game length.
    pub length_median: f64,
    /// Shortest game.
    pub length_min: u32,
    /// Longest game.
    pub length_max: u32,
    /// Mean pieces captured per game by each side (bootstrap).
    pub captures_mean: [Interval; 2],
    /// Games by pieces captured, per side: `capture_counts[side][k]` games in
    /// which `side` captured `k` pieces (see [`crate::stats::material`]).
    #[serde(default)]
    pub capture_counts: [Vec<u64>; 2],
    /// Whether each side can capture under the rules (the prey of a hunt
    /// game never do): a side that cannot has no captures column.
    #[serde(default = "crate::stats::material::both_capture")]
    pub can_capture: [bool; 2],
    /// Games that ended before any engine moved: within the random opening
    /// plies, or adjudicated by the exact referee right after them.
    #[serde(default)]
    pub no_engine_move: u64,
    /// Mean wall time per game in milliseconds.
    pub millis_mean: f64,
    /// Every game's length (for plots).
    pub lengths: Vec<u32>,
}

/// Computes a variant's metrics from its games. `seed` seeds the bootstraps.
pub fn variant_metrics(
    name: &str,
    side_names: [&str; 2],
    games: &[GameRecord],
    seed: u64,
) -> VariantMetrics {
    let n = games.len() as u64;
    let count = |f: &dyn Fn(&GameRecord) -> bool| games.iter().filter(|r| f(r)).count() as u64;
    let wins = [
        count(&|r| r.winner == Some(0)),
        count(&|r| r.winner == Some(1)),
    ];
    let rule_draws = count(&|r| r.winner.is_none() && r.end == EndReason::Terminal);
    let repetition_draws = count(&|r| r.end == EndReason::Repetition);
    let move_limit = count(&|r| r.end == EndReason::MoveLimit);
    let adjudicated = count(&|r| r.end == EndReason::Adjudicated);
    let adjudicated_draws = count(&|r| r.end == EndReason::Adjudicated && r.winner.is_none());
    let draws = n - wins[0] - wins[1];
    let balance = math::balance_from_score(&math::score_interval(wins[0], draws, wins[1], Z95));
    let first = games.first().map_or(0, |r| r.first);
    // The first mover's wins and losses (a game's first mover is its record's).
    let first_won = count(&|r| r.winner == Some(r.first));
    let first_lost = count(&|r| r.winner.is_some_and(|w| w != r.first));
    let lengths: Vec<u32> = games.iter().map(|r| r.plies).collect();
    let lengths_f: Vec<f64> = lengths.iter().map(|&x| x as f64).collect();
    let mut sorted = lengths_f.clone();
    sorted.sort_by(f64::total_cmp);
    let caps = |side: usize| -> Interval {
        let v: Vec<f64> = games.iter().map(|r| r.captures[side] as f64).collect();
        math::bootstrap(
            &v,
            math::mean,
            BOOTSTRAP_RESAMPLES,
            seed ^ (3 + side as u64),
        )
    };
    let millis: Vec<f64> = games.iter().map(|r| r.millis as f64).collect();
    VariantMetrics {
        name: name.to_string(),
        rules: games.first().map_or_else(String::new, |r| r.rules.clone()),
        fingerprint: games.first().map_or(0, |r| r.fingerprint),
        side_names: [side_names[0].to_string(), side_names[1].to_string()],
        first,
        games: n,
        wins,
        rule_draws,
        repetition_draws,
        move_limit,
        adjudicated,
        adjudicated_draws,
        win_rate: [math::wilson(wins[0], n, Z95), math::wilson(wins[1], n, Z95)],
        draw_rate: math::wilson(draws, n, Z95),
        balance,
        completion: math::wilson(wins[0] + wins[1], n, Z95),
        drawishness: math::wilson(rule_draws + repetition_draws + adjudicated_draws, n, Z95),
        timeouts: math::wilson(move_limit, n, Z95),
        first_player_advantage: math::score_interval(first_won, draws, first_lost, Z95),
        length_mean: math::bootstrap(&lengths_f, math::mean, BOOTSTRAP_RESAMPLES, seed ^ 2),
        length_sd: math::sample_sd(&lengths_f),
        length_median: math::quantile_sorted(&sorted, 0.5),
        length_min: lengths.iter().copied().min().unwrap_or(0),
        length_max: lengths.iter().copied().max().unwrap_or(0),
        captures_mean: [caps(0), caps(1)],
        capture_counts: [0, 1]
            .map(|side| crate::stats::material::histogram(games.iter().map(|r| r.captures[side]))),
        can_capture: crate::stats::material::both_capture(),
        no_engine_move: count(&|r| r.plies <= r.random_plies),
        millis_mean: math::mean(&millis),
        lengths,
    }
}

/// The sentence for a sample whose games all ended alike, with the exact 95 %
/// upper bound on the share of the outcomes never seen ([`math::none_seen_upper`]):
/// "all 20 games drawn: the decisive share is below 13.9 % (95 %)". `None`
/// when the games ended in more than one way, or there are none.
pub(crate) fn one_outcome_note(games: u64, wins: [u64; 2], sides: &[String; 2]) -> Option<String> {
    if games == 0 {
        return None;
    }
    let bound = 100.0 * math::none_seen_upper(games);
    if wins == [0, 0] {
        return Some(format!(
            "all {games} games drawn: the decisive share is below {bound:.1} % (95 %)"
        ));
    }
    (0..2).find(|&k| wins[k] == games).map(|k| {
        format!(
            "all {games} games won by the {}: the share of games they do not win is below {bound:.1} % (95 %)",
            sides[k]
        )
    })
}

/// Tests of one side's win rate between two variants.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct WinRateTest {
    /// Side index tested.
    pub side: usize,
    /// Side name (from the first variant).
    pub side_name: String,
    /// Fisher's exact test.
    pub fisher: TestResult,
    /// Two-proportion z-test.
    pub z: TestResult,
    /// Cohen's h (first variant minus second).
    pub cohens_h: f64,
    /// Plain sentence.
    pub sentence: String,
}

/// Comparison of two variants.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PairComparison {
    /// First variant's name.
    pub a: String,
    /// Second variant's name.
    pub b: String,
    /// Win-rate tests for side 0 and side 1.
    pub win_rates: Vec<WinRateTest>,
    /// Chi-square on the 2×3 outcome table (side 0 wins, side 1 wins, draws);
    /// `None` when the table has fewer than two non-empty columns.
    pub outcomes: Option<TestResult>,
    /// Cramér's V of the outcome table.
    pub cramers_v: f64,
    /// Plain sentence on the outcome table.
    pub sentence: String,
}

/// Outcome table row of a variant: side 0 wins, side 1 wins, draws.
pub(crate) fn outcome_row(m: &VariantMetrics) -> Vec<u64> {
    vec![m.wins[0], m.wins[1], m.games - m.wins[0] - m.wins[1]]
}

fn nonempty_dims(table: &[Vec<u64>]) -> (usize, usize) {
    let rows = table.iter().filter(|r| r.iter().any(|&x| x > 0)).count();
    let cols = (0..table.first().map_or(0, |r| r.len()))
        .filter(|&j| table.iter().any(|r| r[j] > 0))
        .count();
    (rows, cols)
}

/// Compares two variants: Fisher and z-tests of each side's win rate, and a
/// chi-square test of the whole outcome table.
pub(crate) fn compare_pair(a: &VariantMetrics, b: &VariantMetrics) -> Result<PairComparison> {
    let mut win_rates = Vec::new();
    for side in 0..2 {
        let (xa, xb) = (a.wins[side], b.wins[side]);
        let fisher = math::fisher_exact([[xa, a.games - xa], [xb, b.games - xb]]);
        let z = math::two_proportion_z(xa, a.games, xb, b.games)?;
        let (pa, pb) = (a.win_rate[side].estimate, b.win_rate[side].estimate);
        let h = math::cohens_h(pa, pb);
        let what = format!("{} win rate", a.side_names[side]);
        let sentence = math::interpret_proportions(&what, &a.name, pa, &b.name, pb, &fisher, h);
        win_rates.push(WinRateTest {
            side,
            side_name: a.side_names[side].clone(),
            fisher,
            z,
            cohens_h: h,
            sentence,
        });
    }
    let table = vec![outcome_row(a), outcome_row(b)];
    let (outcomes, cramers_v, sentence) = match math::chi_square_independence(&table) {
        Ok(t) => {
            let (r, c) = nonempty_dims(&table);
            let v = math::cramers_v(t.statistic, a.games + b.games, r, c);
            let s = math::interpret_table(
                &format!("outcome distributions of {} and {}", a.name, b.name),
                &t,
                v,
            );
            (Some(t), v, s)
        }
        Err(_) => (
            None,
            0.0,
            format!(
                "{} and {} have the same single outcome in every game; there is nothing to test.",
                a.name, b.name
            ),
        ),
    };
    Ok(PairComparison {
        a: a.name.clone(),
        b: b.name.clone(),
        win_rates,
        outcomes,
        cramers_v,
        sentence,
    })
}

/// Chi-square test of all variants' outcome tables at once (`None` with fewer
/// than two variants or fewer than two non-empty outcome columns), with
/// Cramér's V and a sentence.
pub(crate) fn compare_all(ms: &[VariantMetrics]) -> Option<(TestResult, f64, String)> {
    if ms.len() < 2 {
        return None;
    }
    let table: Vec<Vec<u64>> = ms.iter().map(outcome_row).collect();
    let t = math::chi_square_independence(&table).ok()?;
    let (r, c) = nonempty_dims(&table);
    let n = ms.iter().map(|m| m.games).sum();
    let v = math::cramers_v(t.statistic, n, r, c);
    let s = math::interpret_table("outcome distributions of all variants", &t, v);
    Some((t, v, s))
}
