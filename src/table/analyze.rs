//! Statistics of solved tables: outcome counts and distance histograms per tier,
//! and the longest wins with example positions.
//!
//! Optionally ([`AnalyzeOptions::by_side`]) the counts are split by the side to
//! move. Records do not say whose turn it is, so every decided slot is unranked
//! and asked [`Game::side_to_move`](crate::game::Game::side_to_move): much
//! slower than the record-only counts, hence opt-in, and run in parallel chunks.

use super::probe::TableOracle;
use super::verify::dir_tiers;
use crate::error::{Error, Result, TableFault};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::tier::{decode, TierGame};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

/// A position chosen as an example.
#[derive(Clone, Debug, Serialize)]
pub struct Example {
    /// Tier name.
    pub tier: String,
    /// Slot index.
    pub index: u64,
    /// `win`, `loss` or `draw`, for the side to move.
    pub value: String,
    /// Plies to the end.
    pub distance: u32,
    /// Canonical position text.
    pub position: String,
    /// ASCII diagram.
    pub diagram: String,
}

/// Statistics of one tier.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TierStats {
    /// Tier name.
    pub tier: String,
    /// Slots in the table.
    pub records: u64,
    /// Slots holding a position (symmetry classes).
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Longest win distance (0 when there is no win).
    pub max_win: u32,
    /// Longest loss distance (0 when there is no loss).
    pub max_loss: u32,
    /// `win_distances[d]`: wins in exactly d plies.
    pub win_distances: Vec<u64>,
    /// `loss_distances[d]`: losses in exactly d plies.
    pub loss_distances: Vec<u64>,
    /// A win of the greatest distance.
    pub longest_win: Option<Example>,
    /// File size in bytes.
    pub file_bytes: u64,
    /// With [`AnalyzeOptions::by_side`]: the counts split by the side to move
    /// (entry `s` for side `s`); empty otherwise (and then absent from JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_side: Vec<SideStats>,
}

/// Outcome counts of the positions (symmetry classes) with one side to move,
/// values from that side's view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideStats {
    /// Side index (0 or 1).
    pub side: usize,
    /// Side name ([`Game::side_name`](crate::game::Game::side_name)).
    pub name: String,
    /// The game's own word for the side ([`Game::side_label`](crate::game::Game::side_label):
    /// `leopards`, `goats`), as the text report names it.
    pub label: String,
    /// Positions with this side to move.
    pub positions: u64,
    /// Of those, won by this side.
    pub wins: u64,
    /// Of those, lost by this side.
    pub losses: u64,
    /// Of those, drawn.
    pub draws: u64,
    /// Longest win distance of this side to move (0 when there is no win).
    pub max_win: u32,
    /// Longest loss distance of this side to move (0 when there is no loss).
    pub max_loss: u32,
    /// The same counts over positions rather than classes: each class weighted by
    /// its orbit size ([`TierGame::orbit_size`]), so symmetric images count
    /// separately, as `solve`'s `positions` do. `None` when the game has no orbit
    /// sizes (and then absent from JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weighted: Option<Weighted>,
}

/// Outcome counts over positions (orbit-weighted classes) of one side to move,
/// values from that side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Weighted {
    /// Positions with this side to move.
    pub positions: u64,
    /// Of those, won by this side.
    pub wins: u64,
    /// Of those, lost by this side.
    pub losses: u64,
    /// Of those, drawn.
    pub draws: u64,
}

impl Weighted {
    fn add(a: Weighted, b: Weighted) -> Weighted {
        Weighted {
            positions: a.positions + b.positions,
            wins: a.wins + b.wins,
            losses: a.losses + b.losses,
            draws: a.draws + b.draws,
        }
    }
}

impl SideStats {
    /// An empty total (weighted counts start at zero; a tier without them clears them).
    fn new(side: usize, name: &str, label: &str) -> Self {
        SideStats {
            side,
            name: name.into(),
            label: label.into(),
            weighted: Some(Weighted::default()),
            ..SideStats::default()
        }
    }

