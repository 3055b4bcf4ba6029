//! One part's solve of one tier: its scan, its levels and the exchanges of each phase.

use super::{
    u32_at, Net, PartResult, Partition, SplitOptions, Traffic, Transport, AUX_ESCAPE, AUX_LOSS,
    CHUNK, SCAN_WINDOW,
};
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::retro::kernel::{
    check_distance, class_edges, final_records as kernel_final_records, settled_aux, Exits, Scanned,
};
use crate::retro::solver::{terminal_outcome, ChildValues, TierStats};
use crate::tier::{decode, encode, Outcomes, TierGame, REC_DRAW, REC_NONE};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::time::Instant;

/// Buffers of one scanning job.
struct Scratch<G: TierGame> {
    moves: Vec<G::Move>,
    indices: Vec<(G::Tier, u64)>,
}

fn scan_slot<G: TierGame>(
    game: &G,
    tier: G::Tier,
    pos: &G::Pos,
    children: &ChildValues<G::Tier>,
    s: &mut Scratch<G>,
) -> Result<Scanned> {
    if let Some(v) = game.outcome(pos) {
        return Ok(Scanned::Final(encode(v, 0)));
    }
    let counted = game.count_inner_moves(tier, pos, &mut s.moves);
    if counted.is_none() {
        game.legal_moves(pos, &mut s.moves);
    }
    let mut inner = counted.unwrap_or(0);
    let mut exits = Exits::default();
    game.child_indices(tier, pos, &s.moves, false, &mut s.indices);
    for (&(ct, r), &m) in s.indices.iter().zip(s.moves.iter()) {
        if ct == tier {
            inner += 1;
            continue;
        }
        let (v, d) = if let Some(k) = children.slot(ct) {
            decode(children.record(k, r)).ok_or_else(|| {
                Error::Internal(format!(
                    "a move of {} leads to empty slot {r} of tier {} (rank/unrank mismatch)",
                    game.format_position(pos),
                    game.tier_name(ct)
                ))
            })?
        } else if game.tier_is_terminal(ct) {
            (terminal_outcome(game, pos, m, ct)?, 0)
        } else {
            return Err(Error::Internal(format!(
                "child tier {} is not solved (needed by a move of {})",
                game.tier_name(ct),
                game.format_position(pos)
            )));
        };
        exits.add(v, d);
    }
    exits.scanned(game, pos, inner)
}

/// Buffers of one propagation job.
struct PredScratch<G: TierGame> {
    buf: Vec<G::Pos>,
    ranks: Vec<(u64, Option<u32>)>,
    moves: Vec<G::Move>,
    edges: Vec<(u64, u16)>,
}

impl<G: TierGame> PredScratch<G> {
    fn new() -> Self {
        PredScratch {
            buf: Vec::new(),
            ranks: Vec::new(),
            moves: Vec::new(),
            edges: Vec::new(),
        }
    }
}

/// Predecessor classes of class `child` into `s.edges`, with (`with_edges`)
/// the number of moves of each predecessor's representative into class
/// `child`, as the one-process solver counts them: from stabiliser orders when
/// the game gives them, else by regenerating the predecessor's moves. Without
/// `with_edges` a class may come more than once (deciding it twice is a no-op).
fn preds<G: TierGame>(
    game: &G,
    tier: G::Tier,
    child: u64,
    with_edges: bool,
    s: &mut PredScratch<G>,
) {
    s.edges.clear();
    let Some((rep, stab_c)) = game.unrank_orbit(tier, child) else {
        return;
    };
    game.pred_ranks(tier, &rep, &mut s.buf, &mut s.ranks);
    if !with_edges {
        s.edges.extend(s.ranks.iter().map(|r| (r.0, 0)));
        return;
    }
    class_edges(
        game,
        tier,
        child,
        stab_c,
        &mut s.ranks,
        &mut s.moves,
        &mut s.edges,
    );
}

