//! The df-pn prover against solved tables and hand-built cyclic graphs, and
//! its certificates against the independent checker.

use huntsolve::game::{Game, NoOracle, Notation, Oracle, Value};
use huntsolve::hunt::from_spec;
use huntsolve::prove::check;
use huntsolve::prove::extract;
use huntsolve::prove::{Certificate, Node};
use huntsolve::prove::{ProofTable, ProveConfig, Prover, RunOutcome};
use huntsolve::retro::solve;
use huntsolve::retro::{Scope, SolveOptions};
use huntsolve::table::TableOracle;
use huntsolve::NoProgress;
use huntsolve::Result;
use huntsolve::TicTacToe;
use huntsolve::TierGame;
use huntsolve::{mix64, Rng};
use std::sync::Arc;

fn solved(spec: &str) -> (huntsolve::hunt::HuntGame, std::path::PathBuf) {
    crate::common::retro::solved_whole(spec, &format!("prove-{spec}"))
}

fn budget(nodes: u64) -> ProveConfig {
    ProveConfig {
        nodes: Some(nodes),
        ..Default::default()
    }
}

#[test]
fn kaooa_start_is_proven_with_a_checked_certificate() {
    let (g, dir) = solved("kaooa");
    let oracle = TableOracle::new(&g, &dir).unwrap();
    let start = g.start();
    let want = oracle.probe(&g, &start).unwrap();
    assert_eq!(want, (Value::Win, 15));
    let tt = ProofTable::new(16);
    let p = Prover::new(&g, &NoOracle, &tt, budget(5_000_000));
    let (v, runs) = p.value(&start, &NoProgress);
    assert_eq!(v, Some(Value::Win));
    assert_eq!(runs.len(), 1);
    let side = g.side_to_move(&start);
    let cert = extract(
        &p,
        &start,
        side,
        RunOutcome::Proven,
        &|_: &_| Ok(None),
        1 << 22,
    )
    .unwrap();
    let back = Certificate::decode(&cert.encode()).unwrap();
    assert_eq!(back, cert);
    let none = |_: &_| Ok(None);
    let r = check(&g, &back, &none).unwrap();
    assert!(r.ok(), "{:?}", r.examples);
    // The proof's longest line bounds the true distance from above.
    assert!(r.depth.unwrap() >= 15);

    // Altered certificates are rejected.
    let bad = crate::common::first_move_altered(&cert);
    assert!(!check(&g, &bad, &none).unwrap().ok());
    let mut bad = cert.clone();
    let i = bad
        .nodes
        .iter()
        .position(|n| matches!(n, Node::All(c) if c.len() > 1))
        .unwrap();
    if let Node::All(c) = &mut bad.nodes[i] {
        c.pop();
    }
    assert!(!check(&g, &bad, &none).unwrap().ok());
    let mut bad = cert.clone();
    bad.header.kind = huntsolve::prove::Kind::NoWin;
    assert!(!check(&g, &bad, &none).unwrap().ok());
    // A flipped byte is a corrupt file.
    let mut bytes = cert.encode();
    let k = bytes.len() / 2;
    bytes[k] ^= 1;
    assert!(Certificate::decode(&bytes).is_err());
    // Other rules are a mismatch, not a disagreement.
    let other = from_spec("kaooa-6").unwrap();
    assert!(check(&other, &cert, &none).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kaooa_6_start_is_a_draw_with_checked_certificates() {
    let g = from_spec("kaooa-6").unwrap();
    let start = g.start();
    let tt = ProofTable::new(16);
    let p = Prover::new(&g, &NoOracle, &tt, budget(20_000_000));
    let (v, runs) = p.value(&start, &NoProgress);
    assert_eq!(v, Some(Value::Draw));
    assert_eq!(runs.len(), 2);
    for side in 0..2 {
        let cert = extract(
            &p,
            &start,
            side,
            RunOutcome::Disproven,
            &|_: &_| Ok(None),
            1 << 22,
        )
        .unwrap();
        let r = check(&g, &cert, &|_: &_| Ok(None)).unwrap();
        assert!(r.ok(), "{:?}", r.examples);
        // A no-win certificate with its opponent's choice changed to another
        // legal move is (almost always) rejected: find one that breaks it.
        let mut rejected = false;
        for i in 0..cert.nodes.len() {
            if let Node::One { mv, child } = cert.nodes[i] {
                let mut bad = cert.clone();
                bad.nodes[i] = Node::One { mv: mv + 1, child };
                if !check(&g, &bad, &|_: &_| Ok(None)).unwrap().ok() {
                    rejected = true;
                    break;
                }
            }
        }
        assert!(rejected);
    }
}

#[test]
fn tictactoe_is_a_draw_by_two_disproofs_with_certificates() {
    let g = TicTacToe::default();
    let start = g.start();
    let tt = ProofTable::new(4);
    let p = Prover::new(&g, &NoOracle, &tt, budget(2_000_000));
    let (v, runs) = p.value(&start, &NoProgress);
    assert_eq!(v, Some(Value::Draw));
    assert_eq!(runs.len(), 2);
    for side in 0..2 {
        let cert = extract(
            &p,
            &start,
            side,
            RunOutcome::Disproven,
            &|_: &_| Ok(None),
            1 << 20,
        )
        .unwrap();
        let r = check(&g, &cert, &|_: &_| Ok(None)).unwrap();
        assert!(r.ok(), "{:?}", r.examples);
    }
    // After 1. a1 b2 2. c3? X threatens nothing; check a won position too.
    let won = huntsolve::game::play_line(&g, &start, "a1 b1 b2 c1").unwrap();
    let (v, _) = p.value(&won, &NoProgress);
    assert_eq!(v, Some(Value::Win));
    let cert = extract(&p, &won, 0, RunOutcome::Proven, &|_: &_| Ok(None), 1 << 20).unwrap();
    assert!(check(&g, &cert, &|_: &_| Ok(None)).unwrap().ok());
}

/// An explicit game graph: node `i` has a side to move, moves (to node ids)
/// and an optional terminal value (side to move's view).
#[derive(Clone, Debug)]
struct Graph {
    side: Vec<usize>,
    edges: Vec<Vec<u32>>,
    terminal: Vec<Option<Value>>,
}

#[derive(Clone, Debug)]
struct GraphGame(Arc<Graph>);

impl Game for GraphGame {
    type Pos = u32;
    type Move = u32;
    fn rules_string(&self) -> String {
        format!("graph-{}", self.0.side.len())
    }
    fn start(&self) -> u32 {
        0
    }
    fn legal_moves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.clear();
        if self.0.terminal[*pos as usize].is_none() {
            out.extend_from_slice(&self.0.edges[*pos as usize]);
        }
    }
    fn play(&self, _: &u32, mv: u32) -> u32 {
        mv
    }
    fn outcome(&self, pos: &u32) -> Option<Value> {
        let i = *pos as usize;
        self.0.terminal[i].or(if self.0.edges[i].is_empty() {
            Some(Value::Loss)
        } else {
            None
        })
    }
    fn hash(&self, pos: &u32) -> u64 {
        mix64(*pos as u64 + 1)
    }
    fn side_to_move(&self, pos: &u32) -> usize {
        self.0.side[*pos as usize]
    }
}

impl Notation for GraphGame {
    fn format_position(&self, pos: &u32) -> String {
        pos.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<u32> {
        text.trim()
            .parse()
            .map_err(|_| huntsolve::Error::Position(text.into()))
    }
    fn format_move(&self, _: &u32, mv: u32) -> String {
        mv.to_string()
    }
}

/// Which nodes `side` wins under cycle semantics (endless play is a draw),
/// from the graph's data alone (no code of the prover or of [`Game`]): the
/// least fixpoint of "a terminal win; or `side` to move with a move into the
/// set; or the opponent to move with every move into the set", computed
/// backwards from the won ends with a count of each opponent node's moves not
/// yet known won (a node without moves is lost by the side to move).
fn winning_set(g: &GraphGame, side: usize) -> Vec<bool> {
    let graph = &g.0;
    let n = graph.side.len();
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut left: Vec<usize> = (0..n)
        .map(|i| {
            if graph.terminal[i].is_some() {
                return 0;
            }
            let mut kids = graph.edges[i].clone();
            kids.sort();
            kids.dedup();
            for &c in &kids {
                parents[c as usize].push(i);
            }
            kids.len()
        })
        .collect();
    let won_end = |i: usize| {
        let to_move = graph.side[i];
        match graph.terminal[i] {
            Some(Value::Win) => to_move == side,
            Some(Value::Loss) => to_move != side,
            Some(Value::Draw) => false,
            None => graph.edges[i].is_empty() && to_move != side,
        }
    };
    let mut win: Vec<bool> = (0..n).map(won_end).collect();
    let mut queue: Vec<usize> = (0..n).filter(|&i| win[i]).collect();
    while let Some(c) = queue.pop() {
        for &p in &parents[c] {
            if win[p] {
                continue;
            }
            left[p] -= 1;
            if graph.side[p] == side || left[p] == 0 {
                win[p] = true;
                queue.push(p);
            }
        }
    }
    win
}

/// The graph-history case: R (opponent) → A, X. A (S) → B, C. B (opp) → X.
/// X (opp) → A. C (opp) → W (S has won). Searching A first reaches X through
/// B, where X's only move repeats A: a draw on that path. Stored as a final
/// disproof, it would make R look lost for S, but R → X → A → C → W wins.
#[test]
fn ghi_disproof_through_a_repetition_is_not_reused() {
    // ids: R0 A1 B2 X3 C4 W5; side 0 = S, 1 = opponent.
    let g = GraphGame(Arc::new(Graph {
        side: vec![1, 0, 1, 1, 1, 0],
        edges: vec![vec![1, 3], vec![2, 4], vec![3], vec![1], vec![5], vec![]],
        terminal: vec![None, None, None, None, None, Some(Value::Win)],
    }));
    let win = winning_set(&g, 0);
    assert!(win[0] && win[3]);
    let tt = ProofTable::new(1);
    let p = Prover::new(&g, &NoOracle, &tt, budget(10_000));
    let r = p.prove_side(&0, 0, &NoProgress);
    assert_eq!(r.outcome, RunOutcome::Proven);
    let cert = extract(&p, &0, 0, RunOutcome::Proven, &|_: &_| Ok(None), 100).unwrap();
    assert!(check(&g, &cert, &|_: &_| Ok(None)).unwrap().ok());
    // And the opponent cannot win anywhere here.
    assert_eq!(
        p.prove_side(&0, 1, &NoProgress).outcome,
        RunOutcome::Disproven
    );
}

fn random_graph(seed: u64, n: usize) -> GraphGame {
    let mut rng = Rng::new(seed);
    let mut side = Vec::new();
    let mut edges = Vec::new();
    let mut terminal = Vec::new();
    for _ in 0..n {
        side.push(rng.below(2));
        let r = rng.unit();
        terminal.push(if r < 0.08 {
            Some(Value::Win)
        } else if r < 0.12 {
            Some(Value::Draw)
        } else if r < 0.16 {
            Some(Value::Loss)
        } else {
            None
        });
        let k = 1 + rng.below(3);
        edges.push((0..k).map(|_| rng.below(n) as u32).collect::<Vec<u32>>());
    }
    // No duplicate moves: a move list is a set of distinct positions here.
    for e in edges.iter_mut() {
        e.sort();
        e.dedup();
    }
    GraphGame(Arc::new(Graph {
        side,
        edges,
        terminal,
    }))
}

/// Random cyclic graphs: the prover's proofs and disproofs from every node
/// equal the fixpoint, with one shared table per graph (so results found from
/// one root are reused from others), and the certificates check.
#[test]
fn random_cyclic_graphs_agree_with_the_fixpoint() {
    let mut decided = 0;
    for seed in 0..60 {
        let g = random_graph(seed, 40);
        for side in 0..2 {
            let truth = winning_set(&g, side);
            let tt = ProofTable::new(1);
            // Four schedules: df-pn alone, the closure search almost alone
            // (df-pn phases of one node), the local analysis almost alone,
            // and the default alternation.
            let cfg = ProveConfig {
                nodes: Some(200_000),
                closure: seed % 4 == 1 || seed % 4 == 3,
                local: seed % 4 >= 2,
                phase_nodes: if seed % 4 == 3 { 1 << 18 } else { 1 },
                ..Default::default()
            };
            let p = Prover::new(&g, &NoOracle, &tt, cfg);
            for root in 0..40u32 {
                let r = p.prove_side(&root, side, &NoProgress);
                match r.outcome {
                    RunOutcome::Proven => assert!(
                        truth[root as usize],
                        "seed {seed} side {side} root {root}: false proof"
                    ),
                    RunOutcome::Disproven => assert!(
                        !truth[root as usize],
                        "seed {seed} side {side} root {root}: false disproof"
                    ),
                    RunOutcome::Unknown => panic!("seed {seed} side {side} root {root}: unknown"),
                }
                decided += 1;
                if g.outcome(&root).is_none() {
                    let cert =
                        extract(&p, &root, side, r.outcome, &|_: &_| Ok(None), 10_000).unwrap();
                    let c = check(&g, &cert, &|_: &_| Ok(None)).unwrap();
                    assert!(
                        c.ok(),
                        "seed {seed} side {side} root {root}: {:?}",
                        c.examples
                    );
                }
            }
        }
    }
    assert_eq!(decided, 60 * 2 * 40);
}

/// What the prover may use besides terminal positions when it proves a
/// position drawn from a solved tier.
#[derive(Clone, Copy, PartialEq)]
enum Leaves {
    /// No table at all.
    None,
    /// The tables of every other tier (e.g. the tiers a capture leads to), but
    /// none for the position's own tier: the prover finds that tier's values
    /// itself.
    OtherTiers,
}

/// The tables of every tier but `tier`.
struct AllBut<'a, G: TierGame> {
    tables: &'a TableOracle<G>,
    tier: G::Tier,
}

impl<G: TierGame> Oracle<G> for AllBut<'_, G> {
    fn probe(&self, game: &G, pos: &G::Pos) -> Option<(Value, u32)> {
        if game.tier_of(pos) == self.tier {
            None
        } else {
            Some(self.tables.try_probe(pos).unwrap()?)
        }
    }
}

