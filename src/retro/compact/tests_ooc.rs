//! The out-of-core solver against the full solver: the same records and
//! statistics on the differential cases (kaooa, the 37-point board with up to
//! three cows, Bagh-Chal's movement with two goats, Caikabōraḍa 2,0) in 2 and 3
//! parts; a solve killed after any part write resumes to the same records;
//! damaged files start the tier over; an unreadable part gives no table; and the
//! driver takes a tier out of core where not even the compact solver fits
//! `--memory`.

use super::ooc::{solve_tier_ooc, OocOptions};
use crate::error::Error;
use crate::progress::NoProgress;
use crate::retro::compact::tests_checkpoint::{temp_dir, tier_of};
use crate::retro::compact::{solve_tier_compact, CompactKind};
use crate::retro::driver::{load_records, plan, solve, tier_method, Compact, TierMethod};
use crate::retro::{solve_tier_with, Absorb, ChildValues, Scope, Solvable, SolveOptions, TierGame};
use std::path::Path;
use std::sync::Arc;

fn opts(dir: &Path, parts: usize, stop: Option<u64>) -> OocOptions {
    OocOptions {
        dir: dir.to_path_buf(),
        parts,
        stop_after_writes: stop,
    }
}

/// Every tier of `scope` out of core in each of `parts` against the full
/// solver; returns how many (tier, parts) solves had more than one part.
fn same_as_full<G: Solvable>(game: &G, scope: &Scope, parts: &[usize], tag: &str) -> usize {
    let dir = temp_dir(tag);
    let plan = plan(game, scope).unwrap();
    let mut all = ChildValues::new();
    let mut split = 0;
    for &t in plan.waves.iter().flatten() {
        let want = solve_tier_with(game, t, &all, &NoProgress, Absorb::Hint).unwrap();
        let mut children = ChildValues::new();
        for c in game.stored_children(t) {
            children.insert_records(c, all.records(c).unwrap().clone());
        }
        for &p in parts {
            let d = dir.join(format!("{}-{p}", game.tier_name(t)));
            let got = solve_tier_ooc(game, t, &children, &opts(&d, p, None), &NoProgress).unwrap();
            let n = game.tier_size(t) as usize;
            let recs = got.records(0..n);
            assert!(got.take_error().is_none());
            assert!(
                recs == want.records,
                "{tag} tier {} in {p} parts: records differ at slot {:?}",
                game.tier_name(t),
                recs.iter().zip(&want.records).position(|(a, b)| a != b)
            );
            // The outcomes of the full solver; the levels counted as the
            // compact solver counts them (the full one skips small tiers').
            assert_eq!(
                got.stats.outcomes,
                want.stats.outcomes,
                "{tag} {}",
                game.tier_name(t)
            );
            let compact = solve_tier_compact(game, t, &children, CompactKind::Counted, &NoProgress);
            assert_eq!(got.stats.levels, compact.unwrap().stats.levels);
            if got.report.parts > 1 {
                split += 1;
                assert!(got.report.update_bytes > 0 || got.stats.levels == 0);
            }
            got.remove_files().unwrap();
            assert!(!d.exists());
        }
        all.insert(t, Arc::new(want.records));
    }
    let _ = std::fs::remove_dir_all(&dir);
    split
}

#[test]
fn out_of_core_records_equal_the_full_solver_s() {
    let kaooa = crate::hunt::from_spec("kaooa").unwrap();
    // Kaooa's tiers are a chunk or two (4,096 slots each): mostly one part.
    same_as_full(&kaooa, &Scope::Whole, &[2, 3], "kaooa");
    let mogol = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    assert!(same_as_full(&mogol, &Scope::MaxPrey(3), &[2, 3], "mogol") > 0);
    let bagh = crate::hunt::from_spec("bagh-chal,prey=2,hunter_win=captures>=2").unwrap();
    assert!(same_as_full(&bagh, &Scope::Movement, &[3], "bagh") > 0);
    let caik = crate::tafl::from_spec("caikaboroda").unwrap();
    let scope = Scope::Material {
        attackers: 2,
        defenders: 0,
    };
    assert!(same_as_full(&caik, &scope, &[2, 3], "caik") > 0);
}

