//! Replays Ludii's own random games through huntsolve's move generation.
//!
//! The records under `tests/data/hunt/ludii-games/` (format in
//! `scripts/ludii_games.py`, which wrote them from the logs of Ludii 1.0.8's engine)
//! hold, per ply, Ludii's number of legal moves and the move it chose. For every
//! game this replays the record from the preset's start: at each ply huntsolve must
//! have the same number of legal moves, exactly one of them must be Ludii's move,
//! and that move is played; at the record's end huntsolve must agree that the game
//! is over, and who won (or, for a record cut short, that it is not over).
//!
//! Points are matched by coordinates: huntsolve names a point algebraically from
//! its coordinates (docs/rules.md §1.0: file letter from x, rank y + 1), so a Ludii
//! vertex (x, y) is huntsolve's point named after (x, y), or after (x, C - y) where
//! the data says `mirror_y C`; a move's from and to are the points its notation
//! names.
//!
//! A Ludii pass is a blocked side's only move. huntsolve has no such move: the side
//! to move with no move loses (H13). So at a pass huntsolve must have no legal move
//! and see the game over, and Ludii's game must end right after the pass with the
//! other side winning. Known difference: in Hat Diviyan Keliya (both boards) a tiger
//! blocked during the leopards' drop phase (while leopards are in hand, or by their
//! last drop: Ludii checks "NoMoves" only after a move of its "Movement" phase)
//! passes in Ludii and play goes on (`after_pass continue`); those games are
//! replayed up to that pass, where huntsolve must see the tiger lose, and the rest
//! of their records is checked once a rules option for Ludii's reading exists.

use huntsolve::game::{Game, Notation, Value};
use huntsolve::hunt::{from_spec, HuntGame, HuntMove, HuntPos, MoveKind};

/// Ludii's chosen move, its points as huntsolve names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum LudiiMove {
    Drop(String),
    Move(String, String),
    Pass,
}

#[derive(Debug)]
struct Ply {
    legal: usize,
    mv: LudiiMove,
}

#[derive(Debug)]
enum End {
    /// Ludii's game is over after the last ply; Ludii's player who won.
    Win(u8),
    /// Ludii's driver stopped at its ply limit.
    Limit,
    /// The record was cut here; Ludii's game went on.
    Truncated,
}

#[derive(Debug)]
struct Record {
    number: usize,
    plies: Vec<Ply>,
    end: End,
}

#[derive(Debug)]
struct Setup {
    file: String,
    preset: String,
    /// Ludii's player number (1 or 2) of the hunters.
    ludii_hunter: u8,
    /// Ludii's ply number of each record's first ply.
    first_ply: usize,
    /// Ludii's record goes on after a pass (the known Hat Diviyan Keliya difference).
    pass_continues: bool,
    /// Huntsolve's point name of each Ludii vertex.
    names: Vec<String>,
    games: Vec<Record>,
}

