//! Fuzz targets `frontier` and `ooc`: the state a run leaves on disk for the
//! next one to resume from.
//! - `frontier`: kaooa's frontier run (both goal sides, depth 3) writes
//!   `frontier-state.txt` and `certs/`; a copy is damaged (the state's JSON
//!   changed as a value or as bytes, checksum resealed or not; a certificate
//!   damaged, resealed, swapped for another or removed) and the run resumed
//!   from it: never a panic, and a run that succeeds gives the true outcome
//!   (the crows win, the vulture does not) with a certificate that holds.
//! - `ooc`: a solve forced out of core by a small memory limit is stopped
//!   part-way (a progress callback that panics: in process, deterministic),
//!   one of the files of its `<tier>.ooc` directory is damaged, and the solve
//!   run again: never a panic, and either an error or tables equal to an
//!   in-memory solve.

use super::{case, corpus_files, iters, tmpdir, Mutator};
use huntsolve::hunt::HuntGame;
use huntsolve::prove::{frontier, FrontierConfig, RunOutcome, TableDirs, STATE_FILE};
use huntsolve::retro::{solve, Scope, SolveOptions};
use huntsolve::{NoProgress, Progress};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const DICT: &[&str] = &[
    "\"proven\"",
    "\"disproven\"",
    "\"unknown\"",
    "null",
    "0",
    "1",
    "4294967295",
    "\"",
    ",",
    "{",
    "}",
    "[",
    "]",
    "HSFRONTIER 1 ",
];

/// Every file under `dir`, relative, in name order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    for f in files(from) {
        let t = to.join(&f);
        std::fs::create_dir_all(t.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&f), t).unwrap();
    }
}

/// A state file with its checksum line recomputed over `body`.
fn sealed_state(body: &[u8]) -> Vec<u8> {
    let mut out = format!("HSFRONTIER 1 {:08x}\n", crc32fast::hash(body)).into_bytes();
    out.extend_from_slice(body);
    out
}

/// One change to the state document as a value.
fn mutate_state(m: &mut Mutator, doc: &mut Json, certs: &[String]) {
    let Some(entries) = doc["entries"].as_array_mut() else {
        return;
    };
    if entries.is_empty() {
        return;
    }
    let k = m.below(entries.len());
    let e = &mut entries[k];
    match m.below(9) {
        0 | 1 => {
            e["outcome"] = Json::from(*m.pick(&["proven", "disproven", "unknown"]));
        }
        2 => {
            let s = e["side"].as_u64().unwrap_or(0);
            e["side"] = Json::from(*m.pick(&[s ^ 1, 2, 255]));
        }
        3 => {
            e["certificate"] = if m.below(3) == 0 || certs.is_empty() {
                Json::Null
            } else if m.below(2) == 0 {
                Json::from("../../frontier-state.txt")
            } else {
                Json::from(m.pick(certs).clone())
            };
        }
        4 => {
            let key = e["key"].as_str().unwrap_or("").to_string();
            e["key"] = Json::from(format!(
                "{:016x}",
                u64::from_str_radix(&key, 16).unwrap_or(0) ^ 1
            ));
        }
        5 => {
            for f in ["tries", "nodes", "pn", "dn", "limit"] {
                if m.below(2) == 0 {
                    e[f] = Json::from(*m.pick(&[0u64, 1, u32::MAX as u64, u64::MAX]));
                }
            }
        }
        6 => {
            // another entry's position under this entry's key
            let j = m.below(entries.len());
            let p = entries[j]["position"].clone();
            entries[k]["position"] = p;
        }
        7 => {
            let j = m.below(entries.len());
            let dup = entries[j].clone();
            entries.push(dup);
        }
        _ => {
            entries.remove(k);
        }
    }
}

/// Truth of kaooa from the start: the crows (side 1) win.
fn true_outcome(side: usize) -> RunOutcome {
    if side == 1 {
        RunOutcome::Proven
    } else {
        RunOutcome::Disproven
    }
}

