//! One way to answer a position, for `query`, the explorer's server and every
//! other face: the tables first, then the df-pn prover, then search, in the
//! order and with the budgets a [`Policy`] value names.
//!
//! 1. With [`Policy::over_from_rules`], a position whose game is over is
//!    answered by the rules (source [`Source::Rules`]).
//! 2. The first table set that knows the position's value answers it exactly
//!    ([`Source::Table`]); moves leading outside the tables are scored by a
//!    search, and the principal variation follows the tables ([`exact_pv`]).
//! 3. Where no table knows it, [`ProverUse`] says whether the prover tries
//!    first (its answer stands when it proves a value) or answers instead of
//!    the search (its answer stands even when the value stays unknown).
//! 4. Otherwise a search, with the first table set as its oracle.
//!
//! After every search or proof the tables are asked whether they met a damaged
//! file meanwhile (the error is returned), and a requested stop is
//! [`Error::Interrupted`].

use super::exact::exact_answer;
use super::query::{answer, from_table, SearchAnswer};
use crate::error::{Error, Result};
use crate::game::{FullGame, Value};
use crate::progress::{stop_requested, NoProgress, Progress};
use crate::search::{Limit, SearchConfig, TransTable};
use crate::table::query::{compare_results, Exact};
use crate::table::{query_with, TableOracle};
use crate::tier::TierGame;
use std::time::{Duration, Instant};

/// Plies of a drawn principal variation from the tables (a drawn line never
/// ends).
pub const TABLE_DRAW_PV: usize = 12;
/// Shortest search when a budget is nearly spent: a search needs at least one
/// iteration to name a move.
const MIN_SEARCH_TIME: Duration = Duration::from_millis(1);

/// When the df-pn prover answers a position no table knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProverUse {
    /// Never: the tables or the search answer.
    Off,
    /// Before the search, on one thread, with half of [`Policy::budget`] (all
    /// of the search's time limit without one) and a memory budget of
    /// `hash_mib` MiB: its answer stands when it proves a value, else the
    /// search answers. Skipped for rules whose repetition is not a draw (the
    /// only rule the prover handles soundly). The explorer's policy.
    Try {
        /// Memory budget of the prover (MiB).
        hash_mib: usize,
    },
    /// Instead of the search, with the search's threads and time limit: its
    /// answer stands even when the value stays unknown (`query --exact`
    /// without `--depth`).
    Instead {
        /// Memory budget of the prover (MiB).
        hash_mib: usize,
    },
}

/// How a position is answered: the search, the prover's part and budgets.
#[derive(Clone, Debug)]
pub struct Policy {
    /// The search: limits and threads. With [`Policy::budget`], its limits are
    /// replaced by the time left of the budget.
    pub search: SearchConfig,
    /// A time for the whole answer, shared by the prover and the searches.
    pub budget: Option<Duration>,
    /// The prover's part.
    pub prover: ProverUse,
    /// A position whose game is over is answered by the rules, before any table.
    pub over_from_rules: bool,
}

/// Where an answer comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// The game is over.
    Rules,
    /// The tables (exact).
    Table,
    /// The df-pn prover.
    Proof,
    /// A search (not proven, unless the search proved it).
    Search,
}

impl Source {
    /// The name the explorer's JSON uses (`rules`, `table`, `proof`, `search`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Table => "table",
            Source::Proof => "proof",
            Source::Search => "search",
        }
    }
}

/// A position answered.
#[derive(Clone, Debug)]
pub struct Answered {
    /// The answer, in the keys of `query --json`.
    pub answer: SearchAnswer,
    /// Where it comes from.
    pub source: Source,
    /// The index of the table set used (answering, or as leaves or oracle).
    pub table: Option<usize>,
    /// The moves whose values the tables know (source [`Source::Table`]).
    pub table_moves: Vec<String>,
}

/// Answers `pos` by `policy`, with `tables` the table sets to ask in order
/// (possibly none) and `tt` the search's transposition table (cleared before
/// each search, so answers do not depend on the order of requests).
pub fn answer_position<G: TierGame + FullGame>(
    game: &G,
    pos: &G::Pos,
    tables: &[&TableOracle<G>],
    policy: &Policy,
    tt: &TransTable,
) -> Result<Answered> {
    answer_position_with(game, pos, tables, policy, tt, &NoProgress)
}

