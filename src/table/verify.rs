//! Verification of tables apart from the solver: every stored value is re-derived from the
//! position's children with forward move generation ([`Game::legal_moves`](crate::game::Game::legal_moves),
//! [`Game::play`](crate::game::Game::play), [`Game::outcome`](crate::game::Game::outcome)) and compared with the record.
//!
//! The generator works backwards with `unmoves` and frontiers; this code shares
//! none of it, only the index scheme (`rank`/`unrank`) it checks as well
//! (`rank(unrank(i)) == i`). Local consistency is enough for exactness: win and
//! loss distances strictly decrease along optimal play, so by induction on the
//! distance every win/loss record is right, and a position stored as a draw that
//! is really a win (or loss) in d would contradict its correctly stored children.
//!
//! Rules per position: terminal → `outcome`, distance 0; a win if some child is a
//! loss for its side to move (distance 1 + the least such child distance); a loss
//! if every child is a win (1 + the greatest); otherwise a draw.
//!
//! **Orbit accounting.** Checking values cannot see a class the index never stores
//! (two classes ranked to one slot: the table holds one of them, correctly valued).
//! So, when the caller gives each tier's placement count ([`Placements`], counted
//! by binomials), every stored class's orbit is counted from the board's symmetry
//! maps ([`TierGame::orbit_size`], which does not use the ranking), and the sum
//! over a tier must equal its placements: a dropped class makes it smaller, a
//! class stored twice larger.

use super::probe::{list_tiers, TableOracle};
use super::Table;
use crate::error::{Error, Result, TableFault};
use crate::game::Value;
use crate::progress::{stop_requested, Progress};
use crate::random::{hash_str, mix64, Rng};
use crate::tier::{decode, encode, TierGame, MAX_DISTANCE, REC_NONE};
use rayon::prelude::*;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// How many mismatches are kept as examples per tier.
const EXAMPLES: usize = 10;
/// Slots per parallel work unit.
const CHUNK: u64 = 4096;

/// One record that disagrees with its re-derived value.
#[derive(Clone, Debug, Serialize)]
pub struct Mismatch {
    /// Tier name.
    pub tier: String,
    /// Slot index.
    pub index: u64,
    /// The slot's position (`None` for an empty slot).
    pub position: Option<String>,
    /// The stored record as text (`win 3`, `loss 2`, `draw`, `none`).
    pub stored: String,
    /// What the children say, or what is wrong with the slot.
    pub derived: String,
}

/// The number of placements (positions with side to move, before symmetry
/// reduction) of a tier, counted without the index: `Solvable::tier_placements` of
/// the generation layer, passed down for orbit accounting (this module's docs).
pub type Placements<G> = fn(&G, <G as TierGame>::Tier) -> u64;

/// Verification result of one tier.
#[derive(Clone, Debug, Serialize)]
pub struct TierCheck {
    /// Tier name.
    pub tier: String,
    /// Slots in the table.
    pub records: u64,
    /// Slots holding a position (all of them checked).
    pub positions: u64,
    /// Slots whose record disagrees.
    pub mismatches: u64,
    /// Placements the tier holds by count (`None`: not given, no orbit accounting).
    pub placements: Option<u64>,
    /// Sum of the orbit sizes of the stored classes, i.e. the placements they stand
    /// for (`None` when not computed: no placement count, or the game has no
    /// [`TierGame::orbit_size`]).
    pub covered: Option<u64>,
    /// Whether `covered == placements` (`None` when not computed).
    pub orbits_agree: Option<bool>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// `None`: every slot was checked; `Some(n)`: only `n` slots drawn at random
    /// (see [`VerifyScope`]; no orbit accounting then).
    pub sampled_slots: Option<u64>,
}

/// Which tables [`verify_dir_scoped`] checks, and how.
///
/// With neither field set every tier is checked in full. `full` names the tiers
/// checked in full (every slot, orbit accounting); `sample` = `(slots, seed)` checks
/// that many slots drawn at random (uniformly, with replacement, from a generator
/// seeded by `seed` and the tier's name) in every tier not checked in full. A tier
/// neither named nor sampled is not checked.
#[derive(Clone, Debug, Default)]
pub struct VerifyScope {
    /// Tier names to check in full (`None`: all, unless `sample` is set).
    pub full: Option<Vec<String>>,
    /// Slots per tier to draw at random, and the seed.
    pub sample: Option<(u64, u64)>,
}

