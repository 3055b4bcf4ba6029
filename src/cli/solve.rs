//! `huntsolve solve`: solve rules by retrograde analysis, or run a TOML manifest
//! of solves; with no argument, the embedded default batch.

use super::args::{Json, Threads};
use super::out::{println, Bars};
use huntsolve::retro::Scope;
use huntsolve::retro::{
    check_index, default_memory_limit, format_bytes, parse_size, Compact, SolveOptions, SolveReport,
};
use huntsolve::retro::{plan_any, results_markdown, JobResult, Manifest, DEFAULT_MANIFEST};
use huntsolve::{AnyGame, Error, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `solve`. The scope options exclude each other and need rules.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("scope").multiple(false).requires("target")))]
pub(crate) struct Args {
    /// Rules (`preset[,key=value...]`) or a manifest file (`*.toml`); none: the default batch.
    pub target: Option<String>,
    /// Limit a hunt game to a phase: `movement` (no pieces left in hand).
    #[arg(long, group = "scope")]
    pub phase: Option<String>,
    /// Hunt games: movement-phase tiers with at most N prey on board.
    #[arg(long, value_name = "N", group = "scope", value_parser = super::args::whole::<u32>(0, 255, "pieces"))]
    pub max_prey: Option<u32>,
    /// Hunt games: the end of the placement phase, tiers with at most N pieces in hand
    /// (hunters and prey together), and the movement phase.
    #[arg(long, value_name = "N", group = "scope", value_parser = super::args::whole::<u32>(0, 255, "pieces"))]
    pub max_in_hand: Option<u32>,
    /// Tafl: the king with at most A attackers and D defenders (`A,D`).
    #[arg(long, value_name = "A,D", group = "scope")]
    pub material: Option<String>,
    /// Output directory (default: tables/<preset>[-<scope>]).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A manifest's summary to BASE.json and BASE.md (default: the manifest's
    /// `results`, under --out when given; the default batch's is the
    /// git-ignored tables/default-batch). `--results results/default-batch`
    /// rewrites the citable copy in results/.
    #[arg(long, value_name = "BASE")]
    pub results: Option<PathBuf>,
    #[command(flatten)]
    pub threads: Threads,
    /// Memory limit, e.g. 8G (default: 80 % of MemAvailable).
    #[arg(long, value_parser = super::args::size)]
    pub memory: Option<String>,
    #[command(flatten)]
    pub json: Json,
    /// Solve across machines: start under `mpirun` or `srun`; rank 0 hands tiers to the
    /// other ranks, which solve them into --out on a shared filesystem (needs a build
    /// with `--features mpi`; --threads and --memory then apply to each worker).
    #[arg(long)]
    pub mpi: bool,
    /// Checkpoint tiers of 2^26 slots or more (`DIR/<tier>.ckpt`, compact tiers
    /// `DIR/<tier>.compact.ckpt`) at most every M
    /// minutes at a level boundary, so that a killed run resumes inside the tier
    /// (fractions allowed; 0: no checkpoints). Ctrl-C writes one before exiting.
    /// With --mpi, each rank's share of a tier split on the compact encoding
    /// (`DIR/<tier>.p<k>of<n>.c<d>`, every tier) likewise.
    #[arg(long, value_name = "M", default_value_t = 10.0, value_parser = super::args::CHECKPOINT_MINUTES)]
    pub checkpoint_minutes: f64,
    /// The one-byte-a-slot solver (no counters: losses found by re-checking a
    /// position's moves; checkpoints in `DIR/<tier>.compact.ckpt`), for tiers too large for the full solver's
    /// 6 bytes a slot: `auto` for the tiers over --memory, `always`, `never`.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub compact: String,
    /// With --mpi: solve every tier split across all ranks (each rank holds its
    /// share of the tier's slots, the ranks exchange predecessor updates), for
    /// tiers no single machine holds. Chosen without this flag when --memory is
    /// given and the largest tier does not fit it whole but its share does.
    #[arg(long)]
    pub split_tiers: bool,
}

