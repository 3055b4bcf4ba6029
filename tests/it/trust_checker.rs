//! Every message the certificate checker (`src/prove/check.rs`) can report is
//! pinned by a hand-built false certificate that draws exactly that message:
//! the problems (verdict "does not hold") and the refusals (exit 2: a malformed
//! certificate, other rules, a leaf no table given covers). A meta-test reads
//! the checker's source, extracts every message template passed to a
//! reporting call, and fails naming any template no case here pins, so a new
//! rule of the checker cannot land without a test that fails when it is off.
//!
//! The certificates are built on Kaooa; table leaves are read through a probe
//! the test writes (`check` takes the reader as an argument), so no table is
//! solved here.

use huntsolve::game::{Game, Notation, Value};
use huntsolve::hunt::{from_spec, HuntGame};
use huntsolve::prove::{check, CertHeader, Certificate, CheckReport, Kind, Node, TableRef};
use huntsolve::Rng;

type Pos = <HuntGame as Game>::Pos;
type Leaf = huntsolve::Result<Option<(TableRef, Value, u32)>>;

/// The checker's source, read at compile time.
const CHECKER_SOURCE: &str = include_str!("../../src/prove/check.rs");

/// The calls that report a checker message: a problem of the report, a
/// malformed certificate (`validate`'s `bad`), or an error.
const REPORTING_CALLS: &[&str] = &[
    ".problem(",
    "bad(",
    "Error::certificate_data(",
    "Error::Usage(",
    "Error::Internal(",
];

/// Messages no certificate can draw, with why: a test cannot pin them, and the
/// meta-test accepts them only as listed here.
const UNREACHABLE: &[(&str, &str)] = &[
    (
        "{} table leaves asked, {} answered",
        "an internal invariant: `check` maps its probe over the batch and \
         `LeafTables::leaves` answers one read per position asked",
    ),
    (
        "node {v} is not a table leaf",
        "an internal invariant: only table nodes are queued as table leaves",
    ),
];

fn kaooa() -> HuntGame {
    from_spec("kaooa").unwrap()
}

fn hunter(g: &HuntGame) -> usize {
    1 - huntsolve::game::side_by_name(g, "prey").unwrap()
}

/// A certificate of `nodes` rooted at `root`, claiming `kind` for `side`.
fn cert(
    g: &HuntGame,
    root: &Pos,
    side: usize,
    kind: Kind,
    within: Option<u32>,
    nodes: Vec<Node>,
) -> Certificate {
    Certificate {
        header: CertHeader {
            rules: g.rules_string(),
            fingerprint: g.fingerprint(),
            position: g.format_position(root),
            side: side as u8,
            side_name: g.side_name(side).to_string(),
            kind,
            nodes: nodes.len() as u64,
            tables: vec![table("t", 1)],
            writer: "a test's hand".into(),
            within,
        },
        nodes,
    }
}

fn table(tier: &str, crc32: u32) -> TableRef {
    TableRef {
        tier: tier.into(),
        crc32,
    }
}

fn no_tables(_: &Pos) -> Leaf {
    Ok(None)
}

