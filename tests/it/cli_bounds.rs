//! Every numeric option of every subcommand goes through the bounded
//! parsers of src/cli/args.rs, so a value out of range is refused while the
//! arguments are parsed (exit 2, a message naming the option and the accepted
//! range), never a panic and never after work has begun. Before, `bounds --time
//! 1e308` panicked (exit 101) and `bounds --time 1e7` was accepted: a new command
//! had parsed its own `f64`, and tests/it/trust_cli.rs lists command lines by hand.
//!
//! Here the options come from clap's own description of the command line (`huntsolve -h`,
//! then `huntsolve <command> -h`), so a new command or option is walked
//! without being named here. An option taking a value counts as a number unless it
//! is listed in [`TEXT`]: a new option fails this test until it is bounded, or
//! declared text.

use super::harden_cli::run_within;

/// Options whose value is text (paths, rules, engines, names, tier lists): not walked.
const TEXT: &[&str] = &[
    "bind", "black", "compact", "engine", "engines", "eval", "grid", "init", "ladder", "material",
    "moves", "only", "out", "param", "phase", "position", "retro", "rules", "save", "save-dir",
    "results", "side", "tables", "tiers", "white",
];

/// Options that take every 64-bit value (seeds): only malformed values are refused.
const ANY_U64: &[&str] = &["seed"];

/// Memory sizes (`8G`, `512M`, bytes): `1e7` is ten million bytes, a size.
const SIZES: &[&str] = &["memory", "cache"];

/// Values no numeric option accepts: huge, negative, not numbers, empty.
const BAD: &[&str] = &["1e308", "-1", "NaN", "inf", "", "99999999999999999999999"];

/// Beyond every bound except a seed's: `u64::MAX`, and `1e7` (above every time
/// limit; not a whole number).
const BEYOND: &[&str] = &["18446744073709551615", "1e7"];

/// The lines of section `title` ("Commands:", "Options:") of a help text.
fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| l.trim() != title)
        .skip(1)
        .take_while(|l| !l.trim().is_empty() && l.starts_with(' '))
        .collect()
}

/// The subcommands `huntsolve -h` lists (without `help`).
fn subcommands() -> Vec<String> {
    let (code, out, err) = run_within(&["-h"], 20);
    assert_eq!(code, Some(0), "{err}");
    section(&out, "Commands:")
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The long options of `huntsolve <command> -h` that take a value
/// (`--name <VALUE>`), without the leading dashes.
fn options_with_values(command: &str) -> Vec<String> {
    let (code, out, err) = run_within(&[command, "-h"], 20);
    assert_eq!(code, Some(0), "{command} -h: {err}");
    let mut names: Vec<String> = section(&out, "Options:")
        .iter()
        .filter_map(|l| {
            let l = l.trim_start();
            // `-d, --depth <DEPTH>`: the long form.
            let l = match l.split_once(", --") {
                Some((short, long)) if !short.starts_with("--") => long,
                _ => l.strip_prefix("--")?,
            };
            let (name, after) = l.split_once(' ')?;
            after.starts_with('<').then(|| name.to_string())
        })
        .collect();
    names.dedup();
    names
}

/// What is wrong with `huntsolve <args>` as the refusal of `--<option>`, if anything.
fn fault(args: &[String], option: &str) -> Option<String> {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = run_within(&refs, 20);
    let line = format!("huntsolve {}", args.join(" "));
    let named = err.contains(&format!("'--{option}"));
    match code {
        None => Some(format!("{line}: still running after 20 s")),
        Some(101) => Some(format!("{line}: panicked: {err}")),
        _ if err.contains("panicked") => Some(format!("{line}: panicked: {err}")),
        Some(0) => Some(format!(
            "{line}: accepted (bound the option with a parser of src/cli/args.rs, \
             or list it in TEXT of tests/it/cli_bounds.rs if its value is not a number)"
        )),
        Some(2) if named && err.contains("expected") => None,
        Some(2) if named && err.contains("a value is required") => None,
        Some(c) => Some(format!(
            "{line}: exit {c} without a message naming --{option} and its range: {err}"
        )),
    }
}

#[test]
fn every_numeric_option_of_every_subcommand_refuses_out_of_range_values() {
    let commands = subcommands();
    // The walk must see the commands of the issue, or the help format changed.
    for known in ["bounds", "prove", "compare", "serve", "solve", "verify"] {
        assert!(commands.iter().any(|c| c == known), "{known}: {commands:?}");
    }
    let mut runs: Vec<(Vec<String>, String)> = Vec::new();
    let mut walked = Vec::new();
    for command in &commands {
        for option in options_with_values(command) {
            if TEXT.contains(&option.as_str()) {
                continue;
            }
            walked.push(format!("{command} --{option}"));
            let beyond = if ANY_U64.contains(&option.as_str()) {
                &[][..]
            } else if SIZES.contains(&option.as_str()) {
                &BEYOND[..1]
            } else {
                BEYOND
            };
            for value in BAD.iter().chain(beyond) {
                // `--name=value`: a value starting with `-` or empty stays a value.
                let args = vec![command.clone(), format!("--{option}={value}")];
                runs.push((args, option.clone()));
            }
        }
    }
    // The options of the issue are among those walked (the help parsing works).
    for expected in [
        "bounds --time",
        "bounds --nodes",
        "prove --threads",
        "query --hash",
        "compare --softmax",
        "serve --port",
        "perft --depth",
        "solve --memory",
    ] {
        assert!(
            walked.iter().any(|w| w == expected),
            "{expected} not walked: {walked:?}"
        );
    }
    // Three processes at a time: each run is a process start and a parse.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let faults = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((args, option)) = runs.get(k) else {
                    break;
                };
                if let Some(f) = fault(args, option) {
                    faults.lock().unwrap().push(f);
                }
            });
        }
    });
    let faults = faults.into_inner().unwrap();
    eprintln!(
        "{} runs over {} options of {} commands",
        runs.len(),
        walked.len(),
        commands.len()
    );
    assert!(
        faults.is_empty(),
        "{} of {} runs over {} options:\n{}",
        faults.len(),
        runs.len(),
        walked.len(),
        faults.join("\n")
    );
}

/// The refusal says which option and what it accepts, in one line.
#[test]
fn a_refused_time_limit_names_the_option_and_the_range() {
    let (code, _, err) = run_within(&["bounds", "kaooa", "--time", "1e7"], 20);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("'--time <TIME>'")
            && err.contains("expected seconds above 0 and at most 1000000"),
        "{err}"
    );
    let (code, _, err) = run_within(&["bounds", "kaooa", "--time", "1e308"], 20);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// An exclusive minimum stays exclusive: a time limit of 0 seconds is
/// refused, a small positive one is taken. (The walk above never tries
/// the minimum itself.)
#[test]
fn an_exclusive_minimum_refuses_the_minimum_itself() {
    for zero in ["0", "0.0", "0e5"] {
        let (code, _, err) = run_within(&["query", "kaooa", "start", "--time", zero], 20);
        assert_eq!(code, Some(2), "--time {zero}: {err}");
        assert!(err.contains("above 0"), "{err}");
    }
    let (code, _, err) = run_within(&["query", "kaooa", "start", "--time", "0.001"], 60);
    assert_eq!(code, Some(0), "{err}");
}
