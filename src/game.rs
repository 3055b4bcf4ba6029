//! The interface shared by both game families.
//!
//! Search, retrograde analysis, statistics and the command line are written once
//! against [`Game`]; the hunt family ([`crate::hunt`]) and the tafl family
//! ([`crate::tafl`]) implement it.
//!
//! Conventions:
//! - A position carries everything the rules need (pieces, pieces in hand,
//!   captures so far, side to move), never history. Repetition is the search's
//!   business, move limits are the caller's.
//! - Values are always from the point of view of the side to move.
//! - A capture chain is one move.

use crate::error::Result;
use std::fmt::Debug;
use std::hash::Hash;

/// Game-theoretic value of a position from the side to move's point of view.
/// Not `#[non_exhaustive]`: a value under perfect play is a win, a draw or a
/// loss, and no fourth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win (cycles, or a terminal draw).
    Draw,
    /// The side to move wins.
    Win,
}

impl Value {
    /// The value seen from the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }

    /// Lower-case name used in text and JSON output (`win`, `loss`, `draw`).
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a position that occurs again means under the rules (hunt option H15,
/// tafl option T17). Positions carry no history, so only the history-aware
/// players (alpha-beta and MCTS self-play) can honour anything but
/// [`Repetition::Draw`]; the exact solvers (retrograde tables, df-pn proofs
/// and their checker, the exact referees) treat every cycle as a draw and
/// refuse the other rules (see `require_cycles_drawn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Repetition {
    /// A cycle is a draw: the semantics of every exact solver.
    #[default]
    Draw,
    /// Repeating a position is forbidden (hunt `repetition=forbid`).
    Forbid,
    /// The defenders lose on perpetual repetition (tafl `repetition=defenders_lose`).
    DefendersLose,
    /// The side that repeats loses (tafl `repetition=repeater_loses`).
    RepeaterLoses,
}

impl Repetition {
    /// The option's value as written in a rules string (`draw`, `forbid`, ...).
    pub(crate) fn word(self) -> &'static str {
        match self {
            Repetition::Draw => "draw",
            Repetition::Forbid => "forbid",
            Repetition::DefendersLose => "defenders_lose",
            Repetition::RepeaterLoses => "repeater_loses",
        }
    }
}

/// `Ok` when the rules count a cycle as a draw, the only repetition rule the
/// exact solvers implement; otherwise an [`crate::Error::Rules`] (exit 2) saying that
/// `what` (e.g. `"solve"`) would treat cycles as draws and so give values of
/// other rules than those named.
pub(crate) fn require_cycles_drawn<G: Game>(game: &G, what: &str) -> Result<()> {
    let rule = game.repetition();
    if rule == Repetition::Draw {
        return Ok(());
    }
    Err(crate::error::Error::Rules(format!(
        "{what} is exact only under repetition=draw (it treats every cycle as a draw), \
         but these rules say repetition={}; only search-based play (play, compare without \
         --tables, the explorer's search) honours that rule. Add ,repetition=draw to the \
         rules to get the values under draw semantics",
        rule.word()
    )))
}

