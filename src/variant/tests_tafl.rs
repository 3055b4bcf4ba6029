//! The tafl presets as rules strings: canonical names, the full key=value form read back,
//! distinct fingerprints, and `AnyGame` reading every preset as tafl (moved from the
//! integration tests: it reads `TaflGame::rules` and `TaflRules::full_string`).

use crate::game::Game;
use crate::tafl::{from_spec, PRESETS};
use crate::variant::AnyGame;

#[test]
fn presets_round_trip_and_have_distinct_fingerprints() {
    let mut prints = Vec::new();
    for &(name, desc) in PRESETS {
        assert!(!desc.is_empty());
        let g = from_spec(name).unwrap();
        assert_eq!(g.rules_string(), name, "a preset prints as its own name");
        let again = from_spec(&g.rules_string()).unwrap();
        assert_eq!(again.rules(), g.rules());
        // The full key=value list parses back to the same rules too.
        let full = format!("{name},{}", g.rules().full_string());
        assert_eq!(from_spec(&full).unwrap().rules(), g.rules());
        prints.push(g.fingerprint());
        assert!(matches!(AnyGame::parse(name), Ok(AnyGame::Tafl(_))));
    }
    let mut sorted = prints.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), prints.len(), "fingerprints collide");
}
