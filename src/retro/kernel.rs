//! The retrograde kernel every solver method shares: a slot's scan result from
//! its exits (moves into solved child tiers: [`Exits`], [`Scanned`]), the edges
//! a decided class removes from each predecessor's counter (the orbit formula,
//! [`class_edges`]), and the final-records pass (an in-tier slot left
//! undecided is a draw: [`final_records`] over a method's [`Settled`] slots).
//! The methods differ in how they store slots and move updates, not in this
//! arithmetic. Which file of each method uses which part (the test
//! `every_method_uses_the_kernel` reads these rows and the files they name):
//!
//! | method | files | scan | orbit formula | final records |
//! |---|---|---|---|---|
//! | full solver | solver/scan.rs solver/preds.rs solver/words.rs | `Scanned` | `class_edges` | `final_records` |
//! | compact | compact/mod.rs compact/levels.rs | `scan_position` | `pred_edges` | `final_records` |
//! | out of core | compact/ooc/pass.rs compact/ooc/mod.rs compact/ooc/share.rs | `scan_position` | `pred_edges` | `records_of` |
//! | split | split/part.rs | `Scanned` | `class_edges` | `final_records` |
//! | reference | reference.rs | `Scanned` | `class_edges` | `final_records` |
//!
//! `scan_position` (solver/scan.rs) builds the kernel's `Scanned`;
//! `pred_edges` (solver/preds.rs) calls `class_edges`; `records_of`
//! (compact/mod.rs) calls `final_records`.

use crate::error::{Error, Result};
use crate::game::Value;
use crate::tier::{encode, TierGame, MAX_DISTANCE, REC_DRAW, REC_NONE};
use rayon::prelude::*;
use std::ops::Range;

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

/// What the scan found for one slot, in every method.
pub(in crate::retro) enum Scanned {
    /// Final record (every move leaves the tier, or the position is over).
    Final(u16),
    /// In-tier node: number of in-tier moves, and what the exits give.
    Inner(u32, Exits),
}

/// What the moves that leave the tier give a position: the quickest win,
/// whether a draw is reachable, the slowest loss (distances in plies from the
/// position).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::retro) struct Exits {
    /// Fastest win through an exit (a child lost at distance `d` gives `d + 1`).
    pub(in crate::retro) win: Option<u32>,
    /// Some exit leads to a draw.
    pub(in crate::retro) draw: bool,
    /// Slowest loss through an exit (0: none).
    loss: u32,
}

impl Exits {
    /// Slowest loss through an exit (0: none).
    pub(in crate::retro) fn loss(&self) -> u32 {
        self.loss
    }

    /// One more exit to a child of value `v` at distance `d` (for the child's
    /// side to move).
    pub(in crate::retro) fn add(&mut self, v: Value, d: u32) {
        match v {
            Value::Loss => self.win = Some(self.win.map_or(d + 1, |w| w.min(d + 1))),
            Value::Draw => self.draw = true,
            Value::Win => self.loss = self.loss.max(d + 1),
        }
    }

    /// The record of a position whose every move is an exit; `None` when it
    /// has none.
    fn record(&self) -> Result<Option<u16>> {
        Ok(if let Some(w) = self.win {
            Some(encode(Value::Win, check_distance(w)?))
        } else if self.draw {
            Some(REC_DRAW)
        } else if self.loss > 0 {
            Some(encode(Value::Loss, check_distance(self.loss)?))
        } else {
            None
        })
    }

    /// The slot's scan result with `inner` moves inside its tier: final when it
    /// has none (an error when it has no move at all but `pos` is not over);
    /// the distances checked against the records' limit either way. Each
    /// method checks `inner` against its own counter.
    pub(in crate::retro) fn scanned<G: TierGame>(
        self,
        game: &G,
        pos: &G::Pos,
        inner: u32,
    ) -> Result<Scanned> {
        if inner == 0 {
            return match self.record()? {
                Some(r) => Ok(Scanned::Final(r)),
                None => Err(Error::Internal(format!(
                    "position {} has no legal move but is not terminal",
                    game.format_position(pos)
                ))),
            };
        }
        if let Some(w) = self.win {
            check_distance(w)?;
        }
        check_distance(self.loss)?;
        Ok(Scanned::Inner(inner, self))
    }

    /// The counter and aux word of an in-tier slot, for the methods that keep
    /// them (the reference, a part of a split tier); `None` when `inner` is
    /// more than a 16-bit counter holds. The distances were checked by
    /// [`Exits::scanned`].
    pub(super) fn aux(&self, inner: u32) -> Option<(u16, u16)> {
        let count = u16::try_from(inner).ok()?;
        let mut aux = AUX_INNER | (self.loss as u16 & AUX_LOSS);
        if self.win.is_some() || self.draw {
            aux |= AUX_ESCAPE;
        }
        Some((count, aux))
    }
}

