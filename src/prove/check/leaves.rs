//! The checker's own reading of table leaves.
//!
//! The prover reads its leaves through `TableDirs` (`prove/tables.rs`);
//! the checker does not: a bug in that lookup (a wrong directory order, an
//! off-by-one in a distance, a table named by the wrong file) would otherwise
//! write a false leaf into a certificate and confirm it when checking. Here the
//! table module's public probing API ([`TableSet`], [`Table`]) is asked again,
//! with nothing of the prover's code between: the position's tier and rank
//! come from the rules engine, the record from the table file, the file's
//! trailer checksum is read from the file itself.

use crate::error::{Error, Result, TableFault};
use crate::game::Value;
use crate::prove::certificate::TableRef;
use crate::table::{table_path, Table, TableSet};
use crate::tier::{decode, TierGame};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Decoded-block budget of each directory's set (the checker reads each
/// leaf once; a small cache is enough).
const CACHE_BYTES: usize = 8 << 20;

/// The table directories given to the checker, asked in order: the first
/// directory holding a position's tier answers (as for the prover, so a
/// certificate written with `--tables A --tables B` checks with the same
/// arguments).
pub(crate) struct LeafTables<G: TierGame> {
    game: G,
    dirs: Vec<TableSet>,
}

impl<G: TierGame> LeafTables<G> {
    /// Opens the directories. Each must hold tables of these rules (its first
    /// table is checked now; every table a leaf needs is checked when first
    /// read): a directory without tables, or of other rules, is refused rather
    /// than read as "covers no leaf".
    pub(crate) fn open(game: &G, dirs: &[PathBuf]) -> Result<Self> {
        if !dirs.is_empty() {
            crate::game::require_cycles_drawn(game, "checking table leaves")?;
        }
        let dirs = dirs
            .iter()
            .map(|d| {
                let set = TableSet::new(d, CACHE_BYTES)?;
                let first = set.tier_names()?.into_iter().next().ok_or_else(|| {
                    Error::table(
                        d,
                        TableFault::Missing,
                        "no table files (*.hst) in this directory",
                    )
                })?;
                Table::open(&table_path(d, &first))?
                    .check_rules(&game.rules_string(), game.fingerprint())?;
                Ok(set)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(LeafTables {
            game: game.clone(),
            dirs,
        })
    }

    /// For each position, the table it lies in (tier and file checksum), with
    /// its value and distance; `None` when no directory has a table of its
    /// tier. The answers come in the order asked; the probes are made in table
    /// and slot order, so each block of a table is decoded once per batch and
    /// each table is found, checked and named once.
    pub(crate) fn leaves(&self, ps: &[G::Pos]) -> Result<Vec<Option<(TableRef, Value, u32)>>> {
        let g = &self.game;
        let mut keys: Vec<(G::Tier, u64, usize)> = ps
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let tier = g.tier_of(p);
                (tier, g.rank(tier, p), i)
            })
            .collect();
        keys.sort_unstable();
        let mut out: Vec<Option<(TableRef, Value, u32)>> = vec![None; ps.len()];
        let mut rest = &keys[..];
        while let Some(&(tier, _, _)) = rest.first() {
            let n = rest.partition_point(|k| k.0 == tier);
            let (same, more) = rest.split_at(n);
            rest = more;
            let Some((table, path, named)) = self.table_of(tier)? else {
                continue;
            };
            for &(_, rank, at) in same {
                let Some((value, distance)) = decode(table.get(rank)?) else {
                    return Err(Error::table(
                        &path,
                        TableFault::BadRecord,
                        format!(
                            "slot {rank} of position {} holds no record",
                            g.format_position(&ps[at])
                        ),
                    ));
                };
                out[at] = Some((named.clone(), value, distance));
            }
        }
        Ok(out)
    }

    /// The first directory's table of `tier`, checked against the rules and
    /// the tier's size, with its path and its name in a certificate.
    fn table_of(&self, tier: G::Tier) -> Result<Option<(Arc<Table>, PathBuf, TableRef)>> {
        let g = &self.game;
        let name = g.tier_name(tier);
        for set in &self.dirs {
            let Some(table) = set.table(&name)? else {
                continue;
            };
            let path = table_path(set.dir(), &name);
            self.check_table(&table, &path, g.tier_size(tier))?;
            let crc32 = trailer_crc32(&path)?;
            return Ok(Some((table, path, TableRef { tier: name, crc32 })));
        }
        Ok(None)
    }

    /// A table of other rules, or of another size than its tier, answers nothing.
    fn check_table(&self, t: &Arc<Table>, path: &Path, size: u64) -> Result<()> {
        t.check_rules(&self.game.rules_string(), self.game.fingerprint())?;
        if t.records() != size {
            return Err(Error::table(
                path,
                TableFault::WrongTier,
                format!(
                    "{} records but the tier has {size} slots (different index scheme?)",
                    t.records()
                ),
            ));
        }
        Ok(())
    }
}

/// The crc32 stored in a table file's trailer (12 bytes before its end: the
/// checksum of every byte before it), which names the file in a certificate.
fn trailer_crc32(path: &Path) -> Result<u32> {
    use std::io::{Read, Seek, SeekFrom};
    let io = |e| Error::io(format!("reading the trailer of {}", path.display()), e);
    let mut f = crate::regular::open(path).map_err(io)?;
    f.seek(SeekFrom::End(-12)).map_err(io)?;
    let mut b = [0u8; 4];
    f.read_exact(&mut b).map_err(io)?;
    Ok(u32::from_le_bytes(b))
}
