//! The retrograde kernel every solver method shares: a slot's scan result from
//! its exits (moves into solved child tiers), the edges a decided class removes
//! from each predecessor's counter (the orbit formula), and the final-records
//! pass (an in-tier slot left undecided is a draw). The methods
//! (the full solver, the compact solver, out of core, the split across
//! processes, the reference) differ in how they store slots and move updates,
//! not in this arithmetic.

use crate::error::{Error, Result};
use crate::game::Value;
use crate::tier::{encode, TierGame, MAX_DISTANCE, REC_DRAW, REC_NONE};
use rayon::prelude::*;
use std::sync::atomic::AtomicU16;

/// An aux word's flag: the slot holds an in-tier position (not over, not an
/// index hole), so one still undecided at the end is a draw.
pub(super) const AUX_INNER: u16 = 1 << 15;
/// An aux word's flag: some exit leads to a draw or a win, so the position
/// never loses.
pub(super) const AUX_ESCAPE: u16 = 1 << 14;
/// An aux word's bits: the worst forced loss distance through an exit (0: no exit).
pub(super) const AUX_LOSS: u16 = (1 << 14) - 1;

/// `d` when a record and an aux word can hold it, an error otherwise.
pub(super) fn check_distance(d: u32) -> Result<u32> {
    if d > MAX_DISTANCE || d > AUX_LOSS as u32 {
        return Err(Error::Internal(format!(
            "distance {d} exceeds the record encoding's limit"
        )));
    }
    Ok(d)
}

/// What the scan found for one slot (of the methods that keep an aux word).
pub(super) enum Scanned {
    /// Final record.
    Final(u16),
    /// In-tier node: counter, aux bits, and a pending exit win distance.
    Inner(u16, u16, Option<u32>),
}

/// A position's exits so far: the quickest win, whether a draw is reachable,
/// the slowest loss (distances in plies from the position).
#[derive(Default)]
pub(super) struct Exits {
    win: Option<u32>,
    draw: bool,
    loss: u32,
}

impl Exits {
    /// One more exit to a child of value `v` at distance `d` (for the child's
    /// side to move).
    pub(super) fn add(&mut self, v: Value, d: u32) {
        match v {
            Value::Loss => self.win = Some(self.win.map_or(d + 1, |w| w.min(d + 1))),
            Value::Draw => self.draw = true,
            Value::Win => self.loss = self.loss.max(d + 1),
        }
    }

    /// The slot's scan result with `inner` moves inside its tier: final when it
    /// has none (an error when it has no move at all but `pos` is not over).
    pub(super) fn scanned<G: TierGame>(
        self,
        game: &G,
        pos: &G::Pos,
        inner: u32,
    ) -> Result<Scanned> {
        let Exits { win, draw, loss } = self;
        if inner == 0 {
            return Ok(Scanned::Final(if let Some(w) = win {
                encode(Value::Win, check_distance(w)?)
            } else if draw {
                REC_DRAW
            } else if loss > 0 {
                encode(Value::Loss, check_distance(loss)?)
            } else {
                return Err(Error::Internal(format!(
                    "position {} has no legal move but is not terminal",
                    game.format_position(pos)
                )));
            }));
        }
        let inner = u16::try_from(inner).map_err(|_| {
            Error::Internal(format!(
                "position {} has more than 65535 in-tier moves",
                game.format_position(pos)
            ))
        })?;
        let mut aux = AUX_INNER | check_distance(loss)? as u16;
        if win.is_some() || draw {
            aux |= AUX_ESCAPE;
        }
        if let Some(w) = win {
            check_distance(w)?;
        }
        Ok(Scanned::Inner(inner, aux, win))
    }
}

/// The final-records pass of the solvers that keep a record and an aux word a
/// slot (the reference, a part of a split tier): the records, an in-tier slot
/// still undecided being a draw; `min_len` slots at least a job.
pub(super) fn final_records(rec: Vec<AtomicU16>, aux: &[u16], min_len: usize) -> Vec<u16> {
    rec.into_par_iter()
        .zip(aux.par_iter())
        .with_min_len(min_len)
        .map(|(r, &a)| {
            let r = r.into_inner();
            if r == REC_NONE && a & AUX_INNER != 0 {
                REC_DRAW
            } else {
                r
            }
        })
        .collect()
}

/// The orbit formula, the one place every solver counts a class's edges: the
/// predecessor classes of the class `child` (`ranks`: a class with its
/// stabiliser order, once per un-move reaching `child`) with the number of
/// moves of each class's representative that land in class `child`. Where every
/// order is known, `u · |Stab(q)| / |Stab(c)|` for the `u` un-moves from class
/// `q`; otherwise the moves of each class's representative are regenerated and
/// counted ([`edges`]). Appends to `out`; sorts `ranks`.
pub(super) fn class_edges<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    stab_c: Option<u32>,
    ranks: &mut Vec<(u64, Option<u32>)>,
    moves: &mut Vec<G::Move>,
    out: &mut Vec<(u64, u16)>,
) {
    ranks.sort_unstable();
    let exact = ranks.iter().all(|r| r.1.is_some());
    match stab_c {
        Some(sc) if exact => {
            let mut i = 0;
            while i < ranks.len() {
                let (q, sq) = ranks[i];
                let sq = sq.unwrap_or(0);
                let mut j = i;
                while j < ranks.len() && ranks[j].0 == q {
                    j += 1;
                }
                let u = (j - i) as u32;
                debug_assert_eq!(u * sq % sc, 0, "orbit counting is not integral");
                out.push((q, (u * sq / sc) as u16));
                i = j;
            }
        }
        _ => {
            ranks.dedup_by_key(|x| x.0);
            for &(q, _) in ranks.iter() {
                out.push((q, edges(game, tier, q, child, moves)));
            }
        }
    }
}

/// Number of moves of the representative of class `pred` that land in class `child`.
pub(super) fn edges<G: TierGame>(
    game: &G,
    tier: G::Tier,
    pred: u64,
    child: u64,
    moves: &mut Vec<G::Move>,
) -> u16 {
    let Some(rep) = game.unrank(tier, pred) else {
        return 0;
    };
    game.legal_moves(&rep, moves);
    moves
        .iter()
        .filter(|&&m| {
            let c = game.play(&rep, m);
            game.tier_of(&c) == tier && game.rank(tier, &c) == child
        })
        .count() as u16
}
