//! `huntsolve analyze` (being built).

use huntsolve::{Error, Result};

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `analyze`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'analyze' is not available yet".into()))
}
