//! Verification and analysis of tables: correct tables pass, altered records are
//! caught, statistics match a direct count.

use crate::common::table::{solved_dir, write_tier, TierTtt};
use huntsolve::game::Value;
use huntsolve::table::{
    analyze_dir, table_path, verify_dir, verify_dir_scoped, Table, VerifyReport, VerifyScope,
};
use huntsolve::NoProgress;
use huntsolve::{decode, encode, REC_NONE};

#[test]
fn correct_tables_verify() {
    let dir = solved_dir("verify-ok");
    let g = TierTtt::default();
    let r = verify_dir(&g, &dir, &NoProgress).unwrap();
    assert!(r.all_agree(), "{:?}", r.examples);
    assert_eq!(r.tiers.len(), 10);
    // Legal-count positions with X = O or O + 1 over all tiers.
    let expected: u64 = (0..=9u32)
        .map(|t| {
            let (nx, no) = (t.div_ceil(2), t / 2);
            // 9! / (nx! no! (9-t)!)
            let f = |n: u32| (1..=n as u64).product::<u64>();
            f(9) / (f(nx) * f(no) * f(9 - t))
        })
        .sum();
    assert_eq!(r.positions, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn altered(name: &str, tier: u8, change: impl Fn(&mut Vec<u16>)) -> huntsolve::table::VerifyReport {
    let dir = solved_dir(name);
    let g = TierTtt::default();
    let mut recs = Table::open(&table_path(&dir, &format!("p{tier}")))
        .unwrap()
        .read_all()
        .unwrap();
    change(&mut recs);
    write_tier(&dir, tier, &recs);
    let r = verify_dir(&g, &dir, &NoProgress).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    r
}

#[test]
fn altered_records_are_caught() {
    // A distance off by two (same value).
    let r = altered("verify-dist", 5, |recs| {
        let i = recs
            .iter()
            .position(|&r| matches!(decode(r), Some((Value::Win, d)) if d > 0))
            .unwrap();
        let (v, d) = decode(recs[i]).unwrap();
        recs[i] = encode(v, d + 2);
    });
    assert!(!r.all_agree());
    // The altered slot, and possibly parents in tier 4 that depend on it.
    assert!(
        r.examples.iter().any(|m| m.tier == "p5"),
        "{:?}",
        r.examples
    );

    // A draw turned into a loss.
    let r = altered("verify-draw", 6, |recs| {
        let i = recs
            .iter()
            .position(|&r| decode(r) == Some((Value::Draw, 0)))
            .unwrap();
        recs[i] = encode(Value::Loss, 3);
    });
    assert!(r.mismatches >= 1);

    // A record in an empty slot.
    let r = altered("verify-none", 2, |recs| {
        let i = recs.iter().position(|&r| r == REC_NONE).unwrap();
        recs[i] = encode(Value::Draw, 0);
    });
    assert_eq!(
        r.tiers.iter().find(|t| t.tier == "p2").unwrap().mismatches,
        1
    );
}

#[test]
fn missing_child_tables_are_an_error() {
    let dir = solved_dir("verify-missing");
    std::fs::remove_file(table_path(&dir, "p7")).unwrap();
    let e = verify_dir(&TierTtt::default(), &dir, &NoProgress)
        .unwrap_err()
        .to_string();
    // Found before any table is read (table::complete), naming the tier.
    assert!(e.contains("incomplete") && e.contains("(p7)"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analysis_counts_match_the_records() {
    let dir = solved_dir("analyze");
    let g = TierTtt::default();
    let a = analyze_dir(&g, &dir, 3, &NoProgress).unwrap();
    let mut wins = 0;
    let mut max_win = 0;
    for t in 0..=9u8 {
        let recs = Table::open(&table_path(&dir, &format!("p{t}")))
            .unwrap()
            .read_all()
            .unwrap();
        let s = &a.tiers[t as usize];
        assert_eq!(s.tier, format!("p{t}"));
        let count = |v: Value| {
            recs.iter()
                .filter(|&&r| decode(r).map(|x| x.0) == Some(v))
                .count() as u64
        };
        assert_eq!(
            (s.wins, s.losses, s.draws),
            (count(Value::Win), count(Value::Loss), count(Value::Draw))
        );
        assert_eq!(s.win_distances.iter().sum::<u64>(), s.wins);
        assert_eq!(s.loss_distances.iter().sum::<u64>(), s.losses);
        wins += s.wins;
        max_win = max_win.max(s.max_win);
    }
    assert_eq!(a.wins, wins);
    // The start is a draw, so no win lasts 9 plies; the longest wins come first.
    assert_eq!(a.longest_wins.len(), 3);
    assert_eq!(a.longest_wins[0].distance, max_win);
    assert!(a
        .longest_wins
        .windows(2)
        .all(|w| w[0].distance >= w[1].distance));
    assert!(max_win < 9);
    let text = a.to_text();
    assert!(text.contains("longest wins"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `verify_dir_scoped` on `dir` with the given scope.
fn scoped(dir: &std::path::Path, scope: &VerifyScope) -> huntsolve::Result<VerifyReport> {
    verify_dir_scoped(
        &TierTtt::default(),
        dir,
        huntsolve::table::DEFAULT_CACHE_BYTES,
        None,
        scope,
        &NoProgress,
    )
}

#[test]
fn scoped_verify_checks_named_tiers_whole_and_samples_the_rest() {
    let dir = solved_dir("verify-scoped");
    // Only two tiers, every slot.
    let only = VerifyScope {
        full: Some(vec!["p3".into(), "p7".into()]),
        sample: None,
    };
    let r = scoped(&dir, &only).unwrap();
    assert!(r.all_agree(), "{:?}", r.examples);
    let names: Vec<&str> = r.tiers.iter().map(|t| t.tier.as_str()).collect();
    assert_eq!(names, ["p3", "p7"]);
    assert!(r.tiers.iter().all(|t| t.sampled_slots.is_none()));
    let whole = verify_dir(&TierTtt::default(), &dir, &NoProgress).unwrap();
    let p3 = |r: &VerifyReport| r.tiers.iter().find(|t| t.tier == "p3").unwrap().positions;
    assert_eq!(p3(&r), p3(&whole));

    // p3 whole, the nine others sampled: 300 draws each, reproducible by seed.
    let mixed = VerifyScope {
        full: Some(vec!["p3".into()]),
        sample: Some((300, 7)),
    };
    let a = scoped(&dir, &mixed).unwrap();
    assert!(a.all_agree(), "{:?}", a.examples);
    assert_eq!(a.tiers.len(), 10);
    for t in &a.tiers {
        let expect = if t.tier == "p3" { None } else { Some(300) };
        assert_eq!(t.sampled_slots, expect, "{}", t.tier);
        assert!(t.positions <= 300 || t.tier == "p3");
    }
    let b = scoped(&dir, &mixed).unwrap();
    let counts = |r: &VerifyReport| r.tiers.iter().map(|t| t.positions).collect::<Vec<_>>();
    assert_eq!(counts(&a), counts(&b));

    // An unknown tier name is an error, not an empty check.
    let bad = VerifyScope {
        full: Some(vec!["p42".into()]),
        sample: None,
    };
    let e = scoped(&dir, &bad).unwrap_err().to_string();
    assert!(e.contains("p42"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sample_catches_a_widespread_alteration() {
    // Every drawn tier-6 record turned into a loss in 3: a sample of 200 must see it,
    // and the altered tier is the one reported.
    let dir = solved_dir("verify-sample-bad");
    let mut recs = Table::open(&table_path(&dir, "p6"))
        .unwrap()
        .read_all()
        .unwrap();
    let mut changed = 0;
    for r in recs.iter_mut().filter(|r| **r != REC_NONE) {
        if decode(*r) != Some((Value::Loss, 3)) {
            *r = encode(Value::Loss, 3);
            changed += 1;
        }
    }
    assert!(changed > 100);
    write_tier(&dir, 6, &recs);
    let scope = VerifyScope {
        full: None,
        sample: Some((200, 1)),
    };
    let r = scoped(&dir, &scope).unwrap();
    assert!(!r.all_agree());
    assert!(r.tiers.iter().find(|t| t.tier == "p6").unwrap().mismatches > 0);
    assert!(
        r.examples.iter().any(|m| m.tier == "p6"),
        "{:?}",
        r.examples
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
