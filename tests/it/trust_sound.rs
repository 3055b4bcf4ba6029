//! Each of check-proof's soundness rules refuses a hand-made false
//! certificate that every other rule lets through, so that a test fails when
//! the rule is disabled:
//!
//! - a `win` graph must be acyclic: the kaooa-6 draw's "the vulture cannot
//!   win" graph, relabelled "the crows win", satisfies every node's own
//!   condition and only its cycles show the claim false;
//! - a `One` node only where the choosing side is to move: a line on which
//!   the vulture helps the crows win, with the vulture's moves as `One`;
//! - an `All` node lists every legal move: the same kind of line, with the
//!   vulture's nodes `All` of its first move only;
//! - a table leaf's value and distance match the table (and the table file
//!   named is the one read), by the checker's own path to the tables.
//!
//! Each is refused by the library (`check`, `check_with_tables`) and by the
//! command (`check-proof`: exit 1, "does NOT hold"), while a corrupt file is
//! exit 2.

use huntsolve::game::{Game, NoOracle, Notation, Value};
use huntsolve::hunt::{from_spec, HuntGame};
use huntsolve::prove::TableDirs;
use huntsolve::prove::{check, check_with_tables, CheckReport};
use huntsolve::prove::{extract, ProofTable, ProveConfig, Prover, RunOutcome};
use huntsolve::prove::{CertHeader, Certificate, Kind, Node, TableRef};
use huntsolve::retro::TierGame;
use huntsolve::NoProgress;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

type Leaf = huntsolve::Result<Option<(TableRef, Value, u32)>>;