/// Verification result of a directory.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// Rules string of the tables.
    pub rules: String,
    /// One entry per table, in tier order.
    pub tiers: Vec<TierCheck>,
    /// Positions checked.
    pub positions: u64,
    /// Records that disagree.
    pub mismatches: u64,
    /// Tiers whose classes' orbits do not cover their placements exactly.
    pub orbit_mismatches: u64,
    /// Tiers whose orbits were accounted for (the others: not computed).
    pub orbits_checked: u64,
    /// Up to ten disagreeing records per tier.
    pub examples: Vec<Mismatch>,
}

impl VerifyReport {
    /// Whether every record agrees with its children and every accounted tier's
    /// orbits cover its placements.
    pub fn all_agree(&self) -> bool {
        self.mismatches == 0 && self.orbit_mismatches == 0
    }
}

/// Text of a record.
pub(crate) fn record_text(r: u16) -> String {
    match decode(r) {
        None => "none".into(),
        Some((Value::Draw, _)) => "draw".into(),
        Some((v, d)) => format!("{v} {d}"),
    }
}

/// Where the records of the tier being verified come from: all of them in memory
/// (a full check), or the table's blocks through the block cache (a sample).
#[derive(Clone, Copy)]
enum Records<'a> {
    /// Every record, decoded.
    All(&'a [u16]),
    /// The table file, read a block at a time.
    Table(&'a Table),
}

impl Records<'_> {
    /// The record at `index`, `None` when the index is outside the tier.
    fn get(self, index: u64) -> Result<Option<u16>> {
        match self {
            Records::All(r) => Ok(r.get(index as usize).copied()),
            Records::Table(t) if index < t.records() => t.get(index).map(Some),
            Records::Table(_) => Ok(None),
        }
    }
}

/// Re-derives the value of `pos` (in `tier`, whose records are `records`) from its
/// children. `Ok(Err(reason))` describes an inconsistency found on the way.
fn derive<G: TierGame>(
    oracle: &TableOracle<G>,
    tier: G::Tier,
    records: Records<'_>,
    pos: &G::Pos,
    moves: &mut Vec<G::Move>,
) -> Result<std::result::Result<(Value, u32), String>> {
    let game = oracle.game();
    if let Some(v) = game.outcome(pos) {
        return Ok(Ok((v, 0)));
    }
    game.legal_moves(pos, moves);
    if moves.is_empty() {
        return Ok(Err("not terminal, yet no legal move".into()));
    }
    let mut best_win: Option<u32> = None; // least distance of a child lost by its mover
    let mut worst_loss: u32 = 0; // greatest distance of a child won by its mover
    let mut all_win = true;
    for &m in moves.iter() {
        let child = game.play(pos, m);
        let value = match game.outcome(&child) {
            Some(v) => (v, 0),
            None => {
                let ct = game.tier_of(&child);
                let found = if ct == tier {
                    let i = game.rank(tier, &child);
                    match records.get(i)? {
                        None => {
                            return Ok(Err(format!(
                                "child {} ranks to {i}, outside the tier",
                                game.format_move(pos, m)
                            )))
                        }
                        Some(r) => decode(r),
                    }
                } else {
                    match oracle.record(&child)? {
                        None => {
                            return Err(Error::table(
                                oracle.set().dir(),
                                TableFault::Missing,
                                format!(
                                    "tier {} has no table, but verifying tier {} needs it",
                                    game.tier_name(ct),
                                    game.tier_name(tier)
                                ),
                            ))
                        }
                        Some(r) => decode(r),
                    }
                };
                match found {
                    Some(v) => v,
                    None => {
                        return Ok(Err(format!(
                            "child after {} ({}) has an empty slot",
                            game.format_move(pos, m),
                            game.format_position(&child)
                        )))
                    }
                }
            }
        };
        match value {
            (Value::Loss, d) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            (Value::Win, d) => worst_loss = worst_loss.max(d),
            (Value::Draw, _) => all_win = false,
        }
        if value.0 != Value::Win {
            all_win = false;
        }
    }
    let derived = if let Some(d) = best_win {
        (Value::Win, d + 1)
    } else if all_win {
        (Value::Loss, worst_loss + 1)
    } else {
        (Value::Draw, 0)
    };
    if derived.1 > MAX_DISTANCE {
        return Ok(Err(format!(
            "distance {} exceeds the record range",
            derived.1
        )));
    }
    Ok(Ok(derived))
}

