//! `huntsolve query <rules> <position|start|-> [--tables DIR] [--depth N | --time S]
//! [--threads T] [--exact] [--hash MiB] [--eval k=v] [--moves LINE] [--json]`:
//! a position's value, best move, principal variation, and every legal move with
//! its value, best first.
//!
//! Where `--tables DIR` covers the position, the answer is exact from the tables
//! (moves leading into tiers missing from DIR are scored by search). Otherwise the
//! position is searched (with the tables as an oracle when given): score, best
//! move, PV, depth, nodes, nodes/s, and every root move's score. `--exact`
//! proves the value with the df-pn prover (no depth cap; `--time S` bounds it,
//! then the answer is "unknown" with the root's proof and disproof numbers) and
//! then finds the exact distance by an exact alpha-beta bounded by the proof's
//! length (see `huntsolve::answer::exact`). `--exact --depth N` is the
//! depth-capped exact alpha-beta instead ("unknown beyond depth N").
//! With `--exact`, `--hash` is both the alpha-beta's table and the prover's
//! memory budget (default 256 MiB for the prover).
//! With position `-`, reads positions from stdin, one per line, and answers each.

use super::args::{Json, MaybeTables, SearchOptions};
use super::job::apply_evals;
use super::out;
use huntsolve::answer::{answer_position_with, Policy, ProverUse, SearchAnswer, Source};
use huntsolve::game::FullGame;
use huntsolve::retro::TierGame;
use huntsolve::search::{score_text, Limit, SearchConfig, TransTable};
use huntsolve::table::{list_tiers, table_path, Table, TableOracle};
use huntsolve::{with_game, AnyGame, Error, Result};
use std::io::BufRead;
use std::path::Path;
use std::time::Duration;

/// Default search depth without `--depth`/`--time` (plies).
const DEFAULT_DEPTH: u32 = 6;

/// Time of `query --exact` without `--time` or `--depth` (the prover, the
/// distance search and the moves' values share it); stated on every answer.
const EXACT_TIME: Duration = Duration::from_secs(60);

/// Memory budget of the prover of `--exact` without `--hash` (MiB).
const PROVE_HASH_MIB: usize = 256;

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: a preset name with options (`kaooa`, `bagh-chal,key=value`).
    rules: String,
    /// Position text, `start`, or `-` to read positions from stdin (one per line).
    position: String,
    #[command(flatten)]
    tables: MaybeTables,
    /// Search depth in plies (default 6; with --exact: the exact alpha-beta to this depth instead of the prover).
    #[arg(long, conflicts_with = "time", value_parser = super::args::DEPTH)]
    depth: Option<u32>,
    /// Search time in seconds per position (with --exact: the whole answer's, default 60).
    #[arg(long, value_parser = super::args::seconds())]
    time: Option<f64>,
    #[command(flatten)]
    search: SearchOptions,
    /// Prove the value with the df-pn prover (no depth cap), then the exact distance.
    #[arg(long)]
    exact: bool,
    /// Moves to play from the position first, space-separated (e.g. "e5 f2-e3").
    #[arg(long)]
    moves: Vec<String>,
    #[command(flatten)]
    pub(crate) json: Json,
}

/// Runs `query`.
pub(crate) fn run(args: Args) -> Result<()> {
    let mut any = AnyGame::parse(&args.rules)?;
    with_game!(&mut any, g => apply_evals(g, &args.search.eval))?;
    match &args.tables.tables {
        Some(_) => super::job::dispatch(&any, Query(&args)),
        None => with_game!(&any, g => run_game(g, None, &args)),
    }
}

struct Query<'a>(&'a Args);

impl super::job::TierJob for Query<'_> {
    type Out = ();
    fn run<G: TierGame + huntsolve::Evaluate>(self, game: &G) -> Result<()> {
        let dir = self
            .0
            .tables
            .tables
            .as_ref()
            .expect("dispatched only with --tables");
        check_tables(game, dir)?;
        let oracle = TableOracle::new(game, dir)?;
        run_game(game, Some(&oracle), self.0)
    }
}

/// Refuses a `--tables DIR` that cannot serve these rules (no tables, or another
/// rules' tables), instead of falling back to search as if no tables were named.
fn check_tables<G: TierGame>(game: &G, dir: &Path) -> Result<()> {
    let names = list_tiers(dir)?;
    let first = names.first().ok_or_else(|| {
        Error::table(
            dir,
            huntsolve::TableFault::Missing,
            "no table files (*.hst) in this directory; solve the rules into it or drop --tables",
        )
    })?;
    Table::open(&table_path(dir, first))?.check_rules(&game.rules_string(), game.fingerprint())
}

