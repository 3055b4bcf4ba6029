//! `huntsolve query <rules> <position|start|-> --tables DIR [--moves LINE] [--json]`:
//! a position's value and distance, and every legal move with its value, best first.
//! With position `-`, reads positions from stdin, one per line, and answers each.
// Until a family implements TierGame, `verify::dispatch` refuses every game and
// the generic code below is unreachable; remove this when the first arm is enabled.
#![allow(dead_code)]

use super::out;
use huntsolve::retro::TierGame;
use huntsolve::table::{query_tables, QueryResult, TableOracle};
use huntsolve::{AnyGame, Error, Result};
use std::io::BufRead;
use std::path::PathBuf;

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rules: a preset name with options (`kaooa`, `bagh-chal,key=value`).
    rules: String,
    /// Position text, `start`, or `-` to read positions from stdin (one per line).
    position: String,
    /// Directory holding the solved tables.
    #[arg(long)]
    tables: PathBuf,
    /// Moves to play from the position first, space-separated (e.g. "e5 f2-e3").
    #[arg(long)]
    moves: Vec<String>,
    /// JSON output: one object per position.
    #[arg(long)]
    json: bool,
}

/// Runs `query`.
pub fn run(args: Args) -> Result<()> {
    let any = AnyGame::parse(&args.rules)?;
    super::verify::dispatch(&any, Query(&args))
}

fn answer<G: TierGame>(oracle: &TableOracle<G>, text: &str, moves: &str) -> Result<QueryResult> {
    let game = oracle.game();
    let pos = game.parse_position(text)?;
    let pos = huntsolve::game::play_line(game, &pos, moves)?;
    query_tables(oracle, &pos)
}

fn show<G: TierGame>(oracle: &TableOracle<G>, q: &QueryResult, json: bool) -> Result<()> {
    if json {
        let s = serde_json::to_string(q).map_err(|e| Error::Other(format!("JSON: {e}")))?;
        return out::println(&s);
    }
    let game = oracle.game();
    let pos = game.parse_position(&q.position)?;
    let mut text = game.diagram(&pos);
    text.push_str(&format!(
        "{} to move\n",
        game.side_name(game.side_to_move(&pos))
    ));
    text.push_str(&q.to_text());
    if q.value.is_none() {
        let tier = game.tier_of(&pos);
        text.push_str(&format!(
            "no table in {} covers this position (tier {})\n",
            oracle.set().dir().display(),
            game.tier_name(tier)
        ));
    }
    out::print(&text)
}

struct Query<'a>(&'a Args);

impl super::verify::TierJob for Query<'_> {
    type Out = ();
    fn run<G: TierGame>(self, game: &G) -> Result<()> {
        run_game(game, self.0)
    }
}

fn run_game<G: TierGame>(game: &G, args: &Args) -> Result<()> {
    let oracle = TableOracle::new(game, &args.tables)?;
    let moves = args.moves.join(" ");
    if args.position != "-" {
        let q = answer(&oracle, &args.position, &moves)?;
        return show(&oracle, &q, args.json);
    }
    let mut failed = 0usize;
    let mut answered = 0usize;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| Error::io("reading positions from stdin", e))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match answer(&oracle, text, &moves) {
            Ok(q) => {
                answered += 1;
                show(&oracle, &q, args.json)?;
                if !args.json {
                    out::println("")?;
                }
            }
            // Table damage stops the batch; a bad line is reported and skipped.
            Err(e @ (Error::Table { .. } | Error::Io { .. } | Error::Interrupted)) => {
                return Err(e)
            }
            Err(e) => {
                failed += 1;
                if args.json {
                    let obj = serde_json::json!({"position": text, "error": e.to_string()});
                    out::println(&obj.to_string())?;
                } else {
                    out::println(&format!("{text}: error: {e}\n"))?;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Error::Input(format!(
            "{failed} of {} positions could not be answered",
            failed + answered
        )));
    }
    Ok(())
}
