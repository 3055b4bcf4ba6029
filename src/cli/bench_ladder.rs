//! `huntsolve bench --ladder RULES [--engines LIST] [--games N]`: the speed of
//! each ladder rung in games/s on one thread (see `huntsolve::stats::speed`).

use super::bench::Args;
use super::out::println;
use huntsolve::stats::EngineSpec;
use huntsolve::stats::{bench_rungs, SpeedReport};
use huntsolve::{AnyGame, Error, Result};

/// Games per rung of the ladder the speed statement names (3 variants × 4
/// rungs × 200 games): the report gives each rung's time for this many.
const LADDER_GAMES: u64 = 200;

/// Runs `bench --ladder`.
pub(crate) fn run(args: &Args, progress: &dyn huntsolve::Progress) -> Result<()> {
    let engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|e| EngineSpec::parse(e))
        .collect::<Result<_>>()?;
    if engines.is_empty() {
        return Err(Error::Usage("--engines: give at least one rung".into()));
    }
    if args.threads.threads.is_some_and(|t| t != 1) {
        return Err(Error::Usage(
            "bench --ladder plays on one thread (games/s per thread); leave out --threads".into(),
        ));
    }
    let mut reports = Vec::new();
    for rules in &args.ladder {
        let game = AnyGame::parse(rules)?;
        let r = huntsolve::with_game!(&game, g => bench_rungs(
            g,
            &engines,
            args.games,
            args.seed,
            args.random_plies,
            progress
        ))?;
        reports.push(r);
    }
    if args.json {
        let text = serde_json::to_string_pretty(&reports)
            .map_err(|e| Error::Internal(format!("encoding the report: {e}")))?;
        return println(&text);
    }
    for r in &reports {
        print_report(r)?;
    }
    Ok(())
}

fn load(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".into(), |l| format!("{l:.2}"))
}

fn print_report(r: &SpeedReport) -> Result<()> {
    println(&format!(
        "ladder rungs: {} ({} random opening plies, seed {}, one thread)",
        r.rules, r.random_plies, r.seed
    ))?;
    println(&format!(
        "{:<24} {:>6} {:>8} {:>9} {:>9} {:>10} {:>12} {:>10} {:>9} {:>12}",
        "rung",
        "games",
        "plies",
        "wall s",
        "CPU s",
        "games/s",
        "games/CPU s",
        "plies/s",
        "ms/game",
        "load before/after"
    ))?;
    let mut total = 0.0;
    for s in &r.rungs {
        let rates = s.rates();
        println(&format!(
            "{:<24} {:>6} {:>8} {:>9.2} {:>9} {:>10.2} {:>12} {:>10.0} {:>9.1} {:>7}/{}",
            s.engine,
            s.games,
            s.plies,
            s.wall_seconds,
            s.cpu_seconds
                .map_or_else(|| "n/a".into(), |c| format!("{c:.2}")),
            rates.games_per_second,
            rates
                .games_per_cpu_second
                .map_or_else(|| "n/a".into(), |g| format!("{g:.2}")),
            rates.plies_per_second,
            1000.0 * s.wall_seconds / s.games.max(1) as f64,
            load(s.load_before),
            load(s.load_after)
        ))?;
        total += s.seconds_for(LADDER_GAMES);
    }
    println(&format!(
        "{LADDER_GAMES} games at every rung: {total:.0} s of one core at these rates (CPU time where known, wall time for time-limited rungs; a ladder of 3 such variants: {:.0} s, without --rate)",
        3.0 * total
    ))
}
