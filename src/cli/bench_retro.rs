//! `huntsolve bench --retro RULES --tiers T,... --tables DIR`: the tier solver
//! timed against the previous one in one run (see `huntsolve::retro::bench`).

use super::bench::Args;
use super::out::println;
use huntsolve::retro::Solvable;
use huntsolve::retro::{bench_tiers, BenchReport, Solver};
use huntsolve::{AnyGame, Error, Result};
use std::path::Path;

/// Runs `bench --retro`.
pub(crate) fn run(args: &Args, rules: &str, progress: &dyn huntsolve::Progress) -> Result<()> {
    let tiers = args.tiers.as_deref().ok_or_else(|| {
        Error::Usage("--retro needs --tiers T1,T2,... (children first), e.g. --tiers h0p1c2".into())
    })?;
    let dir = args.tables.as_deref().unwrap_or(Path::new("tables"));
    let threads = args
        .threads
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut counts = vec![1];
    if threads > 1 {
        counts.push(threads);
    }
    let mut runs = Vec::new();
    for &t in &counts {
        if !args.no_baseline {
            runs.push((Solver::Reference, t));
        }
        runs.push((Solver::Current, t));
        if args.compact {
            runs.push((Solver::Compact, t));
            runs.push((Solver::Counted, t));
        }
        if let Some(parts) = args.out_of_core {
            if !args.compact {
                runs.push((Solver::Counted, t));
            }
            runs.push((Solver::OutOfCore(parts), t));
        }
        if !args.split.is_empty() && !args.compact && args.out_of_core.is_none() {
            runs.push((Solver::Counted, t));
        }
        for &parts in &args.split {
            runs.push((Solver::Split(parts), t));
        }
    }
    let game = AnyGame::parse(rules)?;
    let report = huntsolve::with_game!(&game, g => bench_game(g, tiers, dir, &runs, progress))?;
    if args.json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::Internal(format!("encoding the report: {e}")))?;
        return println(&text);
    }
    print_report(&report, &counts, !args.no_baseline, args.compact)
}

fn bench_game<G: Solvable>(
    g: &G,
    tiers: &str,
    dir: &Path,
    runs: &[(Solver, usize)],
    progress: &dyn huntsolve::Progress,
) -> Result<BenchReport> {
    let list = tiers
        .split(',')
        .map(|s| g.parse_tier(s.trim()))
        .collect::<Result<Vec<_>>>()?;
    bench_tiers(g, dir, &list, runs, progress)
}

