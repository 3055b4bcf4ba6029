//! The certificate checker validates a certificate before
//! checking it (a hand-built one must not make `check()` panic), reports only
//! what it checked, and the decoder never panics on damaged bytes.

use super::trust_rules::kaooa_certificate;
use huntsolve::prove::check;
use huntsolve::prove::{Certificate, Node};
use huntsolve::Rng;

fn none<P>(
    _: &P,
) -> huntsolve::Result<Option<(huntsolve::prove::TableRef, huntsolve::Value, u32)>> {
    Ok(None)
}

#[test]
fn hand_built_certificates_are_refused_not_panicked_on() {
    let (g, cert) = kaooa_certificate();
    let first_one = cert
        .nodes
        .iter()
        .position(|n| matches!(n, Node::One { .. }))
        .unwrap();
    let first_all = cert
        .nodes
        .iter()
        .position(|n| matches!(n, Node::All(_)))
        .unwrap();
    let n = cert.nodes.len() as u32;
    let mut cases: Vec<(&str, Certificate)> = Vec::new();
    let mut c = cert.clone();
    c.nodes.clear();
    c.header.nodes = 0;
    cases.push(("no nodes", c));
    let mut c = cert.clone();
    c.header.nodes += 1;
    cases.push(("node count", c));
    let mut c = cert.clone();
    c.header.side = 7;
    cases.push(("side", c));
    let mut c = cert.clone();
    if let Node::One { child, .. } = &mut c.nodes[first_one] {
        *child = n + 5;
    }
    cases.push(("child out of range", c));
    let mut c = cert.clone();
    c.nodes[first_all] = Node::All(vec![u32::MAX]);
    cases.push(("All child out of range", c));
    let mut c = cert.clone();
    c.nodes[first_all] = Node::All(Vec::new());
    cases.push(("All without moves", c));
    let mut c = cert.clone();
    c.nodes[first_one] = Node::Table {
        table: 3,
        value: huntsolve::Value::Win,
        distance: 1,
    };
    cases.push(("table index out of range", c));
    for (what, c) in cases {
        let e = check(&g, &c, &none).expect_err(what).to_string();
        assert!(e.contains("malformed"), "{what}: {e}");
    }
}

#[test]
fn the_report_names_what_was_checked_not_the_header_text() {
    let (g, mut cert) = kaooa_certificate();
    let side = huntsolve::Game::side_name(&g, cert.header.side as usize);
    cert.header.side_name = "prey\u{1b}[31m wins".into();
    let r = check(&g, &cert, &none).unwrap();
    assert!(r.ok());
    assert_eq!(r.side, side);
    assert!(!r.position.contains('\u{1b}'));
}

/// Re-seals the checksums of a certificate's bytes (header and file), so that
/// a mutation reaches the parser behind them.
fn reseal(bytes: &mut [u8]) {
    let hlen = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let end = bytes.len();
    if 20 + hlen <= end - 12 {
        let h = crc32fast::hash(&bytes[..16 + hlen]);
        bytes[16 + hlen..20 + hlen].copy_from_slice(&h.to_le_bytes());
    }
    let f = crc32fast::hash(&bytes[..end - 12]);
    bytes[end - 12..end - 8].copy_from_slice(&f.to_le_bytes());
}

