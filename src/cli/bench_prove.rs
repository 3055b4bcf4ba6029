//! `huntsolve bench --prove`: the proof suite (df-pn nodes and positions per second, with
//! the exact alpha-beta search on the same positions for scale), and `bench --prove --seeds`:
//! the seed suite (one-sided runs from fixed seeds, their root numbers).

use super::out;
use super::prove::ProverOpts;
use huntsolve::prove::num;
use huntsolve::prove::{ProofTable, ProveConfig, Prover, RunOutcome};
use huntsolve::{AnyGame, Error, Result};

/// The proof suite of `bench --prove`: (rules, playout plies from the start,
/// positions). Every position is proven to its value without tables.
pub(crate) const PROVE_SUITE: &[(&str, usize, usize)] = &[
    ("kaooa", 0, 1),
    ("kaooa-6", 0, 1),
    ("kaooa", 10, 4),
    ("kaooa-6", 12, 4),
    (
        "diviyan-keliya,board=alquerque25,hunters=2,prey=2,hunter_win=2",
        6,
        4,
    ),
];

struct BenchLine {
    nodes: u64,
    positions: u64,
    seconds: f64,
    values: Vec<String>,
}

fn bench_prove_game<G: huntsolve::FullGame>(
    g: &G,
    plies: usize,
    count: usize,
    seed: u64,
    hash: usize,
    cfg: &ProveConfig,
) -> BenchLine {
    let positions = if plies == 0 {
        vec![g.start()]
    } else {
        huntsolve::search::random_positions(g, count, plies, seed)
    };
    let mut line = BenchLine {
        nodes: 0,
        positions: 0,
        seconds: 0.0,
        values: Vec::new(),
    };
    let tt = ProofTable::new(hash);
    for pos in positions {
        tt.clear();
        let p = Prover::new(g, &huntsolve::game::NoOracle, &tt, cfg.clone());
        let (v, runs) = p.value(&pos, &huntsolve::NoProgress);
        line.nodes += runs.iter().map(|r| r.nodes).sum::<u64>();
        line.positions += runs.iter().map(|r| r.positions).sum::<u64>();
        line.seconds += runs.iter().map(|r| r.seconds).sum::<f64>();
        line.values
            .push(v.map_or("unknown", |v| v.name()).to_string());
    }
    line
}

fn bench_search_game<G: huntsolve::FullGame>(
    g: &G,
    plies: usize,
    count: usize,
    seed: u64,
) -> Result<(u64, f64)> {
    let positions = if plies == 0 {
        vec![g.start()]
    } else {
        huntsolve::search::random_positions(g, count, plies, seed)
    };
    let tt = huntsolve::search::TransTable::new(64)?;
    let (mut n, mut s) = (0, 0.0);
    for pos in positions {
        tt.clear();
        let r = huntsolve::search::search(
            g,
            &pos,
            &huntsolve::game::NoOracle,
            &huntsolve::search::SearchConfig {
                exact: true,
                limits: vec![huntsolve::search::Limit::Depth(9)],
                ..Default::default()
            },
            &tt,
        );
        n += r.nodes;
        s += r.time.as_secs_f64();
    }
    Ok((n, s))
}

/// One line of `bench --prove`.
#[derive(serde::Serialize)]
struct BenchRow {
    rules: String,
    positions: usize,
    threads: usize,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    /// Positions the prover generated and looked up (children of its
    /// expansions): the unit of an alpha-beta node.
    positions_looked_up: u64,
    positions_per_second: f64,
    /// Exact alpha-beta positions/s on the same positions (1-thread rows only).
    alphabeta_nodes_per_second: Option<f64>,
    values: Vec<String>,
}

/// `bench --prove --json`.
#[derive(serde::Serialize)]
struct BenchOut {
    hash_mib: usize,
    spread_plies: u32,
    rows: Vec<BenchRow>,
    /// (threads, nodes, seconds) per thread count.
    totals: Vec<(usize, u64, f64)>,
    /// 1-thread seconds over `threads`-thread seconds, when both ran.
    speedup: Option<f64>,
}