fn config(out: &Path) -> FrontierConfig {
    FrontierConfig {
        depth: 3,
        hash_mib: 16,
        out: Some(out.to_path_buf()),
        ..Default::default()
    }
}

#[test]
fn fuzz_frontier_state() {
    let g: HuntGame = huntsolve::hunt::from_spec("kaooa").unwrap();
    let none = TableDirs::open(&g, &[]).unwrap();
    let base = tmpdir("frontier-base");
    for side in [1, 0] {
        let r = frontier(&g, &none, side, &config(&base), &NoProgress).unwrap();
        assert_eq!(r.outcome, true_outcome(side));
    }
    let state = std::fs::read(base.join(STATE_FILE)).unwrap();
    let nl = state.iter().position(|&b| b == b'\n').unwrap();
    let body: Json = serde_json::from_slice(&state[nl + 1..]).unwrap();
    let certs: Vec<String> = files(&base.join("certs"))
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    // Committed seeds: state documents (JSON bodies) of the same run, resealed here.
    let mut bodies: Vec<Vec<u8>> = vec![state[nl + 1..].to_vec()];
    bodies.extend(corpus_files("frontier").into_iter().map(|(_, b)| b));
    let work = tmpdir("frontier-work");
    let mut m = Mutator::new("frontier", DICT);
    for i in 0..iters(80) {
        copy_dir(&base, &work);
        let kind = m.below(6);
        let damaged: (PathBuf, Vec<u8>) = match kind {
            0 | 1 => {
                let mut doc = if m.below(3) == 0 {
                    serde_json::from_slice(m.pick(&bodies).as_slice()).unwrap_or(body.clone())
                } else {
                    body.clone()
                };
                for _ in 0..1 + m.below(3) {
                    mutate_state(&mut m, &mut doc, &certs);
                }
                let b = serde_json::to_vec_pretty(&doc).unwrap();
                (work.join(STATE_FILE), sealed_state(&b))
            }
            2 => {
                let b = m.mutate(&state[nl + 1..], &bodies);
                let reseal = m.below(4) != 0;
                (
                    work.join(STATE_FILE),
                    if reseal {
                        sealed_state(&b)
                    } else {
                        let mut s = state[..=nl].to_vec();
                        s.extend_from_slice(&b);
                        s
                    },
                )
            }
            _ if certs.is_empty() => continue,
            3 => {
                let c = m.pick(&certs).clone();
                let bytes = std::fs::read(base.join("certs").join(&c)).unwrap();
                let mut b = m.mutate(&bytes, &[]);
                if m.below(2) == 0 {
                    super::cert::reseal(&mut b);
                }
                (work.join("certs").join(c), b)
            }
            4 => {
                // one certificate in place of another
                let (a, b) = (m.pick(&certs).clone(), m.pick(&certs).clone());
                let bytes = std::fs::read(base.join("certs").join(&b)).unwrap();
                (work.join("certs").join(a), bytes)
            }
            _ => {
                let c = m.pick(&certs).clone();
                std::fs::remove_file(work.join("certs").join(&c)).unwrap();
                (work.join("certs").join(c), Vec::new())
            }
        };
        if kind != 5 {
            std::fs::write(&damaged.0, &damaged.1).unwrap();
        }
        let side = m.below(2);
        case("frontier", i, &damaged.1, || {
            if let Ok(r) = frontier(&g, &none, side, &config(&work), &NoProgress) {
                assert!(
                    r.outcome == true_outcome(side) || r.outcome == RunOutcome::Unknown,
                    "side {side}: {:?} from a damaged {}",
                    r.outcome,
                    damaged.0.display()
                );
                if let Some(c) = &r.certificate {
                    assert_eq!(c.holds, Some(true));
                }
            }
        });
    }
    let _ = std::fs::remove_dir_all(&base);
    let _ = std::fs::remove_dir_all(&work);
}

/// A progress that panics at its `at`-th callback: a solve stopped part-way.
struct Bomb {
    calls: AtomicU64,
    at: u64,
}

impl Bomb {
    fn tick(&self) {
        if self.calls.fetch_add(1, Ordering::SeqCst) == self.at {
            panic!("fuzz: the solve is stopped here");
        }
    }
}

