//! The ladder report: Markdown with the verdict sentences, CSV, JSON and the
//! score and draw plots.

use super::*;
use crate::stats::files::{csv_field, write_file, ReportDir};

/// `hunter's`, `attackers'`.
pub(super) fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

pub(super) fn agreement_sentence(
    agreement: &[RankAgreement],
    mean: Option<&Interval>,
    side0: &str,
    variants: usize,
    tied: &[&str],
) -> String {
    let side0 = possessive(side0);
    let tied_note = if tied.is_empty() {
        String::new()
    } else {
        format!(
            " At {} every variant has the same {side0} score, so there is no ordering there; those strengths are left out of the agreement.",
            list(tied)
        )
    };
    let Some(m) = mean else {
        return if variants < 2 {
            "One variant: there is no ordering to compare.".into()
        } else if !tied.is_empty() {
            format!(
                "The variants cannot be ordered by the {side0} score at enough strengths to compare orderings.{tied_note}"
            )
        } else {
            "One strength: there is no agreement across strengths to measure.".into()
        };
    };
    let all_one = agreement.iter().all(|a| a.tau.estimate >= 1.0 - 1e-9);
    let any_negative = agreement
        .iter()
        .filter(|a| a.tau.hi < 0.0)
        .collect::<Vec<_>>();
    let uncertain = m.lo <= 0.0 && m.hi >= 0.0;
    let head = if uncertain {
        format!(
            "These games cannot tell whether the ordering of the variants by the {side0} score holds across strengths"
        )
    } else if all_one {
        format!(
            "The ordering of the variants by the {side0} score is the same at every strength tried"
        )
    } else if !any_negative.is_empty() {
        let pairs: Vec<String> = any_negative
            .iter()
            .map(|a| format!("{} and {}", a.a, a.b))
            .collect();
        format!(
            "The ordering of the variants by the {side0} score reverses between {}",
            pairs.join("; ")
        )
    } else {
        format!("The ordering of the variants by the {side0} score changes between some strengths")
    };
    format!(
        "{head} (mean Kendall's τ-b over pairs of strengths {:.2}, 95 % bootstrap interval [{:.2}, {:.2}]{}).{tied_note}",
        m.estimate,
        m.lo,
        m.hi,
        if uncertain {
            "; the interval includes 0"
        } else {
            ""
        }
    )
}

fn pct(iv: &Interval) -> String {
    format!(
        "{:.1} [{:.1}, {:.1}]",
        100.0 * iv.estimate,
        100.0 * iv.lo,
        100.0 * iv.hi
    )
}

