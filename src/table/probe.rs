//! Probing a directory of tables: [`TableSet`] (by tier name) and
//! [`TableOracle`] (by position, for a [`TierGame`]).
//!
//! Files are opened lazily on first use and kept open; decoded blocks go to one
//! [`BlockCache`] shared by every table of the set and by every thread, so a warm
//! probe is: tier of the position, a read-locked map lookup, `rank`, and a cache hit.

use super::cache::{BlockCache, DEFAULT_CACHE_BYTES};
use super::file::Table;
use super::format::table_path;
use crate::error::{Error, Result, TableFault};
use crate::game::{Oracle, Value};
use crate::tier::{decode, TierGame, REC_NONE};
use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// The tables of one directory, opened on demand, sharing one block cache.
#[derive(Debug)]
pub struct TableSet {
    dir: PathBuf,
    cache: Arc<BlockCache>,
    open: RwLock<HashMap<String, Option<Arc<Table>>>>,
    /// Tables that could not be opened (damaged, another tier): the error
    /// again, without reading the file at every probe.
    refused: RwLock<HashMap<String, (PathBuf, TableFault, String)>>,
}

impl TableSet {
    /// A set over `dir` with a cache of `cache_bytes` decoded bytes. Fails when
    /// `dir` is not a readable directory.
    pub fn new(dir: &Path, cache_bytes: usize) -> Result<TableSet> {
        let md = std::fs::metadata(dir)
            .map_err(|e| Error::io(format!("table directory {}", dir.display()), e))?;
        if !md.is_dir() {
            return Err(Error::table(dir, TableFault::NotAFile, "not a directory"));
        }
        Ok(TableSet {
            dir: dir.to_path_buf(),
            cache: Arc::new(BlockCache::new(cache_bytes)),
            open: RwLock::new(HashMap::new()),
            refused: RwLock::new(HashMap::new()),
        })
    }