fn no_tables(_: &<HuntGame as Game>::Pos) -> Leaf {
    Ok(None)
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-sound-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Whether `v`, from the view of the side to move `mover`, is a win for `side`.
fn won_by(v: Value, mover: usize, side: usize) -> bool {
    match v {
        Value::Win => mover == side,
        Value::Loss => mover != side,
        Value::Draw => false,
    }
}

/// A shortest line from the start to a finished game won by `side`, both
/// sides playing into it (a helpmate), as legal-move indices; the other
/// side plays only its first legal move when `opponent_first`.
fn helpmate(g: &HuntGame, side: usize, opponent_first: bool) -> Vec<u32> {
    let start = g.start();
    let mut from: HashMap<<HuntGame as Game>::Pos, (<HuntGame as Game>::Pos, u32)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    let mut moves = Vec::new();
    let mut end = None;
    while let Some(p) = queue.pop_front() {
        let mover = g.side_to_move(&p);
        if let Some(v) = g.outcome(&p) {
            if won_by(v, mover, side) {
                end = Some(p);
                break;
            }
            continue;
        }
        g.legal_moves(&p, &mut moves);
        let tried = if opponent_first && mover != side {
            1
        } else {
            moves.len()
        };
        for (k, &m) in moves.iter().enumerate().take(tried) {
            let c = g.play(&p, m);
            if c != start && !from.contains_key(&c) {
                from.insert(c, (p, k as u32));
                queue.push_back(c);
            }
        }
        assert!(from.len() < 5_000_000, "no helpmate found");
    }
    let mut p = end.expect("a helpmate line exists");
    let mut line = Vec::new();
    while p != start {
        let (q, k) = from[&p];
        line.push(k);
        p = q;
    }
    line.reverse();
    line
}

/// How the opponent's nodes of a helpmate line are written.
#[derive(Clone, Copy)]
enum Opponent {
    /// `One` of the move played (a `One` node at the opponent's turn).
    One,
    /// `All` of that move alone (it is the opponent's first legal move).
    All,
}

/// The certificate "`side` forces a win" of a helpmate `line`: a chain from
/// the start to the finished game.
fn line_certificate(g: &HuntGame, side: usize, line: &[u32], opp: Opponent) -> Certificate {
    let mut p = g.start();
    let mut nodes = Vec::new();
    let mut moves = Vec::new();
    let mut opponent_choices = 0;
    for (i, &k) in line.iter().enumerate() {
        let child = i as u32 + 1;
        g.legal_moves(&p, &mut moves);
        if g.side_to_move(&p) == side {
            nodes.push(Node::One { mv: k, child });
        } else {
            opponent_choices += usize::from(moves.len() > 1);
            nodes.push(match opp {
                Opponent::One => Node::One { mv: k, child },
                Opponent::All => {
                    assert_eq!(k, 0);
                    Node::All(vec![child])
                }
            });
        }
        p = g.play(&p, moves[k as usize]);
    }
    // Otherwise the line proves a true win and the certificate is not false.
    assert!(opponent_choices > 0, "the opponent never had a choice");
    nodes.push(Node::Terminal);
    Certificate {
        header: CertHeader {
            rules: g.rules_string(),
            fingerprint: g.fingerprint(),
            position: g.format_position(&g.start()),
            side: side as u8,
            side_name: g.side_name(side).to_string(),
            kind: Kind::Win,
            nodes: nodes.len() as u64,
            tables: Vec::new(),
            writer: "a test's hand".into(),
            within: None,
        },
        nodes,
    }
}

/// The prover's certificate of run `outcome` for `side` from the start.
fn prover_certificate(g: &HuntGame, side: usize, outcome: RunOutcome) -> Certificate {
    let start = g.start();
    let tt = ProofTable::new(16);
    let p = Prover::new(g, &NoOracle, &tt, ProveConfig::default());
    let r = p.prove_side(&start, side, &NoProgress);
    assert_eq!(r.outcome, outcome);
    extract(&p, &start, side, outcome, &|_: &_| Ok(None), 1 << 22).unwrap()
}

fn prey(g: &HuntGame) -> usize {
    huntsolve::game::side_by_name(g, "prey").unwrap()
}

/// `check-proof FILE [args]` on `cert` written to `dir/name`: exit code,
/// standard output, standard error.
fn check_proof_cli(dir: &Path, name: &str, cert: &Certificate, args: &[&str]) -> (i32, String) {
    let file = dir.join(name);
    cert.write(&file).unwrap();
    let mut a = vec!["check-proof", file.to_str().unwrap()];
    a.extend_from_slice(args);
    let (code, out, err) = crate::common::run(&a);
    (code, format!("{out}{err}"))
}

/// Refused with a problem containing `why`, by the library and the command.
fn assert_refused(report: &CheckReport, why: &str, cli: (i32, String)) {
    assert!(!report.ok(), "a false certificate holds");
    assert!(
        report.examples.iter().any(|e| e.contains(why)),
        "{why}: {:?}",
        report.examples
    );
    let (code, out) = cli;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does NOT hold") && out.contains(why), "{out}");
}

/// kaooa-6 is a draw: the vulture cannot win, and its opponent's strategy
/// (the prover's "no-win" certificate for the vulture) keeps play going round
/// for ever. Relabelled "the crows force a win", every node still satisfies
/// its own condition (the crows choose one move, the vulture's nodes list
/// every move, every finished game is the crows'); only the cycle shows that
/// the crows make no progress.
#[test]
fn a_cycle_claimed_as_a_win_is_refused() {
    let g = from_spec("kaooa-6").unwrap();
    let crows = prey(&g);
    let vulture = 1 - crows;
    let honest = prover_certificate(&g, vulture, RunOutcome::Disproven);
    assert!(check(&g, &honest, &no_tables).unwrap().ok());
    assert_eq!(honest.depth(), None, "the draw's graph has a cycle");
    let mut cert = honest.clone();
    cert.header.kind = Kind::Win;
    cert.header.side = crows as u8;
    cert.header.side_name = g.side_name(crows).to_string();
    let r = check(&g, &cert, &no_tables).unwrap();
    // The cycle is the only problem: without the rule the claim would hold.
    assert_eq!(r.problems, 1, "{:?}", r.examples);
    let d = tmpdir("cycle");
    assert_refused(&r, "cycle", check_proof_cli(&d, "cycle.proof", &cert, &[]));
    let _ = std::fs::remove_dir_all(&d);
}

/// A helpmate in kaooa-6 (a draw): the crows "win" because the vulture's
/// nodes are written as one chosen move, not as every move.
#[test]
fn a_one_node_at_the_opponents_turn_is_refused() {
    let g = from_spec("kaooa-6").unwrap();
    let crows = prey(&g);
    let line = helpmate(&g, crows, false);
    let cert = line_certificate(&g, crows, &line, Opponent::One);
    let r = check(&g, &cert, &no_tables).unwrap();
    let d = tmpdir("one");
    let cli = check_proof_cli(&d, "one.proof", &cert, &[]);
    assert_refused(&r, "lists one move but", cli);
    // The only problems: the vulture's first node, and the rest of the line,
    // which the checker does not walk past a node it refuses.
    assert!(
        r.examples[0].contains("lists one move but"),
        "{:?}",
        r.examples
    );
    assert!(
        r.examples[1..].iter().all(|e| e.contains("not reached")),
        "{:?}",
        r.examples
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A helpmate in kaooa-6 on which the vulture always plays its first legal
/// move: its nodes written `All` of that move alone (the other moves left
/// out, not even as unreachable nodes) must be refused.
#[test]
fn an_all_node_missing_a_legal_move_is_refused() {
    let g = from_spec("kaooa-6").unwrap();
    let crows = prey(&g);
    let line = helpmate(&g, crows, true);
    let cert = line_certificate(&g, crows, &line, Opponent::All);
    let r = check(&g, &cert, &no_tables).unwrap();
    let d = tmpdir("all");
    let cli = check_proof_cli(&d, "all.proof", &cert, &[]);
    assert_refused(&r, "are legal", cli);
    let only = |r: &CheckReport| {
        r.examples
            .iter()
            .all(|e| e.contains("are legal") || e.contains("not reached"))
    };
    assert!(only(&r), "{:?}", r.examples);
    // And an `All` node listing a move too many (the last child repeated).
    let honest = prover_certificate(&g, 1 - crows, RunOutcome::Disproven);
    let mut more = honest.clone();
    let i = more
        .nodes
        .iter()
        .position(|n| matches!(n, Node::All(_)))
        .unwrap();
    if let Node::All(c) = &mut more.nodes[i] {
        c.push(*c.last().unwrap());
    }
    let r = check(&g, &more, &no_tables).unwrap();
    assert!(only(&r), "{:?}", r.examples);
    assert_refused(
        &r,
        "are legal",
        check_proof_cli(&d, "more.proof", &more, &[]),
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// kaooa solved into `dir/all`, and `dir/part`: the same tables without the
/// start's tier, so that the start is proven by the prover with table leaves.
fn kaooa_tables(dir: &Path) -> (HuntGame, PathBuf, PathBuf) {
    let g = from_spec("kaooa").unwrap();
    let all = dir.join("all");
    let opts = huntsolve::retro::SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    huntsolve::retro::solve(
        &g,
        &huntsolve::retro::Scope::Whole,
        &all,
        &opts,
        &NoProgress,
    )
    .unwrap();
    let part = dir.join("part");
    std::fs::create_dir_all(&part).unwrap();
    let start_tier = g.tier_name(g.tier_of(&g.start()));
    for name in huntsolve::table::list_tiers(&all).unwrap() {
        if name != start_tier {
            let f = format!("{name}.hst");
            std::fs::copy(all.join(&f), part.join(&f)).unwrap();
        }
    }
    (g, all, part)
}

/// The prover's certificate of the kaooa start (the crows win) over the
/// tables of `part`: its leaves are table leaves.
fn table_certificate(g: &HuntGame, part: &Path) -> Certificate {
    let tables = TableDirs::open(g, &[part.to_path_buf()]).unwrap();
    let start = g.start();
    let tt = ProofTable::new(16);
    let p = Prover::new(g, &tables, &tt, ProveConfig::default());
    let side = g.side_to_move(&start);
    let r = p.prove_side(&start, side, &NoProgress);
    assert_eq!(r.outcome, RunOutcome::Proven);
    let leaf = |q: &_| Ok(tables.leaf(g, q)?.map(|x| x.0));
    extract(&p, &start, side, RunOutcome::Proven, &leaf, 1 << 20).unwrap()
}

/// A table leaf is compared with the table, read by the checker's own path:
/// a wrong distance, a wrong value, a table file named by another checksum
/// or a leaf in the wrong tier are each refused; the honest certificate holds.
#[test]
fn table_leaves_with_a_wrong_value_or_distance_are_refused() {
    let d = tmpdir("tables");
    let (g, all, part) = kaooa_tables(&d);
    let cert = table_certificate(&g, &part);
    let dirs = [part.clone()];
    let p = part.to_str().unwrap();
    let r = check_with_tables(&g, &cert, &dirs).unwrap();
    assert!(r.ok(), "{:?}", r.examples);
    assert!(r.table_leaves > 0);
    let (code, out) = check_proof_cli(&d, "honest.proof", &cert, &["--tables", p]);
    assert_eq!(code, 0, "{out}");
    let first_leaf = cert
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Table { .. }))
        .unwrap();
    let edit = |f: &dyn Fn(&mut u32, &mut Value)| {
        let mut c = cert.clone();
        if let Node::Table {
            distance, value, ..
        } = &mut c.nodes[first_leaf]
        {
            f(distance, value);
        }
        c
    };
    let cases = [
        ("distance + 1", edit(&|d, _| *d += 1)),
        (
            "distance - 1",
            edit(&|d, _| *d = d.checked_sub(1).unwrap_or(2)),
        ),
        // The claim is the mover's win: a draw or a loss at the leaf where
        // the table has the win (or the loss) in the same distance.
        (
            "value",
            edit(&|_, v| {
                *v = if *v == Value::Draw {
                    Value::Win
                } else {
                    Value::Draw
                }
            }),
        ),
    ];
    for (what, c) in &cases {
        let r = check_with_tables(&g, c, &dirs).unwrap();
        assert_eq!(r.problems, 1, "{what}: {:?}", r.examples);
        let cli = check_proof_cli(&d, "bad.proof", c, &["--tables", p]);
        assert_refused(&r, "the table says", cli);
    }
    // The header names the table by another checksum.
    let mut c = cert.clone();
    c.header.tables[0].crc32 ^= 1;
    let r = check_with_tables(&g, &c, &dirs).unwrap();
    let cli = check_proof_cli(&d, "crc.proof", &c, &["--tables", p]);
    assert_refused(&r, "the proof names table", cli);
    // With the start's tier given too, the same certificate still holds
    // (its leaves lie in other tiers), and a corrupt copy is exit 2.
    let both = [all.clone(), part.clone()];
    assert!(check_with_tables(&g, &cert, &both).unwrap().ok());
    let file = d.join("honest.proof");
    let mut bytes = std::fs::read(&file).unwrap();
    let k = bytes.len() / 2;
    bytes[k] ^= 0x04;
    std::fs::write(&file, bytes).unwrap();
    let (code, _, err) =
        crate::common::run(&["check-proof", file.to_str().unwrap(), "--tables", p]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The checker reads its table leaves in table and slot order, not node
/// order: each answer must still be checked against its own node. With the
/// start's tier and its children left out, the kaooa proof has table leaves
/// at many slots; a wrong distance at any one of them is found at that node.
#[test]
fn table_leaves_read_in_table_order_are_checked_at_their_own_node() {
    let d = tmpdir("order");
    let (g, all, _) = kaooa_tables(&d);
    let deep = d.join("deep");
    std::fs::create_dir_all(&deep).unwrap();
    let start_tier = g.tier_of(&g.start());
    let mut left_out: Vec<String> = vec![g.tier_name(start_tier)];
    left_out.extend(
        g.stored_children(start_tier)
            .into_iter()
            .map(|t| g.tier_name(t)),
    );
    for name in huntsolve::table::list_tiers(&all).unwrap() {
        if !left_out.contains(&name) {
            let f = format!("{name}.hst");
            std::fs::copy(all.join(&f), deep.join(&f)).unwrap();
        }
    }
    let cert = table_certificate(&g, &deep);
    let dirs = [deep.clone()];
    assert!(check_with_tables(&g, &cert, &dirs).unwrap().ok());
    let leaves: Vec<usize> = cert
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| matches!(n, Node::Table { .. }))
        .map(|(i, _)| i)
        .collect();
    assert!(leaves.len() > 5, "{} table leaves", leaves.len());
    let k = leaves.len();
    for at in [
        leaves[0],
        leaves[1],
        leaves[k / 3],
        leaves[k / 2],
        leaves[k - 1],
    ] {
        let mut c = cert.clone();
        if let Node::Table { distance, .. } = &mut c.nodes[at] {
            *distance += 1;
        }
        let r = check_with_tables(&g, &c, &dirs).unwrap();
        assert_eq!(r.problems, 1, "leaf {at}: {:?}", r.examples);
        assert!(
            r.examples[0].starts_with(&format!("node {at}: the table says")),
            "leaf {at}: {:?}",
            r.examples
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Certificates are named by the sha256 of their bytes. Two certificates that
/// differ only in the header share their trailer crc32 (a crc over a message
/// followed by its own crc ends in one state, so the trailer depends on the
/// node data alone: two mogol certificates both showed 58ddb8f4), but not
/// their names; `prove --save` and `check-proof` print the same name, the
/// file's sha256.
#[test]
fn certificates_differing_only_in_the_header_get_different_names() {
    use crate::common::run;
    use sha2::Digest;
    let d = tmpdir("names");
    let file = d.join("k.proof");
    let f = file.to_str().unwrap();
    let (code, out, err) = run(&["prove", "kaooa", "--hash", "16", "--save", f, "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let hex = |b: &[u8]| -> String {
        sha2::Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect()
    };
    let name = hex(&bytes);
    assert_eq!(j["certificates"][0]["sha256"], name.as_str(), "{out}");
    let mut other = Certificate::read(&file).unwrap();
    other.header.writer = "another writer".into();
    let other_file = d.join("other.proof");
    other.write(&other_file).unwrap();
    let other_bytes = std::fs::read(&other_file).unwrap();
    let trailer = |b: &[u8]| b[b.len() - 12..b.len() - 8].to_vec();
    assert_ne!(bytes, other_bytes);
    assert_eq!(
        trailer(&bytes),
        trailer(&other_bytes),
        "the crc32 names both alike"
    );
    let mut names = Vec::new();
    for p in [&file, &other_file] {
        let (code, out, err) = run(&["check-proof", p.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(j["problems"], 0);
        names.push(j["sha256"].as_str().unwrap().to_string());
        let (_, text, _) = run(&["check-proof", p.to_str().unwrap()]);
        assert!(
            text.contains(&format!("sha256   {}", names.last().unwrap())),
            "{text}"
        );
    }
    assert_eq!(names[0], name);
    assert_eq!(names[1], hex(&other_bytes));
    assert_ne!(names[0], names[1]);
    let _ = std::fs::remove_dir_all(&d);
}
