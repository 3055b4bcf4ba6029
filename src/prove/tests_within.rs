//! Unit tests of the bounded claims' graph computation ([`Certificate::plies_left`]).

use super::certificate::{CertHeader, Certificate, Kind, Node};
use crate::game::{Game, Notation};
use crate::hunt::from_spec;

#[test]
fn plies_left_is_the_longest_line_from_the_root_over_cycles() {
    let g = from_spec("kaooa").unwrap();
    let header = CertHeader {
        rules: g.rules_string(),
        fingerprint: g.fingerprint(),
        position: g.format_position(&g.start()),
        side: 0,
        side_name: g.side_name(0).into(),
        kind: Kind::NoWin,
        nodes: 5,
        tables: Vec::new(),
        writer: "test".into(),
        within: Some(3),
    };
    let one = |child| Node::One { mv: 0, child };
    let cert = Certificate {
        header,
        // 1 and 2 form a cycle; 4 is reached by a line of 2 plies only.
        nodes: vec![Node::All(vec![1, 3]), one(2), one(1), one(4), Node::Horizon],
    };
    assert_eq!(cert.plies_left(3), vec![3, 2, 1, 2, 1]);
    assert_eq!(cert.plies_left(1), vec![1, 0, 0, 0, 0]);
    assert_eq!(cert.plies_left(0), vec![0; 5]);
}
