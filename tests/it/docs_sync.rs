//! docs/rules.md is the rules specification: it says (in its header, as the README does) that it
//! defines every preset, option and board of huntsolve. This checks that claim against what the
//! code knows, both ways, reading nothing but docs/rules.md and the library's public lists:
//! - every preset ([`huntsolve::all_presets`]) has its heading in a preset block of
//!   docs/rules.md, and every preset heading there is a preset the code knows;
//! - every option key of both families ([`huntsolve::hunt::KEYS`],
//!   [`huntsolve::tafl::KEYS`]) is named there (`key=value` or `` `key` ``);
//! - every built-in board ([`huntsolve::BUILTIN`]) is named there, and every `board=NAME`
//!   there is a board some preset can be played on (rules parsed with
//!   [`huntsolve::AnyGame::parse_builtin`], so no board file is read).
//!
//! A check that fails names every name it misses; nothing is skipped.

use huntsolve::AnyGame;
use std::path::Path;

/// Names the code knows that docs/rules.md does not define yet. They are described only in the
/// module docs of `src/tafl/rules.rs` (the key table) and in the tafl presets' descriptions.
/// Remove a name once docs/rules.md defines it: the test fails while a listed name is
/// documented, or is no longer known to the code, so this list can only shrink.
const NOT_YET_IN_RULES_MD: &[&str] = &[
    "tablut-hnefatafl",
    "brandubh-hnefatafl",
    "throne_pass_king",
    "king_flank",
    "linnaean",
    "all_captured",
];

fn rules_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The preset headings of the text: inside fenced code blocks, the lines that start (no
/// indentation) with a name of lowercase letters, digits and hyphens followed by a `#` comment,
/// e.g. `bagh-chal          # validation`. Board drawings and adjacency lists in code blocks
/// start with digits followed by something else, or with `y=`.
fn preset_headings(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            continue;
        }
        let Some((name, rest)) = line.split_once(char::is_whitespace) else {
            continue;
        };
        let is_name = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if is_name && rest.trim_start().starts_with('#') {
            out.push(name);
        }
    }
    out
}

/// Whether `c` can continue a key or board name (so `side=` inside `edge_side=` is not `side=`).
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether the text names option `key` as `key=...` or `` `key` ``, as a whole word.
fn names_key(text: &str, key: &str) -> bool {
    let as_assignment = text
        .match_indices(&format!("{key}="))
        .any(|(at, _)| !text[..at].ends_with(is_word_char));
    as_assignment || text.contains(&format!("`{key}`"))
}

/// Whether the text names `name` as a whole word (not inside a longer name).
fn names_word(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        !text[..at].ends_with(is_word_char) && !text[at + name.len()..].starts_with(is_word_char)
    })
}

/// Every `NAME` of a `board=NAME` in the text.
fn board_values(text: &str) -> Vec<&str> {
    text.match_indices("board=")
        .filter(|&(at, _)| !text[..at].ends_with(is_word_char))
        .map(|(at, m)| {
            let rest = &text[at + m.len()..];
            let end = rest
                .find(|c: char| !(is_word_char(c) || c == '-' || c == '.'))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches('.')
        })
        .filter(|v| !v.is_empty())
        .collect()
}

/// Whether some preset accepts `board=NAME` (built-in boards only: no file is read).
fn board_exists(name: &str) -> bool {
    huntsolve::all_presets()
        .iter()
        .any(|&(_, preset, _)| AnyGame::parse_builtin(&format!("{preset},board={name}")).is_ok())
}

/// Panics naming every entry of `missing` under `what`, if there is any.
fn report(what: &str, missing: &[String]) {
    assert!(missing.is_empty(), "{what}: {}", missing.join(", "));
}

#[test]
fn every_preset_of_the_code_is_defined_in_docs_rules_md_and_no_other() {
    let text = rules_md();
    let headings = preset_headings(&text);
    let presets = huntsolve::all_presets();
    let missing: Vec<String> = presets
        .iter()
        .map(|&(_, name, _)| name)
        .filter(|name| !headings.contains(name) && !NOT_YET_IN_RULES_MD.contains(name))
        .map(String::from)
        .collect();
    report(
        "presets the code knows without a preset block in docs/rules.md (section 3)",
        &missing,
    );
    let unknown: Vec<String> = headings
        .iter()
        .filter(|h| !presets.iter().any(|p| p.1 == **h))
        .map(|h| h.to_string())
        .collect();
    report(
        "preset blocks in docs/rules.md that name no preset of the code",
        &unknown,
    );
}

