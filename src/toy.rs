//! Tic-tac-toe: a tiny [`Game`] used to test the generic layers (search,
//! retrograde analysis, statistics) independently of the real game families.
//!
//! Known facts it must reproduce: perft(9) = 255168 complete games and the start
//! is a draw.

mod tiers;

use crate::error::{quote, Error, Result};
use crate::game::{Evaluate, Game, Notation, Value};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Tic-tac-toe position: the cells of X and of O (bit i = cell i, row-major from a1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TttPos {
    /// Cells held by X (moves first).
    pub x: u16,
    /// Cells held by O.
    pub o: u16,
}

impl TttPos {
    /// 0 when X is to move, 1 when O is.
    pub(crate) fn side(&self) -> usize {
        (self.x.count_ones() > self.o.count_ones()) as usize
    }
}

/// The game of tic-tac-toe (no options).
#[derive(Clone, Debug, Default)]
pub struct TicTacToe {
    /// Evaluation weight per open line (for search tests).
    pub line_weight: i32,
}

fn has_line(bits: u16) -> bool {
    LINES.iter().filter(|&&l| bits & l == l).count() > 0
}

fn cell_name(i: u8) -> String {
    format!("{}{}", (b'a' + i % 3) as char, i / 3 + 1)
}

impl Game for TicTacToe {
    type Pos = TttPos;

    type Move = u8;

    fn family(&self) -> &'static str {
        "toy"
    }

    fn rules_string(&self) -> String {
        "tictactoe".into()
    }

    fn fingerprint(&self) -> u64 {
        0x7469_6374_6163_746f
    }

    fn start(&self) -> TttPos {
        TttPos::default()
    }

    fn legal_moves(&self, pos: &TttPos, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome(pos).is_some() {
            return;
        }
        let occ = pos.x | pos.o;
        out.extend((0..9u8).filter(|&i| occ & (1 << i) == 0));
    }

    fn play(&self, pos: &TttPos, mv: u8) -> TttPos {
        let mut p = *pos;
        if pos.side() == 0 {
            p.x |= 1 << mv;
        } else {
            p.o |= 1 << mv;
        }
        p
    }

    fn outcome(&self, pos: &TttPos) -> Option<Value> {
        if has_line(pos.x) || has_line(pos.o) {
            Some(Value::Loss)
        } else if (pos.x | pos.o) == 0x1ff {
            Some(Value::Draw)
        } else {
            None
        }
    }

    fn hash(&self, pos: &TttPos) -> u64 {
        let v = (pos.x as u64) | ((pos.o as u64) << 16);
        crate::random::mix64(v ^ 0x9e37_79b9_7f4a_7c15)
    }

    fn side_to_move(&self, pos: &TttPos) -> usize {
        pos.side()
    }

    fn side_name(&self, side: usize) -> &'static str {
        ["x", "o"][side & 1]
    }
}

impl Notation for TicTacToe {
    fn format_position(&self, pos: &TttPos) -> String {
        (0..9)
            .map(|i| {
                if pos.x & (1 << i) != 0 {
                    'X'
                } else if pos.o & (1 << i) != 0 {
                    'O'
                } else {
                    '.'
                }
            })
            .collect()
    }

    fn parse_position(&self, text: &str) -> Result<TttPos> {
        let t = text.trim();
        if t == "start" {
            return Ok(self.start());
        }
        if t.chars().count() != 9 {
            return Err(Error::Position(format!(
                "{}: expected 9 cells of X, O or .",
                quote(t)
            )));
        }
        let mut p = TttPos::default();
        for (i, c) in t.chars().enumerate() {
            match c {
                'X' | 'x' => p.x |= 1 << i,
                'O' | 'o' => p.o |= 1 << i,
                '.' => {}
                _ => return Err(Error::Position(format!("{}: bad cell '{c}'", quote(t)))),
            }
        }
        let (nx, no) = (p.x.count_ones(), p.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(Error::Position(format!("{}: {nx} X and {no} O", quote(t))));
        }
        Ok(p)
    }

    fn format_move(&self, _: &TttPos, mv: u8) -> String {
        cell_name(mv)
    }

    fn diagram(&self, pos: &TttPos) -> String {
        let s: Vec<char> = self.format_position(pos).chars().collect();
        let mut out = String::new();
        for r in (0..3).rev() {
            out.push_str(&format!(
                "{} {} {} {}\n",
                r + 1,
                s[r * 3],
                s[r * 3 + 1],
                s[r * 3 + 2]
            ));
        }
        out.push_str("  a b c\n");
        out
    }
}

impl Evaluate for TicTacToe {
    fn evaluate(&self, pos: &TttPos) -> i32 {
        let open = |mine: u16, theirs: u16| {
            LINES
                .iter()
                .filter(|&&l| theirs & l == 0 && mine & l != 0)
                .count() as i32
        };
        let s = (open(pos.x, pos.o) - open(pos.o, pos.x)) * self.line_weight;
        if pos.side() == 0 {
            s
        } else {
            -s
        }
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        match key {
            "line" => {
                self.line_weight = value;
                Ok(())
            }
            _ => Err(Error::Usage(format!(
                "unknown evaluation weight '{key}'; accepted: line"
            ))),
        }
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        vec![("line", self.line_weight)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft;

    #[test]
    fn perft_counts() {
        let g = TicTacToe::default();
        let s = g.start();
        assert_eq!(perft(&g, &s, 1), 9);
        assert_eq!(perft(&g, &s, 2), 72);
        assert_eq!(perft(&g, &s, 9), 255168);
    }

    #[test]
    fn text_round_trip() {
        let g = TicTacToe::default();
        let p = crate::game::play_line(&g, &g.start(), "b2 a1 c3").unwrap();
        assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        assert!(crate::game::play_line(&g, &g.start(), "b2 b2").is_err());
    }
}
