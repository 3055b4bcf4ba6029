//! The frontier driver: a proof of the start assembled from proofs of the
//! positions a few plies in (Lim & Nievergelt's Tigers and Goats, 2009;
//! Takizawa's Othello, 2024), for hunt games.
//!
//! # Method
//! 1. **Enumerate** the positions up to `depth` plies from the start, one node
//!    per symmetry class ([`Game::canonical_hash`]; transpositions merged),
//!    into a graph: terminal positions and positions the tables know are
//!    leaves, the positions at `depth` are the *frontier*, the rest are inner
//!    nodes whose children are the classes their moves reach. A class first
//!    met at a smaller depth keeps that depth (an edge back to it may close a
//!    cycle in the movement phase; the evaluation below counts cycles as draws).
//! 2. **Score** every frontier position with a short df-pn run
//!    ([`FrontierConfig::score_nodes`]): a run that decides it settles it (its
//!    certificate is kept); the others keep their root proof and disproof
//!    numbers as estimates.
//! 3. **Select**: the *cost* of proving the start's goal is computed over the
//!    graph as df-pn computes proof numbers (at the goal side's nodes the
//!    smallest child, at the opponent's the sum), with each open frontier
//!    position's estimate at the bottom; likewise the cost of disproving it
//!    (sum and smallest swapped). The cheaper is the *guess*, and the set of
//!    frontier positions under the cheapest solution (one child where one
//!    suffices, every child where all are needed) is the selection: the fewest
//!    positions whose values would decide the start, by the estimates.
//!    Knuth's generalisation of Dijkstra's algorithm computes both costs in one
//!    pass each, over cycles too (a solution found this way is acyclic).
//! 4. **Prove** the selected positions, cheapest first, one df-pn run each
//!    (one per thread, all threads sharing one proof table), from
//!    [`FrontierConfig::job_nodes`] nodes, twice the last limit each time a
//!    position is tried again, up to [`FrontierConfig::max_job_nodes`]. Each result
//!    re-evaluates the graph; a result against the guess (or a position left
//!    open) changes the costs, and the next selection takes what is now known
//!    into account. The loop ends when the start is decided, the time is out,
//!    or nothing is left to try.
//! 5. **Assemble** the start's certificate: the graph above the frontier
//!    (on the actual positions, every move replayed) with each frontier
//!    position's own certificate spliced in, mapped onto the image of the
//!    class that occurs (the certificate of a class is for one member; a
//!    symmetry maps it node by node onto another). The result is one ordinary
//!    certificate ([`super::certificate`]), checked by [`super::check`]
//!    before the driver reports it: nothing of the driver's bookkeeping is
//!    trusted, `huntsolve check-proof` re-checks the file.
//!
//! # Evaluation
//! The values of the graph, given the frontier's known values, are two
//! fixpoints: the goal side's wins are the least fixpoint of "one child won
//! (goal side to move) / every child won (opponent to move)" (each win gets a
//! rank, one more than the child that made it, so following smaller ranks
//! builds an acyclic proof); the non-wins are the nodes outside the least
//! fixpoint that counts every open frontier position as won (the opponent keeps
//! away from them and from every win for ever, or reaches a known non-win:
//! endless play is a draw). This is the local retrograde analysis of the
//! prover, on the graph above the frontier.
//!
//! # Resuming
//! With an output directory, every result is written at once: each decided
//! frontier position's certificate to `DIR/certs/`, and the state
//! (`DIR/frontier-state.txt`) by a temporary file and a rename. The state's
//! first line is `HSFRONTIER 1 <crc32 of the rest>`, then a JSON document of
//! [`State`]: the rules, fingerprint, and per frontier position (by the
//! class's hash and the goal side) its outcome, tries, root numbers and
//! certificate file. A rerun reads it and skips what is settled; a state file
//! of other rules or a damaged one is refused.

use super::certificate::{CertHeader, Certificate, Kind, Node, TableRef};
use super::check::check;
use super::dfpn::{wins_for, Init, ProveConfig, Prover, RunOutcome};
use super::tables::TableDirs;
use super::ProofTable;
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use crate::hunt::{HuntGame, HuntPos};
use crate::progress::{stop_requested, NoProgress, Progress};
use hashbrown::HashMap;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Largest certificate of one frontier position (nodes).
pub(crate) const MAX_JOB_CERT_NODES: usize = 20_000_000;
/// Largest certificate of the start (nodes).
pub(crate) const MAX_START_CERT_NODES: usize = 100_000_000;
/// The state file's name in the output directory.
pub const STATE_FILE: &str = "frontier-state.txt";
/// The first word of a state file.
const STATE_MAGIC: &str = "HSFRONTIER";
/// The state format this build writes and reads.
const STATE_VERSION: u32 = 1;
/// A cost no solution has.
const INF: u64 = u64::MAX;

/// How to run [`frontier`].
#[derive(Clone, Debug)]
pub struct FrontierConfig {
    /// Plies from the start to the frontier.
    pub depth: u32,
    /// Most graph nodes enumerated (a larger graph is refused).
    pub max_positions: usize,
    /// Threads (each proves one frontier position at a time).
    pub threads: usize,
    /// The shared proof table, MiB.
    pub hash_mib: usize,
    /// Wall-clock budget (`None`: none).
    pub time: Option<Duration>,
    /// Nodes of the scoring run of each frontier position.
    pub score_nodes: u64,
    /// Nodes of the first proof run of a selected position (doubling per try).
    pub job_nodes: u64,
    /// Most nodes of one run; a position open after it is given up.
    pub max_job_nodes: u64,
    /// Where to keep the state and the certificates (`None`: in memory only).
    pub out: Option<PathBuf>,
    /// Key classes by symmetry (the graph and the prover).
    pub symmetry: bool,
    /// Initial numbers of the prover.
    pub init: Init,
    /// The prover's win-in-one test.
    pub quick_check: bool,
}

impl Default for FrontierConfig {
    fn default() -> Self {
        let p = ProveConfig::default();
        FrontierConfig {
            depth: 2,
            max_positions: 2_000_000,
            threads: 1,
            hash_mib: 256,
            time: None,
            score_nodes: 2_000,
            job_nodes: 100_000,
            max_job_nodes: 50_000_000,
            out: None,
            symmetry: p.symmetry,
            init: p.init,
            quick_check: p.quick_check,
        }
    }
}

