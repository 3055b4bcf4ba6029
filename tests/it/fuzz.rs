//! Fuzz targets on stable Rust: deterministic, seeded byte mutation (the
//! crate's own [`huntsolve::Rng`]) of a committed seed corpus
//! (`tests/data/fuzz/<target>/`) and of inputs made at test time (a kaooa
//! table set and certificate, tic-tac-toe tables), run by `cargo test` for a
//! bounded number of iterations. Every target's property: never a panic, a
//! clean `Err` for bad input, and where there is a round trip,
//! parse(format(x)) == x.
//!
//! - `FUZZ_ITERS=N` runs every target N times as long (default 1), e.g.
//!   `FUZZ_ITERS=20 cargo test --release --test it fuzz::`;
//! - `FUZZ_SEED=S` changes every target's seed (default 0), for a long run on
//!   inputs the CI never tried.
//!
//! A panic is caught per input: the input is written to
//! `$TMPDIR/huntsolve-fuzz-findings/<target>-<iteration>.bin` and the test fails
//! naming it (the panic's file:line is printed by the panic hook above it).

#[path = "fuzz_cert.rs"]
mod cert;
#[path = "fuzz_frontier.rs"]
mod frontier;
#[path = "fuzz_manifest.rs"]
mod manifest;
#[path = "fuzz_notation.rs"]
mod notation;
#[path = "fuzz_rules.rs"]
mod rules;
#[path = "fuzz_serve.rs"]
mod serve;
#[path = "fuzz_table.rs"]
mod table;

