//! Hunt notation: the position text, move names (drops, steps, capture chains),
//! and the board diagram. The formats are described in the module docs of
//! [`crate::hunt`].

use super::{HuntGame, HuntMove, HuntPos, MoveKind};
use crate::error::{quote, Error, Result};
use crate::game::{Game, Notation};

impl HuntGame {
    pub(super) fn point(&self, name: &str) -> Result<u8> {
        self.board.point_by_name(name).ok_or_else(|| {
            Error::Move(format!(
                "no point {} on board {}",
                quote(name),
                self.board.name
            ))
        })
    }

    pub(super) fn legal_list(&self, pos: &HuntPos) -> String {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            return "none".into();
        }
        let mut v: Vec<String> = moves.iter().map(|&m| self.format_move(pos, m)).collect();
        v.sort();
        v.join(" ")
    }
}

/// The letter of point `i` in a position's text and diagram: `H`, `P` or `.`.
fn piece_char(pos: &HuntPos, i: usize) -> char {
    if pos.hunters >> i & 1 == 1 {
        'H'
    } else if pos.prey >> i & 1 == 1 {
        'P'
    } else {
        '.'
    }
}

impl Notation for HuntGame {
    fn format_position(&self, pos: &HuntPos) -> String {
        let mut s: String = (0..self.board.len()).map(|i| piece_char(pos, i)).collect();
        s.push_str(&format!(
            "/h{}p{}c{}/{}",
            pos.hunters_in_hand,
            pos.prey_in_hand,
            pos.captured,
            if pos.hunter_to_move { 'h' } else { 'p' }
        ));
        s
    }

    fn parse_position(&self, text: &str) -> Result<HuntPos> {
        let text = text.trim();
        if text == "start" {
            return Ok(self.start());
        }
        let quoted = quote(text);
        let bad = |m: String| Error::Position(format!("{quoted}: {m}"));
        let parts: Vec<&str> = text.split(['/', '|']).collect();
        if parts.len() != 3 {
            // The example is this game's own start, so it fits this board.
            return Err(bad(format!(
                "expected POINTS/h<n>p<n>c<n>/<h|p> ({} point characters), e.g. '{}' (the start), or 'start'",
                self.board.len(),
                self.format_position(&self.start())
            )));
        }
        let cells = parts[0];
        if cells.chars().count() != self.board.len() {
            return Err(bad(format!(
                "{} point characters for the {} points of {}",
                cells.chars().count(),
                self.board.len(),
                self.board.name
            )));
        }
        let (mut hunters, mut prey) = (0u64, 0u64);
        for (i, c) in cells.chars().enumerate() {
            match c {
                'H' => hunters |= 1 << i,
                'P' => prey |= 1 << i,
                '.' => {}
                _ => return Err(bad(format!("character '{c}' at point {i}; use H, P or ."))),
            }
        }
        let counts = parts[1];
        let counts_q = quote(counts);
        let num = |tag: char, rest: &str| -> Result<(u8, usize)> {
            let r = rest
                .strip_prefix(tag)
                .ok_or_else(|| bad(format!("expected '{tag}<n>' in {counts_q}")))?;
            let len = r.chars().take_while(|c| c.is_ascii_digit()).count();
            let n = r[..len]
                .parse::<u8>()
                .map_err(|_| bad(format!("bad number after '{tag}' in {counts_q}")))?;
            Ok((n, 1 + len))
        };
        let (hih, a) = num('h', counts)?;
        let (pih, b) = num('p', &counts[a..])?;
        let (cap, c) = num('c', &counts[a + b..])?;
        if a + b + c != counts.len() {
            return Err(bad(format!("trailing text in {counts_q}")));
        }
        let hunter_to_move = match parts[2] {
            "h" => true,
            "p" => false,
            s => return Err(bad(format!("side {}; use h or p", quote(s)))),
        };
        let r = &self.rules;
        if hunters.count_ones() + hih as u32 != r.hunters as u32 {
            return Err(bad(format!(
                "{} hunters on the board and {hih} in hand; the rules have {}",
                hunters.count_ones(),
                r.hunters
            )));
        }
        if prey.count_ones() + pih as u32 + cap as u32 != r.prey as u32 {
            return Err(bad(format!(
                "{} prey on the board, {pih} in hand and {cap} captured; the rules have {}",
                prey.count_ones(),
                r.prey
            )));
        }
        Ok(self.make_pos(hunters, prey, hih, pih, cap, hunter_to_move))
    }

    fn format_move(&self, pos: &HuntPos, mv: HuntMove) -> String {
        let n = |i: u8| self.board.name_of(i).to_string();
        match mv.kind {
            MoveKind::Drop => n(mv.to),
            MoveKind::Step => format!("{}-{}", n(mv.from), n(mv.to)),
            MoveKind::Pass => "pass".into(),
            MoveKind::Capture => {
                let mut s = n(mv.from);
                match self.capture_path(pos, &mv) {
                    Some(path) => {
                        for t in path {
                            s.push('x');
                            s.push_str(&n(t));
                        }
                    }
                    // Not a capture of this position; show its ends.
                    None => {
                        s.push('x');
                        s.push_str(&n(mv.to));
                    }
                }
                s
            }
        }
    }

    fn parse_move(&self, pos: &HuntPos, text: &str) -> Result<HuntMove> {
        let t = text.trim();
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        let wanted = if t == "pass" {
            Some(HuntMove::pass())
        } else if t.contains('x') {
            let names: Vec<&str> = t.split('x').collect();
            if names.iter().any(|n| n.is_empty()) {
                return Err(Error::Move(format!(
                    "{}: a capture names every point it lands on, e.g. c6xe6xe8",
                    quote(t)
                )));
            }
            let ids = names
                .iter()
                .map(|n| self.point(n))
                .collect::<Result<Vec<u8>>>()?;
            if ids.len() < 2 {
                return Err(Error::Move(format!(
                    "{}: a capture needs a landing point",
                    quote(t)
                )));
            }
            self.walk_path(pos, ids[0], &ids[1..])
                .map(|mask| HuntMove::capture(ids[0], *ids.last().unwrap_or(&ids[0]), mask))
        } else if let Some((a, b)) = t.split_once('-') {
            Some(HuntMove::step(self.point(a)?, self.point(b)?))
        } else {
            Some(HuntMove::drop(self.point(t)?))
        };
        match wanted {
            Some(m) if moves.contains(&m) => Ok(m),
            _ => Err(Error::Move(format!(
                "{} is not legal here; legal moves: {}",
                quote(t),
                self.legal_list(pos)
            ))),
        }
    }

    fn diagram(&self, pos: &HuntPos) -> String {
        let mut s = self.board.draw(|i| piece_char(pos, i as usize));
        s.push_str(&format!(
            "{} in hand {}, {} in hand {}, captured {}, {} to move\n",
            self.labels[0],
            pos.hunters_in_hand,
            self.labels[1],
            pos.prey_in_hand,
            pos.captured,
            self.labels[usize::from(!pos.hunter_to_move)]
        ));
        s
    }
}