/// Seeded random mutations of a real certificate (bytes flipped, set, cut
/// out or repeated, checksums re-sealed or not): `decode` returns an error or
/// a certificate, and `check` of what decodes returns a report or an error.
/// Never a panic.
#[test]
fn damaged_certificates_never_panic_the_decoder_or_the_checker() {
    let (g, cert) = kaooa_certificate();
    let good = cert.encode();
    let hlen = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let body = 20 + hlen..good.len() - 12;
    let mut rng = Rng::new(25);
    let (mut decoded, mut refused) = (0, 0);
    for round in 0..3000u32 {
        let mut b = good.clone();
        let edits = 1 + rng.below(4);
        for _ in 0..edits {
            // Mostly inside the node data, where the checksums hide the most.
            let at = if rng.below(4) == 0 {
                rng.below(b.len())
            } else {
                body.start + rng.below(body.end - body.start)
            };
            let at = at.min(b.len() - 1);
            match rng.below(4) {
                0 => b[at] ^= 1 << rng.below(8),
                1 => b[at] = rng.below(256) as u8,
                2 => {
                    let len = 1 + rng.below(8);
                    let stop = (at + len).min(b.len() - 12);
                    if at < stop {
                        b.drain(at..stop);
                    }
                }
                _ => {
                    let piece: Vec<u8> = b[at..(at + 1 + rng.below(8)).min(b.len())].to_vec();
                    b.splice(at..at, piece);
                }
            }
        }
        if round % 5 != 0 && b.len() >= 32 {
            reseal(&mut b);
        }
        match Certificate::decode(&b) {
            Err(_) => refused += 1,
            Ok(c) => {
                decoded += 1;
                let _ = check(&g, &c, &none);
            }
        }
    }
    // Both branches were exercised (the re-sealed mutations reach the parser).
    assert!(
        refused > 100 && decoded > 10,
        "{refused} refused, {decoded} decoded"
    );
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-certs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `X.cert` was written through `X.tmp`, overwriting and then deleting an
/// unrelated file of that name; a FIFO (or, as root, `/dev/null`) was replaced.
#[test]
fn saving_a_certificate_clobbers_nothing_and_refuses_non_regular_targets() {
    let (_, cert) = kaooa_certificate();
    let d = tmpdir("save");
    let target = d.join("x.cert");
    let unrelated = d.join("x.tmp");
    std::fs::write(&unrelated, "my notes").unwrap();
    cert.write(&target).unwrap();
    cert.write(&target).unwrap();
    assert_eq!(std::fs::read_to_string(&unrelated).unwrap(), "my notes");
    assert_eq!(Certificate::read(&target).unwrap(), cert);
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["x.cert", "x.tmp"], "no temporary file left behind");
    // A FIFO stays a FIFO; a directory stays a directory.
    let fifo = d.join("fifo.cert");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let e = cert.write(&fifo).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
    }
    let e = cert.write(&d).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The save path is checked before the proof (before: after a full proof).
