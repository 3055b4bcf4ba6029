//! How statistics write their reports: one folder of files ([`ReportDir`]),
//! each written to a temporary file beside it and renamed into place, so a
//! reader (or a killed run) never sees half a file; SVG plots drawn in memory
//! first ([`write_svg`]); and the one CSV escape ([`csv_field`]).

use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Writes `text` to `path` by a temporary file beside it and a rename.
pub(crate) fn write_file(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(|e| Error::io(format!("writing {}", tmp.display()), e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        Error::io(
            format!("renaming {} to {}", tmp.display(), path.display()),
            e,
        )
    })
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

/// A CSV field (RFC 4180): quoted, with its quotes doubled, when it holds a
/// comma, a quote or a line break; as it is otherwise.
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
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
