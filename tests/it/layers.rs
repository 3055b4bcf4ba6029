//! The library's layers, checked from its source: every `crate::` path in code
//! (a `use crate::...` line or an inline `crate::module::item`) must point to a
//! module of the same or a lower layer than the module that names it. The order
//! is the one documented in `src/lib.rs`; a new module must be given a layer here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Top-level modules of the library by layer, lowest first. A module may import
/// modules of its own layer only where listed in `SAME_LAYER`.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &["durable", "error", "progress", "random", "regular"],
    ),
    ("option words", &["choice"]),
    ("geometry", &["board"]),
    ("rules interface", &["game"]),
    ("tier vocabulary", &["tier"]),
    ("rules", &["hunt", "tafl", "toy"]),
    ("variants", &["variant"]),
    ("storage", &["table"]),
    ("generation", &["retro"]),
    ("distributed generation", &["cluster"]),
    ("search", &["search", "prove"]),
    ("combinations", &["answer"]),
    ("statistics", &["stats"]),
    ("faces", &["serve"]),
];

/// Modules that the layer order places side by side but that may use each other
/// in the direction given (importer, imported).
const SAME_LAYER: &[(&str, &str)] = &[("error", "regular")];

/// Crate-root names that are not modules: exported macros and re-exports, with
/// the module that defines them.
const ROOT_ITEMS: &[(&str, &str)] = &[
    ("with_game", "variant"),
    ("Error", "error"),
    ("Result", "error"),
    ("Game", "game"),
    ("Value", "game"),
    ("Oracle", "game"),
    ("AnyGame", "variant"),
];

