//! The compact solvers at their distance limit: a chain whose longest
//! distance is exactly [`MAX_COMPACT_DISTANCE`] is solved, in memory (both
//! kinds) and out of core, to the full solver's records; one a ply longer is
//! refused, never approximated. The chain: position `i` has one move, to
//! `i - 1`; position 0 is over, won by its side to move; so `i` is lost in `i`
//! plies for odd `i` and won for even, and the longest distance is the chain's
//! last position.

use super::ooc::{solve_tier_ooc, OocOptions};
use super::{solve_tier_compact, CompactKind, MAX_COMPACT_DISTANCE};
use crate::error::{Error, Result};
use crate::game::{Game, Notation, Value};
use crate::progress::NoProgress;
use crate::retro::compact::tests_checkpoint::temp_dir;
use crate::retro::{solve_tier_with, Absorb, ChildValues};
use crate::tier::TierGame;

/// Positions `0..=last` of a chain, in one tier of `slots` slots (the slots
/// past `last` hold no position, so the tier can be cut in parts).
#[derive(Clone, Debug)]
struct Chain {
    last: u32,
    slots: u64,
}

impl Game for Chain {
    type Pos = u32;
    type Move = ();
    fn rules_string(&self) -> String {
        format!("chain{}", self.last)
    }
    fn start(&self) -> u32 {
        self.last
    }
    fn legal_moves(&self, pos: &u32, out: &mut Vec<()>) {
        out.clear();
        if *pos > 0 {
            out.push(());
        }
    }
    fn play(&self, pos: &u32, _: ()) -> u32 {
        pos - 1
    }
    fn outcome(&self, pos: &u32) -> Option<Value> {
        (*pos == 0).then_some(Value::Win)
    }
    fn hash(&self, pos: &u32) -> u64 {
        u64::from(*pos)
    }
    fn side_to_move(&self, pos: &u32) -> usize {
        (*pos % 2) as usize
    }
}

impl Notation for Chain {
    fn format_position(&self, pos: &u32) -> String {
        pos.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<u32> {
        text.parse().map_err(|_| Error::Usage(text.into()))
    }
    fn format_move(&self, _: &u32, _: ()) -> String {
        "-".into()
    }
}

impl TierGame for Chain {
    type Tier = ();
    fn tier_of(&self, _: &u32) {}
    fn tier_name(&self, _: ()) -> String {
        "chain".into()
    }
    fn parse_tier(&self, _: &str) -> Result<()> {
        Ok(())
    }
    fn tier_children(&self, _: ()) -> Vec<()> {
        Vec::new()
    }
    fn tier_size(&self, _: ()) -> u64 {
        self.slots
    }
    fn rank(&self, _: (), pos: &u32) -> u64 {
        u64::from(*pos)
    }
    fn unrank(&self, _: (), index: u64) -> Option<u32> {
        (index <= u64::from(self.last)).then_some(index as u32)
    }
    fn unmoves(&self, pos: &u32, out: &mut Vec<u32>) {
        out.clear();
        if *pos < self.last {
            out.push(pos + 1);
        }
    }
}

#[test]
fn a_chain_as_long_as_the_compact_limit_is_solved_and_one_longer_refused() {
    let dir = temp_dir("distance-limit");
    for last in [MAX_COMPACT_DISTANCE, MAX_COMPACT_DISTANCE + 1] {
        let game = Chain {
            last,
            slots: 1 << 14,
        };
        let want = solve_tier_with(&game, (), &ChildValues::new(), &NoProgress, Absorb::Hint)
            .expect("the full solver");
        assert_eq!(want.stats.outcomes.max_distance, last);
        let d = dir.join(format!("ooc-{last}"));
        let opts = OocOptions {
            dir: d,
            parts: 2,
            stop_after_writes: None,
        };
        let ooc = solve_tier_ooc(&game, (), &ChildValues::new(), &opts, &NoProgress);
        let ooc = ooc.map(|t| {
            let records = t.records(0..game.slots as usize);
            (t.take_error(), records)
        });
        for kind in [CompactKind::Counted, CompactKind::Plain] {
            let got = solve_tier_compact(&game, (), &ChildValues::new(), kind, &NoProgress);
            if last > MAX_COMPACT_DISTANCE {
                let err = got.err().expect("a distance past the compact limit");
                assert!(err.to_string().contains("compact solver's limit"), "{err}");
            } else {
                let got = got.unwrap_or_else(|e| panic!("{kind:?}, longest {last}: {e}"));
                assert!(
                    got.all_records() == want.records,
                    "{kind:?}: records differ"
                );
                assert_eq!(got.stats.outcomes, want.stats.outcomes);
            }
        }
        match ooc {
            Ok((None, records)) if last <= MAX_COMPACT_DISTANCE => {
                assert!(records == want.records, "out of core: records differ")
            }
            Ok((Some(e), _)) | Err(e) if last > MAX_COMPACT_DISTANCE => {
                assert!(e.to_string().contains("compact solver's limit"), "{e}")
            }
            Ok((e, _)) => panic!("out of core, longest {last}: {e:?}"),
            Err(e) => panic!("out of core, longest {last}: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
