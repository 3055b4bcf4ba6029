//! The shape of a solve's tier graph, for planning a cluster run
//! (`results/cluster-plan.md`): tiers, waves, total and largest tier in slots,
//! memory per worker (the largest tier with its children's records), and the
//! critical path (the heaviest chain of tiers, each needing its children first:
//! no number of workers solves the scope faster than this chain alone).
//!
//!     cargo run --release --example tier_plan -- RULES [SCOPE]
//!
//! SCOPE in manifest form: whole (default), movement, max-prey=N, max-in-hand=N.

use huntsolve::retro::{format_bytes, plan};
use huntsolve::retro::{Scope, Solvable};
use huntsolve::{AnyGame, Result};
use std::collections::BTreeMap;
use std::process::ExitCode;

fn describe<G: Solvable>(game: &G, scope: &Scope) -> Result<String> {
    let p = plan(game, scope)?;
    let order: Vec<G::Tier> = p.waves.iter().flatten().copied().collect();
    let (largest, largest_slots) = order
        .iter()
        .map(|&t| (t, game.tier_size(t)))
        .max_by_key(|&(_, s)| s)
        .map(|(t, s)| (game.tier_name(t), s))
        .unwrap_or_default();
    // Heaviest chain ending at each tier: its size plus its heaviest child chain.
    let mut chain: BTreeMap<G::Tier, u64> = BTreeMap::new();
    for &t in &order {
        let below = game
            .stored_children(t)
            .iter()
            .filter_map(|c| chain.get(c))
            .max()
            .copied()
            .unwrap_or(0);
        chain.insert(t, below + game.tier_size(t));
    }
    let critical = chain.values().max().copied().unwrap_or(0);
    let widest = p.waves.iter().map(|w| w.len()).max().unwrap_or(0);
    Ok(format!(
        "{} [{}]: {} tiers in {} waves (widest {}), {} slots, largest tier {} with {} slots, memory per worker {}, critical path {} slots",
        game.rules_string(),
        scope.name(),
        order.len(),
        p.waves.len(),
        widest,
        p.slots,
        largest,
        largest_slots,
        format_bytes(p.memory_serial),
        critical
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(rules) = args.first() else {
        eprintln!("usage: tier_plan RULES [SCOPE]");
        return ExitCode::from(2);
    };
    let result = AnyGame::parse(rules).and_then(|g| {
        let scope = Scope::parse(args.get(1).map_or("whole", |s| s.as_str()))?;
        huntsolve::with_game!(&g, g => describe(g, &scope))
    });
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
