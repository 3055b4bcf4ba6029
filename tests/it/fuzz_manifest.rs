//! Fuzz target `manifest`: solve manifests (TOML) through `Manifest::parse`,
//! seeded by the embedded default batch and the committed manifests. A manifest
//! that parses keeps its promises (jobs, safe and distinct names, valid scopes),
//! its memory size parses or is refused cleanly, and written back as TOML it
//! parses to the same manifest; nothing panics.

use super::{case, corpus_files, iters, Mutator};
use huntsolve::retro::{parse_size, Manifest, Scope, DEFAULT_MANIFEST};

const DICT: &[&str] = &[
    "[[job]]\n",
    "[job]\n",
    "name = ",
    "rules = ",
    "scope = ",
    "out = ",
    "threads = ",
    "memory = ",
    "results = ",
    "\"kaooa\"",
    "\"whole\"",
    "\"movement\"",
    "\"max-prey=3\"",
    "\"material=1,0\"",
    "\"8G\"",
    "\"1.5T\"",
    "\"0\"",
    "\"\"",
    "'",
    "\"\"\"",
    "\n",
    "=",
    "#",
    "[",
    "]",
    "{",
    "}",
    "..",
    "/",
    "\\u0000",
    "-1",
    "1e99",
    "true",
    "0x10",
    "inf",
    "nan",
    "é",
];

/// The manifest written back as TOML.
fn to_toml(m: &Manifest) -> String {
    let mut t = toml::Table::new();
    let path = |p: &std::path::PathBuf| toml::Value::String(p.to_str().unwrap().to_string());
    if let Some(o) = &m.out {
        t.insert("out".into(), path(o));
    }
    if let Some(n) = m.threads {
        t.insert("threads".into(), toml::Value::Integer(n as i64));
    }
    if let Some(s) = &m.memory {
        t.insert("memory".into(), toml::Value::String(s.clone()));
    }
    if let Some(r) = &m.results {
        t.insert("results".into(), path(r));
    }
    let jobs = m
        .jobs
        .iter()
        .map(|j| {
            let mut jt = toml::Table::new();
            jt.insert("name".into(), toml::Value::String(j.name.clone()));
            jt.insert("rules".into(), toml::Value::String(j.rules.clone()));
            if let Some(s) = &j.scope {
                jt.insert("scope".into(), toml::Value::String(s.clone()));
            }
            if let Some(o) = &j.out {
                jt.insert("out".into(), path(o));
            }
            toml::Value::Table(jt)
        })
        .collect();
    t.insert("job".into(), toml::Value::Array(jobs));
    toml::to_string(&t).unwrap()
}

fn one(text: &str) {
    let Ok(m) = Manifest::parse(text) else { return };
    assert!(!m.jobs.is_empty(), "a manifest without jobs accepted");
    for (k, j) in m.jobs.iter().enumerate() {
        assert!(
            !j.name.is_empty() && !j.name.starts_with('.'),
            "{:?}",
            j.name
        );
        assert!(
            !j.name.contains('/') && !j.name.contains('\\'),
            "{:?}",
            j.name
        );
        assert!(m.jobs[..k].iter().all(|o| o.name != j.name), "{:?}", j.name);
        Scope::parse(j.scope.as_deref().unwrap_or("whole")).unwrap();
        let _ = m.job_dir(j);
    }
    if let Some(s) = &m.memory {
        let _ = parse_size(s);
    }
    let again = Manifest::parse(&to_toml(&m))
        .unwrap_or_else(|e| panic!("written back, the manifest is refused: {e}"));
    assert_eq!(again, m, "written back, the manifest reads differently");
}

#[test]
fn fuzz_manifests() {
    let mut seeds: Vec<Vec<u8>> = vec![DEFAULT_MANIFEST.as_bytes().to_vec()];
    seeds.extend(corpus_files("manifest").into_iter().map(|(_, b)| b));
    for (k, s) in seeds.iter().enumerate() {
        let text = String::from_utf8(s.clone()).unwrap();
        Manifest::parse(&text).unwrap_or_else(|e| panic!("seed {k}: {e}"));
        case("manifest-seed", k as u64, s, || one(&text));
    }
    let mut m = Mutator::new("manifest", DICT);
    for i in 0..iters(10000) {
        let seed = m.pick(&seeds).clone();
        let text = m.mutate_text(std::str::from_utf8(&seed).unwrap(), &seeds);
        case("manifest", i, text.as_bytes(), || one(&text));
    }
}
