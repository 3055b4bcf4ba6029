//! `huntsolve check RULES`: the engine's self-test before a long solve (the
//! board's tables and symmetries, moves against un-moves, the tier index, the
//! solver's fast paths, the piece counts, a perft from the start). One line per
//! check, `ok` or `FAILED` with its first failing case; exit 0 when all agree,
//! 1 when a check disagrees, 2 for bad rules or a board file the loader refuses.
//! The hidden `--fault NAME` injects a deliberate fault ([`huntsolve::Fault`]),
//! for the checker's own tests: each must make a check fail.

use super::args::Json;
use super::out;
use huntsolve::{
    check_rules, AnyGame, CheckOptions, CheckReport, CheckStatus, Error, Fault, Result,
};

/// Arguments of `check`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: `preset[,key=value...]` (see `huntsolve presets`); `board=PATH` reads a board file.
    rules: String,
    /// Positions checked per tier: a tier of at most N slots is checked whole, a
    /// larger one at N slots drawn at random.
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = super::args::whole::<u64>(1, 1_000_000_000, "positions"))]
    samples: u64,
    /// Seed of the random draws.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    seed: u64,
    /// Perft from the start to this depth (every depth from 1 is printed).
    #[arg(long, default_value_t = 4, value_name = "PLIES", value_parser = super::args::whole::<u32>(0, 12, "plies"))]
    depth: u32,
    /// An expected perft count, `D=N` (e.g. from Ludii or a paper); repeatable.
    #[arg(long = "perft", value_name = "D=N", value_parser = expected)]
    expected: Vec<(u32, u64)>,
    #[command(flatten)]
    pub(crate) json: Json,
    /// A deliberate fault to inject (the checker's own test).
    #[arg(long, hide = true)]
    fault: Option<String>,
}

/// Parses `D=N`.
fn expected(text: &str) -> std::result::Result<(u32, u64), String> {
    let bad = || {
        format!(
            "expected D=N, a depth of 1 to 12 and a leaf count of 0 to 2^64 - 1 (e.g. 3=720), not {}",
            huntsolve::quote(text)
        )
    };
    let (d, n) = text.split_once('=').ok_or_else(bad)?;
    let d: u32 = d.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if !(1..=12).contains(&d) {
        return Err(bad());
    }
    Ok((d, n))
}

/// Runs `check`.
pub(crate) fn run(args: Args) -> Result<()> {
    let fault = args.fault.as_deref().map(Fault::parse).transpose()?;
    let game = AnyGame::parse(&args.rules)?;
    let opts = CheckOptions {
        samples: args.samples,
        seed: args.seed,
        depth: args.depth,
        expected: args.expected.clone(),
        fault,
    };
    let report = check_rules(&game, &opts, &out::Bars::new())?;
    out::print_check_report(args.json.json, &report, text)?;
    let failed = report.failed();
    if failed.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = failed.iter().map(|c| c.name).collect();
    Err(Error::Disagreement(format!(
        "check: {} of {} checks FAILED ({}); the first failing case of each is above",
        failed.len(),
        report.checks.len(),
        names.join(", ")
    )))
}

fn text(r: &CheckReport) -> String {
    let mut s = format!("rules     {}\n", r.rules);
    s.push_str(&format!(
        "tiers     {} reached from the start, {} checked whole, the others sampled; {} positions\n",
        r.tiers, r.tiers_whole, r.positions
    ));
    for p in &r.perft {
        let want = match p.expected {
            Some(e) if e == p.leaves => " (as expected)".to_string(),
            Some(e) => format!(" (expected {e})"),
            None => String::new(),
        };
        s.push_str(&format!("perft {:<3} {}{want}\n", p.depth, p.leaves));
    }
    s.push_str(&format!(
        "\n{:<9} {:<16} {:>10}  {}\n",
        "check", "result", "cases", "what"
    ));
    for c in &r.checks {
        let result = match c.status {
            CheckStatus::Failed | CheckStatus::Warning => {
                format!("{} {}", c.status.word(), c.failures)
            }
            _ => c.status.word().to_string(),
        };
        s.push_str(&format!(
            "{:<9} {:<16} {:>10}  {}\n",
            c.name, result, c.cases, c.what
        ));
        if let Some(first) = &c.first {
            let label = if c.status == CheckStatus::Warning {
                "first"
            } else {
                "first failure"
            };
            s.push_str(&format!("{:<9} {label}: {first}\n", ""));
        }
        if let Some(note) = &c.note {
            s.push_str(&format!("{:<9} note: {note}\n", ""));
        }
    }
    s
}
