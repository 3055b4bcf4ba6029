//! `huntsolve verify --tables DIR [--rules R] [--json] [--threads T]`: re-derives
//! every stored value from its children and accounts for the orbits of every tier
//! (the classes' orbit sizes must sum to the tier's placements); exit status 0
//! only when all agree. `--tiers` limits the full check to the named tiers;
//! `--sample N` checks N random slots of every other tier instead.
//! With `--search N`: instead, N random positions of the tables are searched
//! without them (exact alpha-beta) and compared with the stored values.

use super::args::{Json, SolvedTables, Threads};
use super::job::{dispatch, set_threads, TierJob};
use super::out;
use huntsolve::answer::{crosscheck_dir, CrossReport};
use huntsolve::retro::{default_memory_limit, parse_size};
use huntsolve::retro::{Solvable, TierGame};
use huntsolve::table::{
    list_tiers, table_path, verify_dir_scoped, Table, VerifyReport, VerifyScope,
};
use huntsolve::{AnyGame, Error, Result};

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    tables: SolvedTables,
    #[command(flatten)]
    pub(crate) json: Json,
    #[command(flatten)]
    threads: Threads,
    /// Instead of re-deriving every record: search N random positions of the tables
    /// without them (exact mode) and compare the proven values with the stored ones.
    #[arg(long, value_name = "N", value_parser = super::args::whole::<u64>(1, 10_000_000, "positions"))]
    search: Option<u64>,
    /// With --search: longest stored win/loss distance sampled (plies; drawn positions
    /// are searched to this depth and must not be proven won or lost).
    #[arg(long, default_value_t = 7, value_name = "PLIES", requires = "search", value_parser = super::args::CHECKED_DISTANCE)]
    max_distance: u32,
    /// Decoded-block cache, e.g. 4G (default: the decoded size of all tables in the
    /// directory, at most half of the available memory).
    #[arg(long, value_parser = super::args::size)]
    cache: Option<String>,
    /// With --search or --sample: seed of the random draws.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    seed: u64,
    /// Re-derive only these tiers' records, every slot (comma-separated tier names,
    /// e.g. h0p10c0,h0p9c0); with --sample the other tiers are sampled.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "TIERS",
        conflicts_with = "search"
    )]
    tiers: Option<Vec<String>>,
    /// Re-derive N slots drawn at random in every tier (not named by --tiers) instead
    /// of every slot: a check of a directory too large to verify whole.
    #[arg(long, value_name = "N", conflicts_with = "search", value_parser = super::args::whole::<u64>(1, 1_000_000_000_000, "slots"))]
    sample: Option<u64>,
}

struct Verify<'a>(&'a Args);

impl TierJob for Verify<'_> {
    type Out = VerifyReport;
    fn run<G: Solvable + huntsolve::Evaluate>(self, game: &G) -> Result<VerifyReport> {
        let cache = cache_bytes(self.0)?;
        let scope = VerifyScope {
            full: self.0.tiers.clone(),
            sample: self.0.sample.map(|n| (n, self.0.seed)),
        };
        verify_dir_scoped(
            game,
            &self.0.tables.tables,
            cache,
            Some(G::tier_placements),
            &scope,
            &out::Bars::new(),
        )
    }
}

struct Cross<'a>(&'a Args, usize);

impl TierJob for Cross<'_> {
    type Out = CrossReport;
    fn run<G: TierGame + huntsolve::Evaluate>(self, game: &G) -> Result<CrossReport> {
        let a = self.0;
        crosscheck_dir(
            game,
            &a.tables.tables,
            self.1,
            a.max_distance,
            a.seed,
            &out::Bars::new(),
        )
    }
}

/// The block cache size: `--cache`, else every table's decoded records (2 bytes a
/// slot) capped at half of the available memory, at least the library default.
fn cache_bytes(args: &Args) -> Result<usize> {
    if let Some(text) = &args.cache {
        return Ok(parse_size(text)? as usize);
    }
    let mut total = 0u64;
    for name in list_tiers(&args.tables.tables)? {
        total += 2 * Table::open(&table_path(&args.tables.tables, &name))?.records();
    }
    let cap = default_memory_limit().map_or(u64::MAX, |m| m / 8 * 5); // 80 % · 5/8 = 50 %
    Ok(total
        .min(cap)
        .max(huntsolve::table::DEFAULT_CACHE_BYTES as u64) as usize)
}

