//! Solve manifests: batches of solves described in TOML.
//!
//! ```toml
//! # every top-level key is optional
//! out = "tables"              # base directory; a job's tables go to <out>/<job name>
//! threads = 2                 # worker threads (0 or absent: one per core)
//! memory = "8G"               # memory limit per job (absent: 80 % of MemAvailable)
//! results = "results/batch"   # writes results/batch.json and results/batch.md
//!
//! [[job]]
//! name = "kaooa"              # required, file-name safe; also the default sub-directory
//! rules = "kaooa"             # required: preset[,key=value...]
//! scope = "whole"             # whole (default) | movement | max-prey=N | max-in-hand=N | material=A,D
//! out = "tables/kaooa-full"   # optional: overrides <out>/<name>
//! ```
//!
//! Relative paths are relative to the working directory. Unknown keys are errors.
//! The default batch ([`DEFAULT_MANIFEST`]) is embedded in the binary.

use super::driver::{
    method_memory, plan, solve, tier_method, Compact, Plan, SolveOptions, SolveReport, TierMethod,
};
use super::scope::{Scope, Solvable};
use crate::error::{quote, Error, Result};
use crate::progress::Progress;
use crate::variant::AnyGame;
use std::path::{Path, PathBuf};

/// The embedded default batch run by `huntsolve solve` without arguments.
pub const DEFAULT_MANIFEST: &str = include_str!("default.toml");

/// One job of a manifest.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Name (file-name safe).
    pub name: String,
    /// Rules string.
    pub rules: String,
    /// Scope in manifest form (see [`Scope::parse`]).
    #[serde(default)]
    pub scope: Option<String>,
    /// Output directory (default `<out>/<name>`).
    #[serde(default)]
    pub out: Option<PathBuf>,
}

/// A parsed manifest.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Base output directory (default `tables`).
    #[serde(default)]
    pub out: Option<PathBuf>,
    /// Worker threads.
    #[serde(default)]
    pub threads: Option<usize>,
    /// Memory limit (e.g. `8G`).
    #[serde(default)]
    pub memory: Option<String>,
    /// Results summary path without extension.
    #[serde(default)]
    pub results: Option<PathBuf>,
    /// The jobs, run in order.
    #[serde(default, rename = "job")]
    pub jobs: Vec<Job>,
}

impl Manifest {
    /// Parses and checks a manifest.
    pub fn parse(text: &str) -> Result<Manifest> {
        let m: Manifest =
            toml::from_str(text).map_err(|e| Error::input_data(format!("manifest: {e}")))?;
        // The bound of --threads (0: one per core).
        if let Some(t) = m.threads.filter(|&t| t > crate::progress::max_threads()) {
            return Err(Error::input_data(format!(
                "manifest: threads = {t}: expected 0 (one per core) to {}",
                crate::progress::max_threads()
            )));
        }
        if m.jobs.is_empty() {
            return Err(Error::input_data("manifest: no [[job]] entries"));
        }
        for (k, j) in m.jobs.iter().enumerate() {
            let safe = !j.name.is_empty()
                && j.name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                && !j.name.starts_with('.');
            if !safe {
                return Err(Error::input_data(format!(
                    "manifest job {}: name {} must be letters, digits, '-', '_' or '.'",
                    k + 1,
                    quote(&j.name)
                )));
            }
            if m.jobs[..k].iter().any(|o| o.name == j.name) {
                return Err(Error::input_data(format!(
                    "manifest: job name {} appears twice",
                    quote(&j.name)
                )));
            }
            Scope::parse(j.scope.as_deref().unwrap_or("whole")).map_err(|e| match e {
                Error::Usage(m) => {
                    Error::input_data(format!("manifest job {}: {m}", quote(&j.name)))
                }
                other => other,
            })?;
        }
        Ok(m)
    }

    /// Reads a manifest file.
    pub fn read(path: &Path) -> Result<Manifest> {
        let text = crate::regular::read_to_string(path)
            .map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        Manifest::parse(&text).map_err(|e| e.in_file(path))
    }

