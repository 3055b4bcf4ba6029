//! The `huntsolve` command: a thin layer over the library. `main` parses the
//! arguments, calls one library function per subcommand, prints, and maps
//! errors to an exit status ([`huntsolve::Error::exit_code`]: 1 a check
//! disagreed, 2 bad usage or input, 130 interrupted).
#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Ctrl-C asks the library to stop at its next check; finished work stays on disk.
    let _ = ctrlc::set_handler(|| {
        if huntsolve::progress::stop_requested() {
            std::process::exit(130);
        }
        huntsolve::progress::request_stop();
    });
    match cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (e.g. `| head`) is not a failure.
            if let huntsolve::Error::Io { source, .. } = &e {
                if source.kind() == std::io::ErrorKind::BrokenPipe {
                    return ExitCode::SUCCESS;
                }
            }
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
