//! `huntsolve prove <rules> [<position>|start] [--moves "..."] [--side NAME]
//! [--tables DIR]... [--threads T] [--hash MiB] [--time S] [--nodes N]
//! [--save FILE] [--json]`: proves a position's value with the df-pn prover
//! (leaves: terminal positions and the tables), and
//! `huntsolve check-proof FILE [--tables DIR]... [--json]`: re-checks a saved
//! certificate with the rules engine (exit 1 when it does not hold, 2 when the
//! file is corrupt or of other rules).
//!
//! Without `--side`, the value comes from up to two one-sided runs (the mover
//! wins?; else the opponent wins?; else a draw). With `--save FILE`, each run
//! that decides the value writes its certificate: one file for a win or a
//! loss, and for a draw `FILE.<side>` per side (each side's "cannot win").

mod within;

use super::args::{Hash, Json, Threads};
use super::job::{dispatch, TierJob};
use super::out;
use super::out::sha256_hex;
use huntsolve::prove::extract;
use huntsolve::prove::TableDirs;
use huntsolve::prove::{
    check_repetition_rule, ProofTable, ProveConfig, Prover, RunOutcome, RunReport,
};
use huntsolve::prove::{check_with_other_table_files, check_with_tables};
use huntsolve::prove::{Certificate, TableRef};
use huntsolve::retro::TierGame;
use huntsolve::Progress;
use huntsolve::{AnyGame, Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Largest certificate written (nodes).
const MAX_CERT_NODES: usize = 50_000_000;

/// Arguments of `prove`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: a preset name with options.
    pub(crate) rules: String,
    /// Position text or `start`.
    #[arg(default_value = "start")]
    pub(crate) position: String,
    /// Moves to play from the position first, space-separated.
    #[arg(long)]
    pub(crate) moves: Vec<String>,
    /// Prove only "this side forces a win" (a side name, e.g. hunter, prey).
    #[arg(long)]
    pub(crate) side: Option<String>,
    /// Directory of solved tables used as leaves (repeatable).
    #[arg(long)]
    pub(crate) tables: Vec<PathBuf>,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    pub(crate) hash: Hash,
    /// Time limit in seconds (then the answer is "unknown" with the root's numbers).
    #[arg(long, value_parser = super::args::seconds())]
    pub(crate) time: Option<f64>,
    /// Node limit over all threads.
    #[arg(long, value_parser = super::args::NODES)]
    pub(crate) nodes: Option<u64>,
    /// Write the certificate(s) of the result (nothing, with a note on stderr, when the
    /// value is unknown: the report is printed as usual).
    #[arg(long)]
    pub(crate) save: Option<PathBuf>,
    /// Bound the claim by plies: "the side forces a win within N plies" is
    /// proven or refuted by an exhaustive bounded search (no tables; without
    /// --side, for both sides), with a certificate check-proof re-checks.
    #[arg(long, value_name = "PLIES", value_parser = super::args::whole::<u32>(1, huntsolve::prove::MAX_WITHIN as u64, "plies"))]
    pub(crate) within: Option<u32>,
    #[command(flatten)]
    pub(crate) opts: ProverOpts,
    #[command(flatten)]
    pub(crate) json: Json,
}

/// The prover's search options (for comparisons; the defaults are the measured best).
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct ProverOpts {
    /// Initial proof/disproof numbers of new nodes: `heuristic` (from the position,
    /// df-pn+) or `plain` (1, 1).
    #[arg(long, value_name = "plain|heuristic", default_value = "heuristic")]
    pub init: huntsolve::prove::Init,
    /// Key the proof table by the position's own hash, not by its symmetry class.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Do not test new nodes for a win in one move.
    #[arg(long)]
    pub no_quick_check: bool,
}

impl ProverOpts {
    /// `cfg` with these options.
    pub(crate) fn apply(self, cfg: ProveConfig) -> ProveConfig {
        ProveConfig {
            init: self.init,
            symmetry: !self.no_symmetry,
            quick_check: !self.no_quick_check,
            ..cfg
        }
    }
}

/// Arguments of `check-proof`.
#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// The certificate file.
    file: PathBuf,
    /// Directories of the tables the leaves come from (repeatable).
    #[arg(long)]
    tables: Vec<PathBuf>,
    /// The certificate's rules as given at the command line, for rules with a
    /// board file: the certificate is untrusted input, so a board file it
    /// names is never read; this one is (it must give the certificate's rules).
    #[arg(long)]
    rules: Option<String>,
    /// Read a table leaf from the given table of its tier even when its checksum is
    /// not the one the certificate names (the same records in other blocks: another
    /// block size or zstd build); every leaf's value is still checked.
    #[arg(long)]
    other_table_files: bool,
    #[command(flatten)]
    pub(crate) json: Json,
}

