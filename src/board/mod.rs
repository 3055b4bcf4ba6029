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
//! - `M_k` (docs/rules.md §1.6): the fewest prey that can immobilise `k` hunters.
//!
//! Point ids follow docs/rules.md §1.0: sorted by y, then x, bottom row first.
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

mod builtin;
mod diagram;
mod parse;
mod symmetry;

pub use builtin::BUILTIN;
pub(crate) use parse::algebraic_name;
pub use parse::MAX_BOARD_FILE;

use crate::error::{Error, Result};

/// Largest number of points a hunt board may have (positions are `u64` bitboards).
/// Largest number of points a hunt board may have (positions are `u64` bitboards).
pub(crate) const MAX_POINTS: usize = 64;

/// Marker in `Board::jump_to` for "no jump".
pub(crate) const NO_JUMP: u8 = u8::MAX;

/// One point of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    /// Id (index into `Board::points`).
    pub id: u8,
    /// Horizontal coordinate (grows to the right).
    pub x: i32,
    /// Vertical coordinate (grows upwards).
    pub y: i32,
    /// Name used in move notation (`e5`, `t0`).
    pub name: String,
}

/// A hunt-game board with its derived tables. Build it with `Board::builtin`,
/// [`Board::parse`] or [`Board::from_file`].
#[derive(Clone, Debug)]
pub struct Board {
    /// Board name (built-in name, or the `name` of a board file).
    pub(crate) name: String,
    /// Points, indexed by id.
    pub(crate) points: Vec<Point>,
    /// Lines as sequences of point ids.
    pub(crate) lines: Vec<Vec<u8>>,
    /// Neighbour mask per point.
    pub(crate) neighbours: Vec<u64>,
    /// Jumps per point: `(over, to)` pairs.
    pub(crate) jumps: Vec<Vec<(u8, u8)>>,
    /// Point permutations that preserve lines; the identity first. `perm[i]` is the image of point i.
    pub(crate) symmetries: Vec<Vec<u8>>,
    /// `jump_to[from][over]`: landing point, or [`NO_JUMP`].
    pub(crate) jump_to: Vec<[u8; MAX_POINTS]>,
    /// Mask of points that can be jumped over from each point.
    pub(crate) jump_over: Vec<u64>,
    /// The centre point (used by `first_drop=centre`), if the board has one.
    pub(crate) centre: Option<u8>,
    /// Whether point names are algebraic (derived from coordinates).
    pub(crate) algebraic: bool,
}

impl Board {
    /// Number of points.
    pub(crate) fn len(&self) -> usize {
        self.points.len()
    }

    /// Point permutations that preserve lines; the identity first. `perm[i]` is the image of point i.
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// Mask with one bit per point.
    pub(crate) fn all_mask(&self) -> u64 {
        if self.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.len()) - 1
        }
    }

    /// Number of (undirected) edges: each edge sets one bit in the neighbour
    /// masks of both its ends.
    #[cfg(test)]
    pub(crate) fn edge_count(&self) -> usize {
        self.neighbours
            .iter()
            .map(|m| m.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// The id of the point with this name.
    pub(crate) fn point_by_name(&self, name: &str) -> Option<u8> {
        self.points.iter().find(|p| p.name == name).map(|p| p.id)
    }

    /// Name of a point id.
    pub(crate) fn name_of(&self, id: u8) -> &str {
        &self.points[id as usize].name
    }

    /// Builds a board from points (ids must be 0..n in order) and lines, deriving
    /// edges, jumps and symmetries. `centre: None` picks the point at the centre
    /// of the bounding box, if there is one.
    pub(crate) fn new(
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
        };
        board.symmetries = board.find_symmetries()?;
        Ok(board)
    }

    /// The fewest prey that can immobilise `k` hunters (docs/rules.md §1.6), by
    /// enumerating every placement of the hunters. `None` when `k` is 0, exceeds
    /// the board, or the enumeration would exceed ten million placements.
    pub(crate) fn min_prey_to_immobilise(&self, k: usize) -> Option<u32> {
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
    pub(crate) fn digest(&self) -> u64 {
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
}

fn binomial(n: u64, k: u64) -> u64 {
    let mut r: u64 = 1;
    for i in 0..k.min(n - k.min(n)) {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_harden;
