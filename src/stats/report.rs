//! Comparison runs and their reports: Markdown, CSV, JSON and SVG plots in one
//! output directory.
//!
//! Files written by [`write_compare`] under the output directory:
//! - `report.md`: settings, the command to reproduce, per-variant metrics with
//!   intervals, tests between variants with plain sentences, plots;
//! - `metrics.csv` (one row per variant), `ludii.csv` (Ludii's measures and
//!   the agreement with exact values, one row per variant: see
//!   `crate::stats::ludii_report`), `comparisons.csv` (one row per pair and
//!   side), `report.json` (everything, machine-readable);
//! - `win_rates.svg`, `lengths.svg`;
//! - `games-<name>.jsonl`: the games themselves (see [`crate::stats::tournament`]).

use crate::error::{Error, Result};
use crate::game::{FullGame, Game};
use crate::progress::Progress;
use crate::stats::agent::SharedOracle;
use crate::stats::engine::make_agent_with;
use crate::stats::files::{csv_table, markdown_table, Column, ReportDir};
use crate::stats::ludii_metrics::{self, EngineAgreement, LudiiMetrics};
use crate::stats::math::{format_p, Interval, TestResult};
use crate::stats::metrics::{self, PairComparison, VariantMetrics};
use crate::stats::played::Played;
use crate::stats::plot;
use crate::stats::tournament::{run_tournament_with, TournamentConfig};
use crate::variant::AnyGame;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A finished comparison.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CompareReport {
    /// Report title.
    pub title: String,
    /// The command that reproduces the report.
    pub command: String,
    /// The build that made the report (git commit and profile), set by the
    /// caller; empty when unknown.
    #[serde(default)]
    pub build: String,
    /// Engine text.
    pub engine: String,
    /// Whether the engine is deterministic (games reproducible from the seed).
    pub deterministic: bool,
    /// Games per variant.
    pub games: u64,
    /// Base seed.
    pub seed: u64,
    /// Random opening plies.
    pub random_plies: u32,
    /// How opening plies were chosen.
    pub opening: String,
    /// Move limit per variant (same order as `variants`).
    pub max_plies: Vec<u32>,
    /// Threads used (0: one per core).
    pub threads: usize,
    /// Wall time of this run in seconds (games already in the files were not replayed).
    pub wall_seconds: f64,
    /// Sum of the wall times of all games, in seconds (the work, wherever it ran).
    pub game_seconds: f64,
    /// Games played in this run (the rest were read from the games files).
    pub played_now: u64,
    /// When and how long the games took to play (default: a report written
    /// before it was kept).
    #[serde(default)]
    pub played: Played,
    /// Metrics per variant.
    pub variants: Vec<VariantMetrics>,
    /// Every pair of variants.
    pub pairs: Vec<PairComparison>,
    /// Chi-square over all variants' outcome tables, with Cramér's V and a sentence.
    pub overall: Option<(TestResult, f64, String)>,
    /// Ludii's measures per variant (same order as `variants`; empty in a
    /// report written before they were kept).
    #[serde(default)]
    pub ludii: Vec<LudiiMetrics>,
    /// Per variant, the engines' conclusion against the exact values of
    /// solved tables (same order as `variants`).
    #[serde(default)]
    pub agreement: Vec<EngineAgreement>,
}

/// File-name-safe form of a variant name.
pub fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '=' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One variant's finished tournament, ready for [`assemble`].
#[derive(Clone, Debug)]
pub struct VariantRun {
    /// Metrics of the variant's games.
    pub metrics: VariantMetrics,
    /// Move limit applied.
    pub max_plies: u32,
    /// Games played in this call (the rest came from the games file).
    pub played_now: u64,
    /// Sum of the games' wall times in milliseconds.
    pub game_millis: u64,
    /// When and how long the games took to play.
    pub played: Played,
    /// Ludii's measures of the games.
    pub ludii: LudiiMetrics,
    /// The games against the exact values (not solved without tables).
    pub agreement: EngineAgreement,
}

/// Plays (or resumes) the tournament of one variant named `name` into
/// `out_dir/games-<name>.jsonl` and computes its metrics.
pub fn run_variant<G: FullGame>(
    name: &str,
    game: &G,
    cfg: &TournamentConfig,
    out_dir: &Path,
    label: &str,
    progress: &dyn Progress,
) -> Result<VariantRun> {
    run_variant_with(name, game, cfg, None, out_dir, label, progress)
}

