//! Board geometry: the counts of docs/rules.md §1, spot checks of adjacency and
//! lines, the symmetry groups, M_k, and board-file errors.

use crate::board::{Board, Point, MAX_POINTS};

/// Read-only views of the derived tables, for these tests (the crate reads the fields).
impl Board {
    /// Board name (built-in name, or the `name` of a board file).
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// Points, indexed by id.
    pub(super) fn points(&self) -> &[Point] {
        &self.points
    }

    /// Lines as sequences of point ids.
    pub(super) fn lines(&self) -> &[Vec<u8>] {
        &self.lines
    }

    /// Neighbour mask per point.
    pub(super) fn neighbours(&self) -> &[u64] {
        &self.neighbours
    }

    /// Jumps per point: `(over, to)` pairs.
    pub(super) fn jumps(&self) -> &[Vec<(u8, u8)>] {
        &self.jumps
    }

    /// `jump_to[from][over]`: landing point, or [`NO_JUMP`].
    pub(super) fn jump_to(&self) -> &[[u8; MAX_POINTS]] {
        &self.jump_to
    }

    /// The centre point (used by `first_drop=centre`), if the board has one.
    pub(super) fn centre(&self) -> Option<u8> {
        self.centre
    }

    /// Number of directed jump triples.
    pub(super) fn jump_count(&self) -> usize {
        self.jumps.iter().map(Vec::len).sum()
    }
}