/// What is known of one frontier position for one goal side (a row of the state file).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Entry {
    /// The class's key (hex).
    pub key: String,
    /// The position proven (a member of the class).
    pub position: String,
    /// The goal side.
    pub side: u8,
    /// `proven`, `disproven` or `unknown`.
    pub outcome: RunOutcome,
    /// Runs made (the scoring run included).
    pub tries: u32,
    /// Nodes of the largest run.
    pub nodes: u64,
    /// Root proof number after the last run.
    pub pn: u32,
    /// Root disproof number after the last run.
    pub dn: u32,
    /// The largest node limit of a run that left it open (0: none): a position
    /// whose limit reached [`FrontierConfig::max_job_nodes`] is not tried again
    /// (a rerun with a larger `max_job_nodes` tries it again).
    pub limit: u64,
    /// The certificate's file name under `certs/` (decided positions, with a directory).
    pub certificate: Option<String>,
}

/// The state file's document.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Canonical rules.
    pub rules: String,
    /// Their fingerprint.
    pub fingerprint: u64,
    /// Every frontier position tried, any depth.
    pub entries: Vec<Entry>,
}

/// The result of [`frontier`].
#[derive(Clone, Debug, Serialize)]
pub struct FrontierResult {
    /// Canonical rules.
    pub rules: String,
    /// The goal side's name.
    pub side: String,
    /// The depth of the frontier.
    pub depth: u32,
    /// Whether the goal side forces a win from the start.
    pub outcome: RunOutcome,
    /// Classes in the graph.
    pub graph_nodes: usize,
    /// Frontier classes.
    pub frontier: usize,
    /// Leaves above the frontier (terminal or in the tables).
    pub leaves: usize,
    /// Frontier classes proven, disproven, still open.
    pub proven: usize,
    /// See `proven`.
    pub disproven: usize,
    /// See `proven`.
    pub open: usize,
    /// Frontier positions resumed from the state file.
    pub resumed: usize,
    /// Runs made in this call (scoring included).
    pub runs: u64,
    /// Prover nodes in this call.
    pub nodes: u64,
    /// Selections made.
    pub selections: u32,
    /// The start's cost to prove, by the estimates (`None`: no solution).
    pub root_proof_cost: Option<u64>,
    /// The start's cost to disprove.
    pub root_disproof_cost: Option<u64>,
    /// Frontier positions in the last selection.
    pub last_selection: usize,
    /// The start's certificate, when decided.
    pub certificate: Option<StartCert>,
    /// Seconds.
    pub seconds: f64,
}

