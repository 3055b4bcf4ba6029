//! docs/rules.md §3.3 lists Ludii's hunt category (`Common/res/lud/board/hunt/`, 77 files) file by
//! file. This checks the table as data: one row per file, 77 distinct files, every preset a row
//! names is a preset of the library, every row says what covers it or what it misses, and the
//! "feature → files" ranking below it is what the rows say (counts recomputed here).

use std::collections::{BTreeMap, BTreeSet};

const RULES_MD: &str = include_str!("../../docs/rules.md");

/// The text of §3.3: from its heading to the next `## ` heading.
fn section() -> &'static str {
    let start = RULES_MD
        .find("### 3.3 Ludii's hunt category")
        .expect("docs/rules.md has no §3.3 (Ludii's hunt category)");
    let rest = &RULES_MD[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    &rest[..end]
}

/// The cells of a table row (`| a | b |`), trimmed.
fn cells(line: &str) -> Vec<&str> {
    line.trim()
        .trim_start_matches('|')
        .trim_end_matches('|')
        .split(" | ")
        .map(str::trim)
        .collect()
}

/// The file rows: (file name, cells).
fn file_rows() -> Vec<(&'static str, Vec<&'static str>)> {
    section()
        .lines()
        .filter(|l| l.starts_with("| `") && l.contains(".lud` |"))
        .map(|l| {
            let c = cells(l);
            (c[0].trim_matches('`'), c)
        })
        .collect()
}

/// The `code` spans of a cell.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The missing features a row names for its default rules: the `;`-separated items after
/// `missing: `, each cut before a parenthesis; items about an option only are left out.
fn missing(last: &str) -> Vec<&str> {
    let Some((_, list)) = last.split_once("missing: ") else {
        return Vec::new();
    };
    list.split("; ")
        .map(|it| it.split(" (").next().unwrap_or(it).trim())
        .filter(|it| !it.starts_with("option"))
        .collect()
}

#[test]
fn the_family_table_has_one_row_per_ludii_hunt_file() {
    let rows = file_rows();
    let names: BTreeSet<&str> = rows.iter().map(|r| r.0).collect();
    assert_eq!(rows.len(), 77, "rows: {}", rows.len());
    assert_eq!(names.len(), 77, "distinct files: {}", names.len());
    for (file, c) in &rows {
        assert_eq!(c.len(), 6, "{file}: {} cells, want 6", c.len());
        assert!(file.ends_with(".lud"), "{file}");
        let last = c[5];
        assert!(
            last.contains("preset")
                || last.starts_with("no new feature")
                || last.contains("missing: "),
            "{file}: the last cell names no preset, no 'no new feature' and no 'missing: '"
        );
    }
}

#[test]
fn every_preset_the_family_table_names_exists() {
    let presets: BTreeSet<&str> = huntsolve::all_presets()
        .into_iter()
        .filter(|p| p.0 == "hunt")
        .map(|p| p.1)
        .collect();
    let mut cited = 0;
    let mut unknown = Vec::new();
    for (file, c) in file_rows() {
        for span in code_spans(c[5]) {
            if span.contains('=') {
                continue; // an option list, e.g. `prey=N,hunter_win=N`
            }
            cited += 1;
            if !presets.contains(span) {
                unknown.push(format!("{file}: {span}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "presets the table names that do not exist: {unknown:?}"
    );
    assert!(cited >= 15, "only {cited} presets cited");
}

#[test]
fn the_feature_ranking_is_what_the_rows_say() {
    let mut need: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut alone: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, c) in file_rows() {
        let items = missing(c[5]);
        for &it in &items {
            need.entry(it)
                .or_default()
                .push(file.trim_end_matches(".lud"));
        }
        if let [only] = items[..] {
            *alone.entry(only).or_default() += 1;
        }
    }
    let ranking: Vec<Vec<&str>> = section()
        .lines()
        .skip_while(|l| !l.starts_with("| feature | files | alone |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect();
    assert!(
        !ranking.is_empty(),
        "no 'feature | files | alone' table in §3.3"
    );
    let listed: BTreeSet<&str> = ranking.iter().map(|r| r[0]).collect();
    let named: BTreeSet<&str> = need.keys().copied().collect();
    assert_eq!(
        listed, named,
        "features of the ranking vs. features the rows name"
    );
    let mut last = usize::MAX;
    for r in &ranking {
        let files = &need[r[0]];
        assert_eq!(r[1], files.len().to_string(), "{}: file count", r[0]);
        assert_eq!(
            r[2],
            alone.get(r[0]).unwrap_or(&0).to_string(),
            "{}: alone",
            r[0]
        );
        assert_eq!(r[3], files.join(", "), "{}: files", r[0]);
        assert!(files.len() <= last, "{}: the ranking is not by count", r[0]);
        last = files.len();
    }
}

#[test]
fn the_row_readers_read_what_they_should() {
    let last =
        "missing: prey move only forward or sideways (default \"x\"); option \"y\": z; huffing";
    assert_eq!(
        missing(last),
        ["prey move only forward or sideways", "huffing"]
    );
    assert!(missing("presets `adugo`").is_empty());
    assert_eq!(code_spans("presets `a` (x), `b`, `p=1`"), ["a", "b", "p=1"]);
    assert_eq!(cells("| `A.lud` | A | x |"), ["`A.lud`", "A", "x"]);
}