fn config(args: &Args) -> SearchConfig {
    let limit = match (args.depth, args.time) {
        (Some(d), _) => Limit::Depth(d),
        (None, Some(t)) => Limit::Time(Duration::from_secs_f64(t)),
        // `--exact` without `--depth`: the prover, no depth cap, within the default time.
        (None, None) if args.exact => {
            return SearchConfig {
                limits: vec![Limit::Time(EXACT_TIME)],
                threads: args.search.threads.or(1),
                exact: true,
                ..Default::default()
            }
        }
        (None, None) => Limit::Depth(DEFAULT_DEPTH),
    };
    SearchConfig {
        limits: vec![limit],
        threads: args.search.threads.or(1),
        exact: args.exact,
        ..Default::default()
    }
}

/// Answers one position: from the tables when they know its value, otherwise by
/// search (or, with `--exact` and no `--depth`, by the prover).
fn answer_one<G: TierGame + FullGame>(
    game: &G,
    tables: Option<&TableOracle<G>>,
    text: &str,
    moves: &str,
    policy: &Policy,
    tt: &TransTable,
) -> Result<SearchAnswer> {
    let pos = game.parse_position(text)?;
    let pos = huntsolve::game::play_line(game, &pos, moves)?;
    let tables: Vec<&TableOracle<G>> = tables.into_iter().collect();
    let bars = super::out::Bars::new();
    let a = answer_position_with(game, &pos, &tables, policy, tt, &bars)?;
    drop(bars);
    if !tables.is_empty() && a.source != Source::Table {
        // Not an error (tables may hold only some tiers), but never silent.
        eprintln!(
            "note: the tables do not hold {}; answered by search",
            game.format_position(&pos)
        );
    }
    Ok(a.answer)
}

/// How `query` answers: the search of the flags; with `--exact` and no
/// `--depth`, the prover instead of the search (`--hash` its memory budget).
fn policy(args: &Args) -> Policy {
    let search = config(args);
    let prover = if search.exact && !search.limits.iter().any(|l| matches!(l, Limit::Depth(_))) {
        ProverUse::Instead {
            hash_mib: args.search.hash.or(PROVE_HASH_MIB),
        }
    } else {
        ProverUse::Off
    };
    Policy {
        search,
        budget: None,
        prover,
        over_from_rules: false,
    }
}

fn show_value(value: Option<&str>, distance: Option<u32>) -> String {
    match (value, distance) {
        (Some("draw"), _) => "draw".into(),
        (Some(v), Some(d)) => format!("{v} in {d}"),
        (Some(v), None) => v.into(),
        (None, _) => "unknown".into(),
    }
}

/// What a value left unknown by a plain search means and what would answer it
/// (`None` when the answer has a value, or came from the prover or an exact search):
/// "value unknown (score +2048)" alone did not say that tables would answer.
fn unproven_hint(a: &SearchAnswer, args: &Args) -> Option<&'static str> {
    if a.value.is_some() || a.proof.is_some() || args.exact {
        return None;
    }
    Some(match args.tables.tables {
        None => {
            "not proven: a search score; solve the tables (huntsolve solve RULES --out DIR) \
             and pass --tables DIR for the exact value, or --exact to prove it"
        }
        Some(_) => {
            "not proven: a search score; the tables given do not hold this position \
             (solve its tiers into them for the exact value, or --exact to prove it)"
        }
    })
}

