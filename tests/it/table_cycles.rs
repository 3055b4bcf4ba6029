//! Verification on a game with cycles inside tiers: a seeded random graph whose
//! nodes are split into tiers (moves stay in the tier or go to lower ones), solved
//! here by plain level-by-level relaxation over the whole graph. Exercises the
//! same-tier child lookups of `verify` that tic-tac-toe (no in-tier moves) cannot.

use huntsolve::game::{Evaluate, Game, Notation, Oracle, Value};
use huntsolve::table::{
    table_path, verify_dir, write_table_with, TableMeta, TableOracle, WriteOptions,
};
use huntsolve::NoProgress;
use huntsolve::Rng;
use huntsolve::{decode, encode, TierGame, RECORD_ENCODING};
use huntsolve::{Error, Result};

const TIERS: u32 = 4;
const PER_TIER: u32 = 300;

#[derive(Clone, Debug)]
struct Graph {
    succ: Vec<Vec<u32>>,
}

impl Graph {
    fn new(seed: u64) -> Graph {
        let mut rng = Rng::new(seed);
        let n = TIERS * PER_TIER;
        let succ = (0..n)
            .map(|v| {
                let tier = v / PER_TIER;
                // About one node in eight is terminal (no moves).
                if rng.below(8) == 0 {
                    return vec![];
                }
                let k = 1 + rng.below(3);
                (0..k)
                    .map(|_| {
                        let t = if tier > 0 && rng.below(4) == 0 {
                            rng.below(tier as usize) as u32
                        } else {
                            tier
                        };
                        t * PER_TIER + rng.below(PER_TIER as usize) as u32
                    })
                    .collect()
            })
            .collect();
        Graph { succ }
    }

    /// Exact values by relaxation: level d decides wins and losses in exactly d plies.
    fn solve(&self) -> Vec<Option<(Value, u32)>> {
        let n = self.succ.len();
        let mut val: Vec<Option<(Value, u32)>> = (0..n)
            .map(|v| self.succ[v].is_empty().then_some((Value::Loss, 0)))
            .collect();
        for d in 1..=(2 * n as u32 + 2) {
            let prev = val.clone();
            for v in 0..n {
                if prev[v].is_some() {
                    continue;
                }
                let kids: Vec<_> = self.succ[v].iter().map(|&c| prev[c as usize]).collect();
                if kids.iter().any(|k| *k == Some((Value::Loss, d - 1))) {
                    val[v] = Some((Value::Win, d));
                } else if kids.iter().all(|k| matches!(k, Some((Value::Win, _))))
                    && kids.iter().any(|k| *k == Some((Value::Win, d - 1)))
                {
                    val[v] = Some((Value::Loss, d));
                }
            }
        }
        val
    }
}

impl Game for Graph {
    type Pos = u32;

    type Move = u32;

    fn family(&self) -> &'static str {
        "graph"
    }

    fn rules_string(&self) -> String {
        "graph".into()
    }

    fn fingerprint(&self) -> u64 {
        99
    }

    fn start(&self) -> u32 {
        self.succ.len() as u32 - 1
    }

    fn legal_moves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.clear();
        out.extend(&self.succ[*pos as usize]);
    }

    fn play(&self, _pos: &u32, mv: u32) -> u32 {
        mv
    }

    fn outcome(&self, pos: &u32) -> Option<Value> {
        self.succ[*pos as usize].is_empty().then_some(Value::Loss)
    }

    fn hash(&self, pos: &u32) -> u64 {
        *pos as u64
    }

    fn side_to_move(&self, _: &u32) -> usize {
        0
    }

    fn side_name(&self, _: usize) -> &'static str {
        "mover"
    }
}

impl Notation for Graph {
    fn format_position(&self, pos: &u32) -> String {
        format!("n{pos}")
    }

    fn parse_position(&self, text: &str) -> Result<u32> {
        text.strip_prefix('n')
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| Error::Position(text.into()))
    }

    fn format_move(&self, _: &u32, mv: u32) -> String {
        format!("n{mv}")
    }

    fn diagram(&self, pos: &u32) -> String {
        format!("node {pos}\n")
    }
}

