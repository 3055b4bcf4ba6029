//! The frontier driver's state file (`DIR/frontier-state.txt`): what is known of
//! every frontier position tried, written by a temporary file and a rename and
//! read back (checksum, rules, fingerprint) by a rerun.

use crate::error::{Error, Result};
use crate::prove::RunOutcome;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The state file's name in the output directory.
pub const STATE_FILE: &str = "frontier-state.txt";
/// The first word of a state file.
const STATE_MAGIC: &str = "HSFRONTIER";
/// The state format of a run on one shared proof table.
const STATE_VERSION: u32 = 1;
/// The state format of a reproducible run (a saved table, the selection under
/// way): a build that reads only version 1 refuses it rather than resume it
/// without its table.
const STATE_VERSION_REPRODUCIBLE: u32 = 2;

/// What is known of one frontier position for one goal side (a row of the state file).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The class's key (hex).
    pub key: String,
    /// The position proven (a member of the class).
    pub position: String,
    /// The goal side.
    pub side: u8,
    /// `proven`, `disproven` or `unknown`.
    pub outcome: RunOutcome,
    /// Runs made (the scoring run included).
    pub tries: u32,
    /// Nodes of the largest run.
    pub nodes: u64,
    /// Root proof number after the last run.
    pub pn: u32,
    /// Root disproof number after the last run.
    pub dn: u32,
    /// The largest node limit of a run that left it open (0: none): a position
    /// whose limit reached [`super::FrontierConfig::max_job_nodes`] is not tried again
    /// (a rerun with a larger `max_job_nodes` tries it again).
    pub limit: u64,
    /// The certificate's file name under `certs/` (decided positions, with a directory).
    pub certificate: Option<String>,
}

/// The state file's document.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct State {
    /// Canonical rules.
    pub rules: String,
    /// Their fingerprint.
    pub fingerprint: u64,
    /// Every frontier position tried, any depth.
    pub entries: Vec<Entry>,
    /// The settings of a reproducible run (absent: a run on one shared table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproducible: Option<String>,
    /// A reproducible run's selection under way: its runs not yet taken, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Pending>,
    /// Reproducible runs' proof tables, saved with this state (one per goal side).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub snapshots: Vec<Snapshot>,
}

/// A reproducible run's saved proof table and the driver's counters at the
/// moment it was saved, one per goal side.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Snapshot {
    /// The goal side of the run that saved it.
    pub side: u8,
    /// Its number (1, 2, ...: a new file each time).
    pub n: u64,
    /// Its file name in the output directory (`None`: the run ended with the
    /// start decided; a rerun decides it again from the state alone).
    pub file: Option<String>,
    /// The crc32 of the table's bytes.
    pub crc: u32,
    /// Values recorded since the graph was last evaluated.
    pub since_eval: u32,
    /// Whether a value became known since then.
    pub dirty: bool,
}

impl State {
    /// Replaces goal side `side`'s queued runs by `jobs`, in order.
    pub(super) fn set_pending(&mut self, side: u8, jobs: impl IntoIterator<Item = Pending>) {
        self.pending.retain(|p| p.side != side);
        self.pending.extend(jobs);
    }

    /// Removes goal side `side`'s first queued run.
    pub(super) fn take_pending(&mut self, side: u8) {
        if let Some(i) = self.pending.iter().position(|p| p.side == side) {
            self.pending.remove(i);
        }
    }
}

/// A queued run of a reproducible selection.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Pending {
    /// The frontier class's key (hex).
    pub key: String,
    /// The goal side.
    pub side: u8,
    /// The run's node limit.
    pub nodes: u64,
}

pub(super) fn state_path(out: &Path) -> PathBuf {
    out.join(STATE_FILE)
}

/// Reads a state file; `None` when there is none. A damaged file, or one of
/// other rules, is an error.
pub(super) fn read_state(path: &Path, rules: &str, fingerprint: u64) -> Result<Option<State>> {
    let text = match crate::regular::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(format!("reading {}", path.display()), e)),
    };
    let damaged = |why: &str| {
        Error::input(
            path,
            format!("the frontier state file is damaged ({why}); remove it to start again"),
        )
    };
    let nl = text
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line"))?;
    let head = std::str::from_utf8(&text[..nl]).map_err(|_| damaged("the header is not text"))?;
    let body = &text[nl + 1..];
    let f: Vec<&str> = head.split(' ').collect();
    if f.len() != 3 || f[0] != STATE_MAGIC {
        return Err(damaged("not a frontier state file"));
    }
    let version = f[1].parse::<u32>().ok();
    if version != Some(STATE_VERSION) && version != Some(STATE_VERSION_REPRODUCIBLE) {
        return Err(damaged(&format!(
            "format version {}; this build reads {STATE_VERSION} and {STATE_VERSION_REPRODUCIBLE}",
            crate::error::bounded(f[1])
        )));
    }
    let crc = u32::from_str_radix(f[2], 16).map_err(|_| damaged("bad checksum field"))?;
    if crc32fast::hash(body) != crc {
        return Err(damaged("checksum mismatch"));
    }
    let st: State =
        serde_json::from_slice(body).map_err(|e| damaged(&format!("invalid JSON: {e}")))?;
    if version == Some(STATE_VERSION_REPRODUCIBLE) && st.reproducible.is_none() {
        return Err(damaged("version 2 without a reproducible run's settings"));
    }
    if st.rules != rules || st.fingerprint != fingerprint {
        return Err(Error::input(path, format!(
            "the frontier state file is for rules '{}' ({:016x}), not '{rules}' ({fingerprint:016x}); \
             use another --out",
            st.rules,
            st.fingerprint
        )));
    }
    Ok(Some(st))
}

/// Writes the state: a temporary file, then a rename.
pub(super) fn write_state(out: &Path, st: &State) -> Result<()> {
    let body = serde_json::to_vec_pretty(st).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
    let version = if st.reproducible.is_some() {
        STATE_VERSION_REPRODUCIBLE
    } else {
        STATE_VERSION
    };
    let mut bytes =
        format!("{STATE_MAGIC} {version} {:08x}\n", crc32fast::hash(&body)).into_bytes();
    bytes.extend_from_slice(&body);
    let path = state_path(out);
    let tmp = out.join(format!(".{STATE_FILE}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::File::open(&tmp).and_then(|f| crate::durable::sync(&f)))
        .map_err(|e| Error::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, &path)
        .map_err(|e| Error::io(format!("renaming to {}", path.display()), e))
}
