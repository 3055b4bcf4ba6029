//! Monte Carlo tree search: UCT with score-bounded MCTS-Solver backups.
//!
//! One search builds a tree from the root, one node per iteration: select with
//! UCB1 down to a node with an untried move, add that child, estimate it by a
//! random playout ([`Game::random_move`], list-free in both families), and
//! back the reward up the path. Rewards are 1 (win), ½ (draw) and 0 (loss)
//! for the side that moved into a node; a playout stopped at the cut-off is
//! scored by the evaluation through a logistic curve instead.
//!
//! # Proven values (MCTS-Solver with draws)
//! Every node keeps bounds `lo ≤ hi` on its game-theoretic value for the side
//! to move (−1 loss, 0 draw, +1 win), as in score-bounded MCTS (Cazenave and
//! Saffidine 2010): a terminal position or a table hit has `lo = hi`; any other
//! new node starts at `[−1, +1]`. After each iteration the path's bounds are
//! recomputed from the children: `lo = max(−hi(child))` and, once every move has
//! been tried, `hi = max(−lo(child))`. A node with `lo = hi` is proven; a proven
//! win also keeps its distance (1 + the shortest winning child's), a proven
//! loss 1 + the longest child's, so play converts wins instead of wandering.
//!
//! Soundness: a win (or loss) bound only ever comes from terminal positions
//! and exact oracle values, combined by minimax over a finite subtree, so it
//! is a proof. Repetitions are never proven leaves: a position that repeats
//! the game history or the tree path is scored as the rules' repetition result
//! in the statistics but keeps the bounds `[−1, +1]`, so it can never make a
//! parent proven (a draw by repetition depends on the history, not on the
//! position alone). Hence a proven draw needs terminal draws or exact values.
//!
//! Determinism: with an iteration budget, the search is a function of the
//! position, the history and the generator's seed.

use crate::game::{Evaluate, FullGame, Game, Notation, Oracle, Value};
use crate::random::Rng;
use std::time::{Duration, Instant};

/// The largest exploration constant `:c=X` takes (UCT's is about 1.4).
const MAX_EXPLORATION: f64 = 100.0;

/// Node index meaning "no child created yet".
const NONE: u32 = u32::MAX;

/// Settings of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations (playouts) per search (`None`: only the time limit).
    pub iterations: Option<u64>,
    /// Wall-clock limit per search (`None`: only the iteration limit).
    pub time: Option<Duration>,
    /// UCB1 exploration constant (rewards in [0, 1]).
    pub exploration: f64,
    /// Stop a playout after this many plies and score it with the evaluation
    /// (`None`: play to the end or to `playout_limit`).
    pub cutoff: Option<u32>,
    /// Longest playout in plies; a playout reaching it without a cut-off is
    /// scored as a draw.
    pub playout_limit: u32,
    /// Evaluation units (centi-pieces) per logistic unit when scoring a cut-off.
    pub eval_scale: f64,
    /// Reward for the side to move at a repetition: `None` a draw, else
    /// `Some(side)` that wins by repetition (the rules' repetition setting).
    pub repetition_winner: Option<u8>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: Some(1000),
            time: None,
            exploration: std::f64::consts::SQRT_2,
            cutoff: None,
            playout_limit: 400,
            eval_scale: 100.0,
            repetition_winner: None,
        }
    }
}

/// Statistics of one root move after a search.
#[derive(Clone, Debug)]
pub struct MctsChild<M> {
    /// The move.
    pub mv: M,
    /// Visits.
    pub visits: u32,
    /// Mean reward for the side to move at the root.
    pub mean: f64,
    /// Proven value of the move for the side to move at the root, and its distance.
    pub proven: Option<(Value, u32)>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    /// The move to play (`None` only when the root has no legal move).
    pub best: Option<M>,
    /// Proven value and distance (plies) of the root for the side to move.
    pub proven: Option<(Value, u32)>,
    /// Iterations run.
    pub iterations: u64,
    /// Plies played in playouts.
    pub playout_plies: u64,
    /// Playouts run (iterations that ended in a new unproven node).
    pub playouts: u64,
    /// Tree nodes.
    pub nodes: usize,
    /// Wall time.
    pub time: Duration,
    /// The root's children in move-generation order.
    pub children: Vec<MctsChild<M>>,
    /// Positions met in which the side to move had no legal move although the
    /// rules declared no outcome: the rules leave them without a value, so the
    /// search stopped at the first and its result must not be used (the
    /// engine refuses the move rather than score such a position as a draw).
    pub no_move_not_over: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An ordinary position (terminal ones are proven at creation).
    Open,
    /// A repetition: scored, never expanded, never proven.
    Repetition,
}

