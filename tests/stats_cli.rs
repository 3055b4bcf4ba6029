//! The real `huntsolve compare` / `sweep` binaries: bad input gives a clear
//! error and exit status 2, never a panic.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .output()
        .expect("run huntsolve");
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn compare_rejects_bad_input_cleanly() {
    let (code, text) = run(&["compare", "no-such-preset", "--games", "2"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("unknown preset 'no-such-preset'"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    let (code, text) = run(&["compare", "x", "--engine", "depth=zero"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("expected random, greedy, depth=D"), "{text}");
}

#[test]
fn sweep_rejects_bad_param_cleanly() {
    let (code, text) = run(&["sweep", "kaooa", "--param", "hunter_win=5..1"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("the range is empty"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
