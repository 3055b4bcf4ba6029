//! The plan of a solve: its tiers in waves, sizes, and every memory estimate
//! of a tier and its checks, in one place: the full solver's batches, the
//! compact solver (children dense or sparse), out of core (its parts, its
//! floor), a part of a tier split across processes (`part_memory`), the
//! least limit a plan needs; and sizes as text. The methods' own layouts
//! give the byte counts of a slot (`compact::ooc::ooc_part_bytes` and
//! `share_bytes` for a part on disk); this file composes them.

use super::{Compact, WORK_BYTES_PER_SLOT};
use crate::error::{quote, Error, Result};
use crate::retro::compact::ooc::ooc_part_bytes;
use crate::retro::compact::CompactKind;
use crate::retro::scope::{Scope, Solvable};
use crate::retro::solver::SPARSE_BYTES_PER_64_SLOTS;
use crate::tier::TierGame;
use std::collections::BTreeMap;

/// The tiers of a scope in solving order, with sizes and the memory estimate.
#[derive(Clone, Debug)]
pub struct Plan<T> {
    /// Waves of mutually independent tiers; every child of a wave lies in an earlier wave.
    pub waves: Vec<Vec<T>>,
    /// Total index slots.
    pub slots: u64,
    /// Total placements (positions with side to move, before symmetry reduction).
    pub placements: u64,
    /// Peak bytes estimated: the largest wave's working memory plus its children's records.
    pub memory: u64,
    /// Peak bytes with one tier at a time: the largest tier's working memory plus its
    /// children's records. [`super::solve`] falls back to smaller batches of a wave (down to
    /// one tier) when `memory` exceeds the limit but this does not.
    pub memory_serial: u64,
    /// Peak bytes one tier at a time with the compact solver for every tier that
    /// exceeds a limit (`compact_memory`): the least [`Compact::Auto`] runs with.
    pub memory_compact: u64,
    /// As `memory_compact` with the children of every tier held sparse
    /// (`compact_memory`), before their decided records: what `--compact auto`
    /// needs at least when `memory_compact` is over the limit.
    pub memory_sparse: u64,
    /// Expected CPU seconds ([`Solvable::core_rate`] of each tier): a rough guide.
    pub cpu_seconds: f64,
}

impl<T> Plan<T> {
    /// Number of tiers.
    pub fn tiers(&self) -> usize {
        self.waves.iter().map(|w| w.len()).sum()
    }
}

/// Refuses, before they are built, ranking tables larger than `limit` (see
/// [`Solvable::index_bytes`]): building them is the first thing a plan does.
pub fn check_index<G: Solvable>(game: &G, limit: Option<u64>) -> Result<()> {
    let bytes = game.index_bytes().ok_or_else(|| {
        Error::Memory(format!(
            "{}: the ranking tables alone would need more than 2^64 bytes",
            game.rules_string()
        ))
    })?;
    match limit {
        Some(l) if bytes > l => Err(Error::Memory(format!(
            "{}: the ranking tables alone need about {}, but the limit is {}; raise --memory or choose fewer hunters or a smaller board",
            game.rules_string(),
            format_bytes(bytes),
            format_bytes(l)
        ))),
        _ => Ok(()),
    }
}

/// A sum of sizes, or an error naming what is too large to count.
pub(super) fn checked_total(parts: impl IntoIterator<Item = u64>, what: &str) -> Result<u64> {
    parts
        .into_iter()
        .try_fold(0u64, |a, b| a.checked_add(b).filter(|&s| s < u64::MAX))
        .ok_or_else(|| Error::Memory(format!("too large: the {what} do not fit in 64 bits")))
}