/// The Markdown report.
pub fn ladder_markdown(r: &LadderReport) -> String {
    let mut s = String::new();
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
    let _ = writeln!(s, "- Time: {:.1} s wall for this run", r.wall_seconds);
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
    let _ = writeln!(s, "## Verdict\n");
    let _ = writeln!(s, "{}\n", r.summary);
    for w in &r.warnings {
        let _ = writeln!(s, "**Warning.** {w}\n");
    }
    for v in &r.verdicts {
        let _ = writeln!(s, "- {}", v.sentence);
        if !v.captures_sentence.is_empty() && !v.sentence.contains("by captures") {
            let _ = writeln!(s, "  Captures: {}", v.captures_sentence);
        }
    }
    let (s0, s1) = (&r.side_names[0], &r.side_names[1]);
    let s0p = possessive(s0);
    let _ = writeln!(s, "\n## Outcomes by strength (%, 95 % intervals)\n");
    let _ = writeln!(
        s,
        "| variant | engine | games | {s0} wins | {s1} wins | draws | {s0} score | adjudicated | mean length |"
    );
    let _ = writeln!(s, "|---|---|---:|---|---|---|---|---:|---|");
    for row in &r.cells {
        for c in row {
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} | {} | {} | {} | {} | {:.1} [{:.1}, {:.1}] |",
                c.variant,
                c.engine,
                c.games,
                pct(&c.win_rate[0]),
                pct(&c.win_rate[1]),
                pct(&c.draw_rate),
                pct(&c.score0),
                c.adjudicated,
                c.length_mean.estimate,
                c.length_mean.lo,
                c.length_mean.hi
            );
        }
    }
    let widest = r
        .cells
        .iter()
        .flatten()
        .map(|c| (c.win_rate[0].hi - c.win_rate[0].lo).max(c.win_rate[1].hi - c.win_rate[1].lo))
        .fold(0.0, f64::max);
    let _ = writeln!(
        s,
        "\nWidest 95 % interval of a win share above: ±{:.1} points (half-width).",
        50.0 * widest
    );
    material_markdown(&mut s, r);
    if !r.verdicts.is_empty() {
        let _ = writeln!(
            s,
            "\n## Differences in the {s0p} score (points, first variant minus second, 95 % normal interval)\n"
        );
        let mut head = String::from("| a | b |");
        let mut rule = String::from("|---|---|");
        for e in &r.engines {
            head.push_str(&format!(" `{e}` |"));
            rule.push_str("---|");
        }
        let _ = writeln!(s, "{head}\n{rule}");
        for v in &r.verdicts {
            let mut line = format!("| {} | {} |", v.a, v.b);
            for d in &v.differences {
                line.push_str(&format!(
                    " {:+.1} [{:+.1}, {:+.1}] |",
                    100.0 * d.estimate,
                    100.0 * d.lo,
                    100.0 * d.hi
                ));
            }
            let _ = writeln!(s, "{line}");
        }
    }
    if !r.agreement.is_empty() {
        let _ = writeln!(
            s,
            "\n## Rank agreement (Kendall's τ-b of the orderings by the {s0p} score; 95 % bootstrap interval, {TAU_RESAMPLES} resamples)\n"
        );
        let _ = writeln!(s, "| strength a | strength b | τ-b |\n|---|---|---|");
        for a in &r.agreement {
            let _ = writeln!(
                s,
                "| `{}` | `{}` | {:.2} [{:.2}, {:.2}] |",
                a.a, a.b, a.tau.estimate, a.tau.lo, a.tau.hi
            );
        }
    }
    ratings_markdown(&mut s, r);
    calibration_markdown(&mut s, r);
    if !r.asymmetric.is_empty() {
        let _ = writeln!(s, "\n## Asymmetric pairs (%, 95 % Wilson intervals)\n");
        let _ = writeln!(
            s,
            "| variant | {s0} engine | {s1} engine | games | {s0} wins | {s1} wins | draws |"
        );
        let _ = writeln!(s, "|---|---|---|---:|---|---|---|");
        for a in &r.asymmetric {
            let _ = writeln!(
                s,
                "| {} | `{}` | `{}` | {} | {} | {} | {} |",
                a.variant,
                a.engine0,
                a.engine1,
                a.cell.games,
                pct(&a.cell.win_rate[0]),
                pct(&a.cell.win_rate[1]),
                pct(&a.cell.draw_rate)
            );
        }
    }
    let _ = writeln!(
        s,
        "\n## Plots\n\n![score by strength](ladder_score.svg)\n\n![draws by strength](ladder_draws.svg)\n\n![captures by strength](ladder_captures.svg)\n\nData: `ladder.csv`, `ladder_captures.csv`, `ladder.json`."
    );
    s
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
    let mut head = String::from("| variant |");
    let mut rule = String::from("|---|");
    for e in &r.engines {
        head.push_str(&format!(" `{e}` |"));
        rule.push_str("---|");
    }
    head.push_str(&format!(" {} advantage | dispersion |", r.side_names[0]));
    rule.push_str("---|---:|");
    let _ = writeln!(s, "{head}\n{rule}");
    for v in &r.ratings {
        let mut line = format!("| {} |", v.variant);
        for iv in &v.fit.ratings {
            line.push_str(&format!(
                " {:+.0} [{:+.0}, {:+.0}] |",
                iv.estimate, iv.lo, iv.hi
            ));
        }
        let h = &v.fit.side0_advantage;
        line.push_str(&format!(
            " {:+.0} [{:+.0}, {:+.0}] | {:.2} |",
            h.estimate, h.lo, h.hi, v.fit.dispersion
        ));
        let _ = writeln!(s, "{line}");
    }
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
    let _ = writeln!(
        s,
        "| variant | {s0} wins | draws | {} wins | {s0} score | start value for the {s0} | positions after the opening |\n|---|---:|---:|---:|---:|---|---:|",
        r.side_names[1]
    );
    for (v, x) in r.variants.iter().zip(&c.exact) {
        let _ = writeln!(
            s,
            "| {v} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            100.0 * x.wins[0],
            100.0 * x.draws,
            100.0 * x.wins[1],
            100.0 * x.score0,
            x.start0,
            x.positions
        );
    }
    let _ = writeln!(
        s,
        "\nPer rung: verdicts on pairs of variants (the sign of the score difference's 95 % interval, or no clear difference) against the sign of the exact difference.\n"
    );
    let _ = writeln!(
        s,
        "| engine | pairs | agree | wrong direction | missed difference | false difference | agree with start values | mean abs. score error | max | exact inside 95 % interval |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for k in &c.rungs {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} | {}/{} |",
            k.engine,
            k.pairs,
            k.agree,
            k.wrong,
            k.missed,
            k.false_difference,
            k.agree_start,
            k.mean_abs_error,
            k.max_abs_error,
            k.covered,
            c.exact.len()
        );
    }
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

