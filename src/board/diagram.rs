//! ASCII diagrams of a board with one character per point.

use super::Board;

impl Board {
    /// An ASCII drawing of the board with one character per point (`cell(id)`).
    /// Every edge is drawn: horizontal and vertical ones as `-` and `|`, diagonals
    /// as `/` and `\\`, one mark per text row along the line.
    pub(crate) fn draw(&self, cell: impl Fn(u8) -> char) -> String {
        let x0 = self.points.iter().map(|p| p.x).min().unwrap_or(0);
        let x1 = self.points.iter().map(|p| p.x).max().unwrap_or(0);
        let y0 = self.points.iter().map(|p| p.y).min().unwrap_or(0);
        let y1 = self.points.iter().map(|p| p.y).max().unwrap_or(0);
        let w = ((x1 - x0) * 4 + 1) as usize;
        let rows = ((y1 - y0) * 2 + 1) as usize;
        let mut grid = vec![vec![' '; w]; rows];
        let col = |x: i32| ((x - x0) * 4) as usize;
        let row = |y: i32| ((y1 - y) * 2) as usize;
        for a in 0..self.len() {
            let pa = &self.points[a];
            let mut m = self.neighbours[a];
            while m != 0 {
                let b = m.trailing_zeros() as usize;
                m &= m - 1;
                let pb = &self.points[b];
                if (pb.y, pb.x) <= (pa.y, pa.x) {
                    continue;
                }
                if pa.y == pb.y {
                    let r = row(pa.y);
                    grid[r][col(pa.x) + 1..col(pb.x)].fill('-');
                } else if pa.x == pb.x {
                    let c = col(pa.x);
                    for line in &mut grid[row(pb.y) + 1..row(pa.y)] {
                        line[c] = '|';
                    }
                } else if pb.y - pa.y == 1 && (pb.x - pa.x).abs() <= 2 {
                    let r = row(pa.y) - 1;
                    let c = (col(pa.x) + col(pb.x)) / 2;
                    grid[r][c] = if pb.x > pa.x { '/' } else { '\\' };
                } else {
                    // Any other slope (the pentagram's lines): one mark per grid row
                    // between the ends, on the straight line joining them, where no
                    // other mark is yet (lines may cross).
                    let (ra, rb) = (row(pa.y) as i64, row(pb.y) as i64);
                    let (ca, cb) = (col(pa.x) as i64, col(pb.x) as i64);
                    let mark = if pb.x > pa.x { '/' } else { '\\' };
                    let steps = ra - rb;
                    for i in 1..steps {
                        let r = (ra - i) as usize;
                        let c = (ca + ((cb - ca) * i * 2 + steps).div_euclid(2 * steps)) as usize;
                        if grid[r][c] == ' ' {
                            grid[r][c] = mark;
                        }
                    }
                }
            }
        }
        for p in &self.points {
            grid[row(p.y)][col(p.x)] = cell(p.id);
        }
        let mut s = String::new();
        for (r, line) in grid.iter().enumerate() {
            let label = if r % 2 == 0 && self.algebraic {
                format!("{:>3} ", y1 - (r as i32) / 2 + 1)
            } else {
                "    ".to_string()
            };
            let text: String = line.iter().collect();
            s.push_str(&label);
            s.push_str(text.trim_end());
            s.push('\n');
        }
        if self.algebraic {
            s.push_str("    ");
            for x in x0..=x1 {
                let c = (b'a' + x as u8) as char;
                s.push(c);
                if x < x1 {
                    s.push_str("   ");
                }
            }
            s.push('\n');
        } else {
            let names: Vec<String> = self
                .points
                .iter()
                .map(|p| format!("{}={}", p.name, cell(p.id)))
                .collect();
            s.push_str(&names.join(" "));
            s.push('\n');
        }
        s
    }
}
