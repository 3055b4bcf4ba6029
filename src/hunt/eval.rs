//! The hunt evaluation: material, mobility, threats, trapped hunters, prey in
//! hand, with weights settable by name.

use super::position::bits;
use super::{HuntGame, HuntPos};
use crate::error::{Error, Result};
use crate::game::Evaluate;

/// Evaluation weights (centi-cows), settable by name with [`Evaluate::set_eval_param`](crate::game::Evaluate::set_eval_param).
///
/// The score is computed for the hunters and negated when the prey are to move:
/// `capture * captured + mobility * (hunter steps + jumps) + threat * (single-jump
/// captures available) + en_prise * (distinct prey that can be jumped) +
/// trapped * (hunters with no step or jump) + in_hand * (prey still in hand)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Per prey captured so far.
    pub capture: i32,
    /// Per hunter step or jump available.
    pub mobility: i32,
    /// Per single-jump capture available to the hunters.
    pub threat: i32,
    /// Per distinct prey some hunter could jump now.
    pub en_prise: i32,
    /// Per hunter that can neither step nor jump (usually negative).
    pub trapped: i32,
    /// Per prey still in hand (usually negative: prey in hand are safe and flexible).
    pub in_hand: i32,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            capture: 100,
            mobility: 4,
            threat: 10,
            en_prise: 30,
            trapped: -60,
            in_hand: -5,
        }
    }
}

const EVAL_NAMES: [&str; 6] = [
    "capture", "mobility", "threat", "en_prise", "trapped", "in_hand",
];

impl HuntGame {
    /// The evaluation weights.
    #[cfg(test)]
    pub(crate) fn weights(&self) -> EvalWeights {
        self.weights
    }
}

impl Evaluate for HuntGame {
    fn evaluate(&self, pos: &HuntPos) -> i32 {
        let w = &self.weights;
        let b = &*self.tables;
        let empty = self.empty(pos);
        let (mut mobility, mut threats, mut en_prise, mut trapped) = (0i32, 0i32, 0u64, 0i32);
        for h in bits(pos.hunters) {
            let steps = (b.neighbours[h] & empty).count_ones() as i32;
            let mut jumps = 0;
            for o in bits(b.jump_over[h] & pos.prey) {
                if empty >> b.jump_to[h][o] & 1 == 1 {
                    jumps += 1;
                    en_prise |= 1 << o;
                }
            }
            mobility += steps + jumps;
            threats += jumps;
            if steps + jumps == 0 {
                trapped += 1;
            }
        }
        let score = w.capture * pos.captured as i32
            + w.mobility * mobility
            + w.threat * threats
            + w.en_prise * en_prise.count_ones() as i32
            + w.trapped * trapped
            + w.in_hand * pos.prey_in_hand as i32;
        let score = score.clamp(-19_000, 19_000);
        if pos.hunter_to_move {
            score
        } else {
            -score
        }
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        let w = &mut self.weights;
        let slot = match key {
            "capture" => &mut w.capture,
            "mobility" => &mut w.mobility,
            "threat" => &mut w.threat,
            "en_prise" => &mut w.en_prise,
            "trapped" => &mut w.trapped,
            "in_hand" => &mut w.in_hand,
            _ => {
                return Err(Error::Usage(format!(
                    "unknown hunt evaluation weight '{key}'; accepted: {}",
                    EVAL_NAMES.join(", ")
                )))
            }
        };
        if !(-1000..=1000).contains(&value) {
            return Err(Error::Usage(format!(
                "evaluation weight {key}={value} is outside -1000..=1000"
            )));
        }
        *slot = value;
        Ok(())
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        let w = &self.weights;
        vec![
            ("capture", w.capture),
            ("mobility", w.mobility),
            ("threat", w.threat),
            ("en_prise", w.en_prise),
            ("trapped", w.trapped),
            ("in_hand", w.in_hand),
        ]
    }
}
