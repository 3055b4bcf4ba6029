//! Exact sweeps: solve a family of variants that differ in one integer option
//! with the tiered retrograde solver ([`crate::retro`]) and tabulate the start
//! value and key statistics per variant.
//!
//! Each variant's tables go to `<tables>/<KEY>-<VALUE>` (one directory per
//! variant), so an interrupted or repeated sweep keeps the tiers already solved.
//! Before anything is solved, every variant is planned and the sweep refuses
//! with [`Error::Memory`] if one of them needs more than the memory limit.
//!
//! The parameter is written `KEY=V1..V2`, optionally with a text prefix before
//! the range (`hunter_win=captures>=1..20` gives `hunter_win=captures>=1`, …,
//! `hunter_win=captures>=20`). Each variant is the base rules string with
//! `,KEY=VALUE` appended.
//!
//! Counts are those of the retrograde tables: every placement of the pieces
//! in the tiers of the whole game (not only positions reachable from the
//! start), reduced by the board's symmetries; won / lost / drawn are counted
//! over these symmetry classes, from the side to move's view.
//!
//! Files written by [`write_sweep`]: `sweep.md`, `sweep.csv`, `sweep.json`,
//! `sweep_value.svg` (start value per parameter value, for side 0),
//! `sweep_size.svg` (positions and start distance) and `sweep_classes.svg`
//! (shares of won, lost and drawn classes).

use crate::error::{quote, Error, Result};
use crate::game::{Game, Value};
use crate::progress::Progress;
use crate::retro::driver::{format_bytes, MadeBy, SolveOptions, SolveReport};
use crate::retro::manifest::{plan_any, solve_any};
use crate::retro::Scope;
use crate::stats::files::{csv_table, markdown_table, Column, ReportDir};
use crate::stats::plot;
use crate::stats::report::safe_name;
use crate::tier::Outcomes;
use crate::variant::AnyGame;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A parsed `KEY=[PREFIX]V1..V2`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepParam {
    /// Option key.
    pub key: String,
    /// Text before the number (often empty).
    pub prefix: String,
    /// First value.
    pub from: i64,
    /// Last value (inclusive).
    pub to: i64,
}

impl SweepParam {
    /// Parses `KEY=[PREFIX]V1..V2` (V1 ≤ V2, at most 1000 values).
    pub fn parse(text: &str) -> Result<SweepParam> {
        let bad = |why: &str| {
            Error::Usage(format!(
                "--param {}: {why}; expected KEY=V1..V2, e.g. hunter_win=1..20 or hunter_win=captures>=1..20",
                quote(text)
            ))
        };
        let (key, value) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let key = key.trim();
        if key.is_empty() || key.contains(',') {
            return Err(bad("empty or invalid key"));
        }
        let (left, right) = value
            .rsplit_once("..")
            .ok_or_else(|| bad("no '..' range"))?;
        let to: i64 = right
            .trim()
            .parse()
            .map_err(|_| bad("the range end is not an integer"))?;
        let digits = left
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_ascii_digit() || c == '-')
            .last()
            .map(|(i, _)| i)
            .ok_or_else(|| bad("the range start is not an integer"))?;
        let from: i64 = left[digits..]
            .parse()
            .map_err(|_| bad("the range start is not an integer"))?;
        if from > to {
            return Err(bad("the range is empty"));
        }
        if to - from >= 1000 {
            return Err(bad("more than 1000 values"));
        }
        Ok(SweepParam {
            key: key.to_string(),
            prefix: left[..digits].to_string(),
            from,
            to,
        })
    }

    /// The option text for one value (`hunter_win=captures>=7`).
    pub(crate) fn option(&self, v: i64) -> String {
        format!("{}={}{}", self.key, self.prefix, v)
    }
}

/// One solved variant of a sweep.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SweepRow {
    /// Parameter value.
    pub value: i64,
    /// Rules string solved.
    pub rules: String,
    /// Canonical rules string.
    pub canonical: String,
    /// Names of side 0 and 1 in the game's own words (`Game::side_label`).
    pub side_names: [String; 2],
    /// Side to move at the start.
    pub start_side: u8,
    /// Start value for the side to move there.
    #[serde(with = "value_text")]
    pub start_value: Value,
    /// Start value for side 0.
    #[serde(with = "value_text")]
    pub value_side0: Value,
    /// Plies to the end from the start under optimal play (0 for a draw).
    pub start_distance: u32,
    /// Tiers solved.
    pub tiers: usize,
    /// Placements with side to move in those tiers (before symmetry reduction).
    pub positions: u64,
    /// Symmetry classes (the solved slots), won, lost and drawn for the side to
    /// move, and the longest distance of any decided class.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Estimated peak memory of the solve, bytes.
    pub memory: u64,
    /// Seconds of this run for this variant (near 0 when every tier was kept).
    pub seconds: f64,
    /// Tiers solved in this run.
    pub solved_now: usize,
    /// Tiers found on disk and kept.
    pub resumed: usize,
    /// Directory of the tables and `summary.json`.
    pub tables: String,
}