/// [`run_variant`] with exact values (solved tables): they referee the games
/// when `cfg.referee` is set, and MCTS engines use them as proven leaves.
pub(crate) fn run_variant_with<G: FullGame>(
    name: &str,
    game: &G,
    cfg: &TournamentConfig,
    oracle: Option<SharedOracle<G>>,
    out_dir: &Path,
    label: &str,
    progress: &dyn Progress,
) -> Result<VariantRun> {
    let file = out_dir.join(format!("games-{}.jsonl", safe_name(name)));
    let before = count_lines(&file).min(cfg.games);
    // MCTS takes the tables as proven leaves only where they also referee;
    // the perfect engine plays from them, and a `:tables` search takes them
    // as leaves, in any case (both were asked for by name).
    let oracle_of = |e: &crate::stats::engine::EngineSpec| {
        use crate::stats::engine::EngineSpec;
        if cfg.referee.is_some() || matches!(e, EngineSpec::Perfect | EngineSpec::WithTables(_)) {
            oracle.clone()
        } else {
            None
        }
    };
    let exact = oracle.clone();
    let a0 = make_agent_with(cfg.engine_of(0), cfg.softmax, oracle_of(cfg.engine_of(0)))?;
    let a1 = make_agent_with(cfg.engine_of(1), cfg.softmax, oracle_of(cfg.engine_of(1)))?;
    let referee: Option<&dyn crate::game::Oracle<G>> = match (&cfg.referee, &oracle) {
        (Some(_), Some(o)) => Some(o.as_ref()),
        _ => None,
    };
    let recs = run_tournament_with(
        game,
        [a0.as_ref(), a1.as_ref()],
        referee,
        cfg,
        &file,
        label,
        progress,
    )?;
    let mut metrics = metrics::variant_metrics(
        name,
        [game.side_label(0), game.side_label(1)],
        &recs,
        cfg.seed,
    );
    metrics.can_capture = crate::stats::material::can_capture(game);
    let played_now = metrics.games.saturating_sub(before);
    let engine = cfg.engine_text();
    let ludii = ludii_metrics::ludii_metrics(name, &engine, &recs);
    let exact: Option<&dyn crate::game::Oracle<G>> = match &exact {
        Some(o) => Some(o.as_ref()),
        None => None,
    };
    let agreement = ludii_metrics::engine_agreement(name, &engine, game, exact, &recs)?;
    Ok(VariantRun {
        ludii,
        agreement,
        played: Played::of(&recs, played_now),
        played_now,
        game_millis: recs.iter().map(|r| r.millis).sum(),
        max_plies: cfg.max_plies_for(game),
        metrics,
    })
}

/// Builds the report from finished variant runs: pairwise tests and, with
/// more than two variants, one chi-square over all of them.
pub fn assemble(
    title: String,
    command: &str,
    cfg: &TournamentConfig,
    runs: Vec<VariantRun>,
    wall_seconds: f64,
) -> Result<CompareReport> {
    let max_plies = runs.iter().map(|r| r.max_plies).collect();
    let played_now = runs.iter().map(|r| r.played_now).sum();
    let game_ms: u64 = runs.iter().map(|r| r.game_millis).sum();
    let mut played = Played::default();
    for r in &runs {
        played.add(&r.played);
    }
    let ludii = runs.iter().map(|r| r.ludii.clone()).collect();
    let agreement = runs.iter().map(|r| r.agreement.clone()).collect();
    let variants: Vec<VariantMetrics> = runs.into_iter().map(|r| r.metrics).collect();
    let mut pairs = Vec::new();
    for i in 0..variants.len() {
        for j in i + 1..variants.len() {
            pairs.push(metrics::compare_pair(&variants[i], &variants[j])?);
        }
    }
    let overall = if variants.len() > 2 {
        metrics::compare_all(&variants)
    } else {
        None
    };
    Ok(CompareReport {
        title,
        command: command.to_string(),
        build: String::new(),
        engine: cfg.engine_text(),
        deterministic: cfg.engine.deterministic()
            && cfg.engine_side1.as_ref().is_none_or(|e| e.deterministic()),
        games: cfg.games,
        seed: cfg.seed,
        random_plies: cfg.random_plies,
        opening: cfg.opening_text(),
        max_plies,
        threads: cfg.threads,
        wall_seconds,
        game_seconds: game_ms as f64 / 1000.0,
        played_now,
        played,
        variants,
        pairs,
        overall,
        ludii,
        agreement,
    })
}

