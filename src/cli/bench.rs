//! `huntsolve bench` (being built).

use huntsolve::{Error, Result};

/// Arguments of `bench`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `bench`.
pub fn run(_args: Args) -> Result<()> {
    Err(Error::Other("'bench' is not available yet".into()))
}
