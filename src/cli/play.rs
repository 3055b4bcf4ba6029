//! `huntsolve play`: engine against engine, or against a human.
//!
//! Sides: `--side NAME=ENGINE` gives a side its engine, NAME as `prove --side`
//! takes it: the game's side name, a traditional name of the side (`crows`,
//! `vulture`, `tigers`, `goats`, `leopards`, `cows`, `attackers`,
//! `defenders`, ...) or `0`/`1`. `--white` (side 0) and `--black` (side 1),
//! with their aliases `--hunter`/`--attackers` and `--prey`/`--defenders`, do
//! the same; a side not given plays `depth=4`. Side 0 is the hunter in hunt
//! games and the attackers in tafl, whoever moves first under the rules.
//!
//! ENGINE is `depth=N` (search to N plies), `time=S` (S seconds per move),
//! `nodes=N`, `mcts=N` / `mcts-time=S` (Monte Carlo tree search, see
//! `huntsolve::stats::mcts`), `random` (uniform random legal move, seeded) or `human` (moves
//! typed in the game's notation on standard input; an illegal move is refused
//! and asked again).
//!
//! A game ends at a terminal position, at the third occurrence of a position
//! (a draw: cycles are draws in every preset) or at the rules' move limit
//! (1000 plies when the rules set none), also a draw.

use super::args::SearchOptions;
use super::job::apply_evals;
use super::out::{print, println};
use huntsolve::game::FullGame;
use huntsolve::game::{NoOracle, Value};
use huntsolve::search::{self, Limit, SearchConfig, TransTable};
use huntsolve::AnyGame;
use huntsolve::Rng;
use huntsolve::{Error, Result};
use std::collections::HashMap;
use std::io::BufRead;
use std::time::Duration;

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Rules: a preset name with optional `,key=value` options.
    pub rules: String,
    /// Engine of side 0 (hunter / attackers): depth=N, time=S, nodes=N, mcts=N, mcts-time=S, random, human [default: depth=4].
    #[arg(long, visible_alias = "hunter", visible_alias = "attackers")]
    pub white: Option<String>,
    /// Engine of side 1 (prey / defenders): depth=N, time=S, nodes=N, mcts=N, mcts-time=S, random, human [default: depth=4].
    #[arg(long, visible_alias = "prey", visible_alias = "defenders")]
    pub black: Option<String>,
    /// A side's engine as NAME=ENGINE, NAME a side as `prove --side` takes it
    /// (`crows=random`, `vulture=depth=6`, `tigers=time=1`, `0=human`); repeatable.
    #[arg(long, value_name = "NAME=ENGINE")]
    pub side: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 1, value_parser = super::args::whole::<u32>(1, huntsolve::stats::MAX_GAMES, "games"))]
    pub games: u32,
    /// Seed of the random engines and of the random opening plies.
    #[arg(long, default_value_t = 1, value_parser = super::args::SEED)]
    pub seed: u64,
    /// Plies played at random at the start of each game (variety between games).
    #[arg(long, default_value_t = 0, value_parser = super::args::RANDOM_PLIES)]
    pub random_plies: u32,
    #[command(flatten)]
    pub search: SearchOptions,
    /// Print only one summary line per game, not the moves.
    #[arg(long)]
    pub quiet: bool,
}

/// A player.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Engine {
    /// Search with these limits.
    Search(Limit),
    /// Monte Carlo tree search (`mcts=N`, `mcts-time=S`).
    Mcts(huntsolve::stats::MctsSpec),
    /// Uniform random legal moves.
    Random,
    /// Moves typed on standard input.
    Human,
}

/// The most nodes a `nodes=N` engine may search a move.
const MAX_NODES: u64 = 1_000_000_000_000;

