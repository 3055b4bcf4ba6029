//! `huntsolve sweep` (being built).

use huntsolve::{Error, Result};

/// Arguments of `sweep`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `sweep`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'sweep' is not available yet".into()))
}
