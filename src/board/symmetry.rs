//! The symmetry group of a board: every point permutation that maps edges onto
//! edges and jump triples onto jump triples, found by backtracking search.

use super::{Board, NO_JUMP};
use crate::error::{Error, Result};

impl Board {
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

    /// Every permutation preserving edges and jump triples, identity first.
    pub(super) fn find_symmetries(&self) -> Result<Vec<Vec<u8>>> {
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
    pub(super) fn sym_search(
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
    pub(super) fn consistent(&self, p: usize, order: &[usize], k: usize, perm: &[u8]) -> bool {
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
}