/// Orders the tiers of `scope` and estimates the memory needed. Refuses ranking
/// tables larger than this machine's memory before building them, and sizes that
/// overflow 64 bits.
pub fn plan<G: Solvable>(game: &G, scope: &Scope) -> Result<Plan<G::Tier>> {
    crate::game::require_cycles_drawn(game, "solve")?;
    check_index(game, default_memory_limit())?;
    let mut tiers = game.scope_tiers(scope)?;
    let any = !tiers.is_empty();
    // Terminal tiers are never stored (see `TierGame::tier_is_terminal`).
    tiers.retain(|&t| !game.tier_is_terminal(t));
    if tiers.is_empty() {
        return Err(Error::Usage(if any {
            format!(
                "scope '{}' of {} holds only positions that are already over (nothing to solve)",
                scope.name(),
                game.rules_string()
            )
        } else {
            format!(
                "scope '{}' holds no tier of {}",
                scope.name(),
                game.rules_string()
            )
        }));
    }
    let inside: std::collections::BTreeSet<G::Tier> = tiers.iter().copied().collect();
    // Wave of a tier: 0 without children, else 1 + the highest wave of its children.
    let mut wave: BTreeMap<G::Tier, usize> = BTreeMap::new();
    fn level<G: TierGame>(
        game: &G,
        t: G::Tier,
        inside: &std::collections::BTreeSet<G::Tier>,
        wave: &mut BTreeMap<G::Tier, usize>,
        depth: usize,
    ) -> Result<usize> {
        if let Some(&w) = wave.get(&t) {
            return Ok(w);
        }
        if depth > inside.len() {
            return Err(Error::Internal(format!(
                "the tier graph has a cycle through {}",
                game.tier_name(t)
            )));
        }
        let mut w = 0;
        for c in game.stored_children(t) {
            if !inside.contains(&c) {
                return Err(Error::Internal(format!(
                    "tier {} needs child {} outside the scope",
                    game.tier_name(t),
                    game.tier_name(c)
                )));
            }
            w = w.max(1 + level(game, c, inside, wave, depth + 1)?);
        }
        wave.insert(t, w);
        Ok(w)
    }
    for &t in &tiers {
        level(game, t, &inside, &mut wave, 0)?;
    }
    let nw = wave.values().max().map_or(0, |&w| w + 1);
    let mut waves: Vec<Vec<G::Tier>> = vec![Vec::new(); nw];
    for (&t, &w) in &wave {
        waves[w].push(t);
    }
    // Saturated sizes (`u64::MAX`) count as overflow too.
    let slots = checked_total(tiers.iter().map(|&t| game.tier_size(t)), "index slots")?;
    let placements = checked_total(tiers.iter().map(|&t| game.tier_placements(t)), "positions")?;
    let memory = peak(waves.iter().map(|w| batch_memory(game, w)))?;
    let memory_serial = peak(tiers.iter().map(|&t| batch_memory(game, &[t])))?;
    let memory_compact = peak(
        tiers
            .iter()
            .map(|&t| compact_memory(game, t, CompactKind::Plain, false)),
    )?;
    let memory_sparse = peak(
        tiers
            .iter()
            .map(|&t| compact_memory(game, t, CompactKind::Plain, true)),
    )?;
    let cpu_seconds = tiers
        .iter()
        .map(|&t| game.tier_size(t) as f64 / game.core_rate(t))
        .sum();
    Ok(Plan {
        waves,
        slots,
        placements,
        memory,
        memory_serial,
        memory_compact,
        memory_sparse,
        cpu_seconds,
    })
}

/// The largest of some estimates (0 for none), or the first that failed.
fn peak(mut sizes: impl Iterator<Item = Result<u64>>) -> Result<u64> {
    sizes.try_fold(0u64, |m, x| Ok(m.max(x?)))
}

/// Estimated bytes to solve `batch` at once: working memory of its tiers plus the
/// records of their (distinct) stored children.
pub(crate) fn batch_memory<G: TierGame>(game: &G, batch: &[G::Tier]) -> Result<u64> {
    let slots = checked_total(batch.iter().map(|&t| game.tier_size(t)), "index slots")?;
    let kids: std::collections::BTreeSet<G::Tier> = batch
        .iter()
        .flat_map(|&t| game.stored_children(t))
        .collect();
    let kid_slots = checked_total(kids.iter().map(|&c| game.tier_size(c)), "index slots")?;
    slots
        .checked_mul(WORK_BYTES_PER_SLOT)
        .and_then(|w| w.checked_add(kid_slots.checked_mul(2)?))
        .ok_or_else(|| {
            Error::Memory("too large: the memory estimate does not fit in 64 bits".into())
        })
}

