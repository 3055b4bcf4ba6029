//! Prints one line per table in a solve directory: tier, slots and a CRC-32 of
//! its records (the values, not the file bytes, which also hold solve times).
//! Two directories solved from the same rules print the same lines exactly when
//! every table holds the same records; `scripts/mpi-check.sh` compares a
//! one-process solve with an MPI one this way.
//!
//!     cargo run --example table_digest -- DIR

use huntsolve::table::Table;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: table_digest DIR");
        return ExitCode::from(2);
    };
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "hst"))
            .collect(),
        Err(e) => {
            eprintln!("error: listing {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    paths.sort();
    let mut out = std::io::stdout().lock();
    for path in paths {
        let digest = Table::open(&path).and_then(|t| {
            let records = t.read_all()?;
            let mut crc = crc32fast::Hasher::new();
            for r in &records {
                crc.update(&r.to_le_bytes());
            }
            Ok((t.meta().tier.clone(), records.len(), crc.finalize()))
        });
        match digest {
            Ok((tier, slots, crc)) => {
                // A closed pipe (`| head`) ends the listing quietly.
                if writeln!(out, "{tier} {slots} {crc:08x}").is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
