//! The explorer's JSON API: table sets, games, and the four answers.
//!
//! # `GET /api/position?rules=R&position=P[&moves=M][&tables=NAME][&time=S]`
//! `position` is a position text or `start` (default); `moves` a
//! space-separated line played from it first; `tables` picks a table set by
//! name (default: every set whose rules equal `R`); `time` the time in seconds
//! of the whole answer for a position no table covers (default 1, at most 10;
//! the prover gets half, the search the rest). A `board=` option in `R` must
//! name a built-in board: no request makes the server read a file.
//!
//! The answer has the keys of `huntsolve query --json` (`position`, `value`,
//! `distance`, `best`, `moves` with `move`/`value`/`distance`/`score`, `score`,
//! `pv`, `depth`, `nodes`, `nps`, `seconds`), computed by the same library
//! function ([`crate::answer::answer_position`], under the explorer's
//! policy), and:
//! - `source`: `table` (exact, from the tables), `proof` (exact, from
//!   the df-pn prover with the tables as leaves, within the request's time), `search` (a time-limited search:
//!   **not proven**; `value` is set only where the search itself proved it) or
//!   `rules` (the game is over);
//! - `exact`: whether `value` is a proven game value;
//! - `tables`: the name of the table set used, if any;
//! - per move: `position` (the resulting position text) and `source`
//!   (`table`, or `search` for a move leading outside the tables);
//! - `rules` (canonical), `family`, `side` (name of the side to move),
//!   `sides`, `side_label` and `side_labels` (the same in the game's own
//!   words: `vulture`/`crows` in kaooa; the page shows these), `over` (the
//!   outcome when the game is over), and `pieces`
//!   (point name → piece letter), `hand` (pieces in hand per side, hunt games)
//!   and `captured` (prey taken, hunt games) to draw the position.

use crate::answer::{answer_position, Policy, ProverUse, Source};
use crate::error::{Error, Result, TableFault};
use crate::game::{play_line, Evaluate, Game, Notation};
use crate::hunt::HuntGame;
use crate::progress::NoProgress;
use crate::search::{SearchConfig, TransTable};
use crate::table::analyze::{analyze_dir_with, AnalyzeOptions};
use crate::table::{list_tiers, query_with, rules_of_dir, TableOracle};
use crate::tafl::TaflGame;
use crate::tier::TierGame;
use crate::variant::{all_presets, AnyGame};
use crate::with_game;
use serde::Serialize;
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Search time for a position no table covers, unless the request says `time`.
pub(crate) const DEFAULT_SEARCH_TIME: Duration = Duration::from_secs(1);
/// Longest answer a request may ask for: the time bounds the whole answer
/// (proof attempt and search together), not each part.
pub(crate) const MAX_SEARCH_TIME: Duration = Duration::from_secs(10);
/// Transposition table of one search (MiB).
const SEARCH_HASH_MIB: usize = 16;
/// Longest moves line a request may play.
const MAX_LINE: usize = 1000;
/// Longest wins listed by `/api/stats`.
const STATS_TOP: usize = 10;
/// Rules strings kept built (a request naming many different variants evicts).
const GAME_CACHE: usize = 64;

/// Decoded query parameters.
pub(crate) type Params = BTreeMap<String, String>;

/// What an answer may do.
#[derive(Clone, Copy)]
pub(crate) enum Work<'a> {
    /// Only what needs no search, proof or table analysis (presets, boards,
    /// positions the rules or the tables answer, statistics already computed):
    /// anything else is left undone (`None`).
    Quick,
    /// Anything, with searches that stop when the flag is set (the client left).
    Full(&'a Arc<AtomicBool>),
}

/// Why a request failed: the HTTP status and a message for `{"error": ...}`.
#[derive(Debug)]
pub(crate) enum ApiError {
    /// 400: the request is malformed (unknown rules, bad position, illegal move ...).
    BadRequest(String),
    /// 404: no such page or table set.
    NotFound(String),
    /// 500: the server's side failed (a damaged table file, an I/O error).
    Internal(String),
}