    fn add(&mut self, o: &SideStats) {
        self.positions += o.positions;
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
        self.max_win = self.max_win.max(o.max_win);
        self.max_loss = self.max_loss.max(o.max_loss);
        self.weighted = self
            .weighted
            .zip(o.weighted)
            .map(|(a, b)| Weighted::add(a, b));
    }
}

/// What [`analyze_dir_with`] computes besides the record-only statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// How many of the longest wins to report with positions.
    pub top: usize,
    /// Split the counts by side to move (unranks every decided slot).
    pub by_side: bool,
}

/// Statistics of a directory of tables.
#[derive(Clone, Debug, Serialize)]
pub struct AnalyzeReport {
    /// Rules string.
    pub rules: String,
    /// Rules fingerprint (hex).
    pub fingerprint: String,
    /// One entry per table, in tier order.
    pub tiers: Vec<TierStats>,
    /// Positions over all tiers.
    pub positions: u64,
    /// Wins over all tiers.
    pub wins: u64,
    /// Losses over all tiers.
    pub losses: u64,
    /// Draws over all tiers.
    pub draws: u64,
    /// The longest wins over all tiers, longest first.
    pub longest_wins: Vec<Example>,
    /// With [`AnalyzeOptions::by_side`]: totals over all tiers split by the side
    /// to move; empty otherwise (and then absent from JSON).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_side: Vec<SideStats>,
}

/// The record of a slot that holds no position: the table (at `path`) is
/// damaged or was written by another program.
fn orphan_record(path: &Path, name: &str, index: u64) -> Error {
    Error::table(
        path,
        TableFault::BadRecord,
        format!("tier {name} slot {index} has a record but unrank gives no position"),
    )
}

fn example<G: TierGame>(
    game: &G,
    path: &Path,
    tier: G::Tier,
    index: u64,
    record: u16,
) -> Result<Example> {
    let name = game.tier_name(tier);
    let pos = game
        .unrank(tier, index)
        .ok_or_else(|| orphan_record(path, &name, index))?;
    let (v, d) = decode(record).unwrap_or((Value::Draw, 0));
    Ok(Example {
        tier: name,
        index,
        value: v.name().into(),
        distance: d,
        position: game.format_position(&pos),
        diagram: game.diagram(&pos),
    })
}

/// A long win in the min-heap: (distance, earliest (tier, index) first, record).
type Candidate<T> = Reverse<(u32, Reverse<(T, u64)>, u16)>;

fn bump(hist: &mut Vec<u64>, d: u32) {
    let d = d as usize;
    if hist.len() <= d {
        hist.resize(d + 1, 0);
    }
    hist[d] += 1;
}

/// Slots per parallel work unit of the side split.
const CHUNK: u64 = 4096;
/// Records analysed at a time (rounded to whole blocks): 32 MiB of records.
const WINDOW: u64 = 1 << 24;

/// Counts of one side to move, summed across parallel chunks (no allocation, so
/// tiers of billions of slots cost no memory per chunk).
#[derive(Clone, Copy)]
struct Tally {
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    max_win: u32,
    max_loss: u32,
    /// Orbit-weighted counts; `None` once a position had no orbit size.
    weighted: Option<Weighted>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            positions: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            max_win: 0,
            max_loss: 0,
            weighted: Some(Weighted::default()),
        }
    }
}

impl Tally {
    fn count(&mut self, v: Value, d: u32, orbit: Option<u64>) {
        self.weighted = self.weighted.zip(orbit).map(|(mut w, n)| {
            w.positions += n;
            match v {
                Value::Win => w.wins += n,
                Value::Loss => w.losses += n,
                Value::Draw => w.draws += n,
            }
            w
        });
        self.positions += 1;
        match v {
            Value::Win => {
                self.wins += 1;
                self.max_win = self.max_win.max(d);
            }
            Value::Loss => {
                self.losses += 1;
                self.max_loss = self.max_loss.max(d);
            }
            Value::Draw => self.draws += 1,
        }
    }

