//! Table files on disk: format, compression, probing, verification.
//!
//! - [`format`]: the self-describing file format (byte layout in its docs),
//!   [`write_table`] and the pure parsers over bytes.
//! - [`file`]: [`Table`], an open file with random access by positioned reads.
//! - [`cache`]: [`BlockCache`], decoded blocks shared across tables and threads.

pub mod cache;
pub mod file;
pub mod format;

pub use cache::{BlockCache, DEFAULT_CACHE_BYTES};
pub use file::Table;
pub use format::{
    decode_table, table_path, write_table, write_table_with, TableMeta, WriteOptions,
};
