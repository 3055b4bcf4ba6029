//! A random game graph with cycles, tiers, multi-edges and an optional
//! fixed-point-free symmetry, to test the solver's in-tier propagation and its
//! edge counting under symmetry against [`super::retro::exhaustive`].

use huntsolve::game::{Evaluate, Game, Notation, Value};
use huntsolve::retro::TierGame;
use huntsolve::retro::{tier_closure, Scope, Solvable};
use huntsolve::Rng;
use huntsolve::{Error, Result};
use std::sync::Arc;

/// Node `(a, s)` is `2a + s`; base node `a` lies in tier `a / per_tier`.
/// A base edge `(b, f)` of `a` is a move from `(a, s)` to `(b, s ^ f)`, so
/// swapping `s` is an automorphism. With `sym`, a class is `{(a,0), (a,1)}`.
#[derive(Debug)]
struct Graph {
    tiers: u32,
    per_tier: u32,
    sym: bool,
    edges: Vec<Vec<(u32, u8)>>,
    rev: Vec<Vec<(u32, u8)>>,
    terminal: Vec<Option<Value>>,
    hole: Vec<bool>,
}

/// The graph game.
#[derive(Clone, Debug)]
pub struct GraphGame(Arc<Graph>);

impl GraphGame {
    /// A random graph: `tiers` tiers of `per_tier` base nodes, about `degree`
    /// moves per node, a share `exit` of them into later tiers.
    pub fn random(seed: u64, tiers: u32, per_tier: u32, degree: u32, exit: f64, sym: bool) -> Self {
        let mut rng = Rng::new(seed);
        let n = (tiers * per_tier) as usize;
        let hole: Vec<bool> = (0..n).map(|_| rng.unit() < 0.05).collect();
        let mut terminal = vec![None; n];
        let mut edges = vec![Vec::new(); n];
        for a in 0..n {
            if hole[a] {
                continue;
            }
            let r = rng.unit();
            if r < 0.04 {
                terminal[a] = Some(Value::Draw);
                continue;
            } else if r < 0.06 {
                terminal[a] = Some(Value::Win);
                continue;
            }
            let t = a as u32 / per_tier;
            let k = rng.below(2 * degree as usize + 1) as u32; // 0 moves: loss (no move)
            for _ in 0..k {
                let tt = if t + 1 < tiers && rng.unit() < exit {
                    t + 1 + rng.below((tiers - t - 1) as usize) as u32
                } else {
                    t
                };
                let b = loop {
                    let b = tt * per_tier + rng.below(per_tier as usize) as u32;
                    if !hole[b as usize] {
                        break b;
                    }
                };
                let f = rng.below(2) as u8;
                edges[a].push((b, f));
                if rng.unit() < 0.1 {
                    edges[a].push((b, f)); // a second move to the same child
                }
            }
        }
        let mut rev = vec![Vec::new(); n];
        for (a, es) in edges.iter().enumerate() {
            for &(b, f) in es {
                rev[b as usize].push((a as u32, f));
            }
        }
        GraphGame(Arc::new(Graph {
            tiers,
            per_tier,
            sym,
            edges,
            rev,
            terminal,
            hole,
        }))
    }

    /// Every node that exists.
    pub fn nodes(&self) -> Vec<u32> {
        (0..self.0.hole.len() as u32)
            .filter(|&a| !self.0.hole[a as usize])
            .flat_map(|a| [2 * a, 2 * a + 1])
            .collect()
    }
}

impl Game for GraphGame {
    type Pos = u32;

    type Move = u16;

    fn family(&self) -> &'static str {
        "graph"
    }

    fn rules_string(&self) -> String {
        format!(
            "graph{}x{}{}",
            self.0.tiers,
            self.0.per_tier,
            if self.0.sym { "s" } else { "" }
        )
    }

    fn fingerprint(&self) -> u64 {
        huntsolve::mix64(self.0.edges.iter().map(|e| e.len() as u64).sum::<u64>())
    }

    fn start(&self) -> u32 {
        self.nodes()[0]
    }

    fn legal_moves(&self, pos: &u32, out: &mut Vec<u16>) {
        out.clear();
        if self.outcome(pos).is_none() {
            out.extend(0..self.0.edges[(*pos / 2) as usize].len() as u16);
        }
    }

    fn play(&self, pos: &u32, mv: u16) -> u32 {
        let (b, f) = self.0.edges[(*pos / 2) as usize][mv as usize];
        2 * b + ((*pos & 1) ^ f as u32)
    }

    fn outcome(&self, pos: &u32) -> Option<Value> {
        let a = (*pos / 2) as usize;
        self.0.terminal[a].or(if self.0.edges[a].is_empty() {
            Some(Value::Loss)
        } else {
            None
        })
    }

    fn hash(&self, pos: &u32) -> u64 {
        huntsolve::mix64(*pos as u64)
    }

    fn side_to_move(&self, _: &u32) -> usize {
        0
    }

    fn side_name(&self, _: usize) -> &'static str {
        "mover"
    }
}

impl Notation for GraphGame {
    fn format_position(&self, pos: &u32) -> String {
        format!("{}.{}", pos / 2, pos & 1)
    }

    fn parse_position(&self, text: &str) -> Result<u32> {
        Err(Error::Position(text.into()))
    }

    fn format_move(&self, _: &u32, mv: u16) -> String {
        mv.to_string()
    }
}

impl Evaluate for GraphGame {}

impl TierGame for GraphGame {
    type Tier = u32;
    fn tier_of(&self, pos: &u32) -> u32 {
        pos / 2 / self.0.per_tier
    }
    fn tier_name(&self, tier: u32) -> String {
        format!("g{tier}")
    }
    fn parse_tier(&self, name: &str) -> Result<u32> {
        name.trim_start_matches('g')
            .parse()
            .map_err(|_| Error::Usage(name.into()))
    }
    fn tier_children(&self, tier: u32) -> Vec<u32> {
        (tier + 1..self.0.tiers).collect()
    }
    fn tier_size(&self, _: u32) -> u64 {
        self.0.per_tier as u64 * if self.0.sym { 1 } else { 2 }
    }
    fn rank(&self, tier: u32, pos: &u32) -> u64 {
        let local = *pos - 2 * tier * self.0.per_tier;
        (if self.0.sym { local / 2 } else { local }) as u64
    }
    fn unrank(&self, tier: u32, index: u64) -> Option<u32> {
        let base = 2 * tier * self.0.per_tier;
        let pos = if self.0.sym {
            base + 2 * index as u32
        } else {
            base + index as u32
        };
        (!self.0.hole[(pos / 2) as usize]).then_some(pos)
    }
    fn unmoves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.clear();
        let t = self.tier_of(pos);
        for &(a, f) in &self.0.rev[(*pos / 2) as usize] {
            let p = 2 * a + ((*pos & 1) ^ f as u32);
            if self.tier_of(&p) == t && self.outcome(&p).is_none() {
                out.push(p);
            }
        }
    }
}

impl Solvable for GraphGame {
    fn scope_tiers(&self, _: &Scope) -> Result<Vec<u32>> {
        Ok(tier_closure(self, &[0]))
    }
    fn tier_placements(&self, _: u32) -> u64 {
        2 * self.0.per_tier as u64
    }
}
