//! Exact referees: solved tables that end a self-play game as soon as it
//! reaches a position they cover, with the position's exact value.
//!
//! `compare --tables DIR` (repeatable) gives table directories; each variant
//! uses the directories whose tables were solved for exactly its rules
//! (canonical rules string and fingerprint, checked when a table is opened).
//! The same tables serve MCTS engines as proven leaves.

use crate::error::{Error, Result, TableFault};
use crate::game::{Game, Oracle, Value};
use crate::retro::TierGame;
use crate::stats::agent::SharedOracle;
use crate::table::probe::{rules_of_dir, TableOracle};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first answer of several oracles (table directories of one game, e.g.
/// one with the movement endgames and one with the end of the placement).
pub(crate) struct FirstOf<G: Game>(pub Vec<SharedOracle<G>>);

impl<G: Game> Oracle<G> for FirstOf<G> {
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        self.0.iter().find_map(|o| o.probe(game, pos))
    }

    fn failed(&self) -> bool {
        self.0.iter().any(|o| o.failed())
    }
}

/// A table directory and the canonical rules its tables were solved for.
#[derive(Clone, Debug)]
pub struct TableDir {
    /// The directory.
    pub dir: PathBuf,
    /// Canonical rules string from the first table's header.
    pub rules: String,
}

/// Reads the rules of every directory (an error names a directory without tables).
pub fn table_dirs(dirs: &[PathBuf]) -> Result<Vec<TableDir>> {
    dirs.iter()
        .map(|d| {
            Ok(TableDir {
                dir: d.clone(),
                rules: rules_of_dir(d)?,
            })
        })
        .collect()
}

/// The oracle over the directories solved for `game`'s rules, `None` when no
/// directory matches.
pub(crate) fn oracle_for<G: TierGame>(
    game: &G,
    dirs: &[TableDir],
) -> Result<Option<SharedOracle<G>>> {
    let rules = game.rules_string();
    let mut oracles: Vec<SharedOracle<G>> = Vec::new();
    for d in dirs.iter().filter(|d| d.rules == rules) {
        oracles.push(Arc::new(TableOracle::new(game, &d.dir)?));
    }
    Ok(match oracles.len() {
        0 => None,
        1 => oracles.pop(),
        _ => Some(Arc::new(FirstOf(oracles))),
    })
}

/// Checks that every directory serves at least one of `rules` (canonical
/// strings), so that a mistyped `--tables` is an error rather than silently unused.
pub(crate) fn check_all_used(dirs: &[TableDir], rules: &[String]) -> Result<()> {
    for d in dirs {
        if !rules.contains(&d.rules) {
            return Err(Error::table(
                &d.dir,
                TableFault::WrongRules,
                format!(
                    "--tables: its tables are for '{}', which is none of the variants ({})",
                    d.rules,
                    rules.join("; ")
                ),
            ));
        }
    }
    Ok(())
}

/// Short text naming the referee's directories for `rules` (stored in game
/// records), `None` when there are none.
pub fn referee_text(dirs: &[TableDir], rules: &str) -> Option<String> {
    let names: Vec<String> = dirs
        .iter()
        .filter(|d| d.rules == rules)
        .map(|d| dir_label(&d.dir))
        .collect();
    (!names.is_empty()).then(|| format!("tables {}", names.join(" + ")))
}

fn dir_label(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| p.display().to_string())
}