#[test]
fn a_killed_out_of_core_tier_resumes_to_the_same_records() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let n = want.len();
    let dir = temp_dir("ooc-resume");
    let whole = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    let writes = whole.report.writes;
    assert!(writes > 10, "{writes} part writes");
    whole.remove_files().unwrap();
    // In the scan, right after it, early in the passes, in the middle, at the end.
    for stop in [1, 3, 4, 5, writes / 2, writes - 1] {
        let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(stop)), &NoProgress);
        assert!(matches!(first, Err(Error::Interrupted)), "stop {stop}");
        if stop + 3 < writes {
            // Killed twice: the second run stopped too, a little later.
            let again = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(2)), &NoProgress);
            assert!(matches!(again, Err(Error::Interrupted)), "stop {stop}");
        }
        let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
        assert!(res.report.resumed, "stop {stop}");
        assert!(
            res.records(0..n) == want,
            "stopped after {stop} writes: records differ"
        );
        assert_eq!(res.stats, whole.stats, "stop {stop}");
        res.remove_files().unwrap();
    }
    // A damaged part: the tier starts over, and is right.
    let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(7)), &NoProgress);
    assert!(matches!(first, Err(Error::Interrupted)));
    let part = dir.join("part-1of3");
    let mut bytes = std::fs::read(&part).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x55;
    std::fs::write(&part, bytes).unwrap();
    let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    assert!(!res.report.resumed);
    assert!(
        res.records(0..n) == want,
        "after a damaged part: records differ"
    );
    // Another layout's files are not read: four parts start over.
    let res4 = solve_tier_ooc(&g, t, &children, &opts(&dir, 4, None), &NoProgress).unwrap();
    assert!(res4.records(0..n) == want);
    // An unreadable part gives no records, and a table written from them is refused.
    std::fs::write(dir.join("part-2of4"), b"not a part").unwrap();
    let table = dir.join("t.hst");
    let meta = crate::retro::driver::tier_meta(&g, "h0p0c22", n, &res4.stats, 0, 0.0).unwrap();
    let written = crate::table::write_table_from(&table, &meta, n, &|r| res4.records(r));
    assert!(written.is_err());
    assert!(res4.take_error().is_some());
    assert!(!table.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A decisive tier (two cows: one capture wins), killed after every write:
/// here an update applied twice would decide a slot wrongly.
#[test]
fn a_decisive_tier_killed_after_every_write_resumes_to_the_same_records() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let dir = temp_dir("ooc-resume-decisive");
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let whole = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    let writes = whole.report.writes;
    whole.remove_files().unwrap();
    for stop in 1..writes {
        let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(stop)), &NoProgress);
        assert!(matches!(first, Err(Error::Interrupted)), "stop {stop}");
        let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
        assert!(
            res.records(0..want.len()) == want,
            "h0p0c22 stopped after {stop} writes"
        );
        res.remove_files().unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Below the compact solver's need with sparse children, the driver solves
