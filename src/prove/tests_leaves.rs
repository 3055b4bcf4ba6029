//! The checker's batched table reading (`check/leaves.rs`) against the
//! prover's own lookup (`tables.rs`): kept here, outside `check/`, so that the
//! checker's files name nothing of the prover (tests/it/layers.rs).

use super::check::LeafTables;
use crate::game::{Game, Notation};
use crate::progress::NoProgress;
use crate::prove::tables::TableDirs;
use crate::random::Rng;

/// The checker's batched reading, asked in random order, answers each
/// position as the prover's own lookup does (a separate path to the same
/// tables): value, distance, tier and file, over positions of many tiers
/// and values along random kaooa games, each asked twice.
#[test]
fn leaves_answer_in_the_order_asked() {
    let g = crate::hunt::from_spec("kaooa").unwrap();
    let dir = std::env::temp_dir().join(format!("huntsolve-leaves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = crate::retro::SolveOptions {
        threads: 1,
        memory_limit: None,
        ..Default::default()
    };
    crate::retro::driver::solve(&g, &crate::retro::Scope::Whole, &dir, &opts, &NoProgress).unwrap();
    let mut rng = Rng::new(7);
    let mut ps = Vec::new();
    for _ in 0..40 {
        let mut p = g.start();
        while let Some(m) = g.random_move(&p, &mut rng) {
            ps.push(p);
            if g.outcome(&p).is_some() || ps.len() % 60 == 0 {
                break;
            }
            p = g.play(&p, m);
        }
    }
    let mut asked: Vec<_> = ps.iter().chain(ps.iter()).cloned().collect();
    for i in (1..asked.len()).rev() {
        asked.swap(i, rng.below(i + 1));
    }
    let dirs = [dir.clone()];
    let mine = LeafTables::open(&g, &dirs).unwrap().leaves(&asked).unwrap();
    let prover = TableDirs::open(&g, &dirs).unwrap();
    let values: std::collections::BTreeSet<_> = mine.iter().flatten().map(|x| (x.1, x.2)).collect();
    assert!(values.len() > 5, "{values:?}");
    for (p, got) in asked.iter().zip(&mine) {
        assert_eq!(
            got,
            &prover.leaf(&g, p).unwrap(),
            "{}",
            g.format_position(p)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
