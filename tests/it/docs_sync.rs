//! docs/rules.md is the project's rules specification (/work/shared/rules-spec.md) with a
//! one-paragraph header: this checks the copy has not drifted where the original is at hand
//! (the research workspace), and says why it skips elsewhere (a clean clone, CI).

use std::path::{Path, PathBuf};

/// The original specification, if this checkout sits beside it.
fn original() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        repo.join("../shared/rules-spec.md"),
        PathBuf::from("/work/shared/rules-spec.md"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// docs/rules.md without its leading `<!-- ... -->` header and the blank line after it.
fn copy_body(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("<!--") else {
        return text;
    };
    match rest.find("-->") {
        Some(end) => rest[end + 3..].trim_start_matches('\n'),
        None => text,
    }
}

#[test]
fn docs_rules_md_equals_the_shared_rules_spec() {
    let Some(spec) = original() else {
        println!(
            "skipped: no rules-spec.md at ../shared/ or /work/shared/ (a clean clone); docs/rules.md is not compared"
        );
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = std::fs::read_to_string(repo.join("docs/rules.md")).unwrap();
    let spec_text = std::fs::read_to_string(&spec).unwrap();
    let body = copy_body(&copy);
    if body != spec_text {
        let line = body
            .lines()
            .zip(spec_text.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || {
                    format!(
                        "the texts differ in length ({} vs {} lines)",
                        body.lines().count(),
                        spec_text.lines().count()
                    )
                },
                |i| format!("first difference at line {} of the specification", i + 1),
            );
        panic!(
            "docs/rules.md has drifted from {}: {line}; copy it again (keeping the header comment)",
            spec.display()
        );
    }
}

#[test]
fn the_header_is_stripped_and_only_the_header() {
    assert_eq!(copy_body("<!-- note -->\n\n# Rules\n"), "# Rules\n");
    assert_eq!(copy_body("# Rules\n"), "# Rules\n");
    assert_ne!(
        copy_body("<!-- note -->\n\n# Rules\n"),
        "# Rules, changed\n"
    );
}
