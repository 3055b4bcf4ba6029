//! Exact mode on games with cycles: random move graphs solved independently by
//! layered retrograde analysis. Exact search must prove every win and loss at
//! its exact distance and must never call a cyclic draw proven.

use huntsolve::game::{Evaluate, Game, NoOracle, Notation, Value};
use huntsolve::search::{self, Limit, SearchConfig};
use huntsolve::{mix64, Rng};
use huntsolve::{Error, Result};

/// A position is a node of a directed graph and the side to move; moving
/// follows an edge. Nodes in `lost` are terminal: the side to move has lost.
#[derive(Clone, Debug)]
struct GraphGame {
    edges: Vec<Vec<u8>>,
    lost: Vec<bool>,
}

impl Game for GraphGame {
    type Pos = (u8, u8);

    type Move = u8;

    fn family(&self) -> &'static str {
        "graph"
    }

    fn rules_string(&self) -> String {
        "graph".into()
    }

    fn fingerprint(&self) -> u64 {
        1
    }

    fn start(&self) -> (u8, u8) {
        (0, 0)
    }

    fn legal_moves(&self, p: &(u8, u8), out: &mut Vec<u8>) {
        out.clear();
        if !self.lost[p.0 as usize] {
            out.extend_from_slice(&self.edges[p.0 as usize]);
        }
    }

    fn play(&self, p: &(u8, u8), mv: u8) -> (u8, u8) {
        (mv, 1 - p.1)
    }

    fn outcome(&self, p: &(u8, u8)) -> Option<Value> {
        self.lost[p.0 as usize].then_some(Value::Loss)
    }

    fn hash(&self, p: &(u8, u8)) -> u64 {
        mix64(p.0 as u64 * 2 + p.1 as u64 + 77)
    }

    fn side_to_move(&self, p: &(u8, u8)) -> usize {
        p.1 as usize
    }

    fn side_name(&self, side: usize) -> &'static str {
        ["a", "b"][side & 1]
    }
}

impl Notation for GraphGame {
    fn format_position(&self, p: &(u8, u8)) -> String {
        format!("{}/{}", p.0, p.1)
    }

    fn parse_position(&self, text: &str) -> Result<(u8, u8)> {
        Err(Error::Position(text.into()))
    }

    fn format_move(&self, _: &(u8, u8), mv: u8) -> String {
        mv.to_string()
    }
}

impl Evaluate for GraphGame {}

/// Layered retrograde analysis: layer k resolves wins in k (a child lost in
/// k-1) and losses in k (every child won, the longest in k-1); the rest draws.
fn retro(g: &GraphGame) -> Vec<Option<(Value, u32)>> {
    let n = g.edges.len();
    // The side does not matter for the graph's values; index by node.
    let mut val: Vec<Option<(Value, u32)>> = (0..n)
        .map(|i| g.lost[i].then_some((Value::Loss, 0)))
        .collect();
    for k in 1..=(2 * n as u32 + 2) {
        let prev = val.clone();
        for i in 0..n {
            if prev[i].is_some() {
                continue;
            }
            let kids: Vec<Option<(Value, u32)>> =
                g.edges[i].iter().map(|&c| prev[c as usize]).collect();
            if kids.iter().any(|c| *c == Some((Value::Loss, k - 1))) {
                val[i] = Some((Value::Win, k));
            } else if kids.iter().all(|c| matches!(c, Some((Value::Win, _))))
                && kids.iter().any(|c| *c == Some((Value::Win, k - 1)))
            {
                val[i] = Some((Value::Loss, k));
            }
        }
    }
    val
}

#[test]
fn exact_mode_on_cyclic_graphs() {
    let mut rng = Rng::new(5);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for _ in 0..60 {
        let n = 9;
        let edges: Vec<Vec<u8>> = (0..n)
            .map(|_| {
                let mut e: Vec<u8> = (0..2).map(|_| rng.below(n) as u8).collect();
                e.dedup();
                e
            })
            .collect();
        let lost: Vec<bool> = (0..n).map(|i| i > 0 && rng.below(4) == 0).collect();
        let g = GraphGame { edges, lost };
        let solved = retro(&g);
        for node in 0..n as u8 {
            let pos = (node, 0u8);
            let cfg = SearchConfig {
                exact: true,
                limits: vec![Limit::Depth(24)],
                ..Default::default()
            };
            let r = search::search_fresh(&g, &pos, &NoOracle, &cfg, 1).unwrap();
            match solved[node as usize] {
                Some(want) => {
                    assert_eq!(r.proven, Some(want), "graph {:?} node {node}", g);
                    if want.0 == Value::Win {
                        wins += 1
                    } else {
                        losses += 1
                    }
                }
                None => {
                    // A cyclic draw is never proven (nor mistaken for a result).
                    assert_eq!(r.proven, None, "graph {:?} node {node}", g);
                    assert_eq!(r.depth, 24);
                    draws += 1;
                }
            }
        }
    }
    assert!(
        wins > 20 && losses > 20 && draws > 20,
        "{wins} {losses} {draws}"
    );
}