fn print_report(r: &BenchReport, counts: &[usize], baseline: bool, compact: bool) -> Result<()> {
    println(&format!("retrograde solver benchmark: {}", r.rules))?;
    println(&format!(
        "{:<10} {:<11} {:>7} {:>13} {:>9} {:>9} {:>13}",
        "tier", "solver", "threads", "slots", "wall s", "cpu s", "slots/s"
    ))?;
    for x in &r.runs {
        println(&format!(
            "{:<10} {:<11} {:>7} {:>13} {:>9.2} {:>9} {:>13.0}",
            x.tier,
            x.solver.name(),
            x.threads,
            x.slots,
            x.seconds,
            x.cpu_seconds.map_or("-".into(), |c| format!("{c:.2}")),
            x.slots_per_second
        ))?;
    }
    let total = |s: Solver, t: usize| -> (u64, f64, Option<f64>) {
        let rows = r.runs.iter().filter(|x| x.solver == s && x.threads == t);
        rows.fold((0, 0.0, Some(0.0)), |(n, w, c), x| {
            (
                n + x.slots,
                w + x.seconds,
                c.zip(x.cpu_seconds).map(|(a, b)| a + b),
            )
        })
    };
    println("totals:")?;
    for &t in counts {
        for s in [
            Solver::Reference,
            Solver::Current,
            Solver::Compact,
            Solver::Counted,
        ] {
            let compacts = s == Solver::Compact || s == Solver::Counted;
            if (s == Solver::Reference && !baseline) || (compacts && !compact) {
                continue;
            }
            let (n, w, c) = total(s, t);
            println(&format!(
                "  {:<10} {} thread(s): {n} slots in {w:.2} s wall{}, {:.0} slots/s, {:.0} slots/s per thread",
                s.name(),
                t,
                c.map_or(String::new(), |c| format!(" ({c:.2} s CPU)")),
                n as f64 / w.max(1e-9),
                n as f64 / w.max(1e-9) / t as f64
            ))?;
        }
    }
    let compacts: &[Solver] = if compact {
        &[Solver::Compact, Solver::Counted]
    } else {
        &[]
    };
    let compacts = compacts.iter().copied();
    let rate = |s: Solver, t: usize| {
        let (n, w, _) = total(s, t);
        n as f64 / w.max(1e-9)
    };
    if baseline {
        println(&format!(
            "current / reference, 1 thread: {:.2}x",
            rate(Solver::Current, 1) / rate(Solver::Reference, 1)
        ))?;
        for s in compacts.clone() {
            println(&format!(
                "{} / reference, 1 thread: {:.2}x",
                s.name(),
                rate(s, 1) / rate(Solver::Reference, 1)
            ))?;
        }
    }
    if let Some(&t) = counts.get(1) {
        let (_, w, c) = total(Solver::Current, t);
        println(&format!(
            "current, {t} threads / 1 thread: {:.2}x{}",
            rate(Solver::Current, t) / rate(Solver::Current, 1),
            parallelism_text(w, c, t)
        ))?;
        if baseline {
            println(&format!(
                "current {t} threads / reference {t} threads: {:.2}x",
                rate(Solver::Current, t) / rate(Solver::Reference, t)
            ))?;
        }
        for s in compacts.clone() {
            let (_, w, c) = total(s, t);
            println(&format!(
                "{}, {t} threads / 1 thread: {:.2}x{}",
                s.name(),
                rate(s, t) / rate(s, 1),
                parallelism_text(w, c, t)
            ))?;
            if baseline {
                println(&format!(
                    "{} {t} threads / reference {t} threads: {:.2}x",
                    s.name(),
                    rate(s, t) / rate(Solver::Reference, t)
                ))?;
            }
        }
    }
    for x in r
        .runs
        .iter()
        .filter(|x| matches!(x.solver, Solver::OutOfCore(_) | Solver::Split(_)))
    {
        let Some(m) = r
            .runs
            .iter()
            .find(|m| m.solver == Solver::Counted && m.tier == x.tier && m.threads == x.threads)
        else {
            continue;
        };
        if let (Solver::Split(parts), Some(sent)) = (x.solver, x.sent_bytes) {
            println(&format!(
                "{} split in {parts} parts, {} thread(s): {:.2}x the counted compact solver's wall time in memory, {:.2}x its CPU time, {sent} bytes sent between parts ({:.2} a slot)",
                x.tier,
                x.threads,
                x.seconds / m.seconds.max(1e-9),
                x.cpu_seconds.zip(m.cpu_seconds).map_or(f64::NAN, |(a, b)| a / b.max(1e-9)),
                sent as f64 / x.slots.max(1) as f64
            ))?;
            continue;
        }
        let disk = x.disk_bytes.unwrap_or(0);
        println(&format!(
            "{} {}, {} thread(s): {:.2}x the counted compact solver's wall time in memory, {disk} bytes written to disk ({:.1} a slot)",
            x.tier,
            x.solver.name(),
            x.threads,
            x.seconds / m.seconds.max(1e-9),
            disk as f64 / x.slots.max(1) as f64
        ))?;
    }
    if !r.checked_against_tables.is_empty() {
        println(&format!(
            "records identical across all runs and equal to the tables of: {}",
            r.checked_against_tables.join(", ")
        ))?;
    } else {
        println("records identical across all runs (no table of these tiers to compare with)")?;
    }
    Ok(())
}

/// How busy the threads were: the run's CPU time over its wall time, the
/// average number of cores at work. Only said when the CPU time is long enough
/// to measure (it is counted in 1/100 s ticks; a run of a few milliseconds
/// gave "wall = 715562.00 x CPU time").
fn parallelism_text(wall: f64, cpu: Option<f64>, threads: usize) -> String {
    match cpu {
        Some(c) if c >= MIN_CPU_SECONDS && wall > 0.0 => format!(
            " (CPU time {c:.2} s = {:.2} x wall: on average {:.2} of {threads} threads busy)",
            c / wall,
            c / wall
        ),
        Some(c) => format!(
            " (CPU time {c:.2} s: too short to compare with the wall time; time tiers of at least {MIN_CPU_SECONDS} s)"
        ),
        None => String::new(),
    }
}

/// Shortest CPU time whose ratio to the wall time is reported (100 ticks).
const MIN_CPU_SECONDS: f64 = 1.0;