/// The rules of a two-player, perfect-information game with a fixed rule set:
/// what search, retrograde analysis and proofs need, and nothing more.
///
/// An implementing value *is* a variant: it holds the rules (and derived tables
/// such as the board geometry and Zobrist keys), so two values of the same type
/// may be different games. Text (positions, moves, diagrams) is [`Notation`];
/// heuristic scores are [`Evaluate`]. A test graph implements the methods
/// without defaults and `impl Evaluate for X {}`.
pub trait Game: Send + Sync + Clone + Debug + 'static {
    /// A position (board, hands, captures, side to move). Cheap to copy.
    type Pos: Clone + Eq + Hash + Debug + Send + Sync;
    /// A move; a capture chain is one move.
    type Move: Copy + Eq + Hash + Debug + Send + Sync;

    /// Canonical rules string (`preset,key=value,...`), the same for equal rules.
    fn rules_string(&self) -> String;

    /// 64-bit fingerprint of the canonical rules (written into every table header).
    /// Default: a hash of [`Game::rules_string`].
    fn fingerprint(&self) -> u64 {
        crate::random::hash_str(&self.rules_string())
    }

    /// The family name, `"hunt"` or `"tafl"` (default `"test"`).
    fn family(&self) -> &'static str {
        "test"
    }

    /// The start position.
    fn start(&self) -> Self::Pos;

    /// Appends every legal move of `pos` to `out` (which is cleared first).
    /// Terminal positions have no legal moves.
    fn legal_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>);

    /// Plays a legal move (not re-checked in release builds).
    fn play(&self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;

    /// `Some(value)` when the game is over in `pos`, from the side to move's view.
    /// A side that has no legal move is handled here according to the rules.
    fn outcome(&self, pos: &Self::Pos) -> Option<Value>;

    /// Zobrist hash of the position (side to move included).
    fn hash(&self, pos: &Self::Pos) -> u64;

    /// Index of the side to move: 0 or 1 (see [`Game::side_name`]).
    fn side_to_move(&self, pos: &Self::Pos) -> usize;

    /// What a repeated position means (default [`Repetition::Draw`]).
    fn repetition(&self) -> Repetition {
        Repetition::Draw
    }

    /// Name of side 0 or 1 (`"hunter"`/`"prey"`, `"attackers"`/`"defenders"`;
    /// default `"first"`/`"second"`).
    fn side_name(&self, side: usize) -> &'static str {
        if side == 0 {
            "first"
        } else {
            "second"
        }
    }

    /// The side's name in the game's own words, for people (`"leopards"`,
    /// `"goats"`, `"vulture"`; default [`Game::side_name`]). Output only:
    /// certificates, JSON fields, table files and fingerprints keep
    /// `side_name`, and [`side_by_name`] accepts both.
    fn side_label(&self, side: usize) -> &'static str {
        self.side_name(side)
    }

    /// Number of pieces the move captures (default 0: a game without captures).
    fn captures_of(&self, _pos: &Self::Pos, _mv: Self::Move) -> u32 {
        0
    }

    /// Whether the move captures (used for move ordering and statistics).
    fn is_capture(&self, pos: &Self::Pos, mv: Self::Move) -> bool {
        self.captures_of(pos, mv) > 0
    }

    /// Move limit in plies for search and self-play (default `None`: no limit).
    fn move_limit(&self) -> Option<u32> {
        None
    }

    /// A key shared by the images of `pos` under the symmetries of the rules
    /// (the board's), for tables that store one entry per symmetry class (the
    /// prover's). Contract: two positions with equal keys are mapped onto each
    /// other by a symmetry that preserves every rule, so they have the same
    /// value (up to 64-bit collisions, as for [`Game::hash`]). The default is
    /// [`Game::hash`] (no symmetry used), which always meets it.
    fn canonical_hash(&self, pos: &Self::Pos) -> u64 {
        self.hash(pos)
    }

    /// Whether the side to move has a move that ends the game at once in its
    /// favour, found by a cheap check (the prover's test at new nodes). May
    /// answer `false` when it does not know; must never answer `true` wrongly.
    /// Default: `false`.
    fn wins_at_once(&self, _pos: &Self::Pos) -> bool {
        false
    }

    /// Initial proof and disproof numbers of the goal "`side` forces a win" at
    /// a new, non-terminal position (df-pn+'s heuristic initialisation): small
    /// when the goal looks near, large when far. They steer the search only,
    /// never decide a value; each must be at least 1. Default `(1, 1)`.
    fn proof_hint(&self, _pos: &Self::Pos, _side: usize) -> (u32, u32) {
        (1, 1)
    }

    /// A uniformly random legal move of `pos`, `None` when there is none (for
    /// playouts). The default draws from [`Game::legal_moves`]; the families
    /// override it with a draw that builds no move list in the common case.
    fn random_move(&self, pos: &Self::Pos, rng: &mut crate::random::Rng) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if moves.is_empty() {
            None
        } else {
            Some(moves[rng.below(moves.len())])
        }
    }
}

/// The text forms of a game: canonical position and move notation, diagrams.
pub trait Notation: Game {
    /// Canonical position text; [`Notation::parse_position`] reads it back.
    fn format_position(&self, pos: &Self::Pos) -> String;

