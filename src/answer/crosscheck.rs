//! Tables against search on random positions: a check of solved tables that
//! shares nothing with the retrograde solver or the verifier but the rules engine.
//!
//! Seeded random slots are drawn from the tables of a directory (a tier chosen
//! uniformly, then a slot of it), and kept when the position is not terminal and
//! the stored value is a win or a loss within `max_distance` plies (decided
//! samples) or a draw (at most a quarter of the samples). Each kept position is searched from scratch in exact
//! mode (proofs only, no evaluation, no tables) to `distance + 2` plies for a
//! decided sample and `max_distance` plies for a draw. A decided sample agrees
//! when the search proves the same value at the same distance; a draw agrees
//! when the search proves no win or loss.

use crate::error::{Error, Result, TableFault};
use crate::game::{Evaluate, NoOracle, Value};
use crate::progress::{stop_requested, Progress};
use crate::random::Rng;
use crate::search::{search_fresh, Limit, SearchConfig};
use crate::table::probe::TableOracle;
use crate::table::verify::{dir_tiers, record_text};
use crate::tier::{decode, TierGame};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// Transposition table per search (MiB).
const HASH_MIB: usize = 16;
/// Slots drawn per wanted sample before giving up (tiers without short wins).
const DRAWS_PER_SAMPLE: usize = 20_000;

/// A drawn slot: tier, index, position, stored value and distance.
type Picked<G> = (
    <G as TierGame>::Tier,
    u64,
    <G as crate::game::Game>::Pos,
    Value,
    u32,
);

/// One searched position.
#[derive(Clone, Debug, Serialize)]
pub struct CrossSample {
    /// Tier name.
    pub tier: String,
    /// Slot index.
    pub index: u64,
    /// Position text.
    pub position: String,
    /// The stored record as text (`win 3`, `loss 2`, `draw`).
    pub table: String,
    /// What the search proved (`win 3`, `loss 2`, `draw`, or `unproven to depth N`).
    pub search: String,
    /// Whether the two agree.
    pub agree: bool,
    /// Nodes searched.
    pub nodes: u64,
}

/// Result of [`crosscheck_dir`].
#[derive(Clone, Debug, Serialize)]
pub struct CrossReport {
    /// Rules string of the tables.
    pub rules: String,
    /// Seed of the slot draws.
    pub seed: u64,
    /// Longest stored distance sampled.
    pub max_distance: u32,
    /// Decided (won or lost) positions searched.
    pub decided: usize,
    /// Drawn positions searched.
    pub draws: usize,
    /// Decided samples by stored distance (index = plies).
    pub distances: Vec<usize>,
    /// Samples that disagree.
    pub disagreements: usize,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every sample, in draw order.
    pub samples: Vec<CrossSample>,
}

impl CrossReport {
    /// Whether every sample agrees.
    pub fn all_agree(&self) -> bool {
        self.disagreements == 0
    }
}

/// Draws up to `wanted` samples from the tables of `dir` and searches each one.
pub fn crosscheck_dir<G: TierGame + Evaluate>(
    game: &G,
    dir: &Path,
    wanted: usize,
    max_distance: u32,
    seed: u64,
    progress: &dyn Progress,
) -> Result<CrossReport> {
    let started = Instant::now();
    // A decided sample is searched 2 plies past its distance, and the search stops at
    // MAX_DEPTH: longer distances could only be reported as false disagreements.
    let deepest = crate::search::MAX_DEPTH - 2;
    if max_distance > deepest {
        return Err(Error::Usage(format!(
            "--max-distance {max_distance}: the search reaches {} plies, so distances above {deepest} cannot be checked by it (the full verify checks every distance)",
            crate::search::MAX_DEPTH
        )));
    }
    let oracle = TableOracle::new(game, dir)?;
    let mut tables = Vec::new();
    for tier in dir_tiers(game, dir)? {
        let table = oracle.required_table(tier)?;
        if table.records() > 0 {
            tables.push((tier, table));
        }
    }
    if tables.is_empty() {
        return Err(Error::table(
            dir,
            TableFault::Missing,
            "every table is empty",
        ));
    }
    let (picked, draws) = pick_samples(game, &tables, wanted, max_distance, seed)?;
    progress.stage("search vs tables", picked.len() as u64);
    let samples: Vec<CrossSample> = picked
        .par_iter()
        .map(|p| {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            let sample = check_sample(game, p, max_distance)?;
            progress.advance(1);
            Ok(sample)
        })
        .collect::<Result<_>>()?;
    progress.finish_stage();
    // Sized by what was sampled, not by the bound asked for.
    let longest = picked
        .iter()
        .filter(|p| p.3 != Value::Draw)
        .map(|p| p.4 as usize)
        .max()
        .unwrap_or(0);
    let mut distances = vec![0; longest + 1];
    for p in picked.iter().filter(|p| p.3 != Value::Draw) {
        distances[p.4 as usize] += 1;
    }
    Ok(CrossReport {
        distances,
        rules: game.rules_string(),
        seed,
        max_distance,
        decided: samples.len() - draws,
        draws,
        disagreements: samples.iter().filter(|s| !s.agree).count(),
        nodes: samples.iter().map(|s| s.nodes).sum(),
        seconds: started.elapsed().as_secs_f64(),
        samples,
    })
}

