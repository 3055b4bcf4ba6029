//! The tafl evaluation: material, king freedom and paths to the goal, with
//! weights settable by name.

use super::geometry::NONE;
use super::{bit, TaflGame, TaflPos};
use crate::error::{Error, Result};
use crate::game::Evaluate;

/// Evaluation weights (centi-pieces), tunable by name through [`Evaluate::set_eval_param`](crate::game::Evaluate::set_eval_param).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Value of one attacker man (counts for the attackers).
    pub attacker: i32,
    /// Value of one defender man (counts for the defenders).
    pub defender: i32,
    /// Bonus for the defenders per direction in which the king can slide straight to a goal cell.
    pub king_path: i32,
    /// Bonus for the attackers per attacker orthogonally next to the king.
    pub king_pressure: i32,
    /// Bonus for the defenders per cell the king can reach in one move.
    pub king_mobility: i32,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            attacker: 100,
            defender: 180,
            king_path: 250,
            king_pressure: 60,
            king_mobility: 5,
        }
    }
}

impl TaflGame {
    /// Cells from which the king reaches a goal cell in one move, per direction (for evaluation).
    pub(super) fn king_paths(&self, p: &TaflPos) -> (u32, u32) {
        if p.king == NONE {
            return (0, 0);
        }
        let t = self.targets(p, p.king, true);
        let mut paths = 0;
        for &r in &self.geo.ray[p.king as usize] {
            if t & r & self.goal != 0 {
                paths += 1;
            }
        }
        (paths, t.count_ones())
    }
}

impl Evaluate for TaflGame {
    fn evaluate(&self, p: &TaflPos) -> i32 {
        let w = &self.eval;
        let (paths, mobility) = self.king_paths(p);
        let pressure = if p.king == NONE {
            0
        } else {
            self.geo.nb[p.king as usize]
                .iter()
                .filter(|&&q| q != NONE && p.attackers & bit(q) != 0)
                .count() as i32
        };
        let for_defenders = w.defender * p.defenders.count_ones() as i32
            - w.attacker * p.attackers.count_ones() as i32
            + w.king_path * paths as i32
            + w.king_mobility * mobility as i32
            - w.king_pressure * pressure;
        if p.attackers_to_move {
            -for_defenders
        } else {
            for_defenders
        }
    }

    fn set_eval_param(&mut self, key: &str, value: i32) -> Result<()> {
        let w = &mut self.eval;
        let slot = match key {
            "attacker" => &mut w.attacker,
            "defender" => &mut w.defender,
            "king_path" => &mut w.king_path,
            "king_pressure" => &mut w.king_pressure,
            "king_mobility" => &mut w.king_mobility,
            _ => {
                return Err(Error::Usage(format!(
                    "unknown tafl evaluation weight '{key}'; accepted: attacker, defender, \
                     king_path, king_pressure, king_mobility"
                )))
            }
        };
        if value.abs() > 2000 {
            return Err(Error::Usage(format!(
                "evaluation weight {key}={value} is out of range (-2000..=2000)"
            )));
        }
        *slot = value;
        Ok(())
    }

    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        let w = &self.eval;
        vec![
            ("attacker", w.attacker),
            ("defender", w.defender),
            ("king_path", w.king_path),
            ("king_pressure", w.king_pressure),
            ("king_mobility", w.king_mobility),
        ]
    }
}
