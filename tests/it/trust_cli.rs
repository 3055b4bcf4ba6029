//! Every numeric option of the command line, given values
//! far outside its range (and malformed ones), ends with `error: ...` and a
//! usage status, fast: never a panic (exit 101), an abort, or unbounded work.
//! Before: `--time 1e308` (prove, query, explore, `compare --engine`,
//! `--engines random,time=...`), `openings --prove-time 3e19` and `compare
//! --games 18446744073709551615` panicked, `compare --games 100000000000`
//! aborted on allocation.

use super::harden_cli::run_within;
use std::path::PathBuf;
use std::sync::OnceLock;

/// kaooa tables, solved once (0.1 s).
fn kaooa_tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("huntsolve-trust-cli-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let (code, _, err) = run_within(&["solve", "kaooa", "--out", d.to_str().unwrap()], 60);
        assert_eq!(code, Some(0), "{err}");
        d
    })
}

/// Values no numeric option accepts: beyond every bound, negative, not numbers.
const EXTREME: &[&str] = &[
    "1e308",
    "3e19",
    "1e20",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "-1",
    "nan",
    "inf",
    "0x10",
];

/// Command lines with `{}` where the value goes. Each must refuse every
/// value of [`EXTREME`] at once.
fn cases(tables: &str, out: &str) -> Vec<Vec<String>> {
    let t = |s: &str| s.replace("TABLES", tables).replace("OUT", out);
    [
        "prove kaooa --time {}",
        "prove kaooa --nodes {} --time {}",
        "prove kaooa --hash {}",
        "prove kaooa --threads {}",
        "query kaooa start --tables TABLES --time {}",
        "query kaooa start --tables TABLES --depth {}",
        "query kaooa start --tables TABLES --hash {}",
        "openings kaooa --depth 1 --prove --prove-time {}",
        "openings kaooa --depth {}",
        "openings kaooa --depth 1 --plies {}",
        "compare kaooa --games 2 --engine time={} --out OUT/c1",
        "compare kaooa --games 2 --engines random,time={} --out OUT/c2",
        "compare kaooa --games 2 --engines random,mcts-time={} --out OUT/c3",
        "compare kaooa --games {} --engine random --out OUT/c4",
        "compare kaooa --games 2 --engine depth={} --out OUT/c5",
        "compare kaooa --games 2 --engine depth=1 --softmax {} --out OUT/c6",
        "explore kaooa --grid prey=5,6 --grid hunter_win=1,2 --engines random,time={} --out OUT/e1",
        "explore kaooa --grid prey=5,6 --grid hunter_win=1,2 --games {} --out OUT/e2",
        "play kaooa --hunter time={} --prey random --games 1",
        "play kaooa --hunter random --prey mcts-time={} --games 1",
        "play kaooa --hunter random --prey random --games {}",
        "verify --tables TABLES --sample {}",
        "verify --tables TABLES --search {}",
        "serve --tables TABLES --port 0 --workers {}",
        "serve --tables TABLES --port 0 --search-time {}",
        "serve --tables TABLES --port {}",
        "playout kaooa --games {} --seed 1",
        "perft kaooa --depth {}",
        "analyze --tables TABLES --top {}",
        "solve kaooa --max-prey {} --out OUT/s1",
        "solve kaooa --memory {} --out OUT/s2",
    ]
    .iter()
    .map(|c| t(c).split(' ').map(str::to_string).collect())
    .collect()
}

#[test]
fn extreme_numeric_options_are_refused_with_an_error_never_a_panic() {
    let tables = kaooa_tables().to_str().unwrap().to_string();
    let out = kaooa_tables().with_extension("out");
    let _ = std::fs::create_dir_all(&out);
    let runs: Vec<Vec<String>> = cases(&tables, out.to_str().unwrap())
        .iter()
        .flat_map(|case| {
            EXTREME
                .iter()
                .map(|v| case.iter().map(|a| a.replace("{}", v)).collect())
        })
        .collect();
    // Three processes at a time: the runs are short, and mostly process start-up.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(args) = runs.get(k) else { break };
                let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                let (code, _, err) = run_within(&refs, 20);
                let line = args.join(" ");
                let failure = match code {
                    None => Some(format!("{line}: still running after 20 s")),
                    Some(101) => Some(format!("{line}: panicked: {err}")),
                    // Accepted: only where the option caps a value it may take
                    // (verify --sample larger than the tier checks each slot once).
                    Some(0) if line.starts_with("verify --tables") && line.contains("--sample") => {
                        None
                    }
                    Some(0) => Some(format!("{line}: accepted")),
                    Some(2) if err.contains("error:") => None,
                    Some(c) => Some(format!("{line}: exit {c}: {err}")),
                };
                if let Some(f) = failure {
                    failures.lock().unwrap().push(f);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let _ = std::fs::remove_dir_all(&out);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `verify --sample N` with N above a tier's size drew N slots with
/// replacement and reported N positions (23,023,296 for 1,000,000 draws over
/// 4,144 classes); now each tier is checked slot by slot at most once.
#[test]
fn verify_sample_is_capped_at_the_tier_size() {
    let dir = kaooa_tables().to_str().unwrap().to_string();
    let (code, out, err) = run_within(
        &["verify", "--tables", &dir, "--sample", "1000000", "--json"],
        60,
    );
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let tiers = v["tiers"].as_array().unwrap();
    assert!(!tiers.is_empty());
    for t in tiers {
        let records = t["records"].as_u64().unwrap();
        assert!(t["positions"].as_u64().unwrap() <= records, "{t}");
        assert_eq!(t["sampled_slots"].as_u64().unwrap(), records, "{t}");
    }
}
