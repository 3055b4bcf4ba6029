//! `huntsolve verify` (being built).

use huntsolve::{Error, Result};

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `verify`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'verify' is not available yet".into()))
}