/// Solves one job: `Some(report)` from the process that reports (a single
/// process, or the MPI manager), `None` from an MPI worker, which prints nothing.
pub(super) type JobSolver<'a> =
    dyn Fn(&AnyGame, &Scope, &Path, usize, Option<u64>, bool) -> Result<Option<SolveReport>> + 'a;

/// The scope of a single solve (clap's `scope` group admits at most one option).
pub(super) fn scope_of(args: &Args) -> Result<Scope> {
    if let Some(p) = &args.phase {
        return match p.as_str() {
            "movement" => Ok(Scope::Movement),
            "all" | "whole" => Ok(Scope::Whole),
            other => Err(Error::Usage(format!(
                "--phase '{other}': accepted: movement, whole"
            ))),
        };
    }
    if let Some(n) = args.max_prey {
        return Ok(Scope::MaxPrey(n));
    }
    if let Some(n) = args.max_in_hand {
        return Ok(Scope::MaxInHand(n));
    }
    if let Some(m) = &args.material {
        return Scope::parse(&format!("material={m}"));
    }
    Ok(Scope::Whole)
}

pub(super) fn memory_limit(text: Option<&str>) -> Result<Option<u64>> {
    match text {
        Some(t) => parse_size(t).map(Some),
        None => Ok(default_memory_limit()),
    }
}

/// Runs `solve`.
/// (`solve --mpi` is `super::solve_mpi::run`, which builds on this file.)
pub(crate) fn run(args: Args) -> Result<()> {
    if args.split_tiers {
        return Err(Error::Usage(
            "--split-tiers splits tiers across the ranks of an MPI job: give --mpi too, under mpirun or srun".into(),
        ));
    }
    let every = checkpoint_every(args.checkpoint_minutes)?;
    let compact = Compact::parse(&args.compact)?;
    run_with(&args, &|g, s, o, t, l, q| {
        solve_job(g, s, o, t, l, q, &Tuning { every, compact }).map(Some)
    })
}

/// Runs `solve` with `solver` for each job (this process, or MPI).
pub(super) fn run_with(args: &Args, solver: &JobSolver) -> Result<()> {
    match args.target.as_deref() {
        // Scope options without rules are refused by clap (`scope` requires `target`).
        None => {
            println("running the embedded default batch (huntsolve solve <rules|manifest.toml> for others)")?;
            let m = Manifest::parse(DEFAULT_MANIFEST)?;
            run_manifest(&m, args, solver)
        }
        Some(t) if t.ends_with(".toml") || Path::new(t).is_file() => {
            if args.phase.is_some()
                || args.max_prey.is_some()
                || args.max_in_hand.is_some()
                || args.material.is_some()
            {
                return Err(Error::Usage(
                    "scope options apply to rules, not manifests; set `scope` per job".into(),
                ));
            }
            let m = Manifest::read(Path::new(t))?;
            run_manifest(&m, args, solver)
        }
        Some(_) if args.results.is_some() => Err(Error::Usage(
            "--results names a manifest's summary; a single solve writes DIR/summary.json (--out DIR)"
                .into(),
        )),
        Some(rules) => run_single(rules, args, solver),
    }
}

