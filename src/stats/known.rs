//! What results/ records about positions the tools are often asked about (the
//! seed games' starts, the solved games' starts), compiled into the binary as
//! data: the claim, its kind of evidence and the page that holds it. `query`,
//! `prove`, `bounds` and the explorer show it beside their own answer, so an
//! "unknown" from a short run is not read as "nobody knows".
//!
//! The pages themselves are not read at run time (an installed binary has no
//! results/); a unit test checks that every page exists, that every rules
//! string and position parses, and that each position is its game's start.

use crate::game::{Game, Notation};

/// One recorded claim about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KnownClaim {
    /// The rules (a preset name; compared by canonical rules string).
    pub rules: &'static str,
    /// The position, in the game's notation (compared up to symmetry).
    pub position: &'static str,
    /// The claim, in words.
    pub claim: &'static str,
    /// How it is checked, in words.
    pub evidence: &'static str,
    /// The page of results/ that gives the claim, its evidence and how to check it.
    pub page: &'static str,
}

/// A committed certificate, as results/README.md marks it (a).
const CERTIFICATE: &str =
    "a certificate committed in results/, replayed by `huntsolve check-proof`";
/// A whole game solved by the tables and verified, (c).
const SOLVED: &str = "the whole game solved into tables and verified (results/README.md, kind c)";

const MOGOL_START: &str = "...................................../h2p24c0/h";
const PERALIKATUMA_START: &str = "................................................./h2p24c0/h";

/// The recorded claims (results/README.md, "State of knowledge").
pub const KNOWN: &[KnownClaim] = &[
    KnownClaim {
        rules: "cows-leopards-mogol",
        position: MOGOL_START,
        claim: "the leopards cannot force a win; whether the cows can is open",
        evidence: CERTIFICATE,
        page: "results/mogol.md",
    },
    KnownClaim {
        rules: "cows-leopards-mogol",
        position: MOGOL_START,
        claim: "the leopards cannot force a first capture within 32 plies, nor the cows immobilise both leopards within 8",
        evidence: CERTIFICATE,
        page: "results/mogol.md",
    },
    KnownClaim {
        rules: "cows-leopards-mogol",
        position: MOGOL_START,
        claim: "capture thresholds (hunter_win=captures>=N): N >= 16 cannot be forced; N = 1 to 15 open",
        evidence: "certificates committed in results/ or re-made to their stated sha256",
        page: "results/mogol.md",
    },
    KnownClaim {
        rules: "cows-leopards-peralikatuma",
        position: PERALIKATUMA_START,
        claim: "capture thresholds (hunter_win=captures>=N): N >= 19 cannot be forced; N = 1 to 18 open",
        evidence: "certificates re-made to their stated sha256",
        page: "results/peralikatuma.md",
    },
    KnownClaim {
        rules: "cows-leopards-peralikatuma",
        position: PERALIKATUMA_START,
        claim: "the leopards cannot force a win; whether the cows can is open",
        evidence: CERTIFICATE,
        page: "results/peralikatuma.md",
    },
    KnownClaim {
        rules: "cows-leopards-peralikatuma",
        position: PERALIKATUMA_START,
        claim: "the leopards cannot force a first capture within 40 plies, nor the cows immobilise both leopards within 8",
        evidence: CERTIFICATE,
        page: "results/peralikatuma.md",
    },
    KnownClaim {
        rules: "diviyan-keliya",
        position: PERALIKATUMA_START,
        claim: "the value is open; the leopards cannot force a first capture within 40 plies",
        evidence: CERTIFICATE,
        page: "results/peralikatuma.md",
    },
    KnownClaim {
        rules: "caikaboroda",
        position: "...AAA.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... d",
        claim: "the value is open; the defenders cannot force a win within 7 plies, the attackers within 6",
        evidence: CERTIFICATE,
        page: "results/caikaboroda.md",
    },
    KnownClaim {
        rules: "caikaboroda-hostile",
        position: "...AAA.../....A..../....D..../A...D...A/AADDKDDAA/A...D...A/....D..../....A..../...AAA... d",
        claim: "the value is open; the defenders cannot force a win within 7 plies, the attackers within 6",
        evidence: CERTIFICATE,
        page: "results/caikaboroda.md",
    },
    KnownClaim {
        rules: "adugo",
        position: "................PPHPPPPPPPPPPPP/h0p0c0/h",
        claim: "the jaguar cannot force a win (not even one capture); whether the dogs can is open",
        evidence: CERTIFICATE,
        page: "results/atlas.md",
    },
    KnownClaim {
        rules: "orissa-tiger",
        position: "....H...........P...PPPPPPPPPPP/h0p0c0/h",
        claim: "the tiger cannot force a win (not even one capture); whether the goats can is open",
        evidence: CERTIFICATE,
        page: "results/atlas.md",
    },
    KnownClaim {
        rules: "bagh-chal",
        position: "H...H...............H...H/h0p20c0/p",
        claim: "a draw; capture thresholds (hunter_win=captures>=N): with N = 1 the tigers win in 30 plies, N >= 5 cannot be forced, N = 2 to 4 open",
        evidence: SOLVED,
        page: "results/bagh-chal.md",
    },
    KnownClaim {
        rules: "kaooa",
        position: "........../h1p7c0/p",
        claim: "the crows (first to move) win in 15 plies",
        evidence: SOLVED,
        page: "results/proofs.md",
    },
];

