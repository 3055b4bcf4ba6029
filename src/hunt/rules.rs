//! Hunt-game rules (options H1-H16 of docs/rules.md §2.1), the presets of §3.1,
//! and the rules string `preset[,key=value...]`.
//!
//! # Canonical form
//! Equal rules print equally: the printed form is the preset (in [`PRESETS`]
//! order) from which the rules differ in the fewest options, followed by those
//! options in the fixed key order of [`KEYS`]. So `diviyan-keliya,chain=none`
//! prints as `diviyan-keliya-ludii`, and `kungser` (an alias) as
//! `cows-leopards-mogol`. The 64-bit fingerprint hashes this form together with
//! the board geometry (so a board file that changes changes the fingerprint).

use crate::choice::{choice_words, Choice};
use crate::error::{quote, Error, Result};

/// The two sides of a hunt game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Side {
    /// Leopards, tigers, the vulture (side 0).
    Hunter,
    /// Cows, goats, crows (side 1).
    Prey,
}

/// H3: where the hunters start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HunterStart {
    /// In hand, dropped one per turn.
    Hand,
    /// On these points (names), e.g. the Bagh-Chal corners.
    Points(Vec<String>),
}

/// H3b: where the prey start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PreyStart {
    /// In hand, dropped one per turn.
    Hand,
    /// On these points (names), e.g. Adugo's dogs: nothing in hand.
    Points(Vec<String>),
}

/// H5: where the first hunter drop may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FirstDrop {
    /// Any empty point.
    Any,
    /// The board's centre (any point if the centre is already taken).
    Centre,
}

/// H8: capture chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Chain {
    /// One jump per turn.
    None,
    /// May stop after any jump of a chain.
    Optional,
    /// Must keep jumping with the same hunter while it can (free choice of branch).
    Continue,
    /// Must pick a chain with the most captures (among all capture moves).
    Maximal,
}

/// H10: when captured prey leave the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Removal {
    /// At once: the emptied point may be landed on later in the chain.
    Immediate,
    /// After the turn: captured prey still block landing points during the chain.
    EndOfTurn,
}

/// H11: when the hunters win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HunterWin {
    /// After this many captures.
    Captures(u8),
    /// When prey on board plus prey in hand drop below M_k of the board (k = hunters).
    Static,
}

/// H14: the prey to move without a legal action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PreyNoMoves {
    /// The prey lose.
    Loss,
    /// The prey pass (their only legal move is `pass`).
    Pass,
    /// The game is drawn.
    Draw,
}

/// H15: repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Repetition {
    /// Cycles are draws (retrograde semantics).
    Draw,
    /// Repeating a position is forbidden (stored for search only).
    Forbid,
}

choice_words! {
    Side {
        "hunter" => Hunter,
        "prey" => Prey,
        "hunters" => Hunter,
    }
    FirstDrop {
        "any" => Any,
        "centre" => Centre,
        "center" => Centre,
    }
    Chain {
        "none" => None,
        "optional" => Optional,
        "continue" => Continue,
        "maximal" => Maximal,
    }
    Removal {
        "immediate" => Immediate,
        "end_of_turn" => EndOfTurn,
    }
    PreyNoMoves {
        "loss" => Loss,
        "pass" => Pass,
        "draw" => Draw,
    }
    Repetition {
        "draw" => Draw,
        "forbid" => Forbid,
    }
}

/// H6 `drop_before_move` as (hunters, prey) must drop all before moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DropBeforeMove((bool, bool));

impl Choice for DropBeforeMove {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("both", DropBeforeMove((true, true))),
        ("hunter", DropBeforeMove((true, false))),
        ("prey", DropBeforeMove((false, true))),
        ("none", DropBeforeMove((false, false))),
        ("hunter+prey", DropBeforeMove((true, true))),
        ("prey+hunter", DropBeforeMove((true, true))),
    ];
}

/// A yes/no option of the hunt family (printed `true`/`false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flag(bool);

