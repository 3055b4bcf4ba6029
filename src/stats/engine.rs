//! The engines by name (`random`, `greedy`, `depth=D`, `time=S`, the last
//! two with `:tables`, `mcts=N`, `mcts-time=S`, `perfect`) and the agents they build: the one file that knows every agent
//! (the agents know only [`crate::stats::agent`], below it).

use crate::error::{quote, Error, Result};
use crate::game::FullGame;
use crate::stats::agent::{Agent, GreedyAgent, RandomAgent, SharedOracle};

/// The deepest fixed-depth engine (`depth=D`) of `compare`, `explore` and
/// `play`, in plies: deeper searches of a hunt game take hours a move.
pub const ENGINE_MAX_DEPTH: u32 = 64;

/// Which engine plays both sides of every game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum EngineSpec {
    /// Uniformly random legal moves.
    Random,
    /// One-ply greedy on [`Evaluate::evaluate`](crate::game::Evaluate::evaluate) (wins first, random tie-break).
    Greedy,
    /// Alpha-beta search to a fixed depth in plies.
    Depth(u32),
    /// Alpha-beta search for a fixed time per move, in seconds.
    Time(f64),
    /// Monte Carlo tree search (UCT with MCTS-Solver), see `crate::stats::mcts`.
    Mcts(crate::stats::mcts::MctsSpec),
    /// Plays from solved tables where they cover the position, alpha-beta at
    /// a fixed depth elsewhere (see `crate::stats::perfect`); needs `--tables`.
    Perfect,
    /// An alpha-beta engine (`Depth` or `Time`, never another) whose search
    /// takes the solved tables' exact values as leaves: `depth=D:tables`,
    /// `time=S:tables`; needs `--tables`.
    WithTables(Box<EngineSpec>),
}

impl EngineSpec {
    /// Parses `random`, `greedy`, `depth=D`, `time=S` (these two optionally
    /// with `:tables`), `mcts=N` or `mcts-time=S` (the last two with optional
    /// `:cutoff=K` and `:c=X`), or `perfect`.
    pub fn parse(text: &str) -> Result<EngineSpec> {
        let t = text.trim();
        if let Some(m) = crate::stats::mcts::MctsSpec::parse(t) {
            return m.map(EngineSpec::Mcts).map_err(Error::Usage);
        }
        let bad = || {
            Error::Usage(format!(
                "engine {}: expected random, greedy, depth=D (plies, 1..=64), time=S (seconds, 0 < S <= 1000000), either with :tables (the solved tables as leaves, from --tables), mcts=N (iterations), mcts-time=S or perfect (from --tables)",
                quote(t)
            ))
        };
        if let Some(inner) = t.strip_suffix(":tables") {
            return match EngineSpec::parse(inner) {
                Ok(e @ (EngineSpec::Depth(_) | EngineSpec::Time(_))) => {
                    Ok(EngineSpec::WithTables(Box::new(e)))
                }
                _ => Err(bad()),
            };
        }
        match t {
            "random" => return Ok(EngineSpec::Random),
            "greedy" => return Ok(EngineSpec::Greedy),
            "perfect" => return Ok(EngineSpec::Perfect),
            _ => {}
        }
        if let Some(d) = t.strip_prefix("depth=") {
            let d: u32 = d.parse().map_err(|_| bad())?;
            if (1..=ENGINE_MAX_DEPTH).contains(&d) {
                return Ok(EngineSpec::Depth(d));
            }
        } else if let Some(s) = t.strip_prefix("time=") {
            let s: f64 = s.parse().map_err(|_| bad())?;
            if crate::progress::valid_seconds(s) {
                return Ok(EngineSpec::Time(s));
            }
        }
        Err(bad())
    }

    /// Canonical text form (the inverse of [`EngineSpec::parse`]).
    pub fn text(&self) -> String {
        match self {
            EngineSpec::Random => "random".into(),
            EngineSpec::Greedy => "greedy".into(),
            EngineSpec::Depth(d) => format!("depth={d}"),
            EngineSpec::Time(s) => format!("time={s}"),
            EngineSpec::Mcts(m) => m.text(),
            EngineSpec::Perfect => "perfect".into(),
            EngineSpec::WithTables(e) => format!("{}:tables", e.text()),
        }
    }

    /// Whether games played with this engine are reproducible from the seed
    /// (time-limited search depends on machine speed and load).
    pub fn deterministic(&self) -> bool {
        match self {
            EngineSpec::Time(_) => false,
            EngineSpec::Mcts(m) => m.seconds.is_none(),
            EngineSpec::WithTables(e) => e.deterministic(),
            _ => true,
        }
    }

    /// Whether this engine is limited by time per move (`time=S`,
    /// `mcts-time=S`, with or without `:tables`).
    pub(crate) fn timed(&self) -> bool {
        match self {
            EngineSpec::Time(_) => true,
            EngineSpec::Mcts(m) => m.seconds.is_some(),
            EngineSpec::WithTables(e) => e.timed(),
            _ => false,
        }
    }
}

/// Builds the agent for `spec`. `softmax` (a temperature in evaluation units)
/// makes a searching agent sample its opening plies from a softmax over root
/// scores; other agents ignore it (their opening plies are uniform).
pub fn make_agent<G: FullGame>(
    spec: &EngineSpec,
    softmax: Option<f64>,
) -> Result<Box<dyn Agent<G>>> {
    make_agent_with(spec, softmax, None)
}

/// [`make_agent`] with an oracle of exact values (solved tables) that MCTS
/// uses as proven leaves, `perfect` plays from and `:tables` engines search
/// to; the other engines ignore it.
pub(crate) fn make_agent_with<G: FullGame>(
    spec: &EngineSpec,
    softmax: Option<f64>,
    oracle: Option<SharedOracle<G>>,
) -> Result<Box<dyn Agent<G>>> {
    use crate::stats::search_agent::SearchAgent;
    match spec {
        EngineSpec::Random => Ok(Box::new(RandomAgent)),
        EngineSpec::Greedy => Ok(Box::new(GreedyAgent)),
        EngineSpec::Depth(d) => Ok(Box::new(SearchAgent {
            softmax,
            ..SearchAgent::depth(*d)
        })),
        EngineSpec::Time(s) => Ok(Box::new(SearchAgent {
            softmax,
            ..SearchAgent::time(*s)
        })),
        EngineSpec::Mcts(m) => Ok(Box::new(crate::stats::mcts::MctsAgent {
            spec: m.clone(),
            oracle,
        })),
        EngineSpec::Perfect => match oracle {
            Some(oracle) => Ok(Box::new(crate::stats::perfect::PerfectAgent {
                oracle,
                fallback: SearchAgent::depth(crate::stats::perfect::FALLBACK_DEPTH),
            })),
            None => Err(Error::Usage(
                "engine perfect plays from solved tables: give --tables with tables of this variant"
                    .into(),
            )),
        },
        EngineSpec::WithTables(inner) => {
            let Some(oracle) = oracle else {
                return Err(Error::Usage(format!(
                    "engine {}: its search takes solved tables as leaves: give --tables with tables of this variant",
                    spec.text()
                )));
            };
            let search = match inner.as_ref() {
                EngineSpec::Depth(d) => SearchAgent::depth(*d),
                EngineSpec::Time(s) => SearchAgent::time(*s),
                other => {
                    return Err(Error::Usage(format!(
                        "engine {}: only depth=D and time=S take :tables",
                        other.text()
                    )))
                }
            };
            Ok(Box::new(crate::stats::search_agent::TableSearchAgent {
                search: SearchAgent { softmax, ..search },
                oracle,
            }))
        }
    }
}