/// A finished game (seeded random play), with the value for its side to move.
fn finished(g: &HuntGame) -> (Pos, Value) {
    let mut rng = Rng::new(11);
    let mut moves = Vec::new();
    for _ in 0..2000 {
        let mut p = g.start();
        for _ in 0..300 {
            if let Some(v) = g.outcome(&p) {
                if v != Value::Draw {
                    return (p, v);
                }
                break;
            }
            g.legal_moves(&p, &mut moves);
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
    }
    panic!("no random game of kaooa ended in a win");
}

/// The side a finished `p` of value `v` was won by.
fn winner(g: &HuntGame, p: &Pos, v: Value) -> usize {
    let mover = g.side_to_move(p);
    if v == Value::Win {
        mover
    } else {
        1 - mover
    }
}

fn legal(g: &HuntGame, p: &Pos) -> Vec<<HuntGame as Game>::Move> {
    let mut moves = Vec::new();
    g.legal_moves(p, &mut moves);
    moves
}

/// A true certificate "the vulture cannot win within 2 plies" from the start:
/// the crows drop, every vulture reply is a horizon leaf.
fn two_plies(g: &HuntGame) -> Certificate {
    let after = g.play(&g.start(), legal(g, &g.start())[0]);
    let k = legal(g, &after).len() as u32;
    let mut nodes = vec![
        Node::One { mv: 0, child: 1 },
        Node::All((2..2 + k).collect()),
    ];
    nodes.extend((0..k).map(|_| Node::Horizon));
    cert(g, &g.start(), hunter(g), Kind::NoWin, Some(2), nodes)
}

/// Whether `msg` is an instance of the format `template`: its literal pieces
/// in order, each `{..}` standing for any text; anchored at both ends when
/// `whole` (a problem is the message itself; an error adds a prefix).
fn instance_of(msg: &str, template: &str, whole: bool) -> bool {
    let mut pieces = vec![String::new()];
    let mut cs = template.chars().peekable();
    while let Some(c) = cs.next() {
        match c {
            '{' if cs.peek() == Some(&'{') => {
                cs.next();
                pieces.last_mut().unwrap().push('{');
            }
            '{' => {
                for d in cs.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                pieces.push(String::new());
            }
            '}' if cs.peek() == Some(&'}') => {
                cs.next();
                pieces.last_mut().unwrap().push('}');
            }
            c => pieces.last_mut().unwrap().push(c),
        }
    }
    let (first, last) = (&pieces[0], &pieces[pieces.len() - 1]);
    let mut rest = msg;
    if whole {
        let Some(r) = rest.strip_prefix(first.as_str()) else {
            return false;
        };
        rest = r;
    }
    let middle = if whole {
        &pieces[1..pieces.len().saturating_sub(1).max(1)]
    } else {
        &pieces[..]
    };
    for piece in middle {
        match rest.find(piece.as_str()) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    !whole
        || pieces.len() == 1 && rest.is_empty()
        || pieces.len() > 1 && rest.ends_with(last.as_str())
}

/// The certificate does not hold, and every problem reported is `template`.
fn assert_problem(template: &str, report: huntsolve::Result<CheckReport>) {
    let r = report.unwrap_or_else(|e| panic!("{template}: an error, not a report: {e}"));
    assert!(!r.ok(), "{template}: the false certificate holds: {r:?}");
    assert!(
        r.problems as usize >= r.examples.len() && !r.examples.is_empty(),
        "{r:?}"
    );
    for e in &r.examples {
        assert!(instance_of(e, template, true), "{template}: reported {e:?}");
    }
}

/// The certificate is refused (exit 2) with `template` in the error.
fn assert_refusal(template: &str, report: huntsolve::Result<CheckReport>) {
    let e = match report {
        Ok(r) => panic!("{template}: a report, not a refusal: {r:?}"),
        Err(e) => e,
    };
    assert_eq!(e.exit_code(), 2, "{template}: {e:?}");
    let msg = e.to_string();
    assert!(instance_of(&msg, template, false), "{template}: {msg}");
}

/// The cases: for each message template of the checker (as written in its
/// source), whether it is a problem or a refusal, and the false certificate
/// checked. Each becomes a test of its own, named by its builder.
macro_rules! pinned {
    ($($verdict:ident $template:literal => $case:ident;)*) => {
        /// Every template a case below pins.
        const PINNED: &[&str] = &[$($template),*];
        mod pinned {
            $(
                #[test]
                fn $case() {
                    super::$verdict($template, super::$case());
                }
            )*
        }
    };
}

pinned! {
    assert_problem "node {c}: reached by two different positions" => two_moves_into_one_node;
    assert_problem "{unreachable} nodes are not reached from the root" => a_node_off_the_graph;
    assert_problem "the proof graph has a cycle (no progress to a win)" => a_win_that_goes_round;
    assert_problem "the longest line, with its table leaves' distances, has {d} plies, more than the {w} claimed" => a_bounded_win_too_long;
    assert_problem "node {v}: marked terminal but the game goes on" => a_terminal_leaf_at_the_start;
    assert_problem "node {v}: the game ends in a {val} for the side to move, against the claim" => a_terminal_leaf_lost_by_the_claimant;
    assert_problem "node {v}: a horizon leaf outside a no-win claim bounded by plies" => a_horizon_leaf_in_an_unbounded_claim;
    assert_problem "node {v}: a horizon leaf with {} plies of the claim left" => a_horizon_leaf_too_early;
    assert_problem "node {v}: a horizon leaf where the game is over" => a_horizon_leaf_on_a_finished_game;
    assert_problem "node {v}: the game is over here" => a_one_move_node_on_a_finished_game;
    assert_problem "node {v}: the game is over here" => an_every_move_node_on_a_finished_game;
    assert_problem "node {v}: lists one move but {} is to move" => a_one_move_node_at_the_wrong_turn;
    assert_problem "node {v}: move index {mv} of {legal} legal moves" => a_move_index_past_the_legal_moves;
    assert_problem "node {v}: lists every move but {} chooses here" => an_every_move_node_at_the_wrong_turn;
    assert_problem "node {v}: lists {} moves but {legal} are legal" => an_every_move_node_missing_moves;
    assert_problem "node {v}: the proof names table {} (crc32 {:08x}), the position lies in {} (crc32 {:08x}){hint}" => a_table_leaf_in_another_table;
    assert_problem "node {v}: the table says {val} in {d}, the proof {value} in {distance}" => a_table_leaf_with_another_distance;
    assert_problem "node {v}: the table value {val} contradicts the claim" => a_table_leaf_against_the_claim;
    assert_refusal "malformed: {m}" => a_malformed_certificate;
    assert_refusal "it has no nodes" => no_nodes;
    assert_refusal "the header counts {} nodes, there are {n}" => a_wrong_node_count;
    assert_refusal "goal side {} (0 or 1 expected)" => a_third_side;
    assert_refusal "a claim bounded by {} plies (at most {MAX_WITHIN_CHECKED} are checked)" => too_many_plies;
    assert_refusal "node {i}: table {table} of {} named" => a_table_index_out_of_range;
    assert_refusal "node {i}: child {child} of {n} nodes" => a_one_move_child_out_of_range;
    assert_refusal "node {i}: child {c} of {n} nodes" => an_every_move_child_out_of_range;
    assert_refusal "node {i}: lists no moves" => an_every_move_node_without_moves;
    assert_refusal "the proof is for rules '{}' (fingerprint {:016x}), not '{}' ({:016x})" => other_rules;
    assert_refusal "node {v}: no table given covers this position (the proof names tier {}); give --tables with that tier" => a_table_leaf_no_table_covers;
}

// The problems.

fn two_moves_into_one_node() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    assert!(check(&g, &c, &no_tables)?.ok());
    // Every vulture reply leads to node 2; the others stay as unreached
    // leaves would be a second problem, so they are dropped.
    let k = match &c.nodes[1] {
        Node::All(ch) => ch.len(),
        _ => unreachable!(),
    };
    c.nodes.truncate(3);
    c.nodes[1] = Node::All(vec![2; k]);
    c.header.nodes = 3;
    check(&g, &c, &no_tables)
}

fn a_node_off_the_graph() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes.push(Node::Horizon);
    c.header.nodes += 1;
    check(&g, &c, &no_tables)
}

