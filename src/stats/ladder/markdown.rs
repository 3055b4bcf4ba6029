//! The ladder's Markdown report (`ladder.md`): settings, verdicts, outcomes,
//! captures, differences, rank agreement, ratings, calibration and asymmetric pairs.

use super::report::possessive;
use super::*;
use crate::stats::files::{markdown_table, Column};
use crate::stats::material::CaptureComparison;
use crate::stats::perfect::OpeningValue;

fn pct(iv: &Interval) -> String {
    format!(
        "{:.1} [{:.1}, {:.1}]",
        100.0 * iv.estimate,
        100.0 * iv.lo,
        100.0 * iv.hi
    )
}

/// The Markdown report.
pub(crate) fn ladder_markdown(r: &LadderReport) -> String {
    let mut s = String::new();
    settings_markdown(&mut s, r);
    verdict_markdown(&mut s, r);
    let drawn: Vec<String> = r
        .engines
        .iter()
        .enumerate()
        .filter(|&(k, _)| {
            r.cells
                .iter()
                .all(|row| row.get(k).is_some_and(|c| c.games > 0 && c.wins == [0, 0]))
        })
        .map(|(_, e)| e.clone())
        .collect();
    s.push_str(&crate::stats::strength_note::strength_section(
        &r.engines, &drawn,
    ));
    outcomes_markdown(&mut s, r);
    material_markdown(&mut s, r);
    differences_markdown(&mut s, r);
    agreement_markdown(&mut s, r);
    ratings_markdown(&mut s, r);
    calibration_markdown(&mut s, r);
    s.push_str(&crate::stats::ludii_report::section(&r.ludii));
    asymmetric_markdown(&mut s, r);
    let _ = writeln!(
        s,
        "\n## Plots\n\n![score by strength](ladder_score.svg)\n\n![draws by strength](ladder_draws.svg)\n\n![captures by strength](ladder_captures.svg)\n\nData: `ladder.csv`, `ladder_captures.csv`, `ludii.csv`, `ladder.json`."
    );
    s
}

