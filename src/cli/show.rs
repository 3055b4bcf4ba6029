//! `huntsolve show`: diagram, position text, side to move, legal moves, and
//! whether the position is terminal (and who won).

use super::out;
use huntsolve::game::FullGame;
use huntsolve::game::Value;
use huntsolve::{with_game, AnyGame, Result};

/// The position text, for `show --help` (docs/positions.md says the same;
/// `tests/it/side_words.rs` runs every example line).
const POSITION_HELP: &str = "\
Position text (default: the start position; `show RULES` prints the start's).

Hunt games: POINTS/h<n>p<n>c<n>/<side>
  POINTS   one character per board point in the order of the point ids:
           H hunter (leopard, tiger, vulture), P prey (cow, goat, crow), . empty.
           Grid boards: sorted by row from the bottom (rank 1) up, left to right
           within a row (alquerque25: a1 b1 c1 d1 e1 a2 ...; mogol37: a1 c1 e1
           b2 c2 d2 a3 ...); Kaooa's pentagram: t0-t4, then i0-i4.
  h<n>     hunters in hand, p<n> prey in hand, c<n> prey captured
           (on board + in hand [+ captured] = the rules' count of each side)
  <side>   to move: h (hunters) or p (prey)
Tafl games: the rows from the top rank down, separated by /, one character
  per cell from file a (A attacker, D defender, K king, . empty), then a
  space and the side to move: a (attackers) or d (defenders).

Examples:
  huntsolve show bagh-chal --position 'H...H...............H...H/h0p20c0/p'
  huntsolve show kaooa --position 'P........./h1p6c0/h'
  huntsolve show cows-leopards-mogol --position '...H................................./h1p24c0/p'
  huntsolve show brandubh --position '...A.../...A.../...D.../AADKDAA/...D.../...A.../...A... a'";

/// Arguments of `show`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: `preset[,key=value...]` (see `huntsolve presets`).
    rules: String,
    /// Position text (default: the start position; see `show --help`).
    #[arg(long, long_help = POSITION_HELP)]
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
    let pos = super::args::position_after(g, args.position.as_deref(), args.moves.as_deref())?;
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
