//! Capture-threshold bounds of a hunt game: how many captures the hunters can
//! force from the start.
//!
//! For `N = 1, 2, …, prey`, the variant `hunter_win=captures>=N` asks "the
//! hunters force N captures" (or immobilise nothing of theirs: the prey's win
//! by blocking the hunters stays a loss for them, endless play a draw). Its
//! answer is monotone in `N`: a strategy forcing `N` captures forces every
//! smaller number, and a strategy of the prey keeping the hunters below `N`
//! keeps them below every larger one. So [`bounds`] proves from below
//! (`N = 1, 2, …` until a run stops unknown) and disproves from above
//! (`N = prey, prey − 1, …`), alternating, each run one-sided ("the hunters
//! force a win" under variant `N`) with its own proof table; a proof raises
//! the lower bound, a disproof lowers the upper one, whatever end asked.
//!
//! Every decided run's certificate ([`super::certificate`]) is extracted and
//! re-checked at once by [`super::check`] (which replays the rules, not the
//! prover's logic); only runs whose certificate holds count for the interval.
//! A certificate that does not hold makes the whole call an error
//! ([`Error::Disagreement`]): a bug in the prover, never a result.
//!
//! With [`BoundsConfig::frontier_depth`], each threshold is run by the
//! frontier driver ([`super::frontier`]) instead of one df-pn run from the
//! start; its start certificate is checked inside the driver the same way.
//!
//! Time: with a total budget, each run gets the time left divided by the number
//! of thresholds still open; when both ends have stopped unknown and time is
//! left, each end is tried once more (from a fresh table), sharing what remains
//! equally.

use super::certificate::{Kind, TableRef};
use super::check::check_with_tables;
use super::dfpn::extract;
use super::dfpn::{Init, ProveConfig, Prover, RunOutcome, RunReport};
use super::tables::TableDirs;
use super::ProofTable;
use crate::error::{Error, Result, TableFault};
use crate::game::{Game, Notation};
use crate::hunt::{HuntGame, HuntRules, HunterWin};
use crate::progress::{stop_requested, Progress};
use crate::table::rules_of_dir;
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Largest certificate a bound run extracts (nodes).
pub(crate) const MAX_BOUND_CERT_NODES: usize = 20_000_000;

/// How to run [`bounds`].
#[derive(Clone, Debug)]
pub struct BoundsConfig {
    /// Total wall-clock budget over all runs (`None`: none).
    pub time: Option<Duration>,
    /// Node limit of each run (`None`: none).
    pub nodes_per_run: Option<u64>,
    /// Prover threads.
    pub threads: usize,
    /// `--hash` of each run, MiB.
    pub hash_mib: usize,
    /// Table directories (or directories of them); each run uses those whose
    /// rules are its variant's.
    pub tables: Vec<PathBuf>,
    /// Where to write the certificates (`None`: checked in memory only).
    pub save_dir: Option<PathBuf>,
    /// Prover options (symmetry, initial numbers, quick check).
    pub symmetry: bool,
    /// Initial numbers of new nodes.
    pub init: Init,
    /// The win-in-one test at new nodes.
    pub quick_check: bool,
    /// Run each threshold by the frontier driver at this depth instead of
    /// one df-pn run from the start ([`super::frontier`]; its own node
    /// limits per position, `nodes_per_run` is then the most nodes of one
    /// frontier position's run).
    pub frontier_depth: Option<u32>,
}

impl Default for BoundsConfig {
    fn default() -> Self {
        let p = ProveConfig::default();
        BoundsConfig {
            time: None,
            nodes_per_run: None,
            threads: 1,
            hash_mib: 256,
            tables: Vec::new(),
            save_dir: None,
            symmetry: p.symmetry,
            init: p.init,
            quick_check: p.quick_check,
            frontier_depth: None,
        }
    }
}

/// A decided run's certificate and its check.
#[derive(Clone, Debug, Serialize)]
pub struct BoundCert {
    /// The file written (with `save_dir`).
    pub file: Option<String>,
    /// Nodes.
    pub nodes: usize,
    /// Bytes of the encoded file.
    pub bytes: usize,
    /// The sha256 of the file's bytes (hex): its name, to cite when the file
    /// is not kept (the trailer crc32 does not depend on the header).
    pub sha256: String,
    /// Table leaves of the certificate, by the check.
    pub table_leaves: u64,
    /// Whether the independent check found it holds.
    pub holds: bool,
}

