//! The hunt-game family: leopards and cows (Diviyan Keliya, Cows and Leopards,
//! Kungser), Bagh-Chal and Kaooa, as one rules engine over [`Board`] geometry.
//!
//! Rules are a value ([`HuntRules`], options H1-H16 of docs/rules.md §2.1, with the
//! presets of §3.1); [`HuntGame`] holds the rules, the board and Zobrist keys
//! and implements [`Game`](crate::game::Game). Side 0 is the hunter, side 1 the prey.
//!
//! # Position text
//! One character per point id (`H` hunter, `P` prey, `.` empty), then `/`,
//! the hands and captures as `h<hunters in hand>p<prey in hand>c<captured>`,
//! then `/` and the side to move (`h` or `p`):
//!
//! ```text
//! H.P....................../h1p23c0/h
//! ```
//!
//! The word `start` means the start position. Parsing checks the piece counts
//! against the rules (hunters on board + in hand = hunters; prey on board + in
//! hand + captured = prey).
//!
//! # Move notation
//! A drop is the point name (`e5`), a step `from-to` (`f2-e3`), a capture
//! `fromxto`, a chain every landing point (`c6xe6xe8`), and the prey's pass
//! (option `prey_no_moves=pass`) `pass`. A chain is one move; two chains with the
//! same start, end and captured prey are the same move (the notation shows the
//! first path found).

mod eval;
mod hints;
mod movegen;
mod notation;
mod playout;
mod position;
pub(crate) mod rules;

pub use eval::EvalWeights;
pub use position::{HuntMove, HuntPos, MoveKind};
pub use rules::{
    Chain, FirstDrop, HuntRules, HunterStart, HunterWin, PreyNoMoves, PreyStart, Removal,
    Repetition, Side, KEYS, PRESETS,
};

use crate::board::Board;
use crate::error::{quote, Error, Result};
use movegen::Tables;
use position::Keys;
use std::sync::Arc;

/// Parses a rules string `preset[,key=value...]` and builds the game.
pub fn from_spec(spec: &str) -> Result<HuntGame> {
    HuntGame::new(HuntRules::parse(spec)?)
}

/// [`from_spec`] that refuses a board file: `board=` must name a built-in
/// board (for rules from an untrusted source, such as an explorer request).
pub(crate) fn from_spec_builtin(spec: &str) -> Result<HuntGame> {
    let rules = HuntRules::parse(spec)?;
    if !is_builtin_board(&rules.board) {
        return Err(Error::BoardFileRefused {
            board: rules.board.clone(),
            builtin: builtin_board_names(),
        });
    }
    HuntGame::new(rules)
}

/// Whether `name` is one of the built-in boards.
fn is_builtin_board(name: &str) -> bool {
    crate::board::BUILTIN.iter().any(|b| b.0 == name)
}

