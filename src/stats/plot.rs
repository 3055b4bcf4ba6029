//! SVG plots made with plotters (SVG backend only; text is written as SVG
//! `<text>` elements, so no system fonts are needed).

use crate::error::{Error, Result};
use crate::stats::files::write_svg;
use crate::stats::math::Interval;
use crate::stats::metrics::VariantMetrics;
use plotters::prelude::*;
use std::path::Path;

pub(crate) fn plot_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Internal(format!("drawing {}: {e}", path.display()))
}

/// Draws the legend of `chart` at `position` (labels `font_size` high), then
/// finishes the picture of `root`.
pub(crate) fn legend_and_present<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    position: SeriesLabelPosition,
    font_size: u32,
    path: &Path,
) -> Result<()> {
    chart
        .configure_series_labels()
        .label_font(("sans-serif", font_size))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(position)
        .draw()
        .map_err(|e| plot_err(path, e))?;
    root.present().map_err(|e| plot_err(path, e))
}

const SERIES: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(127, 127, 127),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
];

/// Label for the integer tick `x` among `names` (empty between integers).
fn tick_name(names: &[String], x: f64) -> String {
    let r = x.round();
    if (x - r).abs() > 1e-6 || r < 0.0 || r as usize >= names.len() {
        return String::new();
    }
    names[r as usize].clone()
}

/// A series of the win-rate plot: label, x offset, and the interval it shows.
type Series = (&'static str, f64, fn(&VariantMetrics) -> Interval);

/// Win rate of each side and draw rate per variant, with 95 % Wilson intervals.
pub(crate) fn win_rates(path: &Path, title: &str, ms: &[VariantMetrics]) -> Result<()> {
    let n = ms.len().max(1);
    let width = (240 + 180 * n as u32).max(640);
    write_svg(path, (width, 440), |root| {
        root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
        let names: Vec<String> = ms.iter().map(|m| m.name.clone()).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1f64)
            .map_err(|e| plot_err(path, e))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 14))
            .disable_x_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&|x| tick_name(&names, *x))
            .y_desc("share of games (95% Wilson interval)")
            .draw()
            .map_err(|e| plot_err(path, e))?;
        let series: [Series; 3] = [
            ("side 0 wins", -0.2, |m| m.win_rate[0]),
            ("side 1 wins", 0.0, |m| m.win_rate[1]),
            ("draws", 0.2, |m| m.draw_rate),
        ];
        for (k, (label, offset, get)) in series.iter().enumerate() {
            let color = SERIES[k];
            let legend = match (k, ms.first()) {
                (0, Some(m)) | (1, Some(m)) => format!("{} wins", m.side_names[k]),
                _ => label.to_string(),
            };
            let pts: Vec<(f64, Interval)> = ms
                .iter()
                .enumerate()
                .map(|(i, m)| (i as f64 + offset, get(m)))
                .collect();
            chart
                .draw_series(pts.iter().map(|&(x, iv)| {
                    PathElement::new(vec![(x, iv.lo), (x, iv.hi)], color.stroke_width(2))
                }))
                .map_err(|e| plot_err(path, e))?;
            chart
                .draw_series(pts.iter().flat_map(|&(x, iv)| {
                    [iv.lo, iv.hi].map(|y| {
                        PathElement::new(vec![(x - 0.04, y), (x + 0.04, y)], color.stroke_width(2))
                    })
                }))
                .map_err(|e| plot_err(path, e))?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, iv)| Circle::new((x, iv.estimate), 4, color.filled())),
                )
                .map_err(|e| plot_err(path, e))?
                .label(legend)
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
        }
        legend_and_present(&mut chart, &root, SeriesLabelPosition::UpperRight, 14, path)?;
        Ok(())
    })
}

/// Distribution of game lengths per variant: share of games per length bin,
/// one line per variant.
pub(crate) fn lengths(path: &Path, title: &str, ms: &[VariantMetrics]) -> Result<()> {
    let max_len = ms
        .iter()
        .flat_map(|m| m.lengths.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let bin = max_len.div_ceil(30).max(1);
    let bins = (max_len / bin + 1) as usize;
    let shares: Vec<Vec<f64>> = ms
        .iter()
        .map(|m| {
            let mut h = vec![0f64; bins];
            for &l in &m.lengths {
                h[(l / bin) as usize] += 1.0;
            }
            let total = m.lengths.len().max(1) as f64;
            h.iter().map(|c| c / total).collect()
        })
        .collect();
    let y_max = shares
        .iter()
        .flatten()
        .copied()
        .fold(0.0f64, f64::max)
        .max(0.01)
        * 1.1;
    let lines: Vec<Line> = ms
        .iter()
        .zip(&shares)
        .map(|(m, h)| {
            // A step line: each bin drawn as a flat segment.
            let mut pts = Vec::with_capacity(2 * bins);
            for (i, &s) in h.iter().enumerate() {
                let x0 = (i as u32 * bin) as f64;
                pts.push((x0, s));
                pts.push((x0 + bin as f64, s));
            }
            (format!("{} (n={})", m.name, m.games), pts)
        })
        .collect();
    let axes = Axes {
        x: 0f64..((bins as u32 * bin) as f64),
        y: 0f64..y_max,
        y_area: 50,
        x_desc: &format!("game length in plies (bins of {bin})"),
        y_desc: "share of games",
    };
    line_chart(
        path,
        title,
        &axes,
        &lines,
        false,
        SeriesLabelPosition::UpperRight,
    )
}

/// A named line: its label and its points.
type Line = (String, Vec<(f64, f64)>);

/// The axes of a [`line_chart`]: the ranges, the width of the y labels' area
/// and the axis descriptions.
struct Axes<'a> {
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    y_area: u32,
    x_desc: &'a str,
    y_desc: &'a str,
}

/// Draws `lines` (with a dot at every point when `dots`) on `axes` into the SVG
/// file `path`, the legend at `legend`.
fn line_chart(
    path: &Path,
    title: &str,
    axes: &Axes,
    lines: &[Line],
    dots: bool,
    legend: SeriesLabelPosition,
) -> Result<()> {
    write_svg(path, (760, 440), |root| {
        root.fill(&WHITE).map_err(|e| plot_err(path, e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(axes.y_area)
            .build_cartesian_2d(axes.x.clone(), axes.y.clone())
            .map_err(|e| plot_err(path, e))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 14))
            .x_desc(axes.x_desc)
            .y_desc(axes.y_desc)
            .draw()
            .map_err(|e| plot_err(path, e))?;
        for (k, (name, pts)) in lines.iter().enumerate() {
            let color = SERIES[k % SERIES.len()];
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(|e| plot_err(path, e))?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            if dots {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| plot_err(path, e))?;
            }
        }
        legend_and_present(&mut chart, &root, legend, 14, path)?;
        Ok(())
    })
}

/// A line plot of one or more named series over integer parameter values
/// (used by `sweep`): `series` holds (name, points).
pub(crate) fn sweep_lines(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Line],
) -> Result<()> {
    let xs = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
    let (x_lo, x_hi) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let ys = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
    let (y_lo, y_hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    if x_lo > x_hi {
        return Err(Error::input_data("nothing to plot"));
    }
    let pad_y = ((y_hi - y_lo) * 0.1).max(0.5);
    let axes = Axes {
        x: (x_lo - 0.5)..(x_hi + 0.5),
        y: (y_lo - pad_y)..(y_hi + pad_y),
        y_area: 60,
        x_desc,
        y_desc,
    };
    line_chart(
        path,
        title,
        &axes,
        series,
        true,
        SeriesLabelPosition::UpperLeft,
    )
}