    /// Parses the canonical position text (the word `start` means the start position).
    fn parse_position(&self, text: &str) -> Result<Self::Pos>;

    /// Move in the family's notation (`e5`, `f2-e3`, `c6xe6xe8`, `e3-h3`).
    fn format_move(&self, pos: &Self::Pos, mv: Self::Move) -> String;

    /// Parses a move and checks that it is legal in `pos`. Default: the legal
    /// move whose [`Notation::format_move`] text is `text`.
    fn parse_move(&self, pos: &Self::Pos, text: &str) -> Result<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        let wanted = text.trim();
        moves
            .iter()
            .copied()
            .find(|&m| self.format_move(pos, m) == wanted)
            .ok_or_else(|| {
                let list: Vec<String> = moves.iter().map(|&m| self.format_move(pos, m)).collect();
                crate::error::Error::Move(format!(
                    "{} is not legal here; legal moves: {}",
                    crate::error::quote(wanted),
                    if list.is_empty() {
                        "none".to_string()
                    } else {
                        list.join(" ")
                    }
                ))
            })
    }

    /// ASCII diagram of the position (default: the position text).
    fn diagram(&self, pos: &Self::Pos) -> String {
        self.format_position(pos)
    }
}

/// A heuristic evaluation with named, tunable weights (for search and self-play).
/// Every method has a default: no knowledge (score 0) and no weights.
pub trait Evaluate: Game {
    /// Heuristic score from the side to move's view, in centi-pieces
    /// (well inside ±20_000; larger magnitudes are reserved for proven results).
    fn evaluate(&self, _pos: &Self::Pos) -> i32 {
        0
    }

    /// Sets one evaluation weight by name (`--eval key=value` on the command line).
    fn set_eval_param(&mut self, key: &str, _value: i32) -> Result<()> {
        let known: Vec<&str> = self.eval_params().iter().map(|(k, _)| *k).collect();
        Err(crate::error::Error::Usage(format!(
            "unknown evaluation weight '{key}'; known: {}",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )))
    }

    /// The evaluation weights by name with their current values (default none).
    fn eval_params(&self) -> Vec<(&'static str, i32)> {
        Vec::new()
    }
}

/// Everything the command line needs of a game: rules, notation, evaluation.
/// Implemented for every type that has the three; library code asks for the
/// parts it uses instead.
pub trait FullGame: Game + Notation + Evaluate {}

impl<T: Game + Notation + Evaluate> FullGame for T {}

/// The family's generic words for its two sides, accepted for any game of
/// the family beside the game's own words: (family, side, words).
const GENERIC_SIDE_WORDS: &[(&str, usize, &[&str])] = &[
    ("hunt", 0, &["hunter", "hunters"]),
    ("hunt", 1, &["prey"]),
    ("tafl", 0, &["attacker", "attackers"]),
    ("tafl", 1, &["defender", "defenders", "king"]),
];

/// Other names of one game's side, keyed by that side's label.
const LABEL_WORDS: &[(&str, &[&str])] = &[("citikiris", &["ranikiri"])];

/// The words that name `side` of `game`: its label, the label's singular or
/// plural, its machine name, the family's generic words and the side's other
/// names. Another game's words (`tigers` for Mogol's leopards) are not among them.
pub fn side_words<G: Game>(game: &G, side: usize) -> Vec<String> {
    let label = game.side_label(side);
    let mut words: Vec<String> = Vec::new();
    let mut add = |w: String| {
        if !words.contains(&w) {
            words.push(w);
        }
    };
    add(label.to_string());
    match label.strip_suffix('s') {
        Some(one) => add(one.to_string()),
        None if label != "prey" => add(format!("{label}s")),
        None => {}
    }
    add(game.side_name(side).to_string());
    let generic = GENERIC_SIDE_WORDS
        .iter()
        .filter(|(family, s, _)| *family == game.family() && *s == side)
        .map(|w| w.2);
    let own = LABEL_WORDS.iter().filter(|(l, _)| *l == label).map(|w| w.1);
    for w in generic.chain(own).flatten() {
        add(w.to_string());
    }
    words
}

