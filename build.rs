//! Records the git commit this binary is built from (`HUNTSOLVE_BUILD_COMMIT`),
//! so that a result names the build that made it even when the binary runs in
//! another checkout or outside any.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) => {
            // Reports under results/ and untracked files do not count as
            // changes to the code.
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                ":!results",
            ])
            .is_some_and(|s| !s.is_empty());
            format!("commit {c}{}", if dirty { "-dirty" } else { "" })
        }
        None => "unknown commit".to_string(),
    };
    println!("cargo:rustc-env=HUNTSOLVE_BUILD_COMMIT={commit}");
    // Run again when the commit or the code changes.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for f in ["HEAD", "index", "refs", "packed-refs"] {
            println!("cargo:rerun-if-changed={dir}/{f}");
        }
    }
    // Everything the dirty test above looks at, results/ aside.
    for p in [
        "src",
        "tests",
        "benches",
        "examples",
        "scripts",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
    ] {
        println!("cargo:rerun-if-changed={p}");
    }
}
