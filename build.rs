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
    // Run again when the commit changes: HEAD (another branch or a detached
    // commit), the folder of the branch's loose ref (a commit writes the ref,
    // creating it when the branch was only packed) and packed-refs. Never the
    // index (any `git status` refreshes it) and never a path that does not
    // exist (cargo takes a missing path as always stale).
    let mut watch = Vec::new();
    let path_of = |f: &str| git(&["rev-parse", "--path-format=absolute", "--git-path", f]);
    watch.extend(path_of("HEAD"));
    watch.extend(path_of("packed-refs"));
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        let folder = std::path::Path::new(&branch)
            .parent()
            .and_then(|p| p.to_str())
            .and_then(path_of);
        watch.extend(folder);
    }
    for path in watch {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
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
