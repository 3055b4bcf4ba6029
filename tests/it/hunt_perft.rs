//! Runs the perft data files under tests/data/hunt/ (format in start.perft).

use huntsolve::game::Notation;
use huntsolve::game::{perft, play_line, Game};
use huntsolve::hunt::from_spec;

struct Case {
    rules: String,
    position: Option<String>,
    moves: Option<String>,
    counts: Vec<(u32, u64, usize)>,
}

fn load() -> Vec<(String, Case)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hunt");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no perft files in {dir}");
    let mut cases = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let fname = f.file_name().unwrap().to_string_lossy().to_string();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let rest = rest.trim().to_string();
            let at = format!("{fname}:{}", i + 1);
            match key {
                "rules" => cases.push((
                    at,
                    Case {
                        rules: rest,
                        position: None,
                        moves: None,
                        counts: Vec::new(),
                    },
                )),
                "position" => cases.last_mut().expect(&at).1.position = Some(rest),
                "moves" => cases.last_mut().expect(&at).1.moves = Some(rest),
                "perft" => {
                    let v: Vec<u64> = rest
                        .split_whitespace()
                        .map(|w| w.parse().expect(&at))
                        .collect();
                    assert_eq!(v.len(), 2, "{at}: perft <depth> <leaves>");
                    cases
                        .last_mut()
                        .expect(&at)
                        .1
                        .counts
                        .push((v[0] as u32, v[1], i + 1));
                }
                _ => panic!("{at}: unknown key '{key}'"),
            }
        }
    }
    cases
}

fn run(limit: u64) -> usize {
    let mut checked = 0;
    for (at, case) in load() {
        let g = from_spec(&case.rules).unwrap_or_else(|e| panic!("{at}: {e}"));
        let mut pos = match &case.position {
            Some(t) => g.parse_position(t).unwrap_or_else(|e| panic!("{at}: {e}")),
            None => g.start(),
        };
        if let Some(m) = &case.moves {
            pos = play_line(&g, &pos, m).unwrap_or_else(|e| panic!("{at}: {e}"));
        }
        for &(depth, want, line) in &case.counts {
            if want > limit {
                continue;
            }
            assert_eq!(
                perft(&g, &pos, depth),
                want,
                "{at} (line {line}): {} perft {depth}",
                case.rules
            );
            checked += 1;
        }
    }
    checked
}

/// Every line of every file (about 1 s in the test profile on a loaded 2-core machine).
#[test]
fn perft_files_all() {
    assert!(run(u64::MAX) >= 16);
}
