//! Board geometry for the hunt games: points, lines, and what derives from them.
//!
//! A board is a list of points (id, integer coordinates, name) and a list of
//! *lines* (maximal chains of consecutive collinear edges, as sequences of point
//! ids). Everything else is derived once, when the board is built:
//! - edges: consecutive points of a line; neighbour masks (`u64`, bit i = point i);
//! - jump triples: consecutive triples of a line, read in both directions
//!   (`jumps[from]` lists `(over, to)`);
//! - the symmetry group: every point permutation that maps edges onto edges and
//!   jump triples onto jump triples (hence lines onto lines), found by search;
//! - `M_k` (rules-spec §1.6): the fewest prey that can immobilise `k` hunters.
//!
//! Point ids follow rules-spec §1.0: sorted by y, then x, bottom row first.
//! Point names are algebraic (file letter from x starting at `a`, rank from y
//! starting at `1`, so `e5` is the centre of the 49-point board) unless the
//! board names its points (the pentagram: `t0`-`t4`, `i0`-`i4`).
//!
//! # Board files
//! A board can be read from a small text file, so a new board needs no code:
//!
//! ```text
//! # comments start with '#'
//! name mini            # optional; default: the file name
//! point 0 0            # point X Y [NAME]; NAME defaults to the algebraic name
//! point 1 0
//! point 2 0
//! point 1 1 top
//! line a1 b1 c1        # a line: two or more point names in order
//! line b1 top
//! centre b1            # optional; default: the point at the bounding-box centre
//! ```
//!
//! Ids are assigned after sorting the points by (y, x). A problem (unknown
//! point, duplicate coordinates, an edge on two lines, more than 64 points, ...)
//! is an [`Error::Board`] naming the line of the file.

use crate::error::{Error, Result};
use std::collections::HashMap;

/// Largest number of points a hunt board may have (positions are `u64` bitboards).
pub const MAX_POINTS: usize = 64;

/// Marker in [`Board::jump_to`] for "no jump".
pub const NO_JUMP: u8 = u8::MAX;

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
        "pentagram10",
        "five-pointed star, 10 points named t0-t4 (tips) and i0-i4 (inner) (Kaooa)",
    ),
];

/// One point of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// Id (index into [`Board::points`]).
    pub id: u8,
    /// Horizontal coordinate (grows to the right).
    pub x: i32,
    /// Vertical coordinate (grows upwards).
    pub y: i32,
    /// Name used in move notation (`e5`, `t0`).
    pub name: String,
}

/// A hunt-game board with its derived tables. Build it with [`Board::builtin`],
/// [`Board::parse`] or [`Board::from_file`].
#[derive(Clone, Debug)]
pub struct Board {
    /// Board name (built-in name, or the `name` of a board file).
    pub name: String,
    /// Points, indexed by id.
    pub points: Vec<Point>,
    /// Lines as sequences of point ids.
    pub lines: Vec<Vec<u8>>,
    /// Neighbour mask per point.
    pub neighbours: Vec<u64>,
    /// Jumps per point: `(over, to)` pairs.
    pub jumps: Vec<Vec<(u8, u8)>>,
    /// Point permutations that preserve lines; the identity first. `perm[i]` is the image of point i.
    pub symmetries: Vec<Vec<u8>>,
    /// `jump_to[from][over]`: landing point, or [`NO_JUMP`].
    pub jump_to: Vec<[u8; MAX_POINTS]>,
    /// Mask of points that can be jumped over from each point.
    pub jump_over: Vec<u64>,
    /// The centre point (used by `first_drop=centre`), if the board has one.
    pub centre: Option<u8>,
    /// Whether point names are algebraic (derived from coordinates).
    pub algebraic: bool,
    edges: usize,
}

