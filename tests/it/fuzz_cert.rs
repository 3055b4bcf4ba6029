//! Fuzz target `cert`: proof certificates. The seeds are kaooa's certificate
//! (proven at test time, as `trust_rules::kaooa_certificate`) and the committed
//! files of `tests/data/fuzz/cert/`. Three kinds of damage:
//! - bytes mutated as they are: `Certificate::decode` never panics (nearly
//!   always a checksum error);
//! - bytes mutated and the checksums resealed: what decodes encodes back to
//!   the same bytes' certificate, and `prove::check` on it never panics;
//! - the decoded certificate mutated as a value (moves, children, leaves,
//!   kind, side, bound, root): decode(encode(c)) == c, and whatever the
//!   checker (with kaooa's tables) accepts is true by those tables.

use super::{case, corpus_files, iters, kaooa_tables, Mutator};
use huntsolve::game::Notation;
use huntsolve::hunt::HuntGame;
use huntsolve::prove::{check, check_with_tables, Certificate, Kind, Node, TableRef};
use huntsolve::table::TableOracle;
use huntsolve::{with_game, AnyGame, Game, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

const DICT: &[&str] = &[
    "\"win\"",
    "\"no-win\"",
    "null",
    "\"within\":",
    "\"nodes\":",
    "\"side\":",
    "\"tables\":[]",
    "\"kaooa\"",
    "0",
    "1",
    "2",
    "-1",
    "1e300",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\u0000",
    "HSPROOF\u{1a}",
    "HSPEND\r\n",
    "\u{1}\u{0}\u{0}\u{0}",
];

/// Recomputes the header and file checksums where the header length field says.
pub(super) fn reseal(b: &mut [u8]) {
    if b.len() < 32 {
        return;
    }
    let end = b.len();
    let hlen = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    if hlen <= end && 20 + hlen <= end - 12 {
        let crc = crc32fast::hash(&b[..16 + hlen]);
        b[16 + hlen..20 + hlen].copy_from_slice(&crc.to_le_bytes());
    }
    let crc = crc32fast::hash(&b[..end - 12]);
    b[end - 12..end - 8].copy_from_slice(&crc.to_le_bytes());
}

/// What the tables say of `cert`'s claim: `Some(true)` when it holds,
/// `None` when the tables cannot tell (a position they do not cover).
fn truth(g: &HuntGame, oracle: &TableOracle<HuntGame>, cert: &Certificate) -> Option<bool> {
    let pos = g.parse_position(&cert.header.position).ok()?;
    let side = cert.header.side as usize;
    let (v, d) = match g.outcome(&pos) {
        Some(v) => (v, 0),
        None => oracle.try_probe(&pos).ok()??,
    };
    let goal = if g.side_to_move(&pos) == side {
        v
    } else {
        v.flip()
    };
    let wins = goal == Value::Win && cert.header.within.is_none_or(|w| d <= w);
    Some(match cert.header.kind {
        Kind::Win => wins,
        Kind::NoWin => !wins,
        other => panic!("a certificate kind this test does not know: {other:?}"),
    })
}

/// The position of every node reached from the root (by the moves' order).
fn node_positions(g: &HuntGame, cert: &Certificate) -> HashMap<u32, <HuntGame as Game>::Pos> {
    let mut out = HashMap::new();
    let Ok(root) = g.parse_position(&cert.header.position) else {
        return out;
    };
    let mut stack = vec![(0u32, root)];
    let mut moves = Vec::new();
    while let Some((n, p)) = stack.pop() {
        if out.contains_key(&n) || n as usize >= cert.nodes.len() {
            continue;
        }
        out.insert(n, p);
        g.legal_moves(&p, &mut moves);
        match &cert.nodes[n as usize] {
            Node::One { mv, child } => {
                if let Some(&m) = moves.get(*mv as usize) {
                    stack.push((*child, g.play(&p, m)));
                }
            }
            Node::All(ch) => {
                for (&c, &m) in ch.iter().zip(&moves) {
                    stack.push((c, g.play(&p, m)));
                }
            }
            _ => {}
        }
    }
    out
}

/// False certificates the checker accepted, of the known finding's kind.
static KNOWN: AtomicU64 = AtomicU64::new(0);

/// The finding of [`a_bounded_win_through_a_table_leaf_beyond_the_bound_is_refused`]
/// (fixed: the checker adds a table leaf's distance to the line to it): a
/// false certificate of that kind is a failure like any other, so none is
/// tolerated. Kept as a hook for a future known finding.
fn known_finding(_cert: &Certificate) -> bool {
    false
}

struct Ctx {
    g: HuntGame,
    oracle: TableOracle<HuntGame>,
    dir: PathBuf,
    /// Every table of the directory: its reference (tier, file crc32).
    refs: Vec<TableRef>,
    /// Position texts to move a root to.
    roots: Vec<String>,
}

impl Ctx {
    fn new() -> Ctx {
        let dir = kaooa_tables().clone();
        let g = huntsolve::hunt::from_spec("kaooa").unwrap();
        let oracle = TableOracle::new(&g, &dir).unwrap();
        let refs = huntsolve::table::list_tiers(&dir)
            .unwrap()
            .into_iter()
            .map(|tier| {
                let b = std::fs::read(huntsolve::table::table_path(&dir, &tier)).unwrap();
                let crc = u32::from_le_bytes(b[b.len() - 12..b.len() - 8].try_into().unwrap());
                TableRef { tier, crc32: crc }
            })
            .collect();
        let mut rng = super::rng("cert-roots");
        let roots = super::random_positions(&g, &mut rng, 40)
            .iter()
            .map(|p| g.format_position(p))
            .collect();
        Ctx {
            g,
            oracle,
            dir,
            refs,
            roots,
        }
    }

    /// Checks a decoded certificate: by its own rules (no tables), and, for
    /// kaooa's rules, with kaooa's tables and against the truth.
    fn checked(&self, cert: &Certificate) {
        if cert.header.rules == self.g.rules_string() {
            if let Ok(r) = check_with_tables(&self.g, cert, std::slice::from_ref(&self.dir)) {
                if r.ok() && truth(&self.g, &self.oracle, cert) == Some(false) {
                    if known_finding(cert) {
                        KNOWN.fetch_add(1, Ordering::Relaxed);
                    } else {
                        panic!(
                            "a false certificate holds: {:?}, {} nodes",
                            cert.header,
                            cert.nodes.len()
                        );
                    }
                }
            }
        }
        // The rules the certificate names, as an untrusted request would give them.
        if let Ok(any) = AnyGame::parse_builtin(&cert.header.rules) {
            with_game!(&any, g => {
                let _ = check(g, cert, &|_: &_| Ok(None));
            });
        }
    }

    /// One mutation of a certificate as a value.
    fn mutate_value(&self, m: &mut Mutator, cert: &mut Certificate) {
        let n = cert.nodes.len() as u32;
        let i = m.below(n as usize);
        let small = |m: &mut Mutator, around: u32| match m.below(4) {
            0 => around.wrapping_add(1),
            1 => around.wrapping_sub(1),
            2 => m.below(n as usize + 2) as u32,
            _ => [0, u16::MAX as u32, n, u32::MAX][m.below(4)],
        };
        match m.below(12) {
            0 => {
                cert.header.kind = match cert.header.kind {
                    Kind::Win => Kind::NoWin,
                    Kind::NoWin => Kind::Win,
                    other => panic!("a certificate kind this test does not know: {other:?}"),
                }
            }
            1 => cert.header.side ^= 1,
            2 => {
                cert.header.within =
                    [None, Some(0), Some(1), Some(14), Some(15), Some(u32::MAX)][m.below(6)]
            }
            3 => cert.header.position = m.pick(&self.roots).clone(),
            4 => {
                if let Node::One { mv, child } = &mut cert.nodes[i] {
                    if m.below(2) == 0 {
                        *mv = small(m, *mv);
                    } else {
                        *child = small(m, *child);
                    }
                }
            }
            5 => {
                if let Node::All(ch) = &mut cert.nodes[i] {
                    match m.below(4) {
                        0 if ch.len() > 1 => {
                            ch.pop();
                        }
                        1 => ch.push(m.below(n as usize) as u32),
                        2 if ch.len() > 1 => {
                            let (a, b) = (m.below(ch.len()), m.below(ch.len()));
                            ch.swap(a, b);
                        }
                        _ => {
                            let k = m.below(ch.len());
                            ch[k] = small(m, ch[k]);
                        }
                    }
                }
            }
            6 => cert.nodes[i] = [Node::Terminal, Node::Horizon][m.below(2)].clone(),
            7 | 8 => {
                // a table leaf: the tables' own value, or a lie
                let at = node_positions(&self.g, cert);
                let Some(pos) = at.get(&(i as u32)) else {
                    return;
                };
                let Ok(Some((v, d))) = self.oracle.try_probe(pos) else {
                    return;
                };
                let tier = huntsolve::TierGame::tier_name(
                    &self.g,
                    huntsolve::TierGame::tier_of(&self.g, pos),
                );
                let table = match cert.header.tables.iter().position(|t| t.tier == tier) {
                    Some(k) => k as u32,
                    None => {
                        let r = self.refs.iter().find(|r| r.tier == tier).unwrap().clone();
                        cert.header.tables.push(r);
                        cert.header.tables.len() as u32 - 1
                    }
                };
                let (value, distance) = if m.below(2) == 0 {
                    (v, d)
                } else {
                    (
                        [Value::Win, Value::Loss, Value::Draw][m.below(3)],
                        small(m, d),
                    )
                };
                cert.nodes[i] = Node::Table {
                    table,
                    value,
                    distance,
                };
            }
            9 => {
                let j = m.below(n as usize);
                cert.nodes.swap(i, j);
            }
            10 => {
                if let Some(t) = cert.header.tables.first_mut() {
                    t.crc32 ^= 1 << m.below(32);
                } else {
                    cert.header.tables.push(m.pick(&self.refs).clone());
                }
            }
            _ => {
                // a node copied over another (sharing, or a cycle)
                let j = m.below(n as usize);
                cert.nodes[i] = cert.nodes[j].clone();
            }
        }
    }
}

/// Finding of this target: "the crows win within 14 plies" from kaooa's
/// start, shown by one table leaf (a win in 15, as the tables say), holds by
/// `check_with_tables` (and `huntsolve check-proof --tables`), though the
/// crows need 15 plies. src/prove/check.rs:292-300 compares only the graph's
/// longest line (0 plies here) with `within`; a `win` claim's table leaves
/// must also win within the plies left (ply of the leaf + its distance <= within).
#[test]
fn a_bounded_win_through_a_table_leaf_beyond_the_bound_is_refused() {
    let ctx = Ctx::new();
    let start = ctx.g.start();
    let (value, distance) = ctx.oracle.try_probe(&start).unwrap().unwrap();
    assert_eq!((value, distance), (Value::Win, 15));
    let tier = huntsolve::TierGame::tier_name(&ctx.g, huntsolve::TierGame::tier_of(&ctx.g, &start));
    let table = ctx.refs.iter().find(|r| r.tier == tier).unwrap().clone();
    let (_, kaooa) = crate::trust_rules::kaooa_certificate();
    let mut cert = kaooa.clone();
    cert.header.within = Some(14);
    cert.header.nodes = 1;
    cert.header.tables = vec![table];
    cert.nodes = vec![Node::Table {
        table: 0,
        value,
        distance,
    }];
    assert_eq!(truth(&ctx.g, &ctx.oracle, &cert), Some(false));
    let r = check_with_tables(&ctx.g, &cert, std::slice::from_ref(&ctx.dir)).unwrap();
    assert!(!r.ok(), "a win in 15 plies accepted as a win within 14");
}

#[test]
fn fuzz_certificates() {
    let ctx = Ctx::new();
    let (_, kaooa) = crate::trust_rules::kaooa_certificate();
    let base = kaooa.encode();
    let mut seeds = vec![base.clone()];
    for (name, bytes) in corpus_files("cert") {
        let c = Certificate::decode(&bytes).unwrap_or_else(|e| panic!("seed {name}: {e}"));
        assert_eq!(Certificate::decode(&c.encode()).unwrap(), c, "seed {name}");
        case("cert-seed", 0, &bytes, || ctx.checked(&c));
        seeds.push(bytes);
    }
    // The seeds are true, and hold.
    assert_eq!(truth(&ctx.g, &ctx.oracle, &kaooa), Some(true));
    assert!(
        check_with_tables(&ctx.g, &kaooa, std::slice::from_ref(&ctx.dir))
            .unwrap()
            .ok()
    );
    let mut m = Mutator::new("cert", DICT);
    let n = iters(3000);
    for i in 0..n {
        let seed = m.pick(&seeds).clone();
        match i % 3 {
            0 => {
                let b = m.mutate(&seed, &seeds);
                case("cert-raw", i, &b, || {
                    if let Ok(c) = Certificate::decode(&b) {
                        ctx.checked(&c);
                    }
                });
            }
            1 => {
                let mut b = if m.below(2) == 0 {
                    m.mutate(&seed, &seeds)
                } else {
                    let len = seed.len();
                    m.overwrite(&seed, 8.min(len)..len.saturating_sub(12))
                };
                reseal(&mut b);
                case("cert-resealed", i, &b, || {
                    if let Ok(c) = Certificate::decode(&b) {
                        assert_eq!(Certificate::decode(&c.encode()).unwrap(), c);
                        ctx.checked(&c);
                    }
                });
            }
            _ => {
                let Ok(mut c) = Certificate::decode(&seed) else {
                    continue;
                };
                for _ in 0..1 + m.below(3) {
                    ctx.mutate_value(&mut m, &mut c);
                }
                let b = c.encode();
                case("cert-value", i, &b, || {
                    if let Ok(d) = Certificate::decode(&b) {
                        assert_eq!(d, c, "decode(encode(c)) != c");
                        ctx.checked(&d);
                    }
                });
            }
        }
    }
    eprintln!(
        "cert: {n} inputs, {} false certificates of the known finding accepted",
        KNOWN.load(Ordering::Relaxed)
    );
}
