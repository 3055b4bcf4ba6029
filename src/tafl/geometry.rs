//! Grid geometry for tafl boards: cells, neighbours, ray masks, special cells,
//! symmetries and Zobrist keys. Knows nothing of the rules.
//!
//! Cell index `i = x + y * n` (x = file a.., y = rank 1..), bit `i` of a `u128`.

use crate::random::keys;

/// No cell (off the board, or a captured king).
pub(crate) const NONE: u8 = 255;

/// Direction order: east (+x), north (+y), west (-x), south (-y). East and north
/// increase the cell index, west and south decrease it.
pub(crate) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Precomputed tables for an `n`×`n` grid.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Side length (7 or 9).
    pub n: usize,
    /// Number of cells.
    pub cells: usize,
    /// `nb[c][d]`: neighbour of `c` in direction `d`, or [`NONE`].
    pub nb: Vec<[u8; 4]>,
    /// `ray[c][d]`: cells strictly beyond `c` in direction `d` up to the edge.
    pub ray: Vec<[u128; 4]>,
    /// Every cell of the board.
    pub all: u128,
    /// The central throne.
    pub throne: u8,
    /// Throne bit.
    pub throne_bit: u128,
    /// The four neighbours of the throne.
    pub beside_throne: u128,
    /// The four corners.
    pub corners: u128,
    /// Every edge cell (corners included).
    pub edge: u128,
    /// Cells not on file a (targets of an eastward shift).
    pub not_first_file: u128,
    /// Cells not on the last file (targets of a westward shift).
    pub not_last_file: u128,
    /// The 8 symmetries as cell permutations (`sym[s][c]` = image of `c`), identity first.
    pub sym: Vec<Vec<u8>>,
    /// Zobrist keys: attacker, defender, king per cell, then side to move.
    pub z_att: Vec<u64>,
    /// Defender man keys.
    pub z_def: Vec<u64>,
    /// King keys.
    pub z_king: Vec<u64>,
    /// XORed in when the attackers are to move.
    pub z_att_to_move: u64,
}

/// Fixed Zobrist seed: hashes are stable across runs and builds.
const ZOBRIST_SEED: u64 = 0x7a71_5eed_0000_0003;

impl Geometry {
    /// Builds the tables for an `n`×`n` grid (`n` odd, 3..=11).
    pub(crate) fn new(n: usize) -> Geometry {
        debug_assert!(n % 2 == 1 && (3..=11).contains(&n));
        let cells = n * n;
        let idx = |x: i32, y: i32| -> Option<usize> {
            (x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n)
                .then(|| x as usize + y as usize * n)
        };
        let mut nb = vec![[NONE; 4]; cells];
        let mut ray = vec![[0u128; 4]; cells];
        for c in 0..cells {
            let (x, y) = ((c % n) as i32, (c / n) as i32);
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                if let Some(q) = idx(x + dx, y + dy) {
                    nb[c][d] = q as u8;
                }
                let mut k = 1;
                while let Some(q) = idx(x + dx * k, y + dy * k) {
                    ray[c][d] |= 1u128 << q;
                    k += 1;
                }
            }
        }
        let all = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mid = (n / 2) as i32;
        let throne = idx(mid, mid).unwrap_or(0) as u8;
        let beside_throne = nb[throne as usize]
            .iter()
            .fold(0u128, |m, &q| m | (1u128 << q));
        let m = n as i32 - 1;
        let corners = [(0, 0), (m, 0), (0, m), (m, m)]
            .iter()
            .fold(0u128, |acc, &(x, y)| acc | 1u128 << idx(x, y).unwrap_or(0));
        let mut edge = 0u128;
        for c in 0..cells {
            let (x, y) = ((c % n) as i32, (c / n) as i32);
            if x == 0 || y == 0 || x == m || y == m {
                edge |= 1u128 << c;
            }
        }
        let mut first_file = 0u128;
        for y in 0..n {
            first_file |= 1u128 << (y * n);
        }
        let last_file = first_file << (n - 1);
        // The 8 maps of the square: (x, y) -> each combination of swap and reflections.
        let mut sym = Vec::with_capacity(8);
        for s in 0..8 {
            let perm: Vec<u8> = (0..cells)
                .map(|c| {
                    let (mut x, mut y) = ((c % n) as i32, (c / n) as i32);
                    if s & 4 != 0 {
                        std::mem::swap(&mut x, &mut y);
                    }
                    if s & 1 != 0 {
                        x = m - x;
                    }
                    if s & 2 != 0 {
                        y = m - y;
                    }
                    idx(x, y).unwrap_or(0) as u8
                })
                .collect();
            sym.push(perm);
        }
        let z = keys(ZOBRIST_SEED ^ n as u64, 3 * cells + 1);
        Geometry {
            n,
            cells,
            nb,
            ray,
            all,
            throne,
            throne_bit: 1u128 << throne,
            beside_throne,
            corners,
            edge,
            not_first_file: all & !first_file,
            not_last_file: all & !last_file,
            sym,
            z_att: z[..cells].to_vec(),
            z_def: z[cells..2 * cells].to_vec(),
            z_king: z[2 * cells..3 * cells].to_vec(),
            z_att_to_move: z[3 * cells],
        }
    }

    /// Algebraic name of a cell (`e5`).
    pub(crate) fn cell_name(&self, c: u8) -> String {
        let c = c as usize;
        format!("{}{}", (b'a' + (c % self.n) as u8) as char, c / self.n + 1)
    }

    /// Parses an algebraic cell name.
    pub(crate) fn parse_cell(&self, s: &str) -> Option<u8> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let x = (f as u8 - b'a') as usize;
        let y: usize = chars.as_str().parse().ok()?;
        (x < self.n && y >= 1 && y <= self.n).then(|| (x + (y - 1) * self.n) as u8)
    }

    /// Cells whose west neighbour is in `b`.
    #[inline]
    pub(crate) fn east(&self, b: u128) -> u128 {
        (b << 1) & self.not_first_file
    }
    /// Cells whose east neighbour is in `b`.
    #[inline]
    pub(crate) fn west(&self, b: u128) -> u128 {
        (b >> 1) & self.not_last_file
    }
    /// Cells whose south neighbour is in `b`.
    #[inline]
    pub(crate) fn north(&self, b: u128) -> u128 {
        (b << self.n) & self.all
    }
    /// Cells whose north neighbour is in `b`.
    #[inline]
    pub(crate) fn south(&self, b: u128) -> u128 {
        b >> self.n
    }
    /// Orthogonal neighbours of the cells of `b`.
    #[inline]
    pub(crate) fn grow(&self, b: u128) -> u128 {
        self.east(b) | self.west(b) | self.north(b) | self.south(b)
    }

    /// Applies a cell permutation to a bitboard.
    pub(crate) fn map_bits(&self, s: usize, mut bits: u128) -> u128 {
        let mut out = 0u128;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= 1u128 << self.sym[s][c];
        }
        out
    }
}
