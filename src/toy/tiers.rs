//! Tic-tac-toe as a [`TierGame`]: the solver's first test bed.
//!
//! Tier = number of marks on the board (0..=9); every move adds a mark, so
//! every move leaves its tier and the tiers form a chain 0 → 1 → … → 9.
//! Index: the cells in base 3 (0 empty, 1 X, 2 O) of the smallest image under
//! the 8 symmetries of the square; other slots are empty.

use crate::error::{Error, Result};
use crate::tier::TierGame;
use crate::toy::{TicTacToe, TttPos};

/// The 8 symmetries of the 3×3 square as cell permutations (`P[s][i]` is the image of cell i).
const PERMS: [[u8; 9]; 8] = {
    let mut out = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 9 {
            let (r, c) = ((i / 3) as i32, (i % 3) as i32);
            // rotate s % 4 quarter turns, then mirror when s >= 4
            let (mut rr, mut cc) = (r, c);
            let mut k = 0;
            while k < s % 4 {
                let t = rr;
                rr = cc;
                cc = 2 - t;
                k += 1;
            }
            if s >= 4 {
                cc = 2 - cc;
            }
            out[s][i] = (rr * 3 + cc) as u8;
            i += 1;
        }
        s += 1;
    }
    out
};

fn map(pos: &TttPos, s: usize) -> TttPos {
    let mut p = TttPos::default();
    for (i, &j) in PERMS[s].iter().enumerate() {
        if pos.x & (1 << i) != 0 {
            p.x |= 1 << j;
        }
        if pos.o & (1 << i) != 0 {
            p.o |= 1 << j;
        }
    }
    p
}

fn code(pos: &TttPos) -> u64 {
    let mut c = 0u64;
    for i in (0..9).rev() {
        c = c * 3
            + if pos.x & (1 << i) != 0 {
                1
            } else if pos.o & (1 << i) != 0 {
                2
            } else {
                0
            };
    }
    c
}

impl TierGame for TicTacToe {
    type Tier = u8;

    fn tier_of(&self, pos: &TttPos) -> u8 {
        (pos.x | pos.o).count_ones() as u8
    }
    fn tier_name(&self, tier: u8) -> String {
        format!("m{tier}")
    }
    fn parse_tier(&self, name: &str) -> Result<u8> {
        name.strip_prefix('m')
            .and_then(|s| s.parse::<u8>().ok())
            .filter(|&t| t <= 9)
            .ok_or_else(|| Error::Usage(format!("'{name}' is not a tic-tac-toe tier (m0..m9)")))
    }
    fn tier_children(&self, tier: u8) -> Vec<u8> {
        if tier < 9 {
            vec![tier + 1]
        } else {
            Vec::new()
        }
    }
    fn tier_size(&self, _tier: u8) -> u64 {
        19683
    }
    fn rank(&self, _tier: u8, pos: &TttPos) -> u64 {
        (0..8).map(|s| code(&map(pos, s))).min().unwrap_or(0)
    }
    fn unrank(&self, tier: u8, index: u64) -> Option<TttPos> {
        let mut p = TttPos::default();
        let mut c = index;
        for i in 0..9 {
            match c % 3 {
                1 => p.x |= 1 << i,
                2 => p.o |= 1 << i,
                _ => {}
            }
            c /= 3;
        }
        let (nx, no) = (p.x.count_ones(), p.o.count_ones());
        let ok = c == 0
            && nx + no == tier as u32
            && (nx == no || nx == no + 1)
            && self.rank(tier, &p) == index;
        ok.then_some(p)
    }
    fn orbit_size(&self, pos: &TttPos) -> Option<u64> {
        Some(crate::tier::distinct_images(8, |s| {
            let q = map(pos, s);
            (q.x, q.o)
        }))
    }
    fn unmoves(&self, _pos: &TttPos, out: &mut Vec<TttPos>) {
        // Every move adds a mark: no predecessor lies in the same tier.
        out.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perms_are_the_square_group() {
        let mut seen = std::collections::BTreeSet::new();
        for p in PERMS {
            let mut sorted = p;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            assert_eq!(p[4], 4, "the centre is fixed");
            seen.insert(p);
        }
        assert_eq!(seen.len(), 8);
    }
}
