//! `huntsolve perft`: counts the leaves of the game tree (a terminal position is
//! one leaf at any depth). The leaf count is always the last line of output.

use super::out;
use huntsolve::game::perft;
use huntsolve::game::FullGame;
use huntsolve::{with_game, AnyGame, Result};
use rayon::prelude::*;
use std::time::Instant;

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: `preset[,key=value...]` (see `huntsolve presets`).
    rules: String,
    /// Depth in plies.
    #[arg(long, short, value_parser = super::args::whole::<u32>(0, 64, "plies"))]
    depth: u32,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Moves played first (space-separated, e.g. "e5 a1").
    #[arg(long)]
    moves: Option<String>,
    /// Print each root move with its leaf count.
    #[arg(long)]
    divide: bool,
}

/// Runs `perft`.
pub(crate) fn run(args: Args) -> Result<()> {
    let game = AnyGame::parse(&args.rules)?;
    with_game!(&game, g => run_game(g, &args))
}

fn run_game<G: FullGame>(g: &G, args: &Args) -> Result<()> {
    let pos = super::args::position_after(g, args.position.as_deref(), args.moves.as_deref())?;
    let started = Instant::now();
    let mut moves = Vec::new();
    if args.depth > 0 && g.outcome(&pos).is_none() {
        g.legal_moves(&pos, &mut moves);
    }
    let count_child = |m: &G::Move| perft(g, &g.play(&pos, *m), args.depth - 1);
    let (total, divide): (u64, Vec<(String, u64)>) = if moves.is_empty() {
        (1, Vec::new())
    } else {
        let counts: Vec<u64> = if args.depth >= 3 {
            moves.par_iter().map(count_child).collect()
        } else {
            moves.iter().map(count_child).collect()
        };
        let names = moves.iter().map(|&m| g.format_move(&pos, m));
        let mut d: Vec<(String, u64)> = names.zip(counts.iter().copied()).collect();
        d.sort();
        (counts.iter().sum(), d)
    };
    let secs = started.elapsed().as_secs_f64();
    let mut text = String::new();
    if args.divide {
        for (name, n) in &divide {
            text.push_str(&format!("{name} {n}\n"));
        }
        text.push_str(&format!("moves {}\n", divide.len()));
    }
    text.push_str(&format!(
        "time {:.3} s, {:.0} leaves/s\n",
        secs,
        total as f64 / secs.max(1e-9)
    ));
    text.push_str(&format!("{total}\n"));
    out::print(&text)
}
