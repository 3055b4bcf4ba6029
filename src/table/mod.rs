//! Table files on disk: format, compression, probing, verification, statistics.
//!
//! - `format`: the self-describing file format (byte layout in its docs),
//!   [`write_table`] and the pure parsers over bytes.
//! - `file`: [`Table`], an open file with random access by positioned reads.
//! - `lock`: one writer per output directory, and no debris from the last one.
//! - `cache`: [`BlockCache`], decoded blocks shared across tables and threads.
//! - `probe`: [`TableSet`] (tables of a directory by tier name) and
//!   [`TableOracle`] (exact values by position, an [`Oracle`](crate::game::Oracle)).
//! - `verify`: re-derivation of every record from its children.
//! - `analyze`: outcome counts, distance histograms, longest wins.
//! - `query`: a position's value and every move's value, best first.

pub(crate) mod analyze;
pub(crate) mod cache;
pub(crate) mod complete;
pub(crate) mod file;
pub(crate) mod format;
mod format_error;
pub(crate) mod lock;
pub(crate) mod probe;
pub(crate) mod query;
pub(crate) mod verify;
pub(crate) mod zstd_ctx;

pub use query::Exact;

pub use analyze::{
    analyze_dir, analyze_dir_with, AnalyzeOptions, AnalyzeReport, SideStats, TierStats, Weighted,
};
pub use cache::{BlockCache, DEFAULT_CACHE_BYTES};
pub use file::Table;
pub(crate) use format::write_table_from;
pub use format::{
    decode_table, encode_table, table_path, write_table, write_table_with, FormatError, TableMeta,
    WriteOptions,
};
pub use probe::{list_tiers, rules_of_dir, TableOracle, TableSet};
pub use query::{query_tables, query_with, MoveResult, QueryResult};
pub use verify::{
    verify_dir, verify_dir_scoped, verify_dir_with, Placements, VerifyReport, VerifyScope,
};
