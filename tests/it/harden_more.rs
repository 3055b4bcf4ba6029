//! On the real binary: long input quoted once and bounded,
//! the default batch keeps the timings of tiers it did not solve again, verify's
//! orbit accounting, analyze's orbit-weighted counts.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs the binary with `stdin` fed from a thread (so a large input cannot block
/// against a full output pipe); (exit code, stdout, stderr).
fn run_with_stdin(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut err = String::new();
    let mut errpipe = child.stderr.take().unwrap();
    let errt = std::thread::spawn(move || {
        errpipe.read_to_string(&mut err).unwrap();
        err
    });
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    (status.code(), out, errt.join().unwrap())
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    run_with_stdin(args, b"")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-more-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The bound on echoed input: 200 characters and the length note.
const ECHO_BOUND: usize = 200 + 40;

/// Every error that quotes what the user typed quotes at most its first 200
/// characters, once, with its length: a 10 MB position on stdin gives a short
/// line, not 20 MB; command-line arguments (at most 128 KiB each on Linux) too.
#[test]
fn long_input_is_echoed_once_and_bounded() {
    let huge = "x".repeat(10_000_000);
    let note = format!("({} bytes)", huge.len());
    for json in [false, true] {
        let mut args = vec!["query", "kaooa", "-", "--depth", "1"];
        if json {
            args.push("--json");
        }
        let (code, out, err) = run_with_stdin(&args, format!("{huge}\n").as_bytes());
        assert_eq!(code, Some(2), "{err}");
        assert!(
            out.len() + err.len() < 3 * ECHO_BOUND + 400,
            "{} + {} bytes",
            out.len(),
            err.len()
        );
        assert_eq!(
            out.matches(&note).count(),
            2,
            "the line and the parser's message: {out}"
        );
    }
    let arg = "y".repeat(100_000);
    let note = format!("({} bytes)", arg.len());
    let cases: Vec<Vec<String>> = vec![
        vec![
            "show".into(),
            "kaooa".into(),
            "--position".into(),
            arg.clone(),
        ],
        vec![
            "show".into(),
            "brandubh".into(),
            "--position".into(),
            arg.clone(),
        ],
        vec!["show".into(), "kaooa".into(), "--moves".into(), arg.clone()],
        vec![
            "show".into(),
            "kaooa".into(),
            "--moves".into(),
            format!("t0x{arg}"),
        ],
        vec![
            "show".into(),
            "brandubh".into(),
            "--moves".into(),
            format!("{arg}-e1"),
        ],
        vec!["show".into(), arg.clone()],
        vec!["show".into(), format!("kaooa,prey={arg}")],
        vec!["show".into(), format!("kaooa,{arg}=1")],
        vec!["show".into(), format!("brandubh,{arg}")],
        vec!["show".into(), format!("kaooa,board={arg}")],
        vec![
            "solve".into(),
            "kaooa".into(),
            "--memory".into(),
            arg.clone(),
        ],
        vec![
            "query".into(),
            "kaooa".into(),
            arg.clone(),
            "--depth".into(),
            "1".into(),
            "--json".into(),
        ],
        // Usage errors: clap's own echo of the value is shortened too.
        vec![
            "query".into(),
            "kaooa".into(),
            "start".into(),
            "--threads".into(),
            arg.clone(),
        ],
        vec![
            "query".into(),
            "kaooa".into(),
            "start".into(),
            format!("--{}", &arg[2..]),
        ],
    ];
    for case in &cases {
        let args: Vec<&str> = case.iter().map(String::as_str).collect();
        let (code, out, err) = run(&args);
        let shown: Vec<String> = case.iter().map(|a| a.chars().take(30).collect()).collect();
        assert_eq!(code, Some(2), "{shown:?}: {err}");
        let text = format!("{out}{err}");
        assert!(
            text.len() < 2 * ECHO_BOUND + 700,
            "{shown:?}: {} bytes: {}",
            text.len(),
            &text[..300]
        );
        assert!(text.matches(&note).count() >= 1, "{shown:?}: {text}");
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Rerunning a batch whose tiers are on disk keeps the timing of the run that solved
/// them (carried over from the results file it rewrites) instead of writing the
/// seconds of reading them; without that file it says "kept (not timed)"; a run
/// that solved only some tiers says so.
#[test]
fn a_rerun_batch_keeps_the_timings_of_kept_tiers() {
    let dir = tmpdir("batch");
    let manifest = dir.join("batch.toml");
    std::fs::write(
        &manifest,
        format!(
            "out = \"{}\"\nresults = \"{}\"\n[[job]]\nname = \"kaooa-6\"\nrules = \"kaooa-6\"\n",
            dir.join("tables").display(),
            dir.join("res/batch").display()
        ),
    )
    .unwrap();
    let m = manifest.to_str().unwrap();
    let job = |out: &str| json(out)[0].clone();
    let read_md = || std::fs::read_to_string(dir.join("res/batch.md")).unwrap();

    let (code, out, err) = run(&["solve", m, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let first = job(&out);
    assert_eq!(first["timing"], "this run");
    assert_eq!(first["kept"], 0);
    let secs = first["seconds"].as_f64().unwrap();
    let rate = first["slots_per_second"].as_f64().unwrap();
    assert!(secs > 0.0 && rate > 0.0);
    assert_eq!(
        json(&std::fs::read_to_string(dir.join("res/batch.json")).unwrap())[0],
        first
    );

    // Everything kept: the first run's figures, said to be an earlier run's.
    let (code, out, err) = run(&["solve", m, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let second = job(&out);
    assert_eq!(second["timing"], "earlier run");
    assert_eq!(second["kept"], first["tiers"]);
    assert_eq!(second["seconds"].as_f64(), Some(secs));
    assert_eq!(second["slots_per_second"].as_f64(), Some(rate));
    assert!(
        read_md().contains(&format!("{secs:.2} (earlier run; all tiers kept)")),
        "{}",
        read_md()
    );
    // And again: carried over from the carried-over entry.
    let (_, out, _) = run(&["solve", m, "--json"]);
    assert_eq!(job(&out)["seconds"].as_f64(), Some(secs));

    // No earlier figure: not a number that looks measured.
    std::fs::remove_file(dir.join("res/batch.json")).unwrap();
    let (code, out, err) = run(&["solve", m, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let third = job(&out);
    assert_eq!(third["timing"], "not timed");
    assert!(third["seconds"].is_null() && third["slots_per_second"].is_null());
    assert!(
        read_md().contains("| kept (not timed) | - |"),
        "{}",
        read_md()
    );

    // One tier solved again, the others kept: partial.
    let tables = dir.join("tables/kaooa-6");
    let one = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "hst"))
        .unwrap();
    std::fs::remove_file(&one).unwrap();
    let (code, out, err) = run(&["solve", m, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let fourth = job(&out);
    assert_eq!(fourth["timing"], "partial");
    assert_eq!(
        fourth["kept"].as_u64(),
        Some(first["tiers"].as_u64().unwrap() - 1)
    );
    assert!(read_md().contains("tiers kept)"), "{}", read_md());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rerun keeps no table whose block disagrees with its crc32 in the block
/// index, even when the file's own crc32 was made consistent again: the tier is
/// solved again (its file rewritten), and the table set verifies whole afterwards.
#[test]
fn a_rerun_solves_again_a_table_whose_block_checksum_disagrees() {
    let dir = tmpdir("blockcrc");
    let tables = dir.join("kaooa-6");
    let t = tables.to_str().unwrap();
    let (code, _, err) = run(&["solve", "kaooa-6", "--out", t]);
    assert_eq!(code, Some(0), "{err}");
    // The largest table: its first block, one byte changed, the file's crc32 resealed.
    let path = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hst"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let mut b = std::fs::read(&path).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let hlen = u32_at(&b, 12) as usize;
    let index = 20 + hlen;
    let block0 = u64::from_le_bytes(b[index..index + 8].try_into().unwrap()) as usize;
    let len0 = u32_at(&b, index + 8) as usize;
    b[block0 + len0 / 2] ^= 0x5a;
    let end = b.len();
    let crc = crc32fast::hash(&b[..end - 12]);
    b[end - 12..end - 8].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &b).unwrap();

    let (code, _, err) = run(&["solve", "kaooa-6", "--out", t]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        std::fs::read(&path).unwrap() != b,
        "the damaged table {} was kept",
        path.display()
    );
    let (code, _, err) = run(&["verify", "--tables", t]);
    assert_eq!(code, Some(0), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify` accounts for the orbits of every tier (kaooa: 52 tiers, 37,800
/// placements, the `positions` of `solve`) in text and JSON; `analyze --by-side`
/// weights the classes by their orbits, and the weighted totals are the
/// placements `solve` reports.
#[test]
fn verify_accounts_for_orbits_and_analyze_weights_by_them() {
    let dir = tmpdir("orbits");
    let tables = dir.join("kaooa");
    let t = tables.to_str().unwrap();
    let (code, _, err) = run(&["solve", "kaooa", "--out", t]);
    assert_eq!(code, Some(0), "{err}");
    let summary = json(&std::fs::read_to_string(tables.join("summary.json")).unwrap());
    let placements: u64 = summary["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(placements, 37_800);

    let (code, out, err) = run(&["verify", "--tables", t, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v = json(&out);
    assert_eq!(v["orbit_mismatches"], 0);
    assert_eq!(
        v["orbits_checked"].as_u64(),
        Some(v["tiers"].as_array().unwrap().len() as u64)
    );
    assert_eq!(
        v["tiers"].as_array().unwrap().len(),
        summary["tiers"].as_array().unwrap().len()
    );
    for tier in v["tiers"].as_array().unwrap() {
        assert_eq!(tier["orbits_agree"], true, "{tier}");
        assert_eq!(tier["covered"], tier["placements"]);
        let s = summary["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["tier"] == tier["tier"])
            .unwrap();
        assert_eq!(tier["placements"], s["positions"], "{tier} vs {s}");
    }
    let (code, out, err) = run(&["verify", "--tables", t]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "their orbits cover the placements of 52 of 52 tiers exactly once (37800 placements)"
        ),
        "{out}"
    );

    let (code, out, err) = run(&["analyze", "--tables", t, "--by-side", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let a = json(&out);
    let weighted: Vec<&serde_json::Value> = a["by_side"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["weighted"])
        .collect();
    let total: u64 = weighted
        .iter()
        .map(|w| w["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, placements);
    for w in &weighted {
        let parts: u64 = ["wins", "losses", "draws"]
            .iter()
            .map(|k| w[k].as_u64().unwrap())
            .sum();
        assert_eq!(parts, w["positions"].as_u64().unwrap());
    }
    // Per tier and side, the weighted count is at least the class count.
    for tier in a["tiers"].as_array().unwrap() {
        for s in tier["by_side"].as_array().unwrap() {
            assert!(
                s["weighted"]["positions"].as_u64() >= s["positions"].as_u64(),
                "{s}"
            );
        }
    }
    let (_, out, _) = run(&["analyze", "--tables", t, "--by-side"]);
    assert!(
        out.contains("by side to move, positions (each class weighted by its orbit size"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The library refuses a transposition table the machine cannot give with an
/// error instead of aborting the process (only the command line bounded --hash).
#[test]
fn search_with_an_impossible_hash_size_is_a_memory_error() {
    use huntsolve::game::{Game, NoOracle};
    use huntsolve::search::{search_fresh, SearchConfig, TransTable};
    let g = huntsolve::hunt::from_spec("kaooa").unwrap();
    let cfg = SearchConfig::depth(1);
    for mib in [usize::MAX, 1 << 40] {
        match search_fresh(&g, &g.start(), &NoOracle, &cfg, mib) {
            Err(huntsolve::Error::Memory(m)) => assert!(m.contains("MiB"), "{m}"),
            other => panic!("{mib} MiB: {:?}", other.map(|r| r.nodes)),
        }
        assert!(matches!(
            TransTable::new(mib),
            Err(huntsolve::Error::Memory(_))
        ));
    }
    assert!(search_fresh(&g, &g.start(), &NoOracle, &cfg, 1).is_ok());
}

/// `--memory` below what a plan needs names the least limit that fits, below
/// the compact solver's figure (out of core); a run at that figure either
/// solves or, once the children's records are loaded, names the exact bytes
/// it needs; and a run at those bytes solves, its tables verified whole.
#[test]
fn memory_below_the_plan_names_a_minimum_that_fits() {
    let dir = tmpdir("floor");
    let t = dir.join("dk");
    let t = t.to_str().unwrap();
    let solve = |memory: &str| {
        run(&[
            "solve",
            "diviyan-keliya",
            "--max-prey",
            "3",
            "--threads",
            "2",
            "--memory",
            memory,
            "--out",
            t,
        ])
    };
    let (code, _, err) = solve("100K");
    assert_eq!(code, Some(2), "{err}");
    let number_after = |text: &str, key: &str| -> Option<String> {
        let at = text.find(key)? + key.len();
        Some(
            text[at..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect(),
        )
    };
    let about = number_after(&err, "the least --memory that fits is about ")
        .unwrap_or_else(|| panic!("no least figure: {err}"));
    let needs = number_after(&err, "needs about ").unwrap();
    let (about, needs): (f64, f64) = (about.parse().unwrap(), needs.parse().unwrap());
    assert!(err.contains("MiB (--memory ") && about < needs, "{err}");
    let least = number_after(&err, "(--memory ").unwrap();
    let (code, _, err) = solve(&least);
    if code != Some(0) {
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("even out of core"), "{err}");
        let exact =
            number_after(&err, "(--memory ").unwrap_or_else(|| panic!("no exact figure: {err}"));
        assert!(exact.parse::<u64>().unwrap() > least.parse::<u64>().unwrap());
        let (code, _, err) = solve(&exact);
        assert_eq!(code, Some(0), "at the named {exact} bytes: {err}");
    }
    let (code, _, err) = run(&["verify", "--tables", t]);
    assert_eq!(code, Some(0), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