/// Estimated bytes to solve `tier` alone with the compact solver of `kind`: one
/// or two bytes a slot (`CompactKind::bytes_per_slot`), its distance sets
/// (16 bytes per 4,096 slots) and the records of its stored children, two bytes
/// a slot, or held sparse ([`SparseRecords`](crate::retro::SparseRecords)) 9/64
/// byte a slot before their decided records, which are counted when they are
/// loaded (`check_loaded`).
pub(crate) fn compact_memory<G: TierGame>(
    game: &G,
    tier: G::Tier,
    kind: CompactKind,
    sparse: bool,
) -> Result<u64> {
    let kid_slots = checked_total(
        game.stored_children(tier)
            .into_iter()
            .map(|c| game.tier_size(c)),
        "index slots",
    )?;
    let kids = if sparse {
        Some(sparse_bytes(kid_slots))
    } else {
        kid_slots.checked_mul(2)
    };
    kids.and_then(|k| compact_bytes(game.tier_size(tier), kind, k))
        .ok_or_else(|| {
            Error::Memory("too large: the memory estimate does not fit in 64 bits".into())
        })
}

/// How one tier is solved under a memory limit and a `--compact` choice,
/// decided in one place (`tier_method`): the driver executes it (and so the
/// MPI workers, through the driver's per-tier step), `solve` prints it for the
/// largest tier with its estimate (`method_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TierMethod {
    /// The full solver (its words and frontier lists, `WORK_BYTES_PER_SLOT`
    /// a slot), the children's every record read.
    Full,
    /// The compact solver of this kind; the children's records whole, or held
    /// sparse (then the kind is chosen again on their real size once loaded,
    /// and a tier that fits neither kind is refused before its state is made).
    Compact {
        /// Counted (two bytes a slot) or plain (one).
        kind: CompactKind,
        /// The children's records held sparse (`sparse_children`).
        sparse_children: bool,
    },
    /// Out of core: the compact solver's counted kind with the tier's bytes in
    /// this many parts on disk, one in memory at a time, the children's
    /// records held sparse (where not even the plain compact solver with
    /// sparse children fits the limit).
    OutOfCore {
        /// Parts of the tier (fewest that fit the limit).
        parts: usize,
    },
}

impl TierMethod {
    /// Whether the tier's children are held sparse.
    pub(crate) fn sparse_children(self) -> bool {
        matches!(
            self,
            TierMethod::Compact {
                sparse_children: true,
                ..
            } | TierMethod::OutOfCore { .. }
        )
    }
}

impl std::fmt::Display for TierMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TierMethod::Full => f.write_str("full solver"),
            TierMethod::Compact {
                kind,
                sparse_children,
            } => write!(
                f,
                "compact solver ({}){}",
                kind.describe(),
                if *sparse_children {
                    ", child records held sparse"
                } else {
                    ""
                }
            ),
            TierMethod::OutOfCore { parts } => write!(
                f,
                "out of core: compact solver (two bytes a slot) in {parts} parts on disk, one in memory at a time, child records held sparse"
            ),
        }
    }
}

/// The one choice of how `tier` is solved: full where `compact` and `limit`
/// leave it so ([`Compact::applies`]), else compact, its children held sparse
/// where even the plain compact solver with every child record exceeds the
/// limit, counted where two bytes a slot fit, else plain; out of core (the
/// fewest parts that fit, `ooc_parts`) where even the plain compact solver
/// with sparse children exceeds the limit.
pub(crate) fn tier_method<G: TierGame>(
    game: &G,
    tier: G::Tier,
    compact: Compact,
    limit: Option<u64>,
) -> TierMethod {
    if !compact.applies(game, tier, limit) {
        return TierMethod::Full;
    }
    let sparse = sparse_children(game, tier, compact, limit);
    let kind = compact_kind(game, tier, limit, sparse);
    let over = limit.filter(|&l| compact_memory(game, tier, kind, sparse).is_ok_and(|m| m > l));
    if let Some(parts) =
        over.and_then(|l| ooc_parts(game.tier_size(tier), sparse_estimate(game, tier)?, l))
    {
        return TierMethod::OutOfCore { parts };
    }
    TierMethod::Compact {
        kind,
        sparse_children: sparse,
    }
}

/// Most parts an out-of-core tier is cut into.
const MAX_OOC_PARTS: u64 = 4096;

/// The least bytes a tier of `slots` slots needs out of core beside `kids`
/// bytes of child records: its part size at the number of parts (two to the
/// most) that needs least; `None` for a tier too small to be cut in two.
pub(crate) fn ooc_floor(slots: u64, kids: u64) -> Option<u64> {
    let most = slots.div_ceil(1 << 12).min(MAX_OOC_PARTS);
    (2..=most)
        .map(|p| kids.saturating_add(ooc_part_bytes(slots, p)))
        .min()
}

