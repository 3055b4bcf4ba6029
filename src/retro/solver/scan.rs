//! The scan of the full solver: one position's exits and in-tier moves, and the two sweeps over a tier.

use super::{
    check_distance, Absorb, ChildValues, ScanLevels, Words, CHUNK, CNT_MAX, CNT_SHIFT, E, LATE,
    SMALL_TIER, SWEPT, U, W,
};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
pub(in crate::retro) use crate::retro::kernel::{Exits, Scanned};
use crate::tier::{decode, encode, TierGame, REC_DRAW, REC_NONE};
use rayon::prelude::*;

impl Exits {
    /// The undecided word with `count` in-tier moves still open.
    fn word(&self, count: u32) -> Result<u32> {
        let mut w = U | count << CNT_SHIFT;
        if self.win.is_some() || self.draw {
            w |= E;
        }
        if let Some(d) = self.win {
            w |= W | check_distance(d)?;
        } else {
            w |= check_distance(self.loss())?;
        }
        Ok(w)
    }
}

/// The value of the child after move `m` of `pos`, which lies in terminal tier `ct`:
/// a terminal tier is not stored, its positions' values are their outcomes.
pub(in crate::retro) fn terminal_outcome<G: TierGame>(
    game: &G,
    pos: &G::Pos,
    m: G::Move,
    ct: G::Tier,
) -> Result<Value> {
    let child = game.play(pos, m);
    game.outcome(&child).ok_or_else(|| {
        Error::Internal(format!(
            "position {} lies in terminal tier {} but is not terminal",
            game.format_position(&child),
            game.tier_name(ct)
        ))
    })
}

/// Scans slot `index` of `tier`: empty, final, or in-tier moves and exits.
///
/// With `absorb`, an in-tier child whose word is a plain decided record (a slot
/// of the first sweep, see [`Absorb::Hint`]) is folded into the exits instead of
/// being counted.
pub(in crate::retro) fn scan_position<G: TierGame>(
    game: &G,
    tier: G::Tier,
    pos: &G::Pos,
    children: &ChildValues<G::Tier>,
    scratch: &mut Scratch<G>,
    absorb: Option<&Words>,
) -> Result<Scanned> {
    if let Some(v) = game.outcome(pos) {
        return Ok(Scanned::Final(encode(v, 0)));
    }
    let Scratch {
        moves,
        indices,
        exit_ranks,
        inner_ranks,
    } = scratch;
    exit_ranks.clear();
    inner_ranks.clear();
    // Without absorbing, in-tier moves are only counted: a game that can count
    // them lists just the exits.
    let counted = match absorb {
        None => game.count_inner_moves(tier, pos, moves),
        Some(_) => None,
    };
    if counted.is_none() {
        game.legal_moves(pos, moves);
    }
    let mut inner = counted.unwrap_or(0);
    let mut exits = Exits::default();
    // First every child's rank, then the reads: the reads (cache misses in large
    // tiers) are independent of each other and overlap.
    game.child_indices(tier, pos, moves, absorb.is_some(), indices);
    for (&(ct, r), &m) in indices.iter().zip(moves.iter()) {
        if ct == tier {
            if absorb.is_some() {
                inner_ranks.push(r);
            } else {
                inner += 1;
            }
        } else if let Some(k) = children.slot(ct) {
            exit_ranks.push((k, r));
        } else if let Some(v) = game.terminal_child_value(pos, m, ct) {
            exits.add(v, 0);
        } else if game.tier_is_terminal(ct) {
            exits.add(terminal_outcome(game, pos, m, ct)?, 0);
        } else {
            return Err(Error::Internal(format!(
                "child tier {} is not solved (needed by a move of {})",
                game.tier_name(ct),
                game.format_position(pos)
            )));
        }
    }
    for &(k, r) in exit_ranks.iter() {
        let (v, d) = decode(children.record(k, r)).ok_or_else(|| {
            Error::Internal(format!(
                "a move of {} leads to empty slot {r} of tier {} (rank/unrank mismatch)",
                game.format_position(pos),
                game.tier_name(children.tier(k))
            ))
        })?;
        exits.add(v, d);
    }
    if let Some(words) = absorb {
        for &c in inner_ranks.iter() {
            let cw = words.get(c).unwrap_or(U);
            if cw & (U | LATE) != 0 {
                inner += 1;
                continue;
            }
            let (v, d) = decode(cw as u16).ok_or_else(|| {
                Error::Internal(format!(
                    "a move of {} leads to empty slot {c} of tier {} (rank/unrank mismatch)",
                    game.format_position(pos),
                    game.tier_name(tier)
                ))
            })?;
            exits.add(v, d);
        }
    }
    if inner > CNT_MAX {
        return Err(Error::Internal(format!(
            "position {} has more than {CNT_MAX} in-tier moves",
            game.format_position(pos)
        )));
    }
    exits.scanned(game, pos, inner)
}

