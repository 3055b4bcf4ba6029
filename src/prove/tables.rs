//! Leaves from several table directories (`--tables DIR`, repeatable): the
//! first directory holding a position's tier answers. Also names the table a
//! leaf comes from (tier and file crc32) for certificates.

use super::certificate::TableRef;
use crate::error::Error;
use crate::error::Result;
use crate::game::{Oracle, Value};
use crate::table::{table_path, TableOracle};
use crate::tier::TierGame;
use std::path::{Path, PathBuf};

/// Table oracles over several directories, asked in order.
pub struct TableDirs<G: TierGame> {
    dirs: Vec<(PathBuf, TableOracle<G>)>,
}

impl<G: TierGame> TableDirs<G> {
    /// Opens the directories. Each must hold tables of these rules: a
    /// directory without tables (or with another rules' tables) is refused,
    /// not silently used as no leaves at all.
    pub fn open(game: &G, dirs: &[PathBuf]) -> Result<Self> {
        let mut v = Vec::new();
        for d in dirs {
            let oracle = TableOracle::new(game, d)?;
            let names = crate::table::list_tiers(d)?;
            let first = names.first().ok_or_else(|| {
                crate::error::Error::table(
                    d,
                    crate::error::TableFault::Missing,
                    "no table files (*.hst) in this directory; solve the rules into it or drop --tables",
                )
            })?;
            crate::table::Table::open(&table_path(d, first))?
                .check_rules(&game.rules_string(), game.fingerprint())?;
            v.push((d.clone(), oracle));
        }
        Ok(TableDirs { dirs: v })
    }

    /// The directories, in the order they are asked (for the checker, which
    /// opens them again by its own path: [`crate::prove::check::check_with_tables`]).
    pub(crate) fn dirs(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|(d, _)| d.clone()).collect()
    }

    /// The directory and value of `pos`, from the first directory that has its tier.
    pub(crate) fn find(&self, pos: &G::Pos) -> Result<Option<(&Path, Value, u32)>> {
        for (d, o) in &self.dirs {
            if let Some((v, dist)) = o.try_probe(pos)? {
                return Ok(Some((d, v, dist)));
            }
        }
        Ok(None)
    }

    /// The table a leaf lies in, with its value.
    pub fn leaf(&self, game: &G, pos: &G::Pos) -> Result<Option<(TableRef, Value, u32)>> {
        match self.find(pos)? {
            None => Ok(None),
            Some((d, v, dist)) => {
                let tier = game.tier_name(game.tier_of(pos));
                let crc32 = table_file_crc(&table_path(d, &tier))?;
                Ok(Some((TableRef { tier, crc32 }, v, dist)))
            }
        }
    }

    /// The first error any oracle swallowed.
    pub fn take_error(&self) -> Option<crate::error::Error> {
        self.dirs.iter().find_map(|(_, o)| o.take_error())
    }
}

impl<G: TierGame> Oracle<G> for TableDirs<G> {
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        self.dirs.iter().find_map(|(_, o)| o.probe(game, pos))
    }

    fn failed(&self) -> bool {
        self.dirs.iter().any(|(_, o)| o.failed())
    }
}

/// crc32 stored in the trailer of a table file (identifies its contents).
fn table_file_crc(path: &Path) -> Result<u32> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = crate::regular::open(path)
        .map_err(|e| Error::io(format!("opening {}", path.display()), e))?;
    f.seek(SeekFrom::End(-12))
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    let mut b = [0u8; 4];
    f.read_exact(&mut b)
        .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
    Ok(u32::from_le_bytes(b))
}