/// A position at which the crows (to move) and the vulture can play round
/// back to it in four plies: crows, vulture, crows, vulture moves.
fn a_round(g: &HuntGame) -> (Pos, [u32; 4]) {
    let crows = 1 - hunter(g);
    let mut rng = Rng::new(3);
    for _ in 0..500 {
        let mut p = g.start();
        for _ in 0..60 {
            if g.outcome(&p).is_some() {
                break;
            }
            if g.side_to_move(&p) == crows {
                if let Some(line) = round_from(g, &p, &p, 0, &mut Vec::new()) {
                    return (p, line.try_into().unwrap());
                }
            }
            let moves = legal(g, &p);
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
    }
    panic!("no four-ply round found in kaooa");
}

fn round_from(
    g: &HuntGame,
    home: &Pos,
    p: &Pos,
    ply: usize,
    line: &mut Vec<u32>,
) -> Option<Vec<u32>> {
    if ply == 4 {
        return (p == home).then(|| line.clone());
    }
    if g.outcome(p).is_some() {
        return None;
    }
    for (i, &m) in legal(g, p).iter().enumerate() {
        line.push(i as u32);
        if let Some(l) = round_from(g, home, &g.play(p, m), ply + 1, line) {
            return Some(l);
        }
        line.pop();
    }
    None
}

/// "The crows win" by going round: the crows play the round, every vulture
/// move off it is a table leaf the probe reads as the crows' win, and the
/// vulture's last move of the round returns to the root. Every node holds on
/// its own; only the cycle shows no progress.
fn a_win_that_goes_round() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let crows = 1 - hunter(&g);
    let (root, [m1, m2, m3, m4]) = a_round(&g);
    let mut nodes = vec![Node::One { mv: m1, child: 1 }];
    let p1 = g.play(&root, legal(&g, &root)[m1 as usize]);
    let p2 = g.play(&p1, legal(&g, &p1)[m2 as usize]);
    let p3 = g.play(&p2, legal(&g, &p2)[m3 as usize]);
    // Node 1: the vulture at p1; node 2: the crows at p2; node 3: the vulture at p3.
    nodes.push(Node::All(Vec::new()));
    nodes.push(Node::One { mv: m3, child: 3 });
    nodes.push(Node::All(Vec::new()));
    let leaf = |q: &Pos| Node::Table {
        table: 0,
        value: crows_win(&g, q, crows),
        distance: 1,
    };
    for (at, p, round, back) in [(1usize, &p1, m2, 2u32), (3, &p3, m4, 0)] {
        let mut children = Vec::new();
        for (i, &m) in legal(&g, p).iter().enumerate() {
            if i as u32 == round {
                children.push(back);
            } else {
                children.push(nodes.len() as u32);
                nodes.push(leaf(&g.play(p, m)));
            }
        }
        nodes[at] = Node::All(children);
    }
    let c = cert(&g, &root, crows, Kind::Win, None, nodes);
    let probe = |q: &Pos| -> Leaf { Ok(Some((table("t", 1), crows_win(&g, q, crows), 1))) };
    check(&g, &c, &probe)
}

