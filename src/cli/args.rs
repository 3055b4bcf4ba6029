//! Argument blocks shared by several subcommands, flattened into each one's `Args`
//! (`#[command(flatten)]`), so a flag means the same, is bounded the same and is
//! documented once: `--threads`, `--hash`, `--json`, `--tables`.

use huntsolve::retro::driver::{default_memory_limit, format_bytes};
use std::path::PathBuf;

/// Fewest threads a bound allows whatever the machine: more than any core count this
/// tool targets; the bound is there to refuse typos like `--threads 100000`, which
/// would exhaust the stack space of the process or hang thread start-up.
const MIN_THREAD_BOUND: usize = 256;

/// The largest accepted `--threads`: 256, or four per core on bigger machines.
pub(crate) fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    MIN_THREAD_BOUND.max(4 * cores)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| {
        format!(
            "{} is not a whole number of threads",
            huntsolve::error::quote(text)
        )
    })?;
    let max = max_threads();
    if n == 0 {
        return Err("at least 1 thread".into());
    }
    if n > max {
        return Err(format!(
            "{n} threads is more than this tool accepts ({max}; the machine has {} cores)",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        ));
    }
    Ok(n)
}

/// `--threads N`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Threads {
    /// Worker threads, 1 to 256 (or 4 per core); default: 1 for a search, one per core
    /// for solve, verify, analyze, compare and sweep.
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl Threads {
    /// The given count, or `default`.
    pub(crate) fn or(self, default: usize) -> usize {
        self.threads.unwrap_or(default)
    }
}

/// Parses `--hash` (MiB) and refuses a table larger than the memory this machine
/// has available (80 % of MemAvailable, as `solve --memory` assumes): allocating it
/// would abort the process instead of returning an error.
fn parse_hash(text: &str) -> Result<usize, String> {
    let mib: u64 = text.trim().parse().map_err(|_| {
        format!(
            "{} is not a whole number of MiB",
            huntsolve::error::quote(text)
        )
    })?;
    if mib == 0 {
        return Err("at least 1 MiB".into());
    }
    let bytes = mib
        .checked_mul(1 << 20)
        .ok_or_else(|| format!("{mib} MiB is more memory than can be addressed"))?;
    if let Some(avail) = default_memory_limit() {
        if bytes > avail {
            return Err(format!(
                "{} is more than the memory available ({} = 80 % of MemAvailable)",
                format_bytes(bytes),
                format_bytes(avail)
            ));
        }
    }
    usize::try_from(mib).map_err(|_| format!("{mib} MiB does not fit this platform"))
}

/// `--hash MiB`: the transposition table of a search.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Hash {
    /// Transposition table size in MiB, at most the available memory (default: 64,
    /// 256 for openings).
    #[arg(long, value_name = "MiB", value_parser = parse_hash)]
    pub hash: Option<usize>,
}

impl Hash {
    /// The given size in MiB, or `default`.
    pub(crate) fn or(self, default: usize) -> usize {
        self.hash.unwrap_or(default)
    }
}

/// `--json`.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct Json {
    /// Machine-readable output (JSON); errors are then a JSON object on stdout too.
    #[arg(long)]
    pub json: bool,
}

/// `--tables DIR`, required.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Tables {
    /// Directory holding solved tables (`*.hst` and `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tables: PathBuf,
}

/// `--tables DIR`, optional.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct MaybeTables {
    /// Directory holding solved tables (`*.hst` and `summary.json`).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
}