    fn merge(a: [Tally; 2], b: [Tally; 2]) -> [Tally; 2] {
        let m = |x: Tally, y: Tally| Tally {
            positions: x.positions + y.positions,
            wins: x.wins + y.wins,
            losses: x.losses + y.losses,
            draws: x.draws + y.draws,
            max_win: x.max_win.max(y.max_win),
            max_loss: x.max_loss.max(y.max_loss),
            weighted: x.weighted.zip(y.weighted).map(|(p, q)| Weighted::add(p, q)),
        };
        [m(a[0], b[0]), m(a[1], b[1])]
    }
}

/// The by-side tallies of the slots `base..base + records.len()` of `tier`
/// (their records given), the positions enumerated by
/// [`TierGame::for_each_slot`] (which must give a position for every slot that
/// has a record).
fn tally_by_side<G: TierGame>(
    game: &G,
    path: &Path,
    tier: G::Tier,
    base: u64,
    records: &[u16],
    progress: &dyn Progress,
) -> Result<[Tally; 2]> {
    let n = records.len() as u64;
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            let mut acc = [Tally::default(); 2];
            let end = ((c + 1) * CHUNK).min(n);
            let rec = |index: u64| records[(index - base) as usize];
            let want = |index: u64| rec(index) != crate::tier::REC_NONE;
            // Every slot the enumeration skips must be empty: the first that is not
            // is named (as `unrank` would find it).
            let orphan = |from: u64, upto: u64| -> Result<()> {
                match (from..upto).find(|&k| rec(k) != crate::tier::REC_NONE) {
                    Some(k) => Err(orphan_record(path, &game.tier_name(tier), k)),
                    None => Ok(()),
                }
            };
            let mut next = base + c * CHUNK;
            let mut visit = |index: u64, pos: &G::Pos| -> Result<()> {
                orphan(next, index)?;
                next = index + 1;
                let Some((v, d)) = decode(rec(index)) else {
                    return Ok(());
                };
                let side = game.side_to_move(pos);
                let Some(slot) = acc.get_mut(side) else {
                    return Err(Error::Internal(format!(
                        "tier {} slot {index}: side to move {side} is not 0 or 1",
                        game.tier_name(tier)
                    )));
                };
                slot.count(v, d, game.orbit_size(pos));
                Ok(())
            };
            game.for_each_slot(tier, base + c * CHUNK..base + end, Some(&want), &mut visit)?;
            orphan(next, base + end)?;
            progress.advance(end - c * CHUNK);
            Ok(acc)
        })
        .try_reduce(|| [Tally::default(); 2], |a, b| Ok(Tally::merge(a, b)))
}

/// The by-side rows of a tier from its tallies.
fn side_rows<G: TierGame>(game: &G, tally: [Tally; 2]) -> Vec<SideStats> {
    (0..2)
        .map(|side| {
            let t = tally[side];
            SideStats {
                side,
                name: game.side_name(side).into(),
                label: game.side_label(side).into(),
                positions: t.positions,
                wins: t.wins,
                losses: t.losses,
                draws: t.draws,
                max_win: t.max_win,
                max_loss: t.max_loss,
                weighted: t.weighted,
            }
        })
        .collect()
}

/// Analyses every table in `dir`; `top` longest wins are reported with positions.
/// The same as [`analyze_dir_with`] without the split by side to move.
pub fn analyze_dir<G: TierGame>(
    game: &G,
    dir: &Path,
    top: usize,
    progress: &dyn Progress,
) -> Result<AnalyzeReport> {
    let opts = AnalyzeOptions {
        top,
        by_side: false,
    };
    analyze_dir_with(game, dir, &opts, progress)
}