/// The crows' win at `q`, from the view of its side to move.
fn crows_win(g: &HuntGame, q: &Pos, crows: usize) -> Value {
    if g.side_to_move(q) == crows {
        Value::Win
    } else {
        Value::Loss
    }
}

fn a_bounded_win_too_long() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let start = g.start();
    let mover = g.side_to_move(&start);
    let probe = |_: &Pos| -> Leaf { Ok(Some((table("t", 1), Value::Win, 5))) };
    let leaf = Node::Table {
        table: 0,
        value: Value::Win,
        distance: 5,
    };
    let within = |w| cert(&g, &start, mover, Kind::Win, Some(w), vec![leaf.clone()]);
    assert!(check(&g, &within(5), &probe)?.ok());
    check(&g, &within(4), &probe)
}

fn a_terminal_leaf_at_the_start() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let c = cert(
        &g,
        &g.start(),
        hunter(&g),
        Kind::NoWin,
        None,
        vec![Node::Terminal],
    );
    check(&g, &c, &no_tables)
}

fn a_terminal_leaf_lost_by_the_claimant() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let (over, v) = finished(&g);
    let won = winner(&g, &over, v);
    let claim = |side| cert(&g, &over, side, Kind::Win, None, vec![Node::Terminal]);
    assert!(check(&g, &claim(won), &no_tables)?.ok());
    check(&g, &claim(1 - won), &no_tables)
}