/// The least memory limit under which `tier` has a method at all: alone in
/// the full solver, in the compact solver (one byte a slot) with its children
/// held sparse, or out of core in the parts that need least, as `compact`
/// allows; `None` where no estimate fits 64 bits.
pub(crate) fn tier_floor<G: TierGame>(game: &G, tier: G::Tier, compact: Compact) -> Option<u64> {
    let full = batch_memory(game, &[tier]).ok();
    if compact == Compact::Never {
        return full;
    }
    let plain = compact_memory(game, tier, CompactKind::Plain, true).ok();
    let ooc = sparse_estimate(game, tier).and_then(|k| ooc_floor(game.tier_size(tier), k));
    let full = if compact == Compact::Always {
        None
    } else {
        full
    };
    [full, plain, ooc].into_iter().flatten().min()
}

/// The fewest parts (two or more) of a tier of `slots` slots solved out of
/// core beside `kids` bytes of child records within `limit`, if any.
pub(crate) fn ooc_parts(slots: u64, kids: u64, limit: u64) -> Option<usize> {
    let most = slots.div_ceil(1 << 12).min(MAX_OOC_PARTS);
    (2..=most)
        .find(|&p| kids.saturating_add(ooc_part_bytes(slots, p)) <= limit)
        .map(|p| p as usize)
}

/// The planned bytes of `tier`'s children held sparse (before their decided records).
pub(crate) fn sparse_estimate<G: TierGame>(game: &G, tier: G::Tier) -> Option<u64> {
    let kid_slots = checked_total(
        game.stored_children(tier)
            .into_iter()
            .map(|c| game.tier_size(c)),
        "index slots",
    )
    .ok()?;
    Some(sparse_bytes(kid_slots))
}

/// Planned bytes of `slots` child slots held sparse, before their decided records.
fn sparse_bytes(slots: u64) -> u64 {
    slots / 64 * SPARSE_BYTES_PER_64_SLOTS + SPARSE_BYTES_PER_64_SLOTS
}

/// The planned bytes of `tier` solved by `method` (sparse children before
/// their decided records, which are counted when loaded).
pub(crate) fn method_memory<G: TierGame>(
    game: &G,
    tier: G::Tier,
    method: TierMethod,
) -> Result<u64> {
    match method {
        TierMethod::Full => batch_memory(game, &[tier]),
        TierMethod::Compact {
            kind,
            sparse_children,
        } => compact_memory(game, tier, kind, sparse_children),
        TierMethod::OutOfCore { parts } => sparse_estimate(game, tier)
            .and_then(|k| k.checked_add(ooc_part_bytes(game.tier_size(tier), parts as u64)))
            .ok_or_else(|| {
                Error::Memory("too large: the memory estimate does not fit in 64 bits".into())
            }),
    }
}

/// Bytes of the compact solver of `kind` on a tier of `slots` slots (its bytes
/// and distance sets) beside `kids` bytes of child records; `None` past 64 bits.
pub(crate) fn compact_bytes(slots: u64, kind: CompactKind, kids: u64) -> Option<u64> {
    slots
        .checked_mul(kind.bytes_per_slot())?
        .checked_add(slots / 256)?
        .checked_add(kids)
}

/// Whether `tier`'s stored children are held sparse under `limit`: it is solved
/// compact, and even the plain compact solver with its children's every record
/// would exceed the limit.
pub(crate) fn sparse_children<G: TierGame>(
    game: &G,
    tier: G::Tier,
    compact: Compact,
    limit: Option<u64>,
) -> bool {
    limit.is_some_and(|l| {
        compact.applies(game, tier, Some(l))
            && compact_memory(game, tier, CompactKind::Plain, false).is_ok_and(|m| m > l)
    })
}

/// The compact solver's kind for `tier` under `limit` (its children held sparse
/// or not): counted (two bytes a slot) where that fits, plain (one) otherwise.
pub(crate) fn compact_kind<G: TierGame>(
    game: &G,
    tier: G::Tier,
    limit: Option<u64>,
    sparse: bool,
) -> CompactKind {
    let fits = |l| compact_memory(game, tier, CompactKind::Counted, sparse).is_ok_and(|m| m <= l);
    if limit.is_none_or(fits) {
        CompactKind::Counted
    } else {
        CompactKind::Plain
    }
}

