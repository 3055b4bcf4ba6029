//! `huntsolve show` (being built).

use huntsolve::{Error, Result};

/// Arguments of `show`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `show`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'show' is not available yet".into()))
}