fn algebraic(x: i32, y: i32, at: &str) -> String {
    assert!(
        (0..23).contains(&x) && y >= 0,
        "{at}: ({x}, {y}) has no algebraic name"
    );
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn parse(file: &str, text: &str) -> Setup {
    let mut setup = Setup {
        file: file.to_string(),
        preset: String::new(),
        ludii_hunter: 0,
        first_ply: 0,
        pass_continues: false,
        names: Vec::new(),
        games: Vec::new(),
    };
    let mut mirror_y: Option<i32> = None;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{file}:{}", i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |s: &str| -> i64 { s.parse().unwrap_or_else(|_| panic!("{at}: {s}?")) };
        let vertex = |s: &str, names: &[String]| -> String {
            let v = num(s);
            assert!((0..names.len() as i64).contains(&v), "{at}: vertex {v}");
            names[v as usize].clone()
        };
        match w[..] {
            ["preset", p] => setup.preset = p.to_string(),
            ["ludii_hunter", p] => setup.ludii_hunter = num(p) as u8,
            ["first_ply", k] => setup.first_ply = num(k) as usize,
            ["mirror_y", c] => mirror_y = Some(num(c) as i32),
            ["after_pass", "continue"] => setup.pass_continues = true,
            ["v", index, _label, x, y] => {
                assert_eq!(num(index) as usize, setup.names.len(), "{at}: vertex order");
                let (x, y) = (num(x) as i32, num(y) as i32);
                let y = mirror_y.map_or(y, |c| c - y);
                setup.names.push(algebraic(x, y, &at));
            }
            ["game", n] => setup.games.push(Record {
                number: num(n) as usize,
                plies: Vec::new(),
                end: End::Truncated,
            }),
            ["end", ..] => {
                let g = setup.games.last_mut().expect(&at);
                g.end = match w[1..] {
                    ["win", p] => End::Win(num(p) as u8),
                    ["limit"] => End::Limit,
                    ["truncated", _] => End::Truncated,
                    _ => panic!("{at}: unknown end"),
                };
            }
            [legal, "pass"] => setup.games.last_mut().expect(&at).plies.push(Ply {
                legal: num(legal) as usize,
                mv: LudiiMove::Pass,
            }),
            [legal, from, to] => {
                let to = vertex(to, &setup.names);
                let mv = if from == "h" {
                    LudiiMove::Drop(to)
                } else {
                    LudiiMove::Move(vertex(from, &setup.names), to)
                };
                let legal = num(legal) as usize;
                setup
                    .games
                    .last_mut()
                    .expect(&at)
                    .plies
                    .push(Ply { legal, mv });
            }
            _ => panic!("{at}: cannot read '{line}'"),
        }
    }
    assert!(!setup.preset.is_empty(), "{file}: no preset line");
    assert!(
        [1, 2].contains(&setup.ludii_hunter),
        "{file}: ludii_hunter must be 1 or 2"
    );
    let mut sorted = setup.names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        setup.names.len(),
        "{file}: two vertices map to one point"
    );
    setup
}

fn load() -> Vec<Setup> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hunt/ludii-games");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
            parse(&f.file_name().unwrap().to_string_lossy(), &text)
        })
        .collect()
}

/// huntsolve's move as Ludii's record writes it: the points its notation names
/// (a capture chain from its first to its last point).
fn as_ludii(g: &HuntGame, pos: &HuntPos, mv: HuntMove) -> LudiiMove {
    let text = g.format_move(pos, mv);
    match mv.kind {
        MoveKind::Drop => LudiiMove::Drop(text),
        MoveKind::Pass => LudiiMove::Pass,
        MoveKind::Step | MoveKind::Capture => {
            let points: Vec<&str> = text.split(['-', 'x']).collect();
            assert!(points.len() >= 2, "move '{text}' names no from and to");
            LudiiMove::Move(points[0].to_string(), points[points.len() - 1].to_string())
        }
        other => panic!("a move kind this replay does not know: {other:?}"),
    }
}

/// Whether huntsolve's finished game is won by the hunters.
fn hunters_win(g: &HuntGame, pos: &HuntPos, value: Value) -> Option<bool> {
    let hunter_to_move = g.side_to_move(pos) == 0;
    match value {
        Value::Win => Some(hunter_to_move),
        Value::Loss => Some(!hunter_to_move),
        Value::Draw => None,
    }
}

/// What one setup's replay covered.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    plies: usize,
    /// Games stopped at a pass whose record goes on (the known difference).
    stopped_at_pass: usize,
}

