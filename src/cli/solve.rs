//! `huntsolve solve` (being built).

use huntsolve::{Error, Result};

/// Arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `solve`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'solve' is not available yet".into()))
}
