//! The CLI names the sides as the rules do
//! (leopards and cows, tigers and goats, the vulture and the crows), accepts
//! those names as input beside `hunter`/`prey`, and keeps the machine words
//! (certificates, JSON, table fingerprints) unchanged.

use super::common::run;
use huntsolve::game::Game;
use huntsolve::{with_game, AnyGame};

/// The rules fingerprints written by the binary of main at 0718c58, before
/// the side labels were added (the `fingerprint` of a certificate's header
/// from `prove RULES <terminal position> --save`, or of a table header from
/// `solve`): the labels must not enter the fingerprint, or every table and
/// certificate written before would be refused.
#[test]
fn side_labels_leave_the_fingerprints_unchanged() {
    for (spec, want) in [
        ("cows-leopards-mogol", 2_595_602_004_804_462_831u64),
        ("bagh-chal", 482_271_545_840_954_181),
        ("kaooa", 0xdfad_1dd9_b50b_571b),
        ("diviyan-keliya", 0x9dfc_fab4_ecd3_e7a5),
    ] {
        let any = AnyGame::parse(spec).unwrap();
        let fp = with_game!(&any, g => g.fingerprint());
        assert_eq!(fp, want, "{spec}: {fp:#018x}");
    }
}

/// `show` names the side to move, and the winner, as the rules do.
#[test]
fn show_names_the_sides_as_the_rules_do() {
    let (code, out, err) = run(&["show", "cows-leopards-mogol"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to move  leopards\n"), "{out}");
    assert!(out.contains("leopards in hand 2, cows in hand 24"), "{out}");
    let (code, out, err) = run(&["show", "bagh-chal"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to move  goats\n"), "{out}");
    assert!(out.contains("tigers in hand 0, goats in hand 20"), "{out}");
    let (code, out, err) = run(&["show", "kaooa"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to move  crows\n"), "{out}");
    assert!(out.contains("vulture in hand 1, crows in hand 7"), "{out}");
    let pos = ".............................................HH.P/h0p0c23/p";
    let (code, out, err) = run(&["show", "cows-leopards-peralikatuma", "--position", pos]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("terminal: leopards win"), "{out}");
    // Tafl keeps its own words.
    let (code, out, err) = run(&["show", "brandubh"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("to move  attackers\n"), "{out}");
    assert!(!out.contains("hunter") && !out.contains("prey"), "{out}");
}

/// Seed B's sides are the seed's ants (the kalikiris attack; the citikiris
/// defend their queen, the ranikiri, who moves first), Linnaeus's Tablut's
/// the Muscovites and the Swedes; each name is taken as `--side`, and the
/// machine words (`attackers`/`defenders`) still are.
#[test]
fn tafl_sides_in_the_seed_s_and_linnaeus_s_words() {
    for (rules, to_move) in [
        ("caikaboroda", "citikiris"),
        ("caikaboroda-hostile", "citikiris"),
        ("tablut-linnaeus", "muscovites"),
        ("brandubh", "attackers"),
    ] {
        let (code, out, err) = run(&["show", rules]);
        assert_eq!(code, 0, "{rules}: {err}");
        assert!(
            out.contains(&format!("to move  {to_move}\n")),
            "{rules}: {out}"
        );
    }
    let any = AnyGame::parse("caikaboroda").unwrap();
    let AnyGame::Tafl(g) = &any else {
        panic!("caikaboroda is a tafl game")
    };
    assert_eq!(
        [g.side_label(0), g.side_label(1)],
        ["kalikiris", "citikiris"]
    );
    for (name, side) in [
        ("kalikiris", 0),
        ("Kalikiri", 0),
        ("attackers", 0),
        ("citikiris", 1),
        ("ranikiri", 1),
        ("defenders", 1),
    ] {
        assert_eq!(huntsolve::game::side_by_name(g, name), Some(side), "{name}");
    }
    // A variant of a preset keeps the preset's words; the fingerprint ignores them.
    let hostile = AnyGame::parse("caikaboroda,throne_hostile=none").unwrap();
    let AnyGame::Tafl(h) = &hostile else {
        panic!("a tafl game")
    };
    assert_eq!(h.side_label(0), "kalikiris");
    let (code, out, err) = run(&[
        "prove",
        "caikaboroda",
        "--side",
        "kalikiris",
        "--within",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("kalikiris"), "{out}");
    assert!(!out.contains("attackers"), "{out}");
}

/// `query` says whose the values are in the game's words; its JSON keeps
/// the machine word.
#[test]
fn query_names_the_sides_as_the_rules_do() {
    let (code, out, err) = run(&["query", "cows-leopards-mogol", "start", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(values for leopards, who plays them)"),
        "{out}"
    );
    let (code, out, err) = run(&["query", "bagh-chal", "start", "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(values for goats, who plays them)"), "{out}");
    let (code, out, err) = run(&[
        "query",
        "bagh-chal",
        "start",
        "--moves",
        "c3",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(values for tigers, who plays them)"), "{out}");
}

/// `--side cows` (and `leopards`, `goats`, `tigers`) are taken beside
/// `hunter`/`prey`; the report names the side as the rules do, and the JSON
/// keeps the machine word beside the label.
#[test]
fn side_takes_the_games_words() {
    let pos = ".............................................HH.P/h0p0c23/p";
    let rules = "cows-leopards-peralikatuma";
    for side in ["cows", "Cow", "prey"] {
        let (code, out, err) = run(&["prove", rules, pos, "--side", side, "--time", "10"]);
        assert_eq!(code, 0, "--side {side}: {err}");
        assert!(out.contains("run: cows win? disproven"), "{out}");
    }
    let (code, out, err) = run(&[
        "prove", rules, pos, "--side", "leopards", "--json", "--time", "10",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["side_to_move"], "prey", "{out}");
    assert_eq!(v["side_to_move_label"], "cows", "{out}");
    assert_eq!(v["runs"][0]["side_name"], "hunter", "{out}");
    let (code, _, err) = run(&["prove", rules, pos, "--side", "attackers", "--time", "10"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("expected leopards (leopard, hunter, hunters) or cows (cow, prey)"),
        "{err}"
    );
}

/// The position text was documented nowhere: `show --help` now describes it,
/// and every example line it gives runs and shows that very position.
#[test]
fn the_documented_position_examples_parse() {
    let (code, help, err) = run(&["show", "--help"]);
    assert_eq!(code, 0, "{err}");
    assert!(help.contains("POINTS/h<n>p<n>c<n>/<side>"), "{help}");
    let examples: Vec<(String, String)> = help
        .lines()
        .filter_map(|l| l.trim().strip_prefix("huntsolve show "))
        .map(|l| {
            let (rules, pos) = l
                .split_once(" --position ")
                .expect("an example with --position");
            (rules.to_string(), pos.trim_matches('\'').to_string())
        })
        .collect();
    assert!(examples.len() >= 4, "{help}");
    for (rules, pos) in examples {
        let (code, out, err) = run(&["show", &rules, "--position", &pos]);
        assert_eq!(code, 0, "{rules} {pos}: {err}");
        assert!(out.contains(&format!("position {pos}\n")), "{out}");
    }
    // The same examples in docs/positions.md.
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/positions.md")).unwrap();
    for pos in ["H...H...............H...H/h0p20c0/p", "P........./h1p6c0/h"] {
        assert!(doc.contains(pos) && help.contains(pos), "{pos}");
    }
}

/// Every hunt preset names its sides in its own words (the explorer's page
/// and the CLI read the same `Game::side_label`), never `hunter`/`prey`.
#[test]
fn every_hunt_preset_has_its_words() {
    for &(preset, _) in huntsolve::hunt::PRESETS {
        let any = AnyGame::parse(preset).unwrap();
        let words = with_game!(&any, g => [g.side_label(0), g.side_label(1)]);
        assert!(
            !words.contains(&"hunter") && !words.contains(&"prey"),
            "{preset}: {words:?}"
        );
    }
}