/// A disagreeing slot: (position text, what the children say).
type Disagreement = (Option<String>, String);

/// What one slot holds.
enum Slot {
    /// No position.
    Empty,
    /// A position whose orbit has this size (`None`: not computed).
    Class(Option<u64>),
}

/// Checks one slot: what it holds, and the disagreement if any.
fn check_slot<G: TierGame>(
    oracle: &TableOracle<G>,
    tier: G::Tier,
    records: Records<'_>,
    index: u64,
    moves: &mut Vec<G::Move>,
    orbits: bool,
) -> Result<(Slot, Option<Disagreement>)> {
    let game = oracle.game();
    let stored = records.get(index)?.unwrap_or(REC_NONE);
    let Some(pos) = game.unrank(tier, index) else {
        return Ok((
            Slot::Empty,
            (stored != REC_NONE).then(|| (None, "none (the slot holds no position)".into())),
        ));
    };
    let slot = Slot::Class(if orbits { game.orbit_size(&pos) } else { None });
    let text = || Some(game.format_position(&pos));
    if game.tier_of(&pos) != tier {
        return Ok((
            slot,
            Some((
                text(),
                format!(
                    "unrank gives a position of tier {}",
                    game.tier_name(game.tier_of(&pos))
                ),
            )),
        ));
    }
    let back = game.rank(tier, &pos);
    if back != index {
        return Ok((
            slot,
            Some((text(), format!("rank(unrank({index})) = {back}"))),
        ));
    }
    Ok(match derive(oracle, tier, records, &pos, moves)? {
        Ok((v, d)) if encode(v, d) == stored => (slot, None),
        Ok((v, d)) => (slot, Some((text(), record_text(encode(v, d))))),
        Err(reason) => (slot, Some((text(), reason))),
    })
}

/// Counts of checked slots (one parallel chunk, or a whole tier once merged).
struct Tally {
    /// Slots holding a position.
    positions: u64,
    /// Slots whose record disagrees.
    mismatches: u64,
    /// Sum of the positions' orbit sizes (`None` once a position had none).
    covered: Option<u64>,
    /// Up to [`EXAMPLES`] disagreeing slots.
    examples: Vec<Mismatch>,
}

impl Tally {
    fn new() -> Self {
        Tally {
            positions: 0,
            mismatches: 0,
            covered: Some(0),
            examples: Vec::new(),
        }
    }

    /// Counts the result of [`check_slot`] for slot `index` of tier `tier`; `stored`
    /// gives the slot's record, read only for an example.
    fn add(
        &mut self,
        tier: &str,
        index: u64,
        (slot, mismatch): (Slot, Option<Disagreement>),
        stored: impl FnOnce() -> Result<u16>,
    ) -> Result<()> {
        if let Slot::Class(orbit) = slot {
            self.positions += 1;
            self.covered = self.covered.zip(orbit).map(|(a, b)| a.saturating_add(b));
        }
        if let Some((position, derived)) = mismatch {
            self.mismatches += 1;
            if self.examples.len() < EXAMPLES {
                self.examples.push(Mismatch {
                    tier: tier.to_string(),
                    index,
                    position,
                    stored: record_text(stored()?),
                    derived,
                });
            }
        }
        Ok(())
    }

    /// The chunks' counts added up (the first [`EXAMPLES`] examples kept).
    fn merge(chunks: Vec<Tally>) -> Tally {
        let mut total = Tally::new();
        for c in chunks {
            total.positions += c.positions;
            total.mismatches += c.mismatches;
            total.covered = total
                .covered
                .zip(c.covered)
                .map(|(a, b)| a.saturating_add(b));
            total.examples.extend(c.examples);
        }
        total.examples.truncate(EXAMPLES);
        total
    }
}