/// Runs `bench --prove`: text, or one JSON object with `json`.
pub(crate) fn bench_prove(
    threads: usize,
    hash: usize,
    seed: u64,
    spread_plies: u32,
    opts: ProverOpts,
    json: bool,
) -> Result<()> {
    let mut runs = vec![1];
    if threads > 1 {
        runs.push(threads);
    }
    let say = |line: String| -> Result<()> {
        if json {
            Ok(())
        } else {
            out::println(&line)
        }
    };
    say(format!(
        "{:<62} {:>3} {:>12} {:>8} {:>11} {:>13} {:>13}  values",
        "rules (positions)", "thr", "nodes", "s", "nodes/s", "positions/s", "a-b nodes/s"
    ))?;
    let mut report = BenchOut {
        hash_mib: hash,
        spread_plies,
        rows: Vec::new(),
        totals: Vec::new(),
        speedup: None,
    };
    for &t in &runs {
        let cfg = opts.apply(ProveConfig {
            threads: t,
            spread_plies,
            ..Default::default()
        });
        let (mut nodes, mut secs) = (0u64, 0.0f64);
        for &(rules, plies, count) in PROVE_SUITE {
            let any = AnyGame::parse(rules)?;
            let l = huntsolve::with_game!(&any, g => bench_prove_game(g, plies, count, seed, hash.max(1), &cfg));
            let ab = if t == 1 {
                let (n, s) =
                    huntsolve::with_game!(&any, g => bench_search_game(g, plies, count, seed))?;
                Some(n as f64 / s.max(1e-9))
            } else {
                None
            };
            say(format!(
                "{:<62} {:>3} {:>12} {:>8.2} {:>11.0} {:>13.0} {:>13}  {}",
                format!("{rules} ({})", l.values.len()),
                t,
                l.nodes,
                l.seconds,
                l.nodes as f64 / l.seconds.max(1e-9),
                l.positions as f64 / l.seconds.max(1e-9),
                ab.map_or("-".into(), |v| format!("{v:.0}")),
                l.values.join(" ")
            ))?;
            nodes += l.nodes;
            secs += l.seconds;
            report.rows.push(BenchRow {
                rules: rules.to_string(),
                positions: l.values.len(),
                threads: t,
                nodes: l.nodes,
                seconds: l.seconds,
                nodes_per_second: l.nodes as f64 / l.seconds.max(1e-9),
                positions_looked_up: l.positions,
                positions_per_second: l.positions as f64 / l.seconds.max(1e-9),
                alphabeta_nodes_per_second: ab,
                values: l.values,
            });
        }
        say(format!(
            "total, {t} thread(s): {nodes} nodes, {secs:.2} s, {:.0} nodes/s",
            nodes as f64 / secs.max(1e-9)
        ))?;
        report.totals.push((t, nodes, secs));
    }
    if let [(_, _, one), (_, _, many)] = report.totals[..] {
        let ratio = one / many.max(1e-9);
        report.speedup = Some(ratio);
        say(format!(
            "speed-up {threads} threads vs 1 (time ratio, same run): {ratio:.2}"
        ))?;
    }
    if json {
        let s = serde_json::to_string_pretty(&report)
            .map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::println(&s)?;
    }
    Ok(())
}

/// The seed suite of `bench --prove --seeds`: (rules, playout plies from the
/// start (0: the start itself), positions, node cap per position). Each
/// position gets the one-sided run "the hunters force a win" (under the
/// `hunter_win=captures>=N` rows: "the leopards force N captures"), from a
/// cleared table, until decided or the cap. Positions from seeded playouts
/// (`--seed`, default 1).
pub(crate) const SEED_SUITE: &[(&str, usize, usize, u64)] = &[
    ("cows-leopards-mogol,prey=4", 0, 1, 1_000_000),
    ("cows-leopards-mogol,prey=4", 2, 4, 500_000),
    (
        "cows-leopards-mogol,prey=5,hunter_win=captures>=2",
        4,
        4,
        500_000,
    ),
    (
        "cows-leopards-mogol,hunter_win=captures>=1",
        0,
        1,
        1_000_000,
    ),
    ("cows-leopards-mogol,hunter_win=captures>=1", 2, 4, 500_000),
    ("cows-leopards-peralikatuma,prey=4", 3, 4, 500_000),
    (
        "diviyan-keliya,prey=6,hunter_win=captures>=2",
        4,
        4,
        500_000,
    ),
    ("cows-leopards-mogol", 30, 4, 500_000),
    ("diviyan-keliya", 40, 4, 500_000),
];

/// One line of `bench --prove --seeds`.
#[derive(serde::Serialize, Default)]
struct SeedRow {
    rules: String,
    positions: usize,
    proven: usize,
    disproven: usize,
    unknown: usize,
    /// Nodes of every run (decided or stopped at the cap).
    nodes: u64,
    /// Nodes of the decided runs only: the cost of the results.
    nodes_to_results: u64,
    seconds: f64,
    nodes_per_second: f64,
    /// Root numbers of each position's run (0 for a decided side).
    root: Vec<(String, u32, u32)>,
}

