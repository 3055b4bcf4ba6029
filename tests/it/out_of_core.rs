//! `solve` below the compact solver's need goes out of core: the plan
//! line says so, the tables and their census equal an in-memory solve, the
//! out-of-core files are gone; `--compact never` still refuses.

use crate::common::run;

const RULES: &str = "cows-leopards-mogol,hunter_win=captures>=23";

#[test]
fn solve_goes_out_of_core_below_the_compact_need_with_the_same_tables() {
    let d = std::env::temp_dir().join(format!("huntsolve-it-ooc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let (mem, ooc) = (d.join("mem"), d.join("ooc"));
    let (code, _, err) = run(&[
        "solve",
        RULES,
        "--max-prey",
        "3",
        "--out",
        mem.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // The 3-cow tier needs about 2.4 MiB with the plain compact solver and
    // its children sparse; 2300K is below that and above 5 parts out of core.
    let low = ["--max-prey", "3", "--memory", "2300K"];
    let mut args = vec!["solve", RULES];
    args.extend_from_slice(&low);
    args.extend_from_slice(&["--out", ooc.to_str().unwrap()]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("largest tier h0p0c21") && all.contains("out of core"),
        "{all}"
    );
    for tier in ["h0p0c21", "h0p0c22"] {
        let recs = |p: &std::path::Path| {
            huntsolve::table::Table::open(p)
                .unwrap()
                .read_all()
                .unwrap()
        };
        assert!(
            recs(&mem.join(format!("{tier}.hst"))) == recs(&ooc.join(format!("{tier}.hst"))),
            "{tier}"
        );
        assert!(!ooc.join(format!("{tier}.ooc")).exists());
    }
    // The census in summary.json: the same outcomes per tier.
    let census = |dir: &std::path::Path| {
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap())
                .unwrap();
        let tiers = s["tiers"].as_array().unwrap().clone();
        tiers
            .iter()
            .map(|t| {
                (
                    t["tier"].clone(),
                    t["wins"].clone(),
                    t["losses"].clone(),
                    t["draws"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let c = census(&mem);
    assert_eq!(c.len(), 2);
    assert!(c.iter().all(|x| x.1.as_u64().is_some()), "{c:?}");
    assert_eq!(c, census(&ooc));
    let mut never = vec!["solve", RULES, "--compact", "never"];
    never.extend_from_slice(&low);
    let nd = d.join("never");
    never.extend_from_slice(&["--out", nd.to_str().unwrap()]);
    let (code, _, err) = run(&never);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not enough memory"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--memory` bounds the solvers' arrays, not the process: a solve whose plan fits
/// a tiny limit still runs, and its summary says that the process's peak passed
/// the limit (once a silent 154 MB under `--memory 20M`); with room to spare it
/// gives the peak beside the limit, and `--json` carries the peak.
#[test]
fn the_summary_says_when_the_peak_passed_the_memory_limit() {
    let d = std::env::temp_dir().join(format!("huntsolve-it-peak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let out = d.to_str().unwrap();
    let (code, text, err) = run(&["solve", "kaooa", "--memory", "2M", "--out", out]);
    assert_eq!(code, 0, "{err}");
    let line = text
        .lines()
        .find(|l| l.starts_with("memory: peak "))
        .unwrap_or_default();
    assert!(
        line.contains("over the --memory limit of 2.0 MiB"),
        "{text}"
    );
    let (code, text, err) = run(&["solve", "kaooa", "--memory", "8G", "--out", out]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("(limit 8.0 GiB)\n"), "{text}");
    assert!(!text.contains("over the --memory limit"), "{text}");
    let (code, json, err) = run(&["solve", "kaooa", "--out", out, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let peak = v["peak_memory_bytes"].as_u64().unwrap();
    assert!(peak > 1 << 20, "{json}");
    let _ = std::fs::remove_dir_all(&d);
}
