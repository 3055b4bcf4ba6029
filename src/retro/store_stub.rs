//! Minimal stand-in for `crate::table` with the agreed signatures, used until
//! the table module lands: the header and records as bincode, written to a
//! temporary file and renamed. No blocks, no checksum: replaced wholesale.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Table header (agreed fields).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableMeta {
    /// Canonical rules string.
    pub rules: String,
    /// Fingerprint of the rules.
    pub fingerprint: u64,
    /// Tier name.
    pub tier: String,
    /// Index scheme version.
    pub index_version: u32,
    /// Record encoding version.
    pub encoding: u32,
    /// Number of slots.
    pub positions: u64,
    /// Statistics as JSON.
    pub extra: String,
}

const MAGIC: &[u8; 8] = b"HSSTUB01";

/// Writes a table (temporary file, then rename).
pub fn write_table(path: &Path, meta: &TableMeta, records: &[u16]) -> Result<()> {
    let mut bytes = MAGIC.to_vec();
    let body = bincode::serde::encode_to_vec((meta, records), bincode::config::standard())
        .map_err(|e| Error::table(path, format!("encoding failed: {e}")))?;
    bytes.extend(body);
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes).map_err(|e| Error::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(format!("renaming {}", tmp.display()), e))
}

/// An open table (fully read).
#[derive(Debug)]
#[allow(dead_code)] // `get` and `path` mirror the real table API
pub struct Table {
    meta: TableMeta,
    records: Vec<u16>,
    path: PathBuf,
}

impl Table {
    /// Opens and reads a table.
    pub fn open(path: &Path) -> Result<Table> {
        let bytes =
            std::fs::read(path).map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(Error::table(path, "bad magic"));
        }
        let ((meta, records), _): ((TableMeta, Vec<u16>), usize) =
            bincode::serde::decode_from_slice(&bytes[8..], bincode::config::standard())
                .map_err(|e| Error::table(path, format!("corrupt: {e}")))?;
        if records.len() as u64 != meta.positions {
            return Err(Error::table(path, "record count differs from header"));
        }
        Ok(Table {
            meta,
            records,
            path: path.to_path_buf(),
        })
    }
    /// The header.
    pub fn meta(&self) -> &TableMeta {
        &self.meta
    }
    /// One record.
    #[allow(dead_code)]
    pub fn get(&self, index: u64) -> Result<u16> {
        self.records
            .get(index as usize)
            .copied()
            .ok_or_else(|| Error::table(&self.path, format!("index {index} out of range")))
    }
    /// Every record.
    pub fn read_all(&self) -> Result<Vec<u16>> {
        Ok(self.records.clone())
    }
}

/// `DIR/<tier>.hst`.
pub fn table_path(dir: &Path, tier_name: &str) -> PathBuf {
    dir.join(format!("{tier_name}.hst"))
}