/// One part's state of a split tier.
struct State<'a, G: TierGame> {
    game: &'a G,
    tier: G::Tier,
    part: Partition,
    me: usize,
    lo: u64,
    rec: Vec<AtomicU16>,
    cnt: Vec<AtomicU16>,
    aux: Vec<u16>,
    /// A slot whose counter had fewer moves left than a won child's edges
    /// (`NO_MISCOUNT`: none): a fault of the counting, which must not end
    /// as a draw ([`State::check_counts`] refuses it).
    miscount: AtomicU64,
}

/// `State::miscount` when every decrement found its edges counted.
const NO_MISCOUNT: u64 = u64::MAX;

impl<G: TierGame> State<'_, G> {
    /// Decides local slot `l` a win at `d` if undecided.
    fn win(&self, l: u32, d: u32) -> bool {
        self.rec.get(l as usize).is_some_and(|r| {
            r.compare_exchange(
                REC_NONE,
                encode(Value::Win, d),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
        })
    }

    /// Removes `e` edges from local slot `l`'s counter; a new loss's distance.
    fn decrement(&self, l: u32, e: u16, next: u32) -> Option<u32> {
        let i = l as usize;
        let rec = self.rec.get(i)?;
        if rec.load(Ordering::Relaxed) != REC_NONE || e == 0 {
            return None;
        }
        let Ok(old) =
            self.cnt[i].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| c.checked_sub(e))
        else {
            self.miscount
                .fetch_min(self.lo + u64::from(l), Ordering::Relaxed);
            return None;
        };
        let aux = self.aux[i];
        if old == e && aux & AUX_ESCAPE == 0 {
            let d = next.max((aux & AUX_LOSS) as u32);
            rec.store(encode(Value::Loss, d), Ordering::Relaxed);
            return Some(d);
        }
        None
    }

    /// Refuses a tier in which a won child removed more moves from a slot
    /// than its counter held (the one-process solvers assert the same): the
    /// slot would otherwise never lose and end as a draw.
    fn check_counts(&self) -> Result<()> {
        match self.miscount.load(Ordering::Relaxed) {
            NO_MISCOUNT => Ok(()),
            q => Err(Error::Internal(format!(
                "split solve of tier {}: slot {q}'s counter of in-tier moves went below zero (a won child's edges were miscounted); the tier is refused rather than its slot recorded as a draw",
                self.game.tier_name(self.tier)
            ))),
        }
    }
}

/// Solves this part's share of `tier` (the other parts call it at the same
/// time with their transports): see the module documentation. Returns this
/// part's records and the whole tier's statistics.
pub fn solve_part<G: TierGame, T: Transport>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    transport: &mut T,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<PartResult> {
    let mut net = Net::new(transport);
    match solve_part_in(game, tier, children, &mut net, options, progress) {
        Ok(r) => Ok(r),
        Err(e) => Err(net.fail(e)),
    }
}