/// Runs one tournament per rules string and compares them, writing nothing
/// but the games files (call [`write_compare`] for the report), with solved
/// tables: each variant's games are refereed by
/// the directories solved for its rules (see `crate::stats::referee`), and
/// MCTS engines use them as proven leaves. `cfg.referee` is set per variant.
pub fn run_compare_with(
    specs: &[String],
    cfg: &TournamentConfig,
    tables: &[crate::stats::referee::TableDir],
    out_dir: &Path,
    command: &str,
    progress: &dyn Progress,
) -> Result<CompareReport> {
    run_compare_opts(specs, cfg, tables, true, out_dir, command, progress)
}

/// [`run_compare_with`], with the tables ending games (`referee`) or only
/// serving the `perfect` engine (`referee` false).
pub(crate) fn run_compare_opts(
    specs: &[String],
    cfg: &TournamentConfig,
    tables: &[crate::stats::referee::TableDir],
    referee: bool,
    out_dir: &Path,
    command: &str,
    progress: &dyn Progress,
) -> Result<CompareReport> {
    if specs.is_empty() {
        return Err(Error::Usage("give at least one rules string".into()));
    }
    // Parse everything first so a typo in the last variant fails at once.
    let games: Vec<AnyGame> = specs
        .iter()
        .map(|s| AnyGame::parse(s))
        .collect::<Result<_>>()?;
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|t| safe_name(t) == safe_name(s)) {
            return Err(Error::Usage(format!("variant '{s}' is given twice")));
        }
    }
    let canonical: Vec<String> = games
        .iter()
        .map(|a| crate::with_game!(a, g => g.rules_string()))
        .collect();
    crate::stats::referee::check_all_used(tables, &canonical)?;
    let started = Instant::now();
    let mut runs = Vec::new();
    for (k, (spec, any)) in specs.iter().zip(&games).enumerate() {
        let label = format!("{}/{} {spec}", k + 1, specs.len());
        let mut vcfg = cfg.clone();
        vcfg.referee = if referee {
            crate::stats::referee::referee_text(tables, &canonical[k])
        } else {
            None
        };
        runs.push(crate::with_game!(any, g => {
            let oracle = crate::stats::referee::oracle_for(g, tables)?;
            run_variant_with(spec, g, &vcfg, oracle, out_dir, &label, progress)
        })?);
    }
    assemble(
        format!("Comparison: {}", specs.join(" vs ")),
        command,
        cfg,
        runs,
        started.elapsed().as_secs_f64(),
    )
}

fn count_lines(path: &Path) -> u64 {
    crate::regular::read_to_string(path)
        .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count() as u64)
        .unwrap_or(0)
}

fn pct(iv: &Interval) -> String {
    format!(
        "{:.1} % [{:.1}, {:.1}]",
        100.0 * iv.estimate,
        100.0 * iv.lo,
        100.0 * iv.hi
    )
}

fn num(iv: &Interval) -> String {
    format!("{:.2} [{:.2}, {:.2}]", iv.estimate, iv.lo, iv.hi)
}

/// The Markdown report.
pub(crate) fn markdown(r: &CompareReport) -> String {
    let mut s = String::new();
    settings_section(&mut s, r);
    outcomes_section(&mut s, r);
    let drawn =
        !r.variants.is_empty() && r.variants.iter().all(|v| v.games > 0 && v.wins == [0, 0]);
    let engines: Vec<String> = r.engine.split(" vs ").map(str::to_string).collect();
    s.push_str(&crate::stats::strength_note::strength_section(
        &engines,
        if drawn { &engines } else { &[] },
    ));
    metrics_section(&mut s, r);
    s.push_str(&crate::stats::ludii_report::section(&ludii_rows(r)));
    tests_section(&mut s, r);
    let _ = writeln!(s, "## Plots\n");
    let _ = writeln!(s, "![win rates](win_rates.svg)\n");
    let _ = writeln!(s, "![game lengths](lengths.svg)\n");
    let _ = writeln!(s, "Data: `metrics.csv`, `ludii.csv`, `comparisons.csv`, `report.json`, and one `games-<variant>.jsonl` per variant (every game with its moves).");
    s
}