/// Draws up to `wanted` samples from `tables` (at most a quarter of them
/// draws, decided ones within `max_distance`), with the number of draws.
fn pick_samples<G: TierGame>(
    game: &G,
    tables: &[(G::Tier, std::sync::Arc<crate::table::Table>)],
    wanted: usize,
    max_distance: u32,
    seed: u64,
) -> Result<(Vec<Picked<G>>, usize)> {
    let max_draws = wanted / 4;
    let mut rng = Rng::new(seed);
    let mut picked: Vec<Picked<G>> = Vec::new();
    let mut draws = 0;
    let mut tries = 0usize;
    let limit = wanted.saturating_mul(DRAWS_PER_SAMPLE);
    while picked.len() < wanted && tries < limit {
        tries += 1;
        let (tier, table) = &tables[rng.below(tables.len())];
        let index = rng.below(table.records() as usize) as u64;
        let Some((value, distance)) = decode(table.get(index)?) else {
            continue;
        };
        let keep = match value {
            Value::Draw => draws < max_draws,
            _ => distance <= max_distance,
        };
        if !keep || picked.iter().any(|p| p.0 == *tier && p.1 == index) {
            continue;
        }
        let pos = game.unrank(*tier, index).ok_or_else(|| {
            Error::table(
                table.path(),
                TableFault::BadRecord,
                format!(
                    "tier {} slot {index} holds a record but unrank gives no position",
                    game.tier_name(*tier)
                ),
            )
        })?;
        if game.outcome(&pos).is_some() {
            continue; // terminal: nothing for a search to check
        }
        draws += usize::from(value == Value::Draw);
        picked.push((*tier, index, pos, value, distance));
    }
    Ok((picked, draws))
}

/// Searches one sample to its distance (plus 2) and compares.
fn check_sample<G: TierGame + Evaluate>(
    game: &G,
    p: &Picked<G>,
    max_distance: u32,
) -> Result<CrossSample> {
    let (tier, index, pos, value, distance) = p;
    let depth = match value {
        Value::Draw => max_distance.max(1),
        _ => distance + 2,
    };
    let cfg = SearchConfig {
        limits: vec![Limit::Depth(depth)],
        exact: true,
        ..Default::default()
    };
    let r = search_fresh(game, pos, &NoOracle, &cfg, HASH_MIB)?;
    let (search, agree) = match (r.proven, value) {
        (Some((v, d)), Value::Draw) => (format!("{v} {d}"), v == Value::Draw),
        (None, Value::Draw) => (format!("unproven to depth {depth}"), true),
        (Some((v, d)), _) => (format!("{v} {d}"), v == *value && d == *distance),
        (None, _) => (format!("unproven to depth {depth}"), false),
    };
    Ok(CrossSample {
        tier: game.tier_name(*tier),
        index: *index,
        position: game.format_position(pos),
        table: record_text(crate::tier::encode(*value, *distance)),
        search,
        agree,
        nodes: r.nodes,
    })
}
