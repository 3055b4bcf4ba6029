//! Board files: the text format described in the module docs of
//! [`crate::board`], and algebraic point names.

use super::{Board, Point, MAX_POINTS};
use crate::error::{quote, Error, Result};
use std::collections::HashMap;

/// Largest board file read, in bytes (a board has at most 64 points).
pub const MAX_BOARD_FILE: u64 = 64 * 1024;

impl Board {
    /// Reads a board file (format in the module docs).
    /// Only a regular file of at most [`MAX_BOARD_FILE`] bytes is read (a
    /// device, a FIFO or a directory is refused before it is opened).
    pub fn from_file(path: &std::path::Path) -> Result<Board> {
        use std::io::Read;
        let context = || format!("reading board file {}", path.display());
        let file =
            crate::regular::open(path).map_err(|e| match crate::regular::NotRegular::of(&e) {
                Some(refused) => Error::Board(format!("{}: {refused}", path.display())),
                None => Error::io(context(), e),
            })?;
        let too_big = || {
            Error::Board(format!(
                "{}: larger than {MAX_BOARD_FILE} bytes, too large for a board file",
                path.display()
            ))
        };
        if file.metadata().map_err(|e| Error::io(context(), e))?.len() > MAX_BOARD_FILE {
            return Err(too_big());
        }
        let mut bytes = Vec::new();
        file.take(MAX_BOARD_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(context(), e))?;
        if bytes.len() as u64 > MAX_BOARD_FILE {
            return Err(too_big());
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::Board(format!("{}: not UTF-8 text", path.display())))?;
        let default_name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("board")
            .to_string();
        Board::parse_named(&text, &default_name)
            .map_err(|e| Error::Board(format!("{}: {}", path.display(), strip_board(e))))
    }

    /// Parses a board description (format in the module docs).
    pub fn parse(text: &str) -> Result<Board> {
        Board::parse_named(text, "custom")
    }

    pub(super) fn parse_named(text: &str, default_name: &str) -> Result<Board> {
        let Described {
            name,
            raw_points,
            raw_lines,
            centre,
        } = describe(text, default_name)?;
        if raw_points.is_empty() {
            return Err(Error::Board("no points".into()));
        }
        if raw_points.len() > MAX_POINTS {
            return Err(Error::Board(format!(
                "{} points; at most {MAX_POINTS} are supported",
                raw_points.len()
            )));
        }
        let explicit = raw_points.iter().any(|p| p.2.is_some());
        let mut sorted = raw_points.clone();
        sorted.sort_by_key(|p| (p.1, p.0));
        for w in sorted.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                return Err(Error::Board(format!(
                    "line {}: point ({}, {}) is already defined on line {}",
                    w[1].3, w[1].0, w[1].1, w[0].3
                )));
            }
        }
        let mut points = Vec::new();
        for (id, p) in sorted.iter().enumerate() {
            let pname = match &p.2 {
                Some(n) => n.clone(),
                None => algebraic_name(p.0, p.1).ok_or_else(|| {
                    Error::Board(format!(
                        "line {}: point ({}, {}) is too far right for an algebraic name; give it a name",
                        p.3, p.0, p.1
                    ))
                })?,
            };
            check_point_name(&pname).map_err(|m| Error::Board(format!("line {}: {m}", p.3)))?;
            points.push(Point {
                id: id as u8,
                x: p.0,
                y: p.1,
                name: pname,
            });
        }
        let mut by_name: HashMap<&str, u8> = HashMap::new();
        for p in &points {
            if by_name.insert(p.name.as_str(), p.id).is_some() {
                return Err(Error::Board(format!("two points are named '{}'", p.name)));
            }
        }
        let mut lines = Vec::new();
        for (names, ln) in &raw_lines {
            let mut ids = Vec::new();
            for n in names {
                let id = by_name.get(n.as_str()).ok_or_else(|| {
                    Error::Board(format!("line {ln}: unknown point {} in a line", quote(n)))
                })?;
                ids.push(*id);
            }
            lines.push(ids);
        }
        let centre = match centre {
            Some((n, ln)) => Some(*by_name.get(n.as_str()).ok_or_else(|| {
                Error::Board(format!("line {ln}: unknown centre point {}", quote(&n)))
            })?),
            None => None,
        };
        Board::new(&name, points, lines, centre, !explicit)
    }
}