/// The built-in boards' names, comma-separated (for error messages).
fn builtin_board_names() -> String {
    crate::board::BUILTIN
        .iter()
        .map(|b| b.0)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A hunt game: rules, board, keys and evaluation weights.
#[derive(Clone, Debug)]
pub struct HuntGame {
    rules: HuntRules,
    board: Arc<Board>,
    tables: Arc<Tables>,
    keys: Arc<Keys>,
    /// The Zobrist keys at the image points of every symmetry (the prover's symmetric hash).
    sym_keys: Arc<hints::SymKeys>,
    start_hunters: u64,
    /// The prey on board at the start (`prey_start` points; 0 with the prey in hand).
    start_prey: u64,
    /// Captures that win for the hunters (`u32::MAX` under `static`).
    win_captures: u32,
    /// Under `static`: the hunters win when prey on board + in hand < this.
    static_threshold: u32,
    /// `M_k` of the board for the rules' hunter count, when computable.
    // Read by the rule tests only (`m_hunters()`); the rules check it when built.
    #[cfg_attr(not(test), allow(dead_code))]
    m_hunters: Option<u32>,
    weights: EvalWeights,
    canonical: String,
    fingerprint: u64,
    /// The sides' names for output (`HuntRules::side_labels`); not hashed.
    labels: [&'static str; 2],
}

impl HuntGame {
    /// Builds the game: loads the board, resolves starting points, and derives
    /// the win thresholds. Errors name the offending option.
    pub fn new(mut rules: HuntRules) -> Result<HuntGame> {
        rules.check()?;
        let board = if is_builtin_board(&rules.board) {
            Board::builtin(&rules.board)?
        } else if rules.board.contains('/') || rules.board.contains('.') {
            Board::from_file(std::path::Path::new(&rules.board))?
        } else {
            return Err(Error::Rules(format!(
                "unknown board {}; accepted: {} or a board file path",
                quote(&rules.board),
                builtin_board_names()
            )));
        };
        if rules.hunters as usize + rules.prey as usize > board.len() {
            return Err(Error::Rules(format!(
                "{} hunters and {} prey do not fit on the {} points of {}",
                rules.hunters,
                rules.prey,
                board.len(),
                board.name
            )));
        }
        let start_hunters = match &rules.hunter_start {
            HunterStart::Hand => 0,
            HunterStart::Points(names) => start_points(&board, "hunter_start", names, 0)?,
        };
        if let HunterStart::Points(_) = rules.hunter_start {
            rules.hunter_start = HunterStart::Points(point_names(&board, start_hunters));
        }
        let start_prey = match &rules.prey_start {
            PreyStart::Hand => 0,
            PreyStart::Points(names) => start_points(&board, "prey_start", names, start_hunters)?,
        };
        if let PreyStart::Points(_) = rules.prey_start {
            rules.prey_start = PreyStart::Points(point_names(&board, start_prey));
        }
        if rules.first_drop == FirstDrop::Centre && board.centre.is_none() {
            return Err(Error::Rules(format!(
                "first_drop=centre: board {} has no centre point",
                board.name
            )));
        }
        let m_hunters = board.min_prey_to_immobilise(rules.hunters as usize);
        let (win_captures, static_threshold) = match rules.hunter_win {
            HunterWin::Captures(n) => (n as u32, 0),
            HunterWin::Static => {
                let m = m_hunters.ok_or_else(|| {
                    Error::Rules(format!(
                        "hunter_win=static: M_{} of {} is too costly to enumerate",
                        rules.hunters, board.name
                    ))
                })?;
                (u32::MAX, m)
            }
        };
        let canonical = rules.canonical();
        let labels = rules.side_labels();
        let mut fp = 0x9e37_79b9_7f4a_7c15u64 ^ board.digest();
        for b in canonical.bytes() {
            fp = crate::random::mix64(fp ^ b as u64);
        }
        let keys = Keys::new();
        Ok(HuntGame {
            rules,
            tables: Arc::new(Tables::new(&board)),
            sym_keys: Arc::new(hints::SymKeys::new(&board, &keys)),
            board: Arc::new(board),
            keys: Arc::new(keys),
            start_hunters,
            start_prey,
            win_captures,
            static_threshold,
            m_hunters,
            weights: EvalWeights::default(),
            canonical,
            fingerprint: fp,
            labels,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &HuntRules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// `M_k` of the board for the rules' number of hunters (§1.6), if computed.
    #[cfg(test)]
    pub(crate) fn m_hunters(&self) -> Option<u32> {
        self.m_hunters
    }
}

/// The mask of a start option's points (`key` names the option in errors): every
/// name a point of the board, none listed twice, none in `taken` (the hunters').
fn start_points(board: &Board, key: &str, names: &[String], taken: u64) -> Result<u64> {
    let mut mask = 0u64;
    for n in names {
        let id = board.point_by_name(n).ok_or_else(|| {
            Error::Rules(format!("{key}: no point {} on {}", quote(n), board.name))
        })?;
        if mask >> id & 1 == 1 {
            return Err(Error::Rules(format!("{key}: {} listed twice", quote(n))));
        }
        if taken >> id & 1 == 1 {
            return Err(Error::Rules(format!(
                "{key}: {} is a hunter's start point",
                quote(n)
            )));
        }
        mask |= 1 << id;
    }
    Ok(mask)
}

/// The points of a mask by name, in point-id order (the canonical order of a start option).
fn point_names(board: &Board, mask: u64) -> Vec<String> {
    (0..64u8)
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| board.name_of(i).to_string())
        .collect()
}

#[cfg(test)]
mod tests_rules;

#[cfg(test)]
mod tests_props;
pub(crate) mod tiers;
