//! The ladder report: the files (Markdown from `markdown.rs`, CSV, JSON) and the
//! score and draw plots.

use super::*;
use crate::stats::files::{csv_table, write_file, Column, ReportDir};
use crate::stats::math::Interval;

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
pub(crate) fn ladder_csv(r: &LadderReport) -> Result<String> {
    type C = LadderCell;
    let iv = |names: [&str; 3], get: fn(&C) -> &Interval| {
        Column::many(&names, move |c: &&C| get(c).values())
    };
    let columns = [
        Column::one("variant", |c: &&C| c.variant.clone()),
        Column::one("engine", |c: &&C| c.engine.clone()),
        Column::one("games", |c: &&C| c.games.to_string()),
        Column::one("side0_wins", |c: &&C| c.wins[0].to_string()),
        Column::one("side1_wins", |c: &&C| c.wins[1].to_string()),
        Column::one("draws", |c: &&C| c.draws.to_string()),
        Column::one("adjudicated", |c: &&C| c.adjudicated.to_string()),
        iv(["side0_rate", "side0_lo", "side0_hi"], |c| &c.win_rate[0]),
        iv(["side1_rate", "side1_lo", "side1_hi"], |c| &c.win_rate[1]),
        iv(["draw_rate", "draw_lo", "draw_hi"], |c| &c.draw_rate),
        iv(["side0_score", "score_lo", "score_hi"], |c| &c.score0),
        Column::one("length_mean", |c: &&C| {
            format!("{:.3}", c.length_mean.estimate)
        }),
        Column::interval("side0_captures", |c: &&C| &c.captures_mean[0]),
        Column::interval("side1_captures", |c: &&C| &c.captures_mean[1]),
        Column::one("no_engine_move", |c: &&C| c.no_engine_move.to_string()),
    ];
    let cells: Vec<&C> = r.cells.iter().flatten().collect();
    csv_table(&columns, &cells)
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
        crate::stats::plot::legend_and_present(
            &mut chart,
            &root,
            SeriesLabelPosition::UpperRight,
            13,
            path,
        )?;
    }
    write_file(path, &svg)
}

/// Writes the ladder files into `dir`; returns their paths.
pub fn write_ladder(dir: &Path, r: &LadderReport) -> Result<Vec<PathBuf>> {
    let mut files = ReportDir::create(dir)?;
    files.text("ladder.md", &ladder_markdown(r))?;
    files.text("ladder.csv", &ladder_csv(r)?)?;
    files.text("ladder_captures.csv", &ladder_captures_csv(r)?)?;
    files.text("ludii.csv", &crate::stats::ludii_report::csv(&r.ludii)?)?;
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
