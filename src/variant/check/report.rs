//! What `huntsolve check` reports: one line per check, with its count of cases,
//! of failures, and the first failing case in the project's text forms.

use serde::Serialize;

/// The verdict of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CheckStatus {
    /// Every case agreed.
    Ok,
    /// At least one case disagreed: the rules, the board or an engine is wrong.
    Failed,
    /// Only findings worth a look, none wrong (a bent line, say).
    Warning,
    /// Not run for these rules (the reason is the line's note).
    Skipped,
}

impl CheckStatus {
    /// The word printed in the table.
    pub fn word(self) -> &'static str {
        match self {
            CheckStatus::Ok => "ok",
            CheckStatus::Failed => "FAILED",
            CheckStatus::Warning => "warning",
            CheckStatus::Skipped => "skipped",
        }
    }
}

/// One check's result.
#[derive(Clone, Debug, Serialize)]
pub struct CheckLine {
    /// Short name (`board`, `unmoves`, ...): the table's first column.
    pub name: &'static str,
    /// What it checks, in a few words.
    pub what: &'static str,
    /// The verdict.
    pub status: CheckStatus,
    /// Cases checked (positions, moves, points, symmetries: what the check counts).
    pub cases: u64,
    /// Cases that disagreed (for a warning line: the findings).
    pub failures: u64,
    /// The first failing case (or finding): what is wrong, with the position text.
    pub first: Option<String>,
    /// A remark: why a check was skipped, what a count means.
    pub note: Option<String>,
}

/// One depth of the perft from the start position.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PerftLine {
    /// Depth in plies.
    pub depth: u32,
    /// Leaves at that depth ([`crate::game::perft`]).
    pub leaves: u64,
    /// The count the user expects (`--perft D=N`), if given.
    pub expected: Option<u64>,
}

/// Everything `check` found.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The canonical rules string.
    pub rules: String,
    /// `hunt` or `tafl`.
    pub family: &'static str,
    /// Tiers reached from the start's tier.
    pub tiers: usize,
    /// Positions checked (slots holding a position, over all tiers).
    pub positions: u64,
    /// Tiers whose every slot was checked (the others were sampled).
    pub tiers_whole: usize,
    /// Perft counts from the start.
    pub perft: Vec<PerftLine>,
    /// The checks, in order.
    pub checks: Vec<CheckLine>,
}

impl CheckReport {
    /// Whether nothing disagreed (warnings and skipped checks do not count).
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.status != CheckStatus::Failed)
    }

    /// The checks that failed.
    pub fn failed(&self) -> Vec<&CheckLine> {
        self.checks
            .iter()
            .filter(|c| c.status == CheckStatus::Failed)
            .collect()
    }
}

/// Counts the cases of one check and keeps its first failure.
#[derive(Debug)]
pub(crate) struct Tally {
    name: &'static str,
    what: &'static str,
    cases: u64,
    failures: u64,
    first: Option<String>,
    /// Findings are warnings, never failures.
    warn_only: bool,
    note: Option<String>,
}

impl Tally {
    pub(crate) fn new(name: &'static str, what: &'static str) -> Tally {
        Tally {
            name,
            what,
            cases: 0,
            failures: 0,
            first: None,
            warn_only: false,
            note: None,
        }
    }

    /// A tally whose findings are warnings.
    pub(crate) fn warnings(name: &'static str, what: &'static str) -> Tally {
        Tally {
            warn_only: true,
            ..Tally::new(name, what)
        }
    }

    /// One case: `ok`, or a failure described by `why` (called only on the first).
    pub(crate) fn case(&mut self, ok: bool, why: impl FnOnce() -> String) {
        self.cases += 1;
        if !ok {
            self.failures += 1;
            if self.first.is_none() {
                self.first = Some(why());
            }
        }
    }

    pub(crate) fn note(&mut self, note: impl Into<String>) {
        self.note = Some(note.into());
    }

    pub(crate) fn line(self) -> CheckLine {
        let status = if self.failures > 0 {
            if self.warn_only {
                CheckStatus::Warning
            } else {
                CheckStatus::Failed
            }
        } else {
            CheckStatus::Ok
        };
        CheckLine {
            name: self.name,
            what: self.what,
            status,
            cases: self.cases,
            failures: self.failures,
            first: self.first,
            note: self.note,
        }
    }

    /// The line of a check that was not run, and why.
    pub(crate) fn skipped(name: &'static str, what: &'static str, why: &str) -> CheckLine {
        CheckLine {
            status: CheckStatus::Skipped,
            note: Some(why.to_string()),
            ..Tally::new(name, what).line()
        }
    }
}

/// What `check` samples and counts.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Positions checked in each tier: a tier of at most this many slots is checked
    /// whole, a larger one at this many slots drawn at random.
    pub samples: u64,
    /// Seed of the random draws (the same seed draws the same slots).
    pub seed: u64,
    /// Perft from the start to this depth (1 to `depth` are printed).
    pub depth: u32,
    /// Expected perft counts `(depth, leaves)`, compared with the engine's.
    pub expected: Vec<(u32, u64)>,
    /// A deliberate fault (the checker's own test: each must make a check fail).
    pub fault: Option<super::faulty::Fault>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            samples: 64,
            seed: 1,
            depth: 4,
            expected: Vec::new(),
            fault: None,
        }
    }
}