/// The report's title and its settings (engine, games, seeds, limits, build, command).
fn settings_section(s: &mut String, r: &CompareReport) {
    let _ = writeln!(s, "# {}\n", r.title);
    let _ = writeln!(s, "## Settings\n");
    let _ = writeln!(
        s,
        "- Engine (both sides): `{}`{}",
        r.engine,
        if r.deterministic {
            ""
        } else {
            " (time-limited: not exactly reproducible)"
        }
    );
    let _ = writeln!(s, "- Games per variant: {}", r.games);
    let _ = writeln!(s, "- Seed: {} (game i uses seed + i)", r.seed);
    let _ = writeln!(
        s,
        "- Randomised opening plies: {} ({})",
        r.random_plies, r.opening
    );
    let limits: Vec<String> = r
        .variants
        .iter()
        .zip(&r.max_plies)
        .map(|(v, l)| format!("{} {l}", v.name))
        .collect();
    let _ = writeln!(s, "- Move limit (plies, then draw): {}", limits.join(", "));
    let _ = writeln!(
        s,
        "- Threefold repetition: draw (the defenders lose instead where the rules say repetition=defenders_lose; repetition=forbid is not enforced move by move and also ends in a draw)"
    );
    let _ = writeln!(s, "- Threads: {}", threads_text(r.threads));
    s.push_str(&r.played.lines(r.wall_seconds));
    if !r.build.is_empty() {
        let _ = writeln!(s, "- Build: {}", r.build);
    }
    let _ = writeln!(s, "- Reproduce: `{}`\n", r.command);
}

/// The variants and their outcomes.
fn outcomes_section(s: &mut String, r: &CompareReport) {
    let _ = writeln!(s, "## Variants\n");
    type V = VariantMetrics;
    let columns = [
        Column::markdown("variant", |v: &V| v.name.clone()),
        Column::markdown("rules", |v: &V| format!("`{}`", v.rules)),
    ];
    s.push_str(&markdown_table(&columns, &r.variants));
    let _ = writeln!(s, "\n## Outcomes (95 % Wilson intervals)\n");
    let side = |v: &V, k: usize| {
        format!(
            "{}: {} ({})",
            v.side_names[k],
            v.wins[k],
            pct(&v.win_rate[k])
        )
    };
    let columns = [
        Column::markdown("variant", |v: &V| v.name.clone()),
        Column::markdown("games", |v: &V| v.games.to_string()),
        Column::markdown("side 0 wins", move |v: &V| side(v, 0)),
        Column::markdown("side 1 wins", move |v: &V| side(v, 1)),
        Column::markdown("rule draws", |v: &V| v.rule_draws.to_string()),
        Column::markdown("repetition draws", |v: &V| v.repetition_draws.to_string()),
        Column::markdown("move limit", |v: &V| v.move_limit.to_string()),
        Column::markdown("adjudicated by tables (of which draws)", |v: &V| {
            format!("{} ({})", v.adjudicated, v.adjudicated_draws)
        }),
    ];
    s.push_str(&markdown_table(&columns, &r.variants));
    for v in &r.variants {
        if let Some(note) = metrics::one_outcome_note(v.games, v.wins, &v.side_names) {
            let _ = writeln!(s, "\n{}: {note}.", v.name);
        }
    }
    if r.variants.iter().any(|v| v.adjudicated > 0) {
        let _ = writeln!(s, "\nAdjudicated games ended when they reached a position covered by solved tables (the exact referee), with that position's exact value under optimal play; their winners are counted in the win columns.");
    }
}