/// The position a `prove` report answers, as its JSON document opens.
#[derive(Serialize)]
pub(super) struct Asked {
    pub(super) rules: String,
    pub(super) position: String,
    side_to_move: &'static str,
    /// The side to move in the game's own words (`leopards`, `goats`).
    pub(super) side_to_move_label: &'static str,
    #[serde(skip)]
    pub(super) words: out::SideWords,
}

impl Asked {
    pub(super) fn of<G: TierGame>(game: &G, pos: &G::Pos) -> Self {
        let mover = game.side_to_move(pos);
        Asked {
            rules: game.rules_string(),
            position: game.format_position(pos),
            side_to_move: game.side_name(mover),
            side_to_move_label: game.side_label(mover),
            words: out::SideWords::of(game),
        }
    }
}

#[derive(Serialize)]
struct ProveOut {
    #[serde(flatten)]
    asked: Asked,
    /// `win`, `loss`, `draw` or `unknown` for the side to move (value mode),
    /// or `proven`, `disproven`, `unknown` for `--side`.
    value: String,
    runs: Vec<RunReport>,
    nodes: u64,
    nodes_per_second: f64,
    table_hits: u64,
    seconds: f64,
    certificates: Vec<SavedCert>,
    peak_memory_bytes: Option<u64>,
    hash_bytes: usize,
    /// The `--hash` budget and the most of it in use at once.
    memory_budget_bytes: usize,
    memory_budget_peak_bytes: usize,
    /// Why a certificate could not be extracted or saved (after the proof).
    #[serde(skip_serializing_if = "Option::is_none")]
    save_error: Option<String>,
    /// What results/ records about the position (see `huntsolve::stats::KNOWN`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    recorded: Vec<huntsolve::stats::KnownClaim>,
}

#[derive(Serialize)]
struct SavedCert {
    file: String,
    kind: String,
    side: String,
    nodes: usize,
    bytes: usize,
    /// The file's name: the sha256 of its bytes (hex).
    sha256: String,
    depth: Option<u32>,
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub(crate) fn peak_memory() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `prove`.
pub(crate) fn run(args: Args) -> Result<()> {
    let any = AnyGame::parse(&args.rules)?;
    dispatch(&any, Prove(&args))
}

struct Prove<'a>(&'a Args);

impl TierJob for Prove<'_> {
    type Out = ();
    fn run<G: TierGame>(self, game: &G) -> Result<()> {
        match self.0.within {
            Some(plies) => within::within(game, self.0, plies),
            None => prove_game(game, self.0),
        }
    }
}

/// The position `args` names (its moves played) and the `--side` asked for.
pub(crate) fn position_and_side<G: TierGame>(
    game: &G,
    args: &Args,
) -> Result<(G::Pos, Option<usize>)> {
    let pos = game.parse_position(&args.position)?;
    let pos = huntsolve::game::play_line(game, &pos, &args.moves.join(" "))?;
    let side = args
        .side
        .as_deref()
        .map(|s| side_index(game, s))
        .transpose()?;
    Ok((pos, side))
}

fn side_index<G: TierGame>(game: &G, name: &str) -> Result<usize> {
    huntsolve::game::side_by_name(game, name).ok_or_else(|| {
        Error::Usage(format!(
            "--side {}: not a side of these rules; expected {}",
            huntsolve::quote(name),
            huntsolve::game::side_choices(game)
        ))
    })
}

fn prove_game<G: TierGame>(game: &G, args: &Args) -> Result<()> {
    check_repetition_rule(game)?;
    let (pos, side) = position_and_side(game, args)?;
    let tables = TableDirs::open(game, &args.tables)?;
    if let Some(file) = &args.save {
        // Before the proof: a bad path must not cost the proof.
        huntsolve::prove::check_save_path(file)?;
    }
    let tt = ProofTable::new(args.hash.or(256).max(1));
    let cfg = args.opts.apply(ProveConfig {
        threads: args.threads.or(1),
        time: args.time.map(Duration::from_secs_f64),
        nodes: args.nodes,
        ..Default::default()
    });
    let prover = Prover::new(game, &tables, &tt, cfg);
    let bars = out::Bars::new();
    bars.stage("prove", 0);
    let (value, runs) = match side {
        Some(s) => {
            let r = prover.prove_side(&pos, s, &bars);
            let v = match r.outcome {
                RunOutcome::Proven => "proven",
                RunOutcome::Disproven => "disproven",
                RunOutcome::Unknown => "unknown",
            };
            (v.to_string(), vec![r])
        }
        None => {
            let (v, runs) = prover.value(&pos, &bars);
            (
                v.map_or("unknown".to_string(), |v| v.name().to_string()),
                runs,
            )
        }
    };
    bars.finish_stage();
    if let Some(e) = tables.take_error() {
        return Err(e);
    }
    if huntsolve::stop_requested() {
        return Err(Error::Interrupted);
    }
    // A failed extraction or save is reported after the proof's report, which
    // is printed whatever happens here.
    let (certs, save_error) = match &args.save {
        Some(file) => save_certificates(&prover, &pos, file, side, &value, &runs),
        None => (Vec::new(), None),
    };
    let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
    let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
    let o = ProveOut {
        asked: Asked::of(game, &pos),
        value,
        nodes,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        table_hits: runs.iter().map(|r| r.table_hits).sum(),
        seconds,
        runs,
        certificates: certs,
        peak_memory_bytes: peak_memory(),
        hash_bytes: tt.bytes(),
        memory_budget_bytes: tt.budget().cap(),
        memory_budget_peak_bytes: tt.budget().peak(),
        save_error: save_error.as_ref().map(|e| e.to_string()),
        recorded: huntsolve::stats::known_claims(game, &pos)
            .into_iter()
            .copied()
            .collect(),
    };
    // One document: a save error is in it (`save_error`), not printed again.
    out::print_saved(args.json.json, &o, || text(&o), save_error)
}