/// Runs `verify`.
pub(crate) fn run(args: Args) -> Result<()> {
    set_threads(args.threads.threads)?;
    let any = args.tables.game()?;
    if let Some(n) = args.search {
        return run_cross(&any, &args, n as usize);
    }
    let report = dispatch(&any, Verify(&args))?;
    out::print_check_report(args.json.json, &report, text)?;
    if report.all_agree() {
        Ok(())
    } else if report.mismatches > 0 {
        Err(Error::Disagreement(format!(
            "verify: {} of {} positions disagree with their children{}",
            report.mismatches,
            report.positions,
            if report.orbit_mismatches > 0 {
                format!(
                    ", and the orbits of {} {} do not cover their placements",
                    report.orbit_mismatches,
                    if report.orbit_mismatches == 1 {
                        "tier"
                    } else {
                        "tiers"
                    }
                )
            } else {
                String::new()
            }
        )))
    } else {
        Err(Error::Disagreement(format!(
            "verify: the classes' orbits of {} of {} {} do not cover their placements exactly (a rank collision or a class stored twice)",
            report.orbit_mismatches,
            report.tiers.len(),
            if report.tiers.len() == 1 { "tier" } else { "tiers" }
        )))
    }
}

fn text(r: &VerifyReport) -> String {
    let mut s = format!("rules {}\n", r.rules);
    s.push_str(&format!(
        "{:<14} {:>12} {:>10} {:>12} {:>10} {:>14} {:>6} {:>9} {:>12}\n",
        "tier",
        "slots",
        "checked",
        "positions",
        "mismatches",
        "placements",
        "orbits",
        "seconds",
        "positions/s"
    ));
    for t in &r.tiers {
        s.push_str(&format!(
            "{:<14} {:>12} {:>10} {:>12} {:>10} {:>14} {:>6} {:>9.2} {:>12.0}\n",
            t.tier,
            t.records,
            t.sampled_slots
                .map_or("all".into(), |n| format!("{n} drawn")),
            t.positions,
            t.mismatches,
            t.placements.map_or("-".into(), |p| p.to_string()),
            match t.orbits_agree {
                Some(true) => "ok",
                Some(false) => "WRONG",
                None => "-",
            },
            t.seconds,
            t.positions as f64 / t.seconds.max(1e-9)
        ));
    }
    for t in r.tiers.iter().filter(|t| t.orbits_agree == Some(false)) {
        s.push_str(&format!(
            "ORBITS tier {}: the orbits of its {} classes cover {} placements, but the tier has {} (a rank collision drops classes, a class stored twice adds one)\n",
            t.tier,
            t.positions,
            t.covered.unwrap_or(0),
            t.placements.unwrap_or(0)
        ));
    }
    for m in &r.examples {
        s.push_str(&format!(
            "MISMATCH tier {} slot {} {}: stored {}, children say {}\n",
            m.tier,
            m.index,
            m.position.as_deref().unwrap_or("(no position)"),
            m.stored,
            m.derived
        ));
    }
    if r.all_agree() {
        s.push_str(&format!(
            "all {} positions in {} {} agree with their children\n",
            r.positions,
            r.tiers.len(),
            if r.tiers.len() == 1 {
                "table"
            } else {
                "tables"
            }
        ));
        if r.orbits_checked > 0 {
            let placements: u64 = r.tiers.iter().filter_map(|t| t.covered).sum();
            s.push_str(&format!(
                "their orbits cover the placements of {} of {} {} exactly once ({placements} placements)\n",
                r.orbits_checked,
                r.tiers.len(),
                if r.tiers.len() == 1 { "tier" } else { "tiers" }
            ));
        }
    }
    s
}

fn run_cross(any: &AnyGame, args: &Args, n: usize) -> Result<()> {
    let r = dispatch(any, Cross(args, n))?;
    if args.json.json {
        let s =
            serde_json::to_string_pretty(&r).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::print_json_document(&s)?;
    } else {
        let mut s = format!(
            "rules {}\nsearch vs tables: {} decided positions (distance <= {}) and {} draws, seed {}\n",
            r.rules, r.decided, r.max_distance, r.draws, r.seed
        );
        let hist: Vec<String> = r
            .distances
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(d, n)| format!("{d}:{n}"))
            .collect();
        s.push_str(&format!(
            "decided by distance (plies:count): {}\n",
            hist.join(" ")
        ));
        for x in r.samples.iter().filter(|x| !x.agree) {
            s.push_str(&format!(
                "DISAGREE tier {} slot {} {}: table {}, search {}\n",
                x.tier, x.index, x.position, x.table, x.search
            ));
        }
        s.push_str(&format!(
            "{} of {} agree; {} nodes in {:.1} s\n",
            r.samples.len() - r.disagreements,
            r.samples.len(),
            r.nodes,
            r.seconds
        ));
        out::print(&s)?;
    }
    if r.samples.is_empty() {
        return Err(Error::Usage(format!(
            "verify --search: no position with a stored distance <= {} found",
            r.max_distance
        )));
    }
    if r.all_agree() {
        Ok(())
    } else {
        Err(Error::Disagreement(format!(
            "verify --search: {} of {} positions disagree with the search",
            r.disagreements,
            r.samples.len()
        )))
    }
}
