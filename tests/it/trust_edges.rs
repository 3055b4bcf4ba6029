//! `--json` usage errors are JSON, a failing check prints
//! one JSON document, `prove`/`openings` refuse a `--tables` directory without
//! tables (as `query` does), and a games file whose last record lacks its
//! newline is not glued to the next record on a rerun.

use super::harden_cli::run_within;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-edges-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn json_usage_errors_are_json_documents() {
    for args in [
        &[
            "query",
            "kaooa",
            "start",
            "--tables",
            "x",
            "--json",
            "--threads",
            "0",
        ][..],
        &["prove", "kaooa", "--json", "--no-such-option"][..],
        &["verify", "--json", "--tables", "x", "--search", "0"][..],
    ] {
        let (code, out, err) = run_within(args, 20);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let v: serde_json::Value =
            serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert_eq!(v["exit_code"], 2, "{out}");
        assert!(!v["error"].as_str().unwrap().is_empty(), "{out}");
        assert!(err.contains("error:"), "{err}");
    }
    // --help is not an error.
    let (code, out, _) = run_within(&["prove", "--json", "--help"], 20);
    assert_eq!(code, Some(0));
    assert!(!out.trim_start().starts_with('{'), "{out}");
}

#[test]
fn a_failing_check_proof_json_prints_one_document() {
    let (_, mut cert) = super::trust_rules::kaooa_certificate();
    cert.header.kind = huntsolve::prove::Kind::NoWin;
    let d = tmpdir("onedoc");
    let f = d.join("bad.cert");
    std::fs::write(&f, cert.encode()).unwrap();
    let (code, out, err) = run_within(&["check-proof", f.to_str().unwrap(), "--json"], 60);
    assert_eq!(code, Some(1), "{out}{err}");
    let docs: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&out)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(docs.len(), 1, "{out}");
    assert!(docs[0]["problems"].as_u64().unwrap() > 0, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn prove_and_openings_refuse_a_tables_directory_without_tables() {
    let d = tmpdir("empty");
    for args in [
        vec!["prove", "kaooa", "--tables", d.to_str().unwrap()],
        vec![
            "openings",
            "kaooa",
            "--depth",
            "1",
            "--tables",
            d.to_str().unwrap(),
            "--out",
            d.to_str().unwrap(),
        ],
    ] {
        let (code, _, err) = run_within(&args, 60);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("no table files"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_games_file_without_its_last_newline_is_not_glued_on_rerun() {
    let d = tmpdir("games");
    let out = d.to_str().unwrap();
    let compare = |games: &str| {
        let (code, _, err) = run_within(
            &[
                "compare", "kaooa", "--games", games, "--engine", "random", "--out", out,
            ],
            60,
        );
        assert_eq!(code, Some(0), "--games {games}: {err}");
    };
    compare("2");
    let file = d.join("games-kaooa.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.trim_end_matches('\n')).unwrap();
    compare("4");
    compare("6");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `query -` cleared its 64 MiB search table for every line, about 10 ms a
/// position even when the tables answer; it now clears it only before a search.
#[test]
fn query_from_stdin_answered_by_tables_does_not_clear_the_search_table_per_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let d = tmpdir("stdin");
    let t = d.join("kaooa");
    let (code, _, err) = run_within(&["solve", "kaooa", "--out", t.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    let lines = 2000;
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args([
            "query",
            "kaooa",
            "-",
            "--tables",
            t.to_str().unwrap(),
            "--json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for _ in 0..lines {
            stdin.write_all(b"start\n").unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"value\""))
        .count();
    assert_eq!(answers, lines);
    // Before: about 20 s (10 ms a line); now well under a second on an idle machine.
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// "win in 15" said not for whom.
#[test]
fn query_says_whose_win_it_is() {
    let d = tmpdir("whose");
    let t = d.join("kaooa");
    let (code, _, err) = run_within(&["solve", "kaooa", "--out", t.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run_within(
        &["query", "kaooa", "start", "--tables", t.to_str().unwrap()],
        60,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("value    win in 15 (for crows, to move)"),
        "{out}"
    );
    assert!(out.contains("values for crows, who plays them"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A one-job manifest (kaooa) in `d`, its tables under `d/tables` and its
/// results file `d/tracked/batch`: the tracked summary a batch must leave alone.
fn kaooa_manifest(d: &std::path::Path) -> std::path::PathBuf {
    let manifest = d.join("batch.toml");
    std::fs::write(
        &manifest,
        format!(
            "out = \"{}\"\nresults = \"{}\"\n[[job]]\nname = \"kaooa\"\nrules = \"kaooa\"\n",
            d.join("tables").display(),
            d.join("tracked/batch").display()
        ),
    )
    .unwrap();
    manifest
}

/// `solve` of a manifest with `--out DIR` rewrote the manifest's results
/// file (for the default batch: the tracked results/default-batch.*).
#[test]
fn a_batch_with_out_writes_its_results_summary_under_out() {
    let d = tmpdir("batch-out");
    let manifest = kaooa_manifest(&d);
    let out = d.join("mine");
    let (code, _, err) = run_within(
        &[
            "solve",
            manifest.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        120,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.join("batch.json").is_file() && out.join("batch.md").is_file());
    assert!(out.join("kaooa").join("summary.json").is_file());
    assert!(
        !d.join("tracked").exists(),
        "the manifest's results file is untouched"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The README's main job (`solve` with no argument, the embedded default
/// batch) rewrote the tracked results/default-batch.{json,md}: its summary
/// now goes to the git-ignored tables/ folder, and to results/ only when
/// `--results` asks.
#[test]
fn the_default_batch_leaves_tracked_files_alone() {
    let m = huntsolve::retro::Manifest::parse(huntsolve::retro::DEFAULT_MANIFEST).unwrap();
    let base = m.results.expect("the default batch writes a summary");
    assert_eq!(base, std::path::Path::new("tables/default-batch"));
    let ignore =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.gitignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l == "/tables"),
        "tables/ is git-ignored"
    );
    // --results writes the summary where it says (a manifest's own, --out's ignored).
    let d = tmpdir("batch-results");
    let manifest = kaooa_manifest(&d);
    let asked = d.join("asked/summary");
    let (code, out, err) = run_within(
        &[
            "solve",
            manifest.to_str().unwrap(),
            "--results",
            asked.to_str().unwrap(),
        ],
        120,
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(asked.with_extension("json").is_file() && asked.with_extension("md").is_file());
    assert!(
        out.contains(&format!(
            "results written to {}",
            asked.with_extension("json").display()
        )),
        "{out}"
    );
    assert!(
        !d.join("tracked").exists(),
        "the manifest's results file is untouched"
    );
    // A single solve has no batch summary to move.
    let (code, _, err) = run_within(
        &["solve", "kaooa", "--results", asked.to_str().unwrap()],
        60,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--results names a manifest's summary"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `prove kaooa --side crows` was refused (only hunter/prey).
#[test]
fn sides_go_by_their_traditional_names_too() {
    use huntsolve::game::side_by_name;
    let kaooa = huntsolve::hunt::from_spec("kaooa").unwrap();
    for (name, side) in [
        ("hunter", 0),
        ("vulture", 0),
        ("Vultures", 0),
        ("prey", 1),
        ("crows", 1),
        ("crow", 1),
        ("1", 1),
    ] {
        assert_eq!(side_by_name(&kaooa, name), Some(side), "{name}");
    }
    // Another game's words are refused (tigers and goats are Bagh-Chal's).
    assert_eq!(side_by_name(&kaooa, "tigers"), None);
    assert_eq!(side_by_name(&kaooa, "goats"), None);
    let mogol = huntsolve::hunt::from_spec("cows-leopards-mogol").unwrap();
    assert_eq!(side_by_name(&mogol, "tigers"), None);
    assert_eq!(side_by_name(&mogol, "leopard"), Some(0));
    assert_eq!(side_by_name(&mogol, "cow"), Some(1));
    assert_eq!(side_by_name(&kaooa, "attackers"), None);
    assert_eq!(side_by_name(&kaooa, "2"), None);
    let tafl = huntsolve::tafl::from_spec("brandubh").unwrap();
    assert_eq!(side_by_name(&tafl, "defenders"), Some(1));
    assert_eq!(side_by_name(&tafl, "crows"), None);
    let (code, out, err) = run_within(&["prove", "kaooa", "--side", "crows"], 60);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("run: crows win? proven"), "{out}");
    let (code, _, err) = run_within(&["prove", "kaooa", "--side", "dragons"], 20);
    assert_eq!(code, Some(2));
    assert!(err.contains("vulture (vultures, hunter"), "{err}");
    // Bagh-Chal's tigers are no side of Mogol; the error lists Mogol's words.
    let (code, _, err) = run_within(&["prove", "cows-leopards-mogol", "--side", "tigers"], 20);
    assert_eq!(code, Some(2));
    assert!(err.contains("leopards (leopard, hunter"), "{err}");
    assert!(err.contains("cows (cow, prey)"), "{err}");
}

/// "1 tiers".
#[test]
fn one_tier_is_singular() {
    let d = tmpdir("one-tier");
    let out = d.join("t");
    let (code, text, err) = run_within(
        &[
            "solve",
            "diviyan-keliya",
            "--max-prey",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(code, Some(0), "{err}");
    let all = format!("{text}{err}");
    assert!(all.contains("total: 1 tier,"), "{all}");
    assert!(all.contains("]: 1 tier,"), "{all}");
    assert!(!all.contains("1 tiers"), "{all}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `solve kaooa --max-prey 99` was accepted silently (kaooa has 7 crows).
#[test]
fn max_prey_beyond_the_rules_is_refused() {
    let d = tmpdir("max-prey-99");
    let out = d.join("t");
    let (code, _, err) = run_within(
        &[
            "solve",
            "kaooa",
            "--max-prey",
            "99",
            "--out",
            out.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("7 crows") && err.contains("at most 7"),
        "{err}"
    );
    assert!(!out.exists());
}

/// Every Mogol solve printed "1 levels processed in parts, 0 slots marked in
/// the words past the lists' budget": solver internals now wait for --verbose.
#[test]
fn solver_internals_only_with_verbose() {
    let d = tmpdir("verbose");
    for (verbose, dir) in [(false, "quiet"), (true, "verbose")] {
        let out = d.join(dir);
        let mut args = vec![
            "solve",
            "cows-leopards-mogol",
            "--max-prey",
            "4",
            "--out",
            out.to_str().unwrap(),
        ];
        if verbose {
            args.push("--verbose");
        }
        let (code, text, err) = run_within(&args, 300);
        assert_eq!(code, Some(0), "{err}");
        let all = format!("{text}{err}");
        assert_eq!(all.contains("processed in parts"), verbose, "{all}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `bounds --tables EMPTY` was accepted (the directory served no threshold and
/// was used as no leaves at all).
#[test]
fn bounds_refuses_a_tables_directory_of_no_threshold() {
    let d = tmpdir("bounds-empty");
    let (code, _, err) = run_within(
        &[
            "bounds",
            "kaooa",
            "--tables",
            d.to_str().unwrap(),
            "--time",
            "1",
        ],
        60,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no tables of these rules"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A finished table with a damaged block was kept on a rerun ("kept from
/// disk", exit 0): a rerun now checks every byte of a table it keeps and
/// solves a damaged one again.
#[test]
fn a_rerun_solves_a_damaged_table_again() {
    let d = tmpdir("damaged-kept");
    let out = d.join("t");
    let args = ["solve", "kaooa", "--out", out.to_str().unwrap()];
    let (code, _, err) = run_within(&args, 60);
    assert_eq!(code, Some(0), "{err}");
    // The largest table, damaged in its blocks (the header and index stay whole).
    let largest = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hst"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let good = std::fs::read(&largest).unwrap();
    let mut bytes = good.clone();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x20;
    std::fs::write(&largest, &bytes).unwrap();
    let (code, text, err) = run_within(&args, 60);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("1 solved"), "{text}");
    let (code, out_v, err) = run_within(&["verify", "--tables", out.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{out_v}{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `prove --tables` with a damaged leaf table reopened the file at every node
/// (still running after 150 s): a table that cannot be opened is remembered,
/// and the prover stops at the first damaged probe with the table's error.
#[test]
fn prove_stops_at_a_damaged_leaf_table() {
    let d = tmpdir("prove-damaged");
    let out = d.join("t");
    let (code, _, err) = run_within(&["solve", "kaooa", "--out", out.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    // Every table but the first (by name: the one `--tables` checks the rules
    // by) damaged in its header: none of them opens.
    let mut tables: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "hst"))
        .collect();
    tables.sort();
    for p in &tables[1..] {
        let mut bytes = std::fs::read(p).unwrap();
        bytes[20] ^= 0xff;
        std::fs::write(p, bytes).unwrap();
    }
    let (code, _, err) = run_within(
        &[
            "prove",
            "kaooa",
            "--tables",
            out.to_str().unwrap(),
            "--time",
            "100",
        ],
        30,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(".hst"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