impl Evaluate for Graph {}

impl TierGame for Graph {
    type Tier = u32;
    fn tier_of(&self, pos: &u32) -> u32 {
        pos / PER_TIER
    }
    fn tier_name(&self, tier: u32) -> String {
        format!("g{tier}")
    }
    fn parse_tier(&self, name: &str) -> Result<u32> {
        name.strip_prefix('g')
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| Error::Usage(name.into()))
    }
    fn tier_children(&self, tier: u32) -> Vec<u32> {
        (0..tier).collect()
    }
    fn tier_size(&self, _: u32) -> u64 {
        PER_TIER as u64
    }
    fn rank(&self, _: u32, pos: &u32) -> u64 {
        (pos % PER_TIER) as u64
    }
    fn unrank(&self, tier: u32, index: u64) -> Option<u32> {
        Some(tier * PER_TIER + index as u32)
    }
    fn unmoves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            (0..self.succ.len() as u32)
                .filter(|&v| v / PER_TIER == pos / PER_TIER && self.succ[v as usize].contains(pos)),
        );
    }
}

fn write(dir: &std::path::Path, g: &Graph, recs: &[u16]) {
    for t in 0..TIERS {
        let slice = &recs[(t * PER_TIER) as usize..((t + 1) * PER_TIER) as usize];
        let meta = TableMeta {
            rules: g.rules_string(),
            fingerprint: g.fingerprint(),
            tier: g.tier_name(t),
            index_version: 1,
            encoding: RECORD_ENCODING,
            positions: PER_TIER as u64,
            extra: String::new(),
        };
        let opts = WriteOptions {
            block_records: 64,
            ..WriteOptions::default()
        };
        write_table_with(&table_path(dir, &g.tier_name(t)), &meta, slice, &opts).unwrap();
    }
}

#[test]
fn cyclic_tiers_verify_and_alterations_are_caught() {
    let dir = std::env::temp_dir().join(format!("huntsolve-cycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 0..3 {
        let g = Graph::new(seed);
        let vals = g.solve();
        let draws = vals.iter().filter(|v| v.is_none()).count();
        let long = vals
            .iter()
            .filter(|v| matches!(v, Some((_, d)) if *d >= 3))
            .count();
        assert!(
            draws > 0 && long > 0,
            "seed {seed}: a dull graph ({draws} draws, {long} long)"
        );
        let recs: Vec<u16> = vals
            .iter()
            .map(|v| match v {
                Some((v, d)) => encode(*v, *d),
                None => encode(Value::Draw, 0),
            })
            .collect();
        write(&dir, &g, &recs);
        let r = verify_dir(&g, &dir, &NoProgress).unwrap();
        assert!(r.all_agree(), "seed {seed}: {:?}", r.examples);
        assert_eq!(r.positions, (TIERS * PER_TIER) as u64);
        let oracle = TableOracle::new(&g, &dir).unwrap();
        for v in 0..TIERS * PER_TIER {
            let want = vals[v as usize].unwrap_or((Value::Draw, 0));
            assert_eq!(oracle.probe(&g, &v), Some(want));
        }

        // Alter one record whose node has a parent in its own tier: the node, or a
        // parent depending on it, must be flagged.
        let victim = (0..TIERS * PER_TIER)
            .find(|&v| {
                let mut preds = Vec::new();
                g.unmoves(&v, &mut preds);
                !preds.is_empty() && !g.succ[v as usize].is_empty()
            })
            .unwrap();
        let mut bad = recs.clone();
        bad[victim as usize] = match decode(recs[victim as usize]) {
            Some((Value::Draw, _)) => encode(Value::Win, 1),
            Some((v, d)) => encode(v, d + 1),
            None => unreachable!(),
        };
        write(&dir, &g, &bad);
        let r = verify_dir(&g, &dir, &NoProgress).unwrap();
        assert!(
            !r.all_agree(),
            "seed {seed}: altered node {victim} not caught"
        );
        assert!(
            r.examples
                .iter()
                .any(|m| m.position.as_deref() == Some(&format!("n{victim}"))),
            "{:?}",
            r.examples
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
