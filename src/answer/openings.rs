//! `openings --prove`: the opening lines ranked by search
//! ([`crate::search::openings`]) are each given to the df-pn prover
//! ([`crate::prove`]) with a budget per position, and re-ranked by proven
//! value where one was found.
//!
//! The value of a line's end position comes from, in this order:
//! 1. the tables (the oracle knows the position): exact value and distance,
//!    source `table`;
//! 2. the prover (up to two one-sided runs, the tables as leaves): the value,
//!    and for a win or a loss the length of the stored proof as an upper bound
//!    on the distance, source `proof`;
//! 3. the alpha-beta of the ranking when it proved the line (a proven score),
//!    source `search`, used only when the prover ran out of budget.
//!
//! Where the prover and the search both decide a line and disagree, one of them
//! is wrong; that is an [`Error::Internal`], never a silent choice.
//!
//! One proof table is shared by every line: its final entries are facts about
//! positions (see [`crate::prove`] for why they hold on any path), so what one
//! line proved is reused by its transpositions in the next.

use crate::error::{Error, Result};
use crate::game::{FullGame, Oracle, Value};
use crate::progress::{stop_requested, NoProgress, Progress};
use crate::prove::dfpn::{ProveConfig, Prover, RunOutcome, RunReport};
use crate::prove::tt::ProofTable;
use crate::search::openings::OpeningLine;
use crate::search::{MATE, PROVEN};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Budget and resources of [`prove_openings`].
#[derive(Clone, Debug)]
pub struct ProveOpeningsConfig {
    /// Prover node limit per position (`None`: none).
    pub nodes: Option<u64>,
    /// Prover time limit per position (`None`: none).
    pub time: Option<Duration>,
    /// Size of the proof table shared by all lines, in MiB.
    pub hash_mib: usize,
    /// Prover threads.
    pub threads: usize,
}

/// Where a proven value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ProvenSource {
    /// The solved tables hold the line's end position.
    Table,
    /// The df-pn prover proved it.
    Proof,
    /// The ranking's alpha-beta proved it (the prover did not finish).
    Search,
}

impl ProvenSource {
    /// The name used in text, CSV and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            ProvenSource::Table => "table",
            ProvenSource::Proof => "proof",
            ProvenSource::Search => "search",
        }
    }
}

/// What is proven about one opening line (first mover's view).
#[derive(Clone, Debug)]
pub struct ProvenOpening {
    /// The value from the first mover's view, if proven.
    pub value: Option<Value>,
    /// Where the value comes from.
    pub source: Option<ProvenSource>,
    /// Distance in plies from the start for a win or loss: exact from the
    /// tables, as the ranking's search found it for source `search`.
    pub distance: Option<u32>,
    /// Upper bound on the distance from the start (the proof's length), for a
    /// win or loss proven by the prover.
    pub plies_at_most: Option<u32>,
    /// The prover's runs on the line's end position (none for a table value).
    pub runs: Vec<RunReport>,
    /// Prover nodes on this line.
    pub prover_nodes: u64,
    /// Prover seconds on this line.
    pub prover_seconds: f64,
}

impl ProvenOpening {
    /// The score the line is ranked by: a proven value as a proven score (a win
    /// by its distance or proof length, a draw as 0), else the search's score
    /// kept inside the heuristic range.
    pub(crate) fn rank_score(&self, heuristic: i32) -> i32 {
        let d = self.distance.or(self.plies_at_most).unwrap_or(0);
        let d = d.min((MATE - PROVEN - 1) as u32) as i32;
        match self.value {
            Some(Value::Win) => MATE - d,
            Some(Value::Loss) => -(MATE - d),
            Some(Value::Draw) => 0,
            None => heuristic.clamp(-PROVEN, PROVEN),
        }
    }
}

