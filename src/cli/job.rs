//! What several subcommands share: the dispatch of work that needs a game
//! with tiers, the size of rayon's pool and the `--eval` options. Below every
//! subcommand's file, so none of them imports another for these.

use huntsolve::game::FullGame;
use huntsolve::retro::Solvable;
use huntsolve::{AnyGame, Error, Result};

/// Work that needs a game with tiers (verify, analyze, query): one generic method,
/// so a single [`dispatch`] decides which families are supported.
pub(crate) trait TierJob {
    /// What the job returns.
    type Out;
    /// Runs the job on a concrete game.
    fn run<G: Solvable + huntsolve::Evaluate>(self, game: &G) -> Result<Self::Out>;
}

/// Runs `job` on the game inside `any` (every family implements [`Solvable`]).
pub(crate) fn dispatch<J: TierJob>(any: &AnyGame, job: J) -> Result<J::Out> {
    huntsolve::with_game!(any, g => job.run(g))
}

/// Sets the size of rayon's global pool (verify, analyze).
pub(crate) fn set_threads(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::Usage("--threads must be at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| {
                Error::io(
                    format!("cannot set up {n} threads"),
                    std::io::Error::other(e),
                )
            })?;
    }
    Ok(())
}

/// Parses repeated `--eval key=value` options into `game`.
pub(crate) fn apply_evals<G: FullGame>(game: &mut G, evals: &[String]) -> Result<()> {
    for e in evals {
        let (k, v) = e.split_once('=').ok_or_else(|| {
            Error::Usage(format!("--eval '{e}': expected key=value (integer value)"))
        })?;
        let v: i32 = v
            .trim()
            .parse()
            .map_err(|_| Error::Usage(format!("--eval '{e}': '{v}' is not an integer")))?;
        game.set_eval_param(k.trim(), v)?;
    }
    Ok(())
}
