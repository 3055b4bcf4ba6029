//! Helpers shared by the test modules: reference solvers written independently of the
//! library's solver, test games, and a runner for the binary.

pub mod exact;
pub mod graph;
pub mod retro;
pub mod table;
