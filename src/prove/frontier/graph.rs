//! The frontier driver's graph: the classes up to `depth` plies enumerated
//! (step 1 of the method), their values given the frontier's (the two
//! fixpoints of the module docs), and the selection by costs (step 3).

use super::state::Entry;
use super::{FrontierConfig, INF};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::hunt::{HuntGame, HuntPos};
use crate::progress::stop_requested;
use crate::prove::dfpn::wins_for;
use crate::prove::tables::TableDirs;
use hashbrown::HashMap;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind2 {
    Inner,
    Frontier,
    Leaf(bool),
}

/// One class of the graph.
pub(super) struct GNode {
    pub(super) pos: HuntPos,
    pub(super) key: u64,
    pub(super) kind: Kind2,
    /// Whether the goal side moves here.
    pub(super) or: bool,
    pub(super) children: Vec<u32>,
}

pub(super) struct Graph {
    pub(super) nodes: Vec<GNode>,
    pub(super) parents: Vec<Vec<u32>>,
    pub(super) index: HashMap<u64, u32>,
}

pub(super) fn key_of(game: &HuntGame, sym: bool, p: &HuntPos) -> u64 {
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

pub(super) fn enumerate(
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
            return Err(Error::Usage(format!(
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
pub(super) struct Eval {
    pub(super) win_rank: Vec<u32>,
    pub(super) no_win: Vec<bool>,
}

pub(super) const NO_RANK: u32 = u32::MAX;

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

pub(super) fn evaluate(g: &Graph, known: &[Option<bool>]) -> Eval {
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

/// A proof run of one frontier position.
pub(super) struct Job {
    pub(super) node: u32,
    pub(super) nodes: u64,
}

/// A selection: the start's costs and the runs to make, cheapest first.
pub(super) struct Selected {
    pub(super) proof_cost: Option<u64>,
    pub(super) disproof_cost: Option<u64>,
    pub(super) jobs: Vec<Job>,
}

/// Step 3 of the method: the cheaper of proving and disproving the start by
/// the estimates, and the open frontier positions under its solution, each
/// with its next run's node limit (twice the last run's, from `job_nodes`).
pub(super) fn select(
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