fn run_single(rules: &str, args: &Args, solver: &JobSolver) -> Result<()> {
    let game = AnyGame::parse(rules)?;
    let scope = scope_of(args)?;
    let out = args.out.clone().unwrap_or_else(|| {
        let preset = rules.split(',').next().unwrap_or("solve").trim();
        let mut name = preset.to_string();
        if scope != Scope::Whole {
            name.push('-');
            name.push_str(&scope.name().replace(['=', ','], "-"));
        }
        PathBuf::from("tables").join(name)
    });
    let limit = memory_limit(args.memory.as_deref())?;
    let Some(report) = solver(
        &game,
        &scope,
        &out,
        args.threads.or(0),
        limit,
        args.json.json,
    )?
    else {
        return Ok(());
    };
    let s = &report.summary;
    let peak = peak_memory();
    if args.json.json {
        let mut v = serde_json::to_value(s)
            .map_err(|e| Error::Internal(format!("encoding summary: {e}")))?;
        if let (Some(o), Some(p)) = (v.as_object_mut(), peak) {
            o.insert("peak_memory_bytes".into(), p.into());
        }
        let text = serde_json::to_string_pretty(&v)
            .map_err(|e| Error::Internal(format!("encoding summary: {e}")))?;
        return println(&text);
    }
    let mut text = format!(
        "{:<14} {:>14} {:>12} {:>12} {:>12} {:>10} {:>6} {:>9}\n",
        "tier", "positions", "classes", "wins", "losses", "draws", "maxd", "seconds"
    );
    for t in &s.tiers {
        text.push_str(&format!(
            "{:<14} {:>14} {:>12} {:>12} {:>12} {:>10} {:>6} {:>9.3}\n",
            t.tier,
            t.positions,
            t.outcomes.classes,
            t.outcomes.wins,
            t.outcomes.losses,
            t.outcomes.draws,
            t.outcomes.max_distance,
            t.seconds
        ));
    }
    let (pos, cls): (u64, u64) = s.tiers.iter().fold((0, 0), |(p, c), t| {
        (p + t.positions, c + t.outcomes.classes)
    });
    text.push_str(&format!(
        "total: {} {}, {pos} positions, {cls} classes; {} solved, {} kept from disk; {:.2} s",
        s.tiers.len(),
        if s.tiers.len() == 1 { "tier" } else { "tiers" },
        report.solved,
        report.resumed,
        report.seconds
    ));
    if report.slots_solved > 0 && report.seconds > 0.0 {
        text.push_str(&format!(
            ", {:.0} slots/s",
            report.slots_solved as f64 / report.seconds
        ));
    }
    text.push('\n');
    if let Some(p) = peak {
        text.push_str(&memory_line(p, args.memory.as_deref().and(limit)));
    }
    match &s.start {
        Some(v) => {
            let words = huntsolve::with_game!(&game, g => v.text(g));
            text.push_str(&format!("start: {words}\n"));
        }
        None => text.push_str("start: not in this scope\n"),
    }
    text.push_str(&format!("tables and summary.json in {}", out.display()));
    println(&text)
}

/// The process's peak resident memory (Linux: `VmHWM` of /proc/self/status).
fn peak_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The summary's memory line: the peak, and when a `--memory` limit was given
/// and the peak passed it, says so. The plan counts the solvers' arrays (records,
/// counters, parts, child records); the process, the tables' block caches, the
/// table writer's buffers and each thread's allocations come on top
/// (results/out-of-core.md measures them).
fn memory_line(peak: u64, limit: Option<u64>) -> String {
    match limit {
        Some(l) if peak > l => format!(
            "memory: peak {}, over the --memory limit of {}: the limit bounds the solvers' arrays, not the whole process (docs/guide.md, solve)\n",
            format_bytes(peak),
            format_bytes(l)
        ),
        Some(l) => format!("memory: peak {} (limit {})\n", format_bytes(peak), format_bytes(l)),
        None => format!("memory: peak {}\n", format_bytes(peak)),
    }
}

