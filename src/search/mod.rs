//! Parallel alpha-beta search over any [`Game`].
//!
//! Negamax with principal variation search, iterative deepening, aspiration
//! windows, a capture quiescence search, move ordering (table move, captures,
//! killers, history), a shared lock-free transposition table (`tt`),
//! repetition detection (a position repeated on the current line or in the game
//! history scores as a draw), exact values from an [`Oracle`] and Lazy SMP:
//! every thread runs its own iterative deepening on the shared table, helpers
//! with perturbed move orders and staggered depths; the main thread's result is
//! returned.
//!
//! Scores are from the side to move's view. Heuristic scores stay well inside
//! ±`PROVEN`; a proven win in `d` plies scores `MATE - d` and a proven loss
//! `-(MATE - d)` (as in chess engines), counted from the root.
//!
//! **Exact mode** ([`SearchConfig::exact`]) never evaluates: a horizon leaf is
//! "unknown" (scored 0 and marked incomplete), so every win/loss score is a
//! proof. Iterative deepening stops at the first depth that proves a win or a
//! loss (its distance is the depth-to-end under optimal play: the winner
//! hurries, the loser delays). A draw is reported as proven only when an
//! iteration finished without touching a horizon, a repetition or an inexact
//! table entry, i.e. the game tree below the root was exhausted; otherwise the
//! result is "unknown beyond depth N". Only proven bounds enter the table in
//! exact mode, so the graph-history problems of repetition cannot leak into
//! proofs.

pub(crate) mod openings;
mod score;
pub(crate) mod suite;
pub(crate) mod tt;
mod worker;

pub use openings::{rank_openings, OpeningLine, OpeningsConfig};
pub use suite::random_positions;

use crate::error::Result;
use crate::game::{Evaluate, Game, Oracle, Value};
use crate::progress::stop_requested;
use hashbrown::HashSet;
pub(crate) use score::proven_of;
pub use score::score_text;
use score::value_score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use tt::{Bound, Entry, TransTable, NO_MOVE};
use worker::{Shared, Worker};

/// Score of a win at the root itself; a win in `d` plies is `MATE - d`.
pub(crate) const MATE: i32 = 30_000;
/// Scores beyond ±`PROVEN` are proven wins/losses.
pub(crate) const PROVEN: i32 = 20_000;
/// Larger than any score.
pub(crate) const INF: i32 = 32_000;
/// Deepest nominal search depth.
pub const MAX_DEPTH: u32 = 120;
/// Plies of capture quiescence search below the horizon.
const QDEPTH: u32 = 8;
const MAX_PLY: usize = MAX_DEPTH as usize + QDEPTH as usize + 4;
const HIST_SIZE: usize = 4096;

/// One search limit; a search stops at the first limit reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// Nominal depth in plies (iterative deepening up to it).
    Depth(u32),
    /// Total nodes over all threads (with one thread the stop is exact).
    Nodes(u64),
    /// Wall-clock time.
    Time(Duration),
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Limits (none: up to [`MAX_DEPTH`] or until stopped).
    pub limits: Vec<Limit>,
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Exact mode: no evaluation, only proofs (see the module docs).
    pub exact: bool,
    /// Search every root move with a full window, so that each root move gets
    /// an exact score (for `query`, `openings`, softmax play); slower.
    pub all_moves: bool,
    /// Restrict the root to these indices of the legal move list (`None`: all).
    pub root_moves: Option<Vec<usize>>,
    /// Hashes of the positions played before the root (for repetition).
    pub history: Vec<u64>,
    /// External stop flag (set it from another thread to stop the search).
    pub stop: Arc<AtomicBool>,
    /// Plies of capture quiescence search below the horizon (at most 8;
    /// `None`: `default_qdepth` of the game family).
    pub qdepth: Option<u32>,
}