/// The compact solver's kind for `tier` once its children are loaded (`kids`
/// bytes of their records, sparse wins and losses counted): counted where that
/// fits `limit`, plain where only that does, `None` where neither does.
pub(crate) fn compact_kind_loaded<G: TierGame>(
    game: &G,
    tier: G::Tier,
    limit: Option<u64>,
    kids: u64,
) -> Option<CompactKind> {
    let slots = game.tier_size(tier);
    [CompactKind::Counted, CompactKind::Plain]
        .into_iter()
        .find(|&k| limit.is_none_or(|l| compact_bytes(slots, k, kids).is_some_and(|m| m <= l)))
}

/// Splits a wave into consecutive batches whose [`batch_memory`] fits `limit`
/// (a tier alone always forms a batch; the caller checked it fits).
pub(super) fn batches<G: TierGame>(
    game: &G,
    wave: &[G::Tier],
    limit: Option<u64>,
) -> Vec<Vec<G::Tier>> {
    let Some(limit) = limit else {
        return vec![wave.to_vec()];
    };
    let mut out: Vec<Vec<G::Tier>> = Vec::new();
    let mut cur: Vec<G::Tier> = Vec::new();
    for &t in wave {
        cur.push(t);
        if cur.len() > 1 && batch_memory(game, &cur).unwrap_or(u64::MAX) > limit {
            cur.pop();
            out.push(std::mem::take(&mut cur));
            cur.push(t);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// 80 % of `MemAvailable` from /proc/meminfo, if readable.
pub fn default_memory_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024 / 10 * 8)
}

/// Parses a size such as `512M`, `8G`, `1.5G`, `100000` (bytes).
pub fn parse_size(text: &str) -> Result<u64> {
    let t = text.trim();
    let q = quote(t);
    let (num, mul) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => {
            let unit = t[i..].to_ascii_uppercase();
            let mul = match unit.trim_end_matches("IB").trim_end_matches('B') {
                "" => 1u64,
                "K" => 1 << 10,
                "M" => 1 << 20,
                "G" => 1 << 30,
                "T" => 1 << 40,
                _ => {
                    return Err(Error::Usage(format!(
                        "size {q}: unknown unit; use K, M, G or T"
                    )))
                }
            };
            (&t[..i], mul)
        }
        None => (t, 1),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| Error::Usage(format!("size {q} is not a number with a unit (e.g. 8G)")))?;
    if v.is_nan() || v < 0.0 || !v.is_finite() {
        return Err(Error::Usage(format!("size {q} must be non-negative")));
    }
    let bytes = v * mul as f64;
    // `as u64` would saturate silently: 99999999999999999999G is a typo, not "no limit".
    if bytes >= u64::MAX as f64 {
        return Err(Error::Usage(format!(
            "size {q} is larger than any memory (at most 16 EiB)"
        )));
    }
    Ok(bytes as u64)
}

/// Human-readable bytes (`1.5 GiB`).
pub fn format_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// Refuses a plan whose largest tier (with its children's records) exceeds
/// `limit`, even with the compact solver where `compact` allows it.
pub(crate) fn check_memory_serial<G: Solvable>(
    game: &G,
    scope: &Scope,
    plan: &Plan<G::Tier>,
    limit: Option<u64>,
    compact: Compact,
) -> Result<()> {
    let Some(limit) = limit else {
        return Ok(());
    };
    let (need, how) = match compact {
        Compact::Never => (plan.memory_serial, ""),
        // A tier's compact estimate is below its full one: the plan fits when
        // every tier fits one way or the other, that is when the compact one does.
        Compact::Auto if plan.memory_serial > limit => (
            plan.memory_compact,
            " with the compact solver for the largest tiers",
        ),
        Compact::Auto => (plan.memory_serial, ""),
        Compact::Always => (plan.memory_compact, " with the compact solver"),
    };
    // Over the limit compact: the largest tiers' children held sparse, their
    // decided records checked against the limit when loaded (`check_loaded`).
    let (need, how) = if compact != Compact::Never && need > limit {
        (
            plan.memory_sparse,
            " with the compact solver and the largest tiers' child records held sparse (before their wins and losses, a byte or two each)",
        )
    } else {
        (need, how)
    };
    // Past that, a tier may go out of core (its parts on disk): the plan fits
    // when every tier fits one way.
    let fits_out_of_core = || {
        !plan.waves.is_empty()
            && plan.waves.iter().flatten().all(|&t| {
                let m = tier_method(game, t, compact, Some(limit));
                method_memory(game, t, m).is_ok_and(|b| b <= limit)
            })
    };
    if need > limit && (compact == Compact::Never || !fits_out_of_core()) {
        // The true minimum: the largest of the tiers' least needs, each tier
        // by the method that needs least (out of core, below the compact
        // solver's figure above).
        let floor = plan
            .waves
            .iter()
            .flatten()
            .map(|&t| (tier_floor(game, t, compact).unwrap_or(u64::MAX), t))
            .max_by_key(|&(b, _)| b);
        let least = match floor {
            Some((b, t)) if b < need => format!(
                "; the least --memory that fits is about {} (--memory {b}) before the children's won and lost records, counted when loaded (tier {} {})",
                format_bytes(b),
                game.tier_name(t),
                if compact == Compact::Never {
                    "in the full solver; without --no-compact less would do".to_string()
                } else {
                    format!("by {}", tier_method(game, t, compact, Some(b)))
                }
            ),
            _ => String::new(),
        };
        return Err(Error::Memory(format!(
            "{} ({} scope) needs about {} even one tier at a time{how}, but the limit is {}{least}; raise --memory or choose a smaller scope",
            game.rules_string(),
            scope.name(),
            format_bytes(need),
            format_bytes(limit)
        )));
    }
    Ok(())
}

