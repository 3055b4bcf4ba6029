//! Whether a table directory is complete: a verify or an analysis of a directory
//! with a tier file deleted must not pass with fewer positions.
//!
//! Two checks, both before any table is read: every stored child of a present tier
//! must be present (a solve writes children first, so even an interrupted one
//! passes), and every tier that `summary.json` lists (written when a solve
//! finishes: the whole scope) must be present.

use crate::error::{Error, Result, TableFault};
use crate::tier::TierGame;
use std::collections::BTreeSet;
use std::path::Path;

/// Most missing tier names listed in the error.
const LIST: usize = 8;

/// Refuses `tiers` (those with a file in `dir`) when a child of one of them or a
/// tier listed in `DIR/summary.json` has no table.
pub(crate) fn check_complete<G: TierGame>(game: &G, dir: &Path, tiers: &[G::Tier]) -> Result<()> {
    let present: BTreeSet<G::Tier> = tiers.iter().copied().collect();
    let mut missing: BTreeSet<String> = BTreeSet::new();
    for &t in tiers {
        for c in game.stored_children(t) {
            if !present.contains(&c) {
                missing.insert(game.tier_name(c));
            }
        }
    }
    let names: BTreeSet<String> = tiers.iter().map(|&t| game.tier_name(t)).collect();
    for name in summary_tiers(dir)? {
        if !names.contains(&name) {
            missing.insert(name);
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = missing.iter().take(LIST).map(String::as_str).collect();
    Err(Error::table(
        dir,
        TableFault::Missing,
        format!(
            "incomplete: {} tier table{} missing ({}{}), needed by the tables present or listed in summary.json; solve again into this directory to restore them",
            missing.len(),
            if missing.len() == 1 { " is" } else { "s are" },
            shown.join(", "),
            if missing.len() > LIST { ", ..." } else { "" }
        ),
    ))
}

/// Tier names listed in `DIR/summary.json`; none when there is no such file.
fn summary_tiers(dir: &Path) -> Result<Vec<String>> {
    let path = dir.join("summary.json");
    let text = match crate::regular::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) if crate::regular::NotRegular::of(&e).is_some() => {
            return Err(Error::table(&path, TableFault::NotAFile, e.to_string()))
        }
        Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
    };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::table(
            &path,
            TableFault::Corrupt,
            format!("not a valid summary: {e}"),
        )
    })?;
    let tiers = v["tiers"].as_array().ok_or_else(|| {
        Error::table(
            &path,
            TableFault::Corrupt,
            "not a valid summary: no `tiers` list",
        )
    })?;
    tiers
        .iter()
        .map(|t| {
            t["tier"].as_str().map(str::to_string).ok_or_else(|| {
                Error::table(
                    &path,
                    TableFault::Corrupt,
                    "not a valid summary: a tier without a name",
                )
            })
        })
        .collect()
}