impl Board {
    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether the board has no point (never true for a built board).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Mask with one bit per point.
    pub fn all_mask(&self) -> u64 {
        if self.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.len()) - 1
        }
    }

    /// Number of (undirected) edges.
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// Number of directed jump triples.
    pub fn jump_count(&self) -> usize {
        self.jumps.iter().map(Vec::len).sum()
    }

    /// The id of the point with this name.
    pub fn point_by_name(&self, name: &str) -> Option<u8> {
        self.points.iter().find(|p| p.name == name).map(|p| p.id)
    }

    /// Name of a point id.
    pub fn name_of(&self, id: u8) -> &str {
        &self.points[id as usize].name
    }

    /// Image of a point mask under symmetry number `sym`.
    pub fn map_mask(&self, sym: usize, mask: u64) -> u64 {
        let perm = &self.symmetries[sym];
        let mut out = 0u64;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= 1u64 << perm[i];
        }
        out
    }

    /// A built-in board by name (see [`BUILTIN`]).
    pub fn builtin(name: &str) -> Result<Board> {
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
            "pentagram10" => pentagram(),
            _ => Err(Error::Board(format!(
                "unknown board '{name}'; built-in boards: {} (or a path to a board file)",
                BUILTIN.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    /// Reads a board file (format in the module docs).
    pub fn from_file(path: &std::path::Path) -> Result<Board> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::io(format!("reading board file {}", path.display()), e))?;
        let default_name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("board")
            .to_string();
        Board::parse_named(&text, &default_name)
            .map_err(|e| Error::Board(format!("{}: {}", path.display(), strip_board(e))))
    }

    /// Parses a board description (format in the module docs).
    pub fn parse(text: &str) -> Result<Board> {
        Board::parse_named(text, "custom")
    }

    fn parse_named(text: &str, default_name: &str) -> Result<Board> {
        let mut name = default_name.to_string();
        let mut raw_points: Vec<(i32, i32, Option<String>, usize)> = Vec::new();
        let mut raw_lines: Vec<(Vec<String>, usize)> = Vec::new();
        let mut centre: Option<(String, usize)> = None;
        for (i, full) in text.lines().enumerate() {
            let ln = i + 1;
            let line = full.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "name" => {
                    if words.len() != 2 {
                        return Err(Error::Board(format!("line {ln}: expected 'name NAME'")));
                    }
                    name = words[1].to_string();
                }
                "point" => {
                    if words.len() != 3 && words.len() != 4 {
                        return Err(Error::Board(format!(
                            "line {ln}: expected 'point X Y [NAME]', got '{line}'"
                        )));
                    }
                    let coord = |w: &str| {
                        w.parse::<i32>()
                            .ok()
                            .filter(|v| (0..=1000).contains(v))
                            .ok_or_else(|| {
                                Error::Board(format!(
                                    "line {ln}: coordinate '{w}' is not an integer in 0..=1000"
                                ))
                            })
                    };
                    let (x, y) = (coord(words[1])?, coord(words[2])?);
                    raw_points.push((x, y, words.get(3).map(|s| s.to_string()), ln));
                }
                "line" => {
                    if words.len() < 3 {
                        return Err(Error::Board(format!(
                            "line {ln}: a line needs at least two points"
                        )));
                    }
                    raw_lines.push((words[1..].iter().map(|s| s.to_string()).collect(), ln));
                }
                "centre" | "center" => {
                    if words.len() != 2 {
                        return Err(Error::Board(format!("line {ln}: expected 'centre NAME'")));
                    }
                    centre = Some((words[1].to_string(), ln));
                }
                other => {
                    return Err(Error::Board(format!(
                        "line {ln}: unknown keyword '{other}'; accepted: name, point, line, centre"
                    )))
                }
            }
        }
        if raw_points.is_empty() {
            return Err(Error::Board("no points".into()));
        }
        if raw_points.len() > MAX_POINTS {
            return Err(Error::Board(format!(
                "{} points; at most {MAX_POINTS} are supported",
                raw_points.len()
            )));
        }
        let explicit = raw_points.iter().any(|p| p.2.is_some());
        let mut sorted = raw_points.clone();
        sorted.sort_by_key(|p| (p.1, p.0));
        for w in sorted.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                return Err(Error::Board(format!(
                    "line {}: point ({}, {}) is already defined on line {}",
                    w[1].3, w[1].0, w[1].1, w[0].3
                )));
            }
        }
        let mut points = Vec::new();
        for (id, p) in sorted.iter().enumerate() {
            let pname = match &p.2 {
                Some(n) => n.clone(),
                None => algebraic_name(p.0, p.1).ok_or_else(|| {
                    Error::Board(format!(
                        "line {}: point ({}, {}) is too far right for an algebraic name; give it a name",
                        p.3, p.0, p.1
                    ))
                })?,
            };
            check_point_name(&pname).map_err(|m| Error::Board(format!("line {}: {m}", p.3)))?;
            points.push(Point {
                id: id as u8,
                x: p.0,
                y: p.1,
                name: pname,
            });
        }
        let mut by_name: HashMap<&str, u8> = HashMap::new();
        for p in &points {
            if by_name.insert(p.name.as_str(), p.id).is_some() {
                return Err(Error::Board(format!("two points are named '{}'", p.name)));
            }
        }
        let mut lines = Vec::new();
        for (names, ln) in &raw_lines {
            let mut ids = Vec::new();
            for n in names {
                let id = by_name.get(n.as_str()).ok_or_else(|| {
                    Error::Board(format!("line {ln}: unknown point '{n}' in a line"))
                })?;
                ids.push(*id);
            }
            lines.push(ids);
        }
        let centre =
            match centre {
                Some((n, ln)) => Some(*by_name.get(n.as_str()).ok_or_else(|| {
                    Error::Board(format!("line {ln}: unknown centre point '{n}'"))
                })?),
                None => None,
            };
        Board::new(&name, points, lines, centre, !explicit)
    }

    /// Builds a board from points (ids must be 0..n in order) and lines, deriving
    /// edges, jumps and symmetries. `centre: None` picks the point at the centre
    /// of the bounding box, if there is one.
    pub fn new(
        name: &str,
        points: Vec<Point>,
        lines: Vec<Vec<u8>>,
        centre: Option<u8>,
        algebraic: bool,
    ) -> Result<Board> {
        let n = points.len();
        if n == 0 || n > MAX_POINTS {
            return Err(Error::Board(format!(
                "{n} points; a board needs 1 to {MAX_POINTS}"
            )));
        }
        if points.iter().enumerate().any(|(i, p)| p.id as usize != i) {
            return Err(Error::Board("point ids must be 0..n in order".into()));
        }
        let mut neighbours = vec![0u64; n];
        let mut jump_to = vec![[NO_JUMP; MAX_POINTS]; n];
        let mut jumps = vec![Vec::new(); n];
        let mut jump_over = vec![0u64; n];
        let mut edges = 0;
        for (li, line) in lines.iter().enumerate() {
            if line.len() < 2 {
                return Err(Error::Board(format!(
                    "line {} has fewer than two points",
                    li + 1
                )));
            }
            for (k, &p) in line.iter().enumerate() {
                if p as usize >= n {
                    return Err(Error::Board(format!("line {} names point id {p}", li + 1)));
                }
                if line[..k].contains(&p) {
                    return Err(Error::Board(format!(
                        "line {} passes twice through {}",
                        li + 1,
                        points[p as usize].name
                    )));
                }
            }
            for w in line.windows(2) {
                let (a, b) = (w[0] as usize, w[1] as usize);
                if neighbours[a] >> b & 1 == 1 {
                    return Err(Error::Board(format!(
                        "the edge {}-{} lies on two lines",
                        points[a].name, points[b].name
                    )));
                }
                neighbours[a] |= 1 << b;
                neighbours[b] |= 1 << a;
                edges += 1;
            }
            for w in line.windows(3) {
                for (a, b, c) in [(w[0], w[1], w[2]), (w[2], w[1], w[0])] {
                    if jump_to[a as usize][b as usize] != NO_JUMP {
                        return Err(Error::Board(format!(
                            "two jumps from {} over {}",
                            points[a as usize].name, points[b as usize].name
                        )));
                    }
                    jump_to[a as usize][b as usize] = c;
                    jumps[a as usize].push((b, c));
                    jump_over[a as usize] |= 1 << b;
                }
            }
        }
        for j in &mut jumps {
            j.sort_unstable();
        }
        let centre = centre.or_else(|| {
            let (x0, x1) = (
                points.iter().map(|p| p.x).min()?,
                points.iter().map(|p| p.x).max()?,
            );
            let (y0, y1) = (
                points.iter().map(|p| p.y).min()?,
                points.iter().map(|p| p.y).max()?,
            );
            if (x0 + x1) % 2 != 0 || (y0 + y1) % 2 != 0 {
                return None;
            }
            points
                .iter()
                .find(|p| p.x == (x0 + x1) / 2 && p.y == (y0 + y1) / 2)
                .map(|p| p.id)
        });
        let mut board = Board {
            name: name.to_string(),
            points,
            lines,
            neighbours,
            jumps,
            symmetries: Vec::new(),
            jump_to,
            jump_over,
            centre,
            algebraic,
            edges,
        };
        board.symmetries = board.find_symmetries()?;
        Ok(board)
    }

    /// Every permutation preserving edges and jump triples, identity first.
    fn find_symmetries(&self) -> Result<Vec<Vec<u8>>> {
        let n = self.len();
        // Visit points in breadth-first order so that each new point has an
        // assigned neighbour, which prunes the search to a few branches.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        for s in 0..n {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            order.push(s);
            let mut k = order.len() - 1;
            while k < order.len() {
                let p = order[k];
                let mut m = self.neighbours[p];
                while m != 0 {
                    let q = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if !seen[q] {
                        seen[q] = true;
                        order.push(q);
                    }
                }
                k += 1;
            }
        }
        let degree: Vec<(u32, usize)> = (0..n)
            .map(|i| (self.neighbours[i].count_ones(), self.jumps[i].len()))
            .collect();
        let mut perm = vec![NO_JUMP; n];
        let mut used = vec![false; n];
        let mut out = Vec::new();
        let mut budget: u64 = 5_000_000;
        self.sym_search(
            0,
            &order,
            &degree,
            &mut perm,
            &mut used,
            &mut out,
            &mut budget,
        );
        if budget == 0 {
            return Err(Error::Board(
                "symmetry search too large (is the board made of many disconnected parts?)".into(),
            ));
        }
        out.sort();
        let identity: Vec<u8> = (0..n as u8).collect();
        let pos = out.iter().position(|p| *p == identity).unwrap_or(0);
        let id = out.remove(pos);
        out.insert(0, id);
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn sym_search(
        &self,
        k: usize,
        order: &[usize],
        degree: &[(u32, usize)],
        perm: &mut Vec<u8>,
        used: &mut Vec<bool>,
        out: &mut Vec<Vec<u8>>,
        budget: &mut u64,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        if k == order.len() {
            out.push(perm.clone());
            return;
        }
        let p = order[k];
        for img in 0..self.len() {
            if used[img] || degree[img] != degree[p] {
                continue;
            }
            perm[p] = img as u8;
            if self.consistent(p, order, k, perm) {
                used[img] = true;
                self.sym_search(k + 1, order, degree, perm, used, out, budget);
                used[img] = false;
            }
            perm[p] = NO_JUMP;
        }
    }

    /// Checks edges and jump triples among the points assigned so far (order[..=k]).
    fn consistent(&self, p: usize, order: &[usize], k: usize, perm: &[u8]) -> bool {
        let ip = perm[p] as usize;
        for &q in &order[..k] {
            let iq = perm[q] as usize;
            if (self.neighbours[p] >> q & 1) != (self.neighbours[ip] >> iq & 1) {
                return false;
            }
        }
        // Every triple whose three points are now assigned, with p among them.
        let assigned = |x: u8| perm[x as usize] != NO_JUMP;
        let check = |a: usize, b: u8, c: u8| {
            self.jump_to[perm[a] as usize][perm[b as usize] as usize] == perm[c as usize]
        };
        for &(b, c) in &self.jumps[p] {
            if assigned(b) && assigned(c) && !check(p, b, c) {
                return false;
            }
        }
        for &a in &order[..k] {
            for &(b, c) in &self.jumps[a] {
                if (b as usize == p || c as usize == p)
                    && assigned(b)
                    && assigned(c)
                    && !check(a, b, c)
                {
                    return false;
                }
            }
        }
        true
    }

    /// The fewest prey that can immobilise `k` hunters (rules-spec §1.6), by
    /// enumerating every placement of the hunters. `None` when `k` is 0, exceeds
    /// the board, or the enumeration would exceed ten million placements.
    pub fn min_prey_to_immobilise(&self, k: usize) -> Option<u32> {
        let n = self.len();
        if k == 0 || k > n || binomial(n as u64, k as u64) > 10_000_000 {
            return None;
        }
        let mut best = u32::MAX;
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            let hunters: u64 = idx.iter().fold(0, |m, &i| m | 1 << i);
            let mut need = 0u64;
            for &h in &idx {
                need |= self.neighbours[h];
                for &(over, to) in &self.jumps[h] {
                    if hunters >> over & 1 == 0 {
                        need |= 1 << to;
                    }
                }
            }
            best = best.min((need & !hunters).count_ones());
            // next combination
            let mut i = k;
            loop {
                if i == 0 {
                    return Some(best);
                }
                i -= 1;
                if idx[i] < n - k + i {
                    idx[i] += 1;
                    for j in i + 1..k {
                        idx[j] = idx[j - 1] + 1;
                    }
                    break;
                }
            }
        }
    }

    /// A short digest of the geometry (points, names and lines), for fingerprints.
    pub fn digest(&self) -> u64 {
        let mut h = 0x6a09_e667_f3bc_c908u64;
        let mut feed = |v: u64| h = crate::random::mix64(h ^ v);
        for p in &self.points {
            feed(p.x as u64);
            feed(p.y as u64);
            for b in p.name.bytes() {
                feed(b as u64);
            }
        }
        for l in &self.lines {
            feed(0xffff);
            for &p in l {
                feed(p as u64);
            }
        }
        h
    }

    /// An ASCII drawing of the board with one character per point (`cell(id)`).
    /// Unit horizontal, vertical and diagonal edges are drawn; longer ones only
    /// when horizontal or vertical.
    pub fn draw(&self, cell: impl Fn(u8) -> char) -> String {
        let x0 = self.points.iter().map(|p| p.x).min().unwrap_or(0);
        let x1 = self.points.iter().map(|p| p.x).max().unwrap_or(0);
        let y0 = self.points.iter().map(|p| p.y).min().unwrap_or(0);
        let y1 = self.points.iter().map(|p| p.y).max().unwrap_or(0);
        let w = ((x1 - x0) * 4 + 1) as usize;
        let rows = ((y1 - y0) * 2 + 1) as usize;
        let mut grid = vec![vec![' '; w]; rows];
        let col = |x: i32| ((x - x0) * 4) as usize;
        let row = |y: i32| ((y1 - y) * 2) as usize;
        for a in 0..self.len() {
            let pa = &self.points[a];
            let mut m = self.neighbours[a];
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                let pb = &self.points[b];
                if (pb.y, pb.x) <= (pa.y, pa.x) {
                    continue;
                }
                if pa.y == pb.y {
                    let r = row(pa.y);
                    grid[r][col(pa.x) + 1..col(pb.x)].fill('-');
                } else if pa.x == pb.x {
                    let c = col(pa.x);
                    for line in &mut grid[row(pb.y) + 1..row(pa.y)] {
                        line[c] = '|';
                    }
                } else if pb.y - pa.y == 1 && (pb.x - pa.x).abs() <= 2 {
                    let r = row(pa.y) - 1;
                    let c = (col(pa.x) + col(pb.x)) / 2;
                    grid[r][c] = if pb.x > pa.x { '/' } else { '\\' };
                }
            }
        }
        for p in &self.points {
            grid[row(p.y)][col(p.x)] = cell(p.id);
        }
        let mut s = String::new();
        for (r, line) in grid.iter().enumerate() {
            let label = if r % 2 == 0 && self.algebraic {
                format!("{:>3} ", y1 - (r as i32) / 2 + 1)
            } else {
                "    ".to_string()
            };
            let text: String = line.iter().collect();
            s.push_str(&label);
            s.push_str(text.trim_end());
            s.push('\n');
        }
        if self.algebraic {
            s.push_str("    ");
            for x in x0..=x1 {
                let c = (b'a' + x as u8) as char;
                s.push(c);
                if x < x1 {
                    s.push_str("   ");
                }
            }
            s.push('\n');
        } else {
            let names: Vec<String> = self
                .points
                .iter()
                .map(|p| format!("{}={}", p.name, cell(p.id)))
                .collect();
            s.push_str(&names.join(" "));
            s.push('\n');
        }
        s
    }
}

