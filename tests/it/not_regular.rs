//! A FIFO (or a directory) where huntsolve reads a file is refused with exit 2 and a
//! message naming it, never opened: opening a FIFO waits for a writer that never comes.
//! Each run is killed after 20 s, so a regression fails instead of hanging.

#![cfg(unix)]

use crate::harden_cli::run_within;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-notreg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs `args` (killed after 20 s) and checks it exited on its own with 2, naming `fifo`.
fn refused(args: &[&str], fifo: &Path) {
    let (code, out, err) = run_within(args, 20);
    assert_eq!(
        code,
        Some(2),
        "{args:?} did not exit on its own with 2: {out}{err}"
    );
    assert!(
        err.contains("not a regular file (a FIFO)") && err.contains(&*fifo.to_string_lossy()),
        "{args:?}: {err}"
    );
}

#[test]
fn solve_refuses_a_fifo_as_the_directorys_lock() {
    let d = scratch("lock");
    let lock = d.join(".huntsolve.lock");
    mkfifo(&lock);
    refused(&["solve", "kaooa-6", "--out", d.to_str().unwrap()], &lock);
    assert!(is_fifo(&lock), "the FIFO was left alone");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn solve_refuses_a_fifo_named_like_a_table() {
    let d = scratch("table");
    let table = d.join("h0p0c0.hst");
    mkfifo(&table);
    refused(&["solve", "kaooa-6", "--out", d.to_str().unwrap()], &table);
    assert!(is_fifo(&table), "the FIFO was not replaced");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn check_proof_refuses_a_fifo_as_the_certificate() {
    let d = scratch("cert");
    let cert = d.join("x.cert");
    mkfifo(&cert);
    refused(&["check-proof", cert.to_str().unwrap()], &cert);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_fifo_as_a_manifest_or_a_board_file_is_refused() {
    let d = scratch("manifest");
    let manifest = d.join("jobs.toml");
    mkfifo(&manifest);
    let out = d.join("out");
    refused(
        &[
            "solve",
            manifest.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &manifest,
    );
    let board = d.join("board.txt");
    mkfifo(&board);
    let rules = format!("kaooa,board={}", board.display());
    refused(&["perft", &rules, "--depth", "1"], &board);
    std::fs::remove_dir_all(&d).unwrap();
}