/// The material section: captures per game and the share of games reaching
/// N captures, then the tests between variants on captures.
fn material_markdown(s: &mut String, r: &LadderReport) {
    let (s0, s1) = (&r.side_names[0], &r.side_names[1]);
    let top = max_captures(r, 0);
    let _ = writeln!(
        s,
        "\n## Material: captures per game (mean, 95 % normal interval) and the share of games in which the {s0} reached N captures (%, Wilson; N as in `hunter_win=captures>=N`)\n"
    );
    let mut head = format!("| variant | engine | {s0} captures | {s1} captures |");
    let mut rule = String::from("|---|---|---|---|");
    for n in 1..=top {
        head.push_str(&format!(" ≥{n} |"));
        rule.push_str("---:|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for c in r.cells.iter().flatten() {
        let mut line = format!(
            "| {} | `{}` | {:.2} [{:.2}, {:.2}] | {:.2} [{:.2}, {:.2}] |",
            c.variant,
            c.engine,
            c.captures_mean[0].estimate,
            c.captures_mean[0].lo,
            c.captures_mean[0].hi,
            c.captures_mean[1].estimate,
            c.captures_mean[1].lo,
            c.captures_mean[1].hi
        );
        for n in 1..=top {
            let iv = material::share_at_least(&c.capture_counts[0], n);
            line.push_str(&format!(" {:.1} |", 100.0 * iv.estimate));
        }
        let _ = writeln!(s, "{line}");
    }
    if r.verdicts.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n## Tests between variants on captures (Mann-Whitney U, normal approximation with tie and continuity corrections; P(a>b) counts ties ½)\n"
    );
    let _ = writeln!(
        s,
        "| a | b | engine | side | mean difference (a − b) | P(a>b) | p |\n|---|---|---|---|---|---:|---:|"
    );
    for v in &r.verdicts {
        for (k, per_side) in v.captures.iter().enumerate() {
            for c in per_side {
                let _ = writeln!(
                    s,
                    "| {} | {} | `{}` | {} | {:+.2} [{:+.2}, {:+.2}] | {:.3} | {} |",
                    v.a,
                    v.b,
                    r.engines.get(k).map_or("", |e| e.as_str()),
                    r.side_names[c.side],
                    c.difference.estimate,
                    c.difference.lo,
                    c.difference.hi,
                    c.test.superiority,
                    crate::stats::math::format_p(c.test.p_value)
                );
            }
        }
    }
}