impl Engine {
    /// Parses `depth=N`, `time=S`, `nodes=N`, `mcts=N`, `mcts-time=S`, `random`, `human`.
    pub(crate) fn parse(text: &str) -> Result<Engine> {
        if let Some(m) = huntsolve::stats::MctsSpec::parse(text) {
            return m.map(Engine::Mcts).map_err(Error::Usage);
        }
        let bad = || {
            Error::Usage(format!(
                "engine {}: accepted depth=N, time=SECONDS, nodes=N, mcts=N, mcts-time=SECONDS, random, human",
                huntsolve::quote(text)
            ))
        };
        match text.trim() {
            "random" => return Ok(Engine::Random),
            "human" => return Ok(Engine::Human),
            _ => {}
        }
        let (k, v) = text.split_once('=').ok_or_else(bad)?;
        match k.trim() {
            "depth" => {
                let d: u32 = v.trim().parse().map_err(|_| bad())?;
                if d == 0 || d > huntsolve::stats::ENGINE_MAX_DEPTH {
                    return Err(Error::Usage(format!(
                        "engine {}: depth from 1 to {} plies",
                        huntsolve::quote(text),
                        huntsolve::stats::ENGINE_MAX_DEPTH
                    )));
                }
                Ok(Engine::Search(Limit::Depth(d)))
            }
            "nodes" => {
                let n: u64 = v.trim().parse().map_err(|_| bad())?;
                if !(1..=MAX_NODES).contains(&n) {
                    return Err(Error::Usage(format!(
                        "engine {}: nodes from 1 to {MAX_NODES}",
                        huntsolve::quote(text)
                    )));
                }
                Ok(Engine::Search(Limit::Nodes(n)))
            }
            "time" => {
                let s: f64 = v.trim().parse().map_err(|_| bad())?;
                huntsolve::check_seconds("time", s).map_err(|_| bad())?;
                Ok(Engine::Search(Limit::Time(Duration::from_secs_f64(s))))
            }
            _ => Err(bad()),
        }
    }
}

fn human_move<G: FullGame>(g: &G, pos: &G::Pos) -> Result<G::Move> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        print(&format!("{} to move> ", g.side_label(g.side_to_move(pos))))?;
        let mut line = String::new();
        let n = input
            .read_line(&mut line)
            .map_err(|e| Error::io("reading a move from stdin", e))?;
        if n == 0 {
            return Err(Error::input_data("end of input while waiting for a move"));
        }
        match g.parse_move(pos, line.trim()) {
            Ok(m) => return Ok(m),
            Err(e) => println(&format!("{e}"))?,
        }
    }
}

/// Result of one game from side 0's view (`None`: draw).
fn play_game<G: FullGame>(
    g: &G,
    engines: &[Engine; 2],
    args: &Args,
    rng: &mut Rng,
    tt: &TransTable,
    number: u32,
) -> Result<Option<usize>> {
    let limit = g.move_limit().unwrap_or(1000) as usize;
    let mut pos = g.start();
    let mut history: Vec<u64> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut record = Vec::new();
    let mut moves = Vec::new();
    let human = engines.contains(&Engine::Human);
    tt.clear();
    let (winner, reason) = loop {
        if let Some(v) = g.outcome(&pos) {
            let side = g.side_to_move(&pos);
            break match v {
                Value::Win => (Some(side), "game over".to_string()),
                Value::Loss => (Some(1 - side), "game over".to_string()),
                Value::Draw => (None, "drawn position".to_string()),
            };
        }
        let count = seen.entry(g.hash(&pos)).or_insert(0);
        *count += 1;
        if *count >= 3 {
            break (None, "third repetition".to_string());
        }
        if record.len() >= limit {
            break (None, format!("move limit of {limit} plies"));
        }
        if huntsolve::stop_requested() {
            return Err(Error::Interrupted);
        }
        let side = g.side_to_move(&pos);
        g.legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            break (None, "no legal move".to_string());
        }
        if human {
            print(&g.diagram(&pos))?;
        }
        let mv = if (record.len() as u32) < args.random_plies {
            moves[rng.below(moves.len())]
        } else {
            match &engines[side] {
                Engine::Random => moves[rng.below(moves.len())],
                Engine::Human => human_move(g, &pos)?,
                Engine::Mcts(spec) => {
                    let mut cfg = spec.config();
                    cfg.repetition_winner = huntsolve::stats::repetition_winner(g);
                    let mut tree_rng = Rng::new(rng.next_u64());
                    let r =
                        huntsolve::stats::search(g, &pos, &history, &NoOracle, &cfg, &mut tree_rng);
                    r.best
                        .ok_or_else(|| Error::Internal("MCTS returned no move".into()))?
                }
                Engine::Search(limit) => {
                    let cfg = SearchConfig {
                        limits: vec![*limit],
                        threads: args.search.threads.or(1),
                        history: history.clone(),
                        ..Default::default()
                    };
                    let r = search::search(g, &pos, &NoOracle, &cfg, tt);
                    r.best
                        .ok_or_else(|| Error::Internal("search returned no move".into()))?
                }
            }
        };
        let text = g.format_move(&pos, mv);
        if human {
            println(&format!("{} plays {text}", g.side_label(side)))?;
        }
        record.push(text);
        history.push(g.hash(&pos));
        pos = g.play(&pos, mv);
    };
    let result = match winner {
        Some(s) => format!("{} won", g.side_label(s)),
        None => "draw".to_string(),
    };
    if !args.quiet {
        let mut text = String::new();
        for (i, m) in record.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(m);
            text.push(if i % 10 == 9 { '\n' } else { ' ' });
        }
        println(&format!("game {number}: {}", g.rules_string()))?;
        println(text.trim_end())?;
        println(&format!("final position: {}", g.format_position(&pos)))?;
    }
    println(&format!(
        "game {number}: {result} ({reason}) after {} plies",
        record.len()
    ))?;
    Ok(winner)
}