fn a_horizon_leaf_in_an_unbounded_claim() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let c = cert(
        &g,
        &g.start(),
        hunter(&g),
        Kind::NoWin,
        None,
        vec![Node::Horizon],
    );
    check(&g, &c, &no_tables)
}

fn a_horizon_leaf_too_early() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let c = |w| {
        cert(
            &g,
            &g.start(),
            hunter(&g),
            Kind::NoWin,
            Some(w),
            vec![Node::Horizon],
        )
    };
    assert!(check(&g, &c(0), &no_tables)?.ok());
    check(&g, &c(1), &no_tables)
}

/// A bounded no-win claim whose horizon stands on a game the goal side has
/// already won: "the plies are used up" is no claim about a finished game.
fn a_horizon_leaf_on_a_finished_game() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let (over, v) = finished(&g);
    let won = winner(&g, &over, v);
    let c = cert(&g, &over, won, Kind::NoWin, Some(0), vec![Node::Horizon]);
    check(&g, &c, &no_tables)
}

fn a_one_move_node_on_a_finished_game() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let (over, v) = finished(&g);
    let won = winner(&g, &over, v);
    let nodes = vec![Node::One { mv: 0, child: 0 }];
    check(
        &g,
        &cert(&g, &over, won, Kind::NoWin, None, nodes),
        &no_tables,
    )
}

fn an_every_move_node_on_a_finished_game() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let (over, v) = finished(&g);
    let won = winner(&g, &over, v);
    let nodes = vec![Node::All(vec![0])];
    check(
        &g,
        &cert(&g, &over, won, Kind::NoWin, None, nodes),
        &no_tables,
    )
}

/// The crows are to move at the start; "the crows cannot win" has the
/// vulture choose, so a one-move node at the start is the wrong side's.
fn a_one_move_node_at_the_wrong_turn() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let crows = 1 - hunter(&g);
    let nodes = vec![Node::One { mv: 0, child: 0 }];
    check(
        &g,
        &cert(&g, &g.start(), crows, Kind::NoWin, None, nodes),
        &no_tables,
    )
}

fn a_move_index_past_the_legal_moves() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let k = legal(&g, &g.start()).len() as u32;
    let nodes = vec![Node::One { mv: k, child: 0 }];
    check(
        &g,
        &cert(&g, &g.start(), hunter(&g), Kind::NoWin, None, nodes),
        &no_tables,
    )
}

fn an_every_move_node_at_the_wrong_turn() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let k = legal(&g, &g.start()).len();
    let nodes = vec![Node::All(vec![0; k])];
    check(
        &g,
        &cert(&g, &g.start(), hunter(&g), Kind::NoWin, None, nodes),
        &no_tables,
    )
}

fn an_every_move_node_missing_moves() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    // Node 1 lists itself once: fewer children than the vulture's moves, and
    // no node is left unreached.
    c.nodes.truncate(2);
    c.nodes[1] = Node::All(vec![1]);
    c.header.nodes = 2;
    check(&g, &c, &no_tables)
}

/// A root table leaf read from `read`, claiming the crows (to move) win in 3.
fn table_root(
    read: (TableRef, Value, u32),
    kind: Kind,
    within: Option<u32>,
) -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let crows = 1 - hunter(&g);
    let leaf = Node::Table {
        table: 0,
        value: Value::Win,
        distance: 3,
    };
    let c = cert(&g, &g.start(), crows, kind, within, vec![leaf]);
    check(&g, &c, &|_: &Pos| -> Leaf { Ok(Some(read.clone())) })
}

fn a_table_leaf_in_another_table() -> huntsolve::Result<CheckReport> {
    assert!(table_root((table("t", 1), Value::Win, 3), Kind::Win, None)?.ok());
    // Another tier, and (with the hint) the same tier in another file.
    let r = table_root((table("t", 2), Value::Win, 3), Kind::Win, None)?;
    assert!(r.examples[0].contains("--other-table-files"), "{r:?}");
    assert_problem(
        "node {v}: the proof names table {} (crc32 {:08x}), the position lies in {} (crc32 {:08x}){hint}",
        Ok(r),
    );
    table_root((table("u", 1), Value::Win, 3), Kind::Win, None)
}