// ---- Split tiers: what a part of a tier solved across processes needs.

/// Bytes of state per slot of a part's range: record, counter and exit bits,
/// 2 bytes each.
pub(crate) const SPLIT_STATE_BYTES_PER_SLOT: u64 = 6;
/// Bytes per slot of a part's range counted for its frontier lists (4 bytes an
/// entry; not every slot is listed at once) on top of the state.
pub(crate) const SPLIT_FRONTIER_BYTES_PER_SLOT: u64 = 2;

/// Update records a part of a compact split tier with `share` slots gathers
/// for the others before a round's exchange (8 bytes each): a 256th of its
/// share, from 2^10 to 2^20. A round's records are copied about six times on
/// their way (gathered, the message, the transport's send and receive
/// buffers, the received messages, the records applied), so its buffers stay
/// within about 1/5 of a byte a slot beside the state's two.
pub(crate) fn round_records(share: u64) -> usize {
    (share / 256).clamp(1 << 10, 1 << 20) as usize
}

/// Bytes of a compact split round's buffers (six copies of its records).
pub(crate) fn round_bytes(share: u64) -> u64 {
    round_records(share) as u64 * 8 * 6
}

/// Estimated bytes a part needs to solve `tier` split into `parts`: on the
/// compact encoding with `compact` (`compact_part_memory`), else by the
/// full split solver: its share of the state and frontier, and the records of
/// the tier's stored children, whole.
pub fn part_memory<G: TierGame>(
    game: &G,
    tier: G::Tier,
    parts: usize,
    compact: bool,
) -> Result<u64> {
    if compact {
        return compact_part_memory(game, tier, parts);
    }
    let share = game.tier_size(tier).div_ceil(parts.max(1) as u64);
    let kids: u64 = game
        .stored_children(tier)
        .into_iter()
        .map(|c| game.tier_size(c))
        .try_fold(0u64, |a, b| a.checked_add(b))
        .ok_or_else(|| Error::Memory("the memory estimate does not fit in 64 bits".into()))?;
    share
        .checked_mul(SPLIT_STATE_BYTES_PER_SLOT + SPLIT_FRONTIER_BYTES_PER_SLOT)
        .and_then(|w| w.checked_add(kids.checked_mul(2)?))
        .ok_or_else(|| Error::Memory("the memory estimate does not fit in 64 bits".into()))
}

/// Estimated bytes a part needs to solve `tier` split into `parts` on the
/// compact encoding: its share's two bytes a slot, the children's records
/// held sparse (before their decided records, counted when loaded) and the
/// buffers of one round (sent and received).
pub(crate) fn compact_part_memory<G: TierGame>(
    game: &G,
    tier: G::Tier,
    parts: usize,
) -> Result<u64> {
    let share = game.tier_size(tier).div_ceil(parts.max(1) as u64);
    let kids = sparse_estimate(game, tier)
        .ok_or_else(|| Error::Memory("the memory estimate does not fit in 64 bits".into()))?;
    Ok(crate::retro::compact::ooc::share_bytes(share)
        .saturating_add(kids)
        .saturating_add(round_bytes(share)))
}