fn rank_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of `text` with comments blanked out (line breaks kept, so byte
/// offsets still give line numbers) and string literals emptied.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                    out.push(' ');
                }
            }
            // A char literal ('"', '\\'), not a lifetime: copied whole.
            '\'' if {
                let mut ahead = chars.clone();
                match ahead.next() {
                    Some('\\') => {
                        ahead.next();
                        ahead.next() == Some('\'')
                    }
                    Some(_) => ahead.next() == Some('\''),
                    None => false,
                }
            } =>
            {
                out.push('\'');
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\'' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                out.push_str("x'");
            }
            '"' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        '\n' => out.push('\n'),
                        _ => {}
                    }
                }
                out.push('"');
            }
            c => out.push(c),
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths a `use` tree or an inline path spells from `at` (just after a
/// `crate::` or `super::`): `a::b` gives `["a::b"]`, `{a::X, b::{Y, Z}}`
/// gives `["a::X", "b::Y", "b::Z"]`.
fn paths_from(code: &str, at: usize) -> (Vec<String>, usize) {
    let b = code.as_bytes();
    let mut i = at;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && (b[*i] as char).is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i < b.len() && b[i] == b'{' {
        i += 1;
        let mut out = Vec::new();
        loop {
            skip_ws(&mut i);
            if i >= b.len() {
                return (out, i);
            }
            if b[i] == b'}' {
                return (out, i + 1);
            }
            if b[i] == b',' {
                i += 1;
                continue;
            }
            let (paths, next) = paths_from(code, i);
            out.extend(paths);
            if next == i {
                i += 1; // not a path: step over it
            } else {
                i = next;
            }
        }
    }
    let start = i;
    while i < b.len() && is_ident(b[i] as char) {
        i += 1;
    }
    if i == start {
        return (Vec::new(), i);
    }
    let name = &code[start..i];
    if code[i..].starts_with("::") {
        let (rest, next) = paths_from(code, i + 2);
        if rest.is_empty() {
            return (vec![name.to_string()], next);
        }
        return (rest.iter().map(|r| format!("{name}::{r}")).collect(), next);
    }
    (vec![name.to_string()], i)
}

/// Every path below `root::` (`crate` or `super`) that the code of `text`
/// names, grouped imports expanded, with the byte offset it starts at.
fn paths_below(text: &str, root: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let needle = format!("{root}::");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find(&needle) {
        let i = from + k;
        from = i + needle.len();
        // `huntsolve_crate::`, `$crate::` or `super::super::`'s second half are
        // not paths of their own here.
        let prefixed = code[..i]
            .chars()
            .last()
            .is_some_and(|c| is_ident(c) || c == '$' || c == ':');
        if prefixed {
            continue;
        }
        let (paths, _) = paths_from(&code, from);
        out.extend(paths.into_iter().map(|p| (i, p)));
    }
    out
}

/// Top-level module names code refers to through `crate::` (grouped imports
/// such as `use crate::{hunt, tafl::X}` name each module).
fn crate_refs(text: &str) -> Vec<String> {
    paths_below(text, "crate")
        .into_iter()
        .map(|(_, p)| p.split("::").next().unwrap_or("").to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn imports_follow_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut violations = Vec::new();
    let mut unknown = BTreeMap::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if ["lib", "main", "cli"].contains(&module.as_str()) {
            continue; // the crate root re-exports; the binary is above every layer
        }
        let Some(own) = rank_of(&module) else {
            unknown.insert(module.clone(), rel.display().to_string());
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (at, path) in paths_below(&text, "crate") {
            let n = text[..at].matches('\n').count();
            let target = path.split("::").next().unwrap_or("").to_string();
            checked += 1;
            let target = ROOT_ITEMS
                .iter()
                .find(|(item, _)| *item == target)
                .map(|(_, m)| m.to_string())
                .unwrap_or(target);
            if target == module {
                continue;
            }
            let Some(theirs) = rank_of(&target) else {
                unknown.insert(target.clone(), format!("{}:{}", rel.display(), n + 1));
                continue;
            };
            let allowed = theirs < own || SAME_LAYER.contains(&(module.as_str(), target.as_str()));
            if !allowed {
                violations.push(format!(
                    "{}:{}: {} ({}) imports {} ({})",
                    rel.display(),
                    n + 1,
                    module,
                    LAYERS[own].0,
                    target,
                    LAYERS[theirs].0
                ));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "modules without a layer (add them to LAYERS): {unknown:?}"
    );
    assert!(
        checked > 100,
        "only {checked} crate paths found: is the scan broken?"
    );
    assert!(
        violations.is_empty(),
        "imports against the layer order:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_scan_sees_imports() {
    assert_eq!(crate_refs("use crate::table::probe::X;"), vec!["table"]);
    assert_eq!(
        crate_refs("let a = crate::tier::encode(v, crate::game::Value::Win);"),
        vec!["tier", "game"]
    );
    assert!(crate_refs("// use crate::table;").is_empty());
    assert!(crate_refs("$crate::variant::AnyGame").is_empty());
    assert_eq!(crate_refs("use crate::{hunt, tafl};"), vec!["hunt", "tafl"]);
    assert_eq!(
        crate_refs("use crate::{\n    error::{Error, Result},\n    game::Game, // x\n};"),
        vec!["error", "error", "game"]
    );
    assert!(crate_refs("let s = \"crate::stats\";").is_empty());
    assert_eq!(
        crate_refs("let q = '\"'; let c: &'a str = crate::game::X;"),
        vec!["game"]
    );
}

/// Which modules of `prove/` a file names: `super::x` and `crate::prove::x`
/// paths (grouped ones too), and anything `crate::prove::` re-exports.
fn prove_modules_named(text: &str) -> Vec<String> {
    let mut out: Vec<String> = paths_below(text, "super")
        .into_iter()
        .map(|(_, p)| p.split("::").next().unwrap_or("").to_string())
        .collect();
    out.extend(
        paths_below(text, "crate")
            .into_iter()
            .filter_map(|(_, p)| p.strip_prefix("prove::").map(str::to_string))
            .map(|p| p.split("::").next().unwrap_or("").to_string()),
    );
    out.sort();
    out.dedup();
    out
}

/// The certificate checker shares no code with the prover it checks: it names
/// the certificate format of `prove/` and nothing else there (no `dfpn`, no
/// proof table, no budget, no re-export of `prove`, and not the prover's table
/// lookup `prove/tables.rs`: its leaves are read by `check/leaves.rs` through
/// the table module), and below `prove` only the rules (with their tiers), the
/// tables and the error type.
#[test]
fn the_checker_imports_nothing_of_the_prover() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/prove");
    let mut text = std::fs::read_to_string(root.join("check.rs")).unwrap();
    let mut files = 1;
    for e in std::fs::read_dir(root.join("check")).unwrap() {
        text.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
        files += 1;
    }
    assert!(files >= 2, "check/leaves.rs is scanned");
    assert_eq!(prove_modules_named(&text), vec!["certificate"]);
    let mut below: Vec<String> = crate_refs(&text)
        .into_iter()
        .filter(|m| m != "prove")
        .collect();
    below.sort();
    below.dedup();
    assert_eq!(below, vec!["error", "game", "regular", "table", "tier"]);
    // The scan itself sees what the test relies on.
    assert_eq!(
        prove_modules_named("use super::{certificate::Kind, dfpn::wins_for};"),
        vec!["certificate", "dfpn"]
    );
    assert_eq!(
        prove_modules_named("let w = crate::prove::wins_for(v, m, s);"),
        vec!["wins_for"]
    );
}

/// Every `pub enum` of the library is `#[non_exhaustive]` (a variant added
/// later breaks no user's match), or its documentation says why it is closed
/// ("Not `#[non_exhaustive]`: ...", e.g. a game's value is a win, a draw or a
/// loss and no fourth).
#[test]
fn public_enums_are_non_exhaustive_or_say_why_not() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("cli")) && !f.ends_with("main.rs"));
    let (mut open, mut seen) = (Vec::new(), 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            if !t.starts_with("pub enum ") {
                continue;
            }
            seen += 1;
            let above = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let t = l.trim_start();
                    t.starts_with("#[") || t.starts_with("///") || t.starts_with("//")
                })
                .any(|l| l.contains("#[non_exhaustive]") || l.contains("Not `#[non_exhaustive]`"));
            if !above {
                open.push(format!("{}:{}: {t}", f.display(), i + 1));
            }
        }
    }
    assert!(seen > 40, "the scan found only {seen} public enums");
    assert!(
        open.is_empty(),
        "public enums neither non-exhaustive nor said closed:\n{}",
        open.join("\n")
    );
}