impl Choice for Flag {
    const WORDS: &'static [(&'static str, Self)] = &[
        ("true", Flag(true)),
        ("false", Flag(false)),
        ("yes", Flag(true)),
        ("no", Flag(false)),
        ("on", Flag(true)),
        ("off", Flag(false)),
    ];
}

/// A complete hunt-game rule set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HuntRules {
    /// H1: built-in board name or board file path.
    pub board: String,
    /// H2: number of hunters.
    pub hunters: u8,
    /// H2: number of prey.
    pub prey: u8,
    /// H3.
    pub hunter_start: HunterStart,
    /// H3b.
    pub prey_start: PreyStart,
    /// H4: who moves first.
    pub first: Side,
    /// H5.
    pub first_drop: FirstDrop,
    /// H6: per side (hunter, prey): while holding pieces in hand, drops are the only actions.
    pub drop_before_move: (bool, bool),
    /// H7: when a hunter can capture, only captures are legal (no drops, no steps).
    pub capture_compulsory: bool,
    /// H8.
    pub chain: Chain,
    /// H10.
    pub removal: Removal,
    /// H11.
    pub hunter_win: HunterWin,
    /// H14.
    pub prey_no_moves: PreyNoMoves,
    /// H15.
    pub repetition: Repetition,
    /// H16: plies after which search and self-play call a draw.
    pub move_limit: Option<u32>,
}

