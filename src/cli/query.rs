//! `huntsolve query` (being built).

use huntsolve::{Error, Result};

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `query`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'query' is not available yet".into()))
}
