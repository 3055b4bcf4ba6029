//! `explore`: a grid over two or three rule options. Each variant is solved
//! exactly when its plan fits (memory and a size guard), otherwise played on
//! the strength ladder; variants are ranked by balance, decisiveness and
//! length, with intervals.
//!
//! Metrics per variant:
//! - **exact** (retrograde solution of the whole game): the start value under
//!   optimal play; balance 1 for a draw and 0 for a win of either side,
//!   decisiveness 0 or 1, length = plies to the end under optimal play (0 for a
//!   draw: infinite play). Exact figures have no interval.
//! - **ladder** (self-play at every strength, see [`crate::stats::ladder`]):
//!   the metrics at the strongest engine: balance = 1 − |side 0 win rate −
//!   side 1 win rate| (bootstrap), decisiveness = share of games with a
//!   winner (Wilson), length = mean plies (bootstrap), plus the ladder's
//!   rank-agreement sentence over the ladder variants.
//!
//! Resumable: tables are kept per variant under the tables directory
//! (`solve` skips finished tiers) and games per variant and engine under the
//! output directory (tournaments skip games already played).
//!
//! Files: `explore.md`, `explore.csv`, `explore.json`, and one
//! `heatmap-<key1>-<key2>.svg` per pair of options (balance, averaged over
//! the other option when there are three).

use crate::error::{quote, Error, Result};
use crate::game::Value;
use crate::progress::Progress;
use crate::retro::driver::SolveOptions;
use crate::retro::manifest::{plan_any, solve_any};
use crate::retro::Scope;
use crate::stats::engine::EngineSpec;
use crate::stats::files::{csv_table, markdown_table, write_svg, Column, ReportDir};
use crate::stats::ladder::{run_ladder, write_ladder};
use crate::stats::math::Interval;
use crate::stats::plot::plot_err;
use crate::stats::report::safe_name;
use crate::stats::tournament::TournamentConfig;
use crate::variant::AnyGame;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One option of the grid: a key and its values.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridOption {
    /// Option key (`hunter_win`).
    pub key: String,
    /// Values as written in rules strings.
    pub values: Vec<String>,
}

impl GridOption {
    /// Parses `KEY=V1,V2,...` or `KEY=A..B` (integers).
    pub fn parse(text: &str) -> Result<GridOption> {
        let bad = |why: &str| {
            Error::Usage(format!(
                "--grid {}: {why}; expected KEY=V1,V2,... or KEY=A..B, e.g. prey=3..4 or board=alquerque25,mogol37",
                quote(text)
            ))
        };
        let (key, vals) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let key = key.trim();
        if key.is_empty() || key.contains(',') {
            return Err(bad("empty key"));
        }
        let values: Vec<String> = if let Some((a, b)) = vals.split_once("..") {
            let a: i64 = a.trim().parse().map_err(|_| bad("range start"))?;
            let b: i64 = b.trim().parse().map_err(|_| bad("range end"))?;
            if a > b || b - a > 100 {
                return Err(bad("empty range or more than 100 values"));
            }
            (a..=b).map(|v| v.to_string()).collect()
        } else {
            vals.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.iter().any(|v| v.is_empty()) {
            return Err(bad("empty value"));
        }
        let twice = (1..values.len()).find(|&i| values[..i].contains(&values[i]));
        if let Some(i) = twice {
            return Err(bad(&format!(
                "the value {} is listed twice",
                quote(&values[i])
            )));
        }
        Ok(GridOption {
            key: key.to_string(),
            values,
        })
    }
}

/// How a variant was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Method {
    /// Solved exactly.
    Exact,
    /// Played on the ladder.
    Ladder,
}