/// Presets: (name, one-line description), docs/rules.md §3.1.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "diviyan-keliya",
        "seed A: 2 leopards, 24 cows, Peralikatuma board, optional capture, chains continue, all cows to win",
    ),
    (
        "diviyan-keliya-ludii",
        "Ludii's Diviyan Keliya, default option: single optional jumps",
    ),
    (
        "diviyan-keliya-ludii-multi",
        "Ludii's Diviyan Keliya, 'Multiple hops and Force to hop': compulsory capture, chains continue",
    ),
    (
        "cows-leopards-peralikatuma",
        "seed C on the Peralikatuma board: single compulsory captures, leopards win when cows < M2",
    ),
    (
        "cows-leopards-mogol",
        "seed C on the 37-point Mogol Putt'han board",
    ),
    (
        "kungser",
        "Tibetan Kungser: alias of cows-leopards-mogol (princes and lamas)",
    ),
    (
        "cows-leopards-mogol43",
        "seed C on Ludii's 43-point 'Nineteen Pieces' board (experimental)",
    ),
    (
        "bagh-chal",
        "Bagh-Chal: 4 tigers on the corners, 20 goats, tigers win at 5 captures",
    ),
    (
        "bagh-chal-ludii",
        "Ludii's Bagh-Chal: tigers win when all 20 goats are taken",
    ),
    (
        "kaooa",
        "Kaooa (GamesmanOne): 1 vulture, 7 crows on the pentagram, vulture wins at 4 captures",
    ),
    ("kaooa-6", "GamesmanOne's mKaooa: 6 crows, vulture wins at 3 captures"),
    (
        "hat-diviyan-keliya",
        "Sri Lanka (Ludii): 1 tiger, 7 leopards, both from hand, 10-point triangle, tiger wins at 4 captures",
    ),
    (
        "hat-diviyan-keliya-large",
        "Ludii's large Hat Diviyan Keliya: 2 tigers, 8 leopards, 13-point triangle, 3 captures",
    ),
    (
        "huli-mane-ata",
        "Karnataka (Ludii): 1 tiger on the apex, 5 lambs, 10-point triangle, tiger wins at 2 captures",
    ),
    (
        "mysore-tiger",
        "Mysore tiger game (Ludii): 1 tiger on the apex, 3 people, 6-point triangle, one capture wins",
    ),
    (
        "pulijudamu",
        "Vijayanagara (Ludii defaults): 1 tiger on the apex, 5 goats, 19-point board, all goats to win",
    ),
    (
        "adugo",
        "Brazil (Ludii): jaguar on the centre, 14 dogs on the far rows, 31-point board, all dogs to win",
    ),
    (
        "adugo-5",
        "Ludii's Adugo option 'Capture at least five dogs'",
    ),
    (
        "orissa-tiger",
        "Orissa tiger game, one tiger (Ludii): 12 goats on the far rows, 31-point board, all goats to win",
    ),
    (
        "cercar-la-liebre",
        "Spain (Ludii, Alfonso X; also Pon Chochotl): the hare on the centre, 12 counters move first, 3 captures win",
    ),
    (
        "cercar-la-liebre-murray",
        "Ludii's Cercar La Liebre, ruleset Murray: the hare's hops may chain",
    ),
    (
        "coyote",
        "Mexico (Ludii): as Cercar La Liebre on the 5x5 grid with the long diagonals only",
    ),
    (
        "kulaochal",
        "India (Ludii): 4 tigers on the corners move first, 20 goats on the other points but the centre",
    ),
    (
        "yaguarete-kora",
        "Argentina (Ludii): the jaguar moves first, 15 dogs on the far rows, 31-point board, 9 captures win",
    ),
    (
        "fox-and-geese",
        "Europe (Ludii; also Manu): the fox drops first, 13 geese, 33-point cross, all geese to win",
    ),
    (
        "fox-and-geese-15",
        "Ludii's Fox and Geese, option '15 Geese'",
    ),
    (
        "fox-and-geese-17",
        "Ludii's Fox and Geese, option '17 Geese'",
    ),
    (
        "musinaykahwhanmetowaywin",
        "Canada (Ludii): the oke-mow on the centre moves first, chains of hops, 13 pawns",
    ),
    (
        "refskak",
        "Iceland (Ludii): the fox on the centre, 13 lambs move first, 7 captures win",
    ),
    (
        "nuktagaq",
        "Canada (Ludii): 2 hunters at the centre move first, 19 prey, the cross without 3 central edges",
    ),
    (
        "la-yagua",
        "Argentina (Ludii): the jaguar moves first, 12 dogs, 31-point board with an inner triangle, 6 captures win",
    ),
    (
        "juroku-musashi",
        "Japan (Ludii): the general on the centre, 16 soldiers on the rim move first, 33-point board",
    ),
    (
        "komikan-mapuchess",
        "Chile (Ludii's Komikan, ruleset MapuChess): the lion moves first, chains, 12 dogs; dogs without a move draw",
    ),
    (
        "demala-diviyan-keliya",
        "Sri Lanka (Ludii): 3 tigers move first, 15 dogs from hand, 23-point board, 8 captures win",
    ),
    (
        "bam-blang-beh-khla",
        "Assam (Ludii): the tiger on the apex moves first, 3 goats, 10-point board",
    ),
    (
        "yeung-luk-sz-kon-tseung-kwan",
        "China (Ludii): the general on the centre, 26 rebels move first, 5x9 grid with a triangle",
    ),
];