    /// Output directory of a job.
    pub fn job_dir(&self, job: &Job) -> PathBuf {
        job.out.clone().unwrap_or_else(|| {
            self.out
                .clone()
                .unwrap_or_else(|| PathBuf::from("tables"))
                .join(&job.name)
        })
    }
}

/// Tiers, slots, placements and memory of a plan, whatever the family.
#[derive(Clone, Debug)]
pub struct PlanInfo {
    /// Number of tiers.
    pub tiers: usize,
    /// Index slots.
    pub slots: u64,
    /// Placements with side to move.
    pub placements: u64,
    /// Estimated peak bytes.
    pub memory: u64,
    /// Estimated peak bytes one tier at a time (the least a solve can run with).
    pub memory_serial: u64,
    /// Estimated peak bytes one tier at a time with the compact solver for the
    /// tiers over a limit (the least `--compact auto` runs with).
    pub memory_compact: u64,
    /// As `memory_compact` with the largest tiers' child records held sparse,
    /// before their wins and losses (the least `--compact auto` runs with).
    pub memory_sparse: u64,
    /// Expected CPU seconds (a rough guide from measured rates).
    pub cpu_seconds: f64,
    /// The largest tier, and how it is solved under the `--compact` choice
    /// and limit given to [`plan_any`] (`None` for an empty plan).
    pub largest: Option<LargestTier>,
}

/// The largest tier of a plan, with the method chosen for it
/// ([`TierMethod`], the choice the driver makes) and that method's estimate.
#[derive(Clone, Debug)]
pub struct LargestTier {
    /// The tier's name.
    pub name: String,
    /// Its index slots.
    pub slots: u64,
    /// How it is solved.
    pub method: TierMethod,
    /// Planned bytes with that method (sparse children before their wins and losses).
    pub memory: u64,
}

fn largest<G: Solvable>(
    game: &G,
    p: &Plan<G::Tier>,
    compact: Compact,
    limit: Option<u64>,
) -> Result<Option<LargestTier>> {
    let Some(&t) = p.waves.iter().flatten().max_by_key(|&&t| game.tier_size(t)) else {
        return Ok(None);
    };
    let method = tier_method(game, t, compact, limit);
    Ok(Some(LargestTier {
        name: game.tier_name(t),
        slots: game.tier_size(t),
        method,
        memory: method_memory(game, t, method)?,
    }))
}

fn info<T>(p: &Plan<T>, largest: Option<LargestTier>) -> PlanInfo {
    PlanInfo {
        tiers: p.tiers(),
        slots: p.slots,
        placements: p.placements,
        memory: p.memory,
        memory_serial: p.memory_serial,
        memory_compact: p.memory_compact,
        memory_sparse: p.memory_sparse,
        cpu_seconds: p.cpu_seconds,
        largest,
    }
}

/// [`plan`] for a game of either family, with the largest tier's method under
/// `compact` and `limit`.
pub fn plan_any(
    game: &AnyGame,
    scope: &Scope,
    compact: Compact,
    limit: Option<u64>,
) -> Result<PlanInfo> {
    crate::with_game!(game, g => {
        let p = plan(g, scope)?;
        let big = largest(g, &p, compact, limit)?;
        Ok(info(&p, big))
    })
}

