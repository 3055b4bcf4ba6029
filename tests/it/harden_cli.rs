//! On the real binary: inputs that used to crash, hang or answer silently
//! must give `error: ...` and the documented exit status (0 success, 1 a check
//! disagreed, 2 usage or input, 130 interrupted), fast.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary; `None` as the code when it had to be killed after `secs`
/// seconds (a hang: the cases here finish in well under a second when fixed).
pub fn run_within(args: &[&str], secs: u64) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.and_then(|s| s.code()), out, err)
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-harden-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn threads_beyond_the_bound_are_refused() {
    for args in [
        vec![
            "query",
            "kaooa",
            "start",
            "--threads",
            "100000",
            "--depth",
            "2",
        ],
        vec![
            "solve",
            "kaooa",
            "--threads",
            "100000",
            "--out",
            "/nonexistent/x",
        ],
        vec![
            "verify",
            "--tables",
            "/nonexistent/x",
            "--threads",
            "100000",
        ],
        vec!["compare", "kaooa", "kaooa", "--threads", "100000"],
        vec![
            "analyze",
            "--tables",
            "/nonexistent/x",
            "--by-side",
            "--threads",
            "100000",
        ],
        vec!["query", "kaooa", "start", "--threads", "0"],
    ] {
        let (code, _, err) = run_within(&args, 60);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("--threads"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_hash_larger_than_memory_is_refused_before_allocating() {
    for args in [
        vec!["play", "kaooa", "--hash", "99999999999"],
        vec!["query", "kaooa", "start", "--hash", "400000000"],
        vec!["openings", "kaooa", "--hash", "18446744073709551615"],
        vec!["bench", "--hash", "0"],
    ] {
        let (code, _, err) = run_within(&args, 60);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("--hash"), "{args:?}: {err}");
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    }
}

#[test]
fn clap_groups_refuse_conflicting_or_orphan_options() {
    let (code, _, err) = run_within(
        &["solve", "kaooa", "--max-prey", "3", "--phase", "movement"],
        60,
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot be used with"), "{err}");
    // Scope options need rules (the default batch sets its own scopes).
    let (code, _, err) = run_within(&["solve", "--max-prey", "3"], 60);
    assert_eq!(code, Some(2));
    assert!(err.contains("<TARGET>"), "{err}");
    // --max-distance only means something with --search: no longer silently ignored.
    let (code, _, err) = run_within(&["verify", "--tables", ".", "--max-distance", "4"], 60);
    assert_eq!(code, Some(2));
    assert!(err.contains("--search"), "{err}");
}

#[test]
fn json_errors_are_json() {
    let (code, out, err) = run_within(&["query", "kaooa", "nonsense", "--json"], 60);
    assert_eq!(code, Some(2), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert!(v["error"].as_str().unwrap().contains("position"), "{v}");
    assert_eq!(v["exit_code"], 2);
    assert!(err.starts_with("error: "), "{err}");
    // Without --json, stdout stays empty.
    let (code, out, _) = run_within(&["query", "kaooa", "nonsense"], 60);
    assert_eq!(code, Some(2));
    assert!(out.is_empty(), "{out}");
}

#[test]
fn ranking_tables_are_counted_before_they_are_built() {
    let d = tmpdir("index");
    let out = d.join("t");
    let out = out.to_str().unwrap();
    // C(49, h) hunter sets for h <= 12: terabytes; refused before any is built.
    for args in [
        vec![
            "solve",
            "diviyan-keliya,hunters=12",
            "--memory",
            "1K",
            "--out",
            out,
        ],
        vec!["solve", "diviyan-keliya,hunters=12", "--out", out],
        vec!["solve", "diviyan-keliya", "--memory", "1K", "--out", out],
    ] {
        let (code, _, err) = run_within(&args, 60);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("ranking tables alone need"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// An 8x8 grid board (64 points, the most a board may have), rows and columns.
fn grid64(dir: &std::path::Path) -> std::path::PathBuf {
    let files = "abcdefgh".as_bytes();
    let name = |x: usize, y: usize| format!("{}{}", files[x] as char, y + 1);
    let mut text = String::from("name grid64\n");
    for y in 0..8 {
        for x in 0..8 {
            text.push_str(&format!("point {x} {y}\n"));
        }
    }
    for y in 0..8 {
        let row: Vec<String> = (0..8).map(|x| name(x, y)).collect();
        text.push_str(&format!("line {}\n", row.join(" ")));
    }
    for x in 0..8 {
        let col: Vec<String> = (0..8).map(|y| name(x, y)).collect();
        text.push_str(&format!("line {}\n", col.join(" ")));
    }
    let path = dir.join("grid64.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn sizes_beyond_64_bits_are_an_error_not_an_overflow() {
    let d = tmpdir("grid64");
    let board = grid64(&d);
    let rules = format!("diviyan-keliya,board={},prey=30", board.display());
    let out = d.join("t");
    let (code, _, err) = run_within(&["solve", &rules, "--out", out.to_str().unwrap()], 60);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("too large"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bench_only_names_presets_of_the_suite() {
    for only in ["nosuch", "", "kaooa,nosuch", "kaooa,", "tic-tac-toe"] {
        let (code, out, err) = run_within(&["bench", "--only", only, "--depth", "1"], 60);
        assert_eq!(code, Some(2), "--only '{only}': {out}{err}");
        assert!(err.contains("not a preset of the suite"), "{err}");
    }
}

/// The output directory's lock: a live writer's lock refuses a second solve, a dead
/// writer's lock is taken over, and a killed run's temporary files are removed.
#[test]
fn one_writer_per_output_directory_and_no_debris() {
    let d = tmpdir("lock");
    let dir = d.to_str().unwrap();
    let lock = d.join(".huntsolve.lock");
    // This test's own process is alive (and is not the solver).
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    let (code, _, err) = run_within(&["solve", "kaooa-6", "--out", dir], 120);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("being written by another huntsolve"), "{err}");
    // No such process: a stale lock, taken over.
    std::fs::write(&lock, "999999999\n").unwrap();
    std::fs::write(d.join("h9p9c9.hst.tmp4242"), b"half a table").unwrap();
    std::fs::write(d.join("summary.json.tmp"), b"{").unwrap();
    std::fs::write(d.join("notes.tmp"), b"not ours").unwrap();
    std::fs::write(d.join(".split-unfinished.tmp4242"), b"h0p0c20\n").unwrap();
    std::fs::write(d.join("draft-unfinished.tmp7"), b"not ours").unwrap();
    let (code, _, err) = run_within(&["solve", "kaooa-6", "--out", dir], 120);
    assert_eq!(code, Some(0), "{err}");
    assert!(!lock.exists(), "the lock is released");
    assert!(!d.join("h9p9c9.hst.tmp4242").exists());
    assert!(!d.join("summary.json.tmp").exists());
    assert!(!d.join(".split-unfinished.tmp4242").exists());
    assert!(
        d.join("notes.tmp").exists() && d.join("draft-unfinished.tmp7").exists(),
        "only our temporaries are removed"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn smaller_silent_cases_are_errors() {
    // A depth beyond the search's limit used to be clamped silently.
    let (code, _, err) = run_within(&["query", "kaooa", "start", "--depth", "1000"], 60);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("invalid value '1000' for '--depth") && err.contains("from 1 to 120"),
        "{err}"
    );
    // A memory limit beyond 64 bits used to saturate into "no limit".
    let (code, _, err) = run_within(
        &[
            "solve",
            "kaooa-6",
            "--memory",
            "99999999999999999999G",
            "--out",
            "/nonexistent/x",
        ],
        60,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("larger than any memory"), "{err}");
}

/// An invalid UTF-8 line in a batch is one bad line, not the end of the batch.
#[test]
fn a_non_utf8_line_does_not_abort_the_batch() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(["query", "kaooa-6", "-", "--depth", "1", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = b"start\n\xff\xfe bad\n".to_vec();
    input.extend_from_slice(b"start\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Two answers, the bad line's error between them, then the batch's error.
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0]["value"].is_string() || lines[0]["score"].is_number());
    assert!(lines[1]["error"].is_string(), "{}", lines[1]);
    assert_eq!(lines[0]["best"], lines[2]["best"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 3 positions"));
}

#[test]
fn compare_out_that_is_a_file_is_refused_before_playing() {
    let file = std::env::temp_dir().join(format!("huntsolve-out-file-{}", std::process::id()));
    std::fs::write(&file, "x").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(["compare", "kaooa", "kaooa-6", "--games", "2", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is a file, not a directory"), "{err}");
    std::fs::remove_file(&file).unwrap();
}