/// Analyses every table in `dir` as `opts` asks.
pub fn analyze_dir_with<G: TierGame>(
    game: &G,
    dir: &Path,
    opts: &AnalyzeOptions,
    progress: &dyn Progress,
) -> Result<AnalyzeReport> {
    let oracle = TableOracle::new(game, dir)?;
    let tiers = dir_tiers(game, dir)?;
    let mut report = AnalyzeReport {
        rules: game.rules_string(),
        fingerprint: format!("{:016x}", game.fingerprint()),
        tiers: Vec::new(),
        positions: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        longest_wins: Vec::new(),
        by_side: Vec::new(),
    };
    if opts.by_side {
        report.by_side = vec![
            SideStats::new(0, game.side_name(0), game.side_label(0)),
            SideStats::new(1, game.side_name(1), game.side_label(1)),
        ];
    }
    // Min-heap of the `top` longest wins: (distance, earliest index first on ties).
    let mut heap: BinaryHeap<Candidate<G::Tier>> = BinaryHeap::new();
    // The side split has a per-slot bar per tier (as verify); otherwise one bar over tiers.
    if !opts.by_side {
        progress.stage("analyze", tiers.len() as u64);
    }
    for tier in tiers {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let table = oracle.required_table(tier)?;
        let s = analyze_tier(game, tier, &table, opts, &mut heap, progress)?;
        if opts.by_side {
            for (t, p) in report.by_side.iter_mut().zip(&s.by_side) {
                t.add(p);
            }
        }
        report.positions += s.positions;
        report.wins += s.wins;
        report.losses += s.losses;
        report.draws += s.draws;
        report.tiers.push(s);
        if !opts.by_side {
            progress.advance(1);
        }
    }
    if !opts.by_side {
        progress.finish_stage();
    }
    let mut best: Vec<_> = heap.into_iter().map(|Reverse(x)| x).collect();
    best.sort_by(|a, b| b.cmp(a));
    for (_, Reverse((tier, i)), r) in best {
        let path = super::format::table_path(dir, &game.tier_name(tier));
        report.longest_wins.push(example(game, &path, tier, i, r)?);
    }
    Ok(report)
}

/// The statistics of one tier's table, window by window; its wins are
/// offered to `heap` (the `opts.top` longest).
fn analyze_tier<G: TierGame>(
    game: &G,
    tier: G::Tier,
    table: &super::Table,
    opts: &AnalyzeOptions,
    heap: &mut BinaryHeap<Candidate<G::Tier>>,
    progress: &dyn Progress,
) -> Result<TierStats> {
    let top = opts.top;
    let mut s = TierStats {
        tier: game.tier_name(tier),
        records: table.records(),
        file_bytes: table.file_len(),
        ..TierStats::default()
    };
    if opts.by_side {
        progress.stage(&format!("sides {}", s.tier), s.records);
    }
    // Window by window of whole blocks, so that a tier of billions of slots
    // needs no array of all its records.
    let per = (WINDOW / u64::from(table.block_records().max(1))).max(1) as usize;
    let mut tally = [Tally::default(); 2];
    let mut longest: Option<(u32, u64, u16)> = None;
    let mut records: Vec<u16> = Vec::new();
    for first in (0..table.blocks()).step_by(per) {
        let base = first as u64 * u64::from(table.block_records());
        records.clear();
        for b in first..(first + per).min(table.blocks()) {
            records.extend_from_slice(&table.block(b)?);
        }
        for (k, &r) in records.iter().enumerate() {
            let i = base + k as u64;
            let Some((v, d)) = decode(r) else {
                continue;
            };
            s.positions += 1;
            match v {
                Value::Win => {
                    s.wins += 1;
                    bump(&mut s.win_distances, d);
                    if longest.is_none_or(|(ld, _, _)| d > ld) {
                        longest = Some((d, i, r));
                    }
                    if top > 0 {
                        let item = Reverse((d, Reverse((tier, i)), r));
                        if heap.len() < top {
                            heap.push(item);
                        } else if heap.peek().is_some_and(|least| item < *least) {
                            heap.pop();
                            heap.push(item);
                        }
                    }
                }
                Value::Loss => {
                    s.losses += 1;
                    bump(&mut s.loss_distances, d);
                }
                Value::Draw => s.draws += 1,
            }
        }
        if opts.by_side {
            let t = tally_by_side(game, table.path(), tier, base, &records, progress)?;
            tally = Tally::merge(tally, t);
        }
    }
    drop(records);
    s.max_win = s.win_distances.len().saturating_sub(1) as u32;
    s.max_loss = s.loss_distances.len().saturating_sub(1) as u32;
    if let Some((_, i, r)) = longest {
        s.longest_win = Some(example(game, table.path(), tier, i, r)?);
    }
    if opts.by_side {
        s.by_side = side_rows(game, tally);
        progress.finish_stage();
    }
    Ok(s)
}