/// Default quiescence depth of a family. Hunt moves carry their captures, so
/// finding them is free; a tafl capture is known only by applying the move,
/// which makes a capture search cost a move application per legal move of
/// every leaf, so it is off for tafl.
pub(crate) fn default_qdepth(family: &str) -> u32 {
    if family == "tafl" {
        0
    } else {
        QDEPTH
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            limits: Vec::new(),
            threads: 1,
            exact: false,
            all_moves: false,
            root_moves: None,
            history: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            qdepth: None,
        }
    }
}

impl SearchConfig {
    /// A configuration searching to a fixed depth.
    pub fn depth(depth: u32) -> Self {
        SearchConfig {
            limits: vec![Limit::Depth(depth)],
            ..Default::default()
        }
    }

    fn max_depth(&self) -> u32 {
        self.limits
            .iter()
            .filter_map(|l| match l {
                Limit::Depth(d) => Some(*d),
                _ => None,
            })
            .min()
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH)
    }
}

/// The score of one root move in the last completed iteration.
#[derive(Clone, Debug)]
pub struct RootMove<G: Game> {
    /// The move.
    pub mv: G::Move,
    /// Its index in the root's legal move list.
    pub index: usize,
    /// Score (side to move at the root). An upper bound unless `exact`.
    pub score: i32,
    /// Whether `score` is exact (always with [`SearchConfig::all_moves`]).
    pub exact: bool,
    /// Proven value and distance of the move from the root (`None`: not proven).
    pub proven: Option<(Value, u32)>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<G: Game> {
    /// Score of the root from the side to move's view.
    pub score: i32,
    /// Best move (`None` only when the root is terminal or has no move).
    pub best: Option<G::Move>,
    /// Principal variation starting with `best`.
    pub pv: Vec<G::Move>,
    /// Last completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// Proven value and distance in plies (exact mode proves draws too).
    pub proven: Option<(Value, u32)>,
    /// Root moves with their scores, best first.
    pub root_moves: Vec<RootMove<G>>,
    /// Whether the search was cut short by a stop request or the time/node limit
    /// before reaching its depth limit.
    pub interrupted: bool,
}

impl<G: Game> SearchResult<G> {
    /// Nodes per second.
    pub(crate) fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Searches `pos` with a fresh table of `hash_mib` MiB (deterministic with one
/// thread and a depth or node limit); [`Error::Memory`](crate::error::Error::Memory)
/// when the table cannot be allocated.
pub fn search_fresh<G: Evaluate, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    cfg: &SearchConfig,
    hash_mib: usize,
) -> Result<SearchResult<G>> {
    let tt = TransTable::new(hash_mib)?;
    Ok(search(game, pos, oracle, cfg, &tt))
}

/// Searches `pos` using (and filling) `tt`, which may be reused across calls.
pub fn search<G: Evaluate, O: Oracle<G>>(
    game: &G,
    pos: &G::Pos,
    oracle: &O,
    cfg: &SearchConfig,
    tt: &TransTable,
) -> SearchResult<G> {
    let start = Instant::now();
    tt.new_search();
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let wanted: Vec<usize> = match &cfg.root_moves {
        Some(list) => list.iter().copied().filter(|&i| i < moves.len()).collect(),
        None => (0..moves.len()).collect(),
    };
    let roots: Vec<RootMove<G>> = wanted
        .iter()
        .map(|&i| RootMove {
            mv: moves[i],
            index: i,
            score: -INF,
            exact: false,
            proven: None,
        })
        .collect();
    let mut result = unsearched(&roots);
    if let Some(v) = game.outcome(pos) {
        result.score = value_score(v, 0, 0);
        result.proven = Some((v, 0));
        result.best = None;
        result.pv.clear();
        result.nodes = 1;
        result.time = start.elapsed();
        return result;
    }
    if roots.is_empty() {
        result.time = start.elapsed();
        return result;
    }
    let shared = Shared {
        stop: AtomicBool::new(false),
        external: cfg.stop.clone(),
        nodes: AtomicU64::new(0),
        start,
        node_limit: cfg.limits.iter().find_map(|l| match l {
            Limit::Nodes(n) => Some(*n),
            _ => None,
        }),
        time_limit: cfg.limits.iter().find_map(|l| match l {
            Limit::Time(t) => Some(*t),
            _ => None,
        }),
    };
    let threads = cfg.threads.max(1);
    let max_depth = cfg.max_depth();
    let main_result = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for id in 1..threads {
            let (shared, roots) = (&shared, roots.clone());
            handles.push(scope.spawn(move || {
                let mut w = Worker::new(game, oracle, tt, shared, cfg, id);
                let mut roots = roots;
                // Staggered depths: odd helpers start one ply deeper.
                let mut depth = 1 + (id as u32 & 1);
                while depth <= max_depth && !shared.should_stop() {
                    w.root(pos, &mut roots, depth as i32, -INF, INF, false);
                    if w.stopped {
                        break;
                    }
                    depth += 1;
                }
                w.flush_nodes();
            }));
        }
        let r = iterate(game, oracle, tt, &shared, cfg, pos, roots, max_depth);
        // The main thread is done: stop the helpers.
        shared.stop.store(true, Ordering::Relaxed);
        for h in handles {
            let _ = h.join();
        }
        r
    });
    let mut r = main_result;
    r.nodes = shared.nodes.load(Ordering::Relaxed);
    r.time = start.elapsed();
    r
}