/// (board, points, edges, lines, directed jumps, symmetries, M1, M2)
type Counts = (&'static str, usize, usize, usize, usize, usize, u32, u32);

/// docs/rules.md §1.6 table; the pentagram row is derived by hand from §1.7
/// (M1: a tip needs its 2 neighbours and the 2 points beyond; M2: two tips need 5).
const COUNTS: &[Counts] = &[
    ("alquerque25", 25, 56, 16, 80, 8, 5, 7),
    ("peralikatuma49", 49, 96, 24, 144, 8, 4, 4),
    ("mogol37", 37, 76, 20, 112, 4, 4, 4),
    ("mogol43", 43, 86, 22, 128, 4, 4, 5),
    ("pentagram10", 10, 15, 5, 20, 10, 4, 5),
    ("alquerque31", 31, 66, 18, 96, 2, 4, 4),
    ("triangle10", 10, 15, 6, 18, 2, 4, 5),
    ("triangle13", 13, 20, 7, 26, 2, 4, 5),
    ("mysore6", 6, 8, 5, 6, 2, 3, 3),
    ("pulijudamu19", 19, 30, 9, 42, 2, 4, 5),
    // docs/rules.md §1.9 (Ludii's hunt category, first wave)
    ("cross33", 33, 72, 20, 104, 8, 4, 6),
    ("nuktagaq33", 33, 69, 22, 94, 2, 4, 6),
    ("radiating25", 25, 48, 12, 72, 8, 5, 7),
    ("grid25", 25, 40, 10, 60, 8, 4, 6),
    ("yagua31", 31, 68, 20, 96, 2, 4, 4),
    ("juroku33", 33, 70, 22, 96, 2, 1, 2),
    ("komikan38", 38, 79, 21, 116, 2, 4, 5),
    ("demala23", 23, 38, 10, 56, 2, 4, 5),
    ("bamblang10", 10, 12, 7, 10, 4, 2, 1),
    ("yeungluk49", 49, 84, 17, 134, 2, 4, 4),
];

/// The boards of the hunt-game atlas (docs/rules.md §1.8) also ship as board files,
/// written from Ludii's constructors by scripts/family_perft.py: each file gives
/// the built-in board's points, names, neighbours and lines.
#[test]
fn atlas_board_files_equal_the_builtin_boards() {
    for name in [
        "alquerque31",
        "triangle10",
        "triangle13",
        "mysore6",
        "pulijudamu19",
    ] {
        let path = format!(
            "{}/tests/data/hunt/boards/{name}.board",
            env!("CARGO_MANIFEST_DIR")
        );
        let file = Board::from_file(std::path::Path::new(&path)).unwrap();
        let builtin = Board::builtin(name).unwrap();
        assert_eq!(file.name(), builtin.name(), "{name}");
        assert_eq!(file.points(), builtin.points(), "{name} points");
        assert_eq!(file.neighbours(), builtin.neighbours(), "{name} neighbours");
        let sorted = |b: &Board| {
            let mut l: Vec<Vec<u8>> = b.lines().iter().map(|l| norm(l.clone())).collect();
            l.sort();
            l
        };
        assert_eq!(sorted(&file), sorted(&builtin), "{name} lines");
        assert_eq!(file.symmetries().len(), builtin.symmetries().len());
    }
}

#[test]
fn builtin_counts_match_rules_spec() {
    for &(name, points, edges, lines, jumps, syms, m1, m2) in COUNTS {
        let b = Board::builtin(name).unwrap();
        assert_eq!(b.len(), points, "{name} points");
        assert_eq!(b.edge_count(), edges, "{name} edges");
        assert_eq!(b.lines().len(), lines, "{name} lines");
        assert_eq!(b.jump_count(), jumps, "{name} jumps");
        assert_eq!(b.symmetries().len(), syms, "{name} symmetries");
        assert_eq!(b.min_prey_to_immobilise(1), Some(m1), "{name} M1");
        assert_eq!(b.min_prey_to_immobilise(2), Some(m2), "{name} M2");
    }
}

#[test]
fn bagh_chal_four_tigers_need_ten_goats() {
    let b = Board::builtin("alquerque25").unwrap();
    assert_eq!(b.min_prey_to_immobilise(4), Some(10));
}

#[test]
fn centres_match_rules_spec() {
    for (name, centre, cname) in [
        ("alquerque25", 12, "c3"),
        ("peralikatuma49", 24, "e5"),
        ("mogol37", 18, "c5"),
        ("mogol43", 21, "d6"),
    ] {
        let b = Board::builtin(name).unwrap();
        assert_eq!(b.centre(), Some(centre), "{name}");
        assert_eq!(b.name_of(centre), cname);
    }
    assert_eq!(Board::builtin("pentagram10").unwrap().centre(), None);
}

fn neighbour_ids(b: &Board, p: u8) -> Vec<u8> {
    (0..b.len() as u8)
        .filter(|&q| b.neighbours()[p as usize] >> q & 1 == 1)
        .collect()
}

#[test]
fn adjacency_spot_checks() {
    // docs/rules.md §1.2 adjacency list entries
    let b = Board::builtin("peralikatuma49").unwrap();
    assert_eq!(neighbour_ids(&b, 9), vec![3, 4, 5, 8, 10, 15, 16, 17]);
    assert_eq!(neighbour_ids(&b, 6), vec![13, 20]);
    assert_eq!(neighbour_ids(&b, 0), vec![1, 3]);
    assert_eq!(neighbour_ids(&b, 11), vec![10, 17, 18]);
    // §1.3
    let b = Board::builtin("mogol37").unwrap();
    assert_eq!(neighbour_ids(&b, 8), vec![3, 4, 5, 7, 9, 12, 13, 14]);
    assert_eq!(neighbour_ids(&b, 16), vec![11, 12, 17, 21, 22]);
    // §1.4
    let b = Board::builtin("mogol43").unwrap();
    assert_eq!(neighbour_ids(&b, 11), vec![6, 7, 8, 10, 12, 15, 16, 17]);
    assert_eq!(neighbour_ids(&b, 38), vec![35, 37, 39, 41]);
    // §1.7
    let b = Board::builtin("pentagram10").unwrap();
    assert_eq!(neighbour_ids(&b, 5), vec![0, 1, 6, 9]);
    assert_eq!(neighbour_ids(&b, 3), vec![7, 8]);
}

#[test]
fn wing_jumps_cross_the_joint() {
    let b = Board::builtin("peralikatuma49").unwrap();
    // 16-09-04, 17-09-03, 09-03-00 are jumps; 01-00-03 and 08-09-03 are bends
    // (from 08 over 09 the line continues to 10, not into the wing).
    assert_eq!(b.jump_to()[16][9], 4);
    assert_eq!(b.jump_to()[17][9], 3);
    assert_eq!(b.jump_to()[9][3], 0);
    assert_eq!(b.jump_to()[1][0], crate::board::NO_JUMP);
    assert_eq!(b.jump_to()[8][9], 10);
    assert_eq!(b.jump_to()[0][1], 2);
    assert_eq!(b.neighbours()[11] >> 5 & 1, 0);
    let nine: Vec<&Vec<u8>> = b.lines().iter().filter(|l| l.len() == 9).collect();
    assert_eq!(nine.len(), 2);
    assert!(b.lines().contains(&vec![0, 3, 9, 17, 26, 35, 42]));
}

#[test]
fn symmetries_are_permutations_preserving_lines() {
    for &(name, ..) in COUNTS {
        let b = Board::builtin(name).unwrap();
        let identity: Vec<u8> = (0..b.len() as u8).collect();
        assert_eq!(b.symmetries()[0], identity, "{name}");
        let mut lines: Vec<Vec<u8>> = b.lines().iter().map(|l| norm(l.clone())).collect();
        lines.sort();
        for perm in b.symmetries() {
            let mut sorted = perm.clone();
            sorted.sort();
            assert_eq!(sorted, identity);
            let mut img: Vec<Vec<u8>> = b
                .lines()
                .iter()
                .map(|l| norm(l.iter().map(|&p| perm[p as usize]).collect()))
                .collect();
            img.sort();
            assert_eq!(img, lines, "{name}");
        }
    }
}

fn norm(mut l: Vec<u8>) -> Vec<u8> {
    if l.first() > l.last() {
        l.reverse();
    }
    l
}

#[test]
fn map_mask_applies_the_permutation() {
    let b = Board::builtin("alquerque25").unwrap();
    let corners = 1u64 | 1 << 4 | 1 << 20 | 1 << 24;
    for s in 0..b.symmetries().len() {
        assert_eq!(b.map_mask(s, corners), corners);
        assert_eq!(b.map_mask(s, 1 << 12), 1 << 12);
    }
    assert_eq!(b.map_mask(0, 0b1011), 0b1011);
}

#[test]
fn board_file_round_trip_of_alquerque() {
    // The alquerque board written as a file gives the same geometry.
    let b = Board::builtin("alquerque25").unwrap();
    let mut text = String::from("name alq\n");
    for p in b.points() {
        text.push_str(&format!("point {} {}\n", p.x, p.y));
    }
    for l in b.lines() {
        let names: Vec<&str> = l.iter().map(|&p| b.name_of(p)).collect();
        text.push_str(&format!("line {}\n", names.join(" ")));
    }
    let c = Board::parse(&text).unwrap();
    assert_eq!(c.name(), "alq");
    assert_eq!(c.neighbours(), b.neighbours());
    assert_eq!(c.jumps(), b.jumps());
    assert_eq!(c.symmetries().len(), 8);
    assert_eq!(c.centre(), Some(12));
}

#[test]
fn bad_board_files_are_errors() {
    let cases = [
        ("", "no points"),
        ("point 0 0\npoint 0 0\n", "already defined"),
        ("point 0 0\npoint 1 0\nline a1 z9\n", "unknown point 'z9'"),
        ("point 0 0\npoint 1 0\nline a1\n", "at least two points"),
        (
            "point 0 0\npoint 1 0\nline a1 b1\nline b1 a1\n",
            "two lines",
        ),
        ("point 0 zero\n", "not an integer"),
        ("dot 0 0\n", "unknown keyword 'dot'"),
        ("point 0 0 x1\n", "contain no 'x'"),
        ("point 0 0\npoint 1 0\ncentre q7\n", "unknown centre"),
        ("point 0 0\npoint 1 0\nline a1 b1 a1\n", "passes twice"),
    ];
    for (text, want) in cases {
        match Board::parse(text) {
            Ok(_) => panic!("accepted bad board {text:?}"),
            Err(e) => assert!(
                e.to_string().contains(want),
                "{text:?}: error '{e}' lacks '{want}'"
            ),
        }
    }
    let many: String = (0..65)
        .map(|i| format!("point {} {}\n", i % 10, i / 10))
        .collect();
    assert!(Board::parse(&many)
        .unwrap_err()
        .to_string()
        .contains("at most 64"));
    assert!(Board::builtin("nosuch")
        .unwrap_err()
        .to_string()
        .contains("peralikatuma49"));
    let missing = Board::from_file(std::path::Path::new("/nonexistent/board.txt"));
    assert!(missing
        .unwrap_err()
        .to_string()
        .contains("/nonexistent/board.txt"));
}

/// Compares every built-in board with the adjacency lists and lines of
/// docs/rules.md §1, kept as data under tests/data/hunt/boards/.
#[test]
fn builtin_boards_match_the_spec_lists() {
    for &(name, ..) in COUNTS {
        let path = format!(
            "{}/tests/data/hunt/boards/{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let b = Board::builtin(name).unwrap();
        let mut lines_seen = Vec::new();
        let mut points_seen = 0;
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some(rest) = l.strip_prefix("adj ") {
                let (head, nbrs) = rest.split_once(':').unwrap();
                let mut head = head.split_whitespace();
                let id: u8 = head.next().unwrap().parse().unwrap();
                if let Some(xy) = head.next() {
                    let xy = xy.trim_matches(|c| c == '(' || c == ')');
                    let (x, y) = xy.split_once(',').unwrap();
                    let p = &b.points()[id as usize];
                    assert_eq!(
                        (p.x, p.y),
                        (x.parse().unwrap(), y.parse().unwrap()),
                        "{name} {id}"
                    );
                }
                let want: Vec<u8> = nbrs
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
                assert_eq!(neighbour_ids(&b, id), want, "{name} point {id}");
                points_seen += 1;
            } else if let Some(rest) = l.strip_prefix("line ") {
                lines_seen.push(norm(
                    rest.split_whitespace()
                        .map(|n| n.parse().unwrap())
                        .collect(),
                ));
            }
        }
        assert_eq!(points_seen, b.len(), "{name}");
        let mut mine: Vec<Vec<u8>> = b.lines().iter().map(|l| norm(l.clone())).collect();
        mine.sort();
        lines_seen.sort();
        assert_eq!(mine, lines_seen, "{name} lines");
    }
}
