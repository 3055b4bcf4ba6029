//! `huntsolve playout`: uniform random games from the start position, seeded
//! and deterministic (game i uses seed `S + i`, so the result does not depend
//! on the number of threads). The rules' move limit (1000 plies if none) ends a
//! game as a draw.

use super::out;
use huntsolve::game::FullGame;
use huntsolve::game::Value;
use huntsolve::{mix64, Rng};
use huntsolve::{with_game, AnyGame, Error, Result};
use rayon::prelude::*;
use std::time::Instant;

/// Arguments of `playout`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: `preset[,key=value...]` (see `huntsolve presets`).
    rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000, value_parser = super::args::whole::<u64>(1, 1_000_000_000, "games"))]
    games: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    seed: u64,
    /// Use one thread only (for speed figures per core).
    #[arg(long)]
    single_thread: bool,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    games: u64,
    plies: u64,
    wins: [u64; 2],
    draws: u64,
    limit: u64,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.plies += o.plies;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.limit += o.limit;
        self
    }
}

/// Most games of one `playout` run (about an hour at a million games a second).
const MAX_PLAYOUTS: u64 = 1_000_000_000;

/// Runs `playout`.
pub(crate) fn run(args: Args) -> Result<()> {
    if !(1..=MAX_PLAYOUTS).contains(&args.games) {
        return Err(Error::Usage(format!(
            "--games {}: expected 1 to {MAX_PLAYOUTS}",
            args.games
        )));
    }
    let game = AnyGame::parse(&args.rules)?;
    with_game!(&game, g => run_game(g, &args))
}

fn one_game<G: FullGame>(g: &G, seed: u64, limit: u32, moves: &mut Vec<G::Move>) -> Tally {
    let mut rng = Rng::new(mix64(seed));
    let mut pos = g.start();
    let mut t = Tally {
        games: 1,
        ..Tally::default()
    };
    for _ in 0..limit {
        if let Some(v) = g.outcome(&pos) {
            let side = g.side_to_move(&pos);
            match v {
                Value::Win => t.wins[side] += 1,
                Value::Loss => t.wins[1 - side] += 1,
                Value::Draw => t.draws += 1,
            }
            return t;
        }
        g.legal_moves(&pos, moves);
        if moves.is_empty() {
            // Not terminal yet no move: an engine inconsistency; count it as a draw.
            t.draws += 1;
            return t;
        }
        let mv = moves[rng.below(moves.len())];
        pos = g.play(&pos, mv);
        t.plies += 1;
    }
    t.draws += 1;
    t.limit += 1;
    t
}

fn run_game<G: FullGame>(g: &G, args: &Args) -> Result<()> {
    let limit = g.move_limit().unwrap_or(1000);
    let started = Instant::now();
    let chunk = 256u64;
    let chunks = args.games.div_ceil(chunk);
    let work = |c: u64| {
        let mut moves = Vec::new();
        let mut t = Tally::default();
        for i in c * chunk..((c + 1) * chunk).min(args.games) {
            if huntsolve::stop_requested() {
                break;
            }
            t = t.add(one_game(g, args.seed.wrapping_add(i), limit, &mut moves));
        }
        t
    };
    let t = if args.single_thread {
        (0..chunks).map(work).fold(Tally::default(), Tally::add)
    } else {
        (0..chunks)
            .into_par_iter()
            .map(work)
            .reduce(Tally::default, Tally::add)
    };
    if huntsolve::stop_requested() {
        return Err(Error::Interrupted);
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let pct = |n: u64| 100.0 * n as f64 / t.games as f64;
    let threads = if args.single_thread {
        1
    } else {
        rayon::current_num_threads()
    };
    let text = format!(
        "rules        {}\n\
         games        {} (seed {}, {} thread(s), move limit {} plies)\n\
         time         {:.3} s\n\
         games/s      {:.0}\n\
         plies/s      {:.0}\n\
         mean length  {:.2} plies\n\
         {:<12} {:.2}% wins\n\
         {:<12} {:.2}% wins\n\
         draws        {:.2}% ({} at the move limit)\n",
        g.rules_string(),
        t.games,
        args.seed,
        threads,
        limit,
        secs,
        t.games as f64 / secs,
        t.plies as f64 / secs,
        t.plies as f64 / t.games as f64,
        g.side_label(0),
        pct(t.wins[0]),
        g.side_label(1),
        pct(t.wins[1]),
        pct(t.draws),
        t.limit,
    );
    out::print(&text)
}