/// The result before any iteration: the first root move as best and PV.
fn unsearched<G: Game>(roots: &[RootMove<G>]) -> SearchResult<G> {
    SearchResult {
        score: 0,
        best: roots.first().map(|r| r.mv),
        pv: roots.first().map(|r| vec![r.mv]).unwrap_or_default(),
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        proven: None,
        root_moves: roots.to_vec(),
        interrupted: false,
    }
}

/// The main thread's iterative deepening.
#[allow(clippy::too_many_arguments)]
fn iterate<G: Evaluate, O: Oracle<G>>(
    game: &G,
    oracle: &O,
    tt: &TransTable,
    shared: &Shared,
    cfg: &SearchConfig,
    pos: &G::Pos,
    mut roots: Vec<RootMove<G>>,
    max_depth: u32,
) -> SearchResult<G> {
    let mut w = Worker::new(game, oracle, tt, shared, cfg, 0);
    let mut result = unsearched(&roots);
    let mut prev: i32 = 0;
    for depth in 1..=max_depth {
        w.incomplete = false;
        let score = if !cfg.exact && depth >= 4 && prev.abs() < PROVEN && !cfg.all_moves {
            // Aspiration window around the previous score, widened on failure.
            let mut delta = 40;
            loop {
                let (a, b) = ((prev - delta).max(-INF), (prev + delta).min(INF));
                let s = w.root(pos, &mut roots, depth as i32, a, b, false);
                if w.stopped || (s > a && s < b) {
                    break s;
                }
                delta *= 4;
                if delta > 4000 {
                    break w.root(pos, &mut roots, depth as i32, -INF, INF, false);
                }
            }
        } else {
            w.root(pos, &mut roots, depth as i32, -INF, INF, cfg.all_moves)
        };
        if w.stopped {
            result.interrupted = true;
            break;
        }
        prev = score;
        result.score = score;
        result.depth = depth;
        result.seldepth = w.seldepth as u32;
        result.best = Some(roots[0].mv);
        result.pv = w.pv[0].clone();
        if result.pv.is_empty() {
            result.pv.push(roots[0].mv);
        }
        result.root_moves = roots.clone();
        result.proven = proven_of(score);
        if result.proven.is_none() && !w.incomplete {
            // The whole tree below the root was searched to its ends.
            result.proven = Some((Value::Draw, 0));
            for r in result.root_moves.iter_mut() {
                if r.exact && r.score == 0 {
                    r.proven = Some((Value::Draw, 0));
                }
            }
        }
        if cfg.exact && result.proven.is_some() && !cfg.all_moves {
            break;
        }
        if result.proven.is_some() && !w.incomplete {
            break;
        }
        if let Some(t) = shared.time_limit {
            // A new iteration typically costs several times the last one.
            if shared.start.elapsed() * 3 >= t {
                break;
            }
        }
    }
    w.flush_nodes();
    result
}
