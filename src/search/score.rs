//! Scores: proven results as `±(MATE - distance)`, their conversion to and from
//! the transposition table (relative to the root vs to the node), and text.

use super::{MATE, PROVEN};
use crate::game::Value;

/// Proven value and distance encoded by a score, if it is a proof.
pub(crate) fn proven_of(score: i32) -> Option<(Value, u32)> {
    if score > PROVEN {
        Some((Value::Win, (MATE - score) as u32))
    } else if score < -PROVEN {
        Some((Value::Loss, (MATE + score) as u32))
    } else {
        None
    }
}

/// Text form of a score: `win in 7`, `loss in 4`, or centi-pieces (`+35`).
pub fn score_text(score: i32) -> String {
    match proven_of(score) {
        Some((v, d)) => format!("{v} in {d}"),
        None => format!("{score:+}"),
    }
}

/// Score of a terminal or oracle value at `ply` plies from the root.
pub(super) fn value_score(v: Value, dist: u32, ply: usize) -> i32 {
    let d = (ply as i64 + dist as i64).min((MATE - PROVEN - 1) as i64) as i32;
    match v {
        Value::Win => MATE - d,
        Value::Loss => -(MATE - d),
        Value::Draw => 0,
    }
}

pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -PROVEN {
        score + ply as i32
    } else {
        score
    }
}