fn replay(setup: &Setup) -> Tally {
    let g = from_spec(&setup.preset).unwrap_or_else(|e| panic!("{}: {e}", setup.file));
    let start = g.start();
    let board_points = g
        .format_position(&start)
        .split('/')
        .next()
        .map_or(0, |s| s.len());
    assert_eq!(
        board_points,
        setup.names.len(),
        "{}: Ludii has {} vertices, {} has {board_points} points",
        setup.file,
        setup.names.len(),
        setup.preset
    );
    let mut tally = Tally::default();
    let mut moves = Vec::new();
    for rec in &setup.games {
        let mut pos = start;
        tally.games += 1;
        let mut stopped = false;
        for (k, ply) in rec.plies.iter().enumerate() {
            let at = format!(
                "{}: game {}, Ludii ply {}",
                setup.file,
                rec.number,
                setup.first_ply + k
            );
            g.legal_moves(&pos, &mut moves);
            let ours: Vec<LudiiMove> = moves.iter().map(|&m| as_ludii(&g, &pos, m)).collect();
            let listing = || {
                let text: Vec<String> = moves.iter().map(|&m| g.format_move(&pos, m)).collect();
                format!(
                    "position {}; huntsolve's moves ({}): {}",
                    g.format_position(&pos),
                    text.len(),
                    text.join(" ")
                )
            };
            if ply.mv == LudiiMove::Pass {
                // Ludii's blocked side passes; under huntsolve's rules it has lost.
                assert!(
                    moves.is_empty(),
                    "{at}: Ludii passes (its only move), but huntsolve has moves; {}",
                    listing()
                );
                let value = g.outcome(&pos);
                assert!(
                    value.is_some(),
                    "{at}: no legal move but the game is not over; {}",
                    listing()
                );
                if setup.pass_continues {
                    // The known difference: Ludii's record goes on from here.
                    let after_drop = k > 0 && matches!(rec.plies[k - 1].mv, LudiiMove::Drop(_));
                    assert!(
                        g.side_to_move(&pos) == 0 && after_drop,
                        "{at}: a pass that goes on must be the tiger's, after a leopard drop; {}",
                        listing()
                    );
                    assert_eq!(
                        hunters_win(&g, &pos, value.unwrap()),
                        Some(false),
                        "{at}: the blocked tiger must lose under huntsolve's rules"
                    );
                    stopped = k + 1 < rec.plies.len();
                } else {
                    assert!(
                        k + 1 == rec.plies.len(),
                        "{at}: Ludii goes on after the pass, huntsolve's game is over"
                    );
                    let End::Win(p) = rec.end else {
                        panic!("{at}: Ludii's game is not over after the pass");
                    };
                    assert_eq!(
                        hunters_win(&g, &pos, value.unwrap()),
                        Some(p == setup.ludii_hunter),
                        "{at}: Ludii's player {p} wins, huntsolve says {value:?} for the side to move"
                    );
                }
                tally.plies += 1;
                break;
            }
            assert!(
                g.outcome(&pos).is_none(),
                "{at}: Ludii's game goes on, huntsolve's is over ({:?}); {}",
                g.outcome(&pos),
                listing()
            );
            assert_eq!(
                moves.len(),
                ply.legal,
                "{at}: Ludii has {} legal moves, huntsolve {}; Ludii chose {:?}; {}",
                ply.legal,
                moves.len(),
                ply.mv,
                listing()
            );
            let matching: Vec<usize> = (0..moves.len()).filter(|&i| ours[i] == ply.mv).collect();
            assert_eq!(
                matching.len(),
                1,
                "{at}: Ludii's move {:?} matches {} of huntsolve's moves; {}",
                ply.mv,
                matching.len(),
                listing()
            );
            pos = g.play(&pos, moves[matching[0]]);
            tally.plies += 1;
        }
        if stopped {
            tally.stopped_at_pass += 1;
            continue;
        }
        if rec.plies.last().is_some_and(|p| p.mv == LudiiMove::Pass) {
            continue;
        }
        let at = format!("{}: game {}, end", setup.file, rec.number);
        let value = g.outcome(&pos);
        match rec.end {
            End::Win(p) => {
                let value = value.unwrap_or_else(|| {
                    panic!(
                        "{at}: Ludii's game is over, huntsolve's is not; position {}",
                        g.format_position(&pos)
                    )
                });
                assert_eq!(
                    hunters_win(&g, &pos, value),
                    Some(p == setup.ludii_hunter),
                    "{at}: Ludii's player {p} wins, huntsolve says {value:?} for the side to move; position {}",
                    g.format_position(&pos)
                );
            }
            End::Limit | End::Truncated => assert!(
                value.is_none(),
                "{at}: Ludii's game goes on, huntsolve's is over ({value:?}); position {}",
                g.format_position(&pos)
            ),
        }
    }
    tally
}

/// Every game of every setup (run with `--nocapture` for the counts).
#[test]
fn ludii_random_games_replay() {
    let setups = load();
    assert_eq!(setups.len(), 9, "one data file per Ludii setup");
    for setup in &setups {
        let t = replay(setup);
        println!(
            "{}: {} games, {} plies replayed, {} stopped at Ludii's pass",
            setup.preset, t.games, t.plies, t.stopped_at_pass
        );
        assert_eq!(t.games, 20, "{}: 20 games", setup.file);
        assert!(
            t.stopped_at_pass == 0 || setup.pass_continues,
            "{}",
            setup.file
        );
    }
}