/// The assembled certificate of the start.
#[derive(Clone, Debug, Serialize)]
pub struct StartCert {
    /// The file written (with an output directory).
    pub file: Option<String>,
    /// Nodes.
    pub nodes: usize,
    /// Bytes of the encoded file.
    pub bytes: usize,
    /// The file's trailer crc32 (of every byte before the last 12).
    pub crc32: u32,
    /// Frontier certificates spliced in (one per image used).
    pub spliced: usize,
    /// Table leaves (by the check).
    pub table_leaves: u64,
    /// Whether the independent check found it holds (always true in a result:
    /// one that does not hold is an error).
    pub holds: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind2 {
    Inner,
    Frontier,
    Leaf(bool),
}

/// One class of the graph.
struct GNode {
    pos: HuntPos,
    key: u64,
    kind: Kind2,
    /// Whether the goal side moves here.
    or: bool,
    children: Vec<u32>,
}

struct Graph {
    nodes: Vec<GNode>,
    parents: Vec<Vec<u32>>,
    index: HashMap<u64, u32>,
}

fn key_of(game: &HuntGame, sym: bool, p: &HuntPos) -> u64 {
    if sym {
        game.canonical_hash(p)
    } else {
        game.hash(p)
    }
}

fn leaf_value(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    p: &HuntPos,
    side: usize,
) -> Result<Option<bool>> {
    let mover = game.side_to_move(p);
    if let Some(v) = game.outcome(p) {
        return Ok(Some(wins_for(v, mover, side)));
    }
    if let Some((_, v, _)) = tables.find(p)? {
        return Ok(Some(wins_for(v, mover, side)));
    }
    Ok(None)
}

fn enumerate(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    cfg: &FrontierConfig,
    side: usize,
) -> Result<Graph> {
    let start = game.start();
    let mut g = Graph {
        nodes: Vec::new(),
        parents: Vec::new(),
        index: HashMap::new(),
    };
    let mut depth: Vec<u32> = Vec::new();
    let add = |g: &mut Graph, depth: &mut Vec<u32>, p: HuntPos, d: u32| -> Result<(u32, bool)> {
        let k = key_of(game, cfg.symmetry, &p);
        if let Some(&i) = g.index.get(&k) {
            return Ok((i, false));
        }
        if g.nodes.len() >= cfg.max_positions {
            return Err(Error::Input(format!(
                "frontier: more than {} classes within {} plies; use a smaller --depth",
                cfg.max_positions, cfg.depth
            )));
        }
        let kind = match leaf_value(game, tables, &p, side)? {
            Some(w) => Kind2::Leaf(w),
            None if d >= cfg.depth => Kind2::Frontier,
            None => Kind2::Inner,
        };
        let i = g.nodes.len() as u32;
        g.nodes.push(GNode {
            or: game.side_to_move(&p) == side,
            pos: p,
            key: k,
            kind,
            children: Vec::new(),
        });
        g.parents.push(Vec::new());
        depth.push(d);
        g.index.insert(k, i);
        Ok((i, true))
    };
    add(&mut g, &mut depth, start, 0)?;
    let mut queue = VecDeque::from([0u32]);
    let mut moves = Vec::new();
    while let Some(v) = queue.pop_front() {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        if g.nodes[v as usize].kind != Kind2::Inner {
            continue;
        }
        let p = g.nodes[v as usize].pos;
        let d = depth[v as usize];
        game.legal_moves(&p, &mut moves);
        let mut kids = Vec::with_capacity(moves.len());
        for &m in &moves {
            let c = game.play(&p, m);
            let (i, new) = add(&mut g, &mut depth, c, d + 1)?;
            if new {
                queue.push_back(i);
            }
            kids.push(i);
        }
        kids.sort_unstable();
        kids.dedup();
        for &c in &kids {
            g.parents[c as usize].push(v);
        }
        g.nodes[v as usize].children = kids;
    }
    Ok(g)
}

/// Values of the graph given the frontier's: `win_rank` (a win of the goal
/// side and its rank) and `no_win`.
struct Eval {
    win_rank: Vec<u32>,
    no_win: Vec<bool>,
}

const NO_RANK: u32 = u32::MAX;

/// The least fixpoint of the goal side's wins; `open_wins` counts every open
/// frontier position as won.
fn win_fixpoint(g: &Graph, known: &[Option<bool>], open_wins: bool) -> Vec<u32> {
    let n = g.nodes.len();
    let mut rank = vec![NO_RANK; n];
    let mut need: Vec<u32> = g
        .nodes
        .iter()
        .map(|x| if x.or { 1 } else { x.children.len() as u32 })
        .collect();
    let mut queue = VecDeque::new();
    for (i, x) in g.nodes.iter().enumerate() {
        let won = match x.kind {
            Kind2::Leaf(w) => w,
            Kind2::Frontier => known[i].unwrap_or(open_wins),
            // An inner node without moves is terminal, hence a leaf.
            Kind2::Inner => false,
        };
        if won {
            rank[i] = 0;
            queue.push_back(i as u32);
        }
    }
    while let Some(c) = queue.pop_front() {
        let r = rank[c as usize];
        for &p in &g.parents[c as usize] {
            let p = p as usize;
            if rank[p] != NO_RANK || g.nodes[p].kind != Kind2::Inner {
                continue;
            }
            need[p] -= 1;
            if need[p] == 0 {
                rank[p] = r + 1;
                queue.push_back(p as u32);
            }
        }
    }
    rank
}

fn evaluate(g: &Graph, known: &[Option<bool>]) -> Eval {
    let win_rank = win_fixpoint(g, known, false);
    let possible = win_fixpoint(g, known, true);
    Eval {
        win_rank,
        no_win: possible.iter().map(|&r| r == NO_RANK).collect(),
    }
}

/// The cost of a solution at every node (Knuth's algorithm over min/sum),
/// with the best child of the nodes that take one. `prove`: the goal side's
/// win (one child at its nodes), else its non-win (one child at the
/// opponent's). `est(i)`: a frontier position's cost (`INF`: no solution).
fn costs(g: &Graph, prove: bool, est: &dyn Fn(usize) -> u64) -> (Vec<u64>, Vec<u32>) {
    let n = g.nodes.len();
    let mut cost = vec![INF; n];
    let mut best = vec![u32::MAX; n];
    let mut done = vec![false; n];
    let mut need: Vec<u32> = g.nodes.iter().map(|x| x.children.len() as u32).collect();
    let mut sum = vec![0u64; n];
    let mut heap = BinaryHeap::new();
    for (i, x) in g.nodes.iter().enumerate() {
        let c = match x.kind {
            Kind2::Leaf(w) => {
                if w == prove {
                    0
                } else {
                    INF
                }
            }
            Kind2::Frontier => est(i),
            Kind2::Inner => continue,
        };
        if c != INF {
            cost[i] = c;
            heap.push(Reverse((c, i as u32)));
        }
    }
    while let Some(Reverse((c, v))) = heap.pop() {
        let v = v as usize;
        if done[v] || c != cost[v] {
            continue;
        }
        done[v] = true;
        for &p in &g.parents[v] {
            let p = p as usize;
            if done[p] || g.nodes[p].kind != Kind2::Inner {
                continue;
            }
            // One child suffices where the chooser of this solution moves.
            let one = g.nodes[p].or == prove;
            if one {
                if c < cost[p] {
                    cost[p] = c;
                    best[p] = v as u32;
                    heap.push(Reverse((c, p as u32)));
                }
            } else {
                need[p] -= 1;
                sum[p] = sum[p].saturating_add(c);
                if need[p] == 0 {
                    let s = sum[p].min(INF - 1);
                    cost[p] = s;
                    heap.push(Reverse((s, p as u32)));
                }
            }
        }
    }
    (cost, best)
}

/// The open frontier positions under the solution of node 0 (see [`costs`]).
fn selection(g: &Graph, prove: bool, best: &[u32], open: &dyn Fn(usize) -> bool) -> Vec<u32> {
    let mut seen = vec![false; g.nodes.len()];
    let mut out = Vec::new();
    let mut stack = vec![0u32];
    seen[0] = true;
    while let Some(v) = stack.pop() {
        let x = &g.nodes[v as usize];
        match x.kind {
            Kind2::Leaf(_) => {}
            Kind2::Frontier => {
                if open(v as usize) {
                    out.push(v);
                }
            }
            Kind2::Inner => {
                let kids: Vec<u32> = if x.or == prove {
                    vec![best[v as usize]]
                } else {
                    x.children.clone()
                };
                for c in kids {
                    if c != u32::MAX && !seen[c as usize] {
                        seen[c as usize] = true;
                        stack.push(c);
                    }
                }
            }
        }
    }
    out
}

/// A selection: the start's costs and the runs to make, cheapest first.
struct Selected {
    proof_cost: Option<u64>,
    disproof_cost: Option<u64>,
    jobs: Vec<Job>,
}

/// Step 3 of the method: the cheaper of proving and disproving the start by
/// the estimates, and the open frontier positions under its solution, each
/// with its next run's node limit (twice the last run's, from `job_nodes`).
fn select(
    g: &Graph,
    known: &[Option<bool>],
    entry_of: &[Option<usize>],
    entries: &[Entry],
    cfg: &FrontierConfig,
) -> Selected {
    let max = cfg.max_job_nodes.max(1);
    // A frontier position's estimate: 0 or INF when known, INF when given up,
    // else its last root number, doubled per try (hard positions get dearer).
    let est = |prove: bool| {
        move |i: usize| -> u64 {
            if let Some(w) = known[i] {
                return if w == prove { 0 } else { INF };
            }
            match entry_of[i] {
                Some(ei) => {
                    let e = &entries[ei];
                    if e.limit >= max {
                        INF
                    } else {
                        let base = if prove { e.pn } else { e.dn } as u64;
                        base.max(1) << e.tries.min(30)
                    }
                }
                None => 1,
            }
        }
    };
    let (cp, bp) = costs(g, true, &est(true));
    let (cd, bd) = costs(g, false, &est(false));
    let open =
        |i: usize| known[i].is_none() && entry_of[i].is_none_or(|ei| entries[ei].limit < max);
    let prove = cp[0] <= cd[0];
    let sel = if cp[0] == INF && cd[0] == INF {
        Vec::new()
    } else if prove {
        selection(g, true, &bp, &open)
    } else {
        selection(g, false, &bd, &open)
    };
    let mut jobs: Vec<(u64, Job)> = sel
        .into_iter()
        .map(|i| {
            let e = entry_of[i as usize].map(|ei| &entries[ei]);
            let c = e.map_or(1, |e| if prove { e.pn } else { e.dn });
            let last = e.map_or(0, |e| e.limit);
            let nodes = cfg.job_nodes.max(last.saturating_mul(2)).clamp(1, max);
            (c as u64, Job { node: i, nodes })
        })
        .collect();
    jobs.sort_unstable_by_key(|(c, j)| (*c, j.node));
    Selected {
        proof_cost: (cp[0] != INF).then_some(cp[0]),
        disproof_cost: (cd[0] != INF).then_some(cd[0]),
        jobs: jobs.into_iter().map(|(_, j)| j).collect(),
    }
}

fn state_path(out: &Path) -> PathBuf {
    out.join(STATE_FILE)
}

/// Reads a state file; `None` when there is none. A damaged file, or one of
/// other rules, is an error.
pub(crate) fn read_state(path: &Path, rules: &str, fingerprint: u64) -> Result<Option<State>> {
    let text = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
    };
    let damaged = |why: &str| {
        Error::Input(format!(
            "the frontier state file {} is damaged ({why}); remove it to start again",
            path.display()
        ))
    };
    let nl = text
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line"))?;
    let head = std::str::from_utf8(&text[..nl]).map_err(|_| damaged("the header is not text"))?;
    let body = &text[nl + 1..];
    let f: Vec<&str> = head.split(' ').collect();
    if f.len() != 3 || f[0] != STATE_MAGIC {
        return Err(damaged("not a frontier state file"));
    }
    if f[1] != STATE_VERSION.to_string() {
        return Err(damaged(&format!(
            "format version {}; this build reads {STATE_VERSION}",
            f[1]
        )));
    }
    let crc = u32::from_str_radix(f[2], 16).map_err(|_| damaged("bad checksum field"))?;
    if crc32fast::hash(body) != crc {
        return Err(damaged("checksum mismatch"));
    }
    let st: State =
        serde_json::from_slice(body).map_err(|e| damaged(&format!("invalid JSON: {e}")))?;
    if st.rules != rules || st.fingerprint != fingerprint {
        return Err(Error::Input(format!(
            "the frontier state file {} is for rules '{}' ({:016x}), not '{rules}' ({fingerprint:016x}); \
             use another --out",
            path.display(),
            st.rules,
            st.fingerprint
        )));
    }
    Ok(Some(st))
}

