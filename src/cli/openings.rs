//! `huntsolve openings` (being built).

use huntsolve::{Error, Result};

/// Arguments of `openings`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `openings`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'openings' is not available yet".into()))
}