/// The Ludii-style metrics, game lengths and captures, with their definitions.
fn metrics_section(s: &mut String, r: &CompareReport) {
    let _ = writeln!(s, "\n## Ludii-style metrics (95 % intervals: Wilson for shares, score intervals for balance and advantage, bootstrap for duration)\n");
    s.push_str(&markdown_table(&metric_columns(r), &r.variants));
    let _ = writeln!(s, "\n## Game length and captures\n");
    s.push_str(&markdown_table(&length_columns(r), &r.variants));
    let never: Vec<&str> = (0..2)
        .filter(|&k| !captures_by_rule(r, k))
        .filter_map(|k| r.variants.first().map(|v| v.side_names[k].as_str()))
        .collect();
    if !never.is_empty() {
        let _ = writeln!(
            s,
            "\nThe {} cannot capture under these rules: no column for their captures.",
            never.join(" and ")
        );
    }
    let _ = writeln!(s, "\nDefinitions: balance = 1 − |win rate of side 0 − win rate of side 1|; completion = share of games with a winner; drawishness = share drawn by the rules or by repetition; timeouts = share stopped at the move limit; first-player advantage = the first mover's mean score (win 1, draw ½); duration = mean length in plies.\n");
}

/// Whether `side` can capture in some variant (the prey of a hunt game never do).
fn captures_by_rule(r: &CompareReport, side: usize) -> bool {
    r.variants.iter().any(|v| v.can_capture[side])
}

/// The game-length table's columns: a captures column only for a side the
/// rules let capture.
fn length_columns(r: &CompareReport) -> Vec<Column<'_, VariantMetrics>> {
    type V = VariantMetrics;
    let mut c = vec![
        Column::markdown("variant", |v: &V| v.name.clone()),
        Column::markdown("mean length [95 % bootstrap]", |v: &V| num(&v.length_mean)),
        Column::markdown("sd", |v: &V| format!("{:.1}", v.length_sd)),
        Column::markdown("median", |v: &V| format!("{:.0}", v.length_median)),
        Column::markdown("min", |v: &V| v.length_min.to_string()),
        Column::markdown("max", |v: &V| v.length_max.to_string()),
    ];
    for side in (0..2).filter(|&k| captures_by_rule(r, k)) {
        let name = r
            .variants
            .first()
            .map_or_else(|| format!("side {side}"), |v| v.side_names[side].clone());
        c.push(Column::markdown(
            format!("captures by the {name} per game"),
            move |v: &V| num(&v.captures_mean[side]),
        ));
    }
    c.push(Column::markdown("ms per game", |v: &V| {
        format!("{:.1}", v.millis_mean)
    }));
    c
}

/// The tests between variants, in a table and in words (nothing with one variant).
fn tests_section(s: &mut String, r: &CompareReport) {
    if !r.pairs.is_empty() {
        let _ = writeln!(s, "## Tests between variants\n");
        let find = |name: &str| r.variants.iter().find(|v| v.name == name);
        // A row a pair and side: the pair, its side's test, the two win rates.
        let rows: Vec<_> = r
            .pairs
            .iter()
            .flat_map(|p| p.win_rates.iter().map(move |w| (p, w)))
            .map(|(p, w)| {
                let rates = match (find(&p.a), find(&p.b)) {
                    (Some(a), Some(b)) => {
                        (a.win_rate[w.side].estimate, b.win_rate[w.side].estimate)
                    }
                    _ => (f64::NAN, f64::NAN),
                };
                (p, w, rates)
            })
            .collect();
        type R<'a> = (
            &'a PairComparison,
            &'a crate::stats::metrics::WinRateTest,
            (f64, f64),
        );
        let chi = |p: &PairComparison| match &p.outcomes {
            Some(t) => (
                format!("{:.2} ({})", t.statistic, t.df),
                format_p(t.p_value),
            ),
            None => ("–".into(), "–".into()),
        };
        let columns = [
            Column::markdown("a", |x: &R| x.0.a.clone()),
            Column::markdown("b", |x: &R| x.0.b.clone()),
            Column::markdown("side", |x: &R| x.1.side_name.clone()),
            Column::markdown("win rate a", |x: &R| format!("{:.1} %", 100.0 * x.2 .0)),
            Column::markdown("win rate b", |x: &R| format!("{:.1} %", 100.0 * x.2 .1)),
            Column::markdown("Fisher p", |x: &R| format_p(x.1.fisher.p_value)),
            Column::markdown("z", |x: &R| format!("{:.2}", x.1.z.statistic)),
            Column::markdown("z-test p", |x: &R| format_p(x.1.z.p_value)),
            Column::markdown("Cohen's h", |x: &R| format!("{:.2}", x.1.cohens_h)),
            Column::markdown("outcome χ² (df)", move |x: &R| chi(x.0).0),
            Column::markdown("χ² p", move |x: &R| chi(x.0).1),
            Column::markdown("Cramér's V", |x: &R| format!("{:.2}", x.0.cramers_v)),
        ];
        s.push_str(&markdown_table(&columns, &rows));
        let _ = writeln!(
            s,
            "\nIn words (5 % level, no correction for multiple comparisons):\n"
        );
        for p in &r.pairs {
            for w in &p.win_rates {
                let _ = writeln!(s, "- {}", w.sentence);
            }
            let _ = writeln!(s, "- {}", p.sentence);
        }
        if let Some((_, _, sentence)) = &r.overall {
            let _ = writeln!(s, "- All variants together: {sentence}");
        }
        s.push('\n');
    }
}