/// The sides' names in each preset family's own words, for output only (they
/// are not part of the rules string or the fingerprint): (preset name prefix,
/// hunters singular and plural, prey singular and plural).
const SIDE_WORDS: &[(&str, [&str; 2], [&str; 2])] = &[
    ("diviyan-keliya", ["leopard", "leopards"], ["cow", "cows"]),
    ("cows-leopards", ["leopard", "leopards"], ["cow", "cows"]),
    ("kungser", ["leopard", "leopards"], ["cow", "cows"]),
    ("bagh-chal", ["tiger", "tigers"], ["goat", "goats"]),
    ("kaooa", ["vulture", "vultures"], ["crow", "crows"]),
    (
        "hat-diviyan-keliya",
        ["tiger", "tigers"],
        ["leopard", "leopards"],
    ),
    ("huli-mane-ata", ["tiger", "tigers"], ["lamb", "lambs"]),
    ("mysore-tiger", ["tiger", "tigers"], ["person", "people"]),
    ("pulijudamu", ["tiger", "tigers"], ["goat", "goats"]),
    ("adugo", ["jaguar", "jaguars"], ["dog", "dogs"]),
    ("orissa-tiger", ["tiger", "tigers"], ["goat", "goats"]),
    (
        "cercar-la-liebre",
        ["hare", "hares"],
        ["counter", "counters"],
    ),
    ("coyote", ["coyote", "coyotes"], ["sheep", "sheep"]),
    ("kulaochal", ["tiger", "tigers"], ["goat", "goats"]),
    ("yaguarete-kora", ["jaguar", "jaguars"], ["dog", "dogs"]),
    ("fox-and-geese", ["fox", "foxes"], ["goose", "geese"]),
    (
        "musinaykahwhanmetowaywin",
        ["oke-mow", "oke-mows"],
        ["pawn", "pawns"],
    ),
    ("refskak", ["fox", "foxes"], ["lamb", "lambs"]),
    // Nuktagaq.lud names no pieces (both are Markers): the side of two and the side of 19.
    (
        "nuktagaq",
        ["hunting piece", "hunting pieces"],
        ["hunted piece", "hunted pieces"],
    ),
    ("la-yagua", ["jaguar", "jaguars"], ["dog", "dogs"]),
    (
        "juroku-musashi",
        ["general", "generals"],
        ["soldier", "soldiers"],
    ),
    ("komikan", ["lion", "lions"], ["dog", "dogs"]),
    (
        "demala-diviyan-keliya",
        ["tiger", "tigers"],
        ["dog", "dogs"],
    ),
    ("bam-blang-beh-khla", ["tiger", "tigers"], ["goat", "goats"]),
    (
        "yeung-luk-sz-kon-tseung-kwan",
        ["general", "generals"],
        ["rebel", "rebels"],
    ),
];

/// Option keys in canonical order.
pub const KEYS: &[&str] = &[
    "board",
    "hunters",
    "prey",
    "hunter_start",
    "prey_start",
    "first",
    "first_drop",
    "drop_before_move",
    "capture_compulsory",
    "chain",
    "removal",
    "hunter_win",
    "prey_no_moves",
    "repetition",
    "move_limit",
];

