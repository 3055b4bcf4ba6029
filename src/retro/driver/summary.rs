//! What a solve reports: the per-tier summaries, the start's value and `summary.json`.

use super::Plan;
use crate::error::{Error, Result};
use crate::retro::solver::TierStats;
use crate::tier::{Outcomes, TierGame};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One tier in `summary.json` (the schema).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TierSummary {
    /// Tier name.
    pub tier: String,
    /// Placements with side to move, before symmetry reduction.
    pub positions: u64,
    /// Symmetry classes among them (solved slots), won, lost, drawn, longest distance.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Seconds spent solving (as recorded when the tier was solved).
    pub seconds: f64,
}

/// Value of the start position, from the side to move's view.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StartValue {
    /// `win`, `loss` or `draw`.
    pub value: String,
    /// Plies to the end under optimal play (0 for a draw).
    pub distance: u32,
    /// Name of the side to move at the start (`Game::side_name`; empty in
    /// summaries written before this field existed).
    #[serde(default)]
    pub side_to_move: String,
    /// Name of the side that wins under optimal play (`None` for a draw, and in
    /// summaries written before this field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

impl StartValue {
    /// The value in the game's own words, saying for whom: `crows win in 15
    /// plies (crows to move)`, `draw (leopards to move)` (`win in 15 plies for
    /// the side to move` for an old summary without side names). The summary
    /// keeps the machine names (`prey`, `hunter`); `game` gives their labels.
    pub fn text<G: crate::Game>(&self, game: &G) -> String {
        let value = match (&self.winner, self.value.as_str()) {
            (_, "draw") => "draw".into(),
            (Some(w), _) => format!(
                "{} in {} plies",
                crate::game::side_says(&crate::game::label_of(game, w), "wins", "win"),
                self.distance
            ),
            (None, v) => format!("{v} in {} plies for the side to move", self.distance),
        };
        if self.side_to_move.is_empty() {
            value
        } else {
            format!(
                "{value} ({} to move)",
                crate::game::label_of(game, &self.side_to_move)
            )
        }
    }
}

/// Contents of `DIR/summary.json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// Canonical rules string.
    pub rules: String,
    /// Every tier of the scope, children first.
    pub tiers: Vec<TierSummary>,
    /// Present when the scope contains the start position.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub start: Option<StartValue>,
    /// The command and build that made this summary (the solve options'
    /// `made_by`, which the command-line tool sets; absent from a library
    /// call's summary).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub made_by: Option<MadeBy>,
}

/// Who made a `summary.json`: the command line and the build, so that a
/// result can be cited with what produced it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MadeBy {
    /// The command line, arguments joined by spaces.
    pub command: String,
    /// The build (commit, profile and version).
    pub build: String,
}

/// `summary.json`'s contents: the tiers of `plan` found in `done` in plan order,
/// and the start position's record when the scope holds it (no `made_by`: the
/// writer sets it from its options).
pub fn make_summary<G: TierGame>(
    game: &G,
    plan: &Plan<G::Tier>,
    done: &BTreeMap<G::Tier, TierSummary>,
    start_record: Option<(crate::game::Value, u32)>,
) -> Summary {
    Summary {
        rules: game.rules_string(),
        tiers: plan
            .waves
            .iter()
            .flatten()
            .filter_map(|t| done.get(t).cloned())
            .collect(),
        start: start_record.map(|(v, d)| {
            let side = game.side_to_move(&game.start());
            StartValue {
                value: v.name().to_string(),
                distance: d,
                side_to_move: game.side_name(side).to_string(),
                winner: match v {
                    crate::game::Value::Win => Some(game.side_name(side).to_string()),
                    crate::game::Value::Loss => Some(game.side_name(1 - side).to_string()),
                    crate::game::Value::Draw => None,
                },
            }
        }),
        made_by: None,
    }
}

pub(super) fn tier_summary(
    name: &str,
    placements: u64,
    s: &TierStats,
    seconds: f64,
) -> TierSummary {
    TierSummary {
        tier: name.to_string(),
        positions: placements,
        outcomes: s.outcomes,
        seconds,
    }
}

/// Path of the summary file of a solve directory.
pub fn summary_path(out_dir: &Path) -> PathBuf {
    out_dir.join("summary.json")
}

/// Writes `DIR/summary.json` (temporary file, then rename).
pub(crate) fn write_summary(out_dir: &Path, summary: &Summary) -> Result<()> {
    let path = summary_path(out_dir);
    let text = serde_json::to_string_pretty(summary)
        .map_err(|e| Error::Internal(format!("encoding summary: {e}")))?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text + "\n")
        .map_err(|e| Error::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, &path).map_err(|e| Error::io(format!("renaming {}", tmp.display()), e))
}

/// The start position's record read back from its tier's table in `out_dir`,
/// when `in_scope` says the solve holds that tier (`None` otherwise).
pub(crate) fn stored_start_record<G: TierGame>(
    game: &G,
    out_dir: &Path,
    in_scope: impl FnOnce(G::Tier) -> bool,
) -> Result<Option<(crate::game::Value, u32)>> {
    let start_pos = game.start();
    let start_tier = game.tier_of(&start_pos);
    if !in_scope(start_tier) {
        return Ok(None);
    }
    let records = super::load_records(game, out_dir, start_tier)?;
    Ok(records
        .get(game.rank(start_tier, &start_pos) as usize)
        .copied()
        .and_then(crate::tier::decode))
}