/// A slot as the final-records pass sees it, whatever a method stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::retro) enum Settled {
    /// No position in the slot (an index hole, a non-canonical placement).
    Empty,
    /// A decided record (a win, a loss, or a draw the scan found final).
    Decided(u16),
    /// An in-tier position still undecided after the last level: a draw.
    Undecided,
}

impl Settled {
    /// The slot's final record.
    pub(in crate::retro) fn record(self) -> u16 {
        match self {
            Settled::Empty => REC_NONE,
            Settled::Decided(r) => r,
            Settled::Undecided => REC_DRAW,
        }
    }
}

/// The final-records pass every method shares: the records of the slots of
/// `range`, `slot(i)` reading slot `i` from the method's own storage, an
/// in-tier slot still undecided being a draw; `min_len` slots at least a job.
pub(in crate::retro) fn final_records(
    range: Range<usize>,
    min_len: usize,
    slot: impl Fn(usize) -> Settled + Sync,
) -> Vec<u16> {
    range
        .into_par_iter()
        .with_min_len(min_len.max(1))
        .map(|i| slot(i).record())
        .collect()
}

/// A slot of the methods that keep a record and an aux word (the reference,
/// a part of a split tier).
pub(super) fn settled_aux(record: u16, aux: u16) -> Settled {
    match record {
        REC_NONE if aux & AUX_INNER != 0 => Settled::Undecided,
        REC_NONE => Settled::Empty,
        r => Settled::Decided(r),
    }
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

#[cfg(test)]
mod tests {
    /// The sources of the methods' files, by their path under src/retro/.
    const FILES: &[(&str, &str)] = &[
        ("solver/scan.rs", include_str!("solver/scan.rs")),
        ("solver/preds.rs", include_str!("solver/preds.rs")),
        ("solver/words.rs", include_str!("solver/words.rs")),
        ("compact/mod.rs", include_str!("compact/mod.rs")),
        ("compact/levels.rs", include_str!("compact/levels.rs")),
        ("compact/ooc/pass.rs", include_str!("compact/ooc/pass.rs")),
        ("compact/ooc/mod.rs", include_str!("compact/ooc/mod.rs")),
        ("compact/ooc/share.rs", include_str!("compact/ooc/share.rs")),
        ("split/part.rs", include_str!("split/part.rs")),
        ("reference.rs", include_str!("reference.rs")),
    ];

    /// Every row of the header's table names a method whose files use each
    /// part of the kernel it claims (outside comments); the bridges the header
    /// names hold; no method file defines an `Exits`, a `Scanned` or a
    /// `Settled` of its own.
    #[test]
    fn every_method_uses_the_kernel() {
        let code = |file: &str| -> String {
            let (_, text) = FILES
                .iter()
                .find(|(f, _)| *f == file)
                .unwrap_or_else(|| panic!("the header names {file}, which the test does not read"));
            text.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let header = include_str!("kernel.rs");
        let rows: Vec<Vec<&str>> = header
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .filter(|l| l.starts_with("//! | ") && !l.contains("| method |"))
            .map(|l| l["//! |".len()..].split('|').map(str::trim).collect())
            .collect();
        let methods: Vec<&str> = rows.iter().map(|r| r[0]).collect();
        assert_eq!(
            methods,
            [
                "full solver",
                "compact",
                "out of core",
                "split",
                "reference"
            ]
        );
        for row in &rows {
            let files: Vec<&str> = row[1].split_whitespace().collect();
            let all: String = files.iter().map(|f| code(f)).collect();
            for part in &row[2..5] {
                let name = part.trim_matches('`');
                assert!(
                    all.contains(name),
                    "{}: none of {files:?} uses {name}",
                    row[0]
                );
            }
            for own in ["struct Exits", "enum Scanned", "enum Settled"] {
                assert!(!all.contains(own), "{}: defines its own {own}", row[0]);
            }
        }
        assert!(code("solver/scan.rs").contains("Scanned::"));
        assert!(code("solver/preds.rs").contains("class_edges("));
        assert!(code("compact/mod.rs").contains("final_records(0.."));
        let kernel: String = header
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for def in [
            "struct Exits",
            "enum Scanned",
            "fn final_records",
            "fn class_edges",
        ] {
            assert!(kernel.contains(def), "the kernel no longer defines {def}");
        }
    }
}