impl Progress for Bomb {
    fn stage(&self, _: &str, _: u64) {
        self.tick()
    }
    fn advance(&self, _: u64) {
        self.tick()
    }
    fn message(&self, _: &str) {
        self.tick()
    }
}

/// The rules, scope and memory limit of a small solve that goes out of core
/// (as `out_of_core.rs` does through the command line).
const OOC_RULES: &str = "cows-leopards-mogol,hunter_win=captures>=23";
const OOC_SCOPE: Scope = Scope::MaxPrey(3);
const OOC_MEMORY: u64 = 2300 << 10;

fn ooc_solve(g: &HuntGame, dir: &Path, progress: &dyn Progress) -> huntsolve::Result<()> {
    let opts = SolveOptions {
        threads: 1,
        memory_limit: Some(OOC_MEMORY),
        checkpoint_every: None,
        ..Default::default()
    };
    solve(g, &OOC_SCOPE, dir, &opts, progress).map(|_| ())
}

/// Every table's records in `dir`, by file name.
fn tables_of(dir: &Path) -> Vec<(String, Vec<u16>)> {
    let mut out: Vec<(String, Vec<u16>)> = huntsolve::table::list_tiers(dir)
        .unwrap()
        .into_iter()
        .map(|t| {
            let p = huntsolve::table::table_path(dir, &t);
            (
                t,
                huntsolve::table::Table::open(&p)
                    .unwrap()
                    .read_all()
                    .unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn fuzz_out_of_core_files() {
    let g: HuntGame = huntsolve::hunt::from_spec(OOC_RULES).unwrap();
    let mem = tmpdir("ooc-mem");
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(&g, &OOC_SCOPE, &mem, &opts, &NoProgress).unwrap();
    let expected = tables_of(&mem);
    // How many callbacks a whole out-of-core solve makes.
    let count = Bomb {
        calls: AtomicU64::new(0),
        at: u64::MAX,
    };
    let full = tmpdir("ooc-full");
    ooc_solve(&g, &full, &count).unwrap();
    assert_eq!(
        tables_of(&full),
        expected,
        "out of core differs from in memory"
    );
    let calls = count.calls.load(Ordering::SeqCst);
    let mut m = Mutator::new(
        "ooc",
        &[
            "huntsolve out-of-core 2\n",
            "slots ",
            "parts ",
            "from ",
            "levels ",
            "pass ",
            "-",
        ],
    );
    let work = tmpdir("ooc-work");
    let mut damaged_runs = 0;
    for i in 0..iters(4) {
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let bomb = Bomb {
            calls: AtomicU64::new(0),
            at: 1 + m.rng.next_u64() % calls.max(1),
        };
        let stopped =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ooc_solve(&g, &work, &bomb)));
        // The out-of-core directories the stopped run left, and their files.
        let ooc: Vec<PathBuf> = files(&work)
            .into_iter()
            .filter(|f| f.components().count() == 2 && f.to_str().unwrap().contains(".ooc/"))
            .collect();
        let (target, bytes) = if ooc.is_empty() || stopped.is_ok() {
            (None, Vec::new())
        } else {
            let f = work.join(m.pick(&ooc));
            let old = std::fs::read(&f).unwrap();
            let new = match m.below(4) {
                0 => Vec::new(),
                1 => old[..m.below(old.len() + 1)].to_vec(),
                _ => m.mutate(&old, &[]),
            };
            std::fs::write(&f, &new).unwrap();
            damaged_runs += 1;
            (Some(f), new)
        };
        case("ooc", i, &bytes, || {
            if ooc_solve(&g, &work, &NoProgress).is_ok() {
                assert!(
                    tables_of(&work) == expected,
                    "resumed from a damaged {target:?}, the tables differ from an in-memory solve"
                );
            }
        });
    }
    assert!(
        damaged_runs > 0,
        "no run was stopped inside the out-of-core tier"
    );
    for d in [mem, full, work] {
        let _ = std::fs::remove_dir_all(d);
    }
}