/// Checks the ranking tables against `limit`, plans the scope and prints the plan's
/// line (on stderr when `quiet`: stdout then carries JSON only).
pub(super) fn announce_plan(
    game: &AnyGame,
    scope: &Scope,
    limit: Option<u64>,
    threads: usize,
    quiet: bool,
    per_worker: bool,
    compact: Compact,
) -> Result<()> {
    // Before the plan: planning builds the ranking tables, which may alone be too big.
    huntsolve::with_game!(game, g => check_index(g, limit))?;
    let info = plan_any(game, scope, compact, limit)?;
    let rules = huntsolve::with_game!(game, g => huntsolve::Game::rules_string(g));
    let memory = if per_worker && limit.is_some_and(|l| info.memory_serial > l) {
        // An MPI worker solves one tier at a time, compact where the full
        // solver does not fit its limit (as one process would).
        format!(
            "memory per worker ≈ {} with the full solver, ≈ {} with the compact solver for the tiers over the limit, ≈ {} with their child records held sparse",
            format_bytes(info.memory_serial),
            format_bytes(info.memory_compact),
            format_bytes(info.memory_sparse)
        )
    } else if per_worker {
        format!("memory per worker ≈ {}", format_bytes(info.memory_serial))
    } else if limit.is_some_and(|l| info.memory_compact > l) && compact != Compact::Never {
        format!(
            "memory needed ≈ {} one tier at a time, ≈ {} with the compact solver (one or two bytes a slot) for the tiers over the limit, ≈ {} with the largest tiers' child records held sparse (plus a byte a won or lost child slot, two past distance 127, counted when loaded)",
            format_bytes(info.memory_serial),
            format_bytes(info.memory_compact),
            format_bytes(info.memory_sparse)
        )
    } else if limit.is_some_and(|l| info.memory_serial > l) && compact != Compact::Never {
        format!(
            "memory needed ≈ {} one tier at a time, ≈ {} with the compact solver (one or two bytes a slot) for the tiers over the limit",
            format_bytes(info.memory_serial),
            format_bytes(info.memory_compact)
        )
    } else if compact == Compact::Always {
        format!(
            "memory needed ≈ {} with the compact solver, one tier at a time",
            format_bytes(info.memory_compact)
        )
    } else if info.memory_serial < info.memory {
        format!(
            "memory needed ≈ {} with independent tiers in parallel, ≈ {} one tier at a time",
            format_bytes(info.memory),
            format_bytes(info.memory_serial)
        )
    } else {
        format!("memory needed ≈ {}", format_bytes(info.memory))
    };
    // 0: one per core (the solve's default).
    let threads = if threads == 0 {
        rayon::current_num_threads().max(1)
    } else {
        threads
    } as f64;
    // The one choice the driver makes for the largest tier (`TierMethod`).
    let largest = info.largest.as_ref().map_or(String::new(), |t| {
        // Over the limit: refused below (one process), or split (MPI).
        let over = if limit.is_some_and(|l| t.memory > l) {
            " (over the limit)"
        } else {
            ""
        };
        // The rates are the in-memory solvers'; out of core costs more.
        let slower = if matches!(t.method, huntsolve::retro::TierMethod::OutOfCore { .. }) {
            " (out of core took about 4x the in-memory time on a draw-heavy tier, results/out-of-core.md)"
        } else {
            ""
        };
        format!(
            "; largest tier {} ({} slots): {}, ≈ {}{over}{slower}",
            t.name,
            t.slots,
            t.method,
            format_bytes(t.memory)
        )
    });
    let line = format!(
        "{rules} [{}]: {} {}, {} positions, {} index slots; {memory}{}{largest}; expected time ≈ {} CPU, ≈ {} wall on {} threads (from measured rates)",
        scope.name(),
        info.tiers,
        if info.tiers == 1 { "tier" } else { "tiers" },
        info.placements,
        info.slots,
        limit.map_or(String::new(), |l| format!(" (limit {})", format_bytes(l))),
        format_duration(info.cpu_seconds),
        format_duration(info.cpu_seconds / (threads * 0.9).max(1.0)),
        threads as usize,
    );
    if quiet {
        eprintln!("{line}");
        Ok(())
    } else {
        println(&line)
    }
}

/// `--checkpoint-minutes` as the driver's option (0: none).
pub(crate) fn checkpoint_every(minutes: f64) -> Result<Option<Duration>> {
    if !(0.0..=1e9).contains(&minutes) {
        return Err(Error::Usage(format!(
            "--checkpoint-minutes {minutes}: give a number of minutes, 0 for no checkpoints"
        )));
    }
    Ok((minutes > 0.0).then(|| Duration::from_secs_f64(minutes * 60.0)))
}

/// How a single-process solve goes about large tiers.
struct Tuning {
    /// `--checkpoint-minutes` (none: no checkpoints).
    every: Option<Duration>,
    /// `--compact`.
    compact: Compact,
}