fn strip_board(e: Error) -> String {
    match e {
        Error::Board(m) => m,
        other => other.to_string(),
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    let mut r: u64 = 1;
    for i in 0..k.min(n - k.min(n)) {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}

/// Algebraic name of a coordinate: file letter from x (`a` = 0), rank from y (`1` = 0).
/// Files stop at `w` because `x` marks captures in move notation.
pub fn algebraic_name(x: i32, y: i32) -> Option<String> {
    if !(0..23).contains(&x) || y < 0 {
        return None;
    }
    Some(format!("{}{}", (b'a' + x as u8) as char, y + 1))
}

/// Names must survive move notation: letters and digits, no `x`, not `pass`.
fn check_point_name(name: &str) -> std::result::Result<(), String> {
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric())
        || name.contains('x')
        || name == "pass"
        || name == "start"
        || name.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        return Err(format!(
            "point name '{name}' must be letters and digits, start with a letter, contain no 'x', and not be 'pass' or 'start'"
        ));
    }
    Ok(())
}

type Seg = ((i32, i32), (i32, i32));

/// Edges of a 5x5 alquerque square with its lower-left corner at (ox, oy):
/// orthogonal unit edges, and in each cell the diagonal through the corners
/// whose local x+y is even (Ludii `diagonals:Alternating`).
fn alquerque_segments(ox: i32, oy: i32) -> Vec<Seg> {
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
fn wing_segments(apex: (i32, i32), out: (i32, i32), n: i32) -> Vec<Seg> {
    let lat = (-out.1, out.0);
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

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Builds a board from drawn segments: coincident endpoints are one point, and
/// lines are the maximal chains of segments that continue in the same direction.
fn from_segments(name: &str, segs: &[Seg]) -> Result<Board> {
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

/// The Kaooa star (rules-spec §1.7), numbered as in GamesmanOne. Coordinates
/// are a rough integer drawing (tip 0 at the top, then clockwise).
fn pentagram() -> Result<Board> {
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
