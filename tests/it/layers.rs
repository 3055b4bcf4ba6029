//! The library's layers, checked from its source: every `crate::` path in code
//! (a `use crate::...` line or an inline `crate::module::item`) must point to a
//! module of the same or a lower layer than the module that names it. The order
//! is the one documented in `src/lib.rs`; a new module must be given a layer here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Top-level modules of the library by layer, lowest first. A module may import
/// modules of its own layer only where listed in `SAME_LAYER`.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["error", "progress", "random"]),
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
const SAME_LAYER: &[(&str, &str)] = &[];

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

/// Top-level module names a line of code refers to through `crate::`.
fn crate_refs(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = &rest[..i];
        let after = &rest[i + "crate::".len()..];
        // `huntsolve_crate::` or `$crate::` are not ours.
        let prefixed = before
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !prefixed && !name.is_empty() {
            out.push(name);
        }
        rest = after;
    }
    out
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
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") {
                continue;
            }
            for target in crate_refs(line) {
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
                let allowed =
                    theirs < own || SAME_LAYER.contains(&(module.as_str(), target.as_str()));
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
}
