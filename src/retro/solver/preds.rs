//! Predecessors of a decided class: the classes, and the edges a decided child removes from each counter.

use crate::retro::kernel::class_edges;
use crate::tier::TierGame;

/// Buffers of one propagation job, reused child after child.
pub(in crate::retro) struct PredScratch<G: TierGame> {
    /// Un-moves (when the game ranks them one by one).
    buf: Vec<G::Pos>,
    /// (rank, stabiliser order) of every predecessor.
    ranks: Vec<(u64, Option<u32>)>,
    /// Moves of a predecessor's representative (edge counting without orders).
    moves: Vec<G::Move>,
}

impl<G: TierGame> PredScratch<G> {
    pub(in crate::retro) fn new() -> Self {
        PredScratch {
            buf: Vec::new(),
            ranks: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// Appends the predecessor classes of the class `child` ([`TierGame::slot_pred_ranks`])
/// to `out`, a class once per un-move that reaches it.
pub(in crate::retro) fn pred_classes<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    scratch: &mut PredScratch<G>,
    out: &mut Vec<u64>,
) {
    if game
        .slot_pred_ranks(tier, child, &mut scratch.buf, &mut scratch.ranks)
        .is_none()
    {
        return;
    }
    // Not deduplicated: deciding a class twice is a no-op (`decide`).
    out.extend(scratch.ranks.iter().map(|r| r.0));
}

/// Appends the predecessor classes of the class `child` with the number of in-tier
/// moves of each predecessor's representative that land in class `child`
/// (the edges a decided `child` removes from the predecessor's counter).
///
/// Fast path (the game reports stabiliser orders, see
/// [`TierGame::rank_orbit`]): from the un-moves alone, `u · |Stab(q)| /
/// |Stab(c)|`. Otherwise the moves of every predecessor's representative
/// are regenerated and counted.
pub(in crate::retro) fn pred_edges<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    scratch: &mut PredScratch<G>,
    out: &mut Vec<(u64, u16)>,
) {
    if game.slot_pred_edges(tier, child, &mut scratch.buf, out) {
        return;
    }
    let ranks = &mut scratch.ranks;
    let Some(stab_c) = game.slot_pred_ranks(tier, child, &mut scratch.buf, ranks) else {
        return;
    };
    if stab_c == Some(1) {
        // A child fixed by no symmetry but the identity (most): each un-move is
        // |Stab(q)| edges on its own, so no grouping is needed; a class met twice
        // is decremented twice, which adds up to the same. One pass, undone if
        // some order is unknown.
        let start = out.len();
        out.extend(
            ranks
                .iter()
                .map_while(|&(q, sq)| sq.map(|sq| (q, sq as u16))),
        );
        if out.len() - start == ranks.len() {
            return;
        }
        out.truncate(start);
    }
    class_edges(game, tier, child, stab_c, ranks, &mut scratch.moves, out);
}