fn a_table_leaf_with_another_distance() -> huntsolve::Result<CheckReport> {
    table_root((table("t", 1), Value::Win, 4), Kind::Win, None)
}

fn a_table_leaf_against_the_claim() -> huntsolve::Result<CheckReport> {
    let read = (table("t", 1), Value::Win, 3);
    // A win in 3 is beyond a claim of 2 plies, not of 3.
    assert!(table_root(read.clone(), Kind::NoWin, Some(2))?.ok());
    table_root(read, Kind::NoWin, Some(3))
}

// The refusals: certificates only a hand (or a faulty writer) builds in
// memory; `Certificate::decode` refuses their bytes first, except a bound
// past the checked plies, which a file can hold.

/// Every malformed certificate's message, under its prefix.
fn a_malformed_certificate() -> huntsolve::Result<CheckReport> {
    no_nodes()
}

fn no_nodes() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes.clear();
    c.header.nodes = 0;
    check(&g, &c, &no_tables)
}

fn a_wrong_node_count() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.header.nodes += 1;
    check(&g, &c, &no_tables)
}

fn a_third_side() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.header.side = 2;
    check(&g, &c, &no_tables)
}

fn too_many_plies() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.header.within = Some(u32::MAX);
    // A file can hold it: the decoder reads it back, the checker refuses it.
    let c = Certificate::decode(&c.encode()).unwrap();
    check(&g, &c, &no_tables)
}

fn a_table_index_out_of_range() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes[2] = Node::Table {
        table: 1,
        value: Value::Draw,
        distance: 0,
    };
    check(&g, &c, &no_tables)
}

fn a_one_move_child_out_of_range() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes[0] = Node::One {
        mv: 0,
        child: c.nodes.len() as u32,
    };
    check(&g, &c, &no_tables)
}

fn an_every_move_child_out_of_range() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes[1] = Node::All(vec![2, c.nodes.len() as u32]);
    check(&g, &c, &no_tables)
}

fn an_every_move_node_without_moves() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes[1] = Node::All(Vec::new());
    check(&g, &c, &no_tables)
}

fn other_rules() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let c = two_plies(&g);
    check(&from_spec("kaooa-6").unwrap(), &c, &no_tables)
}

fn a_table_leaf_no_table_covers() -> huntsolve::Result<CheckReport> {
    let g = kaooa();
    let mut c = two_plies(&g);
    c.nodes[2] = Node::Table {
        table: 0,
        value: Value::Draw,
        distance: 0,
    };
    check(&g, &c, &no_tables)
}

/// The string literal opening `s` (after blanks and an optional `format!(`),
/// unescaped; `None` when the argument is not a literal.
fn literal_at(s: &str) -> Option<String> {
    let s = s.trim_start();
    let s = s.strip_prefix("format!(").unwrap_or(s).trim_start();
    let mut cs = s.strip_prefix('"')?.chars();
    let mut out = String::new();
    while let Some(c) = cs.next() {
        match c {
            '"' => return Some(out),
            '\\' => match cs.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                // A line continuation: the newline and the blanks after it.
                '\n' => {
                    let rest: String = cs.clone().collect();
                    let skip = rest.len() - rest.trim_start().len();
                    for _ in 0..rest[..skip].chars().count() {
                        cs.next();
                    }
                }
                e => out.push(e),
            },
            c => out.push(c),
        }
    }
    None
}