/// [`answer_position`] with the prover's stages reported to `progress`
/// (`query --exact` shows them; a search reports nothing).
pub fn answer_position_with<G: TierGame + FullGame>(
    game: &G,
    pos: &G::Pos,
    tables: &[&TableOracle<G>],
    policy: &Policy,
    tt: &TransTable,
    progress: &dyn Progress,
) -> Result<Answered> {
    let started = Instant::now();
    let answered = |answer, source, table| Answered {
        answer,
        source,
        table,
        table_moves: Vec::new(),
    };
    if policy.over_from_rules && game.outcome(pos).is_some() {
        let q = query_with(game, pos, &|_| Ok(None))?;
        return Ok(answered(
            from_table(&q, Vec::new(), None),
            Source::Rules,
            None,
        ));
    }
    let search = |oracle: Option<&TableOracle<G>>| -> Result<SearchAnswer> {
        let cfg = match policy.budget {
            Some(b) => SearchConfig {
                limits: vec![Limit::Time(
                    b.saturating_sub(started.elapsed()).max(MIN_SEARCH_TIME),
                )],
                ..policy.search.clone()
            },
            None => policy.search.clone(),
        };
        tt.clear();
        let a = answer(game, pos, &oracle, &cfg, tt);
        checked(a, oracle)
    };
    for (i, &oracle) in tables.iter().enumerate() {
        let exact = |p: &G::Pos| oracle.try_probe(p);
        let q = query_with(game, pos, &exact)?;
        if q.value.is_none() {
            continue;
        }
        let searched = if q.moves.iter().any(|m| m.value.is_none()) {
            Some(search(Some(oracle))?)
        } else {
            None
        };
        // A won or lost line ends at its distance; a drawn one never ends.
        let plies = match (q.value, q.distance) {
            (Some(Value::Draw), _) | (_, None) => TABLE_DRAW_PV,
            (_, Some(d)) => d as usize,
        };
        let pv = exact_pv(game, pos, &exact, plies)?;
        let table_moves = q
            .moves
            .iter()
            .filter(|m| m.value.is_some())
            .map(|m| m.mv.clone())
            .collect();
        return Ok(Answered {
            answer: from_table(&q, pv, searched.as_ref()),
            source: Source::Table,
            table: Some(i),
            table_moves,
        });
    }
    let first = tables.first().copied();
    let table = first.map(|_| 0);
    if let Some(a) = prove(game, pos, first, policy, tt, progress)? {
        return Ok(answered(a, Source::Proof, table));
    }
    Ok(answered(search(first)?, Source::Search, table))
}

/// The prover's part of [`answer_position`]: `None` when the policy gives it
/// none, or when it tried and left the value unknown.
fn prove<G: TierGame + FullGame>(
    game: &G,
    pos: &G::Pos,
    oracle: Option<&TableOracle<G>>,
    policy: &Policy,
    tt: &TransTable,
    progress: &dyn Progress,
) -> Result<Option<SearchAnswer>> {
    let search_time = policy.search.limits.iter().find_map(|l| match l {
        Limit::Time(t) => Some(*t),
        _ => None,
    });
    let (hash_mib, threads, time, stands) = match policy.prover {
        ProverUse::Off => return Ok(None),
        ProverUse::Try { hash_mib } => {
            if crate::prove::check_repetition_rule(game).is_err() {
                return Ok(None);
            }
            let time = policy.budget.map(|b| b / 2).or(search_time);
            (hash_mib, 1, time, false)
        }
        ProverUse::Instead { hash_mib } => {
            // Exact or refused: the prover treats every cycle as a draw.
            crate::prove::check_repetition_rule(game)?;
            (hash_mib, policy.search.threads, search_time, true)
        }
    };
    let a = exact_answer(
        game,
        pos,
        &oracle,
        hash_mib,
        threads,
        time,
        tt,
        &policy.search.stop,
        progress,
    );
    let a = checked(a, oracle)?;
    Ok((stands || a.value.is_some()).then_some(a))
}

/// An answer, unless the tables met a damaged file meanwhile or a stop was
/// requested.
fn checked<G: TierGame>(a: SearchAnswer, oracle: Option<&TableOracle<G>>) -> Result<SearchAnswer> {
    if let Some(e) = oracle.and_then(|o| o.take_error()) {
        return Err(e);
    }
    if stop_requested() {
        return Err(Error::Interrupted);
    }
    Ok(a)
}

/// A move's result as [`compare_results`] orders it: (value, distance).
type Ranked = (Option<Value>, Option<u32>);

/// The line of best moves by exact values from `pos`: at each ply the first
/// best move in [`query_with`]'s order (a strictly better result replaces the
/// one found, so among equals the generator's first stays, as in its stable
/// sort), stopping at a terminal position, where no move's value is known, or
/// after `max_plies` plies (draws go on for ever). Each ply probes the children
/// and formats only the move played.
pub fn exact_pv<G: crate::game::Notation>(
    game: &G,
    pos: &G::Pos,
    exact: &dyn Fn(&G::Pos) -> Result<Exact>,
    max_plies: usize,
) -> Result<Vec<String>> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut moves = Vec::new();
    while line.len() < max_plies && game.outcome(&p).is_none() {
        game.legal_moves(&p, &mut moves);
        let mut best: Option<(G::Move, Ranked)> = None;
        for &m in &moves {
            let child = game.play(&p, m);
            let known = match game.outcome(&child) {
                Some(v) => Some((v, 0)),
                None => exact(&child)?,
            };
            let Some((v, d)) = known else { continue };
            let result = (Some(v.flip()), Some(d + 1));
            if best
                .as_ref()
                .is_none_or(|b| compare_results(result, b.1) == std::cmp::Ordering::Less)
            {
                best = Some((m, result));
            }
        }
        let Some((m, _)) = best else { break };
        line.push(game.format_move(&p, m));
        p = game.play(&p, m);
    }
    Ok(line)
}
