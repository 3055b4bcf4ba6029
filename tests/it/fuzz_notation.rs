//! Fuzz target `notation`: position text and move text of hunt and tafl
//! presets. Random legal positions (seeded playouts) and their moves round-trip
//! through their text; mutated position text, move text and move lines
//! (`game::play_line`) are refused cleanly or accepted as something that
//! round-trips and that the rules engine plays without a panic; a move the
//! parser accepts is a legal move.

use super::{case, corpus_lines, iters, random_positions, Mutator};
use huntsolve::game::play_line;
use huntsolve::{with_game, AnyGame, Notation, Rng};
use std::sync::atomic::{AtomicU64, Ordering};

/// Inputs tried and accepted (printed with `--nocapture`).
static TRIED: AtomicU64 = AtomicU64::new(0);
static ACCEPTED: AtomicU64 = AtomicU64::new(0);

const GAMES: &[&str] = &[
    "kaooa",
    "bagh-chal",
    "bagh-chal,prey_no_moves=pass",
    "diviyan-keliya",
    "cows-leopards-mogol",
    "brandubh",
    "tablut-linnaeus",
    "caikaboroda",
];

const DICT: &[&str] = &[
    "/", "-", "x", "h", "p", "a", "d", "H", "P", "A", "D", "K", ".", " ", "start", "pass", "c",
    "h0", "p0", "c0", "a1", "e5", "i9", "z99", "00", "09", "10", "xx", "--", "\t", "é", "\u{0}",
];

/// The checks on a position the parser accepted: its text reads back to it,
/// and the engine plays from it (moves round-trip, a short playout).
fn accepted<G: Notation>(g: &G, pos: &G::Pos, rng: &mut Rng) {
    let text = g.format_position(pos);
    let back = g
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{text:?}: formatted position refused: {e}"));
    assert!(&back == pos, "{text:?}: reads back differently");
    let _ = g.diagram(pos);
    let _ = g.hash(pos);
    let _ = g.canonical_hash(pos);
    let mut cur = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..6 {
        let _ = g.side_to_move(&cur);
        if g.outcome(&cur).is_some() {
            break;
        }
        g.legal_moves(&cur, &mut moves);
        if moves.is_empty() {
            break;
        }
        for &m in &moves {
            let t = g.format_move(&cur, m);
            let parsed = g
                .parse_move(&cur, &t)
                .unwrap_or_else(|e| panic!("{}: move {t:?} refused: {e}", g.format_position(&cur)));
            assert!(parsed == m, "{}: move {t:?}", g.format_position(&cur));
        }
        cur = g.play(&cur, moves[rng.below(moves.len())]);
    }
}

/// One mutated input on position `pos` of `g`.
fn mutated<G: Notation>(g: &G, pos: &G::Pos, m: &mut Mutator, seeds: &[Vec<u8>], i: u64) {
    let mut moves = Vec::new();
    g.legal_moves(pos, &mut moves);
    let kind = m.below(3);
    let input = match kind {
        0 => g.format_position(pos),
        1 if !moves.is_empty() => g.format_move(pos, *m.pick(&moves)),
        _ => {
            // a line of a few legal moves from `pos`
            let mut cur = pos.clone();
            let mut line = Vec::new();
            for _ in 0..1 + m.below(6) {
                g.legal_moves(&cur, &mut moves);
                if moves.is_empty() || g.outcome(&cur).is_some() {
                    break;
                }
                let mv = *m.pick(&moves);
                line.push(g.format_move(&cur, mv));
                cur = g.play(&cur, mv);
            }
            line.join(" ")
        }
    };
    let text = m.mutate_text(&input, seeds);
    let mut rng = Rng::new(i);
    TRIED.fetch_add(1, Ordering::Relaxed);
    let ok = case("notation", i, text.as_bytes(), || match kind {
        0 => g
            .parse_position(&text)
            .map(|p| accepted(g, &p, &mut rng))
            .is_ok(),
        1 => g
            .parse_move(pos, &text)
            .map(|mv| {
                g.legal_moves(pos, &mut moves);
                assert!(moves.contains(&mv), "{text:?}: an illegal move accepted");
                accepted(g, &g.play(pos, mv), &mut rng);
            })
            .is_ok(),
        _ => play_line(g, pos, &text)
            .map(|p| accepted(g, &p, &mut rng))
            .is_ok(),
    });
    if ok {
        ACCEPTED.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn fuzz_position_and_move_text() {
    // Committed seeds: `rules<TAB>position<TAB>moves`, checked as given and mutated below.
    let lines = corpus_lines("notation");
    let mut m = Mutator::new("notation", DICT);
    let seeds: Vec<Vec<u8>> = lines
        .iter()
        .flat_map(|l| l.split('\t').map(|f| f.as_bytes().to_vec()))
        .collect();
    for (k, line) in lines.iter().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let any = AnyGame::parse(f[0]).unwrap();
        with_game!(&any, g => {
            let pos = g.parse_position(f[1]).unwrap_or_else(|e| panic!("seed {line:?}: {e}"));
            let end = play_line(g, &pos, f.get(2).copied().unwrap_or(""))
                .unwrap_or_else(|e| panic!("seed {line:?}: {e}"));
            case("notation-seed", k as u64, line.as_bytes(), || {
                accepted(g, &pos, &mut Rng::new(k as u64));
                accepted(g, &end, &mut Rng::new(k as u64));
            });
            for j in 0..iters(300) {
                mutated(g, &end, &mut m, &seeds, (k as u64) << 32 | j);
            }
        });
    }
    let per_game = iters(3000);
    for (k, spec) in GAMES.iter().enumerate() {
        let any = AnyGame::parse(spec).unwrap();
        with_game!(&any, g => {
            let mut rng = super::rng(spec);
            let positions = random_positions(g, &mut rng, 30);
            for (j, p) in positions.iter().enumerate() {
                case("notation-roundtrip", j as u64, g.format_position(p).as_bytes(), || {
                    accepted(g, p, &mut rng)
                });
            }
            for j in 0..per_game {
                let p = &positions[m.below(positions.len())];
                mutated(g, p, &mut m, &seeds, (1 << 40) | (k as u64) << 32 | j);
            }
        });
    }
    eprintln!(
        "notation: {} mutated inputs, {} accepted",
        TRIED.load(Ordering::Relaxed),
        ACCEPTED.load(Ordering::Relaxed)
    );
}
