//! The built-in boards, built from line segments: the Alquerque grid and its
//! wings (25, 31, 37, 43, 49 points), the triangles of the South Asian tiger
//! games (6, 10, 13, 19 points) and the pentagram of Kaooa.

use super::{algebraic_name, Board, Point};
use crate::error::{quote, Error, Result};
use std::collections::HashMap;

/// The built-in boards: (name, description).
pub const BUILTIN: &[(&str, &str)] = &[
    ("alquerque25", "5x5 alquerque grid with alternating diagonals (Bagh-Chal)"),
    (
        "peralikatuma49",
        "alquerque square with a triangle on each side, 49 points (Diviyan Keliya)",
    ),
    (
        "mogol37",
        "alquerque square with triangles above and below, 37 points (Mogol Putt'han)",
    ),
    (
        "mogol43",
        "alquerque square with three-row triangles above and below, 43 points (Ludii 'Nineteen Pieces')",
    ),
    (
        "alquerque31",
        "alquerque square with one triangle below, 31 points (Adugo, Orissa tiger game)",
    ),
    (
        "triangle10",
        "triangle of four rows, 10 points (Hat Diviyan Keliya, Huli-Mane Ata)",
    ),
    (
        "triangle13",
        "triangle of five rows, 13 points (Hat Diviyan Keliya, large board)",
    ),
    (
        "mysore6",
        "triangle with a centre point, 6 points (Mysore tiger game)",
    ),
    (
        "pulijudamu19",
        "triangle of five rows crossed by a rectangle, 19 points (Pulijudamu)",
    ),
    (
        "pentagram10",
        "five-pointed star, 10 points named t0-t4 (tips) and i0-i4 (inner) (Kaooa)",
    ),
    (
        "cross33",
        "cross of five 3x3 squares with alternating diagonals, 33 points (Fox and Geese, Refskak)",
    ),
    (
        "nuktagaq33",
        "the 33-point cross without three edges at its centre (Nuktagaq)",
    ),
    (
        "radiating25",
        "5x5 grid with the two long diagonals only, 25 points (Coyote)",
    ),
    ("grid25", "5x5 grid without diagonals, 25 points"),
    (
        "yagua31",
        "alquerque square with a triangle and its inner triangle, 31 points (La Yagua)",
    ),
    (
        "juroku33",
        "alquerque square with a triangle and its inner triangle, 33 points (Juroku Musashi)",
    ),
    (
        "komikan38",
        "alquerque square with a 14-point triangle, 38 points (Komikan)",
    ),
    (
        "demala23",
        "triangle of four columns crossed by a rectangle, 23 points (Demala Diviyan Keliya)",
    ),
    (
        "bamblang10",
        "triangle with a line below, 10 points (Bam Blang Beh Khla)",
    ),
    (
        "yeungluk49",
        "5x9 grid with a small triangle, 49 points (Yeung Luk Sz' Kon Tseung Kwan)",
    ),
];

/// Built-in boards kept as board files (docs/rules.md §1.9): written from Ludii's
/// constructors by scripts/family_perft.py, on Ludii's label grid (a point's name
/// is its Ludii coordinate label in lower case).
const FILE_BOARDS: &[(&str, &str)] = &[
    (
        "cross33",
        include_str!("../../tests/data/hunt/boards/cross33.board"),
    ),
    (
        "nuktagaq33",
        include_str!("../../tests/data/hunt/boards/nuktagaq33.board"),
    ),
    (
        "radiating25",
        include_str!("../../tests/data/hunt/boards/radiating25.board"),
    ),
    (
        "grid25",
        include_str!("../../tests/data/hunt/boards/grid25.board"),
    ),
    (
        "yagua31",
        include_str!("../../tests/data/hunt/boards/yagua31.board"),
    ),
    (
        "juroku33",
        include_str!("../../tests/data/hunt/boards/juroku33.board"),
    ),
    (
        "komikan38",
        include_str!("../../tests/data/hunt/boards/komikan38.board"),
    ),
    (
        "demala23",
        include_str!("../../tests/data/hunt/boards/demala23.board"),
    ),
    (
        "bamblang10",
        include_str!("../../tests/data/hunt/boards/bamblang10.board"),
    ),
    (
        "yeungluk49",
        include_str!("../../tests/data/hunt/boards/yeungluk49.board"),
    ),
];