impl ApiError {
    /// HTTP status code.
    pub(crate) fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) => 400,
            ApiError::NotFound(_) => 404,
            ApiError::Internal(_) => 500,
        }
    }

    /// The message.
    pub(crate) fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m) | ApiError::NotFound(m) | ApiError::Internal(m) => m.clone(),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        match e {
            // The request's own mistakes.
            Error::Rules(_)
            | Error::BoardFileRefused { .. }
            | Error::Position(_)
            | Error::Move(_)
            | Error::Usage(_)
            | Error::Input { .. }
            | Error::Certificate { .. } => ApiError::BadRequest(e.to_string()),
            // The server's side: its tables, memory, files, or a bug.
            Error::Board(_)
            | Error::Table { .. }
            | Error::Memory(_)
            | Error::Interrupted
            | Error::Io { .. }
            | Error::Disagreement(_)
            | Error::Internal(_)
            | Error::Cluster(_)
            | Error::JobsFailed { .. } => ApiError::Internal(e.to_string()),
        }
    }
}

pub(crate) type ApiResult<T> = std::result::Result<T, ApiError>;

/// The oracle of one table set, by family.
enum SetOracle {
    Hunt(TableOracle<HuntGame>),
    Tafl(TableOracle<TaflGame>),
}

/// One directory of tables served under a name.
struct TableSetEntry {
    name: String,
    dir: PathBuf,
    rules: String,
    tiers: usize,
    game: AnyGame,
    oracle: SetOracle,
}

/// Everything the handlers share: table sets, built games, cached statistics.
pub(crate) struct State {
    sets: Vec<TableSetEntry>,
    games: Mutex<HashMap<String, Arc<AnyGame>>>,
    stats: Mutex<HashMap<String, Arc<String>>>,
    search_time: Duration,
}

/// The table sets under `dirs`: a directory holding tables is one set; one
/// that holds none contributes each sub-directory that does.
fn find_sets(dirs: &[PathBuf]) -> Result<Vec<(String, PathBuf)>> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    // A set is named after its directory; a repeated name gets `-2`, `-3`, ...
    fn add(found: &mut Vec<(String, PathBuf)>, dir: &Path) {
        let base = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("tables")
            .to_string();
        let mut name = base.clone();
        let mut k = 2;
        while found.iter().any(|(n, _)| *n == name) {
            name = format!("{base}-{k}");
            k += 1;
        }
        found.push((name, dir.to_path_buf()));
    }
    for dir in dirs {
        if !list_tiers(dir)?.is_empty() {
            add(&mut found, dir);
            continue;
        }
        let entries = std::fs::read_dir(dir)
            .map_err(|e| Error::io(format!("reading table directory {}", dir.display()), e))?;
        let mut subs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        subs.sort();
        let before = found.len();
        for sub in subs {
            if list_tiers(&sub).is_ok_and(|t| !t.is_empty()) {
                add(&mut found, &sub);
            }
        }
        if found.len() == before {
            return Err(Error::table(
                dir,
                TableFault::Missing,
                "no table files (*.hst) in it or in its sub-directories",
            ));
        }
    }
    Ok(found)
}

impl State {
    /// Opens the table sets found under `dirs` (see [`Config::tables`](super::Config)).
    pub(crate) fn new(dirs: &[PathBuf], search_time: Duration) -> Result<State> {
        let mut sets = Vec::new();
        for (name, dir) in find_sets(dirs)? {
            let rules = rules_of_dir(&dir)?;
            let game = AnyGame::parse(&rules)?;
            let oracle = match &game {
                AnyGame::Hunt(g) => SetOracle::Hunt(TableOracle::new(g, &dir)?),
                AnyGame::Tafl(g) => SetOracle::Tafl(TableOracle::new(g, &dir)?),
            };
            let tiers = list_tiers(&dir)?.len();
            let rules = with_game!(&game, g => g.rules_string());
            sets.push(TableSetEntry {
                name,
                dir,
                rules,
                tiers,
                game,
                oracle,
            });
        }
        Ok(State {
            sets,
            games: Mutex::new(HashMap::new()),
            stats: Mutex::new(HashMap::new()),
            search_time,
        })
    }