/// What a board description says, line by line, before it is checked:
/// points (x, y, name, line number), lines of point names (with the line
/// number), the centre.
struct Described {
    name: String,
    raw_points: Vec<(i32, i32, Option<String>, usize)>,
    raw_lines: Vec<(Vec<String>, usize)>,
    centre: Option<(String, usize)>,
}

/// Reads the lines of a board description (format in the module docs).
fn describe(text: &str, default_name: &str) -> Result<Described> {
    let mut name = default_name.to_string();
    let mut raw_points: Vec<(i32, i32, Option<String>, usize)> = Vec::new();
    let mut raw_lines: Vec<(Vec<String>, usize)> = Vec::new();
    let mut centre: Option<(String, usize)> = None;
    for (i, full) in text.lines().enumerate() {
        let ln = i + 1;
        let line = full.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "name" => {
                if words.len() != 2 {
                    return Err(Error::Board(format!("line {ln}: expected 'name NAME'")));
                }
                name = words[1].to_string();
            }
            "point" => {
                if words.len() != 3 && words.len() != 4 {
                    return Err(Error::Board(format!(
                        "line {ln}: expected 'point X Y [NAME]', got {}",
                        quote(line)
                    )));
                }
                let coord = |w: &str| {
                    w.parse::<i32>()
                        .ok()
                        .filter(|v| (0..=1000).contains(v))
                        .ok_or_else(|| {
                            Error::Board(format!(
                                "line {ln}: coordinate {} is not an integer in 0..=1000",
                                quote(w)
                            ))
                        })
                };
                let (x, y) = (coord(words[1])?, coord(words[2])?);
                raw_points.push((x, y, words.get(3).map(|s| s.to_string()), ln));
            }
            "line" => {
                if words.len() < 3 {
                    return Err(Error::Board(format!(
                        "line {ln}: a line needs at least two points"
                    )));
                }
                raw_lines.push((words[1..].iter().map(|s| s.to_string()).collect(), ln));
            }
            "centre" | "center" => {
                if words.len() != 2 {
                    return Err(Error::Board(format!("line {ln}: expected 'centre NAME'")));
                }
                centre = Some((words[1].to_string(), ln));
            }
            other => {
                return Err(Error::Board(format!(
                    "line {ln}: unknown keyword {}; accepted: name, point, line, centre",
                    quote(other)
                )))
            }
        }
    }
    Ok(Described {
        name,
        raw_points,
        raw_lines,
        centre,
    })
}

pub(super) fn strip_board(e: Error) -> String {
    match e {
        Error::Board(m) => m,
        other => other.to_string(),
    }
}

/// Algebraic name of a coordinate: file letter from x (`a` = 0), rank from y (`1` = 0).
/// Files stop at `w` because `x` marks captures in move notation.
pub(crate) fn algebraic_name(x: i32, y: i32) -> Option<String> {
    if !(0..23).contains(&x) || y < 0 {
        return None;
    }
    Some(format!("{}{}", (b'a' + x as u8) as char, y + 1))
}

/// Names must survive move notation: letters and digits, no `x`, not `pass`.
pub(super) fn check_point_name(name: &str) -> std::result::Result<(), String> {
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric())
        || name.contains('x')
        || name == "pass"
        || name == "start"
        || name.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        return Err(format!(
            "point name {} must be letters and digits, start with a letter, contain no 'x', and not be 'pass' or 'start'",
            quote(name)
        ));
    }
    Ok(())
}
