//! Differential test against the `hnefatafl` crate (0.0.2, MIT): seeded random
//! games under its TABLUT and BRANDUBH rulesets, comparing at every ply the
//! board (after captures), the set of legal moves and the game result with our
//! `tablut-hnefatafl` and `brandubh-hnefatafl` presets.
//!
//! The crate's repetition rule needs move history, which our positions do not
//! carry (it is left to search), so a game the crate ends by repetition stops
//! there and is counted. Random games from the start almost never end by the
//! crate's enclosure win (Brandubh), so a second test starts from random
//! sparse positions where enclosures are common and compares every attacker
//! move there.

use crate::game::Notation;
use crate::game::{Game, Value};
use crate::random::Rng;
use crate::tafl::{from_spec, TaflGame, TaflMove, TaflPos};
use hnefatafl::board::state::BoardState;
use hnefatafl::collections::PieceMap;
use hnefatafl::game::logic::GameLogic;
use hnefatafl::game::state::GameState;
use hnefatafl::game::{GameOutcome, GameStatus, WinReason};
use hnefatafl::pieces::{PieceType, Side};
use hnefatafl::play::{Play, ValidPlay};
use hnefatafl::preset::{boards, rules};
use hnefatafl::rules::Ruleset;
use hnefatafl::tiles::Tile;

/// Our position built from the crate's board (x = column, y = row).
fn convert<B: BoardState>(g: &TaflGame, s: &GameState<B>) -> TaflPos {
    let n = g.size();
    let (mut a, mut d, mut k) = (0u128, 0u128, 255u8);
    for row in 0..n {
        for col in 0..n {
            let c = (col + row * n) as u8;
            if let Some(p) = s.board.get_piece(Tile::new(row as u8, col as u8)) {
                match (p.side, p.piece_type) {
                    (Side::Attacker, _) => a |= 1 << c,
                    (Side::Defender, PieceType::King) => k = c,
                    (Side::Defender, _) => d |= 1 << c,
                }
            }
        }
    }
    g.make_pos(a, d, k, s.side_to_play == Side::Attacker)
}

fn crate_moves<B: BoardState>(
    logic: &GameLogic<B>,
    s: &GameState<B>,
) -> Vec<(ValidPlay, TaflMove)> {
    let n = logic.board_geo.side_len as usize;
    let cell = |t: Tile| (t.col as usize + t.row as usize * n) as u8;
    let mut out = Vec::new();
    for tile in s.board.occupied_by_side(s.side_to_play) {
        for vp in logic.iter_plays(tile, s).expect("occupied tile") {
            let play: Play = vp.play;
            out.push((
                vp,
                TaflMove {
                    from: cell(play.from),
                    to: cell(play.to()),
                },
            ));
        }
    }
    out.sort_by_key(|m| (m.1.from, m.1.to));
    out
}

#[derive(Default, Debug)]
struct Tally {
    games: u32,
    plies: u64,
    captures: u64,
    attacker_wins: u32,
    defender_wins: u32,
    draws: u32,
    repetition_stops: u32,
    enclosure_wins: u32,
    unfinished: u32,
}

