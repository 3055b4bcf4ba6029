//! Statistics of solved tables: outcome counts and distance histograms per tier,
//! and the longest wins with example positions.

use super::probe::TableOracle;
use super::verify::dir_tiers;
use crate::error::{Error, Result};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::retro::tier::{decode, TierGame};
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
}

fn example<G: TierGame>(game: &G, tier: G::Tier, index: u64, record: u16) -> Result<Example> {
    let name = game.tier_name(tier);
    let pos = game.unrank(tier, index).ok_or_else(|| {
        Error::Other(format!(
            "tier {name} slot {index} has a record but unrank gives no position"
        ))
    })?;
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

/// Analyses every table in `dir`; `top` longest wins are reported with positions.
pub fn analyze_dir<G: TierGame>(
    game: &G,
    dir: &Path,
    top: usize,
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
    };
    // Min-heap of the `top` longest wins: (distance, earliest index first on ties).
    let mut heap: BinaryHeap<Candidate<G::Tier>> = BinaryHeap::new();
    progress.stage("analyze", tiers.len() as u64);
    for tier in tiers {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let table = oracle.table(tier)?.ok_or_else(|| {
            Error::table(dir, format!("no table for tier {}", game.tier_name(tier)))
        })?;
        let records = table.read_all()?;
        let mut s = TierStats {
            tier: game.tier_name(tier),
            records: records.len() as u64,
            file_bytes: table.file_len(),
            ..TierStats::default()
        };
        let mut longest: Option<(u32, u64)> = None;
        for (i, &r) in records.iter().enumerate() {
            let Some((v, d)) = decode(r) else { continue };
            s.positions += 1;
            match v {
                Value::Win => {
                    s.wins += 1;
                    bump(&mut s.win_distances, d);
                    if longest.is_none_or(|(ld, _)| d > ld) {
                        longest = Some((d, i as u64));
                    }
                    if top > 0 {
                        let item = Reverse((d, Reverse((tier, i as u64)), r));
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
        s.max_win = s.win_distances.len().saturating_sub(1) as u32;
        s.max_loss = s.loss_distances.len().saturating_sub(1) as u32;
        if let Some((_, i)) = longest {
            s.longest_win = Some(example(game, tier, i, records[i as usize])?);
        }
        report.positions += s.positions;
        report.wins += s.wins;
        report.losses += s.losses;
        report.draws += s.draws;
        report.tiers.push(s);
        progress.advance(1);
    }
    progress.finish_stage();
    let mut best: Vec<_> = heap.into_iter().map(|Reverse(x)| x).collect();
    best.sort_by(|a, b| b.cmp(a));
    for (_, Reverse((tier, i)), r) in best {
        report.longest_wins.push(example(game, tier, i, r)?);
    }
    Ok(report)
}

impl AnalyzeReport {
    /// Human-readable report.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "rules {} (fingerprint {})\n{} positions: {} wins, {} losses, {} draws (side to move)\n\n",
            self.rules, self.fingerprint, self.positions, self.wins, self.losses, self.draws
        );
        s.push_str(&format!(
            "{:<14} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>10}\n",
            "tier", "positions", "wins", "losses", "draws", "max win", "max loss", "bytes"
        ));
        for t in &self.tiers {
            s.push_str(&format!(
                "{:<14} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8} {:>10}\n",
                t.tier, t.positions, t.wins, t.losses, t.draws, t.max_win, t.max_loss, t.file_bytes
            ));
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
}