/// Writes the state: a temporary file, then a rename.
fn write_state(out: &Path, st: &State) -> Result<()> {
    let body = serde_json::to_vec_pretty(st).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
    let mut bytes = format!(
        "{STATE_MAGIC} {STATE_VERSION} {:08x}\n",
        crc32fast::hash(&body)
    )
    .into_bytes();
    bytes.extend_from_slice(&body);
    let path = state_path(out);
    let tmp = out.join(format!(".{STATE_FILE}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::File::open(&tmp).and_then(|f| f.sync_all()))
        .map_err(|e| Error::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, &path)
        .map_err(|e| Error::io(format!("renaming to {}", path.display()), e))
}

/// A proof run of one frontier position.
struct Job {
    node: u32,
    nodes: u64,
}

/// What a run found.
struct Done {
    node: u32,
    outcome: RunOutcome,
    nodes: u64,
    limit: u64,
    pn: u32,
    dn: u32,
    /// Stopped by the driver (the start was decided, time is out): not a try.
    interrupted: bool,
    cert: Option<Result<Certificate>>,
}

struct Queue {
    jobs: VecDeque<Job>,
    closed: bool,
}

fn lock(q: &Mutex<Queue>) -> std::sync::MutexGuard<'_, Queue> {
    q.lock().unwrap_or_else(|e| e.into_inner())
}

/// Proves or disproves "`side` forces a win" from the start of `game` by the
/// frontier method (see the module docs). Errors: bad input, a damaged state
/// file, unreadable tables, an interrupt, a certificate that does not hold
/// ([`Error::Disagreement`]).
pub fn frontier(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    side: usize,
    cfg: &FrontierConfig,
    progress: &dyn Progress,
) -> Result<FrontierResult> {
    super::check_repetition_rule(game)?;
    if side > 1 {
        return Err(Error::Input(format!("goal side {side}: 0 or 1 expected")));
    }
    let t0 = Instant::now();
    let rules = game.rules_string();
    let fp = game.fingerprint();
    let cert_dir = cfg.out.as_ref().map(|d| d.join("certs"));
    if let Some(d) = &cert_dir {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::io(format!("creating {}", d.display()), e))?;
    }
    let mut state = match &cfg.out {
        Some(d) => read_state(&state_path(d), &rules, fp)?,
        None => None,
    }
    .unwrap_or(State {
        rules: rules.clone(),
        fingerprint: fp,
        entries: Vec::new(),
    });
    progress.message(&format!("enumerating {} plies", cfg.depth));
    let g = enumerate(game, tables, cfg, side)?;
    let n = g.nodes.len();
    let frontier_ids: Vec<u32> = (0..n as u32)
        .filter(|&i| g.nodes[i as usize].kind == Kind2::Frontier)
        .collect();
    // Per node: the state entry, when there is one.
    let mut entry_of: Vec<Option<usize>> = vec![None; n];
    let mut certs: Vec<Option<Certificate>> = vec![None; n];
    let mut resumed = 0;
    for (ei, e) in state.entries.iter().enumerate() {
        if e.side as usize != side {
            continue;
        }
        let Ok(k) = u64::from_str_radix(&e.key, 16) else {
            return Err(Error::Input(format!(
                "the frontier state file names key '{}' (hex expected)",
                crate::error::bounded(&e.key)
            )));
        };
        if let Some(&i) = g.index.get(&k) {
            if g.nodes[i as usize].kind == Kind2::Frontier {
                entry_of[i as usize] = Some(ei);
                resumed += 1;
            }
        }
    }
    let known_of = |e: &Entry| match e.outcome {
        RunOutcome::Proven => Some(true),
        RunOutcome::Disproven => Some(false),
        RunOutcome::Unknown => None,
    };
    let mut known: Vec<Option<bool>> = vec![None; n];
    for i in 0..n {
        if let Some(ei) = entry_of[i] {
            known[i] = known_of(&state.entries[ei]);
        }
    }
    let mut result = FrontierResult {
        rules: rules.clone(),
        side: game.side_name(side).to_string(),
        depth: cfg.depth,
        outcome: RunOutcome::Unknown,
        graph_nodes: n,
        frontier: frontier_ids.len(),
        leaves: g
            .nodes
            .iter()
            .filter(|x| matches!(x.kind, Kind2::Leaf(_)))
            .count(),
        proven: 0,
        disproven: 0,
        open: 0,
        resumed,
        runs: 0,
        nodes: 0,
        selections: 0,
        root_proof_cost: None,
        root_disproof_cost: None,
        last_selection: 0,
        certificate: None,
        seconds: 0.0,
    };
    let deadline = cfg.time.map(|t| t0 + t);
    let time_left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let tt = ProofTable::new(cfg.hash_mib.max(1));
    let stop = Arc::new(AtomicBool::new(false));
    let queue = Mutex::new(Queue {
        jobs: VecDeque::new(),
        closed: false,
    });
    let wake = Condvar::new();
    let (tx, rx) = mpsc::channel::<Done>();
    let threads = cfg.threads.max(1);

    let decided = |known: &[Option<bool>]| -> Option<bool> {
        let ev = evaluate(&g, known);
        if ev.win_rank[0] != NO_RANK {
            Some(true)
        } else if ev.no_win[0] {
            Some(false)
        } else {
            None
        }
    };

    let outcome = std::thread::scope(|scope| -> Result<Option<bool>> {
        // The workers: one df-pn run at a time each, on the shared table.
        let close = |stop_runs: bool| {
            if stop_runs {
                stop.store(true, Ordering::Relaxed);
            }
            lock(&queue).closed = true;
            wake.notify_all();
        };
        for _ in 0..threads {
            let tx = tx.clone();
            let (queue, wake, stop, tt, g) = (&queue, &wake, &stop, &tt, &g);
            let time_left = &time_left;
            let spawned = std::thread::Builder::new()
                .name("frontier".into())
                .spawn_scoped(scope, move || loop {
                    let job = {
                        let mut q = lock(queue);
                        loop {
                            if q.closed {
                                return;
                            }
                            if let Some(j) = q.jobs.pop_front() {
                                break j;
                            }
                            q = wake.wait(q).unwrap_or_else(|e| e.into_inner());
                        }
                    };
                    let pos = g.nodes[job.node as usize].pos;
                    let pcfg = ProveConfig {
                        threads: 1,
                        nodes: Some(job.nodes),
                        time: time_left(),
                        stop: stop.clone(),
                        symmetry: cfg.symmetry,
                        init: cfg.init,
                        quick_check: cfg.quick_check,
                        ..Default::default()
                    };
                    let prover = Prover::new(game, tables, tt, pcfg);
                    let r = prover.prove_side(&pos, side, &NoProgress);
                    let interrupted = r.outcome == RunOutcome::Unknown
                        && (stop.load(Ordering::Relaxed)
                            || stop_requested()
                            || time_left().is_some_and(|t| t.is_zero()));
                    let cert = (r.outcome != RunOutcome::Unknown).then(|| {
                        let leaf = |p: &HuntPos| -> Result<Option<TableRef>> {
                            Ok(tables.leaf(game, p)?.map(|x| x.0))
                        };
                        super::dfpn::extract(
                            &prover,
                            &pos,
                            side,
                            r.outcome,
                            &leaf,
                            MAX_JOB_CERT_NODES,
                        )
                    });
                    let done = Done {
                        node: job.node,
                        outcome: r.outcome,
                        nodes: r.nodes,
                        limit: job.nodes,
                        pn: r.pn,
                        dn: r.dn,
                        interrupted,
                        cert,
                    };
                    if tx.send(done).is_err() {
                        return;
                    }
                });
            if let Err(e) = spawned {
                close(true);
                return Err(Error::io("starting a frontier thread", e));
            }
        }
        drop(tx);
        let run = (|| -> Result<Option<bool>> {
            let mut running = 0usize;
            // 1. Scoring: every frontier position not in the state.
            let to_score: Vec<u32> = frontier_ids
                .iter()
                .copied()
                .filter(|&i| entry_of[i as usize].is_none())
                .collect();
            progress.stage("frontier: scoring", to_score.len() as u64);
            {
                let mut q = lock(&queue);
                for &i in &to_score {
                    q.jobs.push_back(Job {
                        node: i,
                        nodes: cfg.score_nodes.max(1),
                    });
                    running += 1;
                }
            }
            wake.notify_all();
            let mut scoring = true;
            // Whether a value became known since the last evaluation.
            let mut dirty = true;
            let mut saved = Instant::now();
            let mut since_eval = 0u32;
            loop {
                if stop_requested() {
                    return Err(Error::Interrupted);
                }
                // While scoring, the graph is evaluated every 64 new values
                // (an evaluation walks the whole graph).
                if dirty && (!scoring || running == 0 || since_eval >= 64) {
                    dirty = false;
                    since_eval = 0;
                    if let Some(v) = decided(&known) {
                        return Ok(Some(v));
                    }
                }
                if time_left().is_some_and(|t| t.is_zero()) {
                    return Ok(None);
                }
                if running == 0 {
                    if scoring {
                        scoring = false;
                        progress.finish_stage();
                        progress.stage("frontier: proving", 0);
                    }
                    // 3. Select and queue the selected positions.
                    let sel = select(&g, &known, &entry_of, &state.entries, cfg);
                    result.root_proof_cost = sel.proof_cost;
                    result.root_disproof_cost = sel.disproof_cost;
                    result.selections += 1;
                    result.last_selection = sel.jobs.len();
                    if sel.jobs.is_empty() {
                        return Ok(None);
                    }
                    progress.message(&format!(
                        "selection {}: {} positions (cost to prove {}, to disprove {})",
                        result.selections,
                        sel.jobs.len(),
                        cost_text(sel.proof_cost.unwrap_or(INF)),
                        cost_text(sel.disproof_cost.unwrap_or(INF))
                    ));
                    running += sel.jobs.len();
                    lock(&queue).jobs.extend(sel.jobs);
                    wake.notify_all();
                }
                let wait = time_left()
                    .unwrap_or(Duration::from_secs(1))
                    .min(Duration::from_millis(500));
                let d = match rx.recv_timeout(wait) {
                    Ok(d) => d,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(Error::Internal("the frontier workers ended early".into()))
                    }
                };
                running -= 1;
                result.runs += 1;
                result.nodes += d.nodes;
                if scoring {
                    progress.advance(1);
                }
                if d.interrupted {
                    continue;
                }
                let i = d.node as usize;
                let x = &g.nodes[i];
                let ei = match entry_of[i] {
                    Some(ei) => ei,
                    None => {
                        state.entries.push(Entry {
                            key: format!("{:016x}", x.key),
                            position: game.format_position(&x.pos),
                            side: side as u8,
                            outcome: RunOutcome::Unknown,
                            tries: 0,
                            nodes: 0,
                            pn: 1,
                            dn: 1,
                            limit: 0,
                            certificate: None,
                        });
                        entry_of[i] = Some(state.entries.len() - 1);
                        state.entries.len() - 1
                    }
                };
                let mut outcome = d.outcome;
                let mut file = None;
                if let Some(c) = d.cert {
                    match c {
                        Ok(c) => {
                            if let Some(dir) = &cert_dir {
                                let name = format!(
                                    "{:016x}.s{side}.{}.proof",
                                    x.key,
                                    if outcome == RunOutcome::Proven {
                                        "win"
                                    } else {
                                        "no-win"
                                    }
                                );
                                c.write(&dir.join(&name))?;
                                file = Some(name);
                            }
                            certs[i] = Some(c);
                        }
                        Err(Error::Interrupted) => return Err(Error::Interrupted),
                        // No certificate: the result does not count (tried again later).
                        Err(_) => outcome = RunOutcome::Unknown,
                    }
                }
                let e = &mut state.entries[ei];
                e.outcome = outcome;
                e.tries += 1;
                e.nodes = e.nodes.max(d.nodes);
                e.pn = d.pn;
                e.dn = d.dn;
                e.certificate = file;
                if outcome == RunOutcome::Unknown {
                    e.limit = e.limit.max(d.limit);
                }
                known[i] = known_of(e);
                if known[i].is_some() {
                    dirty = true;
                    since_eval += 1;
                }
                // The state at most every 10 s (the certificates are on disk
                // already); a killed run loses the results of those seconds.
                if let Some(dir) = &cfg.out {
                    if saved.elapsed() >= Duration::from_secs(10) {
                        write_state(dir, &state)?;
                        saved = Instant::now();
                    }
                }
            }
        })();
        close(true);
        run
    });
    if let Some(dir) = &cfg.out {
        write_state(dir, &state)?;
    }
    let outcome = outcome?;
    for &i in &frontier_ids {
        match known[i as usize] {
            Some(true) => result.proven += 1,
            Some(false) => result.disproven += 1,
            None => result.open += 1,
        }
    }
    if let Some(w) = outcome {
        // Certificates of resumed positions come from their files.
        for &i in &frontier_ids {
            let i = i as usize;
            if known[i].is_some() && certs[i].is_none() {
                let e = &state.entries[entry_of[i].unwrap_or(0)];
                certs[i] = Some(load_cert(game, cfg, e)?);
            }
        }
        let ev = evaluate(&g, &known);
        let (cert, spliced) = assemble(game, tables, &g, &ev, &certs, side, w, cfg.symmetry)?;
        let bytes = cert.encode();
        let mut file = None;
        if let Some(d) = &cfg.out {
            let safe: String = rules
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            let path = d.join(format!(
                "{safe}.s{side}.d{}.{}.proof",
                cfg.depth,
                if w { "win" } else { "no-win" }
            ));
            cert.write(&path)?;
            file = Some(path.display().to_string());
        }
        let probe = |p: &HuntPos| tables.leaf(game, p);
        let report = check(game, &cert, &probe)?;
        let want = if w { Kind::Win } else { Kind::NoWin };
        let holds = report.ok()
            && cert.header.kind == want
            && cert.header.side as usize == side
            && cert.header.position == game.format_position(&game.start());
        if !holds {
            return Err(Error::Disagreement(format!(
                "frontier: the start's certificate ({}) does not hold: {}",
                file.as_deref().unwrap_or("in memory"),
                report.examples.first().map_or("", |s| s.as_str())
            )));
        }
        result.outcome = if w {
            RunOutcome::Proven
        } else {
            RunOutcome::Disproven
        };
        result.certificate = Some(StartCert {
            file,
            nodes: cert.nodes.len(),
            bytes: bytes.len(),
            crc32: crc32fast::hash(&bytes[..bytes.len().saturating_sub(12)]),
            spliced,
            table_leaves: report.table_leaves,
            holds,
        });
    }
    result.seconds = t0.elapsed().as_secs_f64();
    Ok(result)
}

