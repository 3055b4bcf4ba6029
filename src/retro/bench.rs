//! Benchmark of the tier solver: chosen tiers solved in memory (no table is
//! written) by the current solver and by the previous one
//! ([`super::reference`]), each with chosen thread counts, in one run, so
//! that speed ratios are measured under the same conditions. Every run of a
//! tier must give the same records, and the records of a table already in the
//! children's directory are compared too: a benchmark that changed an answer
//! is an error, not a figure.

use super::compact::ooc::{solve_tier_ooc, OocOptions};
use super::compact::{solve_tier_compact, CompactKind};
use super::driver::load_records;
use super::reference::solve_tier_reference;
use super::scope::Solvable;
use super::solver::{solve_tier_with, Absorb, ChildValues};
use super::split::split_tier_in_process;
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::table::table_path;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Which solver a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Solver {
    /// `reference::solve_tier_reference`, the previous solver (baseline).
    Reference,
    /// [`super::solver::solve_tier`], the current solver.
    Current,
    /// `compact::solve_tier_compact`, the one-byte-a-slot solver
    /// (`CompactKind::Plain`).
    Compact,
    /// `compact::solve_tier_compact` with counters
    /// (`CompactKind::Counted`, two bytes a slot).
    Counted,
    /// The counted compact solver out of core in this many parts on disk.
    OutOfCore(usize),
    /// The tier split on the compact encoding across this many parts, the
    /// parts threads of this process exchanging through the in-process
    /// transport (`split::Threads`), as MPI ranks would.
    Split(usize),
}

impl Solver {
    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Reference => "reference",
            Solver::Current => "current",
            Solver::Compact => "compact",
            Solver::Counted => "counted",
            Solver::OutOfCore(_) => "out-of-core",
            Solver::Split(_) => "split",
        }
    }
}

/// One timed solve of one tier.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchRun {
    /// Tier name.
    pub tier: String,
    /// Solver used.
    pub solver: Solver,
    /// Worker threads.
    pub threads: usize,
    /// Index slots of the tier.
    pub slots: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Slots per second.
    pub slots_per_second: f64,
    /// CPU seconds of the whole process during the run (user + system, from
    /// `/proc/self/stat`; `None` where that is not readable).
    pub cpu_seconds: Option<f64>,
    /// Bytes written to disk (part and update files; out of core only).
    pub disk_bytes: Option<u64>,
    /// Bytes the parts sent each other (split only).
    pub sent_bytes: Option<u64>,
}

/// CPU seconds used by this process so far (Linux: `/proc/self/stat`, in clock
/// ticks of 1/100 s, the kernel's `USER_HZ` on every Linux architecture).
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// What [`bench_tiers`] measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchReport {
    /// Rules string.
    pub rules: String,
    /// Every run, tier by tier in the order given.
    pub runs: Vec<BenchRun>,
    /// Tiers whose records were also compared with a table in the directory.
    pub checked_against_tables: Vec<String>,
}

/// Removes the part files a killed benchmark left in `dir`: `.bench-ooc-<pid>`
/// and `.bench-split-<pid>` of processes that no longer run (the out-of-core
/// solver's own files only; the split's folder is the benchmark's own).
fn remove_stale_bench_dirs(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let (ooc, pid) = match (
            name.strip_prefix(".bench-ooc-"),
            name.strip_prefix(".bench-split-"),
        ) {
            (Some(p), _) => (true, p),
            (_, Some(p)) => (false, p),
            _ => continue,
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || crate::table::lock::process_alive(pid) {
            continue;
        }
        let path = entry.path();
        if ooc {
            crate::retro::compact::ooc::remove_own(&path)?;
        } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
            std::fs::remove_dir_all(&path)
                .map_err(|e| Error::io(format!("removing {}", path.display()), e))?;
        }
    }
    Ok(())
}

