//! `huntsolve measures --tables DIR [--tables DIR ...] [--json | --csv | --map]
//! [--line-limit N]`: the perfect-play measures of one or more solved readings
//! side by side (value and length from the start, won/lost/drawn shares, how
//! forgiving the opening and the principal line are, the only moves), as a
//! Markdown table, CSV or JSON; `--map`: how the value moves from one reading
//! to the next (the options they differ in, where the winner changes).

use super::args::Json;
use super::job::{dispatch, TierJob};
use super::out;
use huntsolve::retro::TierGame;
use huntsolve::stats::{
    measures_csv, measures_map, measures_markdown, perfect_measures, PerfectMeasures,
};
use huntsolve::{Error, Result};
use std::path::PathBuf;

/// Arguments of `measures`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// A directory of a reading solved whole from its start (repeat for more readings).
    #[arg(long, value_name = "DIR", required = true)]
    tables: Vec<PathBuf>,
    /// Plies at most of the principal line (it also ends when the game does or a
    /// position repeats).
    #[arg(long, default_value_t = 1000, value_parser = super::args::whole::<u64>(1, 1_000_000, "plies"))]
    line_limit: u64,
    /// CSV instead of the Markdown table (one row a reading).
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// The readings as a map, in the order given: a column per option in
    /// which they differ, and where the winner changes from one to the next
    /// (give a game's readings with 1, 2, 3, ... prey for its fewer-pieces map).
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    map: bool,
    #[command(flatten)]
    pub(crate) json: Json,
}

/// Runs `measures`.
pub(crate) fn run(args: Args) -> Result<()> {
    let mut rows = Vec::new();
    for dir in &args.tables {
        let rules = huntsolve::table::rules_of_dir(dir)?;
        let any = huntsolve::AnyGame::parse(&rules)?;
        rows.push(dispatch(
            &any,
            Measure {
                dir,
                limit: args.line_limit as usize,
            },
        )?);
    }
    if args.json.json {
        let s = serde_json::to_string_pretty(&rows)
            .map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::println(&s)
    } else if args.csv {
        out::print(&measures_csv(&rows)?)
    } else if args.map {
        out::print(&measures_map(&rows))
    } else {
        out::print(&measures_markdown(&rows))
    }
}

struct Measure<'a> {
    dir: &'a PathBuf,
    limit: usize,
}

impl TierJob for Measure<'_> {
    type Out = PerfectMeasures;
    fn run<G: TierGame + huntsolve::Evaluate>(self, game: &G) -> Result<PerfectMeasures> {
        perfect_measures(game, self.dir, self.limit, &out::Bars::new())
    }
}