    /// A set with the default cache size ([`DEFAULT_CACHE_BYTES`]).
    pub(crate) fn open(dir: &Path) -> Result<TableSet> {
        TableSet::new(dir, DEFAULT_CACHE_BYTES)
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The shared block cache.
    pub fn cache(&self) -> &Arc<BlockCache> {
        &self.cache
    }

    /// The table of `tier` (`None` when the directory has no file for it).
    pub fn table(&self, tier: &str) -> Result<Option<Arc<Table>>> {
        if let Some(t) = self
            .open
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(tier)
        {
            return Ok(t.clone());
        }
        if let Some((path, fault, reason)) = self
            .refused
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(tier)
        {
            return Err(Error::table(path, *fault, reason.clone()));
        }
        let path = table_path(&self.dir, tier);
        let table = if path.exists() {
            let opened = Table::open_with_cache(&path, self.cache.clone()).and_then(|t| {
                if t.meta().tier != tier {
                    return Err(Error::table(
                        &path,
                        TableFault::WrongTier,
                        format!(
                            "the header says tier '{}' but the file name says '{tier}'",
                            t.meta().tier
                        ),
                    ));
                }
                Ok(t)
            });
            match opened {
                Ok(t) => Some(Arc::new(t)),
                Err(Error::Table {
                    path,
                    fault,
                    reason,
                }) => {
                    let e = Error::table(&path, fault, reason.clone());
                    self.refused
                        .write()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(tier.to_string(), (path, fault, reason));
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let mut map = self.open.write().unwrap_or_else(|p| p.into_inner());
        Ok(map.entry(tier.to_string()).or_insert(table).clone())
    }

    /// Names of the tiers with a table file in the directory, sorted.
    pub fn tier_names(&self) -> Result<Vec<String>> {
        list_tiers(&self.dir)
    }
}

/// Tier names of the `*.hst` files in `dir`, sorted.
pub fn list_tiers(dir: &Path) -> Result<Vec<String>> {
    let rd = std::fs::read_dir(dir)
        .map_err(|e| Error::io(format!("listing table directory {}", dir.display()), e))?;
    let mut names = Vec::new();
    for entry in rd {
        let entry = entry
            .map_err(|e| Error::io(format!("listing table directory {}", dir.display()), e))?;
        let name = entry.file_name();
        if let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".hst")) {
            names.push(stem.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// Exact values of positions from the tables of one game.
///
/// Every table is checked when first used: rules string and fingerprint against
/// the game, tier name against the file name, and record count against
/// `tier_size`. [`TableOracle::try_probe`] reports problems as errors;
/// the [`Oracle`] implementation (which cannot) answers `None` and keeps the first
/// error for [`TableOracle::take_error`].
pub struct TableOracle<G: TierGame> {
    game: G,
    set: TableSet,
    tiers: RwLock<HashMap<G::Tier, Option<Arc<Table>>>>,
    error: Mutex<Option<Error>>,
    /// Set with the first error (read by [`Oracle::failed`] without the lock).
    failed: std::sync::atomic::AtomicBool,
}

impl<G: TierGame> std::fmt::Debug for TableOracle<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableOracle")
            .field("rules", &self.game.rules_string())
            .field("set", &self.set)
            .finish()
    }
}

impl<G: TierGame> TableOracle<G> {
    /// An oracle over the tables in `dir` with the default cache size.
    /// Refuses rules whose repetition rule is not `draw`: tables hold values
    /// with cycles counted as draws, so they are exact for no other rule.
    pub fn new(game: &G, dir: &Path) -> Result<Self> {
        crate::game::require_cycles_drawn(game, "answering from tables")?;
        Ok(Self::with_set(game, TableSet::open(dir)?))
    }

    /// An oracle over an existing [`TableSet`].
    pub(crate) fn with_set(game: &G, set: TableSet) -> Self {
        TableOracle {
            game: game.clone(),
            set,
            tiers: RwLock::new(HashMap::new()),
            error: Mutex::new(None),
            failed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The game.
    pub(crate) fn game(&self) -> &G {
        &self.game
    }

    /// The underlying table set.
    pub(crate) fn set(&self) -> &TableSet {
        &self.set
    }

    /// The table of `tier`; its absence is an error ([`TableFault::Missing`]).
    pub(crate) fn required_table(&self, tier: G::Tier) -> Result<Arc<Table>> {
        self.table(tier)?.ok_or_else(|| {
            Error::table(
                self.set().dir(),
                TableFault::Missing,
                format!("no table for tier {}", self.game().tier_name(tier)),
            )
        })
    }

    /// The checked table of `tier`, or `None` when there is none.
    pub(crate) fn table(&self, tier: G::Tier) -> Result<Option<Arc<Table>>> {
        if let Some(t) = self
            .tiers
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&tier)
        {
            return Ok(t.clone());
        }
        let name = self.game.tier_name(tier);
        let table = self.set.table(&name)?;
        if let Some(t) = &table {
            t.check_rules(&self.game.rules_string(), self.game.fingerprint())?;
            let size = self.game.tier_size(tier);
            if t.records() != size {
                return Err(Error::table(
                    t.path(),
                    TableFault::WrongTier,
                    format!(
                        "{} records but tier {name} has {size} slots (different index scheme?)",
                        t.records()
                    ),
                ));
            }
        }
        let mut map = self.tiers.write().unwrap_or_else(|p| p.into_inner());
        Ok(map.entry(tier).or_insert(table).clone())
    }

    /// The raw record of `pos` (`None` when its tier has no table).
    pub fn record(&self, pos: &G::Pos) -> Result<Option<u16>> {
        let tier = self.game.tier_of(pos);
        match self.table(tier)? {
            None => Ok(None),
            Some(t) => t.get(self.game.rank(tier, pos)).map(Some),
        }
    }

    /// Value and distance of `pos`, `None` when its tier has no table. A position
    /// whose slot is empty is an error (index scheme and table disagree).
    pub fn try_probe(&self, pos: &G::Pos) -> Result<Option<(Value, u32)>> {
        match self.record(pos)? {
            None => Ok(None),
            Some(REC_NONE) => {
                let tier = self.game.tier_of(pos);
                let path = table_path(self.set.dir(), &self.game.tier_name(tier));
                Err(Error::table(
                    path,
                    TableFault::BadRecord,
                    format!(
                        "slot {} of position {} holds no record",
                        self.game.rank(tier, pos),
                        self.game.format_position(pos)
                    ),
                ))
            }
            Some(r) => Ok(decode(r)),
        }
    }

    /// The first error swallowed by [`Oracle::probe`], if any.
    pub fn take_error(&self) -> Option<Error> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl<G: TierGame> Oracle<G> for TableOracle<G> {
    fn probe(&self, _game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        match self.try_probe(pos) {
            Ok(v) => v,
            Err(e) => {
                let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
                if slot.is_none() {
                    *slot = Some(e);
                }
                self.failed
                    .store(true, std::sync::atomic::Ordering::Relaxed);
                None
            }
        }
    }

    fn failed(&self) -> bool {
        self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The rules string written in the tables of `dir` (from the first table's header;
/// every table is checked against the game when it is used).
pub fn rules_of_dir(dir: &Path) -> Result<String> {
    let names = list_tiers(dir)?;
    let first = names.first().ok_or_else(|| {
        Error::table(
            dir,
            TableFault::Missing,
            "no table files (*.hst) in this directory",
        )
    })?;
    Ok(Table::open(&table_path(dir, first))?.meta().rules.clone())
}