#[derive(Clone, Debug)]
struct Node<P> {
    pos: P,
    hash: u64,
    kind: Kind,
    visits: u32,
    /// Sum of rewards for the side that moved into this node.
    score: f64,
    lo: i8,
    hi: i8,
    /// Distance of a proven win or loss.
    dist: u32,
    expanded: bool,
    /// First slot of this node's moves in the move and child arenas.
    first: u32,
    /// Number of legal moves.
    n: u32,
    /// Moves tried so far (their children exist; slots `first..first+tried`).
    tried: u32,
}

fn value_of(v: i8) -> Value {
    match v {
        1 => Value::Win,
        -1 => Value::Loss,
        _ => Value::Draw,
    }
}

fn bound_of(v: Value) -> i8 {
    match v {
        Value::Win => 1,
        Value::Loss => -1,
        Value::Draw => 0,
    }
}

/// The search tree and its arenas.
struct Tree<'a, G: Game + Evaluate, O: Oracle<G> + ?Sized> {
    game: &'a G,
    oracle: &'a O,
    cfg: &'a MctsConfig,
    nodes: Vec<Node<G::Pos>>,
    moves: Vec<G::Move>,
    children: Vec<u32>,
    /// Hashes of the game before the root (repetition).
    history: &'a [u64],
    path: Vec<u32>,
    playout_plies: u64,
    playouts: u64,
    /// Positions without a legal move whose rules gave no outcome.
    no_move_not_over: u64,
}