fn cost_text(c: u64) -> String {
    if c == INF {
        "none".into()
    } else {
        c.to_string()
    }
}

/// A resumed position's certificate, read from its file and matched to its entry.
fn load_cert(game: &HuntGame, cfg: &FrontierConfig, e: &Entry) -> Result<Certificate> {
    let name = e.certificate.as_ref().ok_or_else(|| {
        Error::Input(format!(
            "the frontier state names no certificate for the decided position {}",
            crate::error::bounded(&e.position)
        ))
    })?;
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(Error::Input(format!(
            "the frontier state names certificate '{}' outside certs/",
            crate::error::bounded(name)
        )));
    }
    let dir =
        cfg.out.as_ref().map(|d| d.join("certs")).ok_or_else(|| {
            Error::Internal("a resumed position without an output directory".into())
        })?;
    let c = Certificate::read(&dir.join(name))?;
    let want = if e.outcome == RunOutcome::Proven {
        Kind::Win
    } else {
        Kind::NoWin
    };
    if c.header.rules != game.rules_string()
        || c.header.kind != want
        || c.header.side != e.side
        || c.header.position != e.position
    {
        return Err(Error::Input(format!(
            "certificate {name} does not match its frontier state entry; remove the output directory to start again"
        )));
    }
    Ok(c)
}