/// Figures of one agreement run.
#[derive(Default)]
struct Agreement {
    positions: usize,
    /// Positions the prover left unknown within its budget.
    unknown: usize,
    draws: usize,
    nodes: u64,
    seconds: f64,
    table_hits: u64,
}

/// Draws `samples` seeded random positions from the solved tables of `game`
/// (scope `scope`) and proves each with `leaves`; every value must equal the
/// table's.
fn agree_with_tables<G: huntsolve::retro::Solvable>(
    game: &G,
    scope: &Scope,
    leaves: Leaves,
    hash_mib: usize,
    nodes: u64,
    samples: usize,
    seed: u64,
) -> Agreement {
    let name = game.rules_string().replace([',', '=', '>'], "_");
    let dir = std::env::temp_dir().join(format!(
        "huntsolve-prove-agree-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(game, scope, &dir, &opts, &NoProgress).unwrap();
    let oracle = TableOracle::new(game, &dir).unwrap();
    let tiers: Vec<G::Tier> = huntsolve::table::list_tiers(&dir)
        .unwrap()
        .iter()
        .map(|t| game.parse_tier(t).unwrap())
        .collect();
    assert!(!tiers.is_empty());
    let mut rng = Rng::new(seed);
    let tt = ProofTable::new(hash_mib);
    let mut a = Agreement::default();
    let mut tries = 0;
    while a.positions + a.unknown < samples {
        tries += 1;
        assert!(tries < samples * 1000, "{name}: too few positions");
        let t = tiers[rng.below(tiers.len())];
        let Some(pos) = game.unrank(t, rng.below(game.tier_size(t) as usize) as u64) else {
            continue;
        };
        if game.outcome(&pos).is_some() {
            continue;
        }
        let want = oracle.try_probe(&pos).unwrap().unwrap().0;
        let but = AllBut {
            tables: &oracle,
            tier: t,
        };
        let (v, runs) = match leaves {
            Leaves::None => {
                Prover::new(game, &NoOracle, &tt, budget(nodes)).value(&pos, &NoProgress)
            }
            Leaves::OtherTiers => {
                // A fresh table: nothing learnt with this tier's table may remain.
                tt.clear();
                Prover::new(game, &but, &tt, budget(nodes)).value(&pos, &NoProgress)
            }
        };
        let text = game.format_position(&pos);
        let Some(v) = v else {
            // Out of budget: counted, and the suite fails at its end (after
            // every case has given its figures).
            eprintln!("{name} {text}: unknown: {runs:?}");
            a.unknown += 1;
            continue;
        };
        assert_eq!(v, want, "{name} {text}: {runs:?}");
        a.positions += 1;
        a.draws += (want == Value::Draw) as usize;
        a.nodes += runs.iter().map(|r| r.nodes).sum::<u64>();
        a.seconds += runs.iter().map(|r| r.seconds).sum::<f64>();
        a.table_hits += runs.iter().map(|r| r.table_hits).sum::<u64>();
    }
    let _ = std::fs::remove_dir_all(&dir);
    a
}

/// The games, scopes and leaves of the agreement runs; `large` adds the ones
/// whose tables take minutes to solve in the test profile.
/// One agreement case: rules, scope, leaves, the prover's `--hash` in MiB and
/// how many positions the large run draws (the regular run draws 25 of each).
struct Case {
    spec: &'static str,
    scope: Scope,
    leaves: Leaves,
    hash_mib: usize,
    large_samples: usize,
    /// Prover nodes per position before it counts as unknown.
    nodes: u64,
}

/// The cases (64 MiB: the 2-leopard alquerque25 positions need about 11 MB
/// of closure search, a line 8,415 frames deep, beside the table; a drawn
/// leopard endgame is settled by the local analysis, which holds its whole
/// drawn region). `large` adds the ones whose tables or proofs take minutes
/// in the test profile; the Brandubh case comes last.
fn agreement_cases(large: bool) -> Vec<Case> {
    let case = |spec, scope, leaves, hash_mib, large_samples| Case {
        spec,
        scope,
        leaves,
        hash_mib,
        large_samples,
        nodes: 50_000_000,
    };
    let mut out: Vec<Case> = [
        "kaooa",
        "kaooa-6",
        "diviyan-keliya,board=alquerque25,hunters=1,prey=2,hunter_win=1",
        "diviyan-keliya,board=alquerque25,hunters=2,prey=2,hunter_win=2",
    ]
    .into_iter()
    .map(|s| case(s, Scope::Whole, Leaves::None, 64, 250))
    .collect();
    // A leopard endgame on the 49-point board: 2 leopards against 1 cow.
    out.push(case(
        "diviyan-keliya",
        Scope::MaxPrey(1),
        Leaves::OtherTiers,
        256,
        250,
    ));
    if large {
        // The Bagh-Chal movement phase (every goat placed), 0-4 goats captured.
        out.push(Case {
            nodes: 20_000_000,
            ..case("bagh-chal", Scope::Movement, Leaves::OtherTiers, 4096, 50)
        });
        // Seed C's endgame: 4 cows left (3 is the leopards' static win).
        out.push(Case {
            nodes: 10_000_000,
            ..case(
                "cows-leopards-mogol",
                Scope::MaxPrey(4),
                Leaves::OtherTiers,
                4096,
                30,
            )
        });
        // 2 leopards against 2 cows: a draw there takes the local analysis
        // a region of about 2.6 M positions (30 s of CPU each in a release
        // build), so few are drawn.
        out.push(Case {
            nodes: 30_000_000,
            ..case(
                "diviyan-keliya",
                Scope::MaxPrey(2),
                Leaves::OtherTiers,
                4096,
                5,
            )
        });
    }
    out
}

fn agreement_suite(regular_samples: Option<usize>) -> Vec<(String, Agreement)> {
    let mut out = Vec::new();
    for c in agreement_cases(regular_samples.is_none()) {
        let g = from_spec(c.spec).unwrap();
        let label = format!("{} ({:?}, {})", c.spec, c.scope, leaves_label(c.leaves));
        let samples = regular_samples.unwrap_or(c.large_samples);
        let a = agree_with_tables(&g, &c.scope, c.leaves, c.hash_mib, c.nodes, samples, 11);
        eprintln!(
            "{label}: {} positions ({} draws) agree, {} unknown, {} nodes, {} table hits, {:.2} s",
            a.positions, a.draws, a.unknown, a.nodes, a.table_hits, a.seconds
        );
        out.push((label, a));
    }
    let g = huntsolve::tafl::from_spec("brandubh").unwrap();
    let scope = Scope::Material {
        attackers: 2,
        defenders: 1,
    };
    let samples = regular_samples.unwrap_or(250);
    let a = agree_with_tables(&g, &scope, Leaves::None, 64, 50_000_000, samples, 11);
    eprintln!(
        "brandubh material 2,1 (no table): {} positions agree, {} nodes, {:.2} s",
        a.positions, a.nodes, a.seconds
    );
    out.push(("brandubh material 2,1 (no table)".into(), a));
    out
}

fn leaves_label(leaves: Leaves) -> &'static str {
    match leaves {
        Leaves::None => "no table",
        Leaves::OtherTiers => "tables of the other tiers only",
    }
}

/// Positions that agreed (each case printed its figures as it ended; a
/// disagreement has already failed the test). With `all_decided`, fails if
/// any position was left unknown within its node budget.
fn report(results: &[(String, Agreement)], all_decided: bool) -> usize {
    let unknown: Vec<_> = results
        .iter()
        .filter(|(_, a)| a.unknown > 0)
        .map(|(l, a)| format!("{l}: {}", a.unknown))
        .collect();
    if !unknown.is_empty() {
        eprintln!("unknown within the node budget: {unknown:?}");
    }
    assert!(!all_decided || unknown.is_empty(), "{unknown:?}");
    results.iter().map(|(_, a)| a.positions).sum()
}

#[test]
fn prover_agrees_with_tables_on_random_positions() {
    let results = agreement_suite(Some(25));
    assert_eq!(report(&results, true), 25 * results.len());
}

/// The larger run behind results/proofs.md: 250 positions of each regular
/// case, and fewer of the Bagh-Chal movement phase and the larger leopard
/// endgames, proven with the tables of every tier but the position's own.
/// Every decided value must equal the table's; positions left unknown within
/// their node budget are counted and reported (a measurement of how far the
/// prover reaches), while the regular test requires every one decided.
#[test]
#[ignore = "tens of minutes in the test profile; figures in results/proofs.md"]
fn prover_agrees_with_tables_on_many_random_positions() {
    let results = agreement_suite(None);
    assert!(report(&results, false) >= 1000);
}

/// The commands through the binary: `prove --save`, `check-proof` (0 when
/// the certificate holds, 1 when an altered one does not, 2 for a corrupt
/// file), `prove --json`, and `query --exact` answered by the prover.
#[test]
fn prove_and_check_proof_commands() {
    use crate::common::run;
    let dir = std::env::temp_dir().join(format!("huntsolve-prove-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k6.proof");
    let f = file.to_str().unwrap();
    let (code, out, err) = run(&[
        "prove", "kaooa-6", "start", "--hash", "16", "--save", f, "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["value"], "draw");
    assert_eq!(j["runs"].as_array().unwrap().len(), 2);
    for side in ["prey", "hunter"] {
        let path = format!("{f}.{side}");
        let (code, out, err) = run(&["check-proof", &path]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("the certificate holds"), "{out}");
        // Altered: the first one-move node plays another move.
        let cert = Certificate::read(std::path::Path::new(&path)).unwrap();
        let cert = crate::common::first_move_altered(&cert);
        let bad = dir.join("bad.proof");
        cert.write(&bad).unwrap();
        let (code, out, _) = run(&["check-proof", bad.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("does NOT hold"), "{out}");
        // Corrupt: a flipped byte.
        let mut bytes = std::fs::read(&path).unwrap();
        let k = bytes.len() / 2;
        bytes[k] ^= 0x10;
        std::fs::write(&bad, bytes).unwrap();
        let (code, _, err) = run(&["check-proof", bad.to_str().unwrap()]);
        assert_eq!(code, 2);
        assert!(err.contains("checksum"), "{err}");
    }
    let (code, out, err) = run(&["query", "kaooa-6", "start", "--exact", "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["value"], "draw");
    assert_eq!(j["source"], "prover");
    // A budget too small for a proof: unknown, with the root's numbers.
    let (code, out, _) = run(&["prove", "kaooa-6", "start", "--nodes", "100", "--hash", "4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("value    unknown") && out.contains("undecided after"),
        "{out}"
    );
    // Traditional side names are accepted (`--side crows` was
    // refused); a name of no side is not.
    let (code, _, err) = run(&["prove", "kaooa-6", "start", "--side", "dragons"]);
    assert_eq!(code, 2);
    assert!(err.contains("--side 'dragons'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bench --prove --json`: one object with a row per suite part, the totals and the
/// node signature of one thread (deterministic for a given --hash: 1,618,922 at 64 MiB with the
/// defaults; 3,445,122 with `--init plain --no-symmetry --no-quick-check`, the prover before
/// its symmetric proof table).
#[test]
fn bench_prove_json_has_the_suite_and_its_signature() {
    use crate::common::run;
    let (code, out, err) = run(&[
        "bench",
        "--prove",
        "--threads",
        "1",
        "--hash",
        "64",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["threads"] == 1));
    assert!(rows
        .iter()
        .all(|r| r["alphabeta_nodes_per_second"].is_number()));
    let values: Vec<&str> = rows[0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(values, ["win"]); // kaooa: the crows win
    assert_eq!(v["spread_plies"], 3);
    assert_eq!(v["totals"][0][1], 1_618_922);
    assert!(v["speedup"].is_null());
}
