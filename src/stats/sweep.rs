//! Exact sweeps: solve a family of variants that differ in one integer option
//! and tabulate the start value and key statistics per variant.
//!
//! The parameter is written `KEY=V1..V2`, optionally with a text prefix before
//! the range (`hunter_win=captures>=1..20` gives `hunter_win=captures>=1`, …,
//! `hunter_win=captures>=20`). Each variant is the base rules string with
//! `,KEY=VALUE` appended.
//!
//! Files written by [`write_sweep`]: `sweep.md`, `sweep.csv`, `sweep.json`,
//! `sweep_value.svg` (start value per parameter value, for side 0) and
//! `sweep_size.svg` (reachable positions and start distance).

use crate::error::{Error, Result};
use crate::game::{Game, Value};
use crate::progress::Progress;
use crate::stats::exact::{self, ExactSolution};
use crate::stats::plot;
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
            Error::Input(format!(
                "--param '{text}': {why}; expected KEY=V1..V2, e.g. hunter_win=1..20 or hunter_win=captures>=1..20"
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
    pub fn option(&self, v: i64) -> String {
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
    /// Names of side 0 and 1.
    pub side_names: [String; 2],
    /// Start value for side 0.
    #[serde(with = "crate::stats::exact::value_text")]
    pub value_side0: Value,
    /// Full solution.
    pub solution: ExactSolution,
    /// Seconds to solve.
    pub seconds: f64,
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
    /// One row per parameter value.
    pub rows: Vec<SweepRow>,
    /// Wall time in seconds.
    pub wall_seconds: f64,
}

fn solve_one<G: Game>(
    spec: &str,
    value: i64,
    game: &G,
    max_positions: usize,
    progress: &dyn Progress,
) -> Result<SweepRow> {
    let t = Instant::now();
    let solution = exact::solve_reachable(game, max_positions, progress)?;
    Ok(SweepRow {
        value,
        rules: spec.to_string(),
        canonical: game.rules_string(),
        side_names: [game.side_name(0).into(), game.side_name(1).into()],
        value_side0: solution.value_for(0),
        solution,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// Solves every variant of the sweep with the in-memory reachable-graph
/// solver ([`exact::solve_reachable`]), refusing variants with more than
/// `max_positions` reachable positions.
pub fn run_sweep(
    base: &str,
    param: &SweepParam,
    max_positions: usize,
    command: &str,
    progress: &dyn Progress,
) -> Result<SweepReport> {
    let started = Instant::now();
    // Parse every variant first so that a bad value fails before any solving.
    let specs: Vec<(i64, String)> = (param.from..=param.to)
        .map(|v| (v, format!("{base},{}", param.option(v))))
        .collect();
    let games: Vec<AnyGame> = specs
        .iter()
        .map(|(_, s)| AnyGame::parse(s))
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for ((v, spec), any) in specs.iter().zip(&games) {
        progress.message(spec);
        rows.push(crate::with_game!(any, g => solve_one(spec, *v, g, max_positions, progress))?);
    }
    Ok(SweepReport {
        base: base.to_string(),
        param: param.clone(),
        solver: format!("reachable-graph retrograde analysis in memory (stats::exact), limit {max_positions} positions"),
        command: command.to_string(),
        rows,
        wall_seconds: started.elapsed().as_secs_f64(),
    })
}

fn score(v: Value) -> f64 {
    match v {
        Value::Win => 1.0,
        Value::Draw => 0.0,
        Value::Loss => -1.0,
    }
}

/// The Markdown table of a sweep.
pub fn sweep_markdown(r: &SweepReport) -> String {
    let mut s = String::new();
    let side0 = r
        .rows
        .first()
        .map_or("side 0".to_string(), |x| x.side_names[0].clone());
    let _ = writeln!(
        s,
        "# Exact sweep: {} with {}\n",
        r.base,
        r.param.option(r.param.from).replace(
            &r.param.from.to_string(),
            &format!("{}..{}", r.param.from, r.param.to)
        )
    );
    let _ = writeln!(s, "- Solver: {}", r.solver);
    let _ = writeln!(s, "- Time: {:.1} s wall", r.wall_seconds);
    let _ = writeln!(s, "- Reproduce: `{}`\n", r.command);
    let _ = writeln!(
        s,
        "| {} | start value for {side0} | first mover | distance (plies) | reachable positions | moves | terminal | won / lost / drawn for the side to move | longest distance | seconds |",
        r.param.key
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for row in &r.rows {
        let x = &row.solution;
        let _ = writeln!(
            s,
            "| {}{} | **{}** | {} | {} | {} | {} | {} | {} / {} / {} | {} | {:.2} |",
            r.param.prefix,
            row.value,
            row.value_side0,
            row.side_names[x.start_side as usize],
            x.start_distance,
            x.positions,
            x.moves,
            x.terminal,
            x.wins,
            x.losses,
            x.draws,
            x.max_distance,
            row.seconds
        );
    }
    let wins: Vec<i64> = r
        .rows
        .iter()
        .filter(|x| x.value_side0 == Value::Win)
        .map(|x| x.value)
        .collect();
    let _ = writeln!(s);
    if let Some(best) = wins.iter().max() {
        let _ = writeln!(
            s,
            "{side0} wins the start for {} = {} (largest value won: {best}).",
            r.param.key,
            wins.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    } else {
        let _ = writeln!(
            s,
            "{side0} wins the start for no value of {} in the range.",
            r.param.key
        );
    }
    let _ = writeln!(
        s,
        "\n![start value](sweep_value.svg)\n\n![size](sweep_size.svg)"
    );
    s
}

/// Writes the sweep files into `dir`; returns their paths.
pub fn write_sweep(dir: &Path, r: &SweepReport) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let write = |name: &str, text: &str| -> Result<PathBuf> {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| Error::io(format!("writing {}", p.display()), e))?;
        Ok(p)
    };
    let mut files = vec![write("sweep.md", &sweep_markdown(r))?];
    let mut csv = String::from("value,rules,fingerprint_rules,start_side,start_value_side0,start_distance,positions,moves,terminal,wins,losses,draws,max_distance,seconds\n");
    for row in &r.rows {
        let x = &row.solution;
        let _ = writeln!(
            csv,
            "{},\"{}\",\"{}\",{},{},{},{},{},{},{},{},{},{},{:.3}",
            row.value,
            row.rules.replace('"', "\"\""),
            row.canonical.replace('"', "\"\""),
            x.start_side,
            row.value_side0,
            x.start_distance,
            x.positions,
            x.moves,
            x.terminal,
            x.wins,
            x.losses,
            x.draws,
            x.max_distance,
            row.seconds
        );
    }
    files.push(write("sweep.csv", &csv)?);
    let json = serde_json::to_string_pretty(r)
        .map_err(|e| Error::Other(format!("encoding sweep.json: {e}")))?;
    files.push(write("sweep.json", &json)?);
    let side0 = r
        .rows
        .first()
        .map_or("side 0".to_string(), |x| x.side_names[0].clone());
    let vp = dir.join("sweep_value.svg");
    plot::sweep_lines(
        &vp,
        &format!("Start value for {side0}: {}", r.base),
        &r.param.key,
        "1 win, 0 draw, -1 loss",
        &[(
            format!("value for {side0}"),
            r.rows
                .iter()
                .map(|x| (x.value as f64, score(x.value_side0)))
                .collect(),
        )],
    )?;
    files.push(vp);
    let sp = dir.join("sweep_size.svg");
    plot::sweep_lines(
        &sp,
        &format!("Game size: {}", r.base),
        &r.param.key,
        "log10",
        &[
            (
                "log10 reachable positions".into(),
                r.rows
                    .iter()
                    .map(|x| (x.value as f64, (x.solution.positions as f64).log10()))
                    .collect(),
            ),
            (
                "log10 (1 + start distance)".into(),
                r.rows
                    .iter()
                    .map(|x| {
                        (
                            x.value as f64,
                            (1.0 + x.solution.start_distance as f64).log10(),
                        )
                    })
                    .collect(),
            ),
        ],
    )?;
    files.push(sp);
    Ok(files)
}
