//! Tafl notation: the position text, move names (`e3-h3`) and the diagram. The
//! formats are described in the module docs of [`crate::tafl`].

use super::geometry::NONE;
use super::{bit, TaflGame, TaflMove, TaflPos};
use crate::error::{quote, Error, Result};
use crate::game::{Game, Notation};

impl Notation for TaflGame {
    fn format_position(&self, p: &TaflPos) -> String {
        let n = self.geo.n;
        let mut s = String::with_capacity(n * (n + 1) + 2);
        for y in (0..n).rev() {
            for x in 0..n {
                let c = (x + y * n) as u8;
                let b = bit(c);
                s.push(if p.attackers & b != 0 {
                    'A'
                } else if p.defenders & b != 0 {
                    'D'
                } else if p.king == c {
                    'K'
                } else {
                    '.'
                });
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if p.attackers_to_move { 'a' } else { 'd' });
        s
    }

    fn parse_position(&self, text: &str) -> Result<TaflPos> {
        let text = text.trim();
        if text == "start" {
            return Ok(self.start);
        }
        let n = self.geo.n;
        let (board, side) = text.rsplit_once(char::is_whitespace).ok_or_else(|| {
            Error::Position(format!(
                "{}: expected {n} rows of A/D/K/. separated by '/', a space, then 'a' or 'd'",
                quote(text)
            ))
        })?;
        let attackers_to_move = match side {
            "a" => true,
            "d" => false,
            _ => {
                return Err(Error::Position(format!(
                    "side to move {}: expected 'a' (attackers) or 'd' (defenders)",
                    quote(side)
                )))
            }
        };
        let rows: Vec<&str> = board.trim().split('/').map(str::trim).collect();
        if rows.len() != n {
            return Err(Error::Position(format!(
                "expected {n} rows separated by '/', found {}",
                rows.len()
            )));
        }
        let (mut att, mut def, mut king) = (0u128, 0u128, NONE);
        for (i, row) in rows.iter().enumerate() {
            let y = n - 1 - i;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != n {
                return Err(Error::Position(format!(
                    "rank {}: {} has {} cells, expected {n}",
                    y + 1,
                    quote(row),
                    chars.len()
                )));
            }
            for (x, ch) in chars.iter().enumerate() {
                let c = (x + y * n) as u8;
                match ch {
                    'A' => att |= bit(c),
                    'D' => def |= bit(c),
                    'K' => {
                        if king != NONE {
                            return Err(Error::Position("more than one king".into()));
                        }
                        king = c;
                    }
                    '.' => {}
                    _ => {
                        return Err(Error::Position(format!(
                            "rank {}: unexpected '{ch}' (use A, D, K or .)",
                            y + 1
                        )))
                    }
                }
            }
        }
        let men = att | def;
        if men & self.forbid_men != 0 {
            let bad = (men & self.forbid_men).trailing_zeros() as u8;
            return Err(Error::Position(format!(
                "a man on {}, where men may not stand under these rules",
                self.geo.cell_name(bad)
            )));
        }
        Ok(self.make_pos(att, def, king, attackers_to_move))
    }

    fn format_move(&self, _pos: &TaflPos, mv: TaflMove) -> String {
        format!(
            "{}-{}",
            self.geo.cell_name(mv.from),
            self.geo.cell_name(mv.to)
        )
    }

    fn parse_move(&self, pos: &TaflPos, text: &str) -> Result<TaflMove> {
        let t = text.trim();
        let (a, b) = t
            .split_once('-')
            .ok_or_else(|| Error::Move(format!("{}: expected from-to, e.g. e3-h3", quote(t))))?;
        let from = self
            .geo
            .parse_cell(a)
            .ok_or_else(|| Error::Move(format!("{} is not a cell of this board", quote(a))))?;
        let to = self
            .geo
            .parse_cell(b)
            .ok_or_else(|| Error::Move(format!("{} is not a cell of this board", quote(b))))?;
        let mv = TaflMove { from, to };
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            let list: Vec<String> = moves.iter().map(|&m| self.format_move(pos, m)).collect();
            Err(Error::Move(format!(
                "{} is not legal here; legal moves: {}",
                quote(t),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(" ")
                }
            )))
        }
    }

    fn diagram(&self, p: &TaflPos) -> String {
        let g = &*self.geo;
        let n = g.n;
        let files: String = (0..n)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        let mut s = format!("   {files}\n");
        for y in (0..n).rev() {
            s.push_str(&format!("{:>2} ", y + 1));
            for x in 0..n {
                let c = (x + y * n) as u8;
                let b = bit(c);
                let ch = if p.attackers & b != 0 {
                    'A'
                } else if p.defenders & b != 0 {
                    'D'
                } else if p.king == c {
                    'K'
                } else if c == g.throne {
                    '*'
                } else if g.corners & b != 0 {
                    '+'
                } else {
                    '.'
                };
                s.push(' ');
                s.push(ch);
            }
            s.push_str(&format!(" {}\n", y + 1));
        }
        s.push_str(&format!("   {files}\n"));
        s.push_str(&format!(
            "{} to move; A attacker, D defender, K king, * throne, + corner\n",
            if p.attackers_to_move {
                "attackers"
            } else {
                "defenders"
            }
        ));
        s
    }
}