/// A finished sweep.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SweepReport {
    /// Base rules string.
    pub base: String,
    /// The parameter.
    pub param: SweepParam,
    /// Solver used.
    pub solver: String,
    /// Command that reproduces the report.
    pub command: String,
    /// The build that made the report (set by the caller; empty when unknown).
    #[serde(default)]
    pub build: String,
    /// Worker threads of the solver (0: one per core).
    pub threads: usize,
    /// One row per parameter value.
    pub rows: Vec<SweepRow>,
    /// Wall time in seconds.
    pub wall_seconds: f64,
    /// The command line and build that ran the sweep (the solve options'
    /// `made_by`, which also goes into every variant's `summary.json`;
    /// absent from a library call's report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_by: Option<MadeBy>,
}

fn parse_value(text: &str) -> Result<Value> {
    match text {
        "win" => Ok(Value::Win),
        "loss" => Ok(Value::Loss),
        "draw" => Ok(Value::Draw),
        other => Err(Error::Internal(format!(
            "solver summary: '{other}' is not a value"
        ))),
    }
}

fn row_of(
    value: i64,
    spec: &str,
    any: &AnyGame,
    dir: &Path,
    memory: u64,
    r: &SolveReport,
) -> Result<SweepRow> {
    let s = &r.summary;
    let start = s.start.as_ref().ok_or_else(|| {
        Error::Internal(format!(
            "{spec}: the solve summary has no start value (whole scope expected)"
        ))
    })?;
    let start_value = parse_value(&start.value)?;
    let (start_side, side_names) = crate::with_game!(any, g => {
        let side = g.side_to_move(&g.start()) as u8;
        (side, [g.side_label(0).to_string(), g.side_label(1).to_string()])
    });
    let sum = |f: fn(&crate::retro::TierSummary) -> u64| s.tiers.iter().map(f).sum::<u64>();
    Ok(SweepRow {
        value,
        rules: spec.to_string(),
        canonical: s.rules.clone(),
        side_names,
        start_side,
        start_value,
        value_side0: if start_side == 0 {
            start_value
        } else {
            start_value.flip()
        },
        start_distance: start.distance,
        tiers: s.tiers.len(),
        positions: sum(|t| t.positions),
        outcomes: s.tiers.iter().map(|t| &t.outcomes).sum(),
        memory,
        seconds: r.seconds,
        solved_now: r.solved,
        resumed: r.resumed,
        tables: dir.display().to_string(),
    })
}

/// The table directory of one variant of a sweep: `<tables>/<KEY>-<VALUE>`.
pub(crate) fn variant_dir(tables: &Path, param: &SweepParam, value: i64) -> PathBuf {
    tables.join(safe_name(&param.option(value)))
}

/// Solves every variant of the sweep (the whole game) with the tiered
/// retrograde solver, tables under `tables` (see `variant_dir`).
///
/// Every variant is planned first; if one needs more than
/// `options.memory_limit`, nothing is solved and [`Error::Memory`] names it.
/// Returns [`Error::Interrupted`] on a stop request; finished tiers stay on
/// disk and a rerun resumes.
pub fn run_sweep(
    base: &str,
    param: &SweepParam,
    tables: &Path,
    options: &SolveOptions,
    command: &str,
    progress: &dyn Progress,
) -> Result<SweepReport> {
    let started = Instant::now();
    // Parse and plan every variant first so that a bad value or a variant too
    // big for memory fails before any solving.
    let mut jobs = Vec::new();
    for v in param.from..=param.to {
        let spec = format!("{base},{}", param.option(v));
        let any = AnyGame::parse(&spec)?;
        let plan = plan_any(&any, &Scope::Whole, options.compact, options.memory_limit)?;
        if let Some(limit) = options.memory_limit {
            if plan.memory > limit {
                return Err(Error::Memory(format!(
                    "{spec} needs about {} to solve ({} tiers, {} index slots) but the limit is {}; raise --memory or narrow the range",
                    format_bytes(plan.memory),
                    plan.tiers,
                    plan.slots,
                    format_bytes(limit)
                )));
            }
        }
        jobs.push((v, spec, any, plan.memory));
    }
    let mut rows = Vec::new();
    for (v, spec, any, memory) in &jobs {
        progress.message(spec);
        let dir = variant_dir(tables, param, *v);
        let r = solve_any(any, &Scope::Whole, &dir, options, progress)?;
        rows.push(row_of(*v, spec, any, &dir, *memory, &r)?);
    }
    Ok(SweepReport {
        base: base.to_string(),
        param: param.clone(),
        solver: format!(
            "tiered retrograde analysis (crate::retro, whole game), tables in {}",
            tables.display()
        ),
        command: command.to_string(),
        build: String::new(),
        threads: options.threads,
        rows,
        wall_seconds: started.elapsed().as_secs_f64(),
        made_by: options.made_by.clone(),
    })
}

