//! `huntsolve serve [--tables DIR]... [--port 8080] [--bind 127.0.0.1]
//! [--workers N] [--search-time S]`: the local browser explorer (see
//! [`huntsolve::serve`]). Prints the URL, then answers until Ctrl-C.

use super::out;
use huntsolve::serve::{Config, Explorer};
use huntsolve::Result;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Directory of solved tables, or a directory of such directories (repeatable).
    #[arg(long)]
    tables: Vec<PathBuf>,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080, value_parser = super::args::whole::<u16>(0, 65_535, ""))]
    port: u16,
    /// Address to bind; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Searches and proofs computed at once (answers that need none are never queued behind them).
    #[arg(long, default_value_t = 8, value_parser = super::args::whole::<usize>(1, 64, "worker threads"))]
    workers: usize,
    /// Default search time in seconds for positions no table covers (at most 10).
    #[arg(long, default_value_t = 1.0, value_parser = super::args::real(0.0, false, 10.0, "seconds"))]
    search_time: f64,
}

/// Runs `serve`.
pub(crate) fn run(args: Args) -> Result<()> {
    let t = args.search_time;
    let cfg = Config {
        tables: args.tables,
        bind: args.bind,
        port: args.port,
        workers: args.workers,
        search_time: Duration::from_secs_f64(t),
    };
    let explorer = Explorer::bind(&cfg)?;
    let mut text = String::new();
    for (name, rules) in explorer.table_sets() {
        text.push_str(&format!("tables {name}: {rules}\n"));
    }
    text.push_str(&format!(
        "huntsolve explorer at http://{}/ (Ctrl-C stops)\n",
        explorer.addr()
    ));
    if !explorer.addr().ip().is_loopback() {
        eprintln!(
            "warning: listening on {}: other machines can reach this explorer",
            explorer.addr()
        );
    }
    out::print(&text)?;
    explorer.run()
}