fn run_games<G: FullGame>(g: &G, args: &Args) -> Result<()> {
    let specs = engine_specs(g, args)?;
    let engines = [Engine::parse(&specs[0])?, Engine::parse(&specs[1])?];
    let mut rng = Rng::new(args.seed);
    let tt = TransTable::new(args.search.hash.or(64))?;
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for n in 1..=args.games {
        match play_game(g, &engines, args, &mut rng, &tt, n)? {
            Some(s) => wins[s] += 1,
            None => draws += 1,
        }
    }
    println(&format!(
        "{} {}: {} ({}) won {}, {} ({}) won {}, {} drawn",
        args.games,
        if args.games == 1 { "game" } else { "games" },
        g.side_label(0),
        specs[0],
        wins[0],
        g.side_label(1),
        specs[1],
        wins[1],
        draws
    ))
}

/// Engine texts of side 0 and side 1 from `--white`/`--black` and `--side
/// NAME=ENGINE` (a side given twice is an error; a side not given: `depth=4`).
fn engine_specs<G: FullGame>(g: &G, args: &Args) -> Result<[String; 2]> {
    let mut specs: [Option<(String, String)>; 2] = [
        args.white.clone().map(|e| ("--white".into(), e)),
        args.black.clone().map(|e| ("--black".into(), e)),
    ];
    for item in &args.side {
        let (name, engine) = item.split_once('=').ok_or_else(|| {
            Error::Usage(format!(
                "--side {}: expected NAME=ENGINE, e.g. {}=random",
                huntsolve::quote(item),
                g.side_label(1)
            ))
        })?;
        let side = huntsolve::game::side_by_name(g, name).ok_or_else(|| {
            Error::Usage(format!(
                "--side {}: {} is not a side of these rules; expected {}",
                huntsolve::quote(item),
                huntsolve::quote(name),
                huntsolve::game::side_choices(g)
            ))
        })?;
        if let Some((given, _)) = &specs[side] {
            return Err(Error::Usage(format!(
                "--side {}: the {} already has an engine ({given})",
                huntsolve::quote(item),
                g.side_label(side)
            )));
        }
        specs[side] = Some((format!("--side {item}"), engine.to_string()));
    }
    Ok(specs.map(|s| s.map_or_else(|| "depth=4".to_string(), |(_, e)| e)))
}

/// Runs `play`.
pub(crate) fn run(args: Args) -> Result<()> {
    let mut any = AnyGame::parse(&args.rules)?;
    huntsolve::with_game!(&mut any, g => apply_evals(g, &args.search.eval))?;
    huntsolve::with_game!(&any, g => run_games(g, &args))
}