/// One variant of the grid.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ExploreRow {
    /// Option values in grid order.
    pub values: Vec<String>,
    /// Rules string.
    pub rules: String,
    /// How it was measured.
    pub method: Method,
    /// Balance (exact: 1 draw, 0 win).
    pub balance: Interval,
    /// Decisiveness: share of games with a winner (exact: 0 or 1).
    pub decisiveness: Interval,
    /// Length in plies (exact: optimal distance, 0 for a draw).
    pub length: Interval,
    /// Side 0's score (win 1, draw ½).
    pub score0: Interval,
    /// Exact start value for side 0, when solved.
    #[serde(default)]
    pub exact_value: Option<String>,
    /// Symmetry classes solved (exact) or games per strength (ladder).
    pub size: u64,
    /// Memory estimate of the exact plan, bytes.
    pub plan_memory: u64,
    /// Where the tables or the ladder report are.
    pub detail: String,
    /// The ladder's rank-agreement or verdict sentence (ladder only).
    #[serde(default)]
    pub note: String,
}

/// A finished exploration.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ExploreReport {
    /// Base rules string.
    pub base: String,
    /// The grid.
    pub grid: Vec<GridOption>,
    /// Engines of the ladder.
    pub engines: Vec<String>,
    /// Games per variant and strength on the ladder.
    pub games: u64,
    /// Command that reproduces it.
    pub command: String,
    /// Build.
    pub build: String,
    /// Rows, ranked (best balance first, then decisiveness, then length).
    pub rows: Vec<ExploreRow>,
    /// Side names of the first variant.
    pub side_names: [String; 2],
    /// Wall seconds of this run.
    pub wall_seconds: f64,
    /// The ladder rows' games: how many, when and how long they took to play,
    /// how many this run played (the rest were read from stored games).
    #[serde(default)]
    pub played: crate::stats::played::Played,
    /// The command line and build that ran the exploration (the solve
    /// options' `made_by`, which also goes into every solved variant's
    /// `summary.json`; absent from a library call's report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_by: Option<crate::retro::driver::MadeBy>,
}

/// Settings of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreConfig {
    /// Ladder engines (weakest first).
    pub engines: Vec<EngineSpec>,
    /// Tournament settings for the ladder (engine fields are replaced).
    pub tournament: TournamentConfig,
    /// Solver options (threads, memory limit).
    pub solve: SolveOptions,
    /// Largest index (slots) solved exactly: a time guard on top of memory.
    pub max_exact_slots: u64,
    /// Tables root (one directory per variant).
    pub tables: PathBuf,
}

fn exact_interval(x: f64) -> Interval {
    Interval {
        estimate: x,
        lo: x,
        hi: x,
    }
}

fn cartesian(grid: &[GridOption]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for g in grid {
        let mut next = Vec::new();
        for prefix in &out {
            for v in &g.values {
                let mut p = prefix.clone();
                p.push(v.clone());
                next.push(p);
            }
        }
        out = next;
    }
    out
}

/// Runs the exploration (see the module docs). Every variant is parsed and
/// planned before anything runs, so a bad value fails at once.
pub fn run_explore(
    base: &str,
    grid: &[GridOption],
    cfg: &ExploreConfig,
    out_dir: &Path,
    command: &str,
    build: &str,
    progress: &dyn Progress,
) -> Result<ExploreReport> {
    if !(2..=3).contains(&grid.len()) {
        return Err(Error::Usage(format!(
            "explore takes two or three --grid options, not {}",
            grid.len()
        )));
    }
    let started = std::time::Instant::now();
    let jobs = plan_variants(base, grid, cfg)?;
    let mut rows = Vec::new();
    let mut side_names = ["side 0".to_string(), "side 1".to_string()];
    let mut played = crate::stats::played::Played::default();
    for (k, job) in jobs.iter().enumerate() {
        progress.message(&format!("{}/{} {}", k + 1, jobs.len(), job.spec));
        let names = crate::with_game!(&job.any, g => {
            use crate::game::Game;
            [g.side_label(0).to_string(), g.side_label(1).to_string()]
        });
        if k == 0 {
            side_names = names;
        }
        if job.fits {
            rows.push(exact_row(job, cfg, progress)?);
        } else {
            let dir = out_dir.join(safe_name(&job.spec));
            let (row, games) =
                ladder_row(job, cfg, &dir, (command, build), &side_names[0], progress)?;
            played.add(&games);
            rows.push(row);
        }
    }
    rows.sort_by(|a, b| {
        b.balance
            .estimate
            .total_cmp(&a.balance.estimate)
            .then(b.decisiveness.estimate.total_cmp(&a.decisiveness.estimate))
            .then(b.length.estimate.total_cmp(&a.length.estimate))
    });
    Ok(ExploreReport {
        base: base.to_string(),
        grid: grid.to_vec(),
        engines: cfg.engines.iter().map(|e| e.text()).collect(),
        games: cfg.tournament.games,
        command: command.to_string(),
        build: build.to_string(),
        rows,
        side_names,
        wall_seconds: started.elapsed().as_secs_f64(),
        played,
        made_by: cfg.solve.made_by.clone(),
    })
}