/// The title and the settings section.
fn settings_markdown(s: &mut String, r: &LadderReport) {
    let _ = writeln!(s, "# {}\n", r.title);
    let _ = writeln!(s, "## Settings\n");
    let _ = writeln!(
        s,
        "- Strengths (both sides equal, weakest first as given): {}",
        r.engines
            .iter()
            .map(|e| format!("`{e}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        s,
        "- Games per variant and strength: {}; seed {} (game i uses seed + i); {} random opening plies",
        r.games, r.seed, r.random_plies
    );
    if !r.tables.is_empty() && r.tables_only {
        let _ = writeln!(
            s,
            "- Exact tables: {} (they end no game: they serve the `perfect` engine and the exact values of the openings)",
            r.tables.join(", ")
        );
    } else if !r.tables.is_empty() {
        let _ = writeln!(
            s,
            "- Exact referee: {} (a game reaching a covered position ends with its exact value)",
            r.tables.join(", ")
        );
    }
    s.push_str(&r.played.lines(r.wall_seconds));
    if !r.build.is_empty() {
        let _ = writeln!(s, "- Build: {}", r.build);
    }
    let _ = writeln!(s, "- Reproduce: `{}`", r.command);
    let timed: Vec<&str> = r
        .engines
        .iter()
        .filter(|e| {
            crate::stats::engine::EngineSpec::parse(e)
                .map(|x| x.timed())
                .unwrap_or(false)
        })
        .map(|e| e.as_str())
        .collect();
    if !timed.is_empty() {
        let _ = writeln!(
            s,
            "- Time-limited rungs ({}) search as deep as the machine's speed and load allow in their time: their games are not reproducible from the seed, and their strength depends on the machine.",
            timed
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        s,
        "- Each strength's full report (tests between variants, lengths, games): the subdirectory named after the engine.\n"
    );
}

/// The verdict section: the summary, the warnings and one line per pair of variants.
fn verdict_markdown(s: &mut String, r: &LadderReport) {
    let _ = writeln!(s, "## Verdict\n");
    let _ = writeln!(s, "{}\n", r.summary);
    for w in &r.warnings {
        let _ = writeln!(s, "**Warning.** {w}\n");
    }
    for v in &r.verdicts {
        let _ = writeln!(s, "- {}", v.sentence);
        if !v.captures_sentence.is_empty() && !v.captures_in_sentence {
            let _ = writeln!(s, "  Captures: {}", v.captures_sentence);
        }
    }
}

/// The outcomes by strength, and a line for each cell whose games all ended alike.
fn outcomes_markdown(s: &mut String, r: &LadderReport) {
    type C = LadderCell;
    let (s0, s1) = (&r.side_names[0], &r.side_names[1]);
    let _ = writeln!(s, "\n## Outcomes by strength (%, 95 % intervals)\n");
    let columns: Vec<Column<'_, &C>> = vec![
        Column::markdown("variant", |c: &&C| c.variant.clone()),
        Column::markdown("engine", |c: &&C| format!("`{}`", c.engine)),
        Column::markdown("games", |c: &&C| c.games.to_string()).right(),
        Column::markdown(format!("{s0} wins"), |c: &&C| pct(&c.win_rate[0])),
        Column::markdown(format!("{s1} wins"), |c: &&C| pct(&c.win_rate[1])),
        Column::markdown("draws", |c: &&C| pct(&c.draw_rate)),
        Column::markdown(format!("{s0} score"), |c: &&C| pct(&c.score0)),
        Column::markdown("adjudicated", |c: &&C| c.adjudicated.to_string()).right(),
        Column::markdown("mean length", |c: &&C| {
            let l = &c.length_mean;
            format!("{:.1} [{:.1}, {:.1}]", l.estimate, l.lo, l.hi)
        }),
    ];
    let cells: Vec<&C> = r.cells.iter().flatten().collect();
    s.push_str(&markdown_table(&columns, &cells));
    let widest = r
        .cells
        .iter()
        .flatten()
        .map(|c| (c.win_rate[0].hi - c.win_rate[0].lo).max(c.win_rate[1].hi - c.win_rate[1].lo))
        .fold(0.0, f64::max);
    let _ = writeln!(
        s,
        "\nWidest 95 % interval of a win share above: ±{:.1} points (half-width). The {} score interval is a score interval over wins, draws and losses: it keeps a width where every game ended alike.",
        50.0 * widest,
        possessive(s0)
    );
    let alike: Vec<String> = cells
        .iter()
        .filter_map(|c| {
            crate::stats::metrics::one_outcome_note(c.games, c.wins, &r.side_names)
                .map(|n| format!("- {} at `{}`: {n}.", c.variant, c.engine))
        })
        .collect();
    if !alike.is_empty() {
        let _ = writeln!(s, "\n{}", alike.join("\n"));
    }
}

/// The differences in side 0's score per pair of variants and strength.
fn differences_markdown(s: &mut String, r: &LadderReport) {
    let s0p = possessive(&r.side_names[0]);
    if !r.verdicts.is_empty() {
        let _ = writeln!(
            s,
            "\n## Differences in the {s0p} score (points, first variant minus second, 95 % Newcombe interval from the two score intervals)\n"
        );
        type P = PairVerdict;
        let mut columns = vec![
            Column::markdown("a", |v: &P| v.a.clone()),
            Column::markdown("b", |v: &P| v.b.clone()),
        ];
        for (k, e) in r.engines.iter().enumerate() {
            columns.push(Column::markdown(format!("`{e}`"), move |v: &P| {
                v.differences.get(k).map_or_else(String::new, |d| {
                    format!(
                        "{:+.1} [{:+.1}, {:+.1}]",
                        100.0 * d.estimate,
                        100.0 * d.lo,
                        100.0 * d.hi
                    )
                })
            }));
        }
        s.push_str(&markdown_table(&columns, &r.verdicts));
    }
}

/// The rank agreement section.
fn agreement_markdown(s: &mut String, r: &LadderReport) {
    let s0p = possessive(&r.side_names[0]);
    if !r.agreement.is_empty() {
        let _ = writeln!(
            s,
            "\n## Rank agreement (Kendall's τ-b of the orderings by the {s0p} score; 95 % bootstrap interval, {TAU_RESAMPLES} resamples)\n"
        );
        let columns = [
            Column::markdown("strength a", |a: &RankAgreement| format!("`{}`", a.a)),
            Column::markdown("strength b", |a: &RankAgreement| format!("`{}`", a.b)),
            Column::markdown("τ-b", |a: &RankAgreement| {
                format!("{:.2} [{:.2}, {:.2}]", a.tau.estimate, a.tau.lo, a.tau.hi)
            }),
        ];
        s.push_str(&markdown_table(&columns, &r.agreement));
    }
}

/// The asymmetric pairs section.
fn asymmetric_markdown(s: &mut String, r: &LadderReport) {
    let (s0, s1) = (&r.side_names[0], &r.side_names[1]);
    if !r.asymmetric.is_empty() {
        let _ = writeln!(s, "\n## Asymmetric pairs (%, 95 % Wilson intervals)\n");
        type A = AsymmetricRow;
        let columns = [
            Column::markdown("variant", |a: &A| a.variant.clone()),
            Column::markdown(format!("{s0} engine"), |a: &A| format!("`{}`", a.engine0)),
            Column::markdown(format!("{s1} engine"), |a: &A| format!("`{}`", a.engine1)),
            Column::markdown("games", |a: &A| a.cell.games.to_string()).right(),
            Column::markdown(format!("{s0} wins"), |a: &A| pct(&a.cell.win_rate[0])),
            Column::markdown(format!("{s1} wins"), |a: &A| pct(&a.cell.win_rate[1])),
            Column::markdown("draws", |a: &A| pct(&a.cell.draw_rate)),
        ];
        s.push_str(&markdown_table(&columns, &r.asymmetric));
    }
}

/// The measured strength section.
fn ratings_markdown(s: &mut String, r: &LadderReport) {
    if r.ratings.is_empty() {
        return;
    }
    let games = r.cross_play.first().map_or(0, |c| c.cell.games);
    let _ = writeln!(
        s,
        "\n## Measured strength (Bradley-Terry on cross-play, Elo, first rung 0; 95 % intervals)\n"
    );
    let _ = writeln!(
        s,
        "Every ordered pair of different rungs played {games} games per variant (the asymmetric pairs, if any, count too); each variant is fitted on its own with a side-0 advantage and {RATING_PRIOR_DRAWS} virtual draw between adjacent rungs. Measured order, weakest first (mean rating over the variants): {}.\n",
        r.measured_order
            .iter()
            .map(|e| format!("`{e}`"))
            .collect::<Vec<_>>()
            .join(" < ")
    );
    type V = VariantRating;
    let mut columns = vec![Column::markdown("variant", |v: &V| v.variant.clone())];
    for (k, e) in r.engines.iter().enumerate() {
        columns.push(Column::markdown(format!("`{e}`"), move |v: &V| {
            v.fit.ratings.get(k).map_or_else(String::new, |iv| {
                format!("{:+.0} [{:+.0}, {:+.0}]", iv.estimate, iv.lo, iv.hi)
            })
        }));
    }
    columns.push(Column::markdown(
        format!("{} advantage", r.side_names[0]),
        |v: &V| {
            let h = &v.fit.side0_advantage;
            format!("{:+.0} [{:+.0}, {:+.0}]", h.estimate, h.lo, h.hi)
        },
    ));
    columns.push(
        Column::markdown("dispersion (degrees of freedom)", |v: &V| {
            format!(
                "{:.2} ({:.0}){}",
                v.fit.dispersion,
                v.fit.dispersion_df,
                if v.fit.converged {
                    ""
                } else {
                    "; the fit did not converge"
                }
            )
        })
        .right(),
    );
    s.push_str(&markdown_table(&columns, &r.ratings));
    let strongest: Vec<&PairVerdict> = r
        .verdicts
        .iter()
        .filter(|v| !v.strongest.is_empty())
        .collect();
    if !strongest.is_empty() {
        let _ = writeln!(s, "\nThe verdicts at the two strongest measured rungs:\n");
        for v in strongest {
            let _ = writeln!(s, "- {} vs {}: {}", v.a, v.b, v.strongest);
        }
    }
}

/// The calibration section (tables covering every variant's openings).
fn calibration_markdown(s: &mut String, r: &LadderReport) {
    let Some(c) = &r.calibration else {
        return;
    };
    let s0 = &r.side_names[0];
    let _ = writeln!(
        s,
        "\n## Against the exact values\n\nExact value of each variant's random opening ({} uniformly random plies, then optimal play; read from the tables) and at the start:\n",
        r.random_plies
    );
    type X<'a> = (&'a String, &'a OpeningValue);
    let pct1 = |f: fn(&OpeningValue) -> f64| move |x: &X| format!("{:.1}", 100.0 * f(x.1));
    let columns = [
        Column::markdown("variant", |x: &X| x.0.clone()),
        Column::markdown(format!("{s0} wins"), pct1(|o| o.wins[0])).right(),
        Column::markdown("draws", pct1(|o| o.draws)).right(),
        Column::markdown(format!("{} wins", r.side_names[1]), pct1(|o| o.wins[1])).right(),
        Column::markdown(format!("{s0} score"), pct1(|o| o.score0)).right(),
        Column::markdown(format!("{s0} score of the games' openings"), |x: &X| {
            x.1.sampled.as_ref().map_or_else(
                || "not computed".to_string(),
                |m| format!("{:.1} ({} games)", 100.0 * m.score0, m.games),
            )
        })
        .right(),
        Column::markdown(format!("start value for the {s0}"), |x: &X| {
            x.1.start0.to_string()
        }),
        Column::markdown("positions after the opening", |x: &X| {
            x.1.positions.to_string()
        })
        .right(),
    ];
    let rows: Vec<X> = r.variants.iter().zip(&c.exact).collect();
    s.push_str(&markdown_table(&columns, &rows));
    let truth = if c.exact.iter().all(|x| x.sampled.is_some()) {
        "the exact values over the openings the games drew (every rung plays the same ones)"
    } else {
        "the exact values over all openings (the games' openings were sampled by rung)"
    };
    let _ = writeln!(
        s,
        "\nPer rung: verdicts on pairs of variants (the sign of the score difference's 95 % interval, or 0 where the interval holds 0: not told apart) against the sign of the exact difference; scores and verdicts are checked against {truth}.\n"
    );
    type K = RungCalibration;
    let n = c.exact.len();
    let count = |name: &'static str, f: fn(&K) -> u64| {
        Column::markdown(name, move |k: &K| f(k).to_string()).right()
    };
    let err = |name: &'static str, f: fn(&K) -> f64| {
        Column::markdown(name, move |k: &K| format!("{:.3}", f(k))).right()
    };
    let columns = [
        Column::markdown("engine", |k: &K| format!("`{}`", k.engine)),
        count("pairs", |k| k.pairs),
        count("agree", |k| k.agree),
        count("wrong direction", |k| k.wrong),
        count("missed difference", |k| k.missed),
        count("false difference", |k| k.false_difference),
        count("agree with start values", |k| k.agree_start),
        err("mean abs. score error", |k| k.mean_abs_error),
        err("max", |k| k.max_abs_error),
        err("against all openings", |k| k.mean_abs_error_all),
        Column::markdown("exact inside 95 % interval", move |k: &K| {
            format!("{}/{n}", k.covered)
        })
        .right(),
    ];
    s.push_str(&markdown_table(&columns, &c.rungs));
}

