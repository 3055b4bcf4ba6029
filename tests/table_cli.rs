//! The table commands on bad input: clear errors and exit status 2, never a panic.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
