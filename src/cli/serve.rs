//! `huntsolve serve [--tables DIR]... [--port 8080] [--bind 127.0.0.1]
//! [--workers N] [--search-time S]`: the local browser explorer (see
//! [`huntsolve::serve`]). Prints the URL, then answers until Ctrl-C.

use super::out;
use huntsolve::serve::{Config, Explorer};
use huntsolve::{Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `serve`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Directory of solved tables, or a directory of such directories (repeatable).
    #[arg(long)]
    tables: Vec<PathBuf>,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to bind; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Worker threads answering requests.
    #[arg(long, default_value_t = 8)]
    workers: usize,
    /// Default search time in seconds for positions no table covers (at most 10).
    #[arg(long, default_value_t = 1.0)]
    search_time: f64,
}

/// Runs `serve`.
pub(crate) fn run(args: Args) -> Result<()> {
    let t = args.search_time;
    if !(t.is_finite() && t > 0.0 && t <= 10.0) {
        return Err(Error::Input(format!(
            "--search-time {t}: expected seconds in (0, 10]"
        )));
    }
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