#[test]
fn prove_checks_the_save_path_before_proving() {
    let t = std::time::Instant::now();
    let (code, _, err) = super::harden_cli::run_within(
        &[
            "prove",
            "bagh-chal",
            "--time",
            "30",
            "--save",
            "/nonexistent-dir/x.cert",
        ],
        20,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("error:") && err.contains("/nonexistent-dir"),
        "{err}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
}

/// A table leaf that the tables given do not cover is "could not check"
/// (exit 2, missing tables), not "does not hold" (exit 1).
#[test]
fn check_proof_without_the_leaves_tables_exits_2() {
    use super::harden_cli::run_within;
    let d = tmpdir("leaves");
    let all = d.join("all");
    let (code, _, err) = run_within(&["solve", "kaooa", "--out", all.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    let cert = d.join("c.cert");
    let (code, _, err) = run_within(
        &[
            "prove",
            "kaooa",
            "--tables",
            all.to_str().unwrap(),
            "--save",
            cert.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(code, Some(0), "{err}");
    // The start's tier is h1p7c0; give only another tier.
    let some = d.join("some");
    std::fs::create_dir_all(&some).unwrap();
    std::fs::copy(all.join("h0p0c0.hst"), some.join("h0p0c0.hst")).unwrap();
    let (code, out, err) = run_within(
        &[
            "check-proof",
            cert.to_str().unwrap(),
            "--tables",
            some.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("give --tables"), "{err}");
    let (code, out, _) = run_within(
        &[
            "check-proof",
            cert.to_str().unwrap(),
            "--tables",
            all.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A terminal leaf where the claimant has lost must be refused: without that
/// rule of the checker, a one-node certificate "the crows win" rooted at a
/// position the vulture has already won would pass.
#[test]
fn a_terminal_leaf_lost_by_the_claimant_is_refused() {
    use huntsolve::{Game, Notation, Value};
    let (g, cert) = kaooa_certificate();
    let crows = g.side_to_move(&g.start());
    // A finished game the vulture won, from seeded random play.
    let mut rng = Rng::new(7);
    let over = (0..2000)
        .find_map(|_| {
            let mut p = g.start();
            let mut moves = Vec::new();
            for _ in 0..200 {
                if let Some(v) = g.outcome(&p) {
                    let loser = if v == Value::Win {
                        1 - g.side_to_move(&p)
                    } else {
                        g.side_to_move(&p)
                    };
                    return (v != Value::Draw && loser == crows).then_some(p);
                }
                g.legal_moves(&p, &mut moves);
                let m = moves[rng.below(moves.len())];
                p = g.play(&p, m);
            }
            None
        })
        .expect("a random game the vulture wins");
    let mut c = cert.clone();
    c.header.position = g.format_position(&over);
    c.header.side = crows as u8;
    c.header.side_name = g.side_name(crows).to_string();
    c.header.nodes = 1;
    c.nodes = vec![Node::Terminal];
    let report = check(&g, &c, &none).unwrap();
    assert!(!report.ok(), "a lost terminal leaf passed: {report:?}");
    // The same leaf claimed for the winner holds.
    c.header.side = (1 - crows) as u8;
    c.header.side_name = g.side_name(1 - crows).to_string();
    assert!(check(&g, &c, &none).unwrap().ok());
}

/// A certificate names each leaf table by its file's crc32 (the trailer's). Two
/// solves of a tier write files that differ in the header (it holds the solve's
/// seconds), yet the same crc32: the header is followed by its own crc32, so
/// the running crc32 after it is CRC-32's fixed residue, whatever the header
/// holds. A certificate therefore checks against tables solved again. A table
/// of the same records in other blocks (another block size) has another
/// crc32: refused, with a hint, unless `--other-table-files`, which checks every
/// leaf's value and distance against it.
#[test]
fn check_proof_against_tables_solved_again() {
    use super::harden_cli::run_within;
    use huntsolve::table::{write_table_with, Table, WriteOptions};
    let d = tmpdir("again");
    let (a, b) = (d.join("a"), d.join("b"));
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        let args = [
            "solve",
            "kaooa",
            "--out",
            dir.to_str().unwrap(),
            "--threads",
            threads,
        ];
        let (code, _, err) = run_within(&args, 60);
        assert_eq!(code, Some(0), "{err}");
    }
    let cert = d.join("c.cert");
    // A movement position: its tier's table has several blocks of eight.
    let args = [
        "prove",
        "kaooa",
        "PPPPPPP.H./h0p0c0/p",
        "--tables",
        a.to_str().unwrap(),
        "--save",
        cert.to_str().unwrap(),
    ];
    let (code, _, err) = run_within(&args, 60);
    assert_eq!(code, Some(0), "{err}");
    let tier = "h0p0c0.hst";
    let (fa, fb) = (
        std::fs::read(a.join(tier)).unwrap(),
        std::fs::read(b.join(tier)).unwrap(),
    );
    assert_ne!(fa, fb, "two solves wrote the same header");
    assert_eq!(
        fa[fa.len() - 12..],
        fb[fb.len() - 12..],
        "the trailer crc32 differs"
    );
    let check = |dir: &std::path::Path, other: bool| {
        let mut args = vec![
            "check-proof",
            cert.to_str().unwrap(),
            "--tables",
            dir.to_str().unwrap(),
        ];
        if other {
            args.push("--other-table-files");
        }
        run_within(&args, 60)
    };
    for dir in [&a, &b] {
        let (code, out, err) = check(dir, false);
        assert_eq!(code, Some(0), "{out}{err}");
    }
    // The same records in other blocks (eight records a block).
    let t = Table::open(&b.join(tier)).unwrap();
    let recs = t.read_all().unwrap();
    let meta = t.meta().clone();
    drop(t);
    let opts = WriteOptions {
        block_records: 8,
        ..WriteOptions::default()
    };
    write_table_with(&b.join(tier), &meta, &recs, &opts).unwrap();
    let (code, out, _) = check(&b, false);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("--other-table-files"), "{out}");
    let (code, out, err) = check(&b, true);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("leaves read from table files other than"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Errors typed by concern: a damaged or malformed certificate is an
/// `Error::Certificate` (naming its file when it came from one), exit 2; one
/// that reads well but claims what does not hold is a report with problems,
/// which `check-proof` turns into a disagreement, exit 1.
#[test]
fn a_malformed_certificate_is_a_certificate_error_and_a_false_one_a_disagreement() {
    use crate::common::run;
    use huntsolve::Error;
    let (g, cert) = kaooa_certificate();
    let d = tmpdir("concern");
    // Malformed in memory: refused by the checker as a certificate.
    let mut c = cert.clone();
    c.header.nodes += 1;
    let e = check(&g, &c, &none).unwrap_err();
    assert!(matches!(e, Error::Certificate { path: None, .. }), "{e:?}");
    assert_eq!(e.exit_code(), 2);
    // Damaged on disk: the file is named, by the library and by the command.
    let damaged = d.join("damaged.proof");
    let mut bytes = cert.encode();
    let k = bytes.len() / 2;
    bytes[k] ^= 0x10;
    std::fs::write(&damaged, &bytes).unwrap();
    let e = Certificate::read(&damaged).unwrap_err();
    assert!(
        matches!(&e, Error::Certificate { path: Some(p), .. } if *p == damaged),
        "{e:?}"
    );
    assert_eq!(e.exit_code(), 2);
    let (code, out, err) = run(&["check-proof", damaged.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(&format!("certificate {}: ", damaged.display())),
        "{err}"
    );
    // Well-formed but false: the first one-move node plays another move.
    let c = crate::common::first_move_altered(&cert);
    assert!(!check(&g, &c, &none).unwrap().ok());
    let false_file = d.join("false.proof");
    c.write(&false_file).unwrap();
    let (code, out, err) = run(&["check-proof", false_file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("does NOT hold"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