/// One run of [`bounds`].
#[derive(Clone, Debug, Serialize)]
pub struct BoundRun {
    /// The threshold.
    pub n: u32,
    /// The variant's canonical rules.
    pub rules: String,
    /// The prover's report ("the hunters win?" under the variant).
    pub report: RunReport,
    /// Tables used as leaves (directories).
    pub tables: Vec<String>,
    /// For a decided run: its certificate, or why none could be made.
    pub certificate: Option<BoundCert>,
    /// Why a decided run has no certificate (then it does not count).
    pub certificate_error: Option<String>,
    /// With [`BoundsConfig::frontier_depth`]: the frontier driver's figures
    /// (`report`'s pn and dn are then its root costs, capped to 32 bits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontier: Option<super::frontier::FrontierResult>,
}

/// The result of [`bounds`].
#[derive(Clone, Debug, Serialize)]
pub struct Bounds {
    /// The rules asked about (canonical).
    pub rules: String,
    /// The prey in the game: the largest meaningful threshold.
    pub prey: u32,
    /// The largest N proven with a checked certificate (0: none).
    pub proven: u32,
    /// The smallest N disproven with a checked certificate (`None`: none).
    pub disproven: Option<u32>,
    /// The thresholds left open: `proven + 1 ..= disproven − 1` (or `prey`).
    pub open: Vec<u32>,
    /// Every run, in the order made.
    pub runs: Vec<BoundRun>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The variant of `rules` with `hunter_win=captures>=n`.
pub fn threshold_variant(rules: &HuntRules, n: u32) -> Result<HuntGame> {
    let mut r = rules.clone();
    r.hunter_win = HunterWin::Captures(n.min(u8::MAX as u32) as u8);
    HuntGame::new(r)
}

/// The table directories among `dirs` (each a table directory or a directory
/// of them) whose tables are of `rules`.
fn dirs_for(rules: &str, dirs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for d in dirs {
        if !d.is_dir() {
            return Err(Error::table(
                d,
                TableFault::NotAFile,
                "--tables: not a directory",
            ));
        }
        let mut cands = vec![d.clone()];
        let mut subs: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(|e| Error::io(format!("reading {}", d.display()), e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        subs.sort();
        cands.extend(subs);
        for c in cands {
            if let Ok(r) = rules_of_dir(&c) {
                if r == rules {
                    out.push(c);
                }
            }
        }
    }
    Ok(out)
}

fn file_name(rules: &str, n: u32, kind: Kind) -> String {
    let safe: String = rules
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let k = match kind {
        Kind::Win => "win",
        Kind::NoWin => "no-win",
    };
    format!("{safe}.N{n}.{k}.proof")
}

/// Proves and disproves thresholds of `rules` (a hunt game; see the module
/// docs). Errors: bad rules, unreadable tables, an interrupt
/// ([`Error::Interrupted`]), a certificate that does not hold
/// ([`Error::Disagreement`]).
pub fn bounds(rules: &HuntRules, cfg: &BoundsConfig, progress: &dyn Progress) -> Result<Bounds> {
    let base = HuntGame::new(rules.clone())?;
    super::check_repetition_rule(&base)?;
    let t0 = Instant::now();
    let prey = rules.prey as u32;
    if prey == 0 {
        return Err(Error::Rules(
            "bounds: the rules have no prey to capture".into(),
        ));
    }
    // Every --tables DIR serves some threshold (a directory of none would be
    // used as no leaves at all, silently).
    let variants: Vec<String> = (1..=prey)
        .map(|n| threshold_variant(rules, n).map(|g| g.rules_string()))
        .collect::<Result<_>>()?;
    for d in &cfg.tables {
        let serves = variants
            .iter()
            .any(|v| !dirs_for(v, std::slice::from_ref(d)).is_ok_and(|found| found.is_empty()));
        if !serves {
            return Err(Error::table(
                d,
                TableFault::Missing,
                format!(
                    "--tables: no tables of these rules or of their capture-threshold variants \
                     in it or its subdirectories; solve a variant into it (e.g. huntsolve solve \
                     '{}' --out DIR) or drop --tables",
                    variants[0]
                ),
            ));
        }
    }
    if let Some(d) = &cfg.save_dir {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::io(format!("creating {}", d.display()), e))?;
    }
    let mut out = Bounds {
        rules: base.rules_string(),
        prey,
        proven: 0,
        disproven: None,
        open: Vec::new(),
        runs: Vec::new(),
        seconds: 0.0,
    };
    // lo: largest proven; hi: smallest disproven (prey + 1 while none).
    let (mut lo, mut hi) = (0u32, prey + 1);
    let left = |t0: &Instant| cfg.time.map(|t| t.saturating_sub(t0.elapsed()));
    let mut stuck = [false, false];
    let mut retried = false;
    // In the retry pass: the ends not yet retried (each gets an equal share).
    let mut to_retry = 0u32;
    let mut turn = 0usize;
    loop {
        if lo + 1 >= hi || stop_requested() {
            break;
        }
        if left(&t0).is_some_and(|l| l.is_zero()) {
            break;
        }
        if stuck[0] && stuck[1] {
            if retried || cfg.time.is_none() {
                break;
            }
            // Time is left: each end once more, with half of it each.
            retried = true;
            stuck = [false, false];
            to_retry = 2;
        }
        let end = if stuck[turn] { 1 - turn } else { turn };
        turn = 1 - end;
        let n = if end == 0 { lo + 1 } else { hi - 1 };
        let open = hi - lo - 1;
        let time = left(&t0).map(|l| {
            if retried {
                let share = l / to_retry.max(1);
                to_retry = to_retry.saturating_sub(1);
                share
            } else {
                l / open.max(1)
            }
        });
        let run = run_threshold(rules, n, cfg, time, progress)?;
        match (&run.report.outcome, &run.certificate) {
            (RunOutcome::Proven, Some(c)) if c.holds => lo = lo.max(n),
            (RunOutcome::Disproven, Some(c)) if c.holds => hi = hi.min(n),
            _ => stuck[end] = true,
        }
        out.runs.push(run);
        if stop_requested() {
            return Err(Error::Interrupted);
        }
    }
    if stop_requested() {
        return Err(Error::Interrupted);
    }
    out.proven = lo;
    out.disproven = (hi <= prey).then_some(hi);
    out.open = (lo + 1..hi).collect();
    out.seconds = t0.elapsed().as_secs_f64();
    Ok(out)
}

/// One run: "the hunters win?" under threshold `n`, its certificate and check.
fn run_threshold(
    rules: &HuntRules,
    n: u32,
    cfg: &BoundsConfig,
    time: Option<Duration>,
    progress: &dyn Progress,
) -> Result<BoundRun> {
    let game = threshold_variant(rules, n)?;
    let rs = game.rules_string();
    let dirs = dirs_for(&rs, &cfg.tables)?;
    let tables = TableDirs::open(&game, &dirs)?;
    if let Some(depth) = cfg.frontier_depth {
        return frontier_threshold(&game, &tables, &dirs, n, depth, cfg, time, progress);
    }
    let tt = ProofTable::new(cfg.hash_mib.max(1));
    let pcfg = ProveConfig {
        threads: cfg.threads.max(1),
        time,
        nodes: cfg.nodes_per_run,
        symmetry: cfg.symmetry,
        init: cfg.init,
        quick_check: cfg.quick_check,
        ..Default::default()
    };
    let prover = Prover::new(&game, &tables, &tt, pcfg);
    let start = game.start();
    progress.message(&format!("N = {n}: the hunters force {n} captures?"));
    let report = prover.prove_side(&start, 0, progress);
    if let Some(e) = tables.take_error() {
        return Err(e);
    }
    let mut run = BoundRun {
        n,
        rules: rs.clone(),
        report,
        tables: dirs.iter().map(|d| d.display().to_string()).collect(),
        certificate: None,
        certificate_error: None,
        frontier: None,
    };
    if run.report.outcome == RunOutcome::Unknown {
        return Ok(run);
    }
    let leaf = |p: &<HuntGame as Game>::Pos| -> Result<Option<TableRef>> {
        Ok(tables.leaf(&game, p)?.map(|x| x.0))
    };
    let cert = match extract(
        &prover,
        &start,
        0,
        run.report.outcome,
        &leaf,
        MAX_BOUND_CERT_NODES,
    ) {
        Ok(c) => c,
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(e) => {
            run.certificate_error = Some(e.to_string());
            return Ok(run);
        }
    };
    let want = match run.report.outcome {
        RunOutcome::Proven => Kind::Win,
        _ => Kind::NoWin,
    };
    let bytes = cert.encode();
    let mut file = None;
    if let Some(d) = &cfg.save_dir {
        let path = d.join(file_name(&rs, n, want));
        cert.write(&path)?;
        file = Some(path.display().to_string());
    }
    let report = check_with_tables(&game, &cert, &tables.dirs())?;
    let holds = report.ok()
        && cert.header.kind == want
        && cert.header.side == 0
        && cert.header.position == game.format_position(&start);
    if !holds {
        return Err(Error::Disagreement(format!(
            "bounds: the certificate of N = {n} ({}) does not hold: {}",
            file.as_deref().unwrap_or("in memory"),
            report.examples.first().map_or("", |s| s.as_str())
        )));
    }
    run.certificate = Some(BoundCert {
        file,
        nodes: cert.nodes.len(),
        bytes: bytes.len(),
        sha256: super::certificate::sha256_hex(&bytes),
        table_leaves: report.table_leaves,
        holds,
    });
    Ok(run)
}

/// One threshold by the frontier driver: its start certificate is checked
/// inside the driver (an error if it does not hold), so a decided run counts.
#[allow(clippy::too_many_arguments)]
fn frontier_threshold(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    dirs: &[PathBuf],
    n: u32,
    depth: u32,
    cfg: &BoundsConfig,
    time: Option<Duration>,
    progress: &dyn Progress,
) -> Result<BoundRun> {
    use super::frontier::{frontier, FrontierConfig};
    let defaults = FrontierConfig::default();
    let fcfg = FrontierConfig {
        depth,
        threads: cfg.threads.max(1),
        hash_mib: cfg.hash_mib.max(1),
        time,
        max_job_nodes: cfg.nodes_per_run.unwrap_or(defaults.max_job_nodes),
        out: cfg
            .save_dir
            .as_ref()
            .map(|d| d.join(format!("frontier.N{n}"))),
        symmetry: cfg.symmetry,
        init: cfg.init,
        quick_check: cfg.quick_check,
        ..defaults
    };
    progress.message(&format!(
        "N = {n}: the hunters force {n} captures? (frontier at {depth} plies)"
    ));
    let f = frontier(game, tables, 0, &fcfg, progress)?;
    let cap = |c: Option<u64>| c.map_or(u32::MAX, |c| c.min(u32::MAX as u64 - 1) as u32);
    let (pn, dn) = match f.outcome {
        RunOutcome::Proven => (0, u32::MAX),
        RunOutcome::Disproven => (u32::MAX, 0),
        RunOutcome::Unknown => (cap(f.root_proof_cost), cap(f.root_disproof_cost)),
    };
    let report = RunReport {
        side: 0,
        side_name: game.side_name(0),
        outcome: f.outcome,
        pn,
        dn,
        nodes: f.nodes,
        positions: 0,
        table_hits: 0,
        seconds: f.seconds,
        proof_plies: None,
        stopped: None,
        memory_peak_bytes: 0,
    };
    let certificate = f.certificate.as_ref().map(|c| BoundCert {
        file: c.file.clone(),
        nodes: c.nodes,
        bytes: c.bytes,
        sha256: c.sha256.clone(),
        table_leaves: c.table_leaves,
        holds: c.holds == Some(true),
    });
    Ok(BoundRun {
        n,
        rules: game.rules_string(),
        report,
        tables: dirs.iter().map(|d| d.display().to_string()).collect(),
        certificate,
        certificate_error: None,
        frontier: Some(f),
    })
}