/// The per-variant statistics, each defined once: the columns of
/// `metrics.csv` and, where shown, of the report's metrics table.
fn metric_columns(r: &CompareReport) -> Vec<Column<'_, VariantMetrics>> {
    type V = VariantMetrics;
    let iv = |names: &[&'static str], get: fn(&VariantMetrics) -> &Interval| {
        Column::many(names, move |v: &V| get(v).values())
    };
    vec![
        Column::one("variant", |v: &V| v.name.clone()).shown("variant", |v: &V| v.name.clone()),
        Column::one("rules", |v: &V| v.rules.clone()),
        Column::one("fingerprint", |v: &V| v.fingerprint.to_string()),
        Column::one("engine", |_: &V| r.engine.clone()),
        Column::one("seed", |_: &V| r.seed.to_string()),
        Column::one("games", |v: &V| v.games.to_string()),
        Column::one("side0", |v: &V| v.side_names[0].clone()),
        Column::one("side1", |v: &V| v.side_names[1].clone()),
        Column::one("first", |v: &V| v.first.to_string()),
        Column::one("side0_wins", |v: &V| v.wins[0].to_string()),
        Column::one("side1_wins", |v: &V| v.wins[1].to_string()),
        Column::one("rule_draws", |v: &V| v.rule_draws.to_string()),
        Column::one("repetition_draws", |v: &V| v.repetition_draws.to_string()),
        Column::one("move_limit", |v: &V| v.move_limit.to_string()),
        iv(&["side0_win_rate", "side0_lo", "side0_hi"], |v: &V| {
            &v.win_rate[0]
        }),
        iv(&["side1_win_rate", "side1_lo", "side1_hi"], |v: &V| {
            &v.win_rate[1]
        }),
        iv(&["balance", "balance_lo", "balance_hi"], |v: &V| &v.balance)
            .shown("balance", |v: &V| num(&v.balance)),
        iv(
            &["completion", "completion_lo", "completion_hi"],
            |v: &V| &v.completion,
        )
        .shown("completion", |v: &V| pct(&v.completion)),
        iv(
            &["drawishness", "drawishness_lo", "drawishness_hi"],
            |v: &V| &v.drawishness,
        )
        .shown("drawishness", |v: &V| pct(&v.drawishness)),
        iv(&["timeouts", "timeouts_lo", "timeouts_hi"], |v: &V| {
            &v.timeouts
        })
        .shown("timeouts", |v: &V| pct(&v.timeouts)),
        iv(
            &[
                "first_advantage",
                "first_advantage_lo",
                "first_advantage_hi",
            ],
            |v: &V| &v.first_player_advantage,
        )
        .shown("first-player advantage (first mover)", |v: &V| {
            format!(
                "{} ({})",
                num(&v.first_player_advantage),
                v.side_names[v.first as usize]
            )
        }),
        iv(&["length_mean", "length_lo", "length_hi"], |v: &V| {
            &v.length_mean
        })
        .shown("duration (plies)", |v: &V| num(&v.length_mean)),
        Column::one("length_sd", |v: &V| format!("{:.3}", v.length_sd)),
        Column::one("length_median", |v: &V| v.length_median.to_string()),
        Column::one("length_min", |v: &V| v.length_min.to_string()),
        Column::one("length_max", |v: &V| v.length_max.to_string()),
        Column::one("captures0_mean", |v: &V| {
            format!("{:.4}", v.captures_mean[0].estimate)
        }),
        Column::one("captures1_mean", |v: &V| {
            format!("{:.4}", v.captures_mean[1].estimate)
        }),
        Column::one("ms_per_game", |v: &V| format!("{:.2}", v.millis_mean)),
    ]
}