/// Every message template of the checker's reporting calls; a call whose
/// message is not a literal is an error (it could hide a message from this test).
fn checker_templates() -> Vec<String> {
    let mut found = Vec::new();
    for call in REPORTING_CALLS {
        for (at, _) in CHECKER_SOURCE.match_indices(call) {
            let before = CHECKER_SOURCE[..at].trim_end();
            // The definitions (`fn problem(`, `let bad = |m|`) report nothing.
            if before.ends_with("fn") || before.ends_with("fn problem") {
                continue;
            }
            // `bad(` inside another name (`is_bad(`) is not the closure.
            if *call == "bad("
                && before.len() == at
                && CHECKER_SOURCE[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            let arg = &CHECKER_SOURCE[at + call.len()..];
            let line = CHECKER_SOURCE[..at].lines().count();
            let t = literal_at(arg).unwrap_or_else(|| {
                panic!("check.rs line {line}: `{call}` is passed no string literal; name its message in a literal")
            });
            found.push(t);
        }
    }
    found
}

/// Adding a message to the checker without a case here fails, naming it; so
/// does a case whose message the checker no longer has.
#[test]
fn every_checker_message_is_pinned_by_a_case() {
    let found = checker_templates();
    // The known calls are all found (the extraction itself is tested).
    assert!(found.len() >= PINNED.len(), "{found:?}");
    let unpinned: Vec<&String> = found
        .iter()
        .filter(|t| !PINNED.contains(&t.as_str()) && !UNREACHABLE.iter().any(|(u, _)| u == t))
        .collect();
    assert!(
        unpinned.is_empty(),
        "checker messages no test pins (add a false certificate drawing each to tests/it/trust_checker.rs): {unpinned:#?}"
    );
    let stale: Vec<&&str> = PINNED
        .iter()
        .chain(UNREACHABLE.iter().map(|(u, _)| u))
        .filter(|t| !found.iter().any(|f| f == *t))
        .collect();
    assert!(
        stale.is_empty(),
        "pinned messages the checker no longer has: {stale:#?}"
    );
}

#[test]
fn the_template_matcher_and_extractor_work() {
    assert!(instance_of(
        "node 3: lists 2 moves but 9 are legal",
        "node {v}: lists {} moves but {legal} are legal",
        true
    ));
    assert!(!instance_of(
        "node 3: lists 2 moves but 9 are legal!",
        "node {v}: lists {} moves but {legal} are legal",
        true
    ));
    assert!(!instance_of(
        "node 3: the game is over here",
        "node {v}: a horizon leaf where the game is over",
        true
    ));
    assert!(instance_of(
        "certificate: malformed: it has no nodes",
        "it has no nodes",
        false
    ));
    let src = "walk.problem(\n    format!(\n        \"node {v}: a \\\n         b\"\n    ),\n)";
    let at = src.find(".problem(").unwrap() + ".problem(".len();
    assert_eq!(literal_at(&src[at..]).as_deref(), Some("node {v}: a b"));
}

/// `check-proof` on each false certificate of a problem that needs no table:
/// exit 1 (a check disagreed), "does NOT hold", and the message.
#[test]
fn check_proof_reports_each_problem_and_exits_1() {
    let g = kaooa();
    let d = std::env::temp_dir().join(format!("huntsolve-checker-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let (over, v) = finished(&g);
    let won = winner(&g, &over, v);
    let cases = [
        (
            "where the game is over",
            cert(&g, &over, won, Kind::NoWin, Some(0), vec![Node::Horizon]),
        ),
        (
            "marked terminal but the game goes on",
            cert(&g, &g.start(), won, Kind::NoWin, None, vec![Node::Terminal]),
        ),
        (
            "plies of the claim left",
            cert(
                &g,
                &g.start(),
                won,
                Kind::NoWin,
                Some(1),
                vec![Node::Horizon],
            ),
        ),
    ];
    for (why, mut c) in cases {
        // No table leaves: the command asks for no tables.
        c.header.tables.clear();
        let file = d.join("false.proof");
        c.write(&file).unwrap();
        let (code, out, err) = crate::common::run(&["check-proof", file.to_str().unwrap()]);
        assert_eq!(code, 1, "{why}: {out}{err}");
        assert!(
            out.contains("does NOT hold") && out.contains(why),
            "{why}: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