fn run<B: BoardState>(
    ruleset: Ruleset,
    board: &str,
    spec: &str,
    games: u32,
    max_plies: u32,
) -> Tally {
    let g = from_spec(spec).unwrap();
    let n = g.size() as u8;
    let logic: GameLogic<B> = GameLogic::new(ruleset, n);
    let mut t = Tally::default();
    let mut ours = Vec::new();
    for seed in 0..games as u64 {
        let mut rng = Rng::new(0x7a71 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut s: GameState<B> = GameState::new(board, ruleset.starting_side).unwrap();
        let mut p = g.start();
        assert_eq!(convert(&g, &s), p, "{spec}: start positions differ");
        t.games += 1;
        let mut ended = false;
        for ply in 0..max_plies {
            let theirs = crate_moves(&logic, &s);
            g.legal_moves(&p, &mut ours);
            ours.sort_by_key(|m| (m.from, m.to));
            let theirs_moves: Vec<TaflMove> = theirs.iter().map(|m| m.1).collect();
            assert_eq!(
                ours,
                theirs_moves,
                "{spec} seed {seed} ply {ply}: legal moves differ in\n{}",
                g.diagram(&p)
            );
            assert!(!theirs.is_empty(), "{spec}: ongoing game without moves");
            let (vp, mv) = theirs[rng.below(theirs.len())];
            let before = p;
            let res = logic.do_valid_play(vp, s);
            s = res.new_state;
            if !res.record.effects.captures.is_empty() {
                t.captures += 1;
            }
            p = g.play(&p, mv);
            let expect = convert(&g, &s);
            assert_eq!(
                p,
                expect,
                "{spec} seed {seed} ply {ply}: {} gives different boards from\n{}",
                g.format_move(&before, mv),
                g.diagram(&before)
            );
            assert_eq!(p.hash, g.compute_hash(&p));
            t.plies += 1;
            let ours_out = g.outcome(&p);
            let ctx = || {
                format!(
                    "{spec} seed {seed} ply {ply} after {}:\n{}",
                    g.format_move(&before, mv),
                    g.diagram(&p)
                )
            };
            match s.status {
                GameStatus::Ongoing => {
                    assert_eq!(ours_out, None, "crate: ongoing, ours ended; {}", ctx())
                }
                GameStatus::Over(GameOutcome::Win(WinReason::Repetition, _))
                | GameStatus::Over(GameOutcome::Draw(hnefatafl::game::DrawReason::Repetition)) => {
                    // Needs history; our position-only rules cannot see it.
                    t.repetition_stops += 1;
                    ended = true;
                    break;
                }
                GameStatus::Over(GameOutcome::Win(_, side)) => {
                    let attackers_won = side == Side::Attacker;
                    let expect = if attackers_won == p.attackers_to_move {
                        Value::Win
                    } else {
                        Value::Loss
                    };
                    assert_eq!(ours_out, Some(expect), "crate: {:?}; {}", s.status, ctx());
                    if matches!(
                        s.status,
                        GameStatus::Over(GameOutcome::Win(WinReason::Enclosed, _))
                    ) {
                        t.enclosure_wins += 1;
                    }
                    if attackers_won {
                        t.attacker_wins += 1;
                    } else {
                        t.defender_wins += 1;
                    }
                    ended = true;
                    break;
                }
                GameStatus::Over(GameOutcome::Draw(_)) => {
                    assert_eq!(
                        ours_out,
                        Some(Value::Draw),
                        "crate: {:?}; {}",
                        s.status,
                        ctx()
                    );
                    t.draws += 1;
                    ended = true;
                    break;
                }
            }
        }
        if !ended {
            t.unfinished += 1;
        }
    }
    t
}

fn check(t: &Tally, spec: &str) {
    eprintln!("{spec}: {t:?}");
    // The comparison must have exercised the interesting rules, not only quiet moves.
    assert!(
        t.captures > 100,
        "{spec}: too few captures to be meaningful"
    );
    assert!(t.attacker_wins > 0 && t.defender_wins > 0, "{spec}: {t:?}");
}

#[test]
fn differential_tablut() {
    let t = run::<hnefatafl::aliases::MediumBasicBoardState>(
        rules::TABLUT,
        boards::TABLUT,
        "tablut-hnefatafl",
        300,
        400,
    );
    check(&t, "tablut-hnefatafl");
}

#[test]
fn differential_brandubh() {
    let t = run::<hnefatafl::aliases::SmallBasicBoardState>(
        rules::BRANDUBH,
        boards::BRANDUBH,
        "brandubh-hnefatafl",
        300,
        400,
    );
    check(&t, "brandubh-hnefatafl");
}

/// Thousands of games: about 24 s in the test profile on a loaded 2-core machine.
#[test]
fn differential_many_games() {
    let t = run::<hnefatafl::aliases::MediumBasicBoardState>(
        rules::TABLUT,
        boards::TABLUT,
        "tablut-hnefatafl",
        5000,
        1000,
    );
    check(&t, "tablut-hnefatafl");
    let t = run::<hnefatafl::aliases::SmallBasicBoardState>(
        rules::BRANDUBH,
        boards::BRANDUBH,
        "brandubh-hnefatafl",
        5000,
        1000,
    );
    check(&t, "brandubh-hnefatafl");
}

/// The crate's board text (FEN: rows from y = 0, digits for empty runs).
fn fen(g: &TaflGame, p: &TaflPos) -> String {
    let n = g.size();
    let mut rows = Vec::new();
    for y in 0..n {
        let (mut row, mut empty) = (String::new(), 0);
        for x in 0..n {
            let c = (x + y * n) as u8;
            let ch = if p.attackers >> c & 1 == 1 {
                't'
            } else if p.defenders >> c & 1 == 1 {
                'T'
            } else if p.king == c {
                'K'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            row.push(ch);
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// Random sparse positions (the king and up to two defenders inside, attackers
/// around), attackers to move: every legal attacker move is played in both
/// engines and the boards and results compared. Enclosures, king captures and
/// odd captures are frequent here.
fn sparse<B: BoardState>(ruleset: Ruleset, spec: &str, positions: u32) -> (u32, u32, u32) {
    let g = from_spec(spec).unwrap();
    let n = g.size();
    let logic: GameLogic<B> = GameLogic::new(ruleset, n as u8);
    let geo = g.geometry();
    let mut rng = Rng::new(77);
    let (mut compared, mut enclosed, mut captured) = (0, 0, 0);
    let mut ours = Vec::new();
    let mut tried = 0;
    while compared < positions {
        tried += 1;
        assert!(tried < positions * 100, "could not build enough positions");
        let free =
            |occ: u128, c: usize| occ >> c & 1 == 0 && (geo.corners | geo.throne_bit) >> c & 1 == 0;
        let interior = |c: usize| geo.edge >> c & 1 == 0;
        let mut occ = 0u128;
        let king = loop {
            let c = rng.below(n * n);
            if interior(c) && (c as u8 == geo.throne || free(occ, c)) {
                break c;
            }
        };
        occ |= 1 << king;
        let mut def = 0u128;
        let mut att = 0u128;
        if rng.below(2) == 0 {
            // Scattered pieces.
            for _ in 0..rng.below(3) {
                let c = rng.below(n * n);
                if interior(c) && free(occ, c) {
                    def |= 1 << c;
                    occ |= 1 << c;
                }
            }
            for _ in 0..4 + rng.below(6) {
                let c = rng.below(n * n);
                if free(occ, c) {
                    att |= 1 << c;
                    occ |= 1 << c;
                }
            }
        } else {
            // A small interior blob around the king, its rim filled with
            // attackers except one gap, so that many attacker moves close it.
            let mut blob = 1u128 << king;
            for _ in 0..rng.below(5) {
                let rim = geo.grow(blob) & !blob & !geo.edge & !geo.throne_bit;
                if rim == 0 {
                    break;
                }
                let k = rng.below(rim.count_ones() as usize);
                let mut r = rim;
                for _ in 0..k {
                    r &= r - 1;
                }
                let c = r.trailing_zeros() as usize;
                blob |= 1 << c;
                if rng.below(2) == 0 {
                    def |= 1 << c;
                }
            }
            occ |= def;
            let mut rim = geo.grow(blob) & !blob & !geo.corners & !geo.throne_bit;
            let gap = rng.below(rim.count_ones() as usize);
            let mut r = rim;
            for _ in 0..gap {
                r &= r - 1;
            }
            rim &= !(1u128 << r.trailing_zeros());
            att |= rim;
            occ |= rim;
            for _ in 0..1 + rng.below(3) {
                let c = rng.below(n * n);
                if free(occ, c) {
                    att |= 1 << c;
                    occ |= 1 << c;
                }
            }
        }
        let p = g.make_pos(att, def, king as u8, true);
        if g.outcome(&p).is_some() {
            continue;
        }
        let s: GameState<B> = GameState::new(&fen(&g, &p), Side::Attacker).unwrap();
        assert_eq!(convert(&g, &s), p, "FEN round trip");
        let theirs = crate_moves(&logic, &s);
        g.legal_moves(&p, &mut ours);
        ours.sort_by_key(|m| (m.from, m.to));
        let tm: Vec<TaflMove> = theirs.iter().map(|m| m.1).collect();
        assert_eq!(ours, tm, "{spec}: moves differ in\n{}", g.diagram(&p));
        for &(vp, mv) in &theirs {
            let res = logic.do_valid_play(vp, s);
            let q = g.play(&p, mv);
            let ctx = || format!("{spec}: {} from\n{}", g.format_move(&p, mv), g.diagram(&p));
            assert_eq!(q, convert(&g, &res.new_state), "{}", ctx());
            let ours_out = g.outcome(&q);
            match res.new_state.status {
                GameStatus::Ongoing => assert_eq!(ours_out, None, "{}", ctx()),
                GameStatus::Over(GameOutcome::Win(reason, side)) => {
                    assert_eq!(side, Side::Attacker, "{}", ctx());
                    assert_eq!(ours_out, Some(Value::Loss), "crate: {reason:?}; {}", ctx());
                    match reason {
                        WinReason::Enclosed => enclosed += 1,
                        WinReason::KingCaptured => captured += 1,
                        _ => {}
                    }
                }
                GameStatus::Over(GameOutcome::Draw(_)) => {
                    assert_eq!(ours_out, Some(Value::Draw), "{}", ctx())
                }
            }
        }
        compared += 1;
    }
    (compared, enclosed, captured)
}

#[test]
fn differential_sparse_positions_brandubh() {
    let (n, enclosed, captured) = sparse::<hnefatafl::aliases::SmallBasicBoardState>(
        rules::BRANDUBH,
        "brandubh-hnefatafl",
        3000,
    );
    eprintln!("brandubh-hnefatafl sparse: {n} positions, {enclosed} enclosure wins, {captured} king captures");
    assert!(enclosed > 20 && captured > 20, "{enclosed} {captured}");
}

#[test]
fn differential_sparse_positions_tablut() {
    let (n, enclosed, captured) = sparse::<hnefatafl::aliases::MediumBasicBoardState>(
        rules::TABLUT,
        "tablut-hnefatafl",
        3000,
    );
    eprintln!("tablut-hnefatafl sparse: {n} positions, {enclosed} enclosure wins, {captured} king captures");
    assert_eq!(enclosed, 0);
    assert!(captured > 20, "{captured}");
}
