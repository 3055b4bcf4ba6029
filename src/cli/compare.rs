//! `huntsolve compare` (being built).

use huntsolve::{Error, Result};

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `compare`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'compare' is not available yet".into()))
}