/// What `--side` accepts for `game`, for an error message: `leopards
/// (leopard, hunter, hunters) or cows (cow, prey), or 0/1`.
pub fn side_choices<G: Game>(game: &G) -> String {
    let one = |s: usize| {
        let w = side_words(game, s);
        format!("{} ({})", w[0], w[1..].join(", "))
    };
    format!("{} or {}, or 0/1", one(0), one(1))
}

/// The side (0 or 1) that `name` names: one of [`side_words`] (the game's own
/// words and its family's generic ones, never another game's), or the index
/// `0`/`1`; case-insensitive.
pub fn side_by_name<G: Game>(game: &G, name: &str) -> Option<usize> {
    let name = name.trim();
    if let Ok(s) = name.parse::<usize>() {
        return (s < 2).then_some(s);
    }
    (0..2).find(|&s| {
        side_words(game, s)
            .iter()
            .any(|w| w.eq_ignore_ascii_case(name))
    })
}

/// The game's own word for the side a machine name (`hunter`, `prey`) or any
/// name [`side_by_name`] accepts names; `name` itself when it names no side.
pub(crate) fn label_of<G: Game>(game: &G, name: &str) -> String {
    side_by_name(game, name).map_or_else(|| name.to_string(), |s| game.side_label(s).to_string())
}

/// `label` with the verb agreeing (`vulture wins`, `leopards win`): a side
/// label is plural when it ends in `s` (`prey`, `hunter` singular).
pub fn side_says(label: &str, singular: &str, plural: &str) -> String {
    let verb = if label.ends_with('s') {
        plural
    } else {
        singular
    };
    format!("{label} {verb}")
}

/// Counts the leaves of the game tree to `depth` plies (a terminal position is one
/// leaf at any depth).
pub fn perft<G: Game>(game: &G, pos: &G::Pos, depth: u32) -> u64 {
    if depth == 0 || game.outcome(pos).is_some() {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len().max(1) as u64;
    }
    moves
        .iter()
        .map(|&m| perft(game, &game.play(pos, m), depth - 1))
        .sum()
}

/// Plays a whitespace-separated list of moves from `pos`; an illegal move is an
/// error naming its ply (1-based).
pub fn play_line<G: Notation>(game: &G, pos: &G::Pos, line: &str) -> Result<G::Pos> {
    let mut cur = pos.clone();
    for (ply, text) in line.split_whitespace().enumerate() {
        if let Some(v) = game.outcome(&cur) {
            return Err(crate::error::Error::Move(format!(
                "ply {}: {}: the game is already over ({} for the side to move)",
                ply + 1,
                crate::error::quote(text),
                v
            )));
        }
        let mv = game.parse_move(&cur, text).map_err(|e| {
            let detail = match e {
                crate::error::Error::Move(m) => m,
                other => other.to_string(),
            };
            crate::error::Error::Move(format!("ply {}: {detail}", ply + 1))
        })?;
        cur = game.play(&cur, mv);
    }
    Ok(cur)
}

/// A source of exact values for some positions (solved tables), used by search
/// and by `query`. `None` means "not known here".
pub trait Oracle<G: Game>: Sync {
    /// Exact value and distance in plies (to the end under optimal play) of `pos`.
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)>;

    /// Whether a probe met an error (a damaged table): the oracle's answers
    /// are then incomplete, and a search using it stops rather than go on
    /// without them. Default: never.
    fn failed(&self) -> bool {
        false
    }
}

/// The oracle that knows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOracle;

impl<G: Game> Oracle<G> for NoOracle {
    fn probe(&self, _: &G, _: &G::Pos) -> Option<(Value, u32)> {
        None
    }
}

/// An oracle that may be absent: `None` knows nothing (as [`NoOracle`]), so a
/// caller with optional tables makes one call instead of one per case.
impl<G: Game, O: Oracle<G>> Oracle<G> for Option<&O> {
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        self.and_then(|o| o.probe(game, pos))
    }

    fn failed(&self) -> bool {
        self.is_some_and(|o| o.failed())
    }
}
