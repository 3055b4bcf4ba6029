//! The speed of the ladder's rungs (`huntsolve bench --ladder`): self-play
//! games of one variant at each rung, played one after another on one
//! thread, timed by the wall clock and by the process's CPU time, with the
//! machine's load average beside each figure (a figure taken on a loaded
//! machine says so).

use crate::error::Result;
use crate::game::FullGame;
use crate::progress::Progress;
use crate::stats::engine::{make_agent, EngineSpec};
use crate::stats::tournament::{check_games, play_game, TournamentConfig};
use std::time::Instant;

/// CPU time below which a rung's games per CPU second are not given.
pub(crate) const MIN_CPU_SECONDS: f64 = 0.5;

/// The timing of one rung.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RungSpeed {
    /// The engine, as [`EngineSpec::text`] writes it.
    pub engine: String,
    /// Whether the rung is limited by time per move: it takes its wall time
    /// whatever the load (and searches less on a loaded machine).
    #[serde(default)]
    pub timed: bool,
    /// Games played.
    pub games: u64,
    /// Plies played over all games (the random opening plies included).
    pub plies: u64,
    /// Wall seconds over all games.
    pub wall_seconds: f64,
    /// CPU seconds of the process over all games (`None` where the
    /// platform does not give it).
    pub cpu_seconds: Option<f64>,
    /// The 1-minute load average before the first game and after the last
    /// (`None` where it is not readable).
    pub load_before: Option<f64>,
    /// See `load_before`.
    pub load_after: Option<f64>,
}

/// A rung's speed figures, from its counts and clocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// Games per wall second.
    pub games_per_second: f64,
    /// Plies per wall second.
    pub plies_per_second: f64,
    /// Games per CPU second of the process: on a loaded machine a steadier
    /// figure than `games_per_second`. `None` without a CPU time or when it is
    /// under [`MIN_CPU_SECONDS`] (the clock counts in ticks of 10 ms).
    pub games_per_cpu_second: Option<f64>,
}

impl RungSpeed {
    /// Games and plies per second, by the wall clock and by the CPU clock.
    pub fn rates(&self) -> Rates {
        let wall = self.wall_seconds.max(1e-9);
        Rates {
            games_per_second: self.games as f64 / wall,
            plies_per_second: self.plies as f64 / wall,
            games_per_cpu_second: self
                .cpu_seconds
                .filter(|&c| c >= MIN_CPU_SECONDS)
                .map(|c| self.games as f64 / c),
        }
    }

    /// Seconds that `games` games at this rung would take on one thread:
    /// CPU seconds where known (what an idle core would take), else wall.
    pub fn seconds_for(&self, games: u64) -> f64 {
        let r = self.rates();
        games as f64 / r.games_per_cpu_second.unwrap_or(r.games_per_second)
    }
}

/// The timing of every rung on one variant.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct SpeedReport {
    /// The variant's rules string.
    pub rules: String,
    /// Base seed (game `i` uses `seed + i`, as in `compare`).
    pub seed: u64,
    /// Random opening plies of every game.
    pub random_plies: u32,
    /// One entry per rung, in the order given.
    pub rungs: Vec<RungSpeed>,
}

/// The 1-minute load average (Linux: `/proc/loadavg`).
pub(crate) fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Plays `games` games of `game` at each of `engines` on the calling thread
/// (the games `compare` would play as games `0..games` with this seed) and
/// times them. Engines that need tables (`perfect`) are refused.
pub fn bench_rungs<G: FullGame>(
    game: &G,
    engines: &[EngineSpec],
    games: u64,
    seed: u64,
    random_plies: u32,
    progress: &dyn Progress,
) -> Result<SpeedReport> {
    check_games(games)?;
    let mut rungs = Vec::new();
    for e in engines {
        let agent = make_agent::<G>(e, None)?;
        let cfg = TournamentConfig {
            games,
            seed,
            engine: e.clone(),
            random_plies,
            threads: 1,
            ..TournamentConfig::default()
        };
        progress.stage(&e.text(), games);
        let load_before = load_average();
        let cpu0 = crate::retro::bench::process_cpu_seconds();
        let started = Instant::now();
        let mut plies = 0u64;
        for i in 0..games {
            let rec = play_game(game, agent.as_ref(), &cfg, i)?;
            plies += u64::from(rec.plies);
            progress.advance(1);
        }
        let wall_seconds = started.elapsed().as_secs_f64();
        let cpu_seconds = crate::retro::bench::process_cpu_seconds()
            .zip(cpu0)
            .map(|(b, a)| b - a);
        progress.finish_stage();
        rungs.push(RungSpeed {
            engine: e.text(),
            timed: e.timed(),
            games,
            plies,
            wall_seconds,
            cpu_seconds,
            load_before,
            load_after: load_average(),
        });
    }
    Ok(SpeedReport {
        rules: game.rules_string(),
        seed,
        random_plies,
        rungs,
    })
}
