//! `huntsolve playout` (being built).

use huntsolve::{Error, Result};

/// Arguments of `playout`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `playout`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'playout' is not available yet".into()))
}
