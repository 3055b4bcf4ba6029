//! The table commands on bad input: clear errors and exit status 2, never a panic.

use crate::common::run;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn missing_and_empty_directories() {
    let (code, _, err) = run(&["verify", "--tables", "/nonexistent/huntsolve"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/huntsolve"), "{err}");
    let d = tmpdir("empty");
    for cmd in ["verify", "analyze"] {
        let (code, _, err) = run(&[cmd, "--tables", d.to_str().unwrap()]);
        assert_eq!(code, 2, "{cmd}");
        assert!(err.contains("no table files"), "{cmd}: {err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn corrupt_tables_are_reported() {
    let d = tmpdir("corrupt");
    std::fs::write(
        d.join("h0p0c0.hst"),
        b"definitely not a table, just some bytes",
    )
    .unwrap();
    for cmd in ["verify", "analyze"] {
        let (code, out, err) = run(&[cmd, "--tables", d.to_str().unwrap()]);
        assert_eq!(code, 2, "{cmd}");
        assert!(out.is_empty());
        assert!(
            err.contains("h0p0c0.hst") && err.contains("bad magic"),
            "{cmd}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn query_rejects_unknown_rules() {
    let d = tmpdir("rules");
    let (code, _, err) = run(&[
        "query",
        "no-such-game",
        "start",
        "--tables",
        d.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown preset"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// The build a summary names is the commit the binary was built from, also
/// when the binary runs outside the checkout (it once read the working
/// directory's git HEAD, so an old binary run in a newer checkout named the
/// newer commit, and one run elsewhere named none).
#[test]
fn a_summary_names_the_commit_the_binary_was_built_from() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let d = tmpdir("made-by-elsewhere");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(["solve", "kaooa", "--out", "tables"])
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("tables/summary.json")).unwrap())
            .unwrap();
    let build = summary["made_by"]["build"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // What build.rs recorded when this package was built (HEAD may have moved
    // since, by a commit made while the tests ran).
    let built = env!("HUNTSOLVE_BUILD_COMMIT");
    assert!(build.starts_with(built), "{build} (built from {built})");
    if git(&["rev-parse", "--short=12", "HEAD"]).is_some() {
        // Built in a checkout: a commit is named, though the binary ran in a
        // directory that is none.
        assert!(built.starts_with("commit "), "{build}");
    } else {
        assert_eq!(built, "unknown commit");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// Real tables: solve kaooa, verify them, query the start (agreeing with the
/// solver's summary), analyze; then alter one record and verify must fail.
#[test]
fn kaooa_solve_verify_query_analyze() {
    use huntsolve::table::{table_path, write_table, Table};
    use huntsolve::{decode, encode};
    let d = tmpdir("kaooa");
    let dir = d.to_str().unwrap();
    let (code, _, err) = run(&["solve", "kaooa", "--out", dir]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["verify", "--tables", dir]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("agree with their children"), "{out}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap()).unwrap();
    // The summary names the command and the build that made it.
    let made_by = &summary["made_by"];
    let command = made_by["command"].as_str().unwrap_or_default();
    assert!(
        command.contains(" solve kaooa --out ") && command.ends_with(dir),
        "{made_by}"
    );
    assert!(
        made_by["build"]
            .as_str()
            .is_some_and(|b| b.contains(env!("CARGO_PKG_VERSION"))),
        "{made_by}"
    );
    let (code, out, err) = run(&["query", "kaooa", "start", "--tables", dir, "--json"]);
    assert_eq!(code, 0, "{err}");
    let q: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(q["value"], summary["start"]["value"]);
    assert_eq!(q["distance"], summary["start"]["distance"]);
    assert_eq!(q["best"], q["moves"][0]["move"]);

    let (code, out, _) = run(&["analyze", "--tables", dir, "--json"]);
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    let classes: u64 = summary["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["classes"].as_u64().unwrap())
        .sum();
    assert_eq!(a["positions"].as_u64().unwrap(), classes);

    // Turn one decided record of a movement tier into a draw.
    let path = table_path(&d, "h0p0c0");
    let t = Table::open(&path).unwrap();
    let mut recs = t.read_all().unwrap();
    let i = recs
        .iter()
        .position(|&r| matches!(decode(r), Some((huntsolve::Value::Win, _))))
        .unwrap();
    recs[i] = encode(huntsolve::Value::Draw, 0);
    write_table(&path, t.meta(), &recs).unwrap();
    let (code, out, err) = run(&["verify", "--tables", dir]);
    assert_eq!(code, 1, "a disagreement exits 1");
    assert!(out.contains("MISMATCH tier h0p0c0"), "{out}");
    assert!(err.contains("disagree"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