/// the largest tier out of core; its table's records equal a solve in memory,
/// and the out-of-core files are gone.
#[test]
fn the_driver_goes_out_of_core_below_the_compact_need() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let scope = Scope::MaxPrey(3);
    let p = plan(&g, &scope).unwrap();
    let t = *p
        .waves
        .iter()
        .flatten()
        .max_by_key(|&&t| g.tier_size(t))
        .unwrap();
    let sparse = crate::retro::driver::method_memory(
        &g,
        t,
        TierMethod::Compact {
            kind: CompactKind::Plain,
            sparse_children: true,
        },
    )
    .unwrap();
    let limit = sparse - 1;
    let m = tier_method(&g, t, Compact::Auto, Some(limit));
    assert!(matches!(m, TierMethod::OutOfCore { .. }), "{m:?}");
    assert!(m.to_string().contains("out of core"));
    // Just above, the compact solver takes it.
    assert!(matches!(
        tier_method(&g, t, Compact::Auto, Some(sparse)),
        TierMethod::Compact { .. }
    ));
    let dir = temp_dir("ooc-driver");
    let (a, b) = (dir.join("mem"), dir.join("ooc"));
    solve(&g, &scope, &a, &SolveOptions::default(), &NoProgress).unwrap();
    let low = SolveOptions {
        memory_limit: Some(limit),
        ..SolveOptions::default()
    };
    solve(&g, &scope, &b, &low, &NoProgress).unwrap();
    for &t in p.waves.iter().flatten() {
        assert!(load_records(&g, &a, t).unwrap() == load_records(&g, &b, t).unwrap());
    }
    assert!(!b.join(format!("{}.ooc", g.tier_name(t))).exists());
    // Never: refused as before.
    let never = SolveOptions {
        memory_limit: Some(limit),
        compact: Compact::Never,
        ..SolveOptions::default()
    };
    assert!(matches!(
        solve(&g, &scope, &dir.join("never"), &never, &NoProgress),
        Err(Error::Memory(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The update files in `dir`, by (level, producer, dest), latest last.
fn update_files(dir: &Path) -> Vec<(u32, usize, usize)> {
    let mut out: Vec<(u32, usize, usize)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let f: Vec<u64> = name
                .strip_prefix("upd-")?
                .split('-')
                .map(|x| x.parse().ok())
                .collect::<Option<_>>()?;
            Some((f[1] as u32, f[2] as usize, f[0] as usize))
        })
        .collect();
    out.sort();
    out
}

/// An interrupted tier whose update files were removed, damaged, planted or
/// named for a part that does not exist was resumed and its table written
/// with exit 0 (1,335 of 4,858 blocks wrong), or panicked: each now starts
/// the tier over, and the records are right.
#[test]
fn update_files_missing_damaged_or_planted_start_the_tier_over() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let n = want.len();
    let dir = temp_dir("ooc-updates");
    let whole = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    let writes = whole.report.writes;
    whole.remove_files().unwrap();
    for damage in ["missing", "damaged", "planted", "part 99", "list damaged"] {
        // Stopped where update files wait (the latest were made by the part
        // just written, for parts not yet past that pass: none applied yet).
        let mut stop = writes * 2 / 3;
        let (l, p, d) = loop {
            let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(stop)), &NoProgress);
            assert!(matches!(first, Err(Error::Interrupted)), "{damage}");
            if let Some(&u) = update_files(&dir).last() {
                break u;
            }
            stop += 1;
            assert!(stop < writes, "{damage}: no update file waits");
        };
        let file = dir.join(format!("upd-{d}-{l}-{p}"));
        match damage {
            "missing" => std::fs::remove_file(&file).unwrap(),
            "damaged" => {
                let mut bytes = std::fs::read(&file).unwrap();
                bytes[0] ^= 0x01;
                std::fs::write(&file, bytes).unwrap();
            }
            // A part never writes updates for itself: no list names this one.
            "planted" => {
                std::fs::copy(&file, dir.join(format!("upd-{p}-{l}-{p}"))).unwrap();
            }
            "part 99" => std::fs::write(dir.join("upd-99-0-0"), [0u8; 8]).unwrap(),
            _ => std::fs::write(
                dir.join(format!("list-{l}-{p}")),
                "huntsolve updates 2\nx\n",
            )
            .unwrap(),
        }
        let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
        assert!(!res.report.resumed, "{damage}: resumed");
        assert!(res.records(0..n) == want, "{damage}: records differ");
        res.remove_files().unwrap();
        assert!(!dir.exists(), "{damage}");
    }
    // Undamaged, the same stop resumes.
    let stop = writes * 2 / 3;
    let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(stop)), &NoProgress);
    assert!(matches!(first, Err(Error::Interrupted)));
    let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    assert!(res.report.resumed);
    assert!(res.records(0..n) == want);
    res.remove_files().unwrap();
}

