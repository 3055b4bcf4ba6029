//! What a new user meets at the command line, and the
//! certificate's board files: the solve log when stderr is not a terminal,
//! whose win the start is, `play --side` with the games' own side names,
//! plurals, the wording of `bench --retro`'s parallelism, and check-proof
//! reading no board file a certificate names.

use super::harden_cli::run_within;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-user-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// With stderr a pipe, the main job printed two lines a tier such as
/// `h0p1c2 propagate: finished in 0.0 s (0 done)`: no job, no k/N, no unit.
#[test]
fn the_solve_log_names_the_job_and_counts_tiers_in_few_lines() {
    let d = tmpdir("log");
    let manifest = d.join("batch.toml");
    std::fs::write(
        &manifest,
        format!(
            "out = \"{}\"\n[[job]]\nname = \"small\"\nrules = \"kaooa-6\"\n[[job]]\nname = \"star\"\nrules = \"kaooa\"\n",
            d.join("tables").display()
        ),
    )
    .unwrap();
    let (code, out, err) = run_within(&["solve", manifest.to_str().unwrap()], 120);
    assert_eq!(code, Some(0), "{out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    // 36 + 52 tiers: before, 176 lines; now a line per job, plus at most one
    // every 10 s (and one per stage of 10 s or more).
    assert!(lines.len() < 36, "{} lines:\n{err}", lines.len());
    assert!(
        lines.contains(&"small [whole], 36/36 tiers: finished in 0.0 s")
            || lines
                .iter()
                .any(|l| l.starts_with("small [whole], 36/36 tiers: finished in")),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("star [whole], 52/52 tiers: finished in")),
        "{err}"
    );
    assert!(!err.contains("(0 done)"), "{err}");
    for l in &lines {
        assert!(
            l.starts_with("small [whole]") || l.starts_with("star [whole]"),
            "{l}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// "win in 15" never said for whom; it says so in the game's own words
/// (Kaooa's crows), while summary.json keeps the machine names.
#[test]
fn solve_says_whose_win_the_start_is() {
    let d = tmpdir("whose");
    let t = d.join("kaooa");
    let (code, out, err) = run_within(&["solve", "kaooa", "--out", t.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("start: crows win in 15 plies (crows to move)"),
        "{out}"
    );
    assert!(out.contains("total: 52 tiers,"), "{out}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["start"]["winner"], "prey");
    assert_eq!(summary["start"]["side_to_move"], "prey");
    // The batch summary's start column.
    let manifest = d.join("b.toml");
    std::fs::write(
        &manifest,
        format!(
            "out = \"{}\"\nresults = \"{}\"\n[[job]]\nname = \"kaooa\"\nrules = \"kaooa\"\n",
            d.join("tables").display(),
            d.join("res").display()
        ),
    )
    .unwrap();
    let (code, out, err) = run_within(&["solve", manifest.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("| crows win in 15 |"), "{out}");
    let md = std::fs::read_to_string(d.join("res.md")).unwrap();
    assert!(md.contains("| crows win in 15 |"), "{md}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `play` took `--white/--black` (aliases hunter/prey) only: `--side crows`
/// was refused, where `prove --side crows` is accepted.
#[test]
fn play_takes_the_games_own_side_names() {
    let (code, out, err) = run_within(
        &[
            "play",
            "kaooa",
            "--side",
            "crows=random",
            "--side",
            "vulture=random",
            "--games",
            "2",
            "--quiet",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("2 games: vulture (random) won "), "{last}");
    assert!(last.contains("crows (random) won "), "{last}");
    // Tafl names, and one game is "1 game".
    let (code, out, err) = run_within(
        &[
            "play",
            "brandubh",
            "--side",
            "defenders=random",
            "--side",
            "attackers=random",
            "--quiet",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("1 game: attackers (random) won "),
        "{out}"
    );
    for (args, want) in [
        (&["--side", "dragons=random"][..], "'dragons' is not a side"),
        (&["--side", "crows"][..], "expected NAME=ENGINE"),
        (
            &["--side", "crows=random", "--prey", "random"][..],
            "already has an engine",
        ),
        (&["--side", "crows=warp"][..], "engine"),
    ] {
        let mut all = vec!["play", "kaooa", "--quiet"];
        all.extend_from_slice(args);
        let (code, _, err) = run_within(&all, 30);
        assert_eq!(code, Some(2), "{all:?}: {err}");
        assert!(err.contains(want), "{all:?}: {err}");
    }
}

/// `bench --retro` printed "wall = 715562.00 x CPU time" for a tier solved in
/// milliseconds (CPU time is counted in 1/100 s ticks).
#[test]
fn bench_retro_says_nothing_absurd_about_parallelism() {
    let d = tmpdir("bench");
    let t = d.join("kaooa");
    let (code, _, err) = run_within(&["solve", "kaooa", "--out", t.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run_within(
        &[
            "bench",
            "--retro",
            "kaooa",
            "--tiers",
            "h0p1c2",
            "--tables",
            t.to_str().unwrap(),
            "--threads",
            "2",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.contains("wall ="), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("current, 2 threads / 1 thread"))
        .unwrap();
    assert!(
        line.contains("too short to compare with the wall time") || line.contains("threads busy"),
        "{line}"
    );
    // The out-of-core solver beside the counted one: same records, its disk
    // bytes said, its files gone; so are those a killed benchmark left (of a
    // process that no longer runs).
    let stale = t.join(".bench-ooc-4194305");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("state"), "left by a kill").unwrap();
    let stale_split = t.join(".bench-split-4194306");
    std::fs::create_dir_all(&stale_split).unwrap();
    let (code, out, err) = run_within(
        &[
            "bench",
            "--retro",
            "kaooa",
            "--tiers",
            "h0p1c2",
            "--tables",
            t.to_str().unwrap(),
            "--no-baseline",
            "--out-of-core",
            "2",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("counted compact solver's wall time in memory"),
        "{out}"
    );
    assert!(out.contains("bytes written to disk"), "{out}");
    assert!(out.contains("records identical across all runs"), "{out}");
    let left: Vec<_> = std::fs::read_dir(&t)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".bench-ooc"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(!stale.exists() && !stale_split.exists());
    let (code, _, err) = run_within(&["bench", "--out-of-core", "1", "--retro", "kaooa"], 60);
    assert_eq!(code, Some(2), "{err}");
    // The tier split on the compact encoding in 2 and 3 in-process parts:
    // same records, the bytes sent said, its part files gone.
    let (code, out, err) = run_within(
        &[
            "bench",
            "--retro",
            "kaooa",
            "--tiers",
            "h0p1c2",
            "--tables",
            t.to_str().unwrap(),
            "--no-baseline",
            "--split",
            "2,3",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("split in 2 parts"), "{out}");
    assert!(out.contains("split in 3 parts"), "{out}");
    assert!(out.contains("bytes sent between parts"), "{out}");
    assert!(out.contains("records identical across all runs"), "{out}");
    let left: Vec<_> = std::fs::read_dir(&t)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".bench-split"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    for bad in ["1", "0", "2,x", "65"] {
        let (code, _, err) = run_within(&["bench", "--split", bad, "--retro", "kaooa"], 60);
        assert_eq!(code, Some(2), "--split {bad}: {err}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// check-proof read the board file named in a certificate's rules: a
/// certificate is untrusted input (it could name any file, a FIFO, a device).
/// A board file comes from the command line (`--rules`).
#[test]
fn check_proof_reads_no_board_file_a_certificate_names() {
    let d = tmpdir("cert-board");
    let board = d.join("line5.board");
    std::fs::write(
        &board,
        "name line5\npoint 0 0\npoint 1 0\npoint 2 0\npoint 3 0\npoint 4 0\nline a1 b1 c1 d1 e1\n",
    )
    .unwrap();
    let rules = format!("kaooa,board={},prey=3,hunter_win=2", board.display());
    let cert = d.join("x.cert");
    let (code, out, err) = run_within(
        &[
            "prove",
            &rules,
            "--save",
            cert.to_str().unwrap(),
            "--time",
            "20",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run_within(&["check-proof", cert.to_str().unwrap()], 30);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("only built-in boards"), "{err}");
    assert!(err.contains("--rules"), "{err}");
    assert!(!out.contains("holds"), "{out}");
    // The same certificate, its board file named at the command line.
    let (code, out, err) = run_within(
        &["check-proof", cert.to_str().unwrap(), "--rules", &rules],
        30,
    );
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("the certificate holds"), "{out}");
    // Rules other than the certificate's are refused.
    let (code, _, err) = run_within(
        &["check-proof", cert.to_str().unwrap(), "--rules", "kaooa"],
        30,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the proof is for rules"), "{err}");
    // A built-in board in a certificate is still read as before.
    let (_, k) = super::trust_rules::kaooa_certificate();
    let kc = d.join("k.cert");
    std::fs::write(&kc, k.encode()).unwrap();
    let (code, out, err) = run_within(&["check-proof", kc.to_str().unwrap()], 60);
    assert_eq!(code, Some(0), "{out}{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Numbers inside engine specs skipped the option bounds: `nodes=0` played,
/// `mcts=10:c=1e308` was accepted.
#[test]
fn numbers_inside_engine_specs_are_bounded() {
    for (args, want) in [
        (
            &["play", "kaooa", "--quiet", "--hunter", "nodes=0"][..],
            "nodes from 1",
        ),
        (
            &[
                "play",
                "kaooa",
                "--quiet",
                "--hunter",
                "nodes=99999999999999",
            ][..],
            "nodes from 1",
        ),
        (
            &["play", "kaooa", "--quiet", "--hunter", "mcts=10:c=1e308"][..],
            "exploration",
        ),
        (
            &["play", "kaooa", "--quiet", "--hunter", "mcts=10:c=0"][..],
            "exploration",
        ),
    ] {
        let (code, _, err) = run_within(args, 30);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let (code, _, err) = run_within(
        &[
            "play",
            "kaooa",
            "--quiet",
            "--hunter",
            "mcts=10:c=2",
            "--prey",
            "nodes=50",
        ],
        60,
    );
    assert_eq!(code, Some(0), "{err}");
}

/// Options silently ignored: `compare --softmax` with an engine that does not
/// search, `bench --tiers` (and the other --retro options) without `--retro`.
#[test]
fn options_that_would_be_ignored_are_refused() {
    let (code, _, err) = run_within(
        &[
            "compare",
            "kaooa",
            "--games",
            "2",
            "--engine",
            "random",
            "--softmax",
            "50",
        ],
        30,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("does not search"), "{err}");
    // A grid value listed twice was played twice as one variant.
    let (code, _, err) = run_within(
        &[
            "explore",
            "kaooa",
            "--grid",
            "prey=5,5",
            "--grid",
            "hunter_win=1,2",
        ],
        30,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("listed twice"), "{err}");
    for extra in [
        &["--tiers", "h0p0c0"][..],
        &["--no-baseline"][..],
        &["--compact"][..],
    ] {
        let mut args = vec!["bench"];
        args.extend_from_slice(extra);
        let (code, _, err) = run_within(&args, 30);
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert!(err.contains("--retro"), "{extra:?}: {err}");
    }
}

/// `bench` refuses an option its mode would ignore (exit 2, naming the option),
/// instead of benchmarking something other than what was asked: each mode's
/// options checked against every other mode.
#[test]
fn bench_refuses_options_its_mode_ignores() {
    let cases: &[(&[&str], &str)] = &[
        (&["--mcts", "10", "--depth", "3"], "--depth"),
        (&["--mcts", "10", "--qdepth", "2"], "--qdepth"),
        (&["--mcts", "10", "--threads", "2"], "--threads"),
        (&["--mcts", "10", "--hash", "8"], "--hash"),
        (&["--mcts", "10", "--json"], "--json"),
        (&["--mcts", "10", "--retro", "kaooa"], "--retro"),
        (&["--json"], "--json"),
        (&["--no-symmetry"], "--no-symmetry"),
        (&["--init", "plain"], "--init"),
        (&["--cutoff", "10"], "--mcts"),
        (&["--retro", "kaooa", "--positions", "3"], "--positions"),
        (&["--retro", "kaooa", "--seed", "3"], "--seed"),
        (&["--retro", "kaooa", "--only", "kaooa"], "--only"),
        (&["--retro", "kaooa", "--hash", "8"], "--hash"),
        (&["--retro", "kaooa", "--ladder", "kaooa"], "--ladder"),
        (
            &["--retro", "kaooa", "--no-quick-check"],
            "--no-quick-check",
        ),
        (&["--ladder", "kaooa", "--depth", "3"], "--depth"),
        (&["--ladder", "kaooa", "--hash", "8"], "--hash"),
        (&["--ladder", "kaooa", "--prove"], "--prove"),
        (&["--prove", "--depth", "3"], "--depth"),
        (&["--prove", "--only", "kaooa"], "--only"),
        (&["--prove", "--mcts", "5"], "--mcts"),
        (
            &["--prove", "--seeds", "--spread-plies", "2"],
            "--spread-plies",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["bench"];
        args.extend_from_slice(extra);
        let (code, out, err) = run_within(&args, 30);
        assert_eq!(code, Some(2), "{extra:?}: {out}{err}");
        assert!(err.contains(want), "{extra:?}: {err}");
    }
}

/// `play`'s engines search to at most 64 plies, as the guide and `compare` say
/// (it accepted 120): depth=65 is refused naming the range, on either side.
#[test]
fn play_depth_bound_matches_the_guide() {
    for args in [
        &["play", "kaooa", "--hunter", "depth=65"][..],
        &["play", "kaooa", "--side", "crows=depth=65"][..],
        &["play", "kaooa", "--prey", "depth=0"][..],
    ] {
        let (code, out, err) = run_within(args, 30);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains("depth from 1 to 64 plies"), "{args:?}: {err}");
    }
    let guide = include_str!("../../docs/guide.md");
    assert!(
        guide.contains("the engines of `play` and `compare`: 1 to 64"),
        "the guide no longer states the engines' depth bound"
    );
}