impl HuntRules {
    /// The rules of a preset.
    pub(crate) fn preset(name: &str) -> Result<HuntRules> {
        let seed_a = HuntRules {
            board: "peralikatuma49".into(),
            hunters: 2,
            prey: 24,
            hunter_start: HunterStart::Hand,
            prey_start: PreyStart::Hand,
            first: Side::Hunter,
            first_drop: FirstDrop::Any,
            drop_before_move: (true, true),
            capture_compulsory: false,
            chain: Chain::Continue,
            removal: Removal::Immediate,
            hunter_win: HunterWin::Captures(24),
            prey_no_moves: PreyNoMoves::Loss,
            repetition: Repetition::Draw,
            move_limit: None,
        };
        let seed_c = HuntRules {
            capture_compulsory: true,
            chain: Chain::None,
            hunter_win: HunterWin::Static,
            ..seed_a.clone()
        };
        let bagh = HuntRules {
            board: "alquerque25".into(),
            hunters: 4,
            prey: 20,
            hunter_start: HunterStart::Points(
                ["a1", "e1", "a5", "e5"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
            first: Side::Prey,
            drop_before_move: (true, true),
            capture_compulsory: false,
            chain: Chain::None,
            hunter_win: HunterWin::Captures(5),
            ..seed_a.clone()
        };
        let kaooa = HuntRules {
            board: "pentagram10".into(),
            hunters: 1,
            prey: 7,
            first: Side::Prey,
            chain: Chain::None,
            hunter_win: HunterWin::Captures(4),
            ..seed_a.clone()
        };
        let points = |names: &str| names.split('+').map(String::from).collect::<Vec<_>>();
        // The atlas games (docs/rules.md §3.1): single optional jumps, no moves lose.
        let atlas = HuntRules {
            board: "triangle10".into(),
            hunters: 1,
            prey: 7,
            chain: Chain::None,
            hunter_win: HunterWin::Captures(4),
            ..seed_a.clone()
        };
        let tiger_on = |board: &str, apex: &str, prey: u8, captures: u8| HuntRules {
            board: board.into(),
            hunter_start: HunterStart::Points(points(apex)),
            prey,
            first: Side::Prey,
            hunter_win: HunterWin::Captures(captures),
            ..atlas.clone()
        };
        let adugo = HuntRules {
            board: "alquerque31".into(),
            hunter_start: HunterStart::Points(points("c5")),
            prey: 14,
            prey_start: PreyStart::Points(points("a5+b5+d5+e5+a6+b6+c6+d6+e6+a7+b7+c7+d7+e7")),
            hunter_win: HunterWin::Captures(14),
            ..atlas.clone()
        };
        // Ludii's hunt files of docs/rules.md §3.3 whose pieces start on points.
        let placed = |board: &str, hunters: &str, prey: &str, first: Side, captures: u8| {
            let (hunters, prey) = (points(hunters), points(prey));
            HuntRules {
                board: board.into(),
                hunters: hunters.len() as u8,
                prey: prey.len() as u8,
                hunter_start: HunterStart::Points(hunters),
                prey_start: PreyStart::Points(prey),
                first,
                hunter_win: HunterWin::Captures(captures),
                ..atlas.clone()
            }
        };
        const COUNTERS: &str = "a1+b1+c1+d1+e1+a2+b2+c2+d2+e2+a3+e3";
        const GEESE: &str = "c1+d1+e1+c2+d2+e2+a3+b3+c3+d3+e3+f3+g3";
        let geese = |extra: &str, n: u8| HuntRules {
            hunter_start: HunterStart::Hand,
            ..placed("cross33", "d4", &format!("{GEESE}{extra}"), Side::Hunter, n)
        };
        let pass = |r: HuntRules| HuntRules {
            prey_no_moves: PreyNoMoves::Pass,
            ..r
        };
        Ok(match name {
            "diviyan-keliya" => seed_a,
            "diviyan-keliya-ludii" => HuntRules {
                chain: Chain::None,
                ..seed_a
            },
            "diviyan-keliya-ludii-multi" => HuntRules {
                capture_compulsory: true,
                ..seed_a
            },
            "cows-leopards-peralikatuma" => seed_c,
            "cows-leopards-mogol" | "kungser" => HuntRules {
                board: "mogol37".into(),
                ..seed_c
            },
            "cows-leopards-mogol43" => HuntRules {
                board: "mogol43".into(),
                ..seed_c
            },
            "bagh-chal" => bagh,
            "bagh-chal-ludii" => HuntRules {
                hunter_win: HunterWin::Captures(20),
                ..bagh
            },
            "kaooa" => kaooa,
            "kaooa-6" => HuntRules {
                prey: 6,
                hunter_win: HunterWin::Captures(3),
                ..kaooa
            },
            "hat-diviyan-keliya" => atlas,
            "hat-diviyan-keliya-large" => HuntRules {
                board: "triangle13".into(),
                hunters: 2,
                prey: 8,
                hunter_win: HunterWin::Captures(3),
                ..atlas
            },
            "huli-mane-ata" => tiger_on("triangle10", "d7", 5, 2),
            "mysore-tiger" => tiger_on("mysore6", "c5", 3, 1),
            "pulijudamu" => tiger_on("pulijudamu19", "e9", 5, 5),
            "adugo" => adugo,
            "adugo-5" => HuntRules {
                hunter_win: HunterWin::Captures(5),
                ..adugo
            },
            "orissa-tiger" => HuntRules {
                hunter_start: HunterStart::Points(points("c2")),
                prey: 12,
                prey_start: PreyStart::Points(points("a5+e5+a6+b6+c6+d6+e6+a7+b7+c7+d7+e7")),
                hunter_win: HunterWin::Captures(12),
                ..adugo
            },
            "cercar-la-liebre" => placed("alquerque25", "c3", COUNTERS, Side::Prey, 3),
            "cercar-la-liebre-murray" => HuntRules {
                chain: Chain::Optional,
                ..placed("alquerque25", "c3", COUNTERS, Side::Prey, 3)
            },
            "coyote" => placed("radiating25", "c3", COUNTERS, Side::Prey, 3),
            "kulaochal" => pass(placed(
                "alquerque25",
                "a1+e1+a5+e5",
                "b1+c1+d1+a2+b2+c2+d2+e2+a3+b3+d3+e3+a4+b4+c4+d4+e4+b5+c5+d5",
                Side::Hunter,
                20,
            )),
            "yaguarete-kora" => pass(placed(
                "alquerque31",
                "c2",
                "a5+b5+c5+d5+e5+a6+b6+c6+d6+e6+a7+b7+c7+d7+e7",
                Side::Hunter,
                9,
            )),
            "fox-and-geese" => geese("", 13),
            "fox-and-geese-15" => geese("+a4+g4", 15),
            "fox-and-geese-17" => geese("+a4+g4+a5+g5", 17),
            "musinaykahwhanmetowaywin" => HuntRules {
                chain: Chain::Optional,
                ..pass(placed("cross33", "d4", GEESE, Side::Hunter, 13))
            },
            "refskak" => placed(
                "cross33",
                "d4",
                "c1+d1+e1+c2+d2+e2+a3+b3+c3+d3+e3+f3+g3",
                Side::Prey,
                7,
            ),
            "nuktagaq" => placed(
                "nuktagaq33",
                "d3+d4",
                "a4+b4+c4+e4+f4+g4+a5+b5+c5+d5+e5+f5+g5+c6+d6+e6+c7+d7+e7",
                Side::Hunter,
                19,
            ),
            "la-yagua" => placed("yagua31", "c7", COUNTERS, Side::Hunter, 6),
            "juroku-musashi" => pass(placed(
                "juroku33",
                "d5",
                "a3+b3+d3+f3+g3+a4+g4+a5+g5+a6+g6+a7+b7+d7+f7+g7",
                Side::Prey,
                16,
            )),
            "komikan-mapuchess" => HuntRules {
                chain: Chain::Optional,
                prey_no_moves: PreyNoMoves::Draw,
                ..placed(
                    "komikan38",
                    "e7",
                    "a1+c1+e1+g1+i1+a2+c2+e2+g2+i2+a3+i3",
                    Side::Hunter,
                    12,
                )
            },
            "demala-diviyan-keliya" => HuntRules {
                board: "demala23".into(),
                hunters: 3,
                hunter_start: HunterStart::Points(points("g4+i4+h5")),
                prey: 15,
                hunter_win: HunterWin::Captures(8),
                ..atlas.clone()
            },
            "bam-blang-beh-khla" => pass(placed("bamblang10", "d4", "c1+d1+e1", Side::Hunter, 3)),
            "yeung-luk-sz-kon-tseung-kwan" => pass(placed(
                "yeungluk49",
                "d5",
                "b1+d1+f1+b2+d2+f2+b3+d3+f3+b4+d4+f4+b5+f5+b6+d6+f6+b7+d7+f7+b8+d8+f8+b9+d9+f9",
                Side::Prey,
                26,
            )),
            _ => {
                return Err(Error::Rules(format!(
                    "unknown hunt preset {}; accepted: {}",
                    quote(name),
                    PRESETS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
                )))
            }
        })
    }

    /// Parses `preset[,key=value...]` (no board check; see [`super::from_spec`]).
    pub fn parse(spec: &str) -> Result<HuntRules> {
        let mut parts = spec.split(',');
        let name = parts.next().unwrap_or("").trim();
        let mut rules = HuntRules::preset(name)?;
        let mut seen: Vec<&str> = Vec::new();
        for part in parts {
            let part = part.trim();
            let (key, value) = part.split_once('=').ok_or_else(|| {
                Error::Rules(format!(
                    "{} is not key=value; keys: {}",
                    quote(part),
                    KEYS.join(", ")
                ))
            })?;
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(Error::Rules(format!("key {} given twice", quote(key))));
            }
            rules.set(key, value)?;
            seen.push(key);
        }
        rules.check()?;
        Ok(rules)
    }

    /// Sets one option from its text value.
    pub(crate) fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let bad = |accepted: &str| {
            Error::Rules(format!(
                "bad value {} for {}; accepted: {accepted}",
                quote(value),
                quote(key)
            ))
        };
        match key {
            "board" => {
                if value.is_empty() {
                    return Err(bad("a built-in board name or a board file path"));
                }
                self.board = value.to_string();
            }
            "hunters" => {
                self.hunters = value
                    .parse()
                    .ok()
                    .filter(|&n| (1..=63).contains(&n))
                    .ok_or_else(|| bad("an integer 1..63"))?
            }
            "prey" => {
                self.prey = value
                    .parse()
                    .ok()
                    .filter(|&n| (1..=63).contains(&n))
                    .ok_or_else(|| bad("an integer 1..63"))?
            }
            "hunter_start" => {
                self.hunter_start = match point_list(value)
                    .ok_or_else(|| bad("'hand' or point names joined by '+' (a1+e1+a5+e5)"))?
                {
                    None => HunterStart::Hand,
                    Some(pts) => HunterStart::Points(pts),
                }
            }
            "prey_start" => {
                self.prey_start = match point_list(value)
                    .ok_or_else(|| bad("'hand' or point names joined by '+' (a5+b5+c5)"))?
                {
                    None => PreyStart::Hand,
                    Some(pts) => PreyStart::Points(pts),
                }
            }
            "first" => self.first = Side::parse_option(key, value)?,
            "first_drop" => self.first_drop = FirstDrop::parse_option(key, value)?,
            "drop_before_move" => {
                self.drop_before_move = DropBeforeMove::parse_option(key, value)?.0
            }
            "capture_compulsory" => self.capture_compulsory = Flag::parse_option(key, value)?.0,
            "chain" => self.chain = Chain::parse_option(key, value)?,
            "removal" => self.removal = Removal::parse_option(key, value)?,
            "hunter_win" => {
                self.hunter_win = if value == "static" {
                    HunterWin::Static
                } else {
                    let n = value.strip_prefix("captures>=").unwrap_or(value);
                    HunterWin::Captures(
                        n.parse()
                            .ok()
                            .filter(|&n| n >= 1)
                            .ok_or_else(|| bad("static, N or captures>=N (N >= 1)"))?,
                    )
                }
            }
            "prey_no_moves" => self.prey_no_moves = PreyNoMoves::parse_option(key, value)?,
            "repetition" => self.repetition = Repetition::parse_option(key, value)?,
            "move_limit" => {
                self.move_limit = if value == "none" {
                    None
                } else {
                    Some(
                        value
                            .parse()
                            .ok()
                            .filter(|&n| n >= 1)
                            .ok_or_else(|| bad("none or a number of plies >= 1"))?,
                    )
                }
            }
            _ => {
                return Err(Error::Rules(format!(
                    "unknown key {}; accepted: {}",
                    quote(key),
                    KEYS.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Board-independent consistency checks.
    pub(crate) fn check(&self) -> Result<()> {
        if let HunterWin::Captures(n) = self.hunter_win {
            if n > self.prey {
                return Err(Error::Rules(format!(
                    "hunter_win={n} exceeds the {} prey",
                    self.prey
                )));
            }
        }
        if let HunterStart::Points(p) = &self.hunter_start {
            if p.len() != self.hunters as usize {
                return Err(Error::Rules(format!(
                    "hunter_start lists {} points for {} hunters",
                    p.len(),
                    self.hunters
                )));
            }
        }
        if let PreyStart::Points(p) = &self.prey_start {
            if p.len() != self.prey as usize {
                return Err(Error::Rules(format!(
                    "prey_start lists {} points for {} prey",
                    p.len(),
                    self.prey
                )));
            }
        }
        Ok(())
    }

    /// The text value of one option (as in the canonical form).
    pub(crate) fn value_of(&self, key: &str) -> String {
        match key {
            "board" => self.board.clone(),
            "hunters" => self.hunters.to_string(),
            "prey" => self.prey.to_string(),
            "hunter_start" => match &self.hunter_start {
                HunterStart::Hand => "hand".into(),
                HunterStart::Points(p) => p.join("+"),
            },
            "prey_start" => match &self.prey_start {
                PreyStart::Hand => "hand".into(),
                PreyStart::Points(p) => p.join("+"),
            },
            "first" => self.first.word().into(),
            "first_drop" => self.first_drop.word().into(),
            "drop_before_move" => DropBeforeMove(self.drop_before_move).word().into(),
            "capture_compulsory" => Flag(self.capture_compulsory).word().into(),
            "chain" => self.chain.word().into(),
            "removal" => self.removal.word().into(),
            "hunter_win" => match self.hunter_win {
                HunterWin::Static => "static".into(),
                HunterWin::Captures(n) => n.to_string(),
            },
            "prey_no_moves" => self.prey_no_moves.word().into(),
            "repetition" => self.repetition.word().into(),
            "move_limit" => self
                .move_limit
                .map_or("none".to_string(), |n| n.to_string()),
            _ => String::new(),
        }
    }

    /// The sides' names in the words of the preset these rules are printed
    /// from (leopards and cows, tigers and goats, the vulture and the crows),
    /// singular for a single piece; `hunter`/`prey` when no preset names them.
    pub(crate) fn side_labels(&self) -> [&'static str; 2] {
        let canonical = self.canonical();
        let preset = canonical.split(',').next().unwrap_or("");
        let Some((_, hunters, prey)) = SIDE_WORDS.iter().find(|w| preset.starts_with(w.0)) else {
            return ["hunter", "prey"];
        };
        [
            hunters[usize::from(self.hunters != 1)],
            prey[usize::from(self.prey != 1)],
        ]
    }

    /// The canonical rules string (see the module docs).
    pub(crate) fn canonical(&self) -> String {
        let mut best: Option<(usize, &str, Vec<&str>)> = None;
        for &(name, _) in PRESETS {
            let Ok(base) = HuntRules::preset(name) else {
                continue;
            };
            let diff: Vec<&str> = KEYS
                .iter()
                .copied()
                .filter(|k| base.value_of(k) != self.value_of(k))
                .collect();
            if best.as_ref().is_none_or(|b| diff.len() < b.0) {
                best = Some((diff.len(), name, diff));
            }
        }
        let (_, name, diff) = best.unwrap_or((0, PRESETS[0].0, Vec::new()));
        let mut s = name.to_string();
        for k in diff {
            s.push_str(&format!(",{k}={}", self.value_of(k)));
        }
        s
    }
}

/// A start option's value: `hand` (`Some(None)`), or point names joined by `+`
/// (also `;` or `/`); `None` if a name is empty.
fn point_list(value: &str) -> Option<Option<Vec<String>>> {
    if value == "hand" {
        return Some(None);
    }
    let pts: Vec<String> = value
        .split(['+', ';', '/'])
        .map(|s| s.trim().to_string())
        .collect();
    (!pts.iter().any(String::is_empty)).then_some(Some(pts))
}

impl std::fmt::Display for HuntRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl std::str::FromStr for HuntRules {
    type Err = Error;
    fn from_str(s: &str) -> Result<HuntRules> {
        HuntRules::parse(s)
    }
}
