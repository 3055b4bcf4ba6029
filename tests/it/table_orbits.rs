//! Verify's orbit accounting: the stored classes' orbits must cover each tier's
//! placements exactly once. A rank collision between two symmetric positions (the
//! same value, so every record stays consistent with its children) passes the value
//! check and is caught only here.

use crate::common::table::{solved_dir, write_tier, TierTtt};
use huntsolve::game::{Game, Notation, Value};
use huntsolve::table::{table_path, verify_dir, verify_dir_with, Table, DEFAULT_CACHE_BYTES};
use huntsolve::NoProgress;
use huntsolve::Result;
use huntsolve::TttPos;
use huntsolve::{TierGame, REC_NONE};

/// [`TierTtt`] with orbit sizes (no symmetry: 1 each) and, when `collide`, a broken
/// index: the X on cell 0 is ranked to the slot of its mirror image, the X on cell 2,
/// and its own slot is empty.
#[derive(Clone, Debug, Default)]
struct Colliding {
    inner: TierTtt,
    collide: bool,
}

/// Base-3 codes of the two one-X boards.
const CORNER_0: u64 = 1;
const CORNER_2: u64 = 9;

impl Game for Colliding {
    type Pos = TttPos;
    type Move = u8;
    fn family(&self) -> &'static str {
        "toy"
    }
    fn rules_string(&self) -> String {
        self.inner.rules_string()
    }
    fn fingerprint(&self) -> u64 {
        self.inner.fingerprint()
    }
    fn start(&self) -> TttPos {
        self.inner.start()
    }
    fn legal_moves(&self, pos: &TttPos, out: &mut Vec<u8>) {
        self.inner.legal_moves(pos, out)
    }
    fn play(&self, pos: &TttPos, mv: u8) -> TttPos {
        self.inner.play(pos, mv)
    }
    fn outcome(&self, pos: &TttPos) -> Option<Value> {
        self.inner.outcome(pos)
    }
    fn hash(&self, pos: &TttPos) -> u64 {
        self.inner.hash(pos)
    }
    fn side_to_move(&self, pos: &TttPos) -> usize {
        self.inner.side_to_move(pos)
    }
}

impl Notation for Colliding {
    fn format_position(&self, pos: &TttPos) -> String {
        self.inner.format_position(pos)
    }
    fn parse_position(&self, text: &str) -> Result<TttPos> {
        self.inner.parse_position(text)
    }
    fn format_move(&self, pos: &TttPos, mv: u8) -> String {
        self.inner.format_move(pos, mv)
    }
}

impl TierGame for Colliding {
    type Tier = u8;
    fn tier_of(&self, pos: &TttPos) -> u8 {
        self.inner.tier_of(pos)
    }
    fn tier_name(&self, tier: u8) -> String {
        self.inner.tier_name(tier)
    }
    fn parse_tier(&self, name: &str) -> Result<u8> {
        self.inner.parse_tier(name)
    }
    fn tier_children(&self, tier: u8) -> Vec<u8> {
        self.inner.tier_children(tier)
    }
    fn tier_size(&self, tier: u8) -> u64 {
        self.inner.tier_size(tier)
    }
    fn rank(&self, tier: u8, pos: &TttPos) -> u64 {
        match self.inner.rank(tier, pos) {
            CORNER_0 if self.collide => CORNER_2,
            r => r,
        }
    }
    fn orbit_size(&self, _pos: &TttPos) -> Option<u64> {
        Some(1)
    }
    fn unrank(&self, tier: u8, index: u64) -> Option<TttPos> {
        if self.collide && index == CORNER_0 {
            return None;
        }
        self.inner.unrank(tier, index)
    }
    fn unmoves(&self, pos: &TttPos, out: &mut Vec<TttPos>) {
        self.inner.unmoves(pos, out)
    }
}

/// Boards with `t` marks, X first (counted by formula, not by the index).
fn placements(_: &Colliding, t: u8) -> u64 {
    let f = |n: u64| (1..=n).product::<u64>();
    let (nx, no) = (u64::from(t).div_ceil(2), u64::from(t) / 2);
    f(9) / (f(nx) * f(no) * f(9 - u64::from(t)))
}

#[test]
fn orbits_cover_the_placements_of_correct_tables() {
    let dir = solved_dir("orbits-ok");
    let g = Colliding::default();
    let r = verify_dir_with(&g, &dir, DEFAULT_CACHE_BYTES, Some(placements), &NoProgress).unwrap();
    assert!(r.all_agree(), "{:?}", r.tiers);
    assert_eq!((r.orbits_checked, r.orbit_mismatches), (10, 0));
    for t in &r.tiers {
        assert_eq!(t.orbits_agree, Some(true), "{t:?}");
        assert_eq!(t.covered, t.placements);
    }
    // Without placement counts: no accounting, and nothing claimed.
    let plain = verify_dir(&g, &dir, &NoProgress).unwrap();
    assert_eq!(plain.orbits_checked, 0);
    assert!(plain
        .tiers
        .iter()
        .all(|t| t.covered.is_none() && t.orbits_agree.is_none()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rank_collision_passes_the_value_check_and_fails_the_orbit_accounting() {
    let dir = solved_dir("orbits-collide");
    // The tables a solver with the broken index writes: the lost class's slot empty.
    let mut p1 = Table::open(&table_path(&dir, "p1"))
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(
        p1[CORNER_0 as usize], p1[CORNER_2 as usize],
        "mirror images, one value"
    );
    p1[CORNER_0 as usize] = REC_NONE;
    write_tier(&dir, 1, &p1);
    let g = Colliding {
        collide: true,
        ..Colliding::default()
    };
    let values_only = verify_dir(&g, &dir, &NoProgress).unwrap();
    assert!(values_only.all_agree(), "{:?}", values_only.examples);
    let r = verify_dir_with(&g, &dir, DEFAULT_CACHE_BYTES, Some(placements), &NoProgress).unwrap();
    assert!(!r.all_agree());
    assert_eq!((r.mismatches, r.orbit_mismatches), (0, 1));
    let p1 = r.tiers.iter().find(|t| t.tier == "p1").unwrap();
    assert_eq!(
        (p1.covered, p1.placements, p1.orbits_agree),
        (Some(8), Some(9), Some(false))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