impl Board {
    /// A built-in board by name (see [`BUILTIN`]).
    pub(crate) fn builtin(name: &str) -> Result<Board> {
        match name {
            "alquerque25" => from_segments(name, &alquerque_segments(0, 0)),
            "peralikatuma49" => {
                let mut s = alquerque_segments(2, 2);
                s.extend(wing_segments((4, 2), (0, -1), 3));
                s.extend(wing_segments((6, 4), (1, 0), 3));
                s.extend(wing_segments((4, 6), (0, 1), 3));
                s.extend(wing_segments((2, 4), (-1, 0), 3));
                from_segments(name, &s)
            }
            "mogol37" => {
                let mut s = alquerque_segments(0, 2);
                s.extend(wing_segments((2, 2), (0, -1), 3));
                s.extend(wing_segments((2, 6), (0, 1), 3));
                from_segments(name, &s)
            }
            "mogol43" => {
                let mut s = alquerque_segments(1, 3);
                s.extend(wing_segments((3, 3), (0, -1), 4));
                s.extend(wing_segments((3, 7), (0, 1), 4));
                from_segments(name, &s)
            }
            "alquerque31" => {
                let mut s = alquerque_segments(0, 2);
                s.extend(wing_segments((2, 2), (0, -1), 3));
                from_segments(name, &s)
            }
            "triangle10" => from_segments(name, &wedge_segments((3, 6), (0, -2), (1, 0), 4)),
            "triangle13" => from_segments(name, &wedge_segments((4, 8), (0, -2), (1, 0), 5)),
            "mysore6" => {
                // Ludii: (add (remove (scale 1 2 (wedge 3)) vertices:{5}) edges:{{4 5}}):
                // the base's middle point goes, the base corners are joined.
                let mut s: Vec<Seg> = wedge_segments((2, 4), (0, -2), (1, 0), 3)
                    .into_iter()
                    .filter(|&(a, b)| a != (2, 0) && b != (2, 0))
                    .collect();
                s.push(((0, 0), (4, 0)));
                from_segments(name, &s)
            }
            "pulijudamu19" => {
                // Ludii: the wedge (scale 1 2 (wedge 5 3)) merged with the rectangle's
                // two sides x = 0 and x = 8 (y = 2..6), whose rungs are replaced by
                // edges to the wedge's sides, so three of its rows run across.
                let mut s = wedge_segments((4, 8), (0, -2), (1, 0), 5);
                for x in [0, 8] {
                    s.push(((x, 2), (x, 4)));
                    s.push(((x, 4), (x, 6)));
                }
                s.extend([
                    ((0, 2), (1, 2)),
                    ((0, 4), (2, 4)),
                    ((0, 6), (3, 6)),
                    ((5, 6), (8, 6)),
                    ((6, 4), (8, 4)),
                    ((7, 2), (8, 2)),
                ]);
                from_segments(name, &s)
            }
            "pentagram10" => pentagram(),
            _ => match FILE_BOARDS.iter().find(|b| b.0 == name) {
                Some(&(_, text)) => Board::parse_named(text, name),
                None => Err(Error::Board(format!(
                    "unknown board {}; built-in boards: {} (or a path to a board file)",
                    quote(name),
                    BUILTIN.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
                ))),
            },
        }
    }
}

type Seg = ((i32, i32), (i32, i32));

/// Edges of a 5x5 alquerque square with its lower-left corner at (ox, oy):
/// orthogonal unit edges, and in each cell the diagonal through the corners
/// whose local x+y is even (Ludii `diagonals:Alternating`).
pub(super) fn alquerque_segments(ox: i32, oy: i32) -> Vec<Seg> {
    let mut s = Vec::new();
    for r in 0..5 {
        for c in 0..5 {
            let p = (ox + c, oy + r);
            if c < 4 {
                s.push((p, (p.0 + 1, p.1)));
            }
            if r < 4 {
                s.push((p, (p.0, p.1 + 1)));
            }
            if c < 4 && r < 4 {
                if (c + r) % 2 == 0 {
                    s.push((p, (p.0 + 1, p.1 + 1)));
                } else {
                    s.push(((p.0, p.1 + 1), (p.0 + 1, p.1)));
                }
            }
        }
    }
    s
}

/// Edges of a wing (Ludii `wedge n`, three columns) with its apex at `apex`,
/// opening in direction `out`: row r (1..n-1) lies r steps out and holds the
/// points at lateral offsets -r, 0, +r.
pub(super) fn wing_segments(apex: (i32, i32), out: (i32, i32), n: i32) -> Vec<Seg> {
    wedge_segments(apex, out, (-out.1, out.0), n)
}