/// `--save FILE`: the certificate of each run that decides the value (see the
/// module docs), and the error that stopped the extraction or a write.
fn save_certificates<G: TierGame>(
    prover: &Prover<'_, G, TableDirs<G>>,
    pos: &G::Pos,
    file: &Path,
    side: Option<usize>,
    value: &str,
    runs: &[RunReport],
) -> (Vec<SavedCert>, Option<Error>) {
    let (game, tables) = (prover.game, prover.oracle);
    let mut certs = Vec::new();
    let mut save_error = None;
    let decisive: Vec<&RunReport> = match (side, value) {
        (Some(_), "unknown") | (None, "unknown") => Vec::new(),
        (Some(_), _) => runs.iter().collect(),
        (None, "draw") => runs.iter().collect(),
        (None, _) => runs
            .iter()
            .filter(|r| r.outcome == RunOutcome::Proven)
            .collect(),
    };
    if decisive.is_empty() {
        // The report (root numbers, nodes) is still worth having; nothing is written.
        eprintln!(
            "prove: nothing saved to {}: the value is unknown",
            file.display()
        );
    }
    let leaf = |p: &G::Pos| -> Result<Option<TableRef>> { Ok(tables.leaf(game, p)?.map(|x| x.0)) };
    for r in decisive {
        let path = if decisive_len(runs, side, value) > 1 {
            PathBuf::from(format!("{}.{}", file.display(), r.side_name))
        } else {
            file.to_path_buf()
        };
        let cert = match extract(prover, pos, r.side, r.outcome, &leaf, MAX_CERT_NODES)
            .and_then(|c| c.write(&path).map(|()| c))
        {
            Ok(c) => c,
            Err(e) => {
                save_error = Some(e);
                break;
            }
        };
        let bytes = cert.encode();
        certs.push(SavedCert {
            file: path.display().to_string(),
            kind: cert.header.kind.name().to_string(),
            side: r.side_name.to_string(),
            nodes: cert.nodes.len(),
            bytes: bytes.len(),
            sha256: sha256_hex(&bytes),
            depth: cert.depth(),
        });
    }
    (certs, save_error)
}

fn decisive_len(runs: &[RunReport], side: Option<usize>, value: &str) -> usize {
    match (side, value) {
        (None, "draw") => runs.len(),
        _ => 1,
    }
}

fn text(o: &ProveOut) -> String {
    let mut s = format!(
        "rules    {}\nposition {}\nto move  {}\nvalue    {}\n",
        o.asked.rules, o.asked.position, o.asked.side_to_move_label, o.value
    );
    for k in &o.recorded {
        s.push_str(&format!("recorded {}\n", huntsolve::stats::claim_line(k)));
    }
    for r in &o.runs {
        let undecided = match r.outcome {
            RunOutcome::Unknown => format!("; {}", out::undecided(r.nodes, r.pn, r.dn)),
            _ => String::new(),
        };
        s.push_str(&format!(
            "run: {}? {:<9}{} {} nodes, {} table hits, {:.2} s{}{undecided}\n",
            out::side_says(o.asked.words.label(r.side_name), "wins", "win"),
            format!("{:?}", r.outcome).to_lowercase(),
            r.stopped
                .map_or(String::new(), |s| format!(" ({})", s.text())),
            r.nodes,
            r.table_hits,
            r.seconds,
            r.proof_plies
                .map_or(String::new(), |d| format!(", proof within {d} plies"))
        ));
    }
    s.push_str(&format!(
        "total    {} nodes, {:.0} nodes/s, {} table hits, {:.2} s, proof table {:.1} MiB, \
         --hash budget {:.1} of {:.1} MiB used at peak, peak memory {}\n",
        o.nodes,
        o.nodes_per_second,
        o.table_hits,
        o.seconds,
        o.hash_bytes as f64 / (1 << 20) as f64,
        o.memory_budget_peak_bytes as f64 / (1 << 20) as f64,
        o.memory_budget_bytes as f64 / (1 << 20) as f64,
        o.peak_memory_bytes
            .map_or("unknown".into(), |b| format!("{} MiB", b >> 20))
    ));
    for c in &o.certificates {
        s.push_str(&format!(
            "saved    {} ({} for {}, {} nodes, {} bytes, sha256 {}{})\n",
            c.file,
            c.kind,
            o.asked.words.label(&c.side),
            c.nodes,
            c.bytes,
            c.sha256,
            c.depth
                .map_or(String::new(), |d| format!(", longest line {d} plies"))
        ));
    }
    s
}