/// [`solve`] for a game of either family.
pub(crate) fn solve_any(
    game: &AnyGame,
    scope: &Scope,
    out_dir: &Path,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<SolveReport> {
    crate::with_game!(game, g => solve(g, scope, out_dir, options, progress))
}

/// Where a job's `seconds` come from ([`JobResult::timing`]).
pub(crate) mod timing {
    /// This run solved every tier of the job.
    pub(crate) const THIS_RUN: &str = "this run";
    /// Every tier was kept from disk; the figures are those of the run that solved
    /// them, carried over from the results file this run rewrites.
    pub(crate) const EARLIER_RUN: &str = "earlier run";
    /// This run solved some tiers and kept the others: the seconds cover only the
    /// tiers solved now.
    pub(crate) const PARTIAL: &str = "partial";
    /// Every tier was kept from disk and no earlier figure is known.
    pub(crate) const NOT_TIMED: &str = "not timed";
}

/// The outcome of one manifest job, for the results summary.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct JobResult {
    /// Job name.
    pub name: String,
    /// Canonical rules string (or the text given, if it did not parse).
    pub rules: String,
    /// Scope in manifest form.
    pub scope: String,
    /// Output directory.
    pub out: String,
    /// `ok` or the error message.
    pub status: String,
    /// Tiers in the scope.
    pub tiers: usize,
    /// Placements with side to move.
    pub positions: u64,
    /// Symmetry classes.
    pub classes: u64,
    /// Value of the start, if in scope.
    pub start: Option<String>,
    /// Distance of the start, if in scope.
    pub start_distance: Option<u32>,
    /// The side that wins from the start (absent for a draw, and in results
    /// written before this field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_winner: Option<String>,
    /// Seconds spent solving the job's tiers, as [`JobResult::timing`] says
    /// (`None` when not timed or failed).
    pub seconds: Option<f64>,
    /// Slots solved per second over those seconds.
    pub slots_per_second: Option<f64>,
    /// Tiers kept from disk by this run (solved by an earlier one).
    #[serde(default)]
    pub kept: usize,
    /// Where `seconds` come from: one of the `timing` constants (empty for a
    /// failed job, and in results files written before this field existed).
    #[serde(default)]
    pub timing: String,
}

impl JobResult {
    /// A job that failed before or while solving.
    pub fn failed(job: &Job, out: &Path, err: &Error) -> JobResult {
        JobResult {
            name: job.name.clone(),
            rules: job.rules.clone(),
            scope: job.scope.clone().unwrap_or_else(|| "whole".into()),
            out: out.display().to_string(),
            status: err.to_string(),
            tiers: 0,
            positions: 0,
            classes: 0,
            start: None,
            start_distance: None,
            start_winner: None,
            seconds: None,
            slots_per_second: None,
            kept: 0,
            timing: String::new(),
        }
    }

    /// A finished job. When this run kept every tier from disk, the timing of the
    /// same job in `earlier` (the results file this run rewrites) is carried over,
    /// if it describes the same solve; a rerun of the batch thus keeps the figures
    /// of the run that did the work instead of reporting the seconds of reading.
    pub fn done(
        job: &Job,
        scope: &Scope,
        out: &Path,
        r: &SolveReport,
        earlier: &[JobResult],
    ) -> JobResult {
        let s = &r.summary;
        let mut res = JobResult {
            name: job.name.clone(),
            rules: s.rules.clone(),
            scope: scope.name(),
            out: out.display().to_string(),
            status: "ok".into(),
            tiers: s.tiers.len(),
            positions: s.tiers.iter().map(|t| t.positions).sum(),
            classes: s.tiers.iter().map(|t| t.outcomes.classes).sum(),
            start: s.start.as_ref().map(|v| v.value.clone()),
            start_distance: s.start.as_ref().map(|v| v.distance),
            start_winner: s.start.as_ref().and_then(|v| v.winner.clone()),
            seconds: Some(r.seconds),
            slots_per_second: (r.slots_solved > 0 && r.seconds > 0.0)
                .then(|| r.slots_solved as f64 / r.seconds),
            kept: r.resumed,
            timing: timing::THIS_RUN.into(),
        };
        if r.resumed > 0 && r.solved > 0 {
            res.timing = timing::PARTIAL.into();
        } else if r.resumed > 0 {
            let same = earlier.iter().find(|e| e.describes_same_solve(&res));
            match same {
                Some(e) => {
                    res.seconds = e.seconds;
                    res.slots_per_second = e.slots_per_second;
                    res.timing = timing::EARLIER_RUN.into();
                }
                None => {
                    res.seconds = None;
                    res.slots_per_second = None;
                    res.timing = timing::NOT_TIMED.into();
                }
            }
        }
        res
    }

    /// Whether `self` (an earlier result) timed a complete solve of the job `now`
    /// describes: same job, rules, scope, tiers and classes, and seconds of a run
    /// that solved every tier (then or in the run it was carried over from).
    fn describes_same_solve(&self, now: &JobResult) -> bool {
        let complete = match self.timing.as_str() {
            timing::THIS_RUN | timing::EARLIER_RUN => true,
            // Written before `timing` existed: complete when it solved any slot.
            "" => self.slots_per_second.is_some_and(|v| v > 0.0),
            _ => false,
        };
        complete
            && self.seconds.is_some()
            && self.status == "ok"
            && self.name == now.name
            && self.rules == now.rules
            && self.scope == now.scope
            && self.tiers == now.tiers
            && self.classes == now.classes
    }