/// `ladder_captures.csv`: per variant, strength, side and N, the games in
/// which the side captured at least N pieces.
pub(crate) fn ladder_captures_csv(r: &LadderReport) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| Error::Internal(format!("encoding ladder_captures.csv: {e}"));
    w.write_record([
        "variant",
        "engine",
        "side",
        "n",
        "games",
        "games_at_least_n",
        "share",
        "lo",
        "hi",
    ])
    .map_err(csv_err)?;
    for c in r.cells.iter().flatten() {
        for side in 0..2 {
            let counts = &c.capture_counts[side];
            for n in 0..counts.len() {
                let iv = material::share_at_least(counts, n);
                let hits: u64 = counts.iter().skip(n).sum();
                w.write_record([
                    c.variant.clone(),
                    c.engine.clone(),
                    r.side_names[side].clone(),
                    n.to_string(),
                    c.games.to_string(),
                    hits.to_string(),
                    format!("{:.6}", iv.estimate),
                    format!("{:.6}", iv.lo),
                    format!("{:.6}", iv.hi),
                ])
                .map_err(csv_err)?;
            }
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Internal(format!("encoding ladder_captures.csv: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Internal(format!("ladder_captures.csv: {e}")))
}

/// `ladder.csv`: one row per variant and strength.
pub fn ladder_csv(r: &LadderReport) -> String {
    let mut s = String::from(
        "variant,engine,games,side0_wins,side1_wins,draws,adjudicated,side0_rate,side0_lo,side0_hi,side1_rate,side1_lo,side1_hi,draw_rate,draw_lo,draw_hi,side0_score,score_lo,score_hi,length_mean,side0_captures,side0_captures_lo,side0_captures_hi,side1_captures,side1_captures_lo,side1_captures_hi,no_engine_move\n",
    );
    for c in r.cells.iter().flatten() {
        let iv = |i: &Interval| format!("{:.6},{:.6},{:.6}", i.estimate, i.lo, i.hi);
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{:.3},{},{},{}",
            csv_field(&c.variant),
            csv_field(&c.engine),
            c.games,
            c.wins[0],
            c.wins[1],
            c.draws,
            c.adjudicated,
            iv(&c.win_rate[0]),
            iv(&c.win_rate[1]),
            iv(&c.draw_rate),
            iv(&c.score0),
            c.length_mean.estimate,
            iv(&c.captures_mean[0]),
            iv(&c.captures_mean[1]),
            c.no_engine_move
        );
    }
    s
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(127, 127, 127),
];

/// One line per variant over the strengths, with interval bars.
fn ladder_plot(
    path: &Path,
    title: &str,
    y_desc: &str,
    r: &LadderReport,
    y_max: f64,
    get: fn(&LadderCell) -> Interval,
) -> Result<()> {
    let e = r.engines.len().max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, ((200 + 140 * e as u32).max(640), 460))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|x| plot_err(path, x))?;
        let names = r.engines.clone();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(55)
            .build_cartesian_2d(-0.5f64..(e as f64 - 0.5), 0f64..y_max)
            .map_err(|x| plot_err(path, x))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 14))
            .disable_x_mesh()
            .x_labels(e + 1)
            .x_label_formatter(&|x| {
                let k = x.round();
                if (x - k).abs() > 1e-6 || k < 0.0 || k as usize >= names.len() {
                    String::new()
                } else {
                    names[k as usize].clone()
                }
            })
            .x_desc("engine strength (both sides)")
            .y_desc(y_desc)
            .draw()
            .map_err(|x| plot_err(path, x))?;
        let nv = r.cells.len().max(1) as f64;
        for (i, row) in r.cells.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let off = (i as f64 - (nv - 1.0) / 2.0) * 0.06;
            let pts: Vec<(f64, Interval)> = row
                .iter()
                .enumerate()
                .map(|(k, c)| (k as f64 + off, get(c)))
                .collect();
            chart
                .draw_series(LineSeries::new(
                    pts.iter().map(|&(x, iv)| (x, iv.estimate)),
                    color.stroke_width(2),
                ))
                .map_err(|x| plot_err(path, x))?
                .label(r.variants[i].clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            chart
                .draw_series(pts.iter().map(|&(x, iv)| {
                    PathElement::new(vec![(x, iv.lo), (x, iv.hi)], color.stroke_width(1))
                }))
                .map_err(|x| plot_err(path, x))?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, iv)| Circle::new((x, iv.estimate), 3, color.filled())),
                )
                .map_err(|x| plot_err(path, x))?;
        }
        chart
            .configure_series_labels()
            .label_font(("sans-serif", 13))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|x| plot_err(path, x))?;
        root.present().map_err(|x| plot_err(path, x))?;
    }
    write_file(path, &svg)
}

/// Writes the ladder files into `dir`; returns their paths.
pub fn write_ladder(dir: &Path, r: &LadderReport) -> Result<Vec<PathBuf>> {
    let mut files = ReportDir::create(dir)?;
    files.text("ladder.md", &ladder_markdown(r))?;
    files.text("ladder.csv", &ladder_csv(r))?;
    files.text("ladder_captures.csv", &ladder_captures_csv(r)?)?;
    files.json("ladder.json", r)?;
    files.svg("ladder_score.svg", |p| {
        ladder_plot(
            p,
            &format!(
                "{} score (win 1, draw 1/2) by strength, {} games per point",
                r.side_names[0], r.games
            ),
            "score (95% interval)",
            r,
            1.0,
            |c| c.score0,
        )
    })?;
    files.svg("ladder_draws.svg", |p| {
        ladder_plot(
            p,
            "Draw share by strength",
            "share of games (95% Wilson)",
            r,
            1.0,
            |c| c.draw_rate,
        )
    })?;
    let top = r
        .cells
        .iter()
        .flatten()
        .map(|c| c.captures_mean[0].hi)
        .fold(0.0, f64::max);
    files.svg("ladder_captures.svg", |p| {
        ladder_plot(
            p,
            &format!("{} captures per game by strength", r.side_names[0]),
            "mean captures (95% interval)",
            r,
            (top * 1.15).max(1.0),
            |c| c.captures_mean[0],
        )
    })?;
    Ok(files.files())
}
