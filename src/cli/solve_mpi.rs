//! `huntsolve solve ... --mpi`: the same solve across the processes of an MPI job
//! (library: `huntsolve::solve_mpi`, feature `mpi`). Rank 0 prints the plan, one
//! line per solved tier and the summary; workers print nothing unless they fail
//! before the job starts.

use super::solve::Args;
use huntsolve::{Error, Result};

/// Runs `solve --mpi` in a build without MPI: says how to get one.
#[cfg(not(feature = "mpi"))]
pub(crate) fn run(_args: Args) -> Result<()> {
    Err(Error::Usage(
        "--mpi: this huntsolve was built without MPI; build it with `cargo build --release --features mpi` (README, \"On a cluster\")".into(),
    ))
}

/// Runs `solve --mpi`: every rank parses the same arguments; rank 0 manages.
#[cfg(feature = "mpi")]
pub(crate) fn run(args: Args) -> Result<()> {
    use super::solve::{announce_plan, run_with};
    use huntsolve::retro::parse_size;
    use huntsolve::{solve_mpi, Cluster, ClusterOptions};

    // Workers choose each tier's solver as `--compact auto` does (the full
    // solver where it fits their limit, else the compact one); another choice
    // is not carried to them, so it is refused rather than ignored.
    if huntsolve::retro::Compact::parse(&args.compact)? != huntsolve::retro::Compact::Auto {
        return Err(Error::Usage(format!(
            "--compact {} with --mpi: MPI workers choose each tier's solver as --compact auto does; leave --compact out",
            args.compact
        )));
    }
    let cluster = Cluster::init()?;
    // --memory is per worker; without it each worker takes its share of its node.
    let per_worker = args.memory.as_deref().map(parse_size).transpose()?;
    let printer = Printer::default();
    let result = run_with(&args, &|game, scope, out, threads, _limit, quiet| {
        if cluster.rank() == 0 {
            announce_plan(
                game,
                scope,
                per_worker,
                threads,
                quiet,
                true,
                huntsolve::retro::Compact::Auto,
            )?;
        }
        let options = ClusterOptions {
            threads,
            memory_limit: per_worker,
            split_tiers: args.split_tiers,
            checkpoint_every: super::solve::checkpoint_every(args.checkpoint_minutes)?,
            made_by: Some(super::compare::made_by()),
        };
        solve_mpi(&cluster, game, scope, out, &options, &printer)
    });
    if matches!(result, Err(Error::Interrupted)) && cluster.rank() != 0 {
        // The manager says what was in flight; one message per job is enough.
        std::process::exit(130);
    }
    result
}

/// Prints the manager's events on stderr, one line each.
#[cfg(feature = "mpi")]
#[derive(Default)]
struct Printer {
    /// The split tier being solved (rank 0), for the watchdog's message.
    current: std::sync::Arc<std::sync::Mutex<Option<String>>>,
    /// The stop was reported (by the solve, or by the watchdog).
    reported: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// A split solve's ranks wait in MPI collectives, which a stop request cannot
/// interrupt (a rank killed between the barrier and the all-to-all leaves the
/// others blocked in it). This thread, started on rank 0 when the job splits its
/// tiers, names the unfinished tier as soon as a stop is requested and ends the
/// process (exit code 130) when the solve has not returned 2 s later, so that
/// the output directory's lock is released and a rerun can start.
#[cfg(feature = "mpi")]
fn watchdog(printer: &Printer) {
    let current = printer.current.clone();
    let reported = printer.reported.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_millis(20));
        if huntsolve::stop_requested() {
            // At once: `mpirun` may kill this process soon after its stop signal.
            if !reported.swap(true, std::sync::atomic::Ordering::SeqCst) {
                let tier = current.lock().ok().and_then(|c| c.clone());
                match tier {
                    Some(t) => eprintln!(
                        "mpi: stopped (interrupted, or a process died and the job is ending) with tier {t} unfinished: {t} (split); its table was not written, every finished table is kept and a rerun resumes"
                    ),
                    None => eprintln!(
                        "mpi: stopped (interrupted, or a process died and the job is ending); every finished table is kept and a rerun resumes"
                    ),
                }
            }
            std::thread::sleep(std::time::Duration::from_secs(2));
            std::process::exit(130);
        }
    });
}