/// One variant of the grid, parsed and planned.
struct Planned {
    /// The grid options' values.
    values: Vec<String>,
    /// Its rules.
    spec: String,
    any: AnyGame,
    /// The solver's memory plan (0 for a variant the solver does not take).
    plan_memory: u64,
    /// Solved exactly (else played on the ladder).
    fits: bool,
}

/// Every variant of the grid, parsed and planned.
fn plan_variants(base: &str, grid: &[GridOption], cfg: &ExploreConfig) -> Result<Vec<Planned>> {
    let mut jobs = Vec::new();
    for values in cartesian(grid) {
        let mut spec = base.to_string();
        for (g, v) in grid.iter().zip(&values) {
            spec.push_str(&format!(",{}={v}", g.key));
        }
        let any = AnyGame::parse(&spec)?;
        // The solver counts a cycle as a draw: a variant with another
        // repetition rule is played on the ladder (whose games honour it).
        let cycles_drawn = crate::with_game!(&any, g => {
            use crate::game::Game;
            g.repetition() == crate::game::Repetition::Draw
        });
        let (plan_memory, fits) = if cycles_drawn {
            let plan = plan_any(
                &any,
                &Scope::Whole,
                cfg.solve.compact,
                cfg.solve.memory_limit,
            )?;
            let fits = cfg.solve.memory_limit.is_none_or(|m| plan.memory <= m)
                && plan.slots <= cfg.max_exact_slots;
            (plan.memory, fits)
        } else {
            (0, false)
        };
        jobs.push(Planned {
            values,
            spec,
            any,
            plan_memory,
            fits,
        });
    }
    Ok(jobs)
}

/// The row of a variant solved exactly (its tables under `cfg.tables`).
fn exact_row(job: &Planned, cfg: &ExploreConfig, progress: &dyn Progress) -> Result<ExploreRow> {
    let (spec, any) = (&job.spec, &job.any);
    let dir = cfg.tables.join(safe_name(spec));
    let r = solve_any(any, &Scope::Whole, &dir, &cfg.solve, progress)?;
    let start =
        r.summary.start.as_ref().ok_or_else(|| {
            Error::Internal(format!("{spec}: the solve summary has no start value"))
        })?;
    let start_side = crate::with_game!(any, g => {
        use crate::game::Game;
        g.side_to_move(&g.start())
    });
    let v = match start.value.as_str() {
        "win" => Value::Win,
        "loss" => Value::Loss,
        _ => Value::Draw,
    };
    let v0 = if start_side == 0 { v } else { v.flip() };
    let decided = v0 != Value::Draw;
    Ok(ExploreRow {
        values: job.values.clone(),
        rules: spec.clone(),
        method: Method::Exact,
        balance: exact_interval(if decided { 0.0 } else { 1.0 }),
        decisiveness: exact_interval(if decided { 1.0 } else { 0.0 }),
        length: exact_interval(start.distance as f64),
        score0: exact_interval(match v0 {
            Value::Win => 1.0,
            Value::Draw => 0.5,
            Value::Loss => 0.0,
        }),
        exact_value: Some(v0.name().to_string()),
        size: r.summary.tiers.iter().map(|t| t.outcomes.classes).sum(),
        plan_memory: job.plan_memory,
        detail: dir.display().to_string(),
        note: String::new(),
    })
}

