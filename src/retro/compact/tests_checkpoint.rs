//! Resuming inside a tier solved by the compact solver: stopped at a level
//! boundary (the test hook, checkpointing at every level) and resumed from its
//! checkpoint, it gives the records of the full solver byte for byte; a
//! damaged checkpoint is ignored, one of other rules refused; the driver
//! resumes from `DIR/<tier>.compact.ckpt` and removes it.

use crate::error::{Error, TableFault};
use crate::progress::NoProgress;
use crate::retro::compact::{solve_tier_compact, solve_tier_compact_checkpointed, CompactKind};
use crate::retro::driver::{compact_checkpoint_path, load_records, plan, solve, Compact};
use crate::retro::solver::TierAt;
use crate::retro::{
    solve_tier_with, Absorb, Checkpointing, ChildValues, Scope, Solvable, SolveOptions, TierGame,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub(super) fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("huntsolve-cckpt-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tier `keep` of `scope`, its children's records, and its records by the full solver.
pub(super) fn tier_of<G: Solvable>(
    game: &G,
    scope: &Scope,
    keep: &str,
) -> (G::Tier, ChildValues<G::Tier>, Vec<u16>) {
    let plan = plan(game, scope).unwrap();
    let mut all = ChildValues::new();
    for &t in plan.waves.iter().flatten() {
        let res = solve_tier_with(game, t, &all, &NoProgress, Absorb::Hint).unwrap();
        if game.tier_name(t) == keep {
            let mut children = ChildValues::new();
            for c in game.stored_children(t) {
                children.insert_records(c, all.records(c).unwrap().clone());
            }
            return (t, children, res.records);
        }
        all.insert(t, Arc::new(res.records));
    }
    panic!("no tier {keep}");
}

fn every_level(path: &Path, stop: Option<u32>) -> Checkpointing {
    Checkpointing {
        stop_after_levels: stop,
        ..Checkpointing::new(path, Duration::ZERO)
    }
}

/// The compact solver of `t` with checkpoints as `ckpt` says.
fn checkpointed<G: Solvable>(
    game: &G,
    t: G::Tier,
    children: &ChildValues<G::Tier>,
    kind: CompactKind,
    ckpt: &Checkpointing,
) -> crate::error::Result<super::CompactTier> {
    let tier_at = TierAt {
        game,
        tier: t,
        children,
    };
    solve_tier_compact_checkpointed(tier_at, kind, &NoProgress, Some(ckpt))
}

fn mogol() -> crate::hunt::HuntGame {
    crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap()
}

/// Stops the tier after `k` levels, then resumes it; the records must be `want`.
fn stop_and_resume<G: Solvable>(
    game: &G,
    t: G::Tier,
    children: &ChildValues<G::Tier>,
    want: &[u16],
    k: u32,
    path: &Path,
    kind: CompactKind,
) {
    let _ = std::fs::remove_file(path);
    let first = checkpointed(game, t, children, kind, &every_level(path, Some(k)));
    assert!(matches!(first, Err(Error::Interrupted)), "k={k}");
    assert!(path.exists(), "k={k}: no checkpoint written");
    let second = checkpointed(game, t, children, kind, &every_level(path, None)).unwrap();
    assert_eq!(second.checkpoint.resumed_at, Some(k), "k={k}");
    assert_eq!(second.checkpoint.ignored, None, "k={k}");
    let got = second.all_records();
    assert!(
        got == want,
        "resumed after {k} levels, records differ at slot {:?}",
        got.iter().zip(want).position(|(a, b)| a != b)
    );
}

#[test]
fn resumed_compact_tiers_equal_an_uninterrupted_solve() {
    let dir = temp_dir("resume");
    let g = mogol();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let levels = solve_tier_compact(&g, t, &children, CompactKind::Counted, &NoProgress)
        .unwrap()
        .stats
        .levels;
    assert!(levels >= 4, "levels: {levels}");
    let path = dir.join("h0p0c22.compact.ckpt");
    // Right after the scan, early, in the middle, at the last level.
    for k in [0, 1, levels / 2, levels - 1] {
        for kind in [CompactKind::Counted, CompactKind::Plain] {
            stop_and_resume(&g, t, &children, &want, k, &path, kind);
        }
    }
    // A checkpoint resumed in the other kind: a counted one as plain (its
    // counters dropped), a plain one asked for counted (it stays plain).
    for (first, then) in [
        (CompactKind::Counted, CompactKind::Plain),
        (CompactKind::Plain, CompactKind::Counted),
    ] {
        let _ = std::fs::remove_file(&path);
        let stopped = checkpointed(&g, t, &children, first, &every_level(&path, Some(2)));
        assert!(matches!(stopped, Err(Error::Interrupted)));
        let res = checkpointed(&g, t, &children, then, &every_level(&path, None)).unwrap();
        assert_eq!(
            res.checkpoint.resumed_at,
            Some(2),
            "{first:?} then {then:?}"
        );
        assert!(
            res.all_records() == want,
            "{first:?} then {then:?}: records differ"
        );
    }
    // Inside the scan: after its first pass, and half-way.
    for slots in [1, g.tier_size(t) / 2] {
        let _ = std::fs::remove_file(&path);
        let stop = Checkpointing {
            stop_after_slots: Some(slots),
            ..every_level(&path, None)
        };
        let first = checkpointed(&g, t, &children, CompactKind::Counted, &stop);
        assert!(matches!(first, Err(Error::Interrupted)), "slots={slots}");
        let second = checkpointed(
            &g,
            t,
            &children,
            CompactKind::Counted,
            &every_level(&path, None),
        )
        .unwrap();
        assert_eq!(second.checkpoint.resumed_at, Some(0), "slots={slots}");
        assert_eq!(second.checkpoint.ignored, None, "slots={slots}");
        assert!(
            second.all_records() == want,
            "resumed in the scan at {slots}: records differ"
        );
    }
    // Kaooa's movement tier with the most levels: decisive, long distances.
    let k6 = crate::hunt::from_spec("kaooa").unwrap();
    let plan = plan(&k6, &Scope::Movement).unwrap();
    let (levels, name) = plan
        .waves
        .iter()
        .flatten()
        .map(|&t| {
            let name = k6.tier_name(t);
            let (t, children, _) = tier_of(&k6, &Scope::Movement, &name);
            let res =
                solve_tier_compact(&k6, t, &children, CompactKind::Counted, &NoProgress).unwrap();
            (res.stats.levels, name)
        })
        .max()
        .unwrap();
    assert!(levels >= 3, "kaooa {name}: {levels} levels");
    let (t, children, want) = tier_of(&k6, &Scope::Movement, &name);
    for k in [0, levels / 3, levels - 1] {
        for kind in [CompactKind::Counted, CompactKind::Plain] {
            stop_and_resume(&k6, t, &children, &want, k, &path, kind);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_compact_checkpoints_are_ignored_and_foreign_ones_refused() {
    let g = mogol();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let dir = temp_dir("damaged");
    let path = dir.join("h0p0c22.compact.ckpt");
    let stopped = checkpointed(
        &g,
        t,
        &children,
        CompactKind::Counted,
        &every_level(&path, Some(2)),
    );
    assert!(matches!(stopped, Err(Error::Interrupted)));
    let good = std::fs::read(&path).unwrap();
    // Compressed: well under a byte a slot (two thirds of the classes draw).
    assert!(
        (good.len() as u64) < g.tier_size(t) / 3,
        "{} bytes",
        good.len()
    );

    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut magic = good.clone();
    magic[0] ^= 0x20;
    cases.push(("magic", magic));
    let mut version = good.clone();
    version[8] ^= 0x01;
    cases.push(("version", version));
    for at in [20, good.len() / 2, good.len() - 6] {
        let mut body = good.clone();
        body[at] ^= 0x10;
        cases.push(("body", body));
    }
    cases.push(("truncated", good[..good.len() - 7].to_vec()));
    cases.push(("header only", good[..12].to_vec()));
    let mut longer = good.clone();
    longer.extend_from_slice(&[0, 1, 2, 3]);
    cases.push(("appended", longer));
    for (what, bytes) in cases {
        std::fs::write(&path, bytes).unwrap();
        let res = checkpointed(
            &g,
            t,
            &children,
            CompactKind::Counted,
            &every_level(&path, None),
        )
        .unwrap();
        assert_eq!(res.checkpoint.resumed_at, None, "{what}");
        let why = res.checkpoint.ignored.clone().unwrap_or_default();
        assert!(!why.is_empty(), "{what}: not noted as ignored");
        assert!(res.all_records() == want, "{what}: records differ");
    }

    // A checkpoint of the full solver at this path is not read as compact.
    let full = dir.join("full.ckpt");
    let _ = crate::retro::solve_tier_checkpointed(
        &g,
        t,
        &children,
        &NoProgress,
        Absorb::Hint,
        Some(&every_level(&full, Some(1))),
    );
    std::fs::copy(&full, &path).unwrap();
    let res = checkpointed(
        &g,
        t,
        &children,
        CompactKind::Counted,
        &every_level(&path, None),
    )
    .unwrap();
    assert!(res.checkpoint.ignored.unwrap_or_default().contains("magic"));

    // Of other rules: refused.
    std::fs::write(&path, &good).unwrap();
    let other = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=24").unwrap();
    let (ot, ochildren, _) = tier_of(&other, &Scope::MaxPrey(3), "h0p0c22");
    match checkpointed(
        &other,
        ot,
        &ochildren,
        CompactKind::Counted,
        &every_level(&path, None),
    ) {
        Err(Error::Table { fault, .. }) => assert_eq!(fault, TableFault::WrongRules),
        res => panic!(
            "a checkpoint of other rules was not refused: {:?}",
            res.map(|r| r.checkpoint)
        ),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_driver_resumes_a_compact_tier_and_removes_its_checkpoint() {
    let g = mogol();
    let scope = Scope::MaxPrey(3);
    let (t, children, want) = tier_of(&g, &scope, "h0p0c21");
    let dir = temp_dir("driver");
    let path = compact_checkpoint_path(&dir, "h0p0c21");
    let stopped = checkpointed(
        &g,
        t,
        &children,
        CompactKind::Counted,
        &every_level(&path, Some(2)),
    );
    assert!(matches!(stopped, Err(Error::Interrupted)));
    let opts = SolveOptions {
        threads: 1,
        checkpoint_every: Some(Duration::ZERO),
        checkpoint_min_slots: 0,
        compact: Compact::Always,
        ..Default::default()
    };
    solve(&g, &scope, &dir, &opts, &NoProgress).unwrap();
    assert_eq!(load_records(&g, &dir, t).unwrap(), want);
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".ckpt"))
        .collect();
    assert!(left.is_empty(), "checkpoints left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