fn text_of<G: FullGame>(game: &G, a: &SearchAnswer, args: &Args) -> Result<String> {
    let exact = args.exact;
    let pos = game.parse_position(&a.position)?;
    // The diagram names the side to move.
    let mut s = game.diagram(&pos);
    s.push_str(&format!("position {}\n", a.position));
    let searched = a.source != "tables";
    let value = match a.value {
        Some(_) => show_value(a.value, a.distance),
        None if a.proof.is_some() => {
            let p = a.proof.as_ref().expect("checked");
            format!(
                "unknown: {}{}",
                out::undecided(p.nodes, p.pn, p.dn),
                p.stopped
                    .map_or(String::new(), |r| format!(", stopped: {}", r.text()))
            )
        }
        None if exact => format!("unknown beyond depth {}", a.depth),
        None => format!(
            "unknown (score {}): {}",
            score_text(a.score),
            unproven_hint(a, args).unwrap_or("a search score")
        ),
    };
    let value = match &a.proof {
        Some(p) if a.value.is_some() && !p.distance_exact && a.value != Some("draw") => {
            format!(
                "{value} (distance at most {} plies by the proof)",
                p.plies_at_most.map_or("?".into(), |d| d.to_string())
            )
        }
        _ => value,
    };
    // Values are the side to move's: say whose a win or a loss is.
    let whose = match a.value {
        Some("win") | Some("loss") => {
            format!(
                " (for {}, to move)",
                game.side_label(game.side_to_move(&pos))
            )
        }
        _ => String::new(),
    };
    s.push_str(&format!("value    {value}{whose}\n"));
    s.push_str(&out::recorded_lines(game, &pos, "recorded "));
    if let Some(p) = &a.proof {
        let limit = match (args.time, args.depth) {
            (Some(t), _) => format!(", time limit {t} s"),
            (None, None) => format!(
                ", time limit {} s (--time S to change)",
                EXACT_TIME.as_secs()
            ),
            _ => String::new(),
        };
        s.push_str(&format!(
            "prover   {} nodes, {:.2} s{}{limit}\n",
            p.nodes,
            p.seconds,
            p.plies_at_most
                .map_or(String::new(), |d| format!(", proof within {d} plies"))
        ));
    }
    s.push_str(&format!("source   {}", a.source));
    if searched {
        s.push_str(&format!(
            " (depth {}, {} nodes, {} nodes/s, {:.2} s{})",
            a.depth,
            a.nodes,
            a.nps,
            a.seconds,
            match (exact, a.value.is_some()) {
                (true, true) => ", exact search",
                (true, false) => ", exact search, no value found",
                _ => "",
            }
        ));
    }
    s.push('\n');
    match (&a.best, &a.proof) {
        (Some(b), _) => s.push_str(&format!("best     {b}\n")),
        (None, Some(_)) if a.value.is_some() => s.push_str(
            "best     not determined (no move is proven best within the limits; more --time or --hash would)\n",
        ),
        _ => {}
    }
    if !a.pv.is_empty() {
        s.push_str(&format!("pv       {}\n", a.pv.join(" ")));
    }
    if !a.moves.is_empty() {
        s.push_str(&format!(
            "moves    (values for {}, who plays them)\n",
            game.side_label(game.side_to_move(&pos))
        ));
    }
    for m in &a.moves {
        let v = match m.value {
            Some(_) => show_value(m.value, m.distance),
            None if exact => "unknown".into(),
            None => score_text(m.score),
        };
        s.push_str(&format!("  {:<12} {v}\n", m.mv));
    }
    Ok(s)
}

fn show<G: FullGame>(game: &G, a: &SearchAnswer, args: &Args) -> Result<()> {
    if args.json.json {
        let mut s = serde_json::to_string(a).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        // The hint last, the answer's own fields in their order (a `Value` would sort them).
        if let Some(hint) = unproven_hint(a, args) {
            if s.ends_with('}') {
                s.pop();
                s.push_str(&format!(",\"hint\":{}}}", serde_json::Value::from(hint)));
            }
        }
        // What results/ records about the position, beside the answer.
        let pos = game.parse_position(&a.position)?;
        let recorded = huntsolve::stats::known_claims(game, &pos);
        if !recorded.is_empty() && s.ends_with('}') {
            let list = serde_json::to_string(&recorded)
                .map_err(|e| Error::Internal(format!("JSON: {e}")))?;
            s.pop();
            s.push_str(&format!(",\"recorded\":{list}}}"));
        }
        return out::println(&s);
    }
    out::print(&text_of(game, a, args)?)
}

fn run_game<G: TierGame + FullGame>(
    game: &G,
    tables: Option<&TableOracle<G>>,
    args: &Args,
) -> Result<()> {
    if args.exact {
        // Every exact path refuses a repetition rule other than a draw.
        huntsolve::prove::check_repetition_rule(game)?;
    }
    let policy = policy(args);
    let tt = TransTable::new(args.search.hash.or(64))?;
    let moves = args.moves.join(" ");
    let one = |text: &str| answer_one(game, tables, text, &moves, &policy, &tt);
    if args.position != "-" {
        let a = one(&args.position)?;
        return show(game, &a, args);
    }
    let mut failed = 0usize;
    let mut answered = 0usize;
    for line in std::io::stdin().lock().split(b'\n') {
        let line = line.map_err(|e| Error::io("reading positions from stdin", e))?;
        // A line that is not UTF-8 is a bad line like any other, not the end of the batch.
        let line = String::from_utf8(line)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match one(text) {
            Ok(a) => {
                answered += 1;
                show(game, &a, args)?;
                if !args.json.json {
                    out::println("")?;
                }
            }
            // Table damage and Ctrl-C stop the batch; a bad line is reported and skipped.
            Err(e @ (Error::Table { .. } | Error::Io { .. } | Error::Interrupted)) => {
                return Err(e)
            }
            Err(e) => {
                failed += 1;
                if args.json.json {
                    let shown = huntsolve::bounded(text);
                    let obj = serde_json::json!({"position": shown, "error": e.to_string()});
                    out::println(&obj.to_string())?;
                } else {
                    out::println(&format!("{}: error: {e}\n", huntsolve::bounded(text)))?;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Error::input_data(format!(
            "{failed} of {} positions could not be answered",
            failed + answered
        )));
    }
    Ok(())
}