    /// (name, rules) of every table set.
    pub(crate) fn set_names(&self) -> Vec<(String, String)> {
        self.sets
            .iter()
            .map(|s| (s.name.clone(), s.rules.clone()))
            .collect()
    }

    /// The game of a rules string, built once.
    fn game(&self, rules: &str) -> ApiResult<Arc<AnyGame>> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(g) = games.get(rules) {
            return Ok(g.clone());
        }
        // A table set's rules may name a board file (given at the command
        // line); any other rules string may name only built-in boards.
        let g = match self.sets.iter().find(|s| s.rules == rules) {
            Some(s) => Arc::new(s.game.clone()),
            None => Arc::new(AnyGame::parse_builtin(rules)?),
        };
        if games.len() >= GAME_CACHE {
            games.clear();
        }
        games.insert(rules.to_string(), g.clone());
        Ok(g)
    }

    /// The answer of an API path; `None` when `work` is [`Work::Quick`] and
    /// the answer needs more.
    pub(crate) fn route(
        &self,
        path: &str,
        params: &Params,
        work: Work,
    ) -> Option<ApiResult<String>> {
        match path {
            "/api/presets" => Some(self.presets()),
            "/api/board" => Some(self.board(params)),
            "/api/position" => self.position(params, work).transpose(),
            "/api/stats" => self.stats(params, work).transpose(),
            _ => Some(Err(ApiError::NotFound(format!("no such page: {path}")))),
        }
    }

    /// `GET /api/presets`.
    pub(crate) fn presets(&self) -> ApiResult<String> {
        let presets: Vec<Json> = all_presets()
            .iter()
            .map(|(f, n, d)| json!({"family": f, "name": n, "description": d}))
            .collect();
        let tables: Vec<Json> = self
            .sets
            .iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "rules": s.rules,
                    "family": with_game!(&s.game, g => g.family()),
                    "tiers": s.tiers,
                    "dir": s.dir.display().to_string(),
                })
            })
            .collect();
        Ok(json!({"presets": presets, "tables": tables}).to_string())
    }

    /// `GET /api/board?rules=R`.
    pub(crate) fn board(&self, params: &Params) -> ApiResult<String> {
        let game = self.game(required(params, "rules")?)?;
        Ok(board_json(&game).to_string())
    }

    /// `GET /api/stats?tables=NAME`: computed on first request, then cached.
    pub(crate) fn stats(&self, params: &Params, work: Work) -> ApiResult<Option<String>> {
        let name = required(params, "tables")?;
        let set = self.sets.iter().find(|s| s.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.sets.iter().map(|s| s.name.as_str()).collect();
            ApiError::NotFound(format!(
                "no table set '{name}'; served: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        })?;
        if let Some(s) = self
            .stats
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
        {
            return Ok(Some(s.as_ref().clone()));
        }
        if let Work::Quick = work {
            return Ok(None);
        }
        let opts = AnalyzeOptions {
            top: STATS_TOP,
            by_side: false,
        };
        let report = with_game!(&set.game, g => analyze_dir_with(g, &set.dir, &opts, &NoProgress))?;
        let mut v =
            serde_json::to_value(&report).map_err(|e| ApiError::Internal(format!("JSON: {e}")))?;
        v["name"] = json!(set.name);
        let text = Arc::new(v.to_string());
        self.stats
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_string(), text.clone());
        Ok(Some(text.as_ref().clone()))
    }

    /// `GET /api/position?...` (see the module docs).
    pub(crate) fn position(&self, params: &Params, work: Work) -> ApiResult<Option<String>> {
        for key in params.keys() {
            if !["rules", "position", "moves", "tables", "time"].contains(&key.as_str()) {
                return Err(ApiError::BadRequest(format!(
                    "unknown parameter '{key}'; accepted: rules, position, moves, tables, time"
                )));
            }
        }
        let game = self.game(required(params, "rules")?)?;
        let position = params.get("position").map_or("start", |s| s.as_str());
        let moves = params.get("moves").map_or("", |s| s.as_str());
        if moves.split_whitespace().count() > MAX_LINE {
            return Err(ApiError::BadRequest(format!(
                "moves: at most {MAX_LINE} moves"
            )));
        }
        let time = match params.get("time") {
            None => self.search_time,
            Some(t) => {
                let secs: f64 = t.trim().parse().map_err(|_| {
                    ApiError::BadRequest(format!("time '{t}': expected seconds, e.g. 0.5"))
                })?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err(ApiError::BadRequest(format!(
                        "time '{t}': expected a positive number of seconds"
                    )));
                }
                // Clamped before converting: a huge number must not overflow a Duration.
                Duration::from_secs_f64(secs.min(MAX_SEARCH_TIME.as_secs_f64()))
            }
        };
        let rules = with_game!(game.as_ref(), g => g.rules_string());
        let chosen: Vec<&TableSetEntry> = match params.get("tables") {
            Some(name) => {
                let set = self
                    .sets
                    .iter()
                    .find(|s| s.name == *name)
                    .ok_or_else(|| ApiError::NotFound(format!("no table set '{name}'")))?;
                if set.rules != rules {
                    return Err(ApiError::BadRequest(format!(
                        "table set '{name}' holds {}, not {rules}",
                        set.rules
                    )));
                }
                vec![set]
            }
            None => self.sets.iter().filter(|s| s.rules == rules).collect(),
        };
        let req = Request {
            position,
            moves,
            time,
            work,
        };
        let answered = match game.as_ref() {
            AnyGame::Hunt(g) => {
                let oracles: Vec<(&str, &TableOracle<HuntGame>)> = chosen
                    .iter()
                    .filter_map(|s| match &s.oracle {
                        SetOracle::Hunt(o) => Some((s.name.as_str(), o)),
                        SetOracle::Tafl(_) => None,
                    })
                    .collect();
                answer_json(g, &oracles, &req)?
            }
            AnyGame::Tafl(g) => {
                let oracles: Vec<(&str, &TableOracle<TaflGame>)> = chosen
                    .iter()
                    .filter_map(|s| match &s.oracle {
                        SetOracle::Tafl(o) => Some((s.name.as_str(), o)),
                        SetOracle::Hunt(_) => None,
                    })
                    .collect();
                answer_json(g, &oracles, &req)?
            }
        };
        let Some(mut v) = answered else {
            return Ok(None);
        };
        let text = v["position"].as_str().unwrap_or_default().to_string();
        let drawing = pieces_json(&game, &text)?;
        if let (Some(obj), Json::Object(extra)) = (v.as_object_mut(), drawing) {
            obj.extend(extra);
        }
        Ok(Some(v.to_string()))
    }
}

