//! `huntsolve openings`: ranks the first placements of a hunt game (and the
//! replies with `--plies 2`) up to the board's symmetries by search, and writes
//! `runs/openings-<rules>.csv` and `.json` (`--out DIR`) (the command line is recorded in
//! both). With `--prove`, each line's end position is then given to the df-pn
//! prover (`--prove-nodes`/`--prove-time` per position, the `--tables` as
//! leaves) and the lines are re-ranked by proven value where one was found
//! (see `huntsolve::answer::openings`).

use super::args::SearchOptions;
use super::job::apply_evals;
use super::out::{println, Bars};
use huntsolve::answer::{prove_openings, ProveOpeningsConfig, ProvenOpening};
use huntsolve::game::Game;
use huntsolve::hunt::{HuntGame, HuntPos};
use huntsolve::prove::check_repetition_rule;
use huntsolve::prove::TableDirs;
use huntsolve::search::score_text;
use huntsolve::search::{rank_openings, OpeningLine, OpeningsConfig};
use huntsolve::AnyGame;
use huntsolve::{Error, Result};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `openings`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules of a hunt game: a preset name with optional `,key=value` options.
    pub rules: String,
    /// Total search depth from the start position.
    #[arg(long, default_value_t = 6, value_parser = super::args::DEPTH)]
    pub depth: u32,
    /// Plies of the ranked lines: 1 (first placements) or 2 (and the replies).
    #[arg(long, default_value_t = 1, value_parser = super::args::whole::<u32>(1, 2, "plies"))]
    pub plies: u32,
    #[command(flatten)]
    pub search: SearchOptions,
    /// Output folder (default: the git-ignored runs/; the committed files under
    /// results/ are re-made by giving --out results).
    #[arg(long, default_value = "runs")]
    pub out: PathBuf,
    /// Prove each line's end position with the df-pn prover and rank by proven value.
    #[arg(long)]
    pub prove: bool,
    /// Prover node limit per position (with `--prove`).
    #[arg(long, default_value_t = 1_000_000, value_parser = super::args::NODES)]
    pub prove_nodes: u64,
    /// Prover time limit per position in seconds (with `--prove`).
    #[arg(long, value_parser = super::args::seconds())]
    pub prove_time: Option<f64>,
    /// Directory of solved tables (repeatable): leaves of the search and the prover.
    #[arg(long)]
    pub tables: Vec<PathBuf>,
}

/// Symmetry-canonical key of a hunt position: the least image of the piece
/// masks over the board's symmetry group (hands, captures and side unchanged
/// by symmetry, so they are part of the key).
fn canon(g: &HuntGame, p: &HuntPos) -> (u64, u64, u8, u8, u8, bool) {
    let board = g.board();
    let (h, pr) = (0..board.symmetries().len())
        .map(|s| (board.map_mask(s, p.hunters), board.map_mask(s, p.prey)))
        .min()
        .unwrap_or((p.hunters, p.prey));
    (
        h,
        pr,
        p.hunters_in_hand,
        p.prey_in_hand,
        p.captured,
        p.hunter_to_move,
    )
}

/// Runs `openings`.
pub(crate) fn run(args: Args) -> Result<()> {
    let any = AnyGame::parse(&args.rules)?;
    let mut g = match any {
        AnyGame::Hunt(g) => g,
        AnyGame::Tafl(_) => {
            return Err(Error::Usage(format!(
                "'{}': openings ranks the placements of hunt games; use query for tafl",
                args.rules
            )))
        }
    };
    apply_evals(&mut g, &args.search.eval)?;
    if args.prove {
        check_repetition_rule(&g)?;
    }
    let tables = TableDirs::open(&g, &args.tables)?;
    let cfg = OpeningsConfig {
        depth: args.depth,
        plies: args.plies,
        threads: args.search.threads.or(1),
        hash_mib: args.search.hash.or(256),
    };
    let started = Instant::now();
    let bars = Bars::new();
    let lines = rank_openings(&g, &tables, &cfg, |p| canon(&g, p), &bars)?;
    let lines: Vec<(OpeningLine<HuntGame>, ProvenOpening)> = if args.prove {
        let pcfg = ProveOpeningsConfig {
            nodes: Some(args.prove_nodes),
            time: args.prove_time.map(Duration::from_secs_f64),
            hash_mib: args.search.hash.or(256),
            threads: args.search.threads.or(1),
        };
        prove_openings(&g, &tables, lines, &pcfg, &bars)?
    } else {
        lines
            .into_iter()
            .map(|l| {
                let p = ProvenOpening::from(&l);
                (l, p)
            })
            .collect()
    };
    if let Some(e) = tables.take_error() {
        return Err(e);
    }
    let secs = started.elapsed().as_secs_f64();
    let mut command = format!(
        "huntsolve openings {} --depth {} --plies {} --threads {}{}",
        args.rules,
        args.depth,
        args.plies,
        args.search.threads.or(1),
        args.search
            .eval
            .iter()
            .map(|e| format!(" --eval {e}"))
            .collect::<String>()
    );
    for t in &args.tables {
        command.push_str(&format!(" --tables {}", t.display()));
    }
    if args.prove {
        command.push_str(&format!(" --prove --prove-nodes {}", args.prove_nodes));
        if let Some(t) = args.prove_time {
            command.push_str(&format!(" --prove-time {t}"));
        }
        command.push_str(&format!(" --hash {}", args.search.hash.or(256)));
    }
    let first = g.side_label(g.side_to_move(&g.start()));
    println(&format!("# {command}  ({secs:.1} s)"))?;
    println(&format!(
        "# score and proven value from the first mover's view ({first}); class = symmetric equivalents"
    ))?;
    println(&format!(
        "{:>4}  {:<12} {:>5} {:>10} {:<12} {:<6} {:>12}  pv",
        "rank", "line", "class", "score", "proven", "source", "nodes"
    ))?;
    for (i, (l, p)) in lines.iter().enumerate() {
        println(&format!(
            "{:>4}  {:<12} {:>5} {:>10} {:<12} {:<6} {:>12}  {}",
            i + 1,
            l.text,
            l.class_size,
            score_text(l.score),
            proven_text(p),
            p.source.map_or("-", |s| s.name()),
            l.nodes + p.prover_nodes,
            l.pv
        ))?;
    }
    write_files(&g, &args, &lines, &command, secs)
}

