//! Self-play tournaments: games between equal engines, run in parallel, one
//! JSON line per finished game, resumable.
//!
//! Game `i` of a tournament uses the generator seeded with `seed + i`, so a game
//! is reproducible on its own (for deterministic engines) whatever the thread
//! count or the order in which games finish. The first `random_plies` plies of
//! each game are uniformly random legal moves, so that games between equal
//! deterministic engines differ.
//!
//! A game ends when the rules end it, when a position occurs for the third
//! time (a draw: the rules' `repetition=draw` cycle semantics; see
//! [`repetition_winner`] for the other settings), or at the move limit (a
//! draw, counted separately as a timeout).
//!
//! # Games file
//! One [`GameRecord`] per line, in JSON, appended as games finish (so in no
//! particular order). On a rerun with the same settings, records already in the
//! file are kept and only the missing game indices are played; a partial last
//! line (a run killed mid-write) is dropped. A file written with different
//! rules, engine or opening settings is refused rather than mixed.

use crate::error::{Error, Result};
use crate::game::{FullGame, Oracle, Value};
use crate::progress::{stop_requested, Progress};
use crate::random::Rng;
pub use crate::stats::agent::repetition_winner;
use crate::stats::agent::Agent;
use crate::stats::engine::EngineSpec;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

/// Move limit used when neither the rules nor the caller set one.
pub(crate) const DEFAULT_MAX_PLIES: u32 = 400;

/// Settings of one tournament (the same for every variant of a comparison).
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// Number of games.
    pub games: u64,
    /// Base seed: game `i` uses `seed + i`.
    pub seed: u64,
    /// Engine playing both sides.
    pub engine: EngineSpec,
    /// Uniformly random plies at the start of each game.
    pub random_plies: u32,
    /// Move limit in plies (`None`: the rules' limit, else `DEFAULT_MAX_PLIES`).
    pub max_plies: Option<u32>,
    /// Worker threads (0: rayon's default, one per core).
    pub threads: usize,
    /// Softmax temperature for opening plies of searching engines (`None`:
    /// uniformly random opening plies).
    pub softmax: Option<f64>,
    /// Engine of side 1 when it differs from `engine` (asymmetric pairs;
    /// `None`: `engine` plays both sides).
    pub engine_side1: Option<EngineSpec>,
    /// Description of the exact referee (the table directories), `None`
    /// without one. Games played with and without a referee are not mixed.
    pub referee: Option<String>,
}

impl Default for TournamentConfig {
    fn default() -> Self {
        TournamentConfig {
            games: 100,
            seed: 1,
            engine: EngineSpec::Greedy,
            random_plies: 4,
            max_plies: None,
            threads: 0,
            softmax: None,
            engine_side1: None,
            referee: None,
        }
    }
}

impl TournamentConfig {
    /// How opening plies are chosen, as stored in game records.
    pub(crate) fn opening_text(&self) -> String {
        match (&self.engine, self.softmax) {
            (EngineSpec::Depth(_) | EngineSpec::Time(_) | EngineSpec::WithTables(_), Some(t)) => {
                format!("softmax(T={t})")
            }
            _ => "uniform".into(),
        }
    }

    /// The engines as stored in game records: `depth=4`, or
    /// `depth=4 vs mcts=1000` (side 0 first) when the sides differ.
    pub(crate) fn engine_text(&self) -> String {
        match &self.engine_side1 {
            Some(e) if *e != self.engine => format!("{} vs {}", self.engine.text(), e.text()),
            _ => self.engine.text(),
        }
    }

    /// The engine of `side` (0 or 1).
    pub(crate) fn engine_of(&self, side: usize) -> &EngineSpec {
        match (&self.engine_side1, side) {
            (Some(e), 1) => e,
            _ => &self.engine,
        }
    }

