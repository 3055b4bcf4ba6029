//! `huntsolve perft` (being built).

use huntsolve::{Error, Result};

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `perft`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'perft' is not available yet".into()))
}