impl<'a, G: Game + Evaluate, O: Oracle<G> + ?Sized> Tree<'a, G, O> {
    /// Creates a node for `pos`; `on_path` tells whether it repeats a position
    /// of the tree path (checked by the caller).
    fn new_node(&mut self, pos: G::Pos, repeated: bool) -> u32 {
        let hash = self.game.hash(&pos);
        let (mut lo, mut hi, mut dist, mut kind) = (-1i8, 1i8, 0u32, Kind::Open);
        if let Some(v) = self.game.outcome(&pos) {
            lo = bound_of(v);
            hi = lo;
        } else if repeated {
            kind = Kind::Repetition;
        } else if let Some((v, d)) = self.oracle.probe(self.game, &pos) {
            lo = bound_of(v);
            hi = lo;
            dist = d;
        }
        self.nodes.push(Node {
            pos,
            hash,
            kind,
            visits: 0,
            score: 0.0,
            lo,
            hi,
            dist,
            expanded: false,
            first: 0,
            n: 0,
            tried: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    fn repeats(&self, hash: u64) -> bool {
        self.history.contains(&hash)
            || self
                .path
                .iter()
                .any(|&i| self.nodes[i as usize].hash == hash)
    }

    fn expand(&mut self, id: u32) {
        let mut list = Vec::new();
        self.game
            .legal_moves(&self.nodes[id as usize].pos, &mut list);
        let node = &mut self.nodes[id as usize];
        node.expanded = true;
        node.first = self.moves.len() as u32;
        node.n = list.len() as u32;
        self.moves.extend_from_slice(&list);
        self.children.extend(std::iter::repeat_n(NONE, list.len()));
        if list.is_empty() {
            // Not over, yet no move: the rules give this position no value.
            // It is closed so that the tree stays consistent, and counted: the
            // search stops and its result is refused, never scored as a draw.
            node.lo = 0;
            node.hi = 0;
            self.no_move_not_over += 1;
        }
    }

    /// Reward of a repetition for the side to move there.
    fn repetition_reward(&self, id: u32) -> f64 {
        match self.cfg.repetition_winner {
            None => 0.5,
            Some(w) => {
                if self.game.side_to_move(&self.nodes[id as usize].pos) == w as usize {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// A random playout from `pos`; reward for the side to move in `pos`.
    fn playout(&mut self, pos: &G::Pos, rng: &mut Rng) -> f64 {
        let g = self.game;
        let me = g.side_to_move(pos);
        let mut p = pos.clone();
        let limit = match self.cfg.cutoff {
            Some(c) => c.min(self.cfg.playout_limit),
            None => self.cfg.playout_limit,
        };
        let mut plies = 0;
        self.playouts += 1;
        loop {
            if let Some(v) = g.outcome(&p) {
                self.playout_plies += plies as u64;
                let r = match v {
                    Value::Win => 1.0,
                    Value::Loss => 0.0,
                    Value::Draw => 0.5,
                };
                return if g.side_to_move(&p) == me { r } else { 1.0 - r };
            }
            if plies >= limit {
                self.playout_plies += plies as u64;
                if self.cfg.cutoff.is_some() {
                    let e = g.evaluate(&p) as f64 / self.cfg.eval_scale;
                    let r = 1.0 / (1.0 + (-e).exp());
                    return if g.side_to_move(&p) == me { r } else { 1.0 - r };
                }
                return 0.5;
            }
            match g.random_move(&p, rng) {
                Some(m) => p = g.play(&p, m),
                None => {
                    // No move, not over: counted (the search is refused), not a draw.
                    self.playout_plies += plies as u64;
                    self.no_move_not_over += 1;
                    return 0.5;
                }
            }
            plies += 1;
        }
    }

    /// UCB1 choice among the tried children of `id` (all moves tried).
    fn select(&self, id: u32) -> u32 {
        let node = &self.nodes[id as usize];
        let ln_n = (node.visits.max(1) as f64).ln();
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        for slot in node.first..node.first + node.tried {
            let c = self.children[slot as usize];
            let ch = &self.nodes[c as usize];
            // Value bounds of this move for the parent's side to move.
            let (vlo, vhi) = (-ch.hi, -ch.lo);
            if vhi == -1 {
                continue; // proven lost for us: never worth a visit
            }
            let mean = if ch.visits == 0 {
                0.5
            } else {
                ch.score / ch.visits as f64
            };
            let q = mean.clamp((vlo as f64 + 1.0) / 2.0, (vhi as f64 + 1.0) / 2.0);
            let u = q + self.cfg.exploration * (ln_n / ch.visits.max(1) as f64).sqrt();
            if u > best_score {
                best_score = u;
                best = c;
            }
        }
        best
    }

    /// Recomputes the bounds of `id` from its children; true if they changed.
    fn update_bounds(&mut self, id: u32) -> bool {
        let node = &self.nodes[id as usize];
        if node.lo == node.hi || node.kind == Kind::Repetition || !node.expanded {
            return false;
        }
        let (mut lo, mut hi) = (-1i8, if node.tried < node.n { 1i8 } else { -1i8 });
        let (mut win_dist, mut loss_dist) = (u32::MAX, 0u32);
        for slot in node.first..node.first + node.tried {
            let ch = &self.nodes[self.children[slot as usize] as usize];
            lo = lo.max(-ch.hi);
            hi = hi.max(-ch.lo);
            if ch.hi == -1 {
                win_dist = win_dist.min(ch.dist);
            }
            loss_dist = loss_dist.max(ch.dist);
        }
        let node = &mut self.nodes[id as usize];
        let changed = (lo, hi) != (node.lo, node.hi);
        node.lo = lo;
        node.hi = hi;
        if lo == hi {
            node.dist = match lo {
                1 => win_dist.saturating_add(1),
                -1 => loss_dist.saturating_add(1),
                _ => 0,
            };
        }
        changed
    }

    /// One iteration from the root.
    fn iterate(&mut self, rng: &mut Rng) {
        self.path.clear();
        self.path.push(0);
        let mut id = 0u32;
        // Reward for the side to move at the last node of the path.
        let reward = loop {
            let node = &self.nodes[id as usize];
            if node.lo == node.hi {
                break (node.lo as f64 + 1.0) / 2.0;
            }
            if node.kind == Kind::Repetition {
                break self.repetition_reward(id);
            }
            if !node.expanded {
                self.expand(id);
                let node = &self.nodes[id as usize];
                if node.lo == node.hi {
                    break 0.5;
                }
            }
            let node = &self.nodes[id as usize];
            if node.tried < node.n {
                // Add one untried move, drawn at random (a lazy shuffle).
                let (first, tried, n) = (node.first, node.tried, node.n);
                let pick = first + tried + rng.below((n - tried) as usize) as u32;
                self.moves.swap((first + tried) as usize, pick as usize);
                let mv = self.moves[(first + tried) as usize];
                let pos = self.game.play(&self.nodes[id as usize].pos, mv);
                let repeated =
                    self.game.outcome(&pos).is_none() && self.repeats(self.game.hash(&pos));
                let child = self.new_node(pos, repeated);
                self.children[(first + tried) as usize] = child;
                self.nodes[id as usize].tried += 1;
                self.path.push(child);
                let ch = &self.nodes[child as usize];
                if ch.lo == ch.hi {
                    break (ch.lo as f64 + 1.0) / 2.0;
                }
                if ch.kind == Kind::Repetition {
                    break self.repetition_reward(child);
                }
                let pos = ch.pos.clone();
                break self.playout(&pos, rng);
            }
            let next = self.select(id);
            if next == NONE {
                // Every move is proven lost: the bounds make this node proven.
                self.update_bounds(id);
                let node = &self.nodes[id as usize];
                break (node.lo as f64 + 1.0) / 2.0;
            }
            id = next;
            self.path.push(id);
        };
        // Back up: `r` is the reward for the side to move at path[k].
        let mut r = reward;
        let mut bounds_changed = true;
        for k in (0..self.path.len()).rev() {
            let id = self.path[k];
            if bounds_changed && k + 1 < self.path.len() {
                bounds_changed = self.update_bounds(id);
            } else if k + 1 < self.path.len() {
                bounds_changed = false;
            }
            let node = &mut self.nodes[id as usize];
            node.visits += 1;
            node.score += 1.0 - r;
            r = 1.0 - r;
        }
    }
}

/// Searches `pos` (not terminal) with `cfg`. `history` holds the hashes of the
/// positions played before `pos` in the game (repetition). Exact values of
/// `oracle` become proven leaves.
pub fn search<G: Game + Evaluate, O: Oracle<G> + ?Sized>(
    game: &G,
    pos: &G::Pos,
    history: &[u64],
    oracle: &O,
    cfg: &MctsConfig,
    rng: &mut Rng,
) -> MctsResult<G::Move> {
    let started = Instant::now();
    let mut tree = Tree {
        game,
        oracle,
        cfg,
        nodes: Vec::new(),
        moves: Vec::new(),
        children: Vec::new(),
        history,
        path: Vec::new(),
        playout_plies: 0,
        playouts: 0,
        no_move_not_over: 0,
    };
    // The root itself is searched even when the oracle knows it, so that a
    // move is found; its own value comes from the children.
    tree.nodes.push(Node {
        pos: pos.clone(),
        hash: game.hash(pos),
        kind: Kind::Open,
        visits: 0,
        score: 0.0,
        lo: -1,
        hi: 1,
        dist: 0,
        expanded: false,
        first: 0,
        n: 0,
        tried: 0,
    });
    if let Some(v) = game.outcome(pos) {
        let b = bound_of(v);
        tree.nodes[0].lo = b;
        tree.nodes[0].hi = b;
    } else {
        tree.expand(0);
    }
    let mut iterations = 0u64;
    let max_iter = cfg.iterations.unwrap_or(u64::MAX);
    let deadline = cfg.time.map(|t| started + t);
    // A single legal move needs no search.
    let forced = tree.nodes[0].n == 1;
    while iterations < max_iter && !forced && tree.no_move_not_over == 0 {
        let root = &tree.nodes[0];
        if root.lo == root.hi {
            break;
        }
        if let Some(d) = deadline {
            if iterations.is_multiple_of(32) && Instant::now() >= d {
                break;
            }
        }
        tree.iterate(rng);
        iterations += 1;
    }
    let root = &tree.nodes[0];
    let mut children = Vec::new();
    for slot in root.first..root.first + root.n {
        let mv = tree.moves[slot as usize];
        let c = tree.children[slot as usize];
        if c == NONE {
            children.push(MctsChild {
                mv,
                visits: 0,
                mean: 0.5,
                proven: None,
            });
            continue;
        }
        let ch = &tree.nodes[c as usize];
        children.push(MctsChild {
            mv,
            visits: ch.visits,
            mean: if ch.visits == 0 {
                0.5
            } else {
                ch.score / ch.visits as f64
            },
            proven: (ch.lo == ch.hi).then(|| (value_of(-ch.lo), ch.dist + 1)),
        });
    }
    let best = choose(&children);
    MctsResult {
        best,
        proven: (root.lo == root.hi && root.expanded).then(|| (value_of(root.lo), root.dist)),
        iterations,
        playout_plies: tree.playout_plies,
        playouts: tree.playouts,
        nodes: tree.nodes.len(),
        time: started.elapsed(),
        children,
        no_move_not_over: tree.no_move_not_over,
    }
}

/// The move to play: the fastest proven win; else the most visited move not
/// proven lost (ties: higher mean, then generation order); else the slowest
/// proven loss.
fn choose<M: Copy>(children: &[MctsChild<M>]) -> Option<M> {
    if let Some(c) = children
        .iter()
        .filter(|c| matches!(c.proven, Some((Value::Win, _))))
        .min_by_key(|c| c.proven.map_or(u32::MAX, |p| p.1))
    {
        return Some(c.mv);
    }
    let open: Vec<&MctsChild<M>> = children
        .iter()
        .filter(|c| !matches!(c.proven, Some((Value::Loss, _))))
        .collect();
    if !open.is_empty() {
        let mut best = open[0];
        for &c in &open[1..] {
            if (c.visits, c.mean) > (best.visits, best.mean) {
                best = c;
            }
        }
        return Some(best.mv);
    }
    children
        .iter()
        .max_by_key(|c| c.proven.map_or(0, |p| p.1))
        .map(|c| c.mv)
}

/// The MCTS engine as given on the command line: `mcts=N` (iterations per
/// move) or `mcts-time=S` (seconds per move), optionally followed by
/// `:cutoff=K` (playouts stop after K plies and are scored by the evaluation)
/// and `:c=X` (exploration constant).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MctsSpec {
    /// Iterations per move.
    pub iterations: Option<u64>,
    /// Seconds per move.
    pub seconds: Option<f64>,
    /// Playout cut-off in plies.
    pub cutoff: Option<u32>,
    /// Exploration constant (`None`: √2).
    pub exploration: Option<f64>,
}

impl MctsSpec {
    /// Parses `mcts=N[:cutoff=K][:c=X]` or `mcts-time=S[...]`; `None` when the
    /// text does not start with `mcts`.
    pub fn parse(text: &str) -> Option<std::result::Result<MctsSpec, String>> {
        let t = text.trim();
        if !t.starts_with("mcts") {
            return None;
        }
        let bad = |why: &str| {
            Err(format!(
                "engine {}: {why}; expected mcts=N (iterations, 1..=10^9) or mcts-time=S (seconds > 0), optionally with :cutoff=K (plies, 1..=10000) and :c=X (exploration above 0 and at most 100)",
                crate::error::quote(t)
            ))
        };
        let mut parts = t.split(':');
        let head = parts.next().unwrap_or("");
        let mut spec = MctsSpec {
            iterations: None,
            seconds: None,
            cutoff: None,
            exploration: None,
        };
        if let Some(n) = head.strip_prefix("mcts=") {
            match n.parse::<u64>() {
                Ok(n) if (1..=1_000_000_000).contains(&n) => spec.iterations = Some(n),
                _ => return Some(bad("bad iteration count")),
            }
        } else if let Some(s) = head.strip_prefix("mcts-time=") {
            match s.parse::<f64>() {
                Ok(s) if crate::progress::valid_seconds(s) => spec.seconds = Some(s),
                _ => return Some(bad("bad time")),
            }
        } else {
            return Some(bad("unknown form"));
        }
        for opt in parts {
            match opt.split_once('=') {
                Some(("cutoff", k)) => match k.parse::<u32>() {
                    Ok(k) if (1..=10_000).contains(&k) && spec.cutoff.is_none() => {
                        spec.cutoff = Some(k)
                    }
                    _ => return Some(bad("bad cutoff")),
                },
                Some(("c", x)) => match x.parse::<f64>() {
                    Ok(x) if x > 0.0 && x <= MAX_EXPLORATION && spec.exploration.is_none() => {
                        spec.exploration = Some(x)
                    }
                    _ => return Some(bad("bad exploration constant")),
                },
                _ => return Some(bad(&format!("unknown option '{opt}'"))),
            }
        }
        Some(Ok(spec))
    }

    /// Canonical text (the inverse of [`MctsSpec::parse`]).
    pub(crate) fn text(&self) -> String {
        let mut s = match (self.iterations, self.seconds) {
            (Some(n), _) => format!("mcts={n}"),
            (None, Some(t)) => format!("mcts-time={t}"),
            (None, None) => "mcts".to_string(),
        };
        if let Some(k) = self.cutoff {
            s.push_str(&format!(":cutoff={k}"));
        }
        if let Some(c) = self.exploration {
            s.push_str(&format!(":c={c}"));
        }
        s
    }

    /// The search settings (the repetition result is set per game).
    pub fn config(&self) -> MctsConfig {
        MctsConfig {
            iterations: self.iterations,
            time: self.seconds.map(Duration::from_secs_f64),
            exploration: self.exploration.unwrap_or(std::f64::consts::SQRT_2),
            cutoff: self.cutoff,
            ..MctsConfig::default()
        }
    }
}

/// MCTS as a self-play agent: a fresh tree per move, seeded from the game's
/// generator (reproducible with an iteration budget), exact leaves from an
/// optional oracle (solved tables).
pub(crate) struct MctsAgent<G: FullGame> {
    /// The engine settings.
    pub spec: MctsSpec,
    /// Exact values used as proven leaves.
    pub oracle: Option<std::sync::Arc<dyn Oracle<G> + Send>>,
}

impl<G: FullGame> crate::stats::agent::Agent<G> for MctsAgent<G> {
    fn describe(&self) -> String {
        self.spec.text()
    }

    fn choose(
        &self,
        game: &G,
        pos: &G::Pos,
        history: &[u64],
        rng: &mut Rng,
    ) -> crate::error::Result<G::Move> {
        let mut cfg = self.spec.config();
        cfg.repetition_winner = crate::stats::agent::repetition_winner(game);
        let mut tree_rng = Rng::new(rng.next_u64());
        let r = match &self.oracle {
            Some(o) => search(game, pos, history, o.as_ref(), &cfg, &mut tree_rng),
            None => search(
                game,
                pos,
                history,
                &crate::game::NoOracle,
                &cfg,
                &mut tree_rng,
            ),
        };
        refuse_no_move_not_over(game, pos, &r)?;
        r.best.ok_or_else(|| {
            crate::error::Error::Internal(format!(
                "{}: MCTS found no move in {}",
                game.rules_string(),
                game.format_position(pos)
            ))
        })
    }
}

/// The error for a search that met a position where the side to move had no
/// legal move and the rules declared no outcome (see
/// [`MctsResult::no_move_not_over`]); `Ok` for any other search.
pub(crate) fn refuse_no_move_not_over<G: Notation, M>(
    game: &G,
    pos: &G::Pos,
    r: &MctsResult<M>,
) -> crate::error::Result<()> {
    if r.no_move_not_over == 0 {
        return Ok(());
    }
    Err(crate::error::Error::Rules(format!(
        "{}: searching from {}, MCTS reached a position in which the side to move has no legal move but the rules declare no outcome; such a position has no value under these rules, so MCTS refuses to score it (it would otherwise count as a draw)",
        game.rules_string(),
        game.format_position(pos)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Evaluate, NoOracle, Notation};

    /// A line of `len` points: each move steps one point on, and the last
    /// point has no move and no outcome (a rules engine that forgot it).
    #[derive(Clone, Debug)]
    struct DeadEnd {
        len: u8,
    }

    impl Game for DeadEnd {
        type Pos = u8;
        type Move = u8;
        fn rules_string(&self) -> String {
            "dead-end".into()
        }
        fn start(&self) -> u8 {
            0
        }
        fn legal_moves(&self, pos: &u8, out: &mut Vec<u8>) {
            out.clear();
            if *pos < self.len {
                out.extend([1, 2].into_iter().filter(|s| pos + s <= self.len));
            }
        }
        fn play(&self, pos: &u8, mv: u8) -> u8 {
            pos + mv
        }
        fn outcome(&self, _pos: &u8) -> Option<Value> {
            None
        }
        fn hash(&self, pos: &u8) -> u64 {
            u64::from(*pos) + 1
        }
        fn side_to_move(&self, pos: &u8) -> usize {
            usize::from(pos % 2)
        }
    }

    impl Notation for DeadEnd {
        fn format_position(&self, pos: &u8) -> String {
            pos.to_string()
        }
        fn parse_position(&self, text: &str) -> crate::error::Result<u8> {
            text.parse()
                .map_err(|_| crate::error::Error::Position(text.into()))
        }
        fn format_move(&self, _pos: &u8, mv: u8) -> String {
            mv.to_string()
        }
    }

    impl Evaluate for DeadEnd {}

    /// The search notices the dead end and the engine refuses the move,
    /// instead of scoring the dead end as a draw and playing on.
    #[test]
    fn a_position_without_moves_or_outcome_is_refused_not_drawn() {
        let g = DeadEnd { len: 3 };
        let cfg = MctsConfig {
            iterations: Some(200),
            ..MctsConfig::default()
        };
        let r = search(&g, &0, &[], &NoOracle, &cfg, &mut Rng::new(1));
        assert!(r.no_move_not_over > 0, "{r:?}");
        let err = refuse_no_move_not_over(&g, &0, &r).unwrap_err();
        assert!(matches!(err, crate::error::Error::Rules(_)), "{err}");
        assert!(err
            .to_string()
            .contains("no legal move but the rules declare no outcome"));
    }
}
