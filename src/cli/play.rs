//! `huntsolve play` (being built).

use huntsolve::{Error, Result};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `play`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'play' is not available yet".into()))
}