/// Solves `tiers` (in the order given: a tier's children must be earlier in the
/// list or solved in `dir`) with every (solver, threads) of `runs`, comparing
/// the records of all runs and with `dir`'s table of the tier when there is one.
pub fn bench_tiers<G: Solvable>(
    game: &G,
    dir: &Path,
    tiers: &[G::Tier],
    runs: &[(Solver, usize)],
    progress: &dyn Progress,
) -> Result<BenchReport> {
    if runs.is_empty() || tiers.is_empty() {
        return Err(Error::Usage(
            "nothing to benchmark: no tier or no run".into(),
        ));
    }
    remove_stale_bench_dirs(dir)?;
    let mut solved: Vec<(G::Tier, Arc<Vec<u16>>)> = Vec::new();
    let mut out = Vec::new();
    let mut checked = Vec::new();
    for &t in tiers {
        let name = game.tier_name(t);
        if game.tier_is_terminal(t) {
            return Err(Error::Usage(format!(
                "tier {name} holds only positions that are over: nothing to solve"
            )));
        }
        let mut children = ChildValues::new();
        for c in game.stored_children(t) {
            let recs = match solved.iter().find(|(s, _)| *s == c) {
                Some((_, r)) => r.clone(),
                None => Arc::new(load_records(game, dir, c).map_err(|e| match e {
                    // The table's own fault, with what the benchmark needed it for.
                    Error::Table {
                        path,
                        fault,
                        reason,
                    } => Error::Table {
                        path,
                        fault,
                        reason: format!(
                            "tier {name} needs child tier {} (solve it first, or list it before {name}): {reason}",
                            game.tier_name(c)
                        ),
                    },
                    other => other,
                })?),
            };
            children.insert(c, recs);
        }
        let mut first: Option<Vec<u16>> = None;
        for &(solver, threads) in runs {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| {
                    Error::io(
                        format!("cannot start {threads} threads"),
                        std::io::Error::other(e),
                    )
                })?;
            let cpu0 = process_cpu_seconds();
            let started = Instant::now();
            let mut disk_bytes = None;
            let mut sent_bytes = None;
            let records: Vec<u16> = pool.install(|| -> Result<Vec<u16>> {
                Ok(match solver {
                    Solver::OutOfCore(parts) => {
                        let o = OocOptions {
                            dir: dir.join(format!(".bench-ooc-{}", std::process::id())),
                            parts,
                            stop_after_writes: None,
                        };
                        let res = solve_tier_ooc(game, t, &children, &o, progress);
                        if res.is_err() {
                            crate::retro::compact::ooc::remove_own(&o.dir)?;
                        }
                        let res = res?;
                        let recs = res.records(0..game.tier_size(t) as usize);
                        if let Some(e) = res.take_error() {
                            return Err(e);
                        }
                        res.remove_files()?;
                        disk_bytes = Some(res.report.bytes_written + res.report.update_bytes);
                        recs
                    }
                    Solver::Split(parts) => {
                        let d = dir.join(format!(".bench-split-{}", std::process::id()));
                        let got = split_tier_in_process(
                            game,
                            t,
                            &children,
                            (parts, threads),
                            &d,
                            progress,
                        );
                        let _ = std::fs::remove_dir_all(&d);
                        let (recs, sent) = got?;
                        sent_bytes = Some(sent);
                        recs
                    }
                    Solver::Reference => {
                        solve_tier_reference(game, t, &children, progress)?.records
                    }
                    Solver::Current => {
                        solve_tier_with(game, t, &children, progress, Absorb::Hint)?.records
                    }
                    Solver::Compact => {
                        solve_tier_compact(game, t, &children, CompactKind::Plain, progress)?
                            .all_records()
                    }
                    Solver::Counted => {
                        solve_tier_compact(game, t, &children, CompactKind::Counted, progress)?
                            .all_records()
                    }
                })
            })?;
            let seconds = started.elapsed().as_secs_f64();
            let cpu_seconds = process_cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
            let slots = records.len() as u64;
            match &first {
                None => first = Some(records),
                Some(f) => {
                    if *f != records {
                        return Err(Error::Disagreement(format!(
                            "tier {name}: the {} solver with {threads} threads gives other records than the first run",
                            solver.name()
                        )));
                    }
                }
            }
            out.push(BenchRun {
                tier: name.clone(),
                solver,
                threads,
                slots,
                seconds,
                slots_per_second: slots as f64 / seconds.max(1e-9),
                cpu_seconds,
                disk_bytes,
                sent_bytes,
            });
        }
        let records = first.unwrap_or_default();
        if table_path(dir, &name).exists() {
            let stored = load_records(game, dir, t)?;
            if stored != records {
                return Err(Error::Disagreement(format!(
                    "tier {name}: the records differ from the table in {}",
                    dir.display()
                )));
            }
            checked.push(name.clone());
        }
        solved.push((t, Arc::new(records)));
    }
    Ok(BenchReport {
        rules: game.rules_string(),
        runs: out,
        checked_against_tables: checked,
    })
}