/// The symmetry that maps `from` onto `to` (positions of one class).
fn symmetry_between(game: &HuntGame, from: &HuntPos, to: &HuntPos) -> Option<usize> {
    let syms = game.board().symmetries.len().max(1);
    (0..syms).find(|&s| {
        if game.board().symmetries.is_empty() {
            from == to
        } else {
            game.map_pos(s, from) == *to
        }
    })
}

/// `cert` (of position R) mapped by symmetry `s` onto the image of R: the
/// same graph, each move index renumbered into the image's legal move order.
fn map_cert(game: &HuntGame, cert: &Certificate, s: usize) -> Result<Vec<Node>> {
    let root = game.parse_position(&cert.header.position)?;
    let n = cert.nodes.len();
    let map = |p: &HuntPos| {
        if game.board().symmetries.is_empty() {
            *p
        } else {
            game.map_pos(s, p)
        }
    };
    let bad = |i: usize| Error::Internal(format!("frontier: certificate node {i} does not replay"));
    let mut pos: Vec<Option<HuntPos>> = vec![None; n];
    pos[0] = Some(root);
    let mut out = cert.nodes.clone();
    let mut queue = VecDeque::from([0usize]);
    let (mut moves, mut img_moves) = (Vec::new(), Vec::new());
    while let Some(v) = queue.pop_front() {
        let p = pos[v].ok_or_else(|| bad(v))?;
        let q = map(&p);
        let mut reach: Vec<(u32, HuntPos)> = Vec::new();
        match &cert.nodes[v] {
            Node::One { mv, child } => {
                game.legal_moves(&p, &mut moves);
                let m = *moves.get(*mv as usize).ok_or_else(|| bad(v))?;
                let c = game.play(&p, m);
                let target = map(&c);
                game.legal_moves(&q, &mut img_moves);
                let j = img_moves
                    .iter()
                    .position(|&m2| game.play(&q, m2) == target)
                    .ok_or_else(|| bad(v))?;
                out[v] = Node::One {
                    mv: j as u32,
                    child: *child,
                };
                reach.push((*child, c));
            }
            Node::All(children) => {
                game.legal_moves(&p, &mut moves);
                if moves.len() != children.len() {
                    return Err(bad(v));
                }
                let mut by_image: HashMap<u64, u32> = HashMap::new();
                for (&c, &m) in children.iter().zip(moves.iter()) {
                    let cp = game.play(&p, m);
                    by_image.insert(game.hash(&map(&cp)), c);
                    reach.push((c, cp));
                }
                game.legal_moves(&q, &mut img_moves);
                let mut kids = Vec::with_capacity(img_moves.len());
                for &m2 in &img_moves {
                    let h = game.hash(&game.play(&q, m2));
                    kids.push(*by_image.get(&h).ok_or_else(|| bad(v))?);
                }
                out[v] = Node::All(kids);
            }
            _ => {}
        }
        for (c, cp) in reach {
            let c = c as usize;
            if c >= n {
                return Err(bad(v));
            }
            if pos[c].is_none() {
                pos[c] = Some(cp);
                queue.push_back(c);
            }
        }
    }
    Ok(out)
}

