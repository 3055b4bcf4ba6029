//! `verify --search`: tables against exact search without them on random
//! positions. Correct tables agree; tables with altered distances are caught.

use crate::common::run;
use huntsolve::answer::crosscheck_dir;
use huntsolve::table::{table_path, write_table, Table};
use huntsolve::NoProgress;
use huntsolve::{decode, encode};

fn solved(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("huntsolve-cc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let (code, _, err) = run(&["solve", "kaooa-6", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    d
}

#[test]
fn correct_tables_agree_with_search() {
    let d = solved("ok");
    let (code, out, err) = run(&[
        "verify",
        "--tables",
        d.to_str().unwrap(),
        "--search",
        "80",
        "--max-distance",
        "9",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("80 of 80 agree"), "{out}");
    // Same seed, same samples.
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    let a = crosscheck_dir(&g, &d, 40, 9, 7, &NoProgress).unwrap();
    let b = crosscheck_dir(&g, &d, 40, 9, 7, &NoProgress).unwrap();
    assert_eq!(a.samples.len(), 40);
    assert!(
        a.decided >= 30 && a.draws <= 10,
        "{} {}",
        a.decided,
        a.draws
    );
    let pos = |r: &huntsolve::answer::CrossReport| -> Vec<String> {
        r.samples.iter().map(|s| s.position.clone()).collect()
    };
    assert_eq!(pos(&a), pos(&b));
    // Samples span several distances, not only wins in one.
    assert!(
        a.distances.iter().filter(|&&n| n > 0).count() >= 3,
        "{:?}",
        a.distances
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn altered_distances_are_caught() {
    let d = solved("bad");
    let g = huntsolve::hunt::from_spec("kaooa-6").unwrap();
    // Every win/loss of every table two plies longer: consistent-looking records that
    // the verifier would also reject, here caught by search alone.
    for entry in std::fs::read_dir(&d).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("hst") {
            continue;
        }
        let t = Table::open(&path).unwrap();
        let meta = t.meta().clone();
        let recs: Vec<u16> = t
            .read_all()
            .unwrap()
            .into_iter()
            .map(|r| match decode(r) {
                Some((v, dist)) if v != huntsolve::game::Value::Draw => encode(v, dist + 2),
                _ => r,
            })
            .collect();
        drop(t);
        write_table(&table_path(&d, &meta.tier), &meta, &recs).unwrap();
    }
    let r = crosscheck_dir(&g, &d, 40, 9, 1, &NoProgress).unwrap();
    assert!(r.decided > 0);
    assert!(!r.all_agree());
    assert_eq!(r.disagreements, r.decided, "every decided sample disagrees");
    let (code, out, _) = run(&["verify", "--tables", d.to_str().unwrap(), "--search", "20"]);
    assert_eq!(code, 1, "a disagreement exits 1");
    assert!(out.contains("DISAGREE"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}
