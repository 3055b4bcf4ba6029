//! `huntsolve sweep`: solve a family of variants that differ in one option
//! with the retrograde solver and tabulate the start values.

use super::args::Threads;
use super::compare::made_by;
use super::out::{println, Bars};
use huntsolve::retro::{default_memory_limit, parse_size, SolveOptions};
use huntsolve::stats::safe_name;
use huntsolve::stats::{run_sweep, write_sweep, SweepParam};
use huntsolve::Result;
use std::path::PathBuf;

/// Arguments of `sweep`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Base rules string (`preset[,key=value...]`).
    pub rules: String,
    /// The option to vary: KEY=V1..V2, optionally with a prefix (hunter_win=captures>=1..20).
    #[arg(long)]
    pub param: String,
    /// Directory of the tables, one sub-directory per variant; reruns keep
    /// the tiers solved there (default: OUT/tables with --out, else
    /// tables/sweep-<rules>-<key>).
    #[arg(long)]
    pub tables: Option<PathBuf>,
    #[command(flatten)]
    pub threads: Threads,
    /// Memory limit per variant, e.g. 8G (default: 80 % of MemAvailable);
    /// the sweep refuses to start if a variant's plan needs more.
    #[arg(long, value_parser = super::args::size)]
    pub memory: Option<String>,
    /// Report directory (default: the git-ignored runs/sweep-<rules>-<key>).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `sweep`.
pub(crate) fn run(args: Args) -> Result<()> {
    let param = SweepParam::parse(&args.param)?;
    let name = format!("sweep-{}-{}", safe_name(&args.rules), safe_name(&param.key));
    let (out, tables) = super::out::run_dirs(&name, &args.out, &args.tables);
    let memory_limit = match args.memory.as_deref() {
        Some(t) => Some(parse_size(t)?),
        None => default_memory_limit(),
    };
    let mut command = format!(
        "huntsolve sweep '{}' --param '{}' --tables {}",
        args.rules,
        args.param,
        tables.display()
    );
    if let Some(n) = args.threads.threads {
        command.push_str(&format!(" --threads {n}"));
    }
    if let Some(m) = &args.memory {
        command.push_str(&format!(" --memory {m}"));
    }
    command.push_str(&format!(" --out {}", out.display()));
    let options = SolveOptions {
        threads: args.threads.or(0),
        memory_limit,
        made_by: Some(made_by()),
        ..Default::default()
    };
    let bars = Bars::new();
    let mut report = run_sweep(&args.rules, &param, &tables, &options, &command, &bars)?;
    report.build = report
        .made_by
        .as_ref()
        .map(|m| m.build.clone())
        .unwrap_or_default();
    let files = write_sweep(&out, &report)?;
    for x in &report.rows {
        println(&format!(
            "{}={}{:<4} {}: {:<4} distance {:>4}  classes {:>12}  won/lost/drawn {}/{}/{}  {:.2} s",
            param.key,
            param.prefix,
            x.value,
            x.side_names[0],
            x.value_side0.name(),
            x.start_distance,
            x.outcomes.classes,
            x.outcomes.wins,
            x.outcomes.losses,
            x.outcomes.draws,
            x.seconds
        ))?;
    }
    println(&format!(
        "{:.1} s; report: {}",
        report.wall_seconds,
        files
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    ))
}