struct Assembler<'a> {
    game: &'a HuntGame,
    tables: &'a TableDirs<HuntGame>,
    g: &'a Graph,
    ev: &'a Eval,
    certs: &'a [Option<Certificate>],
    side: usize,
    sym: bool,
    nodes: Vec<Node>,
    tables_used: Vec<TableRef>,
    memo: HashMap<u64, u32>,
    spliced: usize,
}

impl Assembler<'_> {
    fn class(&self, p: &HuntPos) -> Result<usize> {
        self.g
            .index
            .get(&key_of(self.game, self.sym, p))
            .map(|&i| i as usize)
            .ok_or_else(|| Error::Internal("frontier: a position outside the graph".into()))
    }

    fn table_index(&mut self, t: TableRef) -> u32 {
        match self.tables_used.iter().position(|x| *x == t) {
            Some(i) => i as u32,
            None => {
                self.tables_used.push(t);
                self.tables_used.len() as u32 - 1
            }
        }
    }

    fn push(&mut self, n: Node) -> Result<u32> {
        if self.nodes.len() >= MAX_START_CERT_NODES {
            return Err(Error::Memory(format!(
                "the start's certificate would exceed {MAX_START_CERT_NODES} nodes"
            )));
        }
        self.nodes.push(n);
        Ok(self.nodes.len() as u32 - 1)
    }

    /// A leaf node (terminal or table) at `p`.
    fn leaf(&mut self, p: &HuntPos) -> Result<Node> {
        if self.game.outcome(p).is_some() {
            return Ok(Node::Terminal);
        }
        let (t, value, distance) = self.tables.leaf(self.game, p)?.ok_or_else(|| {
            Error::Internal("frontier: a leaf neither over nor in a table".into())
        })?;
        Ok(Node::Table {
            table: self.table_index(t),
            value,
            distance,
        })
    }

    /// The frontier certificate of class `i` on the actual position `p`.
    fn splice(&mut self, i: usize, p: &HuntPos) -> Result<u32> {
        let cert = self.certs[i].as_ref().ok_or_else(|| {
            Error::Internal("frontier: a decided position without a certificate".into())
        })?;
        let root = self.game.parse_position(&cert.header.position)?;
        let s = symmetry_between(self.game, &root, p).ok_or_else(|| {
            Error::Internal("frontier: no symmetry maps a certificate onto its position".into())
        })?;
        let nodes = map_cert(self.game, cert, s)?;
        let base = self.nodes.len() as u32;
        let remap: Vec<u32> = cert
            .header
            .tables
            .iter()
            .map(|t| self.table_index(t.clone()))
            .collect();
        for nd in nodes {
            let nd = match nd {
                Node::One { mv, child } => Node::One {
                    mv,
                    child: child + base,
                },
                Node::All(c) => Node::All(c.into_iter().map(|x| x + base).collect()),
                Node::Table {
                    table,
                    value,
                    distance,
                } => Node::Table {
                    table: remap[table as usize],
                    value,
                    distance,
                },
                Node::Terminal => Node::Terminal,
            };
            self.push(nd)?;
        }
        self.spliced += 1;
        Ok(base)
    }

    /// The proof of the goal side's win at `p` (its class won with a rank).
    fn win(&mut self, p: &HuntPos) -> Result<u32> {
        let h = self.game.hash(p);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let i = self.class(p)?;
        let id = match self.g.nodes[i].kind {
            Kind2::Leaf(_) => {
                let n = self.leaf(p)?;
                self.push(n)?
            }
            Kind2::Frontier => self.splice(i, p)?,
            Kind2::Inner => {
                let rank = self.ev.win_rank[i];
                let mut moves = Vec::new();
                self.game.legal_moves(p, &mut moves);
                if self.g.nodes[i].or {
                    let mut pick = None;
                    for (k, &m) in moves.iter().enumerate() {
                        let c = self.game.play(p, m);
                        if self.ev.win_rank[self.class(&c)?] < rank {
                            pick = Some((k, c));
                            break;
                        }
                    }
                    let (k, c) = pick.ok_or_else(|| {
                        Error::Internal("frontier: a won node without a smaller won child".into())
                    })?;
                    let child = self.win(&c)?;
                    self.push(Node::One {
                        mv: k as u32,
                        child,
                    })?
                } else {
                    let mut kids = Vec::with_capacity(moves.len());
                    for &m in &moves {
                        let c = self.game.play(p, m);
                        kids.push(self.win(&c)?);
                    }
                    self.push(Node::All(kids))?
                }
            }
        };
        self.memo.insert(h, id);
        Ok(id)
    }

    /// The opponent's closed strategy at `p` (its class a non-win).
    fn no_win(&mut self, p: &HuntPos) -> Result<u32> {
        let h = self.game.hash(p);
        if let Some(&id) = self.memo.get(&h) {
            return Ok(id);
        }
        let i = self.class(p)?;
        match self.g.nodes[i].kind {
            Kind2::Leaf(_) => {
                let n = self.leaf(p)?;
                let id = self.push(n)?;
                self.memo.insert(h, id);
                Ok(id)
            }
            Kind2::Frontier => {
                let id = self.splice(i, p)?;
                self.memo.insert(h, id);
                Ok(id)
            }
            Kind2::Inner => {
                // Placeholder first: a cycle back here closes on this node.
                let id = self.push(Node::Terminal)?;
                self.memo.insert(h, id);
                let mut moves = Vec::new();
                self.game.legal_moves(p, &mut moves);
                let node = if self.g.nodes[i].or {
                    let mut kids = Vec::with_capacity(moves.len());
                    for &m in &moves {
                        let c = self.game.play(p, m);
                        kids.push(self.no_win(&c)?);
                    }
                    Node::All(kids)
                } else {
                    let mut pick = None;
                    for (k, &m) in moves.iter().enumerate() {
                        let c = self.game.play(p, m);
                        if self.ev.no_win[self.class(&c)?] {
                            pick = Some((k, c));
                            break;
                        }
                    }
                    let (k, c) = pick.ok_or_else(|| {
                        Error::Internal("frontier: a non-win without a non-win reply".into())
                    })?;
                    Node::One {
                        mv: k as u32,
                        child: self.no_win(&c)?,
                    }
                };
                self.nodes[id as usize] = node;
                Ok(id)
            }
        }
    }
}