fn score(v: Value) -> f64 {
    match v {
        Value::Win => 1.0,
        Value::Draw => 0.0,
        Value::Loss => -1.0,
    }
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Side 0's name in the sweep's rows (`side 0` when there are none).
fn side0_name(r: &SweepReport) -> String {
    r.rows
        .first()
        .map_or("side 0".to_string(), |x| x.side_names[0].clone())
}

/// The Markdown table of a sweep.
pub(crate) fn sweep_markdown(r: &SweepReport) -> String {
    let mut s = String::new();
    let side0 = side0_name(r);
    let _ = writeln!(
        s,
        "# Exact sweep: {} with {}={}{}..{}\n",
        r.base, r.param.key, r.param.prefix, r.param.from, r.param.to
    );
    let _ = writeln!(s, "- Solver: {}", r.solver);
    let _ = writeln!(s, "- Threads: {}", super::report::threads_text(r.threads));
    let resumed: usize = r.rows.iter().map(|x| x.resumed).sum();
    let _ = writeln!(
        s,
        "- Time: {:.1} s wall for this run ({} solved now, {resumed} kept from earlier runs)",
        r.wall_seconds,
        match r.rows.iter().map(|x| x.solved_now).sum::<usize>() {
            1 => "1 tier".to_string(),
            n => format!("{n} tiers"),
        }
    );
    if !r.build.is_empty() {
        let _ = writeln!(s, "- Build: {}", r.build);
    }
    let _ = writeln!(s, "- Reproduce: `{}`\n", r.command);
    let _ = writeln!(
        s,
        "Counts cover every placement in the tiers of the whole game (not only positions reachable \
         from the start), reduced by the board's symmetries; won / lost / drawn are symmetry classes \
         counted from the side to move's view.\n"
    );
    s.push_str(&markdown_table(&sweep_columns(r, &side0), &r.rows));
    let _ = writeln!(s);
    for (want, word) in [(Value::Win, "wins"), (Value::Loss, "loses")] {
        let vals: Vec<String> = r
            .rows
            .iter()
            .filter(|x| x.value_side0 == want)
            .map(|x| x.value.to_string())
            .collect();
        if vals.is_empty() {
            let _ = writeln!(
                s,
                "{side0} {word} the start for no value of {} in the range.",
                r.param.key
            );
        } else {
            let _ = writeln!(
                s,
                "{side0} {word} the start for {} = {}.",
                r.param.key,
                vals.join(", ")
            );
        }
    }
    let _ = writeln!(
        s,
        "\n![start value](sweep_value.svg)\n\n![size](sweep_size.svg)\n\n![classes](sweep_classes.svg)"
    );
    s
}

/// The columns of a sweep's CSV and Markdown tables (`side0`: side 0's name).
fn sweep_columns<'a>(r: &'a SweepReport, side0: &str) -> Vec<Column<'a, SweepRow>> {
    type R = SweepRow;
    vec![
        Column::one("value", |x: &R| x.value.to_string()).shown(r.param.key.clone(), |x: &R| {
            format!("{}{}", r.param.prefix, x.value)
        }),
        Column::one("rules", |x: &R| x.rules.clone()),
        Column::one("canonical_rules", |x: &R| x.canonical.clone()),
        Column::one("start_side", |x: &R| x.start_side.to_string()),
        Column::one("start_value", |x: &R| x.start_value.to_string()),
        Column::one("start_value_side0", |x: &R| x.value_side0.to_string())
            .shown(format!("start value for {side0}"), |x: &R| {
                format!("**{}**", x.value_side0)
            }),
        Column::markdown("side to move at start", |x: &R| {
            x.side_names[x.start_side as usize].clone()
        }),
        Column::number("start_distance", "distance (plies)", |x: &R| {
            x.start_distance.to_string()
        }),
        Column::number("tiers", "tiers", |x: &R| x.tiers.to_string()),
        Column::number("positions", "positions", |x: &R| x.positions.to_string()),
        Column::number("classes", "symmetry classes", |x: &R| {
            x.outcomes.classes.to_string()
        }),
        Column::one("wins", |x: &R| x.outcomes.wins.to_string()),
        Column::one("losses", |x: &R| x.outcomes.losses.to_string()),
        Column::one("draws", |x: &R| x.outcomes.draws.to_string()),
        Column::markdown("won / lost / drawn classes (side to move)", |x: &R| {
            format!(
                "{} / {} / {}",
                x.outcomes.wins, x.outcomes.losses, x.outcomes.draws
            )
        }),
        Column::markdown("drawn %", |x: &R| {
            format!("{:.1}", pct(x.outcomes.draws, x.outcomes.classes))
        })
        .right(),
        Column::number("max_distance", "longest distance", |x: &R| {
            x.outcomes.max_distance.to_string()
        }),
        Column::one("memory_bytes", |x: &R| x.memory.to_string())
            .shown("memory estimate", |x: &R| format_bytes(x.memory))
            .right(),
        Column::one("seconds", |x: &R| format!("{:.3}", x.seconds))
            .shown("seconds", |x: &R| format!("{:.2}", x.seconds))
            .right(),
        Column::one("tiers_solved_now", |x: &R| x.solved_now.to_string()),
        Column::one("tiers_resumed", |x: &R| x.resumed.to_string()),
    ]
}