/// The largest number of captures of `side` in any cell (at most 24 columns).
fn max_captures(r: &LadderReport, side: usize) -> usize {
    r.cells
        .iter()
        .flatten()
        .filter_map(|c| c.capture_counts[side].iter().rposition(|&k| k > 0))
        .max()
        .unwrap_or(0)
        .min(24)
}

/// Whether `side` can capture in some cell: a side the rules never let
/// capture (the prey of a hunt game) gets no captures column or test.
fn captures_by_rule(r: &LadderReport, side: usize) -> bool {
    r.cells.iter().flatten().any(|c| c.can_capture[side])
}

/// The material section: captures per game and the share of games reaching
/// N captures, then the tests between variants on captures.
fn material_markdown(s: &mut String, r: &LadderReport) {
    type C = LadderCell;
    let s0 = &r.side_names[0];
    let top = max_captures(r, 0);
    let _ = writeln!(
        s,
        "\n## Material: captures per game (mean, 95 % normal interval) and the share of games in which the {s0} reached N captures (%, Wilson; N as in `hunter_win=captures>=N`)\n"
    );
    let mean = |iv: &Interval| format!("{:.2} [{:.2}, {:.2}]", iv.estimate, iv.lo, iv.hi);
    let mut columns: Vec<Column<'_, &C>> = vec![
        Column::markdown("variant", |c: &&C| c.variant.clone()),
        Column::markdown("engine", |c: &&C| format!("`{}`", c.engine)),
    ];
    let sides: Vec<usize> = (0..2).filter(|&k| captures_by_rule(r, k)).collect();
    for &side in &sides {
        columns.push(Column::markdown(
            format!("{} captures", r.side_names[side]),
            move |c: &&C| mean(&c.captures_mean[side]),
        ));
    }
    for n in 1..=top {
        columns.push(
            Column::markdown(format!("≥{n}"), move |c: &&C| {
                let iv = material::share_at_least(&c.capture_counts[0], n);
                format!("{:.1}", 100.0 * iv.estimate)
            })
            .right(),
        );
    }
    let cells: Vec<&C> = r.cells.iter().flatten().collect();
    s.push_str(&markdown_table(&columns, &cells));
    let never: Vec<&str> = (0..2)
        .filter(|k| !sides.contains(k))
        .map(|k| r.side_names[k].as_str())
        .collect();
    if !never.is_empty() {
        let _ = writeln!(
            s,
            "\nThe {} cannot capture under these rules: no column or test for their captures.",
            list(&never)
        );
    }
    if r.verdicts.is_empty() || sides.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n## Tests between variants on captures (Mann-Whitney U, normal approximation with tie and continuity corrections; P(a>b) counts ties ½)\n"
    );
    type T<'a> = (&'a PairVerdict, &'a str, &'a CaptureComparison);
    let rows: Vec<T<'_>> = r
        .verdicts
        .iter()
        .flat_map(|v| {
            v.captures
                .iter()
                .enumerate()
                .flat_map(move |(k, per_side)| {
                    per_side
                        .iter()
                        .map(move |c| (v, r.engines.get(k).map_or("", |e| e.as_str()), c))
                })
        })
        .filter(|(_, _, c)| sides.contains(&c.side))
        .collect();
    let columns: Vec<Column<'_, T<'_>>> = vec![
        Column::markdown("a", |t: &T<'_>| t.0.a.clone()),
        Column::markdown("b", |t: &T<'_>| t.0.b.clone()),
        Column::markdown("engine", |t: &T<'_>| format!("`{}`", t.1)),
        Column::markdown("side", |t: &T<'_>| r.side_names[t.2.side].clone()),
        Column::markdown("mean difference (a − b)", |t: &T<'_>| {
            let d = &t.2.difference;
            format!("{:+.2} [{:+.2}, {:+.2}]", d.estimate, d.lo, d.hi)
        }),
        Column::markdown("P(a>b)", |t: &T<'_>| format!("{:.3}", t.2.test.superiority)).right(),
        Column::markdown("p", |t: &T<'_>| {
            crate::stats::math::format_p(t.2.test.p_value)
        })
        .right(),
    ];
    s.push_str(&markdown_table(&columns, &rows));
}