#[derive(serde::Serialize)]
struct SeedOut {
    hash_mib: usize,
    threads: usize,
    opts: String,
    rows: Vec<SeedRow>,
    total_nodes: u64,
    total_decided: usize,
    total_nodes_to_results: u64,
    total_seconds: f64,
    nodes_per_second: f64,
}

fn seed_row<G: huntsolve::FullGame>(
    g: &G,
    line: (&str, usize, usize, u64),
    seed: u64,
    threads: usize,
    hash: usize,
    opts: ProverOpts,
) -> SeedRow {
    let (rules, plies, count, cap) = line;
    let positions = if plies == 0 {
        vec![g.start()]
    } else {
        huntsolve::search::random_positions(g, count, plies, seed)
    };
    let mut row = SeedRow {
        rules: rules.to_string(),
        positions: positions.len(),
        ..Default::default()
    };
    let tt = ProofTable::new(hash);
    for pos in positions {
        tt.clear();
        let p = Prover::new(
            g,
            &huntsolve::game::NoOracle,
            &tt,
            opts.apply(ProveConfig {
                threads,
                nodes: Some(cap),
                ..Default::default()
            }),
        );
        let r = p.prove_side(&pos, 0, &huntsolve::NoProgress);
        row.nodes += r.nodes;
        row.seconds += r.seconds;
        let outcome = match r.outcome {
            RunOutcome::Proven => {
                row.proven += 1;
                "proven"
            }
            RunOutcome::Disproven => {
                row.disproven += 1;
                "disproven"
            }
            RunOutcome::Unknown => {
                row.unknown += 1;
                "unknown"
            }
        };
        if r.outcome != RunOutcome::Unknown {
            row.nodes_to_results += r.nodes;
        }
        row.root.push((outcome.to_string(), r.pn, r.dn));
    }
    row.nodes_per_second = row.nodes as f64 / row.seconds.max(1e-9);
    row
}

/// Runs `bench --prove --seeds`: the seed suite, text or one JSON object.
pub(crate) fn bench_seeds(
    threads: usize,
    hash: usize,
    seed: u64,
    opts: ProverOpts,
    json: bool,
) -> Result<()> {
    let say = |line: String| -> Result<()> {
        if json {
            Ok(())
        } else {
            out::println(&line)
        }
    };
    let label = format!(
        "init={:?} symmetry={} quick_check={}",
        opts.init, !opts.no_symmetry, !opts.no_quick_check
    )
    .to_lowercase();
    say(format!(
        "seed suite, hunters win?, {threads} thread(s), --hash {hash}, {label}"
    ))?;
    say(format!(
        "{:<54} {:>9} {:>12} {:>12} {:>8} {:>10}  root (pn/dn)",
        "rules (positions)", "p/d/u", "nodes", "to results", "s", "nodes/s"
    ))?;
    let mut o = SeedOut {
        hash_mib: hash,
        threads,
        opts: label,
        rows: Vec::new(),
        total_nodes: 0,
        total_decided: 0,
        total_nodes_to_results: 0,
        total_seconds: 0.0,
        nodes_per_second: 0.0,
    };
    for &line in SEED_SUITE {
        let any = AnyGame::parse(line.0)?;
        let row =
            huntsolve::with_game!(&any, g => seed_row(g, line, seed, threads, hash.max(1), opts));
        say(format!(
            "{:<54} {:>9} {:>12} {:>12} {:>8.2} {:>10.0}  {}",
            format!("{} ({})", row.rules, row.positions),
            format!("{}/{}/{}", row.proven, row.disproven, row.unknown),
            row.nodes,
            row.nodes_to_results,
            row.seconds,
            row.nodes_per_second,
            row.root
                .iter()
                .map(|(_, p, d)| format!("{}/{}", num(*p), num(*d)))
                .collect::<Vec<_>>()
                .join(" ")
        ))?;
        o.total_nodes += row.nodes;
        o.total_decided += row.proven + row.disproven;
        o.total_nodes_to_results += row.nodes_to_results;
        o.total_seconds += row.seconds;
        o.rows.push(row);
    }
    o.nodes_per_second = o.total_nodes as f64 / o.total_seconds.max(1e-9);
    say(format!(
        "total: {} decided of {}, {} nodes ({} to the results), {:.2} s, {:.0} nodes/s",
        o.total_decided,
        o.rows.iter().map(|r| r.positions).sum::<usize>(),
        o.total_nodes,
        o.total_nodes_to_results,
        o.total_seconds,
        o.nodes_per_second
    ))?;
    if json {
        let s =
            serde_json::to_string_pretty(&o).map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        out::println(&s)?;
    }
    Ok(())
}