/// Writes the sweep files into `dir`; returns their paths.
pub fn write_sweep(dir: &Path, r: &SweepReport) -> Result<Vec<PathBuf>> {
    let mut files = ReportDir::create(dir)?;
    files.text("sweep.md", &sweep_markdown(r))?;
    let side0 = side0_name(r);
    files.text("sweep.csv", &csv_table(&sweep_columns(r, &side0), &r.rows)?)?;
    files.json("sweep.json", r)?;
    type Measure<'a> = (&'a str, &'a dyn Fn(&SweepRow) -> f64);
    let value_label = format!("value for {side0}");
    let plots: [(&str, String, &str, Vec<Measure>); 3] = [
        (
            "sweep_value.svg",
            format!("Start value for {side0}: {}", r.base),
            "1 win, 0 draw, -1 loss",
            vec![(&value_label, &|x| score(x.value_side0))],
        ),
        (
            "sweep_size.svg",
            format!("Game size: {}", r.base),
            "log10",
            vec![
                ("log10 symmetry classes", &|x| {
                    (x.outcomes.classes.max(1) as f64).log10()
                }),
                ("log10 (1 + start distance)", &|x| {
                    (1.0 + x.start_distance as f64).log10()
                }),
            ],
        ),
        (
            "sweep_classes.svg",
            format!("Classes by value for the side to move: {}", r.base),
            "% of symmetry classes",
            vec![
                ("won", &|x| pct(x.outcomes.wins, x.outcomes.classes)),
                ("lost", &|x| pct(x.outcomes.losses, x.outcomes.classes)),
                ("drawn", &|x| pct(x.outcomes.draws, x.outcomes.classes)),
            ],
        ),
    ];
    for (file, title, y_desc, measures) in &plots {
        let lines: Vec<(String, Vec<(f64, f64)>)> = measures
            .iter()
            .map(|(label, f)| {
                let pts = r.rows.iter().map(|x| (x.value as f64, f(x))).collect();
                (label.to_string(), pts)
            })
            .collect();
        files.svg(file, |p| {
            plot::sweep_lines(p, title, &r.param.key, y_desc, &lines)
        })?;
    }
    Ok(files.files())
}

/// [`Value`] as its lower-case name in JSON (`win`, `loss`, `draw`).
mod value_text {
    use crate::game::Value;

    /// Writes the name.
    pub(super) fn serialize<S: serde::Serializer>(v: &Value, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    /// Reads the name back.
    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        let text: String = serde::Deserialize::deserialize(d)?;
        match text.as_str() {
            "win" => Ok(Value::Win),
            "loss" => Ok(Value::Loss),
            "draw" => Ok(Value::Draw),
            other => Err(serde::de::Error::custom(format!(
                "'{other}' is not a value (win, loss, draw)"
            ))),
        }
    }
}