/// Runs `check-proof`.
pub(crate) fn run_check(args: CheckArgs) -> Result<()> {
    let f = &args.file;
    let bytes = huntsolve::read_regular(f)?;
    let cert = Certificate::decode(&bytes).map_err(|e| Error::certificate(f, e.to_string()))?;
    // The file is named by its sha256 (not by its trailer crc32, which does
    // not depend on the header).
    let sha256 = sha256_hex(&bytes);
    // The certificate's rules may name built-in boards only: a board file named
    // in an untrusted file is not read (it could be any file, a FIFO or a
    // device). A board file comes from the command line (`--rules`); `check`
    // then compares that game's rules and fingerprint with the certificate's.
    let any = match &args.rules {
        Some(rules) => AnyGame::parse(rules)?,
        None => AnyGame::parse_builtin(&cert.header.rules).map_err(|e| match e {
            e @ Error::BoardFileRefused { .. } => Error::Rules(format!(
                "the certificate's rules: {e}; to check a certificate of rules with a board file, give those rules with --rules"
            )),
            e => e,
        })?,
    };
    let report = dispatch(&any, Check(&args, &cert)).map_err(|e| e.in_file(f))?;
    let words = huntsolve::with_game!(&any, g => out::SideWords::of(g));
    if args.json.json {
        #[derive(Serialize)]
        struct CheckOut<'a> {
            sha256: &'a str,
            #[serde(flatten)]
            report: &'a huntsolve::prove::CheckReport,
        }
        let o = CheckOut {
            sha256: &sha256,
            report: &report,
        };
        let s = serde_json::to_string(&o).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::print_json_document(&s)?;
    } else {
        let mut s = format!(
            "rules    {}\nposition {}\nclaim    {}\nnodes    {} ({} terminal leaves, {} table leaves)\nsha256   {sha256}\n",
            report.rules,
            report.position,
            match report.kind {
                huntsolve::prove::Kind::Win =>
                    out::side_says(words.label(&report.side), "forces", "force") + " a win",
                huntsolve::prove::Kind::NoWin =>
                    format!("{} cannot force a win", words.label(&report.side)),
                other => format!("{}: {}", words.label(&report.side), other.name()),
            },
            report.nodes,
            report.terminal_leaves,
            report.table_leaves
        );
        if let Some(w) = cert.header.within {
            s.push_str(&format!("within   {w} plies (the claim is bounded)\n"));
        }
        if let Some(d) = report.depth {
            s.push_str(&format!("longest line {d} plies\n"));
        }
        if report.other_table_files > 0 {
            s.push_str(&format!(
                "tables   {} leaves read from table files other than those the certificate names \
                 (--other-table-files); their values agree with the tables given\n",
                report.other_table_files
            ));
        }
        for e in &report.examples {
            s.push_str(&format!("PROBLEM {e}\n"));
        }
        s.push_str(if report.ok() {
            "the certificate holds\n"
        } else {
            "the certificate does NOT hold\n"
        });
        out::print(&s)?;
    }
    if !report.ok() {
        // Exit status 1: a check disagreed (2 is for bad input).
        return Err(Error::Disagreement(
            "check-proof: the certificate does not hold".into(),
        ));
    }
    Ok(())
}

struct Check<'a>(&'a CheckArgs, &'a Certificate);

impl TierJob for Check<'_> {
    type Out = huntsolve::prove::CheckReport;
    fn run<G: TierGame>(self, game: &G) -> Result<Self::Out> {
        let (args, cert) = (self.0, self.1);
        if !cert.header.tables.is_empty() && args.tables.is_empty() {
            return Err(Error::Usage(format!(
                "the proof's leaves come from {} tables (e.g. {}); give --tables DIR",
                cert.header.tables.len(),
                cert.header.tables[0].tier.escape_debug()
            )));
        }
        // The leaves are read by the checker's own path to the tables, not
        // by the prover's lookup (`TableDirs`).
        if args.other_table_files {
            check_with_other_table_files(game, cert, &args.tables)
        } else {
            check_with_tables(game, cert, &args.tables)
        }
    }
}