/// The largest [`part_memory`] of the tiers of `plan`.
pub(crate) fn plan_part_memory<G: TierGame>(
    game: &G,
    plan: &Plan<G::Tier>,
    parts: usize,
    compact: bool,
) -> Result<u64> {
    let mut most = 0;
    for &t in plan.waves.iter().flatten() {
        most = most.max(part_memory(game, t, parts, compact)?);
    }
    Ok(most)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one choice of a tier's method is the first of full, compact counted
    /// with every child record, plain, counted with the children sparse, plain
    /// sparse, whose estimate fits the limit (the last when none does), at
    /// every limit on either side of each estimate; `never` keeps it full and
    /// `always` compact.
    #[test]
    fn a_tier_s_method_is_the_first_that_fits() {
        let g = crate::hunt::from_spec("kaooa").unwrap();
        let p = plan(&g, &Scope::Whole).unwrap();
        let t = p
            .waves
            .iter()
            .flatten()
            .copied()
            .filter(|&t| !g.stored_children(t).is_empty())
            .max_by_key(|&t| g.tier_size(t))
            .unwrap();
        let order = [
            TierMethod::Full,
            TierMethod::Compact {
                kind: CompactKind::Counted,
                sparse_children: false,
            },
            TierMethod::Compact {
                kind: CompactKind::Plain,
                sparse_children: false,
            },
            TierMethod::Compact {
                kind: CompactKind::Counted,
                sparse_children: true,
            },
            TierMethod::Compact {
                kind: CompactKind::Plain,
                sparse_children: true,
            },
        ];
        let need: Vec<u64> = order
            .iter()
            .map(|&m| method_memory(&g, t, m).unwrap())
            .collect();
        assert!(
            need[0] > need[1] && need[1] > need[2] && need[3] > need[4],
            "{need:?}"
        );
        let mut seen = std::collections::BTreeSet::new();
        for l in need.iter().flat_map(|&n| [n, n - 1]) {
            let want = order
                .iter()
                .zip(&need)
                .find(|(_, &n)| n <= l)
                .map_or(order[4], |(&m, _)| m);
            let got = tier_method(&g, t, Compact::Auto, Some(l));
            assert_eq!(got, want, "limit {l}, estimates {need:?}");
            seen.insert(format!("{got}"));
            assert_eq!(
                tier_method(&g, t, Compact::Never, Some(l)),
                TierMethod::Full
            );
            assert!(matches!(
                tier_method(&g, t, Compact::Always, Some(l)),
                TierMethod::Compact { .. }
            ));
        }
        assert_eq!(seen.len(), order.len(), "{seen:?}");
        assert_eq!(tier_method(&g, t, Compact::Auto, None), TierMethod::Full);
        assert_eq!(
            tier_method(&g, t, Compact::Always, None),
            TierMethod::Compact {
                kind: CompactKind::Counted,
                sparse_children: false
            }
        );
        assert_eq!(
            format!("{}", order[3]),
            "compact solver (two bytes a slot: state and counter), child records held sparse"
        );
    }

    /// Over the compact estimate, `auto` and `always` fall back to the sparse one:
    /// accepted at it, refused below it, with a message that says so; `never`
    /// keeps the full estimate.
    #[test]
    fn the_sparse_estimate_is_the_last_resort() {
        let g = crate::hunt::from_spec("kaooa-6").unwrap();
        let plan = Plan::<crate::retro::hunt_tiers::HuntTier> {
            waves: Vec::new(),
            slots: 0,
            placements: 0,
            memory: 9000,
            memory_serial: 8000,
            memory_compact: 4000,
            memory_sparse: 1000,
            cpu_seconds: 0.0,
        };
        let check =
            |limit, compact| check_memory_serial(&g, &Scope::Whole, &plan, Some(limit), compact);
        for compact in [Compact::Auto, Compact::Always] {
            assert!(check(1000, compact).is_ok());
            let err = check(999, compact).unwrap_err().to_string();
            assert!(
                err.contains("held sparse") && err.contains("1000 B"),
                "{err}"
            );
        }
        let err = check(7999, Compact::Never).unwrap_err().to_string();
        assert!(
            !err.contains("sparse") && err.contains("one tier at a time"),
            "{err}"
        );
    }
}
