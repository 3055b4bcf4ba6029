//! `huntsolve solve ... --mpi`: the same solve across the processes of an MPI job
//! (library: `huntsolve::cluster`, feature `mpi`). Rank 0 prints the plan, one
//! line per solved tier and the summary; workers print nothing unless they fail
//! before the job starts.

use super::solve::Args;
use huntsolve::{Error, Result};

/// Runs `solve --mpi` in a build without MPI: says how to get one.
#[cfg(not(feature = "mpi"))]
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Input(
        "--mpi: this huntsolve was built without MPI; build it with `cargo build --release --features mpi` (README, \"On a cluster\")".into(),
    ))
}

/// Runs `solve --mpi`: every rank parses the same arguments; rank 0 manages.
#[cfg(feature = "mpi")]
pub fn run(args: Args) -> Result<()> {
    use super::solve::{announce_plan, run_with};
    use huntsolve::cluster::{solve_mpi, Cluster, ClusterOptions};
    use huntsolve::retro::driver::parse_size;

    let cluster = Cluster::init()?;
    // --memory is per worker; without it each worker takes its share of its node.
    let per_worker = args.memory.as_deref().map(parse_size).transpose()?;
    let printer = Printer;
    let result = run_with(&args, &|game, scope, out, threads, _limit, quiet| {
        if cluster.rank() == 0 {
            announce_plan(
                game,
                scope,
                per_worker,
                threads,
                quiet,
                true,
                huntsolve::retro::driver::Compact::Never,
            )?;
        }
        let options = ClusterOptions {
            threads,
            memory_limit: per_worker,
            split_tiers: args.split_tiers,
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
struct Printer;

#[cfg(feature = "mpi")]
impl huntsolve::cluster::Observer for Printer {
    fn event(&self, event: &huntsolve::cluster::Event) {
        use huntsolve::cluster::Event;
        use huntsolve::retro::split::SplitEvent;
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
            Event::SplitMode { ranks, automatic } => eprintln!(
                "mpi: every tier split across the {ranks} ranks{}",
                if *automatic {
                    " (the largest tier does not fit --memory whole, its share does)"
                } else {
                    ""
                }
            ),
            Event::Split(SplitEvent::Started {
                tiers,
                kept,
                parts,
                memory_per_part,
            }) => eprintln!(
                "mpi: split solve: {tiers} tiers, {kept} kept from disk, {} to solve, each split in {parts} parts; memory per rank ≈ {}",
                tiers - kept,
                huntsolve::retro::driver::format_bytes(*memory_per_part)
            ),
            Event::Split(SplitEvent::Solved {
                tier,
                slots,
                seconds,
                traffic,
                joined_only,
                done,
                total,
            }) => {
                if *joined_only {
                    eprintln!("mpi: [{done}/{total}] {tier}: joined from the part files of an earlier run");
                } else {
                    eprintln!(
                        "mpi: [{done}/{total}] {tier} solved split in {seconds:.2} s: {} updates crossed ranks ({:.2} bytes a slot sent), {} stayed local",
                        traffic.remote_updates,
                        traffic.bytes_sent as f64 / (*slots).max(1) as f64,
                        traffic.local_updates
                    );
                }
            }
            Event::Split(SplitEvent::Stopped { tier }) => eprintln!(
                "mpi: stopped (interrupted, or a process died and the job is ending) with tier {tier} unfinished: {tier} (split); its table was not written, every finished table is kept and a rerun resumes"
            ),
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
        }
    }
}
