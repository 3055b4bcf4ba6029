//! Every board's text diagram shows every one of its edges (the pentagram
//! of Kaooa drew almost none of its lines).

use crate::board::{Board, BUILTIN};

/// The diagram's cell halfway along every edge must be a line mark. Cells are laid
/// out as `Board::draw` documents them: 4 columns per x unit, 2 rows per y unit,
/// after a 4-character rank label.
fn check(board: &Board) {
    let text = board.draw(|_| 'o');
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().skip(4).collect()).collect();
    let x0 = board.points().iter().map(|p| p.x).min().unwrap();
    let y1 = board.points().iter().map(|p| p.y).max().unwrap();
    // (x2, y2) are doubled board coordinates (the midpoint of an edge); (dc, dr) moves
    // that many text columns right and rows down from there.
    let at = |x2: i32, y2: i32, dc: i32, dr: i32| -> char {
        let col = ((x2 - 2 * x0) * 2 + dc) as usize;
        let row = (2 * y1 - y2 + dr) as usize;
        rows.get(row)
            .and_then(|r| r.get(col))
            .copied()
            .unwrap_or(' ')
    };
    let mut edges = 0;
    for (a, pa) in board.points().iter().enumerate() {
        let mut m = board.neighbours()[a];
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            if b < a {
                continue;
            }
            edges += 1;
            let pb = &board.points()[b];
            let (x2, y2) = (pa.x + pb.x, pa.y + pb.y);
            let mut mid = at(x2, y2, 0, 0);
            if mid == 'o' {
                // A point not on the edge may sit at its middle (Juroku Musashi's base
                // holds two points that Ludii adds on it without splitting it): look
                // beside it, still on the edge.
                mid = if pa.y == pb.y {
                    at(x2, y2, -1, 0)
                } else {
                    at(x2, y2, 0, -1)
                };
            }
            assert!(
                "-|/\\".contains(mid),
                "{}: edge {}-{} not drawn (found {mid:?})\n{text}",
                board.name(),
                pa.name,
                pb.name
            );
        }
    }
    assert!(edges > 0);
}

#[test]
fn every_builtin_board_draws_every_edge() {
    for (name, _) in BUILTIN {
        check(&Board::builtin(name).unwrap());
    }
}