/// What the ranking's search alone proved about `line` (without `--prove`).
impl<G: FullGame> From<&OpeningLine<G>> for ProvenOpening {
    fn from(line: &OpeningLine<G>) -> ProvenOpening {
        ProvenOpening {
            value: line.proven.map(|p| p.0),
            source: line.proven.map(|_| ProvenSource::Search),
            distance: line.proven.filter(|p| p.0 != Value::Draw).map(|p| p.1),
            plies_at_most: None,
            runs: Vec::new(),
            prover_nodes: 0,
            prover_seconds: 0.0,
        }
    }
}

fn flip_if(v: Value, odd: bool) -> Value {
    if odd {
        v.flip()
    } else {
        v
    }
}

/// Proves the end position of every line (see the module docs) and returns
/// the lines with what was proven, ranked best first for the first mover by
/// `ProvenOpening::rank_score` (stable: equal keys keep the search's order).
/// A stop request gives [`Error::Interrupted`].
pub fn prove_openings<G: FullGame, O: Oracle<G>>(
    game: &G,
    oracle: &O,
    lines: Vec<OpeningLine<G>>,
    cfg: &ProveOpeningsConfig,
    progress: &dyn Progress,
) -> Result<Vec<(OpeningLine<G>, ProvenOpening)>> {
    let start = game.start();
    let tt = ProofTable::new(cfg.hash_mib.max(1));
    progress.stage("prove openings", lines.len() as u64);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if stop_requested() {
            progress.finish_stage();
            return Err(Error::Interrupted);
        }
        let mut pos = start.clone();
        for &m in &line.moves {
            pos = game.play(&pos, m);
        }
        let plies = line.moves.len() as u32;
        // The end position's mover is the first mover after an even line.
        let odd = plies % 2 == 1;
        let proven = if let Some((v, d)) = oracle.probe(game, &pos) {
            ProvenOpening {
                value: Some(flip_if(v, odd)),
                source: Some(ProvenSource::Table),
                distance: (v != Value::Draw).then_some(d + plies),
                plies_at_most: None,
                runs: Vec::new(),
                prover_nodes: 0,
                prover_seconds: 0.0,
            }
        } else {
            let t0 = Instant::now();
            let prover = Prover::new(
                game,
                oracle,
                &tt,
                ProveConfig {
                    threads: cfg.threads.max(1),
                    time: cfg.time,
                    nodes: cfg.nodes,
                    ..Default::default()
                },
            );
            let (value, runs) = prover.value(&pos, &NoProgress);
            if runs.iter().any(|r| r.outcome == RunOutcome::Unknown) && stop_requested() {
                progress.finish_stage();
                return Err(Error::Interrupted);
            }
            let mut p = ProvenOpening {
                value: value.map(|v| flip_if(v, odd)),
                source: value.map(|_| ProvenSource::Proof),
                distance: None,
                plies_at_most: runs
                    .iter()
                    .find_map(|r| r.proof_plies)
                    .filter(|_| matches!(value, Some(Value::Win | Value::Loss)))
                    .map(|d| d + plies),
                prover_nodes: runs.iter().map(|r| r.nodes).sum(),
                prover_seconds: t0.elapsed().as_secs_f64(),
                runs,
            };
            match (p.value, line.proven) {
                (Some(a), Some((b, _))) if a != b => {
                    return Err(Error::Internal(format!(
                        "opening {}: the prover says {} for the first mover, the search {}",
                        line.text,
                        a.name(),
                        b.name()
                    )));
                }
                (None, Some((b, d))) => {
                    p.value = Some(b);
                    p.source = Some(ProvenSource::Search);
                    p.distance = (b != Value::Draw).then_some(d);
                }
                _ => {}
            }
            p
        };
        progress.advance(1);
        progress.message(&format!(
            "{} {}",
            line.text,
            proven.value.map_or("unknown", |v| v.name())
        ));
        out.push((line, proven));
    }
    progress.finish_stage();
    out.sort_by_key(|(l, p)| std::cmp::Reverse(p.rank_score(l.score)));
    Ok(out)
}