/// `win in 9`, `win ≤17` (a proof's length bounds the distance), `draw` or `-`.
fn proven_text(p: &ProvenOpening) -> String {
    match (p.value, p.distance, p.plies_at_most) {
        (None, _, _) => "-".into(),
        (Some(v), Some(d), _) => format!("{v} in {d}"),
        (Some(v), None, Some(d)) => format!("{v} ≤{d}"),
        (Some(v), None, None) => v.name().into(),
    }
}

fn write_files(
    g: &HuntGame,
    args: &Args,
    lines: &[(OpeningLine<HuntGame>, ProvenOpening)],
    command: &str,
    secs: f64,
) -> Result<()> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Error::io(format!("creating {}", args.out.display()), e))?;
    let name: String = g
        .rules_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let suffix = if args.plies == 2 { "-2ply" } else { "" };
    let csv_path = args.out.join(format!("openings-{name}{suffix}.csv"));
    let mut csv = format!(
        "# {command}\n# {secs:.1} s; score: the search's heuristic evaluation (100 = about one piece of material; not a proven value), and the proven value, from the first mover's view ({}); source: table, proof (df-pn) or search; plies_at_most: the proof's length\n",
        g.side_label(g.side_to_move(&g.start()))
    );
    // The records through the csv crate (RFC 4180 quoting), after the comment lines.
    let bad = |e: csv::Error| Error::Internal(format!("encoding {}: {e}", csv_path.display()));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "line",
        "class_size",
        "score",
        "proven",
        "source",
        "distance",
        "plies_at_most",
        "prover_nodes",
        "nodes",
        "pv",
    ])
    .map_err(bad)?;
    for (i, (l, p)) in lines.iter().enumerate() {
        w.write_record([
            (i + 1).to_string(),
            l.text.clone(),
            l.class_size.to_string(),
            l.score.to_string(),
            p.value.map(|v| v.name()).unwrap_or("").to_string(),
            p.source.map(|s| s.name()).unwrap_or("").to_string(),
            p.distance.map(|d| d.to_string()).unwrap_or_default(),
            p.plies_at_most.map(|d| d.to_string()).unwrap_or_default(),
            p.prover_nodes.to_string(),
            l.nodes.to_string(),
            l.pv.clone(),
        ])
        .map_err(bad)?;
    }
    let records = w
        .into_inner()
        .map_err(|e| Error::Internal(format!("encoding {}: {e}", csv_path.display())))?;
    csv.push_str(&String::from_utf8_lossy(&records));
    huntsolve::write_atomic(&csv_path, csv.as_bytes())
        .map_err(|e| Error::io(format!("writing {}", csv_path.display()), e))?;
    let json_path = csv_path.with_extension("json");
    let json = serde_json::json!({
        "rules": g.rules_string(),
        "command": command,
        "seconds": secs,
        "depth": args.depth,
        "plies": args.plies,
        "prove": args.prove,
        "lines": lines.iter().map(|(l, p)| serde_json::json!({
            "line": l.text,
            "class_size": l.class_size,
            "score": l.score,
            "value": p.value.map(|v| v.name()),
            "source": p.source.map(|s| s.name()),
            "distance": p.distance,
            "plies_at_most": p.plies_at_most,
            "prover_nodes": p.prover_nodes,
            "prover_seconds": p.prover_seconds,
            "runs": p.runs,
            "nodes": l.nodes,
            "pv": l.pv,
        })).collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::Internal(format!("encoding JSON: {e}")))?;
    huntsolve::write_atomic(&json_path, text.as_bytes())
        .map_err(|e| Error::io(format!("writing {}", json_path.display()), e))?;
    println(&format!(
        "wrote {} and {}",
        csv_path.display(),
        json_path.display()
    ))
}
