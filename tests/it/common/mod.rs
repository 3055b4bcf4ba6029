//! Helpers shared by the test modules: reference solvers written independently of the
//! library's solver, test games, and a runner for the binary.

pub mod exact;
pub mod graph;
pub mod retro;
pub mod table;

/// Runs the `huntsolve` binary: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_huntsolve"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `cert` with its first one-move node playing the next move instead: a
/// well-formed certificate that (for the certificates the tests make) no
/// longer holds.
pub fn first_move_altered(cert: &huntsolve::prove::Certificate) -> huntsolve::prove::Certificate {
    use huntsolve::prove::Node;
    let mut c = cert.clone();
    let i = c
        .nodes
        .iter()
        .position(|n| matches!(n, Node::One { .. }))
        .unwrap();
    if let Node::One { mv, child } = c.nodes[i] {
        c.nodes[i] = Node::One { mv: mv + 1, child };
    }
    c
}
