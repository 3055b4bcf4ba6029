//! `huntsolve analyze --tables DIR [--rules R] [--top N] [--json] [--by-side]
//! [--threads T]`: outcome counts and distance histograms per tier, and the
//! longest wins with example positions; with `--by-side` also the counts split
//! by the side to move (slower: every position is unranked).

use super::args::{Json, SolvedTables, Threads};
use super::job::{dispatch, set_threads, TierJob};
use super::out;
use huntsolve::retro::TierGame;
use huntsolve::table::AnalyzeReport;
use huntsolve::table::{analyze_dir_with, AnalyzeOptions};
use huntsolve::{Error, Result};

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    tables: SolvedTables,
    /// How many of the longest wins to show with their positions.
    #[arg(long, default_value_t = 5, value_parser = super::args::whole::<u64>(0, 10_000, "positions"))]
    top: u64,
    #[command(flatten)]
    pub(crate) json: Json,
    /// Also split the counts by side to move, per tier and in total (unranks every
    /// position, so much slower than the default statistics).
    #[arg(long)]
    by_side: bool,
    #[command(flatten)]
    threads: Threads,
}

/// Runs `analyze`.
pub(crate) fn run(args: Args) -> Result<()> {
    set_threads(args.threads.threads)?;
    let any = args.tables.game()?;
    let report = dispatch(&any, Analyze(&args))?;
    if args.json.json {
        let s = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::println(&s)
    } else {
        out::print(&report.to_text())
    }
}

struct Analyze<'a>(&'a Args);

impl TierJob for Analyze<'_> {
    type Out = AnalyzeReport;
    fn run<G: TierGame + huntsolve::Evaluate>(self, game: &G) -> Result<AnalyzeReport> {
        let opts = AnalyzeOptions {
            top: self.0.top as usize,
            by_side: self.0.by_side,
        };
        analyze_dir_with(game, &self.0.tables.tables, &opts, &out::Bars::new())
    }
}