/// The claims recorded for `pos` under `game`'s rules (equal canonical rules
/// strings; positions equal up to the board's symmetries).
pub fn known_claims<G: Game + Notation>(game: &G, pos: &G::Pos) -> Vec<&'static KnownClaim> {
    // Each entry's canonical rules, made once (building a game is not cheap, and
    // `query` asks for every line it reads).
    static CANONICAL: std::sync::OnceLock<Vec<Option<String>>> = std::sync::OnceLock::new();
    let canonical =
        CANONICAL.get_or_init(|| KNOWN.iter().map(|k| canonical_rules(k.rules)).collect());
    let rules = game.rules_string();
    let key = game.canonical_hash(pos);
    KNOWN
        .iter()
        .zip(canonical)
        .filter(|(_, r)| r.as_deref() == Some(rules.as_str()))
        .map(|(k, _)| k)
        .filter(|k| {
            game.parse_position(k.position)
                .is_ok_and(|p| game.canonical_hash(&p) == key)
        })
        .collect()
}

/// The canonical rules string of a preset (`None` when it does not parse).
fn canonical_rules(rules: &str) -> Option<String> {
    let any = crate::variant::AnyGame::parse(rules).ok()?;
    Some(crate::with_game!(&any, g => g.rules_string()))
}

/// One line for a claim: "the leopards cannot force a win; … (a certificate
/// …; results/mogol.md)".
pub fn claim_line(k: &KnownClaim) -> String {
    format!("{} ({}; {})", k.claim, k.evidence, k.page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::AnyGame;

    /// Every entry names a page that exists, rules that parse and its game's
    /// start; and the lookup finds it there (and not after a move).
    #[test]
    fn every_recorded_claim_points_at_a_page_and_a_start() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for k in KNOWN {
            assert!(root.join(k.page).is_file(), "{}: no {}", k.rules, k.page);
            let any = AnyGame::parse(k.rules).unwrap_or_else(|e| panic!("{}: {e}", k.rules));
            crate::with_game!(&any, g => {
                let p = g
                    .parse_position(k.position)
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", k.rules, k.position));
                assert_eq!(g.format_position(&p), g.format_position(&g.start()), "{}", k.rules);
                assert!(known_claims(g, &p).contains(&k), "{}", k.rules);
                let mut moves = Vec::new();
                g.legal_moves(&p, &mut moves);
                let next = g.play(&p, moves[0]);
                assert!(known_claims(g, &next).is_empty(), "{}", k.rules);
            });
        }
        // Other rules at the same position: nothing recorded.
        let any = AnyGame::parse("cows-leopards-mogol,capture_compulsory=false").unwrap();
        crate::with_game!(&any, g => assert!(known_claims(g, &g.start()).is_empty()));
    }
}