pub(super) fn solve_part_in<G: TierGame, T: Transport>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    net: &mut Net<'_, T>,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<PartResult> {
    let started = Instant::now();
    let size = game.tier_size(tier);
    let part = Partition::new(size, net.parts())?;
    let me = net.me();
    let range = part.range(me);
    let n = (range.end - range.start) as usize;
    let name = game.tier_name(tier);

    // Phase 1: scan of this part's range.
    progress.stage_in(&format!("{name} scan (part {me})"), n as u64, "slots");
    let mut st = State {
        game,
        tier,
        part,
        me,
        lo: range.start,
        rec: (0..n).map(|_| AtomicU16::new(REC_NONE)).collect(),
        cnt: (0..n).map(|_| AtomicU16::new(0)).collect(),
        aux: Vec::new(),
        miscount: AtomicU64::new(NO_MISCOUNT),
    };
    let (frontier, listed) = scan_part(&mut st, children, options, progress)?;
    progress.finish_stage();
    net.traffic.peak_frontier = listed;

    // Phase 2: levels, agreed across parts.
    progress.stage_in(&format!("{name} propagate (part {me})"), 0, "levels");
    let levels = propagate_part(&st, net, frontier, listed, options, progress)?;
    progress.finish_stage();

    // Phase 3: what is left is a draw.
    let records = final_records(st, options);
    let (outcomes, total) = gather_counts(net, &records)?;
    Ok(PartResult {
        range,
        records,
        stats: TierStats { outcomes, levels },
        traffic: net.traffic,
        total_traffic: total,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Slots waiting for propagation by distance: local offsets.
type Frontier = BTreeMap<u32, Vec<u32>>;

/// Phase 1: scans this part's range of `st`'s tier, storing final records,
/// counters and aux bits into `st`. Returns the frontier (decided slots with
/// predecessors, and pending exit wins) and its length.
fn scan_part<G: TierGame>(
    st: &mut State<'_, G>,
    children: &ChildValues<G::Tier>,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<(Frontier, u64)> {
    let (game, tier) = (st.game, st.tier);
    let mut aux = vec![0u16; st.rec.len()];
    let mut frontier = Frontier::new();
    let mut listed = 0u64;
    let mut scan_error = None;
    // In windows of SCAN_WINDOW slots, so that the jobs' lists of (distance,
    // slot) pairs (8 bytes an entry) never exist for the whole range at once.
    for (wi, window) in aux.chunks_mut(SCAN_WINDOW).enumerate() {
        let wbase = wi * SCAN_WINDOW;
        let stref: &State<'_, G> = st;
        let found: Vec<Result<Vec<(u32, u32)>>> = options.install(|| {
            window
                .par_chunks_mut(CHUNK)
                .enumerate()
                .map(|(ci, aux_chunk)| {
                    if stop_requested() {
                        return Err(Error::Interrupted);
                    }
                    let mut s = Scratch::<G> {
                        moves: Vec::new(),
                        indices: Vec::new(),
                    };
                    let mut out = Vec::new();
                    let base = wbase + ci * CHUNK;
                    let from = stref.lo + base as u64;
                    game.for_each_slot(
                        tier,
                        from..from + aux_chunk.len() as u64,
                        None,
                        &mut |i, pos| {
                            let l = (i - stref.lo) as usize;
                            match scan_slot(game, tier, pos, children, &mut s)? {
                                Scanned::Final(r) => {
                                    stref.rec[l].store(r, Ordering::Relaxed);
                                    // A slot nothing in the tier moves to needs no propagation.
                                    if r != REC_DRAW && game.may_have_unmoves(tier, i) {
                                        out.push((decode(r).map_or(0, |x| x.1), l as u32));
                                    }
                                }
                                Scanned::Inner(c, exits) => {
                                    let (c, bits) = exits.aux(c).ok_or_else(|| {
                                        Error::Internal(format!(
                                            "position {} has more than 65535 in-tier moves",
                                            game.format_position(pos)
                                        ))
                                    })?;
                                    stref.cnt[l].store(c, Ordering::Relaxed);
                                    aux_chunk[l - base] = bits;
                                    if let Some(w) = exits.win {
                                        out.push((w, l as u32));
                                    }
                                }
                            }
                            Ok(())
                        },
                    )?;
                    progress.advance(aux_chunk.len() as u64);
                    Ok(out)
                })
                .collect()
        });
        for f in found {
            match f {
                Ok(entries) => {
                    listed += entries.len() as u64;
                    for (d, l) in entries {
                        frontier.entry(d).or_default().push(l);
                    }
                }
                Err(e) => {
                    scan_error.get_or_insert(e);
                }
            }
        }
        if scan_error.is_some() {
            break;
        }
    }
    st.aux = aux;
    match scan_error {
        Some(e) => Err(e),
        None => Ok((frontier, listed)),
    }
}

/// Phase 2: the levels, in increasing distance agreed across parts (each
/// level's distance is the least over every part's frontier). Returns the
/// number of levels.
fn propagate_part<G: TierGame, T: Transport>(
    st: &State<'_, G>,
    net: &mut Net<'_, T>,
    mut frontier: Frontier,
    mut listed: u64,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<u32> {
    let mut levels = 0u32;
    loop {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let mine = frontier.keys().next().map_or(u64::MAX, |&d| d as u64);
        let d = net.min(mine)?;
        if d == u64::MAX {
            break;
        }
        let d = d as u32;
        levels += 1;
        let mut list = frontier.remove(&d).unwrap_or_default();
        listed -= list.len() as u64;
        list.sort_unstable();
        list.dedup();
        // Pending exit wins not beaten by a faster in-tier win become final now.
        for &l in &list {
            st.win(l, d);
        }
        let (mut losses, mut wins) = (Vec::new(), Vec::new());
        for &l in &list {
            match decode(st.rec[l as usize].load(Ordering::Relaxed)) {
                Some((Value::Loss, x)) if x == d => losses.push(l),
                Some((Value::Win, x)) if x == d => wins.push(l),
                _ => {} // superseded pending entry
            }
        }
        drop(list);
        let next = check_distance(d + 1)?;
        // Loss phase: predecessors become wins at d + 1.
        let new_wins = phase(st, net, &losses, options, next, true)?;
        listed += new_wins.len() as u64;
        if !new_wins.is_empty() {
            frontier
                .entry(next)
                .or_default()
                .extend(new_wins.into_iter().map(|x| x.1));
        }
        // Win phase: counters decremented; zero without an escape is a loss.
        let new_losses = phase(st, net, &wins, options, next, false)?;
        listed += new_losses.len() as u64;
        for (l, q) in new_losses {
            frontier.entry(l).or_default().push(q);
        }
        net.traffic.peak_frontier = net.traffic.peak_frontier.max(listed);
        progress.advance(1);
        progress.message(&format!("distance {d}"));
    }
    Ok(levels)
}

/// Phase 3: this part's records, an in-tier slot still undecided being a draw.
fn final_records<G: TierGame>(st: State<'_, G>, options: &SplitOptions) -> Vec<u16> {
    let State { rec, aux, cnt, .. } = st;
    drop(cnt);
    options.install(|| {
        kernel_final_records(0..rec.len(), CHUNK, |i| {
            settled_aux(rec[i].load(Ordering::Relaxed), aux[i])
        })
    })
}

/// The whole tier's counts and traffic, from every part's `records` and traffic.
fn gather_counts<T: Transport>(
    net: &mut Net<'_, T>,
    records: &[u16],
) -> Result<(Outcomes, Traffic)> {
    let mine = Outcomes::of_records(records);
    let mut payload = serde_json::to_vec(&(mine, net.traffic))
        .map_err(|e| Error::Internal(format!("encoding a part's counts: {e}")))?;
    payload.shrink_to_fit();
    let all = net.gather(payload)?;
    let mut outcomes = Outcomes::default();
    let mut total = Traffic::default();
    for (k, b) in all.iter().enumerate() {
        let (o, t): (Outcomes, Traffic) = serde_json::from_slice(b)
            .map_err(|e| Error::Internal(format!("undecodable counts from part {k}: {e}")))?;
        outcomes.merge(&o);
        total.merge(&t);
    }
    Ok((outcomes, total))
}

/// What one propagation job gives: buffers by destination part, slots it
/// decided (distance, local offset), local and remote update counts.
type Job = (Vec<Vec<u8>>, Vec<(u32, u32)>, u64, u64);

/// One phase of a level: the predecessors of `children` (local offsets) updated
/// across parts, in exchange rounds of at most `batch` children per part.
/// Loss phase (`loss`): predecessors become wins at `next`; win phase:
/// counters are decremented. Returns the slots it decided: (distance, local offset).
fn phase<G: TierGame, T: Transport>(
    st: &State<'_, G>,
    net: &mut Net<'_, T>,
    children: &[u32],
    options: &SplitOptions,
    next: u32,
    loss: bool,
) -> Result<Vec<(u32, u32)>> {
    let batch = options.batch.max(1);
    let parts = net.parts();
    let rounds = net.max(children.len().div_ceil(batch) as u64)?;
    let mut decided = Vec::new();
    for r in 0..rounds as usize {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let from = (r * batch).min(children.len());
        let to = ((r + 1) * batch).min(children.len());
        let mine = &children[from..to];
        // Each job: updates of its own slots applied at once, the others' buffered.
        let jobs: Vec<Job> = options.install(|| {
            mine.par_chunks(256)
                .map(|chunk| {
                    let mut out = vec![Vec::new(); parts];
                    let mut got = Vec::new();
                    let (mut local, mut remote) = (0u64, 0u64);
                    let mut s = PredScratch::<G>::new();
                    for &c in chunk {
                        let child = st.lo + c as u64;
                        preds(st.game, st.tier, child, !loss, &mut s);
                        for &(q, e) in &s.edges {
                            let k = st.part.owner(q);
                            let off = (q - st.part.start(k)) as u32;
                            if k == st.me {
                                local += 1;
                                if loss {
                                    if st.win(off, next) {
                                        got.push((next, off));
                                    }
                                } else if let Some(d) = st.decrement(off, e, next) {
                                    got.push((d, off));
                                }
                            } else {
                                remote += 1;
                                out[k].extend_from_slice(&off.to_le_bytes());
                                if !loss {
                                    out[k].extend_from_slice(&e.to_le_bytes());
                                }
                            }
                        }
                    }
                    (out, got, local, remote)
                })
                .collect()
        });
        let mut out = vec![Vec::new(); parts];
        for (o, got, local, remote) in jobs {
            for (k, b) in o.into_iter().enumerate() {
                out[k].extend_from_slice(&b);
            }
            decided.extend(got);
            net.traffic.local_updates += local;
            net.traffic.remote_updates += remote;
        }
        let incoming = net.round(out)?;
        let width = if loss { 4 } else { 6 };
        for (k, b) in incoming.iter().enumerate() {
            if b.len() % width != 0 {
                return Err(Error::Internal(format!(
                    "an update message from part {k} has {} bytes, not a multiple of {width}",
                    b.len()
                )));
            }
            let got: Vec<(u32, u32)> = options.install(|| {
                b.par_chunks(width * 1024)
                    .flat_map_iter(|chunk| {
                        chunk.chunks_exact(width).filter_map(|m| {
                            let off = u32_at(m, 0);
                            if loss {
                                st.win(off, next).then_some((next, off))
                            } else {
                                let e = u16::from_le_bytes([m[4], m[5]]);
                                st.decrement(off, e, next).map(|d| (d, off))
                            }
                        })
                    })
                    .collect()
            });
            decided.extend(got);
        }
        st.check_counts()?;
    }
    Ok(decided)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// A won child's edges beyond what a slot's counter holds are refused,
    /// never wrapped into a counter that cannot reach zero (the slot would
    /// end as a draw); edges within the count decide the loss as before.
    #[test]
    fn a_counter_below_its_edges_is_refused() {
        let g = crate::hunt::from_spec("kaooa").unwrap();
        let tier = g.tier_of(&g.start());
        let st = State {
            game: &g,
            tier,
            part: Partition::new(4, 1).unwrap(),
            me: 0,
            lo: 0,
            rec: (0..4).map(|_| AtomicU16::new(REC_NONE)).collect(),
            cnt: [2u16, 1, 3, 1].into_iter().map(AtomicU16::new).collect(),
            aux: vec![crate::retro::kernel::AUX_INNER; 4],
            miscount: AtomicU64::new(NO_MISCOUNT),
        };
        assert_eq!(st.decrement(0, 1, 5), None);
        assert_eq!(st.decrement(0, 1, 5), Some(5));
        assert!(st.check_counts().is_ok());
        assert_eq!(st.decrement(2, 4, 5), None);
        assert_eq!(st.decrement(1, 2, 5), None);
        assert_eq!(st.cnt[2].load(Ordering::Relaxed), 3, "left as it was");
        let err = st.check_counts().unwrap_err().to_string();
        assert!(err.contains("slot 1's counter"), "{err}");
    }
}