/// Verifies the table of `tier` in the oracle's directory; with `placements`,
/// accounts for the orbits of its classes too (orbit accounting (this module's docs)).
pub(crate) fn verify_tier<G: TierGame>(
    oracle: &TableOracle<G>,
    tier: G::Tier,
    placements: Option<Placements<G>>,
    progress: &dyn Progress,
) -> Result<(TierCheck, Vec<Mismatch>)> {
    let start = Instant::now();
    let game = oracle.game();
    let name = game.tier_name(tier);
    let records = oracle.required_table(tier)?.read_all()?;
    let n = records.len() as u64;
    progress.stage(&format!("verify {name}"), n);
    let orbits = placements.is_some();
    let chunks: Vec<Tally> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            let mut moves = Vec::new();
            let mut tally = Tally::new();
            let end = ((c + 1) * CHUNK).min(n);
            for index in c * CHUNK..end {
                let checked = check_slot(
                    oracle,
                    tier,
                    Records::All(&records),
                    index,
                    &mut moves,
                    orbits,
                )?;
                tally.add(&name, index, checked, || Ok(records[index as usize]))?;
            }
            progress.advance(end - c * CHUNK);
            Ok(tally)
        })
        .collect::<Result<_>>()?;
    progress.finish_stage();
    let total = Tally::merge(chunks);
    let placements = placements.map(|f| f(game, tier));
    let covered = total.covered.filter(|_| placements.is_some());
    let check = TierCheck {
        tier: name,
        records: n,
        positions: total.positions,
        mismatches: total.mismatches,
        placements,
        covered,
        orbits_agree: covered.zip(placements).map(|(c, p)| c == p),
        seconds: start.elapsed().as_secs_f64(),
        sampled_slots: None,
    };
    Ok((check, total.examples))
}

/// Slots of one sampling work unit.
const SAMPLE_CHUNK: u64 = 256;

/// Verifies `slots` slots of the table of `tier` drawn at random (uniformly, with
/// replacement; the draws depend only on `seed`, the tier's name and `slots`), reading
/// the tier's own records through the block cache instead of decoding the whole table.
/// `slots` is capped at the tier's size, and a sample as large as the tier checks
/// every slot once instead (`--sample 1000000` on a tier of 4,144 slots drew
/// 1,000,000 times and reported 23,023,296 positions).
pub(crate) fn sample_tier<G: TierGame>(
    oracle: &TableOracle<G>,
    tier: G::Tier,
    slots: u64,
    seed: u64,
    progress: &dyn Progress,
) -> Result<(TierCheck, Vec<Mismatch>)> {
    let start = Instant::now();
    let name = oracle.game().tier_name(tier);
    let table = oracle.required_table(tier)?;
    let n = table.records();
    let slots = slots.min(n);
    let every_slot = slots == n;
    let base = mix64(seed ^ hash_str(&name));
    progress.stage(&format!("sample {name}"), slots);
    let chunks: Vec<Tally> = (0..slots.div_ceil(SAMPLE_CHUNK))
        .into_par_iter()
        .map(|c| {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            let mut rng = Rng::new(mix64(base.wrapping_add(c)));
            let mut moves = Vec::new();
            let mut tally = Tally::new();
            let count = SAMPLE_CHUNK.min(slots - c * SAMPLE_CHUNK);
            for k in 0..count {
                if n == 0 {
                    break;
                }
                let index = if every_slot {
                    c * SAMPLE_CHUNK + k
                } else {
                    rng.next_u64() % n
                };
                let records = Records::Table(&table);
                let checked = check_slot(oracle, tier, records, index, &mut moves, false)?;
                tally.add(&name, index, checked, || table.get(index))?;
            }
            progress.advance(count);
            Ok(tally)
        })
        .collect::<Result<_>>()?;
    progress.finish_stage();
    let total = Tally::merge(chunks);
    let check = TierCheck {
        tier: name,
        records: n,
        positions: total.positions,
        mismatches: total.mismatches,
        placements: None,
        covered: None,
        orbits_agree: None,
        seconds: start.elapsed().as_secs_f64(),
        sampled_slots: Some(slots),
    };
    Ok((check, total.examples))
}

