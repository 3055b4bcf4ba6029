//! `huntsolve sweep`: solve a family of variants that differ in one option and
//! tabulate the start values.

use super::out::{println, Bars};
use huntsolve::stats::sweep::{run_sweep, write_sweep, SweepParam};
use huntsolve::Result;
use std::path::PathBuf;

/// Arguments of `sweep`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Base rules string (`preset[,key=value...]`).
    pub rules: String,
    /// The option to vary: KEY=V1..V2, optionally with a prefix (hunter_win=captures>=1..20).
    #[arg(long)]
    pub param: String,
    /// Refuse variants with more reachable positions than this (memory guard).
    #[arg(long, default_value_t = 20_000_000)]
    pub max_positions: usize,
    /// Output directory (default: results/sweep-<rules>-<key>).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `sweep`.
pub fn run(args: Args) -> Result<()> {
    let param = SweepParam::parse(&args.param)?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!(
            "sweep-{}-{}",
            huntsolve::stats::report::safe_name(&args.rules),
            huntsolve::stats::report::safe_name(&param.key)
        ))
    });
    let command = format!(
        "huntsolve sweep {} --param '{}' --max-positions {} --out {}",
        args.rules,
        args.param,
        args.max_positions,
        out.display()
    );
    let bars = Bars::new();
    let report = run_sweep(&args.rules, &param, args.max_positions, &command, &bars)?;
    let files = write_sweep(&out, &report)?;
    for row in &report.rows {
        let x = &row.solution;
        println(&format!(
            "{}={}{:<4} {}: {:<4} distance {:>4}  positions {:>10}  {:.2} s",
            param.key,
            param.prefix,
            row.value,
            row.side_names[0],
            row.value_side0.name(),
            x.start_distance,
            x.positions,
            row.seconds
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
