//! `huntsolve show`: diagram, position text, side to move, legal moves, and
//! whether the position is terminal (and who won).

use super::out;
use huntsolve::game::FullGame;
use huntsolve::game::{play_line, Value};
use huntsolve::{with_game, AnyGame, Result};

/// Arguments of `show`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: `preset[,key=value...]` (see `huntsolve presets`).
    rules: String,
    /// Position text (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Moves played first (space-separated).
    #[arg(long)]
    moves: Option<String>,
}

/// Runs `show`.
pub(crate) fn run(args: Args) -> Result<()> {
    let game = AnyGame::parse(&args.rules)?;
    with_game!(&game, g => run_game(g, &args))
}

fn run_game<G: FullGame>(g: &G, args: &Args) -> Result<()> {
    let mut pos = match &args.position {
        Some(t) => g.parse_position(t)?,
        None => g.start(),
    };
    if let Some(line) = &args.moves {
        pos = play_line(g, &pos, line)?;
    }
    let side = g.side_to_move(&pos);
    let mut text = format!("rules    {}\n", g.rules_string());
    text.push_str(&g.diagram(&pos));
    text.push_str(&format!("position {}\n", g.format_position(&pos)));
    text.push_str(&format!("to move  {}\n", g.side_label(side)));
    text.push_str(&format!("hash     {:016x}\n", g.hash(&pos)));
    let mut moves = Vec::new();
    g.legal_moves(&pos, &mut moves);
    let mut names: Vec<String> = moves.iter().map(|&m| g.format_move(&pos, m)).collect();
    names.sort();
    text.push_str(&format!("moves    {} : {}\n", names.len(), names.join(" ")));
    match g.outcome(&pos) {
        None => text.push_str("result   not terminal\n"),
        Some(v) => {
            let who = match v {
                Value::Win => out::side_says(g.side_label(side), "wins", "win"),
                Value::Loss => out::side_says(g.side_label(1 - side), "wins", "win"),
                Value::Draw => "draw".to_string(),
            };
            text.push_str(&format!(
                "result   terminal: {who} ({v} for the side to move)\n"
            ));
        }
    }
    out::print(&text)
}