/// "The tier starts over" deleted every file of DIR/<tier>.ooc, through a
/// symbolic link too; a pipe there blocked the solve; a state linked to
/// /dev/zero was read to 2 GB. A directory that is not the solver's own is
/// now refused, and only the solver's files are ever removed.
#[test]
fn a_directory_not_the_solver_s_own_is_refused() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let root = temp_dir("ooc-own");
    std::fs::create_dir_all(&root).unwrap();
    let refused = |d: &Path| {
        let r = solve_tier_ooc(&g, t, &children, &opts(d, 3, None), &NoProgress);
        assert!(
            matches!(r, Err(Error::Input { path: Some(_), .. })),
            "{}: {:?}",
            d.display(),
            r.err()
        );
    };
    // A file of another name.
    let foreign = root.join("foreign.ooc");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    refused(&foreign);
    assert!(foreign.join("notes.txt").exists());
    // A symbolic link to a directory holding other things.
    let target = root.join("elsewhere");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("keep"), "mine").unwrap();
    let link = root.join("link.ooc");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    refused(&link);
    assert!(target.join("keep").exists());
    // A state that is a link to /dev/zero, and one that is a pipe.
    let zero = root.join("zero.ooc");
    std::fs::create_dir_all(&zero).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero.join("state")).unwrap();
    refused(&zero);
    let fifo = root.join("fifo.ooc");
    std::fs::create_dir_all(&fifo).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(fifo.join("state"))
        .status();
    if made.is_ok_and(|s| s.success()) {
        refused(&fifo);
    }
    // After a solve, a file put beside the solver's stays, and so does its directory.
    let own = root.join("own.ooc");
    let res = solve_tier_ooc(&g, t, &children, &opts(&own, 3, None), &NoProgress).unwrap();
    assert!(res.records(0..want.len()) == want);
    std::fs::write(own.join("later.txt"), "mine").unwrap();
    res.remove_files().unwrap();
    assert!(own.join("later.txt").exists());
    assert!(!own.join("state").exists());
    let _ = std::fs::remove_dir_all(&root);
}

/// Records the notes a solve gives.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl crate::progress::Progress for Notes {
    fn note(&self, msg: &str) {
        self.0.lock().unwrap().push(msg.to_string());
    }
}

impl Notes {
    fn said(&self, what: &str) -> bool {
        self.0.lock().unwrap().iter().any(|n| n.contains(what))
    }
}

/// The solver's files of `dir` whose names start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    out.sort();
    out
}

/// Copies the files of `from` into `to` (emptied first).
fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// After a stop, removing the small `list-*` and `upd-*` files (they look
/// temporary beside the parts) gave a run that said "resumed" and wrote a
/// wrong table; so did one list with its one pending update file. The
/// state now names the lists that must exist: the tier starts over, says
/// why, and its records are right.
#[test]
fn lost_lists_and_update_files_start_the_tier_over() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let n = want.len();
    let dir = temp_dir("ooc-lost-lists");
    let whole = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    let writes = whole.report.writes;
    whole.remove_files().unwrap();
    let mut tried = 0;
    for all in [true, false] {
        for stop in 4..writes {
            let first = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(stop)), &NoProgress);
            assert!(matches!(first, Err(Error::Interrupted)), "stop {stop}");
            let (lists, updates) = (named(&dir, "list-"), named(&dir, "upd-"));
            if updates.is_empty() {
                let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress);
                res.unwrap().remove_files().unwrap();
                continue;
            }
            if all {
                lists
                    .iter()
                    .chain(&updates)
                    .for_each(|f| std::fs::remove_file(f).unwrap());
            } else {
                // One pending update file and its list.
                let upd = updates.last().unwrap();
                let name = upd.file_name().unwrap().to_string_lossy().into_owned();
                let f: Vec<&str> = name.split('-').collect();
                std::fs::remove_file(upd).unwrap();
                std::fs::remove_file(dir.join(format!("list-{}-{}", f[2], f[3]))).unwrap();
            }
            let notes = Notes::default();
            let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &notes).unwrap();
            assert!(
                res.records(0..n) == want,
                "all {all} stop {stop}: records differ"
            );
            assert!(!res.report.resumed, "all {all} stop {stop}: resumed");
            assert!(
                notes.said("is missing"),
                "all {all} stop {stop}: {:?}",
                notes.0
            );
            assert!(notes.said("the tier starts over"));
            assert_eq!(res.stats, whole.stats);
            res.remove_files().unwrap();
            tried += 1;
            if tried % 3 == 0 {
                break;
            }
        }
    }
    assert!(tried >= 4, "{tried} cases");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A part put back from an earlier stop, or the state of a later stop copied