fn solve_job(
    game: &AnyGame,
    scope: &Scope,
    out: &Path,
    threads: usize,
    limit: Option<u64>,
    quiet: bool,
    tuning: &Tuning,
) -> Result<SolveReport> {
    announce_plan(game, scope, limit, threads, quiet, false, tuning.compact)?;
    let options = SolveOptions {
        threads,
        memory_limit: limit,
        checkpoint_every: tuning.every,
        compact: tuning.compact,
        made_by: Some(super::compare::made_by()),
        ..Default::default()
    };
    // The log names the job by its output directory (a manifest job's name).
    let job = out.file_name().map_or_else(
        || out.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bars = Bars::for_job(&format!("{job} [{}]", scope.name()));
    huntsolve::with_game!(game, g => huntsolve::retro::solve(g, scope, out, &options, &bars))
}

fn run_manifest(m: &Manifest, args: &Args, solver: &JobSolver) -> Result<()> {
    let threads = if let Some(n) = args.threads.threads {
        n
    } else {
        m.threads.unwrap_or(0)
    };
    let limit = memory_limit(args.memory.as_deref().or(m.memory.as_deref()))?;
    let mut results = Vec::new();
    // With --out, the results summary goes there too: the manifest's stays
    // untouched. Only --results writes elsewhere (the tracked
    // results/default-batch.* are rewritten only when asked).
    let results_base = match (&args.results, &args.out, &m.results) {
        (Some(base), _, _) => Some(base.clone()),
        (None, Some(out), Some(base)) => {
            Some(out.join(base.file_name().unwrap_or("batch".as_ref())))
        }
        (None, _, base) => base.clone(),
    };
    // The file this run rewrites: the timings of jobs whose tiers are all kept.
    let earlier = results_base
        .as_deref()
        .map(read_results)
        .unwrap_or_default();
    let mut reporting = true;
    let mut failed = 0;
    for job in &m.jobs {
        let out = match (&args.out, &job.out) {
            (Some(base), None) => base.join(&job.name),
            _ => m.job_dir(job),
        };
        let scope = Scope::parse(job.scope.as_deref().unwrap_or("whole"))?;
        let res = AnyGame::parse(&job.rules)
            .and_then(|g| solver(&g, &scope, &out, threads, limit, args.json.json));
        match res {
            Ok(Some(r)) => results.push(JobResult::done(job, &scope, &out, &r, &earlier)),
            Ok(None) => reporting = false,
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            Err(e) => {
                if reporting {
                    eprintln!("job {}: {e}", job.name);
                }
                results.push(JobResult::failed(job, &out, &e));
                failed += 1;
            }
        }
    }
    if !reporting {
        // An MPI worker: the manager reports.
        return Ok(());
    }
    if let Some(base) = &results_base {
        write_results(base, &results)?;
    }
    if args.json.json {
        let text = serde_json::to_string_pretty(&results)
            .map_err(|e| Error::Internal(format!("encoding results: {e}")))?;
        println(&text)?;
    } else {
        println(&results_markdown(&results))?;
        if let Some(base) = &results_base {
            println(&format!(
                "results written to {} and {}",
                base.with_extension("json").display(),
                base.with_extension("md").display()
            ))?;
        }
    }
    if failed > 0 {
        return Err(Error::JobsFailed {
            failed,
            total: m.jobs.len(),
        });
    }
    Ok(())
}

/// A rough duration: seconds, minutes or hours.
fn format_duration(s: f64) -> String {
    if s < 90.0 {
        format!("{:.0} s", s.max(1.0))
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

/// The results of an earlier run of a manifest (`<base>.json`), to carry the
/// timings of jobs whose tiers a rerun keeps; empty when the file is missing or
/// unreadable (it only ever supplies figures, never stops a batch).
fn read_results(base: &Path) -> Vec<JobResult> {
    huntsolve::read_regular(&base.with_extension("json"))
        .ok()
        .and_then(|t| serde_json::from_slice(&t).ok())
        .unwrap_or_default()
}

/// Writes `<base>.json` and `<base>.md`.
fn write_results(base: &Path, results: &[JobResult]) -> Result<()> {
    if let Some(dir) = base.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    }
    let json = serde_json::to_string_pretty(results)
        .map_err(|e| Error::Internal(format!("encoding results: {e}")))?;
    let jp = base.with_extension("json");
    huntsolve::write_atomic(&jp, (json + "\n").as_bytes())
        .map_err(|e| Error::io(format!("writing {}", jp.display()), e))?;
    let mp = base.with_extension("md");
    huntsolve::write_atomic(&mp, results_markdown(results).as_bytes())
        .map_err(|e| Error::io(format!("writing {}", mp.display()), e))
}