/// Buffers of one scanning job, reused slot after slot.
pub(in crate::retro) struct Scratch<G: TierGame> {
    moves: Vec<G::Move>,
    /// (tier, index) of every child.
    indices: Vec<(G::Tier, u64)>,
    /// (child table, rank) of the moves that leave the tier.
    exit_ranks: Vec<(usize, u64)>,
    /// Ranks of the in-tier children (when absorbing).
    inner_ranks: Vec<u64>,
}

impl<G: TierGame> Scratch<G> {
    /// Empty buffers.
    pub(in crate::retro) fn new() -> Self {
        Scratch {
            moves: Vec::new(),
            indices: Vec::new(),
            exit_ranks: Vec::new(),
            inner_ranks: Vec::new(),
        }
    }
}

/// Phase 1 of a tier of `n` slots: the words after the scan, and which
/// distances each segment holds for propagation.
pub(super) fn scan_tier<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    progress: &dyn Progress,
    absorb: Absorb,
    n: usize,
) -> Result<(Words, ScanLevels)> {
    let size = n as u64;
    let chunk = if n < SMALL_TIER { n.max(1) } else { CHUNK };
    let jobs = n.div_ceil(chunk);
    let name = game.tier_name(tier);
    let words = Words::new(n, &name)?;

    // Phase 1: scan, in two sweeps. The first takes the slots the hint rules out
    // (no in-tier move: final at once, never propagated); the second the others,
    // folding the first sweep's slots in (their words are plain records) and
    // counting every other in-tier move. A slot decided in the second sweep is
    // marked LATE: positions of the same sweep may have counted it, so it is
    // propagated. The slots the scan leaves for propagation are not listed: each
    // job notes only which distances its segment holds ([`ScanLevels`]), and
    // each level finds them again by a sweep over the words (a list would take 4
    // or 8 bytes per entry, and in a movement tier most slots enter it).
    // A tier with no slot the hint rules out (a movement tier) has nothing to
    // absorb: one sweep that counts in-tier moves without ranking their children.
    let hint = absorb == Absorb::Hint && game.tier_has_moveless_slots(tier);
    progress.stage_in(&format!("{name} scan"), size, "slots");
    let mut scan_levels = ScanLevels::default();
    for second in [false, true] {
        if !second && !hint {
            continue;
        }
        let part: Vec<Result<ScanLevels>> = (0..jobs)
            .into_par_iter()
            .map(|j| {
                if stop_requested() {
                    return Err(Error::Interrupted);
                }
                let mut scratch = Scratch::new();
                let mut found = ScanLevels::default();
                let (start, end) = (j * chunk, ((j + 1) * chunk).min(n));
                // Without the hint every slot is wanted (no filter to call).
                let filter = |index: u64| game.may_have_inner_moves(tier, index) == second;
                let want: Option<&dyn Fn(u64) -> bool> = if hint { Some(&filter) } else { None };
                let absorbing = (hint && second).then_some(&words);
                // Slots the enumeration skips hold no position.
                let empty = |from: usize, upto: usize| {
                    for k in from..upto {
                        if want.is_none_or(|w| w(k as u64)) {
                            words.store(k, u32::from(REC_NONE));
                        }
                    }
                };
                let mut next = start;
                let mut visit = |index: u64, pos: &G::Pos| -> Result<()> {
                    let i = index as usize;
                    empty(next, i);
                    next = i + 1;
                    match scan_position(game, tier, pos, children, &mut scratch, absorbing)? {
                        Scanned::Final(r) if !second => words.store(i, u32::from(r)),
                        Scanned::Final(r) => {
                            if r != REC_DRAW && game.may_have_unmoves(tier, index) {
                                words.store(i, LATE | SWEPT | u32::from(r));
                                found.add(i, decode(r).map_or(0, |x| x.1));
                            } else {
                                words.store(i, LATE | u32::from(r));
                            }
                        }
                        Scanned::Inner(count, exits) => {
                            if !second {
                                return Err(Error::Internal(format!(
                                    "slot {i} of tier {} has in-tier moves, but the game's hint ruled them out",
                                    game.tier_name(tier)
                                )));
                            }
                            words.store(i, exits.word(count)?);
                            if let Some(w) = exits.win {
                                found.add(i, w);
                            }
                        }
                    }
                    Ok(())
                };
                game.for_each_slot(tier, start as u64..end as u64, want, &mut visit)?;
                empty(next, end);
                progress.advance(((end - start) / if hint { 2 } else { 1 }) as u64);
                Ok(found)
            })
            .collect();
        for found in part {
            let found = found?;
            if second {
                scan_levels.merge(&found);
            }
        }
    }
    progress.finish_stage();
    Ok((words, scan_levels))
}
