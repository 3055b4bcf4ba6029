//! `huntsolve check`: a self-test of a game's engine before a long solve, as
//! GamesmanOne's `gamesman test` is for its games.
//!
//! The retrograde solver trusts several parts of a game to agree: the move
//! generator and the un-move generator (it never builds a reverse graph), the
//! tier index (`rank`, `unrank`) and the board's symmetries (it stores one
//! position per class), the tier graph (it solves children first), and its fast
//! paths (`pred_ranks`, `child_indices`, ...). A new board or rules option can
//! break one of them without any error until the tables come out wrong. Each
//! check below compares two of those parts on every position of the small tiers
//! and on a seeded sample of the others, and names its first failing case with
//! the position text:
//!
//! | check | what must agree |
//! | --- | --- |
//! | `board` | the board's ids, adjacency (both ways), jumps (middle adjacent to both ends, both ways), connectedness |
//! | `geometry` | lines against coordinates: no two lines continue each other straight |
//! | `bends` | (warning only) every line straight, and stopping at every point it passes over |
//! | `symmetry` | each symmetry maps adjacency and jumps onto themselves; a group |
//! | `tiers` | every move leaving a tier lands in a listed child tier; no cycle; terminal tiers are over |
//! | `pieces` | tiers and positions hold the rules' hunters and prey |
//! | `index` | `rank(unrank(i)) = i`; position text and slot sweeps round trip |
//! | `unmoves` | the un-moves of every in-tier child give the parent back |
//! | `parents` | every parent the un-moves give has the position as a child, as often as listed |
//! | `orbits` | moves into a class = un-moves × stabiliser orders (the solver's counting) |
//! | `paths` | the solver's fast paths equal moves and un-moves |
//! | `classes` | a child and its class representative: same class hash, outcome, number of moves |
//! | `images` | a position's images under the symmetries: same slot, outcome, number of moves |
//! | `perft` | leaf counts from the start against the expected ones given |
//!
//! Tafl games get the generic checks (tiers to classes, without the class hash,
//! which tafl does not key by symmetry) and perft; their board is a square grid
//! whose symmetries are built in, so the board checks are skipped. Tiers too
//! large to index (more than 2^64 slots, as in Tablut) are not sampled. [`Fault`] injects a deliberate fault, for the checker's own tests.

mod board;
mod faulty;
mod report;
mod tiers;

pub use faulty::{Fault, FAULTS};
pub use report::{CheckLine, CheckOptions, CheckReport, CheckStatus, PerftLine};

use crate::error::Result;
use crate::game::{perft, Game};
use crate::hunt::HuntGame;
use crate::progress::Progress;
use crate::tier::TierGame;
use crate::variant::AnyGame;
use faulty::Faulty;
use report::Tally;
use tiers::{check_tiers, PositionHook, TierChecks};

/// No family checks (tafl).
struct NoHook;

impl<G: TierGame> PositionHook<G> for NoHook {
    fn position(&mut self, _: &G, _: G::Tier, _: u64, _: &G::Pos) {}
}

/// Runs every check on the game (see the module docs). An error only for a stop
/// request; disagreements are in the report ([`CheckReport::ok`]).
pub fn check_rules(
    game: &AnyGame,
    opts: &CheckOptions,
    progress: &dyn Progress,
) -> Result<CheckReport> {
    match game {
        AnyGame::Hunt(g) => check_hunt(g, opts, progress),
        AnyGame::Tafl(g) => {
            let skip = "tafl boards are square grids with the 8 symmetries of the square built in";
            let mut checks: Vec<CheckLine> = ["board", "geometry", "bends", "symmetry"]
                .iter()
                .map(|&n| Tally::skipped(n, "the board's tables", skip))
                .collect();
            let tc = match opts.fault {
                Some(fault) => {
                    let f = Faulty {
                        inner: g.clone(),
                        fault,
                    };
                    check_tiers(&f, opts, &mut NoHook, progress, false)?
                }
                None => check_tiers(g, opts, &mut NoHook, progress, false)?,
            };
            let (tier_count, whole, positions) = (tc.tier_count, tc.whole, tc.positions);
            checks.extend(tier_lines(tc, None));
            checks.push(Tally::skipped(
                "images",
                "images under the symmetries",
                skip,
            ));
            let (perft, line) = perft_lines(g, opts);
            checks.push(line);
            Ok(CheckReport {
                rules: g.rules_string(),
                family: "tafl",
                tiers: tier_count,
                positions,
                tiers_whole: whole,
                perft,
                checks,
            })
        }
    }
}

fn check_hunt(g: &HuntGame, opts: &CheckOptions, progress: &dyn Progress) -> Result<CheckReport> {
    let b = g.board();
    let mut checks = vec![board::check_board(b).line()];
    let (geometry, bends) = board::check_geometry(b);
    checks.push(geometry.line());
    checks.push(bends.line());
    checks.push(board::check_symmetries(b).line());
    let mut hook = board::HuntHook::new(g);
    let tc = match opts.fault {
        Some(fault) => {
            let f = Faulty {
                inner: g.clone(),
                fault,
            };
            check_tiers(&f, opts, &mut hook, progress, true)?
        }
        None => check_tiers(g, opts, &mut hook, progress, true)?,
    };
    hook.tier_counts(&tc.order);
    let (tier_count, whole, positions) = (tc.tier_count, tc.whole, tc.positions);
    let board::HuntHook { images, pieces, .. } = hook;
    checks.extend(tier_lines(tc, Some(pieces)));
    checks.push(images.line());
    let (perft, line) = perft_lines(g, opts);
    checks.push(line);
    Ok(CheckReport {
        rules: g.rules_string(),
        family: "hunt",
        tiers: tier_count,
        positions,
        tiers_whole: whole,
        perft,
        checks,
    })
}

/// The generic checks' lines in report order, the piece counts after the tiers.
fn tier_lines<T>(tc: TierChecks<T>, pieces: Option<Tally>) -> Vec<CheckLine> {
    let mut v = vec![tc.tiers.line()];
    match pieces {
        Some(p) => v.push(p.line()),
        None => v.push(Tally::skipped(
            "pieces",
            "piece counts",
            "tafl tiers are their material",
        )),
    }
    for t in [
        tc.index, tc.unmoves, tc.parents, tc.orbits, tc.paths, tc.classes,
    ] {
        v.push(t.line());
    }
    v
}

/// Perft from the start to `opts.depth` and to every expected depth, and the
/// check line comparing the expected counts.
fn perft_lines<G: Game>(g: &G, opts: &CheckOptions) -> (Vec<PerftLine>, CheckLine) {
    let deepest = opts
        .expected
        .iter()
        .map(|e| e.0)
        .max()
        .unwrap_or(0)
        .max(opts.depth);
    let start = g.start();
    let mut tally = Tally::new(
        "perft",
        "leaf counts from the start equal the expected ones",
    );
    let mut lines = Vec::new();
    for depth in 1..=deepest {
        let leaves = perft(g, &start, depth);
        let expected = opts.expected.iter().find(|e| e.0 == depth).map(|e| e.1);
        if let Some(want) = expected {
            tally.case(leaves == want, || {
                format!("perft {depth}: {leaves} leaves, {want} expected")
            });
        }
        if depth <= opts.depth || expected.is_some() {
            lines.push(PerftLine {
                depth,
                leaves,
                expected,
            });
        }
    }
    if opts.expected.is_empty() {
        tally.note("no expected count given (--perft D=N)");
    }
    (lines, tally.line())
}

#[cfg(test)]
mod tests;