#[cfg(feature = "mpi")]
impl huntsolve::ClusterObserver for Printer {
    fn event(&self, event: &huntsolve::ClusterEvent) {
        use huntsolve::retro::SplitEvent;
        use huntsolve::ClusterEvent as Event;
        match event {
            Event::Started {
                workers,
                tiers,
                kept,
            } => eprintln!(
                "mpi: {workers} workers; {tiers} tiers, {kept} kept from disk, {} to solve",
                tiers - kept
            ),
            Event::Solved {
                tier,
                rank,
                seconds,
                done,
                total,
                slots_per_second,
            } => eprintln!(
                "mpi: [{done}/{total}] {tier} solved by rank {rank} in {seconds:.2} s; {:.0} slots/s across workers",
                slots_per_second
            ),
            Event::Failed {
                tier,
                rank,
                host,
                error,
            } => eprintln!(
                "mpi: tier {tier} FAILED on rank {rank} ({host}): {error}; no more tiers are handed out, waiting for those in flight"
            ),
            Event::SplitMode { ranks, automatic } => {
                watchdog(self);
                eprintln!(
                    "mpi: every tier split across the {ranks} ranks{}",
                    if *automatic {
                        " (the largest tier does not fit --memory whole, its share does)"
                    } else {
                        ""
                    }
                )
            }
            Event::Split(SplitEvent::Solving { tier }) => {
                if let Ok(mut c) = self.current.lock() {
                    *c = Some(tier.clone());
                }
            }
            Event::Split(SplitEvent::Started {
                tiers,
                kept,
                parts,
                memory_per_part,
                unfinished,
            }) => {
                if let Some(t) = unfinished {
                    eprintln!(
                        "mpi: an earlier run into this directory ended with tier {t} unfinished: {t} (split); it is solved again (on the compact encoding, from the latest checkpoint every rank holds, if any)"
                    );
                }
                eprintln!(
                    "mpi: split solve: {tiers} tiers, {kept} kept from disk, {} to solve, each split in {parts} parts; memory per rank ≈ {}",
                    tiers - kept,
                    huntsolve::retro::format_bytes(*memory_per_part)
                )
            }
            Event::Split(SplitEvent::Solved {
                tier,
                slots,
                seconds,
                traffic,
                joined_only,
                compact,
                done,
                total,
            }) => {
                if *joined_only {
                    eprintln!("mpi: [{done}/{total}] {tier}: joined from the part files of an earlier run");
                } else if *compact {
                    eprintln!(
                        "mpi: [{done}/{total}] {tier} solved split on the compact encoding in {seconds:.2} s: {} updates crossed ranks ({:.2} bytes a slot sent)",
                        traffic.remote_updates,
                        traffic.bytes_sent as f64 / (*slots).max(1) as f64
                    );
                } else {
                    eprintln!(
                        "mpi: [{done}/{total}] {tier} solved split in {seconds:.2} s: {} updates crossed ranks ({:.2} bytes a slot sent), {} stayed local",
                        traffic.remote_updates,
                        traffic.bytes_sent as f64 / (*slots).max(1) as f64,
                        traffic.local_updates
                    );
                }
            }
            Event::Split(SplitEvent::Stopped { tier }) => {
                if !self.reported.swap(true, std::sync::atomic::Ordering::SeqCst) {
                    eprintln!(
                        "mpi: stopped (interrupted, or a process died and the job is ending) with tier {tier} unfinished: {tier} (split); its table was not written, every finished table is kept and a rerun resumes"
                    )
                }
            }
            Event::Stopped { in_flight } => {
                let list: Vec<String> = in_flight
                    .iter()
                    .map(|(t, r, h)| format!("{t} (rank {r}, {h})"))
                    .collect();
                eprintln!(
                    "mpi: stopped (interrupted, or a process died and the job is ending) with {} tier(s) unfinished: {}; their tables were not written, every finished table is kept and a rerun resumes",
                    in_flight.len(),
                    if list.is_empty() { "none".to_string() } else { list.join(", ") }
                );
            }
            // An event of a later library: shown as it says itself.
            other => eprintln!("mpi: {other:?}"),
        }
    }
}
