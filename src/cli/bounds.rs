//! `huntsolve bounds <rules> [--tables DIR]... [--time S] [--nodes N] [--threads T]
//! [--hash MiB] [--save-dir DIR] [--json]`: how many captures the hunters can force
//! from the start, as an interval of thresholds proven and disproven, each bound
//! with a certificate re-checked by the independent checker
//! ([`huntsolve::prove::bounds`]). Hunt rules only (tafl: exit 2).

use super::args::{Hash, Json, Threads};
use super::out;
use super::prove::ProverOpts;
use huntsolve::game::Game;
use huntsolve::prove::RunOutcome;
use huntsolve::prove::{bounds, Bounds, BoundsConfig};
use huntsolve::Progress;
use huntsolve::{AnyGame, Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `bounds`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: a hunt preset with options (the threshold option `hunter_win` is set per run).
    rules: String,
    /// Table directories, or directories of them, used as leaves: each run uses those
    /// solved for its own `hunter_win=captures>=N` variant (repeatable).
    #[arg(long)]
    tables: Vec<PathBuf>,
    /// Total time limit in seconds, split across the runs.
    #[arg(long, value_parser = super::args::seconds())]
    time: Option<f64>,
    /// Node limit of each run.
    #[arg(long, value_parser = super::args::NODES)]
    nodes: Option<u64>,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    hash: Hash,
    /// Write every decided run's certificate here (`<rules>.N<n>.<win|no-win>.proof`).
    #[arg(long, value_name = "DIR")]
    save_dir: Option<PathBuf>,
    /// Run each threshold by the frontier driver with its frontier this many plies
    /// from the start (`huntsolve frontier`), instead of one df-pn run from the start;
    /// `--nodes` is then the most nodes of one frontier position's run. With
    /// `--save-dir`, each threshold's state is kept in `DIR/frontier.N<n>` (resumable).
    #[arg(long, value_name = "D", value_parser = super::args::DEPTH)]
    frontier: Option<u32>,
    #[command(flatten)]
    opts: ProverOpts,
    #[command(flatten)]
    pub(crate) json: Json,
}

/// Runs `bounds`.
pub(crate) fn run(args: Args) -> Result<()> {
    let (rules, recorded) = match AnyGame::parse(&args.rules)? {
        AnyGame::Hunt(g) => (
            g.rules().clone(),
            out::recorded_lines(&g, &g.start(), "recorded "),
        ),
        _ => {
            return Err(Error::Usage(format!(
                "bounds: {} is a tafl game; capture-threshold bounds (hunter_win=captures>=N) \
                 are defined for hunt games only",
                args.rules
            )))
        }
    };
    let probe = ProverOpts::apply(args.opts, Default::default());
    let cfg = BoundsConfig {
        time: args.time.map(Duration::from_secs_f64),
        nodes_per_run: args.nodes,
        threads: args.threads.or(1),
        hash_mib: args.hash.or(256),
        tables: args.tables.clone(),
        save_dir: args.save_dir.clone(),
        symmetry: probe.symmetry,
        init: probe.init,
        quick_check: probe.quick_check,
        frontier_depth: args.frontier,
    };
    let bars = out::Bars::new();
    bars.stage("bounds", 0);
    let b = bounds(&rules, &cfg, &bars);
    bars.finish_stage();
    let b = b?;
    if args.json.json {
        let s = serde_json::to_string(&b).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        return out::println(&s);
    }
    out::print(&(text(&b) + &recorded))
}

fn text(b: &Bounds) -> String {
    let mut s = format!("rules    {}\nprey     {}\n", b.rules, b.prey);
    for r in &b.runs {
        let what = match r.report.outcome {
            RunOutcome::Proven => "proven".to_string(),
            RunOutcome::Disproven => "disproven".to_string(),
            RunOutcome::Unknown => format!(
                "unknown ({}): {}",
                r.report.stopped.map_or("stopped", |x| x.text()),
                out::undecided(r.report.nodes, r.report.pn, r.report.dn)
            ),
        };
        let cert = match (&r.certificate, &r.certificate_error) {
            (Some(c), _) => format!(
                ", certificate {} nodes {} bytes sha256 {}{}: holds",
                c.nodes,
                c.bytes,
                c.sha256,
                c.file.as_ref().map_or(String::new(), |f| format!(" ({f})"))
            ),
            (None, Some(e)) => format!(", no certificate ({e}): not counted"),
            _ => String::new(),
        };
        s.push_str(&format!(
            "N = {:<3} {:<10} {} nodes, {:.2} s{}\n",
            r.n, what, r.report.nodes, r.report.seconds, cert
        ));
    }
    let proven = if b.proven == 0 {
        "none".to_string()
    } else {
        format!(
            "N <= {} (the hunters force {} captures)",
            b.proven, b.proven
        )
    };
    let disproven = b.disproven.map_or("none".to_string(), |d| {
        format!("N >= {d} (the prey keep the captures below {d})")
    });
    s.push_str(&format!(
        "proven   {proven}\ndisproven {disproven}\nopen     {}\ntotal    {:.2} s\n",
        if b.open.is_empty() {
            "none: exact".to_string()
        } else {
            format!(
                "N = {} to {} (neither proven nor disproven by these runs)",
                b.open[0],
                b.open[b.open.len() - 1]
            )
        },
        b.seconds
    ));
    if !b.open.is_empty() {
        s.push_str(
            "hint     the open thresholds need a longer --time, --tables as leaves, or `huntsolve frontier`; \
             the bounds recorded with certificates for the seed games are in results/README.md\n",
        );
    }
    s
}