/// The start's certificate from the graph's values and the frontier's
/// certificates, with the number of certificates spliced in.
#[allow(clippy::too_many_arguments)]
fn assemble(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    g: &Graph,
    ev: &Eval,
    certs: &[Option<Certificate>],
    side: usize,
    win: bool,
    sym: bool,
) -> Result<(Certificate, usize)> {
    let start = game.start();
    let game_ref = game;
    // The recursion is as deep as the graph above the frontier plus nothing
    // more (frontier certificates are spliced, not walked): a large stack anyway.
    let (nodes, root, tables_used, spliced) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("frontier-assemble".into())
            .stack_size(super::budget::STACK_BYTES)
            .spawn_scoped(
                scope,
                || -> Result<(Vec<Node>, u32, Vec<TableRef>, usize)> {
                    let mut a = Assembler {
                        game: game_ref,
                        tables,
                        g,
                        ev,
                        certs,
                        side,
                        sym,
                        nodes: Vec::new(),
                        tables_used: Vec::new(),
                        memo: HashMap::new(),
                        spliced: 0,
                    };
                    let root = if win {
                        a.win(&start)?
                    } else {
                        a.no_win(&start)?
                    };
                    let _ = a.side;
                    Ok((a.nodes, root, a.tables_used, a.spliced))
                },
            )
            .map_err(|e| Error::io("starting the assembly thread", e))?
            .join()
            .unwrap_or_else(|_| Err(Error::Internal("the assembly thread panicked".into())))
    })?;
    let nodes = super::certificate::renumber(&nodes, root);
    let cert = Certificate {
        header: CertHeader {
            rules: game.rules_string(),
            fingerprint: game.fingerprint(),
            position: game.format_position(&game.start()),
            side: side as u8,
            side_name: game.side_name(side).to_string(),
            kind: if win { Kind::Win } else { Kind::NoWin },
            nodes: nodes.len() as u64,
            tables: tables_used,
            writer: format!("huntsolve {} frontier", env!("CARGO_PKG_VERSION")),
        },
        nodes,
    };
    Ok((cert, spliced))
}

/// The value of the start for its mover from up to two frontier runs (as
/// [`Prover::value`]): the mover's win, else the opponent's, else a draw.
pub fn frontier_value(
    game: &HuntGame,
    tables: &TableDirs<HuntGame>,
    cfg: &FrontierConfig,
    progress: &dyn Progress,
) -> Result<(Option<Value>, Vec<FrontierResult>)> {
    let mover = game.side_to_move(&game.start());
    let first = frontier(game, tables, mover, cfg, progress)?;
    match first.outcome {
        RunOutcome::Proven => return Ok((Some(Value::Win), vec![first])),
        RunOutcome::Unknown => return Ok((None, vec![first])),
        RunOutcome::Disproven => {}
    }
    let mut cfg2 = cfg.clone();
    cfg2.time = cfg
        .time
        .map(|t| t.saturating_sub(Duration::from_secs_f64(first.seconds)));
    let second = frontier(game, tables, 1 - mover, &cfg2, progress)?;
    let v = match second.outcome {
        RunOutcome::Proven => Some(Value::Loss),
        RunOutcome::Disproven => Some(Value::Draw),
        RunOutcome::Unknown => None,
    };
    Ok((v, vec![first, second]))
}
