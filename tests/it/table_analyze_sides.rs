//! `analyze --by-side`: counts split by the side to move sum to the record-only
//! totals and match a direct count over unranked positions (tic-tac-toe tables,
//! kaooa-6 and a brandubh endgame solved here); bad input is a clean error.

use crate::common::run;
use crate::common::table::{solved_dir, write_tier, TierTtt};
use huntsolve::game::{Game, Value};
use huntsolve::retro::{load_records, solve};
use huntsolve::retro::{Scope, SolveOptions, TierGame};
use huntsolve::table::{analyze_dir, table_path, AnalyzeReport, Table};
use huntsolve::table::{analyze_dir_with, AnalyzeOptions, SideStats};
use huntsolve::NoProgress;
use huntsolve::{decode, encode, REC_NONE};
use std::path::{Path, PathBuf};

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-sides-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Per tier (in report order) and side: (positions, wins, losses, draws, max win,
/// max loss), counted slot by slot from the records and `unrank`.
fn direct_count<G: TierGame>(game: &G, dir: &Path, report: &AnalyzeReport) -> Vec<[[u64; 6]; 2]> {
    report
        .tiers
        .iter()
        .map(|t| {
            let tier = game.parse_tier(&t.tier).unwrap();
            let recs = Table::open(&table_path(dir, &t.tier))
                .unwrap()
                .read_all()
                .unwrap();
            let mut c = [[0u64; 6]; 2];
            for (i, &r) in recs.iter().enumerate() {
                let Some((v, d)) = decode(r) else { continue };
                let pos = game.unrank(tier, i as u64).unwrap();
                let s = &mut c[game.side_to_move(&pos)];
                s[0] += 1;
                match v {
                    Value::Win => {
                        s[1] += 1;
                        s[4] = s[4].max(d as u64);
                    }
                    Value::Loss => {
                        s[2] += 1;
                        s[5] = s[5].max(d as u64);
                    }
                    Value::Draw => s[3] += 1,
                }
            }
            c
        })
        .collect()
}

fn row(s: &SideStats) -> [u64; 6] {
    [
        s.positions,
        s.wins,
        s.losses,
        s.draws,
        s.max_win as u64,
        s.max_loss as u64,
    ]
}

/// Checks the split of `dir`'s report against the totals and a direct count;
/// returns the report.
fn check_split<G: TierGame>(game: &G, dir: &Path) -> AnalyzeReport {
    let opts = AnalyzeOptions {
        top: 2,
        by_side: true,
    };
    let r = analyze_dir_with(game, dir, &opts, &NoProgress).unwrap();
    let plain = analyze_dir(game, dir, 2, &NoProgress).unwrap();
    // The record-only part is unchanged by the split.
    assert_eq!(
        serde_json::to_value(&plain).unwrap()["tiers"][0]["wins"],
        serde_json::to_value(&r).unwrap()["tiers"][0]["wins"]
    );
    assert_eq!(
        (plain.positions, plain.wins, plain.losses, plain.draws),
        (r.positions, r.wins, r.losses, r.draws)
    );
    assert!(plain.by_side.is_empty() && plain.tiers.iter().all(|t| t.by_side.is_empty()));

    let direct = direct_count(game, dir, &r);
    let mut total = [[0u64; 6]; 2];
    for (t, d) in r.tiers.iter().zip(&direct) {
        assert_eq!(t.by_side.len(), 2, "tier {}", t.tier);
        for side in 0..2 {
            let s = &t.by_side[side];
            assert_eq!((s.side, s.name.as_str()), (side, game.side_name(side)));
            assert_eq!(row(s), d[side], "tier {} side {side}", t.tier);
            for k in 0..4 {
                total[side][k] += d[side][k];
            }
            for k in 4..6 {
                total[side][k] = total[side][k].max(d[side][k]);
            }
        }
        let (a, b) = (&t.by_side[0], &t.by_side[1]);
        assert_eq!(a.positions + b.positions, t.positions, "tier {}", t.tier);
        assert_eq!(a.wins + b.wins, t.wins);
        assert_eq!(a.losses + b.losses, t.losses);
        assert_eq!(a.draws + b.draws, t.draws);
        assert_eq!(a.max_win.max(b.max_win), t.max_win);
        assert_eq!(a.max_loss.max(b.max_loss), t.max_loss);
    }
    assert_eq!(r.by_side.len(), 2);
    assert_eq!([row(&r.by_side[0]), row(&r.by_side[1])], total);
    assert_eq!(r.by_side[0].positions + r.by_side[1].positions, r.positions);
    assert_eq!(r.by_side[0].wins + r.by_side[1].wins, r.wins);
    let text = r.to_text();
    assert!(text.contains("by side to move"), "{text}");
    assert!(!plain.to_text().contains("by side to move"));
    r
}

#[test]
fn tic_tac_toe_split_matches_a_direct_count() {
    let dir = solved_dir("sides-ttt");
    let g = TierTtt::default();
    let r = check_split(&g, &dir);
    // Tiers with an even number of pieces have X to move, odd ones O: the split is
    // all on one side per tier.
    for t in &r.tiers {
        let n: usize = t.tier[1..].parse().unwrap();
        assert_eq!(t.by_side[n % 2].positions, t.positions, "{}", t.tier);
        assert_eq!(t.by_side[1 - n % 2].positions, 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn record_in_an_empty_slot_is_a_clean_error() {
    let dir = solved_dir("sides-bad");
    let g = TierTtt::default();
    let mut recs = Table::open(&table_path(&dir, "p3"))
        .unwrap()
        .read_all()
        .unwrap();
    let i = recs.iter().position(|&r| r == REC_NONE).unwrap();
    recs[i] = encode(Value::Draw, 0);
    write_tier(&dir, 3, &recs);
    let opts = AnalyzeOptions {
        top: 0,
        by_side: true,
    };
    let e = analyze_dir_with(&g, &dir, &opts, &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("tier p3 slot {i}")) && e.contains("unrank gives no position"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn solve_into<G: huntsolve::retro::Solvable>(g: &G, scope: &Scope, dir: &Path) {
    let opts = SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    solve(g, scope, dir, &opts, &NoProgress).unwrap();
}

#[test]
fn kaooa_6_split_matches_a_direct_count() {
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    let dir = tmpdir("kaooa6");
    solve_into(&g, &Scope::Whole, &dir);
    let r = check_split(&g, &dir);
    // Both sides have decided positions to move in.
    assert!(r.by_side.iter().all(|s| s.wins > 0 && s.losses > 0));
    check_cli(&dir, &g);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn brandubh_endgame_split_matches_a_direct_count() {
    let g = huntsolve::tafl::from_spec("brandubh").unwrap();
    let dir = tmpdir("brandubh");
    let scope = Scope::Material {
        attackers: 2,
        defenders: 0,
    };
    solve_into(&g, &scope, &dir);
    let r = check_split(&g, &dir);
    // The same records the solver returns (the split reads the files it wrote).
    for t in &r.tiers {
        let tier = g.parse_tier(&t.tier).unwrap();
        assert_eq!(
            load_records(&g, &dir, tier).unwrap().len() as u64,
            t.records
        );
    }
    assert!(r.by_side.iter().all(|s| s.positions > 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The binary on solved tables (the CLI knows only real games, not the test's
/// tiered tic-tac-toe).
fn check_cli<G: Game>(dir: &Path, game: &G) {
    let d = dir.to_str().unwrap();
    let (code, out, err) = run(&["analyze", "--tables", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let plain: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(plain.get("by_side").is_none() && plain["tiers"][0].get("by_side").is_none());

    let args = [
        "analyze",
        "--tables",
        d,
        "--json",
        "--by-side",
        "--threads",
        "1",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Existing keys keep their values.
    for k in [
        "positions",
        "wins",
        "losses",
        "draws",
        "tiers",
        "longest_wins",
    ] {
        if k == "tiers" {
            for (x, y) in a[k]
                .as_array()
                .unwrap()
                .iter()
                .zip(plain[k].as_array().unwrap())
            {
                let mut x = x.clone();
                x.as_object_mut().unwrap().remove("by_side");
                assert_eq!(&x, y);
            }
        } else {
            assert_eq!(a[k], plain[k], "{k}");
        }
    }
    let sides = a["by_side"].as_array().unwrap();
    let sum = |k: &str| sides.iter().map(|s| s[k].as_u64().unwrap()).sum::<u64>();
    for k in ["positions", "wins", "losses", "draws"] {
        assert_eq!(sum(k), a[k].as_u64().unwrap(), "{k}");
    }
    assert_eq!(sides[0]["name"], game.side_name(0));
    assert_eq!(sides[1]["name"], game.side_name(1));

    let (code, out, err) = run(&["analyze", "--tables", d, "--by-side"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("by side to move") && out.contains("total"),
        "{out}"
    );
    // The text speaks the game's words for the sides, and counts classes as classes.
    assert_eq!(sides[0]["label"], game.side_label(0));
    for s in 0..2 {
        let label = game.side_label(s);
        assert!(
            out.lines()
                .any(|l| l.starts_with("total") && l.contains(label)),
            "{label}: {out}"
        );
    }
    if game.side_label(0) != game.side_name(0) {
        assert!(!out.contains(&format!(" {} ", game.side_name(0))), "{out}");
    }
    assert!(out.contains("classes"), "{out}");

    let (code, _, err) = run(&["analyze", "--tables", d, "--by-side", "--threads", "0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--threads") && err.contains("from 1 to"),
        "{err}"
    );

    let (code, _, err) = run(&["analyze", "--tables", "/nonexistent/huntsolve", "--by-side"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent/huntsolve") && !err.contains("panicked"),
        "{err}"
    );
}