#[test]
fn every_option_key_of_the_code_is_named_in_docs_rules_md() {
    let text = rules_md();
    let missing: Vec<String> = huntsolve::hunt::KEYS
        .iter()
        .map(|k| ("hunt", *k))
        .chain(huntsolve::tafl::KEYS.iter().map(|k| ("tafl", *k)))
        .filter(|(_, k)| !names_key(&text, k) && !NOT_YET_IN_RULES_MD.contains(k))
        .map(|(family, k)| format!("{k} ({family})"))
        .collect();
    report(
        "option keys the code accepts that docs/rules.md does not name (as key=... or `key`)",
        &missing,
    );
}

#[test]
fn the_boards_of_docs_rules_md_and_of_the_code_are_the_same() {
    let text = rules_md();
    let missing: Vec<String> = huntsolve::BUILTIN
        .iter()
        .map(|b| b.0)
        .filter(|name| !names_word(&text, name))
        .map(String::from)
        .collect();
    report("built-in boards docs/rules.md does not name", &missing);
    let values = board_values(&text);
    assert!(
        !values.is_empty(),
        "docs/rules.md names no board=NAME: the presets' option lists are gone or reworded"
    );
    let mut unknown: Vec<String> = values
        .into_iter()
        .filter(|v| !board_exists(v))
        .map(String::from)
        .collect();
    unknown.sort();
    unknown.dedup();
    report(
        "board=NAME in docs/rules.md that no preset accepts (not a built-in board or tafl size)",
        &unknown,
    );
}

/// The list of known gaps only shrinks: a name on it must still be known to the code and still
/// be missing from docs/rules.md; once the document defines it, it comes off the list.
#[test]
fn the_known_gaps_are_still_gaps() {
    let text = rules_md();
    let headings = preset_headings(&text);
    let presets = huntsolve::all_presets();
    let keys: Vec<&str> = huntsolve::hunt::KEYS
        .iter()
        .chain(huntsolve::tafl::KEYS.iter())
        .copied()
        .collect();
    let mut stale = Vec::new();
    for &name in NOT_YET_IN_RULES_MD {
        let is_preset = presets.iter().any(|p| p.1 == name);
        let is_key = keys.contains(&name);
        if (is_preset && headings.contains(&name)) || (is_key && names_key(&text, name)) {
            stale.push(format!("{name} (now defined in docs/rules.md)"));
        } else if !is_preset && !is_key {
            stale.push(format!("{name} (no longer a preset or key of the code)"));
        }
    }
    report(
        "names to remove from NOT_YET_IN_RULES_MD in tests/it/docs_sync.rs",
        &stale,
    );
}

#[test]
fn the_readers_of_docs_rules_md_find_what_they_should() {
    let text = "\
Prose naming bagh-chal # not in a block.
```
y=4  20--21--22
00 (0,0): 01 05 06
bagh-chal                       # validation
  board=alquerque25 first=prey
  as bagh-chal, but: hunter_win=captures>=20
kaooa-6                         # variant
```
T2 `goal`, `edge_side=yes`, `throne_side`; `king_capture=strong`.
";
    assert_eq!(preset_headings(text), ["bagh-chal", "kaooa-6"]);
    assert!(names_key(text, "goal"));
    assert!(names_key(text, "edge_side"));
    assert!(names_key(text, "throne_side"));
    assert!(names_key(text, "hunter_win"));
    assert!(!names_key(text, "side"), "edge_side= is not side=");
    assert!(!names_key(text, "capture"), "king_capture= is not capture=");
    assert!(names_word(text, "alquerque25"));
    assert!(!names_word(text, "alquerque2"));
    assert_eq!(board_values(text), ["alquerque25"]);
    assert_eq!(
        board_values("`board=9x9`, board=mogol37."),
        ["9x9", "mogol37"]
    );
    assert!(board_exists("alquerque25") && board_exists("9x9") && board_exists("7x7"));
    assert!(!board_exists("no-such-board") && !board_exists("8x8"));
}