/// The row of a variant played on the ladder (into `dir`), with the metrics
/// at the strongest engine, and its games' times; `run` is the command and the build.
fn ladder_row(
    job: &Planned,
    cfg: &ExploreConfig,
    dir: &Path,
    run: (&str, &str),
    side0: &str,
    progress: &dyn Progress,
) -> Result<(ExploreRow, crate::stats::played::Played)> {
    let spec = &job.spec;
    let (command, build) = run;
    let r = run_ladder(
        &crate::stats::ladder::LadderRun {
            specs: std::slice::from_ref(spec),
            engines: &cfg.engines,
            base: &cfg.tournament,
            tables: &[],
            opts: &crate::stats::ladder::LadderOptions::default(),
            out_dir: dir,
            command,
            build,
        },
        progress,
    )?;
    write_ladder(dir, &r)?;
    // Metrics at the strongest engine (the last rung).
    let last = cfg.engines.last().map(|e| e.text()).unwrap_or_default();
    let m = read_metrics(&dir.join(safe_name(&last)).join("report.json"))?;
    let cell = r.cells[0]
        .last()
        .cloned()
        .ok_or_else(|| Error::Internal(format!("{spec}: the ladder has no cell")))?;
    let trend: Vec<String> = r.cells[0]
        .iter()
        .map(|c| format!("{} {:.2}", c.engine, c.score0.estimate))
        .collect();
    let row = ExploreRow {
        values: job.values.clone(),
        rules: spec.clone(),
        method: Method::Ladder,
        balance: m.balance,
        decisiveness: m.completion,
        length: m.length_mean,
        score0: cell.score0,
        exact_value: None,
        size: cfg.tournament.games,
        plan_memory: job.plan_memory,
        detail: dir.display().to_string(),
        note: format!("{side0} score by strength: {}", trend.join(", ")),
    };
    Ok((row, r.played))
}

fn read_metrics(path: &Path) -> Result<crate::stats::metrics::VariantMetrics> {
    let text = crate::regular::read_to_string(path)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let r: crate::stats::report::CompareReport =
        serde_json::from_str(&text).map_err(|e| Error::input(path, e.to_string()))?;
    r.variants
        .into_iter()
        .next()
        .ok_or_else(|| Error::input(path, "no variant"))
}

fn iv(i: &Interval, exact: bool, digits: usize) -> String {
    if exact {
        format!("{:.*}", digits, i.estimate)
    } else {
        format!(
            "{:.*} [{:.*}, {:.*}]",
            digits, i.estimate, digits, i.lo, digits, i.hi
        )
    }
}