/// into an earlier one, was accepted and gave a wrong table (the longest
/// distance 12 instead of 33); a part of another run of the same tier too.
/// Parts and state are now checked against each other.
#[test]
fn an_older_part_a_later_state_or_another_run_s_part_starts_the_tier_over() {
    let g = crate::hunt::from_spec("cows-leopards-mogol,hunter_win=captures>=23").unwrap();
    let (t, children, want) = tier_of(&g, &Scope::MaxPrey(3), "h0p0c22");
    let n = want.len();
    let dir = temp_dir("ooc-moments");
    let (early, other) = (dir.with_extension("early"), dir.with_extension("other"));
    let whole = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    let writes = whole.report.writes;
    whole.remove_files().unwrap();
    let check = |case: &str, why: &str| {
        let notes = Notes::default();
        let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &notes).unwrap();
        assert!(res.records(0..n) == want, "{case}: records differ");
        assert!(!res.report.resumed, "{case}: resumed");
        assert!(notes.said(why), "{case}: {:?}", notes.0);
        assert_eq!(res.stats, whole.stats, "{case}");
        res.remove_files().unwrap();
    };
    let (first, later) = (4, writes * 2 / 3);
    let stop = |k: u64| {
        let r = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, Some(k)), &NoProgress);
        assert!(matches!(r, Err(Error::Interrupted)));
    };
    // An earlier copy of part 0 put back after a later stop.
    stop(first);
    copy_dir(&dir, &early);
    stop(later - first);
    let state = std::fs::read(dir.join("state")).unwrap();
    std::fs::copy(early.join("part-0of3"), dir.join("part-0of3")).unwrap();
    check("older part", "part 0 is");
    // The state of the later stop in the files of the earlier one.
    copy_dir(&early, &dir);
    std::fs::write(dir.join("state"), state).unwrap();
    check("later state", "where the state says");
    // A part of another run of the same tier at the same moment.
    stop(later);
    copy_dir(&dir, &other);
    std::fs::remove_dir_all(&dir).unwrap();
    stop(later);
    std::fs::copy(other.join("part-1of3"), dir.join("part-1of3")).unwrap();
    check("another run's part", "part 1 is not of this run");
    // Another run's lists and update files in place of this one's.
    stop(later);
    for f in named(&dir, "list-").into_iter().chain(named(&dir, "upd-")) {
        std::fs::remove_file(f).unwrap();
    }
    for f in named(&other, "list-")
        .into_iter()
        .chain(named(&other, "upd-"))
    {
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    check("another run's lists", "of another run");
    // A state removed: the files cannot be vouched for.
    stop(later);
    std::fs::remove_file(dir.join("state")).unwrap();
    check("no state", "no state");
    // And undamaged, the same stops resume.
    stop(first);
    stop(later - first);
    let res = solve_tier_ooc(&g, t, &children, &opts(&dir, 3, None), &NoProgress).unwrap();
    assert!(res.report.resumed);
    assert!(res.records(0..n) == want);
    res.remove_files().unwrap();
    for d in [&dir, &early, &other] {
        let _ = std::fs::remove_dir_all(d);
    }
}