    /// The seconds cell of the Markdown summary: the figure, and where it comes
    /// from unless this run measured it.
    fn seconds_text(&self) -> String {
        match (self.seconds, self.timing.as_str()) {
            (Some(s), timing::EARLIER_RUN) => format!("{s:.2} (earlier run; all tiers kept)"),
            (Some(s), timing::PARTIAL) => format!(
                "{s:.2} (partial: {} {} kept)",
                self.kept,
                if self.kept == 1 { "tier" } else { "tiers" }
            ),
            (Some(s), _) => format!("{s:.2}"),
            (None, timing::NOT_TIMED) => "kept (not timed)".into(),
            (None, _) => "-".into(),
        }
    }
}

/// `w wins` in the words of the game `rules` names (`crows win`), or the
/// machine name when the rules no longer parse (a results file of an older build).
fn winner_words(rules: &str, w: &str) -> String {
    match crate::variant::AnyGame::parse(rules) {
        Ok(any) => crate::with_game!(&any, g => {
            crate::game::side_says(&crate::game::label_of(g, w), "wins", "win")
        }),
        Err(_) => format!("{w} wins"),
    }
}

/// The results summary as a Markdown table.
pub fn results_markdown(results: &[JobResult]) -> String {
    let mut s = String::from(
        "| job | rules | scope | tiers | positions | classes | start | seconds | slots/s | status |\n\
         |---|---|---|---:|---:|---:|---|---:|---:|---|\n",
    );
    for r in results {
        let start = match (&r.start, r.start_distance) {
            (Some(v), Some(d)) if v != "draw" => match &r.start_winner {
                Some(w) => format!("{} in {d}", winner_words(&r.rules, w)),
                None => format!("{v} in {d} (side to move)"),
            },
            (Some(v), _) => v.clone(),
            _ => "-".into(),
        };
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            r.rules,
            r.scope,
            r.tiers,
            r.positions,
            r.classes,
            start,
            r.seconds_text(),
            r.slots_per_second.map_or("-".into(), |v| format!("{v:.0}")),
            r.status.replace('|', "\\|")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_manifest_parses() {
        let m = Manifest::parse(DEFAULT_MANIFEST).unwrap();
        assert!(!m.jobs.is_empty());
    }

    #[test]
    fn bad_manifests_are_errors() {
        assert!(Manifest::parse("").is_err());
        assert!(Manifest::parse("[[job]]\nname='a'\n").is_err());
        assert!(Manifest::parse("[[job]]\nname='a'\nrules='x'\ncolour='red'\n").is_err());
        assert!(Manifest::parse("[[job]]\nname='../a'\nrules='x'\n").is_err());
        assert!(Manifest::parse("[[job]]\nname='a'\nrules='x'\nscope='most'\n").is_err());
        let two = "[[job]]\nname='a'\nrules='x'\n[[job]]\nname='a'\nrules='y'\n";
        assert!(Manifest::parse(two).is_err());
        let ok =
            Manifest::parse("out='t'\n[[job]]\nname='a'\nrules='x'\nscope='max-prey=3'\n").unwrap();
        assert_eq!(ok.job_dir(&ok.jobs[0]), PathBuf::from("t/a"));
    }

    /// `threads = 99999999999` started threads without end (1000 started 990):
    /// a manifest's threads take the bound of `--threads`.
    #[test]
    fn manifest_threads_are_bounded_like_the_option() {
        let job = "[[job]]\nname='a'\nrules='x'\n";
        let max = crate::progress::max_threads();
        for t in [max + 1, 99_999_999_999] {
            let e = Manifest::parse(&format!("threads = {t}\n{job}")).unwrap_err();
            assert!(e.to_string().contains(&format!("to {max}")), "{e}");
        }
        for t in [0, 1, max] {
            let m = Manifest::parse(&format!("threads = {t}\n{job}")).unwrap();
            assert_eq!(m.threads, Some(t));
        }
    }
}