/// The Markdown report.
pub(crate) fn explore_markdown(r: &ExploreReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Exploration of {}\n", r.base);
    for g in &r.grid {
        let _ = writeln!(s, "- `{}` ∈ {{{}}}", g.key, g.values.join(", "));
    }
    let _ = writeln!(
        s,
        "- Ladder (variants not solved exactly): engines {}; {} games per strength; metrics at the strongest engine",
        r.engines.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", "),
        r.games
    );
    // A ladder row read back from stored games took no time now: say when and
    // how long its games took, and what this run did (played.rs).
    if r.played.games > 0 {
        s.push_str(&r.played.lines(r.wall_seconds));
    } else {
        let _ = writeln!(
            s,
            "- This run: {:.1} s wall (no ladder games)",
            r.wall_seconds
        );
    }
    if !r.build.is_empty() {
        let _ = writeln!(s, "- Build: {}", r.build);
    }
    let _ = writeln!(s, "- Reproduce: `{}`\n", r.command);
    let _ = writeln!(
        s,
        "Ranked by balance (1 = even), then decisiveness (share of games with a winner), then length. Exact rows are the value under optimal play (no interval; length = plies to the end, 0 for a draw); ladder rows are self-play at the strongest engine with 95 % intervals (bootstrap for balance and length, Wilson for decisiveness). Exact and ladder figures measure different things: a draw under optimal play can be decisive between fallible engines.\n"
    );
    type X<'a> = (usize, &'a ExploreRow);
    let exact = |x: &X| x.1.method == Method::Exact;
    let mut columns = vec![Column::markdown("rank", |x: &X| (x.0 + 1).to_string()).right()];
    for (k, g) in r.grid.iter().enumerate() {
        columns.push(Column::markdown(g.key.clone(), move |x: &X| {
            x.1.values.get(k).cloned().unwrap_or_default()
        }));
    }
    let s0 = &r.side_names[0];
    columns.extend([
        Column::markdown("method", move |x: &X| {
            if exact(x) { "exact" } else { "ladder" }.to_string()
        }),
        Column::markdown("balance", move |x: &X| iv(&x.1.balance, exact(x), 2)),
        Column::markdown("decisiveness", move |x: &X| {
            iv(&x.1.decisiveness, exact(x), 2)
        }),
        Column::markdown("length (plies)", move |x: &X| iv(&x.1.length, exact(x), 1)),
        Column::markdown(format!("{s0} score"), move |x: &X| {
            iv(&x.1.score0, exact(x), 2)
        }),
        Column::markdown(format!("exact value for {s0}"), |x: &X| {
            x.1.exact_value.as_deref().unwrap_or("–").to_string()
        }),
        Column::markdown("notes", move |x: &X| {
            if exact(x) {
                format!("{} symmetry classes, tables {}", x.1.size, x.1.detail)
            } else {
                format!("{}; report {}/ladder.md", x.1.note, x.1.detail)
            }
        }),
    ]);
    let rows: Vec<X> = r.rows.iter().enumerate().collect();
    s.push_str(&markdown_table(&columns, &rows));
    let _ = writeln!(s, "\n## Heatmaps (balance)\n");
    for (a, b) in pairs(r.grid.len()) {
        let _ = writeln!(
            s,
            "![{} x {}]({})\n",
            r.grid[a].key,
            r.grid[b].key,
            heatmap_name(&r.grid[a].key, &r.grid[b].key)
        );
    }
    let _ = writeln!(s, "Data: `explore.csv`, `explore.json`.");
    s
}

fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}

fn heatmap_name(a: &str, b: &str) -> String {
    format!("heatmap-{}-{}.svg", safe_name(a), safe_name(b))
}

/// `explore.csv`: one row per variant.
pub(crate) fn explore_csv(r: &ExploreReport) -> Result<String> {
    type R<'a> = (usize, &'a ExploreRow);
    let mut columns = vec![Column::one("rank", |x: &R| (x.0 + 1).to_string())];
    for (k, g) in r.grid.iter().enumerate() {
        columns.push(Column::one(g.key.as_str(), move |x: &R| {
            x.1.values[k].clone()
        }));
    }
    columns.extend([
        Column::one("rules", |x: &R| x.1.rules.clone()),
        Column::one("method", |x: &R| {
            match x.1.method {
                Method::Exact => "exact",
                Method::Ladder => "ladder",
            }
            .to_string()
        }),
        Column::interval("balance", |x: &R| &x.1.balance),
        Column::interval("decisiveness", |x: &R| &x.1.decisiveness),
        Column::interval("length", |x: &R| &x.1.length),
        Column::interval("side0_score", |x: &R| &x.1.score0),
        Column::one("exact_value_side0", |x: &R| {
            x.1.exact_value.clone().unwrap_or_default()
        }),
        Column::one("size", |x: &R| x.1.size.to_string()),
        Column::one("plan_memory_bytes", |x: &R| x.1.plan_memory.to_string()),
        Column::one("detail", |x: &R| x.1.detail.clone()),
    ]);
    let rows: Vec<R> = r.rows.iter().enumerate().collect();
    csv_table(&columns, &rows)
}