/// Edges of a wedge of `n` rows (Ludii `wedge n`, three columns) with its apex at
/// `apex`: row r (1..n-1) lies at apex + r·`out` and holds the points at lateral
/// offsets -r·`lat`, 0, +r·`lat` (so `out` = (0, -2), `lat` = (1, 0) is Ludii's
/// `(scale 1 2 (wedge n))`).
pub(super) fn wedge_segments(
    apex: (i32, i32),
    out: (i32, i32),
    lat: (i32, i32),
    n: i32,
) -> Vec<Seg> {
    let pt = |r: i32, k: i32| {
        (
            apex.0 + r * out.0 + k * r * lat.0,
            apex.1 + r * out.1 + k * r * lat.1,
        )
    };
    let mut s = Vec::new();
    for k in -1..=1 {
        s.push((apex, pt(1, k)));
    }
    for r in 1..n {
        s.push((pt(r, -1), pt(r, 0)));
        s.push((pt(r, 0), pt(r, 1)));
        if r + 1 < n {
            for k in -1..=1 {
                s.push((pt(r, k), pt(r + 1, k)));
            }
        }
    }
    s
}

pub(super) fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Builds a board from drawn segments: coincident endpoints are one point, and
/// lines are the maximal chains of segments that continue in the same direction.
pub(super) fn from_segments(name: &str, segs: &[Seg]) -> Result<Board> {
    let mut coords: Vec<(i32, i32)> = segs.iter().flat_map(|&(a, b)| [a, b]).collect();
    coords.sort_by_key(|&(x, y)| (y, x));
    coords.dedup();
    let id_of: HashMap<(i32, i32), u8> = coords
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u8))
        .collect();
    // step[(point, direction)] = next point along that direction
    type Xy = (i32, i32);
    let mut step: HashMap<(Xy, Xy), Xy> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    for &(a, b) in segs {
        let key = if (a.1, a.0) <= (b.1, b.0) {
            (a, b)
        } else {
            (b, a)
        };
        if !seen.insert(key) {
            continue;
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let g = gcd(dx, dy);
        let d = (dx / g, dy / g);
        for (from, to, dir) in [(a, b, d), (b, a, (-d.0, -d.1))] {
            if step.insert((from, dir), to).is_some() {
                return Err(Error::Board(format!(
                    "{name}: two edges leave ({}, {}) in the same direction",
                    from.0, from.1
                )));
            }
        }
    }
    let mut lines = Vec::new();
    let mut starts: Vec<_> = step
        .keys()
        .filter(|&&(p, d)| {
            (d.1 > 0 || (d.1 == 0 && d.0 > 0)) && !step.contains_key(&(p, (-d.0, -d.1)))
        })
        .copied()
        .collect();
    starts.sort_by_key(|&(p, d)| (p.1, p.0, d.1, d.0));
    for (p, d) in starts {
        let mut line = vec![id_of[&p]];
        let mut cur = p;
        while let Some(&next) = step.get(&(cur, d)) {
            line.push(id_of[&next]);
            cur = next;
        }
        lines.push(line);
    }
    let points = coords
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| Point {
            id: i as u8,
            x,
            y,
            name: algebraic_name(x, y).unwrap_or_else(|| format!("p{i}")),
        })
        .collect();
    Board::new(name, points, lines, None, true)
}

/// The Kaooa star (docs/rules.md §1.7), numbered as in GamesmanOne. Coordinates
/// are a rough integer drawing (tip 0 at the top, then clockwise).
pub(super) fn pentagram() -> Result<Board> {
    let coords = [
        (4, 6, "t0"),
        (8, 4, "t1"),
        (7, 0, "t2"),
        (1, 0, "t3"),
        (0, 4, "t4"),
        (5, 4, "i0"),
        (6, 2, "i1"),
        (4, 1, "i2"),
        (2, 2, "i3"),
        (3, 4, "i4"),
    ];
    let points = coords
        .iter()
        .enumerate()
        .map(|(i, &(x, y, n))| Point {
            id: i as u8,
            x,
            y,
            name: n.to_string(),
        })
        .collect();
    let lines = vec![
        vec![0, 5, 6, 2],
        vec![0, 9, 8, 3],
        vec![1, 5, 9, 4],
        vec![1, 6, 7, 3],
        vec![2, 7, 8, 4],
    ];
    Board::new("pentagram10", points, lines, None, false)
}
