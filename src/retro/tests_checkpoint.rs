//! Resuming inside a tier: a solve stopped at a level boundary (by the
//! solver's test hook, checkpointing at every level) and resumed from its
//! checkpoint gives the records of an uninterrupted solve, byte for byte; a
//! damaged or truncated checkpoint is ignored (the tier is solved from the
//! start), one of other rules is refused. No global stop flag: the tests of
//! this binary run in parallel.

use crate::error::{Error, TableFault};
use crate::game::Game;
use crate::progress::NoProgress;
use crate::retro::driver::{checkpoint_path, load_records, plan, solve};
use crate::retro::{
    solve_tier_checkpointed, solve_tier_with, Absorb, Checkpointing, ChildValues, Scope, Solvable,
    SolveOptions, TierGame,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("huntsolve-ckpt-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every tier of `scope` solved in memory, children first, with the children
/// each tier needs: `(tier, children, records)`.
type Solved<T> = Vec<(T, ChildValues<T>, Vec<u16>, u32)>;

fn solve_all<G: Solvable>(game: &G, scope: &Scope, keep: &[&str], mode: Absorb) -> Solved<G::Tier> {
    let plan = plan(game, scope).unwrap();
    let mut all = ChildValues::new();
    let mut out = Vec::new();
    for &t in plan.waves.iter().flatten() {
        let res = solve_tier_with(game, t, &all, &NoProgress, mode).unwrap();
        if keep.contains(&game.tier_name(t).as_str()) {
            let mut children = ChildValues::new();
            for c in game.stored_children(t) {
                children.insert_records(c, all.records(c).unwrap().clone());
            }
            out.push((t, children, res.records.clone(), res.stats.levels));
        }
        all.insert(t, Arc::new(res.records));
    }
    out
}

fn every_level(path: &Path, stop: Option<u32>) -> Checkpointing {
    Checkpointing {
        stop_after_levels: stop,
        ..Checkpointing::new(path, Duration::ZERO)
    }
}

/// Stops `tier` after `k` levels, then resumes it; the records must equal `want`.
fn stop_and_resume<G: Solvable>(
    game: &G,
    t: G::Tier,
    children: &ChildValues<G::Tier>,
    want: &[u16],
    k: u32,
    path: &Path,
    mode: Absorb,
) {
    let _ = std::fs::remove_file(path);
    let name = game.tier_name(t);
    let first = solve_tier_checkpointed(
        game,
        t,
        children,
        &NoProgress,
        mode,
        Some(&every_level(path, Some(k))),
    );
    assert!(
        matches!(first, Err(Error::Interrupted)),
        "{name} k={k}: {first:?}"
    );
    assert!(path.exists(), "{name} k={k}: no checkpoint written");
    let second = solve_tier_checkpointed(
        game,
        t,
        children,
        &NoProgress,
        mode,
        Some(&every_level(path, None)),
    )
    .unwrap();
    assert_eq!(second.checkpoint.resumed_at, Some(k), "{name} k={k}");
    assert_eq!(second.checkpoint.ignored, None, "{name} k={k}");
    assert!(
        second.records == want,
        "{name}: resumed after {k} levels, records differ at slot {:?}",
        second.records.iter().zip(want).position(|(a, b)| a != b)
    );
}

fn check_tiers<G: Solvable>(game: &G, solved: &Solved<G::Tier>, tag: &str, mode: Absorb) {
    let dir = temp_dir(tag);
    for (t, children, want, levels) in solved {
        assert!(*levels >= 2, "{}: too few levels", game.tier_name(*t));
        let path = dir.join(format!("{}.ckpt", game.tier_name(*t)));
        // Right after the scan, early, in the middle, at the last level.
        for k in [0, 1, levels / 2, levels - 1] {
            stop_and_resume(game, *t, children, want, k, &path, mode);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resumed_movement_tier_equals_an_uninterrupted_solve() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let solved = solve_all(&g, &Scope::MaxPrey(3), &["h0p0c21"], Absorb::Hint);
    assert_eq!(solved.len(), 1);
    assert!(solved[0].3 >= 4, "levels: {}", solved[0].3);
    // With the tests' tiny list budget the tier spills slots into the words,
    // which a resumed run finds there again.
    let (t, children, _, _) = &solved[0];
    let res = solve_tier_with(&g, *t, children, &NoProgress, Absorb::Hint).unwrap();
    assert!(
        res.lists.spilled > 0 && res.lists.split_levels > 0,
        "{:?}",
        res.lists
    );
    check_tiers(&g, &solved, "mogol", Absorb::Hint);
}

#[test]
fn resumed_placement_tiers_equal_an_uninterrupted_solve() {
    // Tigers dropped too, goats drop first: placement tiers of both sides, with
    // absorption (their first-sweep slots are never propagated).
    let g = crate::hunt::from_spec("bagh-chal,prey=3,hunter_win=captures>=2").unwrap();
    let plan = plan(&g, &Scope::Whole).unwrap();
    let names: Vec<String> = plan
        .waves
        .iter()
        .flatten()
        .map(|&t| g.tier_name(t))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // With the hint, a placement tier is decided by its scan alone (its in-tier
    // children are all absorbed: no level to checkpoint at); without it, the
    // same records come from propagation, which is what is checkpointed here.
    let mut solved = solve_all(&g, &Scope::Whole, &names, Absorb::Never);
    // The placement tiers with the most levels.
    let seen: Vec<(String, u32)> = solved
        .iter()
        .filter(|x| g.tier_has_moveless_slots(x.0))
        .map(|x| (g.tier_name(x.0), x.3))
        .collect();
    solved.retain(|x| g.tier_has_moveless_slots(x.0) && x.3 >= 2);
    solved.sort_by_key(|x| std::cmp::Reverse(x.3));
    solved.truncate(3);
    assert!(
        !solved.is_empty(),
        "no placement tier with levels: {seen:?}"
    );
    check_tiers(&g, &solved, "bagh", Absorb::Never);
}

#[test]
fn damaged_checkpoints_are_ignored_and_foreign_ones_refused() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let solved = solve_all(&g, &Scope::MaxPrey(3), &["h0p0c22"], Absorb::Hint);
    let (t, children, want, levels) = &solved[0];
    let dir = temp_dir("damaged");
    let path = dir.join("h0p0c22.ckpt");
    let k = levels / 2;
    let stopped = solve_tier_checkpointed(
        &g,
        *t,
        children,
        &NoProgress,
        Absorb::Hint,
        Some(&every_level(&path, Some(k))),
    );
    assert!(matches!(stopped, Err(Error::Interrupted)));
    let good = std::fs::read(&path).unwrap();
    assert!(
        good.len() as u64 > 4 * g.tier_size(*t),
        "the words are in the checkpoint"
    );

    // Damaged: a byte flipped in the header, one in the words, the file cut
    // short, a byte appended. Each is ignored: a fresh solve, same records.
    let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
    let mut magic = good.clone();
    magic[0] ^= 0x20;
    cases.push(("magic", magic, "magic"));
    let mut words = good.clone();
    let mid = good.len() - 4 * (g.tier_size(*t) as usize) / 2;
    words[mid] ^= 0x01;
    cases.push(("word", words, "checksum"));
    cases.push(("truncated", good[..good.len() - 1000].to_vec(), "truncated"));
    cases.push(("header only", good[..40].to_vec(), "truncated"));
    let mut longer = good.clone();
    longer.push(0);
    cases.push(("appended", longer, "after the checksum"));
    for (what, bytes, says) in cases {
        std::fs::write(&path, bytes).unwrap();
        let res = solve_tier_checkpointed(
            &g,
            *t,
            children,
            &NoProgress,
            Absorb::Hint,
            Some(&every_level(&path, None)),
        )
        .unwrap();
        assert_eq!(res.checkpoint.resumed_at, None, "{what}");
        let why = res.checkpoint.ignored.unwrap_or_default();
        assert!(why.contains(says), "{what}: {why}");
        assert!(res.records == *want, "{what}: records differ");
    }

    // The good one again resumes.
    std::fs::write(&path, &good).unwrap();
    stop_and_resume(&g, *t, children, want, k, &path, Absorb::Hint);

    // Of other rules (another hunter_win): refused, whatever the tier.
    std::fs::write(&path, &good).unwrap();
    let other = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=24").unwrap();
    assert_ne!(other.rules_string(), g.rules_string());
    let ot = other.parse_tier("h0p0c22").unwrap();
    let oplan = solve_all(&other, &Scope::MaxPrey(3), &["h0p0c22"], Absorb::Hint);
    let refused = solve_tier_checkpointed(
        &other,
        ot,
        &oplan[0].1,
        &NoProgress,
        Absorb::Hint,
        Some(&every_level(&path, None)),
    );
    match refused {
        Err(Error::Table { fault, reason, .. }) => {
            assert_eq!(fault, TableFault::WrongRules);
            assert!(reason.contains("hunter_win=23"), "{reason}");
        }
        other => panic!("a checkpoint of other rules was not refused: {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_driver_resumes_from_a_checkpoint_and_removes_it() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let scope = Scope::MaxPrey(3);
    let solved = solve_all(&g, &scope, &["h0p0c21"], Absorb::Hint);
    let (t, children, want, levels) = &solved[0];
    let dir = temp_dir("driver");
    let path = checkpoint_path(&dir, "h0p0c21");
    let stopped = solve_tier_checkpointed(
        &g,
        *t,
        children,
        &NoProgress,
        Absorb::Hint,
        Some(&every_level(&path, Some(levels / 2))),
    );
    assert!(matches!(stopped, Err(Error::Interrupted)));
    // A checkpoint write killed before its rename leaves a temporary file.
    let debris = dir.join("h0p0c21.ckpt.tmp99999");
    std::fs::write(&debris, b"half").unwrap();
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        checkpoint_every: Some(Duration::ZERO),
        checkpoint_min_slots: 0,
        ..Default::default()
    };
    let report = solve(&g, &scope, &dir, &opts, &NoProgress).unwrap();
    assert_eq!(report.resumed, 0);
    assert_eq!(load_records(&g, &dir, *t).unwrap(), *want);
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".ckpt"))
        .collect();
    assert!(left.is_empty(), "checkpoints left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