    /// The move limit that applies to `game`.
    pub(crate) fn max_plies_for<G: FullGame>(&self, game: &G) -> u32 {
        self.max_plies
            .or_else(|| game.move_limit())
            .unwrap_or(DEFAULT_MAX_PLIES)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EndReason {
    /// The rules ended the game (a win, or a draw by the rules).
    Terminal,
    /// A position occurred for the third time: draw.
    Repetition,
    /// The move limit was reached: draw (a "timeout" in Ludii's terms).
    MoveLimit,
    /// The position is covered by the referee's solved tables: the game ends
    /// with its exact value under optimal play.
    Adjudicated,
}

/// One finished game, as stored in the games file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// Canonical rules string of the variant.
    pub rules: String,
    /// Rules fingerprint.
    pub fingerprint: u64,
    /// Engine text (`greedy`, `depth=4`).
    pub engine: String,
    /// Random opening plies.
    pub random_plies: u32,
    /// How opening plies were chosen (`uniform`, `softmax(T=...)`).
    #[serde(default)]
    pub opening: String,
    /// The exact referee (table directories), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<String>,
    /// Move limit applied.
    pub max_plies: u32,
    /// Game index in the tournament.
    pub index: u64,
    /// Seed of this game (`seed + index`).
    pub seed: u64,
    /// Side that moved first (0 or 1).
    pub first: u8,
    /// Winning side, or `None` for a draw of any kind.
    pub winner: Option<u8>,
    /// How the game ended.
    pub end: EndReason,
    /// Length in plies.
    pub plies: u32,
    /// Pieces captured by side 0 and by side 1.
    pub captures: [u32; 2],
    /// Wall time of the game in milliseconds.
    pub millis: u64,
    /// When the game ended, Unix seconds (UTC); `None` in records stored before
    /// it was kept (a report then says "not recorded").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_at: Option<u64>,
    /// The moves in the family's notation.
    pub moves: Vec<String>,
    /// Legal moves in the position before each move of `moves` (a capture
    /// chain is one move); empty in records stored before it was kept (the
    /// branching-factor and decision-moves measures then say "not recorded").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub legal_counts: Vec<u32>,
}

/// Most games a tournament plays per variant and engine (`--games`): every
/// game's record is kept in memory, so more would exhaust it (100000000000
/// aborted on allocation).
pub const MAX_GAMES: u64 = 10_000_000;

/// `Ok` when `games` is between 1 and `MAX_GAMES`.
pub fn check_games(games: u64) -> Result<()> {
    if (1..=MAX_GAMES).contains(&games) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "--games {games}: expected 1 to {MAX_GAMES}"
        )))
    }
}

/// Plays game `index` of a tournament.
pub fn play_game<G: FullGame>(
    game: &G,
    agent: &dyn Agent<G>,
    cfg: &TournamentConfig,
    index: u64,
) -> Result<GameRecord> {
    play_game_with(game, [agent, agent], cfg, index, None)
}

/// Plays game `index` of a tournament with one agent per side and an
/// optional exact referee: once the random opening plies are over, a
/// position the referee knows ends the game with its exact value
/// ([`EndReason::Adjudicated`]).
pub(crate) fn play_game_with<G: FullGame>(
    game: &G,
    agents: [&dyn Agent<G>; 2],
    cfg: &TournamentConfig,
    index: u64,
    referee: Option<&dyn Oracle<G>>,
) -> Result<GameRecord> {
    let started = Instant::now();
    let seed = cfg.seed.wrapping_add(index);
    let mut rng = Rng::new(seed);
    let max_plies = cfg.max_plies_for(game);
    let mut pos = game.start();
    let first = game.side_to_move(&pos) as u8;
    let mut history: Vec<u64> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut captures = [0u32; 2];
    let mut moves_text = Vec::new();
    let mut legal_counts = Vec::new();
    let mut legal = Vec::new();
    let (winner, end) = loop {
        let side = game.side_to_move(&pos);
        if let Some(v) = game.outcome(&pos) {
            let w = match v {
                Value::Win => Some(side as u8),
                Value::Loss => Some(1 - side as u8),
                Value::Draw => None,
            };
            break (w, EndReason::Terminal);
        }
        let h = game.hash(&pos);
        let count = seen.entry(h).or_insert(0);
        *count += 1;
        if *count >= 3 {
            break (repetition_winner(game), EndReason::Repetition);
        }
        if history.len() as u32 >= max_plies {
            break (None, EndReason::MoveLimit);
        }
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let in_opening = (history.len() as u32) < cfg.random_plies;
        if let (false, Some(oracle)) = (in_opening, referee) {
            if let Some((v, _)) = oracle.probe(game, &pos) {
                let w = match v {
                    Value::Win => Some(side as u8),
                    Value::Loss => Some(1 - side as u8),
                    Value::Draw => None,
                };
                break (w, EndReason::Adjudicated);
            }
        }
        let agent = agents[side];
        let mv = if in_opening {
            agent.opening_move(game, &pos, &history, &mut rng)?
        } else {
            agent.choose(game, &pos, &history, &mut rng)?
        };
        legal.clear();
        game.legal_moves(&pos, &mut legal);
        legal_counts.push(legal.len() as u32);
        captures[side] += game.captures_of(&pos, mv);
        moves_text.push(game.format_move(&pos, mv));
        history.push(h);
        pos = game.play(&pos, mv);
    };
    Ok(GameRecord {
        rules: game.rules_string(),
        fingerprint: game.fingerprint(),
        engine: cfg.engine_text(),
        random_plies: cfg.random_plies,
        opening: cfg.opening_text(),
        referee: cfg.referee.clone(),
        max_plies,
        index,
        seed,
        first,
        winner,
        end,
        plies: history.len() as u32,
        captures,
        millis: started.elapsed().as_millis() as u64,
        played_at: Some(now_unix()),
        moves: moves_text,
        legal_counts,
    })
}

