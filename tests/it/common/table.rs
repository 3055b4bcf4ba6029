//! A tiered tic-tac-toe for the table tests (tier = pieces on board, slot = the
//! base-3 code of the cells, no symmetry), and a plain recursive solver that
//! writes its tables: independent of the retro module, which is built elsewhere.
#![allow(dead_code)]

use huntsolve::game::{Evaluate, Game, Notation, Value};
use huntsolve::table::{table_path, write_table_with, TableMeta, WriteOptions};
use huntsolve::{encode, TierGame, RECORD_ENCODING, REC_NONE};
use huntsolve::{Error, Result};
use huntsolve::{TicTacToe, TttPos};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Tic-tac-toe with tiers.
#[derive(Clone, Debug, Default)]
pub struct TierTtt(pub TicTacToe);

const SLOTS: u64 = 19683; // 3^9

impl Game for TierTtt {
    type Pos = TttPos;

    type Move = u8;

    fn family(&self) -> &'static str {
        "toy"
    }

    fn rules_string(&self) -> String {
        self.0.rules_string()
    }

    fn fingerprint(&self) -> u64 {
        self.0.fingerprint()
    }

    fn start(&self) -> TttPos {
        self.0.start()
    }

    fn legal_moves(&self, pos: &TttPos, out: &mut Vec<u8>) {
        self.0.legal_moves(pos, out)
    }

    fn play(&self, pos: &TttPos, mv: u8) -> TttPos {
        self.0.play(pos, mv)
    }

    fn outcome(&self, pos: &TttPos) -> Option<Value> {
        self.0.outcome(pos)
    }

    fn hash(&self, pos: &TttPos) -> u64 {
        self.0.hash(pos)
    }

    fn side_to_move(&self, pos: &TttPos) -> usize {
        self.0.side_to_move(pos)
    }

    fn side_name(&self, side: usize) -> &'static str {
        self.0.side_name(side)
    }

    fn is_capture(&self, pos: &TttPos, mv: u8) -> bool {
        self.0.is_capture(pos, mv)
    }

    fn captures_of(&self, pos: &TttPos, mv: u8) -> u32 {
        self.0.captures_of(pos, mv)
    }
}

impl Notation for TierTtt {
    fn format_position(&self, pos: &TttPos) -> String {
        self.0.format_position(pos)
    }

    fn parse_position(&self, text: &str) -> Result<TttPos> {
        self.0.parse_position(text)
    }

    fn format_move(&self, pos: &TttPos, mv: u8) -> String {
        self.0.format_move(pos, mv)
    }

    fn diagram(&self, pos: &TttPos) -> String {
        self.0.diagram(pos)
    }
}

impl Evaluate for TierTtt {
    fn evaluate(&self, pos: &TttPos) -> i32 {
        self.0.evaluate(pos)
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        self.0.set_eval_param(key, value)
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        self.0.eval_params()
    }
}

impl TierGame for TierTtt {
    type Tier = u8;
    fn tier_of(&self, pos: &TttPos) -> u8 {
        (pos.x | pos.o).count_ones() as u8
    }
    fn tier_name(&self, tier: u8) -> String {
        format!("p{tier}")
    }
    fn parse_tier(&self, name: &str) -> Result<u8> {
        name.strip_prefix('p')
            .and_then(|n| n.parse().ok())
            .filter(|&n| n <= 9)
            .ok_or_else(|| Error::Usage(format!("'{name}' is not a tier (p0..p9)")))
    }
    fn tier_children(&self, tier: u8) -> Vec<u8> {
        if tier < 9 {
            vec![tier + 1]
        } else {
            vec![]
        }
    }
    fn tier_size(&self, _tier: u8) -> u64 {
        SLOTS
    }
    fn rank(&self, _tier: u8, pos: &TttPos) -> u64 {
        (0..9).rev().fold(0u64, |acc, i| {
            acc * 3
                + if pos.x & (1 << i) != 0 {
                    1
                } else if pos.o & (1 << i) != 0 {
                    2
                } else {
                    0
                }
        })
    }
    fn unrank(&self, tier: u8, index: u64) -> Option<TttPos> {
        if index >= SLOTS {
            return None;
        }
        let mut p = TttPos::default();
        let mut r = index;
        for i in 0..9 {
            match r % 3 {
                1 => p.x |= 1 << i,
                2 => p.o |= 1 << i,
                _ => {}
            }
            r /= 3;
        }
        let (nx, no) = (p.x.count_ones(), p.o.count_ones());
        (nx + no == tier as u32 && (nx == no || nx == no + 1)).then_some(p)
    }
    fn unmoves(&self, _pos: &TttPos, _out: &mut Vec<TttPos>) {
        // Tiers have no in-tier moves.
    }
}

/// Exact value and distance by plain recursion (the game is acyclic).
pub fn minimax(
    g: &TierTtt,
    pos: &TttPos,
    memo: &mut HashMap<TttPos, (Value, u32)>,
) -> (Value, u32) {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let v = if let Some(v) = g.outcome(pos) {
        (v, 0)
    } else {
        let mut moves = Vec::new();
        g.legal_moves(pos, &mut moves);
        let kids: Vec<(Value, u32)> = moves
            .iter()
            .map(|&m| minimax(g, &g.play(pos, m), memo))
            .collect();
        if let Some(d) = kids
            .iter()
            .filter(|k| k.0 == Value::Loss)
            .map(|k| k.1)
            .min()
        {
            (Value::Win, d + 1)
        } else if kids.iter().all(|k| k.0 == Value::Win) {
            (Value::Loss, kids.iter().map(|k| k.1).max().unwrap_or(0) + 1)
        } else {
            (Value::Draw, 0)
        }
    };
    memo.insert(*pos, v);
    v
}

/// The records of one tier.
pub fn tier_records(g: &TierTtt, tier: u8, memo: &mut HashMap<TttPos, (Value, u32)>) -> Vec<u16> {
    (0..SLOTS)
        .map(|i| match g.unrank(tier, i) {
            None => REC_NONE,
            Some(p) => {
                let (v, d) = minimax(g, &p, memo);
                encode(v, d)
            }
        })
        .collect()
}

pub fn meta(g: &TierTtt, tier: u8) -> TableMeta {
    TableMeta {
        rules: g.rules_string(),
        fingerprint: g.fingerprint(),
        tier: g.tier_name(tier),
        index_version: 1,
        encoding: RECORD_ENCODING,
        positions: SLOTS,
        extra: String::new(),
    }
}

/// Solves every tier into a fresh directory and returns it.
pub fn solved_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("huntsolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let g = TierTtt::default();
    let mut memo = HashMap::new();
    for tier in 0..=9u8 {
        let recs = tier_records(&g, tier, &mut memo);
        write_tier(&dir, tier, &recs);
    }
    dir
}

/// Writes one tier with small blocks (several blocks per table).
pub fn write_tier(dir: &Path, tier: u8, recs: &[u16]) {
    let g = TierTtt::default();
    let opts = WriteOptions {
        block_records: 1000,
        ..WriteOptions::default()
    };
    write_table_with(
        &table_path(dir, &g.tier_name(tier)),
        &meta(&g, tier),
        recs,
        &opts,
    )
    .unwrap();
}
