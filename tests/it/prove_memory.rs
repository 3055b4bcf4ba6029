//! `--hash` as the prover's hard memory bound at the command line: a budget too small ends a
//! run with "out of memory budget", and the certificate builder with a clear error (the
//! library's side, every charge returned, is `src/prove/tests_memory.rs`).

/// The command line: an unknown value with the reason (text and JSON), and a
/// certificate too large for the budget refused with exit status 2 (with the
/// prover before its symmetric proof table and memory budget, see `src/prove/tests_memory.rs`).
#[test]
fn prove_command_reports_out_of_memory_budget() {
    use crate::common::run;
    const OLD: [&str; 4] = ["--init", "plain", "--no-symmetry", "--no-quick-check"];
    let args =
        |a: &[&'static str]| -> Vec<&'static str> { a.iter().chain(&OLD).copied().collect() };
    let (code, out, err) = run(&args(&[
        "prove", "kaooa-6", "start", "--hash", "1", "--json",
    ]));
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["value"], "unknown");
    assert_eq!(j["runs"][0]["stopped"], "memory");
    assert_eq!(j["memory_budget_bytes"], 1 << 20);
    assert!(j["memory_budget_peak_bytes"].as_u64().unwrap() <= 1 << 20);
    let (code, out, _) = run(&args(&["prove", "kaooa-6", "start", "--hash", "1"]));
    assert_eq!(code, 0);
    assert!(out.contains("(out of memory budget)"), "{out}");
    // `query --exact` uses the default prover, whose symmetric table now holds
    // the kaooa-6 draw in 1 MiB (before the symmetric table: "stopped: out of memory budget").
    let (code, out, _) = run(&["query", "kaooa-6", "start", "--exact", "--hash", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("draw"), "{out}");
    // 3 MiB proves the draw, but its certificate does not fit beside the table.
    let dir = std::env::temp_dir().join(format!("huntsolve-prove-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("k6.proof");
    let fs = f.to_str().unwrap();
    let mut a = vec!["prove", "kaooa-6", "start", "--hash", "3", "--save", fs];
    a.extend(OLD);
    let (code, _, err) = run(&a);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("out of memory budget"), "{err}");
    assert!(!f.with_extension("proof.prey").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
