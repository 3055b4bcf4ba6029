//! `huntsolve analyze --tables DIR [--rules R] [--top N] [--json]`: outcome counts
//! and distance histograms per tier, and the longest wins with example positions.
// Until a family implements TierGame, `verify::dispatch` refuses every game and
// the generic code below is unreachable; remove this when the first arm is enabled.
#![allow(dead_code)]

use super::out;
use huntsolve::retro::TierGame;
use huntsolve::table::{analyze_dir, rules_of_dir, AnalyzeReport};
use huntsolve::{AnyGame, Error, Result};
use std::path::PathBuf;

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory holding the solved tables.
    #[arg(long)]
    tables: PathBuf,
    /// Rules the tables must belong to (default: the rules in their headers).
    #[arg(long)]
    rules: Option<String>,
    /// How many of the longest wins to show with their positions.
    #[arg(long, default_value_t = 5)]
    top: usize,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Sets the size of rayon's global pool (verify, analyze).
pub(crate) fn set_threads(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::Input("--threads must be at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| Error::Other(format!("cannot set up {n} threads: {e}")))?;
    }
    Ok(())
}

/// Runs `analyze`.
pub fn run(args: Args) -> Result<()> {
    let rules = match &args.rules {
        Some(r) => r.clone(),
        None => rules_of_dir(&args.tables)?,
    };
    let any = AnyGame::parse(&rules)?;
    let report = super::verify::dispatch(&any, Analyze(&args))?;
    if args.json {
        let s = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::Other(format!("JSON: {e}")))?;
        out::println(&s)
    } else {
        out::print(&report.to_text())
    }
}

struct Analyze<'a>(&'a Args);

impl super::verify::TierJob for Analyze<'_> {
    type Out = AnalyzeReport;
    fn run<G: TierGame>(self, game: &G) -> Result<AnalyzeReport> {
        analyze_dir(game, &self.0.tables, self.0.top, &out::Bars::new())
    }
}
