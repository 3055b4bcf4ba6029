//! How statistics write their reports: one folder of files ([`ReportDir`]),
//! each written to a temporary file beside it and renamed into place, so a
//! reader (or a killed run) never sees half a file; SVG plots drawn in memory
//! first ([`write_svg`]); and the report tables, each column defined once for
//! CSV and Markdown ([`Column`], [`csv_table`], [`markdown_table`]).

use crate::error::{Error, Result};
use crate::stats::math::Interval;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Writes `text` to `path` by a unique temporary file beside it and a rename
/// ([`crate::durable::write_atomic`]).
pub(crate) fn write_file(path: &Path, text: &str) -> Result<()> {
    crate::durable::write_atomic(path, text.as_bytes())
        .map_err(|e| Error::io(format!("writing {}", path.display()), e))
}

/// Draws an SVG of `size` pixels in memory with `draw`, then writes it to
/// `path` ([`write_file`]).
pub(crate) fn write_svg(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<SVGBackend<'_>, Shift>) -> Result<()>,
) -> Result<()> {
    let mut svg = String::new();
    draw(SVGBackend::with_string(&mut svg, size).into_drawing_area())?;
    write_file(path, &svg)
}

/// The CSV values of a row for a column.
type Values<'a, T> = Box<dyn Fn(&T) -> Vec<String> + 'a>;
/// The Markdown cell of a row for a column.
type Cell<'a, T> = Box<dyn Fn(&T) -> String + 'a>;

/// One column of a report table, defined once for every format: its CSV
/// header names (an interval is three: estimate, low, high), the values of a
/// row for them, and optionally its Markdown header and cell. A statistic is
/// added by adding a column, so no format can miss it or shift its neighbours.
pub(crate) struct Column<'a, T> {
    /// CSV header names, one per value.
    pub(crate) csv: Vec<String>,
    /// The CSV values of a row, as many as `csv` names.
    pub(crate) values: Values<'a, T>,
    /// The Markdown header and cell, when the Markdown table shows it.
    pub(crate) md: Option<(String, Cell<'a, T>)>,
    /// Whether the Markdown column is right-aligned (numbers).
    pub(crate) right: bool,
}

impl<'a, T> Column<'a, T> {
    /// A column of one CSV value.
    pub(crate) fn one(name: impl Into<String>, value: impl Fn(&T) -> String + 'a) -> Self {
        Column {
            csv: vec![name.into()],
            values: Box::new(move |t| vec![value(t)]),
            md: None,
            right: false,
        }
    }

    /// A column of an interval's three CSV values: `name`, `name_lo`, `name_hi`
    /// (estimate, low, high).
    pub(crate) fn interval(name: &str, get: impl Fn(&T) -> &Interval + 'a) -> Self {
        Column::many(
            &[name, &format!("{name}_lo"), &format!("{name}_hi")],
            move |t| get(t).values(),
        )
    }

    /// A column of several CSV values.
    pub(crate) fn many(names: &[&str], values: impl Fn(&T) -> Vec<String> + 'a) -> Self {
        Column {
            csv: names.iter().map(|n| n.to_string()).collect(),
            values: Box::new(values),
            md: None,
            right: false,
        }
    }

    /// A number in both tables: one CSV value `name`, the same text under
    /// `header` in the Markdown table, right-aligned.
    pub(crate) fn number(
        name: &'static str,
        header: &'static str,
        value: impl Fn(&T) -> String + Clone + 'a,
    ) -> Self {
        Column::one(name, value.clone())
            .shown(header, value)
            .right()
    }

    /// A column of the Markdown table only (no CSV value).
    pub(crate) fn markdown(header: impl Into<String>, cell: impl Fn(&T) -> String + 'a) -> Self {
        Column::many(&[], |_| Vec::new()).shown(header, cell)
    }

    /// The same column, shown in the Markdown table under `header`.
    pub(crate) fn shown(
        mut self,
        header: impl Into<String>,
        cell: impl Fn(&T) -> String + 'a,
    ) -> Self {
        self.md = Some((header.into(), Box::new(cell)));
        self
    }

    /// The same column, its Markdown cells right-aligned (numbers).
    pub(crate) fn right(mut self) -> Self {
        self.right = true;
        self
    }
}