/// A heatmap of balance over options `a` × `b` (mean over the other option).
fn heatmap(path: &Path, r: &ExploreReport, a: usize, b: usize) -> Result<()> {
    let (ga, gb) = (&r.grid[a], &r.grid[b]);
    let (na, nb) = (ga.values.len(), gb.values.len());
    let mut sum = vec![vec![(0.0f64, 0usize, String::new()); nb]; na];
    for x in &r.rows {
        let (Some(i), Some(j)) = (
            ga.values.iter().position(|v| *v == x.values[a]),
            gb.values.iter().position(|v| *v == x.values[b]),
        ) else {
            continue;
        };
        sum[i][j].0 += x.balance.estimate;
        sum[i][j].1 += 1;
        let tag = if x.method == Method::Exact { "E" } else { "L" };
        if !sum[i][j].2.contains(tag) {
            sum[i][j].2.push_str(tag);
        }
    }
    write_svg(
        path,
        (160 + 110 * nb as u32, 140 + 60 * na as u32),
        |root| {
            root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    format!("Balance: {} x {} (E exact, L ladder)", ga.key, gb.key),
                    ("sans-serif", 18),
                )
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(90)
                .build_cartesian_2d(0f64..nb as f64, 0f64..na as f64)
                .map_err(|e| plot_err(path, e))?;
            let (xa, xb) = (gb.values.clone(), ga.values.clone());
            chart
                .configure_mesh()
                .disable_mesh()
                .label_style(("sans-serif", 13))
                .axis_desc_style(("sans-serif", 14))
                .x_labels(nb * 2 + 1)
                .y_labels(na * 2 + 1)
                .x_label_formatter(&|x| {
                    let k = x - 0.5;
                    if (k - k.round()).abs() < 1e-6 && k >= 0.0 && (k as usize) < xa.len() {
                        xa[k as usize].clone()
                    } else {
                        String::new()
                    }
                })
                .y_label_formatter(&|y| {
                    let k = y - 0.5;
                    if (k - k.round()).abs() < 1e-6 && k >= 0.0 && (k as usize) < xb.len() {
                        xb[k as usize].clone()
                    } else {
                        String::new()
                    }
                })
                .x_desc(gb.key.as_str())
                .y_desc(ga.key.as_str())
                .draw()
                .map_err(|e| plot_err(path, e))?;
            for (i, row) in sum.iter().enumerate() {
                for (j, (total, n, tag)) in row.iter().enumerate() {
                    let (x0, y0) = (j as f64, i as f64);
                    if *n == 0 {
                        continue;
                    }
                    let v = total / *n as f64;
                    // White (0, unbalanced) to blue (1, balanced).
                    let c = RGBColor(
                        (255.0 - 224.0 * v) as u8,
                        (255.0 - 136.0 * v) as u8,
                        (255.0 - 75.0 * v) as u8,
                    );
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                            c.filled(),
                        )))
                        .map_err(|e| plot_err(path, e))?;
                    chart
                        .draw_series(std::iter::once(Text::new(
                            format!("{v:.2} {tag}"),
                            (x0 + 0.3, y0 + 0.6),
                            ("sans-serif", 14),
                        )))
                        .map_err(|e| plot_err(path, e))?;
                }
            }
            root.present().map_err(|e| plot_err(path, e))?;
            Ok(())
        },
    )
}

/// Writes the exploration files into `dir`; returns their paths.
pub fn write_explore(dir: &Path, r: &ExploreReport) -> Result<Vec<PathBuf>> {
    let mut files = ReportDir::create(dir)?;
    files.text("explore.md", &explore_markdown(r))?;
    files.text("explore.csv", &explore_csv(r)?)?;
    files.json("explore.json", r)?;
    for (a, b) in pairs(r.grid.len()) {
        let name = heatmap_name(&r.grid[a].key, &r.grid[b].key);
        files.svg(&name, |p| heatmap(p, r, a, b))?;
    }
    Ok(files.files())
}
