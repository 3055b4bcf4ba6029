//! The `huntsolve` command: a thin layer over the library. `main` parses the
//! arguments, calls one library function per subcommand, prints, and maps
//! errors to an exit status with [`exit_code`] (over [`huntsolve::Error::exit_code`]:
//! 1 a check disagreed, 2 bad usage or input, 130 interrupted).
#![forbid(unsafe_code)]

mod cli;

use huntsolve::Error;
use std::io::Write;
use std::process::ExitCode;

/// Exit status of success.
const SUCCESS: u8 = 0;
/// Exit status when interrupted by Ctrl-C twice (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

/// The one place errors become exit codes (documented in the README): the error's
/// own [`Error::exit_code`] (1 a check disagreed, 2 usage or input, 130 interrupted),
/// except that a closed pipe (e.g. `| head`) is not a failure.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe => SUCCESS,
        _ => e.exit_code(),
    }
}

fn main() -> ExitCode {
    // Ctrl-C asks the library to stop at its next check; finished work stays on disk.
    let _ = ctrlc::set_handler(|| {
        if huntsolve::stop_requested() {
            std::process::exit(INTERRUPTED.into());
        }
        huntsolve::request_stop();
    });
    let (result, json) = cli::main();
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    let code = exit_code(&e);
    if code != SUCCESS {
        // A command that printed its document (a check that then disagreed, a
        // proof whose certificate could not be saved: the error is in it) adds
        // no second one.
        if json && !cli::out::json_document_covers(code) {
            // Machine readers get the error in the form they asked for, on stdout.
            let obj = serde_json::json!({"error": e.to_string(), "exit_code": code});
            // Best effort: stdout may be the very thing that failed.
            let _ = writeln!(std::io::stdout(), "{obj}");
        }
        eprintln!("error: {e}");
    }
    ExitCode::from(code)
}