/// The CSV of `rows` by `columns` (RFC 4180 through the `csv` crate): the
/// header, then a record a row; a column giving other than one value per
/// header name is an internal error, never a shifted row.
pub(crate) fn csv_table<T>(columns: &[Column<'_, T>], rows: &[T]) -> Result<String> {
    let bad = |e: csv::Error| Error::Internal(format!("encoding a CSV report: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(columns.iter().flat_map(|c| c.csv.iter()))
        .map_err(bad)?;
    for row in rows {
        let mut record = Vec::new();
        for c in columns {
            let v = (c.values)(row);
            if v.len() != c.csv.len() {
                return Err(Error::Internal(format!(
                    "CSV column {}: {} values for {} names",
                    c.csv.join(","),
                    v.len(),
                    c.csv.len()
                )));
            }
            record.extend(v);
        }
        w.write_record(&record).map_err(bad)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Internal(format!("encoding a CSV report: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Internal(format!("a CSV report: {e}")))
}

/// The Markdown table of the columns that have a Markdown form.
pub(crate) fn markdown_table<T>(columns: &[Column<'_, T>], rows: &[T]) -> String {
    let shown: Vec<_> = columns
        .iter()
        .filter_map(|c| c.md.as_ref().map(|m| (m, c.right)))
        .collect();
    let mut s = format!(
        "| {} |\n|{}\n",
        shown
            .iter()
            .map(|m| m.0 .0.as_str())
            .collect::<Vec<_>>()
            .join(" | "),
        shown
            .iter()
            .map(|m| if m.1 { "---:|" } else { "---|" })
            .collect::<String>()
    );
    for row in rows {
        let cells: Vec<String> = shown.iter().map(|m| (m.0 .1)(row)).collect();
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    s
}

/// The files of one report folder, in the order written.
pub(crate) struct ReportDir {
    dir: PathBuf,
    files: Vec<PathBuf>,
}

impl ReportDir {
    /// Creates the folder `dir` (and its parents).
    pub(crate) fn create(dir: &Path) -> Result<ReportDir> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
        Ok(ReportDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        })
    }

    /// A text file (Markdown, CSV).
    pub(crate) fn text(&mut self, name: &str, text: &str) -> Result<()> {
        let path = self.dir.join(name);
        write_file(&path, text)?;
        self.files.push(path);
        Ok(())
    }

    /// `value` as pretty JSON, ending in a line break.
    pub(crate) fn json<T: Serialize>(&mut self, name: &str, value: &T) -> Result<()> {
        let json = serde_json::to_string_pretty(value)
            .map_err(|e| Error::Internal(format!("encoding {name}: {e}")))?;
        self.text(name, &(json + "\n"))
    }

    /// A plot: `draw` writes the file at the path it is given (by [`write_svg`]).
    pub(crate) fn svg(&mut self, name: &str, draw: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
        let path = self.dir.join(name);
        draw(&path)?;
        self.files.push(path);
        Ok(())
    }

    /// The paths written.
    pub(crate) fn files(self) -> Vec<PathBuf> {
        self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One definition gives both formats: the CSV's header and records line
    /// up (an interval is three fields), text is quoted by RFC 4180, the
    /// Markdown table shows the columns that have a Markdown form; a column
    /// giving the wrong number of values is an error, not a shifted row.
    #[test]
    fn a_column_defined_once_is_in_every_format() {
        let rows = [("a, b", 1.5), ("c\"d", 2.0)];
        let columns: Vec<Column<'_, (&str, f64)>> = vec![
            Column::one("name", |r: &(&str, f64)| r.0.to_string())
                .shown("name", |r: &(&str, f64)| r.0.into()),
            Column::many(&["x", "x_lo", "x_hi"], |r: &(&str, f64)| {
                vec![
                    r.1.to_string(),
                    (r.1 - 1.0).to_string(),
                    (r.1 + 1.0).to_string(),
                ]
            })
            .shown("x", |r: &(&str, f64)| {
                format!("{} [{}, {}]", r.1, r.1 - 1.0, r.1 + 1.0)
            }),
            Column::one("hidden", |_: &(&str, f64)| "h".into()),
        ];
        let csv = csv_table(&columns, &rows).unwrap();
        assert_eq!(
            csv,
            "name,x,x_lo,x_hi,hidden\n\"a, b\",1.5,0.5,2.5,h\n\"c\"\"d\",2,1,3,h\n"
        );
        let md = markdown_table(&columns, &rows);
        assert_eq!(
            md,
            "| name | x |\n|---|---|\n| a, b | 1.5 [0.5, 2.5] |\n| c\"d | 2 [1, 3] |\n"
        );
        let wrong: Vec<Column<'_, (&str, f64)>> = vec![Column::many(
            &["p", "q"],
            |_: &(&str, f64)| vec!["1".into()],
        )];
        assert!(matches!(csv_table(&wrong, &rows), Err(Error::Internal(_))));
        // No rows: the header alone.
        assert_eq!(
            csv_table(&columns, &[]).unwrap(),
            "name,x,x_lo,x_hi,hidden\n"
        );
    }
}
