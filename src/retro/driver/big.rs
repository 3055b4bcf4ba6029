//! Tiers too large for the full solver's words: solved by the compact solver
//! ([`crate::retro::compact`]) or out of core, their tables written block by
//! block from the solver's bytes (no array of records is made).

use super::plan::{self, format_bytes};
use super::summary::tier_summary;
use super::{remove_checkpoint, tier_meta, TierSummary};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::retro::compact::CompactKind;
use crate::retro::scope::Solvable;
use crate::retro::solver::TierAt;
use crate::retro::solver::{Checkpointing, ChildValues};
use crate::table::{table_path, write_table_from};
use std::path::{Path, PathBuf};

/// [`super::solve_and_write_tier_with`] by the compact solver ([`super::compact`]) of
/// `kind`: the table is written block by block from its bytes, so no array of
/// records is made; a parent tier reads the records back from disk. With
/// `ckpt`, a valid checkpoint at `ckpt.path` is resumed from, and removed once
/// the table is written.
pub(crate) fn solve_and_write_tier_compact<G: Solvable>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    out_dir: &Path,
    (kind, ckpt): (CompactKind, Option<&Checkpointing>),
    progress: &dyn Progress,
) -> Result<TierSummary> {
    let name = game.tier_name(tier);
    let placements = game.tier_placements(tier);
    let tier_at = TierAt {
        game,
        tier,
        children,
    };
    let res =
        crate::retro::compact::solve_tier_compact_checkpointed(tier_at, kind, progress, ckpt)?;
    let meta = tier_meta(game, &name, res.len(), &res.stats, placements, res.seconds)?;
    write_table_from(&table_path(out_dir, &name), &meta, res.len(), &|r| {
        res.records(r)
    })?;
    if let Some(c) = ckpt {
        remove_checkpoint(&c.path)?;
    }
    Ok(tier_summary(&name, placements, &res.stats, res.seconds))
}

/// Directory of tier `name`'s out-of-core files: `DIR/<name>.ooc`.
pub(crate) fn ooc_path(out_dir: &Path, name: &str) -> PathBuf {
    out_dir.join(format!("{name}.ooc"))
}

/// Removes an out-of-core directory whose tier's table is safe on disk.
/// Only the solver's own files go, and the directory if that empties it.
pub(super) fn remove_ooc_dir(path: &Path) -> Result<()> {
    crate::retro::compact::ooc::remove_own(path)
}

/// [`solve_and_write_tier_compact`] out of core ([`super::compact::ooc`]): the
/// parts are the fewest that fit `limit` beside the loaded children (refused
/// when none do); the files in `DIR/<tier>.ooc` are resumed from, and removed
/// once the table is written.
pub(super) fn solve_and_write_tier_ooc<G: Solvable>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    out_dir: &Path,
    limit: Option<u64>,
    progress: &dyn Progress,
) -> Result<TierSummary> {
    use crate::retro::compact::ooc::{solve_tier_ooc, OocOptions};
    let name = game.tier_name(tier);
    let size = game.tier_size(tier);
    let kids = children.bytes();
    let l = limit.unwrap_or(u64::MAX);
    let parts = plan::ooc_parts(size, kids, l).ok_or_else(|| {
        let least = match plan::ooc_floor(size, kids) {
            Some(b) => format!(
                "; out of core it needs at least {} (--memory {b}) with these children's records",
                format_bytes(b)
            ),
            None => "; it is too small to cut in parts".to_string(),
        };
        Error::Memory(format!(
            "tier {name} ({size} slots) does not fit {} even out of core beside its children's records ({}){least}; raise --memory",
            format_bytes(l),
            format_bytes(kids)
        ))
    })?;
    let opts = OocOptions {
        dir: ooc_path(out_dir, &name),
        parts,
        stop_after_writes: None,
    };
    progress.message(&format!(
        "{name}: out of core in {parts} parts under {}",
        opts.dir.display()
    ));
    let placements = game.tier_placements(tier);
    let res = solve_tier_ooc(game, tier, children, &opts, progress)?;
    let n = size as usize;
    let meta = tier_meta(game, &name, n, &res.stats, placements, res.seconds)?;
    let written = write_table_from(&table_path(out_dir, &name), &meta, n, &|r| res.records(r));
    if let Some(e) = res.take_error() {
        return Err(e);
    }
    written?;
    res.remove_files()?;
    let r = &res.report;
    progress.message(&format!(
        "{name}: out of core, {} parts: {} passes, {} part reads, {} part writes ({}), {} of updates",
        r.parts,
        r.passes,
        r.reads,
        r.writes,
        format_bytes(r.bytes_written),
        format_bytes(r.update_bytes)
    ));
    Ok(tier_summary(&name, placements, &res.stats, res.seconds))
}