/// The rows of `ludii.csv` and the report's Ludii section, one per variant
/// (none for a report written before they were kept).
pub(crate) fn ludii_rows(r: &CompareReport) -> Vec<crate::stats::ludii_report::LudiiRow> {
    if r.ludii.len() != r.variants.len() || r.agreement.len() != r.variants.len() {
        return Vec::new();
    }
    r.ludii
        .iter()
        .zip(&r.agreement)
        .zip(&r.variants)
        .map(|((m, a), v)| crate::stats::ludii_report::LudiiRow {
            measures: m.clone(),
            agreement: a.clone(),
            side_names: v.side_names.clone(),
        })
        .collect()
}

/// `metrics.csv`: one row per variant.
pub(crate) fn metrics_csv(r: &CompareReport) -> Result<String> {
    csv_table(&metric_columns(r), &r.variants)
}

/// `comparisons.csv`: one row per pair of variants and side.
pub(crate) fn comparisons_csv(r: &CompareReport) -> Result<String> {
    type Row<'a> = (&'a PairComparison, &'a metrics::WinRateTest);
    let rows: Vec<Row<'_>> = r
        .pairs
        .iter()
        .flat_map(|p| p.win_rates.iter().map(move |w| (p, w)))
        .collect();
    let outcomes = |(p, _): &Row<'_>| match &p.outcomes {
        Some(t) => vec![
            format!("{:.6}", t.statistic),
            t.df.to_string(),
            format!("{:.6e}", t.p_value),
        ],
        None => vec![String::new(); 3],
    };
    let columns: Vec<Column<'_, Row<'_>>> = vec![
        Column::one("a", |(p, _): &Row<'_>| p.a.clone()),
        Column::one("b", |(p, _): &Row<'_>| p.b.clone()),
        Column::one("side", |(_, w): &Row<'_>| w.side_name.clone()),
        Column::one("fisher_p", |(_, w): &Row<'_>| {
            format!("{:.6e}", w.fisher.p_value)
        }),
        Column::one("z", |(_, w): &Row<'_>| format!("{:.6}", w.z.statistic)),
        Column::one("z_p", |(_, w): &Row<'_>| format!("{:.6e}", w.z.p_value)),
        Column::one("cohens_h", |(_, w): &Row<'_>| format!("{:.6}", w.cohens_h)),
        Column::many(&["chi2", "chi2_df", "chi2_p"], outcomes),
        Column::one("cramers_v", |(p, _): &Row<'_>| {
            format!("{:.6}", p.cramers_v)
        }),
    ];
    csv_table(&columns, &rows)
}

/// Writes the report files into `dir`; returns their paths.
pub fn write_compare(dir: &Path, r: &CompareReport) -> Result<Vec<PathBuf>> {
    let mut files = ReportDir::create(dir)?;
    files.text("report.md", &markdown(r))?;
    files.text("metrics.csv", &metrics_csv(r)?)?;
    files.text("comparisons.csv", &comparisons_csv(r)?)?;
    files.text(
        "ludii.csv",
        &crate::stats::ludii_report::csv(&ludii_rows(r))?,
    )?;
    files.json("report.json", r)?;
    let title = format!(
        "Win rates, {} games per variant, engine {}",
        r.games, r.engine
    );
    files.svg("win_rates.svg", |p| plot::win_rates(p, &title, &r.variants))?;
    files.svg("lengths.svg", |p| {
        plot::lengths(p, "Game length distribution", &r.variants)
    })?;
    Ok(files.files())
}

/// A thread count as a report states it (0: one per core).
pub(crate) fn threads_text(threads: usize) -> String {
    if threads == 0 {
        "one per core".to_string()
    } else {
        threads.to_string()
    }
}