impl AnalyzeReport {
    /// Human-readable report.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "rules {} (fingerprint {})\n{} classes (positions up to symmetry): {} wins, {} losses, {} draws (side to move)\n\n",
            self.rules, self.fingerprint, self.positions, self.wins, self.losses, self.draws
        );
        s.push_str(&format!(
            "{:<14} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>10}\n",
            "tier", "classes", "wins", "losses", "draws", "max win", "max loss", "bytes"
        ));
        for t in &self.tiers {
            s.push_str(&format!(
                "{:<14} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>10}\n",
                t.tier, t.positions, t.wins, t.losses, t.draws, t.max_win, t.max_loss, t.file_bytes
            ));
        }
        if !self.by_side.is_empty() {
            s.push_str(&self.by_side_text());
        }
        s.push_str("\ndistance histograms (plies: count)\n");
        for t in &self.tiers {
            let fmt = |h: &[u64]| {
                h.iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(d, c)| format!("{d}:{c}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            s.push_str(&format!(
                "{} wins   {}\n{} losses {}\n",
                t.tier,
                fmt(&t.win_distances),
                t.tier,
                fmt(&t.loss_distances)
            ));
        }
        if !self.longest_wins.is_empty() {
            s.push_str("\nlongest wins\n");
            for e in &self.longest_wins {
                s.push_str(&format!(
                    "win in {} plies, tier {} slot {}: {}\n{}\n",
                    e.distance, e.tier, e.index, e.position, e.diagram
                ));
            }
        }
        s
    }

    /// The table of counts by side to move (empty rows list without `by_side`).
    fn by_side_text(&self) -> String {
        let mut s = String::from("\nby side to move (wins, losses, draws of the side to move)\n");
        s.push_str(&format!(
            "{:<14} {:<10} {:>12} {:>12} {:>12} {:>12} {:>7} {:>8} {:>8}\n",
            "tier", "to move", "classes", "wins", "losses", "draws", "won %", "max win", "max loss"
        ));
        let row = |s: &mut String, tier: &str, x: &SideStats| {
            let share = if x.positions == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", 100.0 * x.wins as f64 / x.positions as f64)
            };
            s.push_str(&format!(
                "{:<14} {:<10} {:>12} {:>12} {:>12} {:>12} {:>7} {:>8} {:>8}\n",
                tier, x.label, x.positions, x.wins, x.losses, x.draws, share, x.max_win, x.max_loss
            ));
        };
        for t in &self.tiers {
            for x in &t.by_side {
                row(&mut s, &t.tier, x);
            }
        }
        for x in &self.by_side {
            row(&mut s, "total", x);
        }
        if self.by_side.iter().all(|x| x.weighted.is_some()) {
            s.push_str(
                "\nby side to move, positions (each class weighted by its orbit size: symmetric images counted separately)\n",
            );
            s.push_str(&format!(
                "{:<14} {:<10} {:>14} {:>14} {:>8} {:>14} {:>8} {:>14} {:>8}\n",
                "tier", "to move", "positions", "wins", "%", "losses", "%", "draws", "%"
            ));
            let wrow = |s: &mut String, tier: &str, x: &SideStats| {
                let Some(w) = x.weighted else { return };
                let pct = |n: u64| {
                    if w.positions == 0 {
                        "-".to_string()
                    } else {
                        format!("{:.3}", 100.0 * n as f64 / w.positions as f64)
                    }
                };
                s.push_str(&format!(
                    "{:<14} {:<10} {:>14} {:>14} {:>8} {:>14} {:>8} {:>14} {:>8}\n",
                    tier,
                    x.label,
                    w.positions,
                    w.wins,
                    pct(w.wins),
                    w.losses,
                    pct(w.losses),
                    w.draws,
                    pct(w.draws)
                ));
            };
            for t in &self.tiers {
                for x in &t.by_side {
                    wrow(&mut s, &t.tier, x);
                }
            }
            for x in &self.by_side {
                wrow(&mut s, "total", x);
            }
        }
        s
    }
}