fn required<'a>(params: &'a Params, key: &str) -> ApiResult<&'a str> {
    params
        .get(key)
        .map(|s| s.as_str())
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ApiError::BadRequest(format!("missing parameter '{key}'")))
}

/// What `/api/position` asks, once validated.
struct Request<'a> {
    position: &'a str,
    moves: &'a str,
    time: Duration,
    work: Work<'a>,
}

/// A move of the answer with its resulting position.
#[derive(Serialize)]
struct ApiMove {
    #[serde(rename = "move")]
    mv: String,
    value: Option<&'static str>,
    distance: Option<u32>,
    score: i32,
    source: &'static str,
    position: String,
}

/// The answer of `/api/position` (before the pieces are added).
#[derive(Serialize)]
struct ApiAnswer {
    rules: String,
    family: &'static str,
    position: String,
    side: &'static str,
    sides: [&'static str; 2],
    side_label: &'static str,
    side_labels: [&'static str; 2],
    over: Option<&'static str>,
    source: &'static str,
    exact: bool,
    tables: Option<String>,
    value: Option<&'static str>,
    distance: Option<u32>,
    best: Option<String>,
    moves: Vec<ApiMove>,
    score: i32,
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
    nps: u64,
    seconds: f64,
    /// What results/ records about the position (see `crate::stats::KNOWN`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    recorded: Vec<crate::stats::KnownClaim>,
}

/// Hash for one proof attempt (MiB).
const PROOF_HASH_MIB: usize = 64;

/// How the explorer answers a position ([`crate::answer::answer_position`]):
/// the rules where the game is over, then the first table set that knows the
/// value, then the df-pn prover (the first table set as leaves, half the
/// request's time: `source: "proof"` when it proves a value), then a
/// time-limited search on one thread with what is left of the time, stopped
/// early when `stop` is set (the prover part does not see the flag: its half of
/// the time bounds it).
fn policy(time: Duration, stop: Arc<AtomicBool>) -> Policy {
    Policy {
        search: SearchConfig {
            threads: 1,
            stop,
            ..Default::default()
        },
        budget: Some(time),
        prover: ProverUse::Try {
            hash_mib: PROOF_HASH_MIB,
        },
        over_from_rules: true,
    }
}

/// Whether [`answer_position`] answers `pos` without a search or a proof: the
/// game is over, or the first table set that knows its value (the one
/// `answer_position` answers from) knows every move's value too.
fn without_search<G: TierGame>(game: &G, pos: &G::Pos, tables: &[&TableOracle<G>]) -> Result<bool> {
    if game.outcome(pos).is_some() {
        return Ok(true);
    }
    for oracle in tables {
        let q = query_with(game, pos, &|p| oracle.try_probe(p))?;
        if q.value.is_some() {
            return Ok(q.moves.iter().all(|m| m.value.is_some()));
        }
    }
    Ok(false)
}

/// Answers a position by [`policy`] and adds what the page draws it with;
/// `None` under [`Work::Quick`] when that takes a search or a proof.
fn answer_json<G: TierGame + Evaluate>(
    game: &G,
    oracles: &[(&str, &TableOracle<G>)],
    req: &Request,
) -> ApiResult<Option<Json>> {
    let pos = game.parse_position(req.position)?;
    let pos = play_line(game, &pos, req.moves)?;
    let over = game.outcome(&pos);
    let tables: Vec<&TableOracle<G>> = oracles.iter().map(|&(_, o)| o).collect();
    let (stop, hash_mib) = match req.work {
        Work::Quick if !without_search(game, &pos, &tables)? => return Ok(None),
        // No search: the smallest transposition table.
        Work::Quick => (Arc::new(AtomicBool::new(false)), 1),
        Work::Full(stop) => (stop.clone(), SEARCH_HASH_MIB),
    };
    let tt = TransTable::new(hash_mib)?;
    let found = match answer_position(game, &pos, &tables, &policy(req.time, stop), &tt) {
        Err(Error::Interrupted) => return Err(ApiError::Internal("the server is stopping".into())),
        found => found?,
    };
    let a = &found.answer;
    let source = found.source;
    let mut legal = Vec::new();
    game.legal_moves(&pos, &mut legal);
    let by_text: HashMap<String, G::Move> = legal
        .iter()
        .map(|&m| (game.format_move(&pos, m), m))
        .collect();
    let mut moves = Vec::with_capacity(a.moves.len());
    for m in &a.moves {
        let mv = by_text.get(&m.mv).ok_or_else(|| {
            ApiError::Internal(format!("answer names move '{}' that is not legal", m.mv))
        })?;
        let move_source = match source {
            Source::Table if found.table_moves.contains(&m.mv) => "table",
            Source::Table => "search",
            s => s.name(),
        };
        moves.push(ApiMove {
            mv: m.mv.clone(),
            value: m.value,
            distance: m.distance,
            score: m.score,
            source: move_source,
            position: game.format_position(&game.play(&pos, *mv)),
        });
    }
    let exact = source != Source::Search && a.value.is_some();
    let sides = [game.side_name(0), game.side_name(1)];
    let rules = game.rules_string();
    let side_labels = [game.side_label(0), game.side_label(1)];
    let to_move = game.side_to_move(&pos);
    let out = ApiAnswer {
        rules,
        family: game.family(),
        position: a.position.clone(),
        side: sides[to_move],
        sides,
        side_label: side_labels[to_move],
        side_labels,
        over: over.map(|v| v.name()),
        source: source.name(),
        exact,
        tables: found.table.map(|i| oracles[i].0.to_string()),
        value: a.value,
        distance: a.distance,
        best: a.best.clone(),
        moves,
        score: a.score,
        pv: a.pv.clone(),
        depth: a.depth,
        nodes: a.nodes,
        nps: a.nps,
        seconds: a.seconds,
        recorded: crate::stats::known_claims(game, &pos)
            .into_iter()
            .copied()
            .collect(),
    };
    serde_json::to_value(&out)
        .map(Some)
        .map_err(|e| ApiError::Internal(format!("JSON: {e}")))
}

/// The geometry of the game's board.
fn board_json(game: &AnyGame) -> Json {
    match game {
        AnyGame::Hunt(g) => {
            let b = g.board();
            let points: Vec<Json> = b
                .points
                .iter()
                .map(|p| json!({"id": p.id, "x": p.x, "y": p.y, "name": p.name}))
                .collect();
            let lines: Vec<Vec<&str>> = b
                .lines
                .iter()
                .map(|l| l.iter().map(|&i| b.name_of(i)).collect())
                .collect();
            json!({
                "rules": g.rules_string(),
                "family": "hunt",
                "kind": "points",
                "board": b.name,
                "points": points,
                "lines": lines,
                "sides": [g.side_name(0), g.side_name(1)],
                "side_labels": [g.side_label(0), g.side_label(1)],
                "pieces": {"H": g.side_name(0), "P": g.side_name(1)},
            })
        }
        AnyGame::Tafl(g) => {
            let geo = g.geometry();
            let n = geo.n;
            let points: Vec<Json> = (0..geo.cells)
                .map(|c| json!({"id": c, "x": c % n, "y": c / n, "name": geo.cell_name(c as u8)}))
                .collect();
            let corners: Vec<String> = (0..geo.cells as u8)
                .filter(|&c| geo.corners >> c & 1 == 1)
                .map(|c| geo.cell_name(c))
                .collect();
            let goal = match g.rules().goal {
                crate::tafl::Goal::Corners => "corners",
                crate::tafl::Goal::Edge => "edge",
            };
            json!({
                "rules": g.rules_string(),
                "family": "tafl",
                "kind": "grid",
                "n": n,
                "points": points,
                "throne": geo.cell_name(geo.throne),
                "corners": corners,
                "goal": goal,
                "sides": [g.side_name(0), g.side_name(1)],
                "side_labels": [g.side_label(0), g.side_label(1)],
                "pieces": {"A": "attacker", "D": "defender", "K": "king"},
            })
        }
    }
}

/// Where the pieces are (point name → letter), hands and captures.
fn pieces_json(game: &AnyGame, text: &str) -> ApiResult<Json> {
    let mut pieces = serde_json::Map::new();
    match game {
        AnyGame::Hunt(g) => {
            let p = g.parse_position(text)?;
            for pt in &g.board().points {
                let bit = 1u64 << pt.id;
                if p.hunters & bit != 0 {
                    pieces.insert(pt.name.clone(), json!("H"));
                } else if p.prey & bit != 0 {
                    pieces.insert(pt.name.clone(), json!("P"));
                }
            }
            Ok(json!({
                "pieces": pieces,
                "hand": [p.hunters_in_hand, p.prey_in_hand],
                "captured": p.captured,
            }))
        }
        AnyGame::Tafl(g) => {
            let p = g.parse_position(text)?;
            let geo = g.geometry();
            for c in 0..geo.cells as u8 {
                let bit = 1u128 << c;
                let letter = if p.attackers & bit != 0 {
                    "A"
                } else if p.defenders & bit != 0 {
                    "D"
                } else if p.king == c {
                    "K"
                } else {
                    continue;
                };
                pieces.insert(geo.cell_name(c), json!(letter));
            }
            Ok(json!({"pieces": pieces, "hand": Json::Null, "captured": Json::Null}))
        }
    }
}
