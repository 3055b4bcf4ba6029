//! `huntsolve verify --tables DIR [--rules R] [--json] [--threads T]`: re-derives
//! every stored value from its children; exit status 0 only when all agree.
// Until a family implements TierGame, `verify::dispatch` refuses every game and
// the generic code below is unreachable; remove this when the first arm is enabled.
#![allow(dead_code)]

use super::out;
use huntsolve::retro::TierGame;
use huntsolve::table::{rules_of_dir, verify_dir, VerifyReport};
use huntsolve::{AnyGame, Error, Result};
use std::path::PathBuf;

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory holding the solved tables.
    #[arg(long)]
    tables: PathBuf,
    /// Rules the tables must belong to (default: the rules in their headers).
    #[arg(long)]
    rules: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// Work that needs a game with tiers (verify, analyze, query): one generic method,
/// so a single [`dispatch`] decides which families are supported.
pub(crate) trait TierJob {
    /// What the job returns.
    type Out;
    /// Runs the job on a concrete game.
    fn run<G: TierGame>(self, game: &G) -> Result<Self::Out>;
}

/// Runs `job` on the game inside `any`.
///
/// `with_game!` cannot be used while a family lacks [`TierGame`]: the generic call
/// would not compile. Each family gets its arm `AnyGame::X(g) => job.run(g)` as
/// soon as it implements [`TierGame`] (the retro branch provides them).
pub(crate) fn dispatch<J: TierJob>(any: &AnyGame, job: J) -> Result<J::Out> {
    let family = match any {
        AnyGame::Hunt(g) => return job.run(g),
        AnyGame::Tafl(_) => "tafl",
    };
    let _ = job;
    Err(Error::Other(format!(
        "tables of {family} rules are not supported by this build: the {family} family has no tier index (TierGame) yet"
    )))
}

struct Verify<'a>(&'a Args);

impl TierJob for Verify<'_> {
    type Out = VerifyReport;
    fn run<G: TierGame>(self, game: &G) -> Result<VerifyReport> {
        verify_dir(game, &self.0.tables, &out::Bars::new())
    }
}

/// Runs `verify`.
pub fn run(args: Args) -> Result<()> {
    super::analyze::set_threads(args.threads)?;
    let rules = match &args.rules {
        Some(r) => r.clone(),
        None => rules_of_dir(&args.tables)?,
    };
    let any = AnyGame::parse(&rules)?;
    let report = dispatch(&any, Verify(&args))?;
    if args.json {
        let s = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::Other(format!("JSON: {e}")))?;
        out::println(&s)?;
    } else {
        out::print(&text(&report))?;
    }
    if report.all_agree() {
        Ok(())
    } else {
        Err(Error::Other(format!(
            "verify: {} of {} positions disagree with their children",
            report.mismatches, report.positions
        )))
    }
}

fn text(r: &VerifyReport) -> String {
    let mut s = format!("rules {}\n", r.rules);
    s.push_str(&format!(
        "{:<14} {:>12} {:>12} {:>10} {:>9} {:>12}\n",
        "tier", "slots", "positions", "mismatches", "seconds", "positions/s"
    ));
    for t in &r.tiers {
        s.push_str(&format!(
            "{:<14} {:>12} {:>12} {:>10} {:>9.2} {:>12.0}\n",
            t.tier,
            t.records,
            t.positions,
            t.mismatches,
            t.seconds,
            t.positions as f64 / t.seconds.max(1e-9)
        ));
    }
    for m in &r.examples {
        s.push_str(&format!(
            "MISMATCH tier {} slot {} {}: stored {}, children say {}\n",
            m.tier,
            m.index,
            m.position.as_deref().unwrap_or("(no position)"),
            m.stored,
            m.derived
        ));
    }
    if r.all_agree() {
        s.push_str(&format!(
            "all {} positions in {} tables agree with their children\n",
            r.positions,
            r.tiers.len()
        ));
    }
    s
}