/// Parses the tier names of the tables in `dir`, sorted in tier order, and refuses an
/// incomplete directory ([`super::complete::check_complete`]).
pub(crate) fn dir_tiers<G: TierGame>(game: &G, dir: &Path) -> Result<Vec<G::Tier>> {
    let mut tiers = Vec::new();
    for name in list_tiers(dir)? {
        let tier = game.parse_tier(&name).map_err(|e| {
            Error::table(
                super::format::table_path(dir, &name),
                TableFault::WrongTier,
                format!("file name is not a tier of {}: {e}", game.rules_string()),
            )
        })?;
        tiers.push(tier);
    }
    tiers.sort();
    if tiers.is_empty() {
        return Err(Error::table(
            dir,
            TableFault::Missing,
            "no table files (*.hst) in this directory",
        ));
    }
    super::complete::check_complete(game, dir, &tiers)?;
    Ok(tiers)
}

/// Verifies every table in `dir` (checking each file's checksums and rules too)
/// with the default block cache ([`super::DEFAULT_CACHE_BYTES`]), without orbit
/// accounting (see [`verify_dir_with`]).
pub fn verify_dir<G: TierGame>(
    game: &G,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<VerifyReport> {
    verify_dir_with(game, dir, super::DEFAULT_CACHE_BYTES, None, progress)
}

/// Verifies every table in `dir` with a block cache of `cache_bytes` decoded bytes
/// and, with `placements`, the orbit accounting (this module's docs) of every tier. Drops and
/// captures land all over a child tier's index, so a cache smaller than the child
/// tables decodes a block per probe; one that holds them decodes each block once.
pub fn verify_dir_with<G: TierGame>(
    game: &G,
    dir: &Path,
    cache_bytes: usize,
    placements: Option<Placements<G>>,
    progress: &dyn Progress,
) -> Result<VerifyReport> {
    verify_dir_scoped(
        game,
        dir,
        cache_bytes,
        placements,
        &VerifyScope::default(),
        progress,
    )
}

/// [`verify_dir_with`] on the tiers `scope` selects: some in full, the others by a
/// random sample of their slots, or only some. A name in `scope.full` that is not
/// a table of `dir` is an error.
pub fn verify_dir_scoped<G: TierGame>(
    game: &G,
    dir: &Path,
    cache_bytes: usize,
    placements: Option<Placements<G>>,
    scope: &VerifyScope,
    progress: &dyn Progress,
) -> Result<VerifyReport> {
    crate::game::require_cycles_drawn(game, "verify")?;
    let oracle = TableOracle::with_set(game, super::TableSet::new(dir, cache_bytes)?);
    let mut report = VerifyReport {
        rules: game.rules_string(),
        tiers: Vec::new(),
        positions: 0,
        mismatches: 0,
        orbit_mismatches: 0,
        orbits_checked: 0,
        examples: Vec::new(),
    };
    let tiers = dir_tiers(game, dir)?;
    if let Some(names) = &scope.full {
        for name in names {
            if !tiers.iter().any(|&t| game.tier_name(t) == *name) {
                return Err(Error::table(
                    dir,
                    TableFault::Missing,
                    format!("no table for tier {}", crate::error::quote(name)),
                ));
            }
        }
    }
    for tier in tiers {
        let name = game.tier_name(tier);
        let full = match &scope.full {
            Some(names) => names.contains(&name),
            None => scope.sample.is_none(),
        };
        let (check, examples) = if full {
            verify_tier(&oracle, tier, placements, progress)?
        } else if let Some((slots, seed)) = scope.sample {
            sample_tier(&oracle, tier, slots, seed, progress)?
        } else {
            continue;
        };
        report.positions += check.positions;
        report.mismatches += check.mismatches;
        if let Some(agree) = check.orbits_agree {
            report.orbits_checked += 1;
            report.orbit_mismatches += u64::from(!agree);
        }
        report.tiers.push(check);
        report.examples.extend(examples);
    }
    Ok(report)
}
