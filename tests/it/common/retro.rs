//! Shared helpers for the retrograde tests: an exhaustive reference solver
//! that shares no code with `huntsolve::retro`.

#![allow(dead_code)]

use huntsolve::game::{Game, Value};
use std::collections::HashMap;

/// Every position reachable from `roots` with its value and distance, computed by
/// synchronous level iteration over the explicit game graph: level k decides
/// wins whose best losing child has distance k-1 and losses whose children are
/// all wins of distance at most k-1; what is never decided is a draw.
pub fn exhaustive<G: Game>(game: &G, roots: &[G::Pos]) -> HashMap<G::Pos, (Value, u32)> {
    let mut index: HashMap<G::Pos, usize> = HashMap::new();
    let mut nodes: Vec<G::Pos> = Vec::new();
    let mut kids: Vec<Vec<usize>> = Vec::new();
    let mut stack: Vec<G::Pos> = Vec::new();
    for r in roots {
        if !index.contains_key(r) {
            index.insert(r.clone(), nodes.len());
            nodes.push(r.clone());
            stack.push(r.clone());
        }
    }
    let mut moves = Vec::new();
    let mut pending: Vec<(usize, Vec<G::Pos>)> = Vec::new();
    while let Some(p) = stack.pop() {
        let i = index[&p];
        let mut cs = Vec::new();
        if game.outcome(&p).is_none() {
            game.legal_moves(&p, &mut moves);
            for &m in &moves {
                let c = game.play(&p, m);
                if !index.contains_key(&c) {
                    index.insert(c.clone(), nodes.len());
                    nodes.push(c.clone());
                    stack.push(c.clone());
                }
                cs.push(c);
            }
        }
        pending.push((i, cs));
    }
    kids.resize(nodes.len(), Vec::new());
    for (i, cs) in pending {
        kids[i] = cs.iter().map(|c| index[c]).collect();
    }
    let mut val: Vec<Option<(Value, u32)>> = nodes
        .iter()
        .map(|p| game.outcome(p).map(|v| (v, 0)))
        .collect();
    let mut k = 1;
    loop {
        let mut changes = Vec::new();
        for i in 0..nodes.len() {
            if val[i].is_some() {
                continue;
            }
            let win = kids[i]
                .iter()
                .any(|&j| matches!(val[j], Some((Value::Loss, d)) if d < k));
            let loss = !kids[i].is_empty()
                && kids[i]
                    .iter()
                    .all(|&j| matches!(val[j], Some((Value::Win, d)) if d < k));
            if win {
                changes.push((i, (Value::Win, k)));
            } else if loss {
                changes.push((i, (Value::Loss, k)));
            }
        }
        if changes.is_empty() {
            break;
        }
        for (i, v) in changes {
            val[i] = Some(v);
        }
        k += 1;
    }
    nodes
        .into_iter()
        .zip(val)
        .map(|(p, v)| (p, v.unwrap_or((Value::Draw, 0))))
        .collect()
}

/// The hunt preset `spec` solved whole, one thread, into a fresh temporary
/// directory named by `tag` (and this process): the rules and the directory.
pub fn solved_whole(spec: &str, tag: &str) -> (huntsolve::hunt::HuntGame, std::path::PathBuf) {
    let g = huntsolve::hunt::from_spec(spec).unwrap();
    let dir = std::env::temp_dir().join(format!("huntsolve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = huntsolve::retro::SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    huntsolve::retro::solve(
        &g,
        &huntsolve::retro::Scope::Whole,
        &dir,
        &opts,
        &huntsolve::NoProgress,
    )
    .unwrap();
    (g, dir)
}