use huntsolve::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The iteration multiplier (`FUZZ_ITERS`, default 1).
pub fn factor() -> u64 {
    std::env::var("FUZZ_ITERS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
}

/// `base` iterations times [`factor`].
pub fn iters(base: u64) -> u64 {
    base * factor()
}

/// A generator for `target`, from `FUZZ_SEED` (default 0) and the target's name.
pub fn rng(target: &str) -> Rng {
    let base: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let name = target.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    Rng::new(huntsolve::mix64(base ^ name))
}

/// The committed seeds of `target`: every file of `tests/data/fuzz/<target>/`,
/// in name order.
pub fn corpus_files(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// The committed seeds of a line-oriented target: every non-empty line that is
/// not a `#` comment, of every file.
pub fn corpus_lines(target: &str) -> Vec<String> {
    corpus_files(target)
        .iter()
        .flat_map(|(_, b)| {
            String::from_utf8(b.clone())
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Bytes a mutation likes to write: boundaries of the integer types.
const INTERESTING: &[u8] = &[
    0, 1, 0x7f, 0x80, 0xff, 0xfe, b'0', b'9', b'-', b' ', b',', b'=',
];

/// Byte mutations: bit flips, random and interesting bytes, inserted and
/// removed runs, copies from elsewhere in the input or from another seed,
/// dictionary words, numbers made larger or smaller, truncation.
pub struct Mutator {
    pub rng: Rng,
    dict: Vec<Vec<u8>>,
}

impl Mutator {
    pub fn new(target: &str, dict: &[&str]) -> Mutator {
        Mutator {
            rng: rng(target),
            dict: dict.iter().map(|w| w.as_bytes().to_vec()).collect(),
        }
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.rng.below(n)
        }
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A copy of `input` with one to four mutations; `others` are other seeds
    /// to splice from.
    pub fn mutate(&mut self, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
        let mut v = input.to_vec();
        let n = if self.below(2) == 0 {
            1
        } else {
            1 + self.below(4)
        };
        for _ in 0..n {
            self.once(&mut v, others);
        }
        v
    }

    /// Mutations that keep the length (for inputs whose checksums are resealed
    /// at fixed offsets).
    pub fn overwrite(&mut self, input: &[u8], at: std::ops::Range<usize>) -> Vec<u8> {
        let mut v = input.to_vec();
        if at.is_empty() {
            return v;
        }
        for _ in 0..1 + self.below(3) {
            let i = at.start + self.below(at.len());
            match self.below(5) {
                0 => v[i] ^= 1 << self.below(8),
                1 => v[i] = self.rng.next_u64() as u8,
                2 => v[i] = *self.pick(INTERESTING),
                3 => v[i] = v[i].wrapping_add(1 + self.below(3) as u8),
                _ => v[i] = v[i].wrapping_sub(1 + self.below(3) as u8),
            }
        }
        v
    }

    fn once(&mut self, v: &mut Vec<u8>, others: &[Vec<u8>]) {
        let len = v.len();
        let at = self.below(len + 1);
        match self.below(12) {
            0 if len > 0 => v[at.min(len - 1)] ^= 1 << self.below(8),
            1 if len > 0 => v[at.min(len - 1)] = self.rng.next_u64() as u8,
            2 if len > 0 => v[at.min(len - 1)] = *self.pick(INTERESTING),
            3 => {
                let n = 1 + self.below(4);
                for _ in 0..n {
                    let b = if self.below(2) == 0 {
                        self.rng.next_u64() as u8
                    } else {
                        *self.pick(INTERESTING)
                    };
                    v.insert(at, b);
                }
            }
            4 if len > 0 => {
                let n = (1 + self.below(8)).min(len - at.min(len - 1));
                let s = at.min(len - 1);
                v.drain(s..s + n);
            }
            5 if len > 0 => {
                // a run copied from elsewhere in the input
                let s = self.below(len);
                let n = 1 + self.below((len - s).min(16));
                let run = v[s..s + n].to_vec();
                v.splice(at..at, run);
            }
            6 if !others.is_empty() => {
                // splice: our head, another seed's tail
                let o = &others[self.below(others.len())];
                let s = self.below(o.len() + 1);
                v.truncate(at);
                v.extend_from_slice(&o[s..]);
            }
            7 | 8 if !self.dict.is_empty() => {
                let k = self.below(self.dict.len());
                let w = self.dict[k].clone();
                if self.below(2) == 0 || len == 0 {
                    v.splice(at..at, w);
                } else {
                    let s = at.min(len - 1);
                    let e = (s + w.len()).min(len);
                    v.splice(s..e, w);
                }
            }
            9 => self.number(v),
            10 if len > 0 => v.truncate(self.below(len)),
            _ if len > 1 => {
                let (a, b) = (self.below(len), self.below(len));
                v.swap(a, b);
            }
            _ => v.push(self.rng.next_u64() as u8),
        }
    }

    /// Replaces a run of ASCII digits with a boundary or a neighbour of its value.
    fn number(&mut self, v: &mut Vec<u8>) {
        let starts: Vec<usize> = (0..v.len())
            .filter(|&i| v[i].is_ascii_digit() && (i == 0 || !v[i - 1].is_ascii_digit()))
            .collect();
        let text: &[u8] = match self.below(8) {
            0 => b"0",
            1 => b"4294967295",
            2 => b"4294967296",
            3 => b"18446744073709551615",
            4 => b"18446744073709551616",
            5 => b"65535",
            6 => b"-1",
            _ => b"99999999999999999999999",
        };
        let text = text.to_vec();
        if starts.is_empty() {
            let at = self.below(v.len() + 1);
            v.splice(at..at, text);
            return;
        }
        let s = *self.pick(&starts);
        let mut e = s;
        while e < v.len() && v[e].is_ascii_digit() {
            e += 1;
        }
        let text = if self.below(3) == 0 {
            // a neighbour of the number that was there
            let n: u128 = std::str::from_utf8(&v[s..e])
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            let n = if self.below(2) == 0 {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            };
            n.to_string().into_bytes()
        } else {
            text
        };
        v.splice(s..e, text);
    }

    /// A mutated copy of `text` as text (invalid UTF-8 replaced).
    pub fn mutate_text(&mut self, text: &str, others: &[Vec<u8>]) -> String {
        String::from_utf8_lossy(&self.mutate(text.as_bytes(), others)).into_owned()
    }
}

/// Runs `f` on one input; a panic saves the input and fails the test naming it.
pub fn case<R>(target: &str, iteration: u64, input: &[u8], f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let dir = std::env::temp_dir().join("huntsolve-fuzz-findings");
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join(format!("{target}-{iteration}.bin"));
            let _ = std::fs::write(&file, input);
            let shown = String::from_utf8_lossy(&input[..input.len().min(300)]).into_owned();
            panic!(
                "fuzz target {target}, iteration {iteration}: panic '{msg}' on input {shown:?} \
                 ({} bytes, saved to {})",
                input.len(),
                file.display()
            );
        }
    }
}

/// A fresh temporary directory of this process for `name`.
pub fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Kaooa solved whole into a temporary directory, once for the test binary
/// (the certificate and HTTP targets read it).
pub fn kaooa_tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| crate::common::retro::solved_whole("kaooa", "fuzz-kaooa-tables").1)
}

/// Positions of `game` from seeded random playouts (terminal ones included).
pub fn random_positions<G: huntsolve::Game>(game: &G, rng: &mut Rng, n: usize) -> Vec<G::Pos> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut pos = game.start();
        let plies = rng.below(60);
        for _ in 0..plies {
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() || game.outcome(&pos).is_some() {
                break;
            }
            pos = game.play(&pos, moves[rng.below(moves.len())]);
        }
        out.push(pos);
    }
    out
}