/// Reads the records of a games file that match `game` and `cfg`, dropping a
/// partial last line (and rewriting the file without it). A missing file is
/// an empty list.
pub fn load_games<G: FullGame>(
    game: &G,
    cfg: &TournamentConfig,
    path: &Path,
) -> Result<Vec<GameRecord>> {
    let text = match crate::regular::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut records = Vec::new();
    // A last line without its newline (a cut record, or a whole one whose
    // newline is missing) is rewritten, else the next appended record would be
    // glued to it.
    let mut dropped_partial = !text.is_empty() && !text.ends_with('\n');
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(r) => records.push(r),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => dropped_partial = true,
            Err(e) => {
                return Err(Error::input(
                    path,
                    format!("line {}: not a game record: {e}", i + 1),
                ))
            }
        }
    }
    let max_plies = cfg.max_plies_for(game);
    for r in &records {
        let same = r.fingerprint == game.fingerprint()
            && r.rules == game.rules_string()
            && r.engine == cfg.engine_text()
            && r.referee == cfg.referee
            && r.random_plies == cfg.random_plies
            && r.opening == cfg.opening_text()
            && r.max_plies == max_plies
            && r.seed == cfg.seed.wrapping_add(r.index);
        if !same {
            return Err(Error::input(path, format!(
                "holds game {} played with other settings (rules '{}', engine {}, referee {}, random plies {} ({}), max plies {}, seed {}); use another --out directory or delete the file",
                r.index,
                r.rules,
                r.engine,
                r.referee.as_deref().unwrap_or("none"),
                r.random_plies,
                r.opening,
                r.max_plies,
                r.seed.wrapping_sub(r.index)
            )));
        }
    }
    if dropped_partial {
        let mut clean = String::new();
        for r in &records {
            clean.push_str(&to_line(r)?);
        }
        // Whole or not at all: a kill here must not lose the games kept.
        crate::durable::write_atomic(path, clean.as_bytes())
            .map_err(|e| Error::io(format!("rewriting {}", path.display()), e))?;
    }
    Ok(records)
}

fn to_line(r: &GameRecord) -> Result<String> {
    let mut s = serde_json::to_string(r)
        .map_err(|e| Error::Internal(format!("encoding game record: {e}")))?;
    s.push('\n');
    Ok(s)
}

/// Plays every game of a tournament that `games_file` does not hold yet, in
/// parallel, appending each finished game to the file; returns all `cfg.games`
/// records sorted by index.
///
/// Ctrl-C (the global stop flag) ends the run with [`Error::Interrupted`];
/// games finished so far stay in the file and are skipped on the next run.
pub fn run_tournament<G: FullGame>(
    game: &G,
    agent: &dyn Agent<G>,
    cfg: &TournamentConfig,
    games_file: &Path,
    label: &str,
    progress: &dyn Progress,
) -> Result<Vec<GameRecord>> {
    run_tournament_with(game, [agent, agent], None, cfg, games_file, label, progress)
}

/// [`run_tournament`] with one agent per side and an optional exact referee
/// (see [`play_game_with`]).
pub(crate) fn run_tournament_with<G: FullGame>(
    game: &G,
    agents: [&dyn Agent<G>; 2],
    referee: Option<&dyn Oracle<G>>,
    cfg: &TournamentConfig,
    games_file: &Path,
    label: &str,
    progress: &dyn Progress,
) -> Result<Vec<GameRecord>> {
    check_games(cfg.games)?;
    let mut done = load_games(game, cfg, games_file)?;
    done.retain(|r| r.index < cfg.games);
    let mut have = vec![false; cfg.games as usize];
    done.retain(|r| !std::mem::replace(&mut have[r.index as usize], true));
    let missing: Vec<u64> = (0..cfg.games).filter(|&i| !have[i as usize]).collect();
    progress.stage(label, cfg.games);
    progress.advance(done.len() as u64);
    if !missing.is_empty() {
        if let Some(dir) = games_file.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(games_file)
            .map_err(|e| Error::io(format!("opening {}", games_file.display()), e))?;
        let file = Mutex::new(file);
        let play_all = || -> Result<Vec<GameRecord>> {
            missing
                .par_iter()
                .map(|&i| {
                    let rec = play_game_with(game, agents, cfg, i, referee)?;
                    let line = to_line(&rec)?;
                    let mut f = file
                        .lock()
                        .map_err(|_| Error::Internal("games file lock poisoned".into()))?;
                    f.write_all(line.as_bytes())
                        .and_then(|_| f.flush())
                        .map_err(|e| Error::io(format!("writing {}", games_file.display()), e))?;
                    drop(f);
                    progress.advance(1);
                    Ok(rec)
                })
                .collect()
        };
        let fresh = if cfg.threads > 0 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(cfg.threads)
                .build()
                .map_err(|e| {
                    Error::io(
                        format!("starting {} threads", cfg.threads),
                        std::io::Error::other(e),
                    )
                })?
                .install(play_all)?
        } else {
            play_all()?
        };
        done.extend(fresh);
    }
    progress.finish_stage();
    done.sort_by_key(|r| r.index);
    Ok(done)
}

/// Now, in Unix seconds (0 if the clock is before 1970): when a game ended
/// (`GameRecord::played_at`).
fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
