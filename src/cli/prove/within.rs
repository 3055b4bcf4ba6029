//! `huntsolve prove <rules> [position] --within N [--side NAME] [--nodes N]
//! [--time S] [--hash MiB] [--save FILE] [--json]`: a claim bounded by plies
//! ([`huntsolve::prove::within`]): for the side named (without `--side`, for
//! each side, the side to move first), "it forces a win within N plies" is
//! proven or refuted by an exhaustive bounded search. With `--save FILE`, each
//! decided claim's certificate (one side: FILE; both: `FILE.<side>`).

use super::{peak_memory, position_and_side, Args, Asked};
use crate::cli::out;
use huntsolve::prove::RunOutcome;
use huntsolve::prove::{prove_within, WithinConfig, WithinReport};
use huntsolve::retro::TierGame;
use huntsolve::Progress;
use huntsolve::{Error, Result};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;

/// Largest certificate written (nodes).
const MAX_CERT_NODES: usize = 50_000_000;

#[derive(Serialize)]
struct Claim {
    #[serde(flatten)]
    report: WithinReport,
    /// `forces a win within N plies`, `cannot force a win within N plies`, or `unknown`.
    claim: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<Saved>,
}

#[derive(Serialize)]
struct Saved {
    file: String,
    nodes: usize,
    bytes: usize,
}

#[derive(Serialize)]
struct WithinOut {
    #[serde(flatten)]
    asked: Asked,
    within: u32,
    claims: Vec<Claim>,
    peak_memory_bytes: Option<u64>,
}

/// Runs `prove ... --within N` on `game` (called by `prove`'s job).
pub(super) fn within<G: TierGame>(game: &G, args: &Args, plies: u32) -> Result<()> {
    let (pos, side) = position_and_side(game, args)?;
    within_game(game, &pos, side, plies, args)
}

fn within_game<G: TierGame>(
    game: &G,
    pos: &G::Pos,
    side: Option<usize>,
    plies: u32,
    args: &Args,
) -> Result<()> {
    if !args.tables.is_empty() {
        return Err(Error::Usage(
            "--within does not read tables: a bounded claim is searched from the rules alone; drop --tables".into(),
        ));
    }
    if let Some(t) = args.time {
        huntsolve::check_seconds("--time", t).map_err(Error::Usage)?;
    }
    if let Some(file) = &args.save {
        huntsolve::prove::check_save_path(file)?;
    }
    let mover = game.side_to_move(pos);
    let sides: Vec<usize> = match side {
        Some(s) => vec![s],
        None => vec![mover, 1 - mover],
    };
    let bars = out::Bars::new();
    let mut claims = Vec::new();
    let mut save_error = None;
    for &s in &sides {
        bars.stage(
            &format!("prove --within {plies}: {}", game.side_label(s)),
            0,
        );
        let cfg = WithinConfig {
            plies,
            nodes: args.nodes,
            time: args.time.map(Duration::from_secs_f64),
            hash_mib: args.hash.or(1024),
        };
        let want_cert = args.save.is_some() && save_error.is_none();
        let cfg_again = cfg.clone();
        let (report, cert) =
            match prove_within(game, pos, s, cfg, want_cert.then_some(MAX_CERT_NODES)) {
                Ok(x) => x,
                // The search's own errors (bad plies, rules) stop the command; a
                // certificate that cannot be made (too large) is reported after
                // the claims.
                Err(e @ Error::Certificate { .. }) if want_cert => {
                    save_error = Some(e);
                    prove_within(game, pos, s, cfg_again, None)?
                }
                Err(e) => return Err(e),
            };
        bars.finish_stage();
        if huntsolve::stop_requested() {
            return Err(Error::Interrupted);
        }
        let claim = match report.outcome {
            RunOutcome::Proven => format!("forces a win within {plies} plies"),
            RunOutcome::Disproven => format!("cannot force a win within {plies} plies"),
            RunOutcome::Unknown => "unknown".to_string(),
        };
        let mut certificate = None;
        if let (Some(file), Some(c)) = (&args.save, cert) {
            let path = if sides.len() > 1 {
                PathBuf::from(format!("{}.{}", file.display(), game.side_name(s)))
            } else {
                file.clone()
            };
            match c.write(&path) {
                Ok(()) => {
                    certificate = Some(Saved {
                        file: path.display().to_string(),
                        nodes: c.nodes.len(),
                        bytes: c.encode().len(),
                    })
                }
                Err(e) => save_error = Some(e),
            }
        }
        claims.push(Claim {
            report,
            claim,
            certificate,
        });
    }
    let o = WithinOut {
        asked: Asked::of(game, pos),
        within: plies,
        claims,
        peak_memory_bytes: peak_memory(),
    };
    out::print_saved(args.json.json, &o, || text(&o), save_error)
}

fn text(o: &WithinOut) -> String {
    let mut s = format!(
        "rules    {}\nposition {}\nto move  {}\n",
        o.asked.rules, o.asked.position, o.asked.side_to_move_label
    );
    for c in &o.claims {
        let r = &c.report;
        s.push_str(&format!(
            "claim    {} {}{}: {} positions searched, {} kept, {:.2} s\n",
            o.asked.words.label(&r.side_name),
            // The verb agrees with the side's name (`crows force a win`).
            match c.claim.strip_prefix("forces ") {
                Some(rest) if o.asked.words.label(&r.side_name).ends_with('s') =>
                    format!("force {rest}"),
                _ => c.claim.clone(),
            },
            r.stopped
                .map_or(String::new(), |w| format!(" (stopped: {w})")),
            r.nodes,
            r.positions,
            r.seconds
        ));
        if let Some(f) = &c.certificate {
            s.push_str(&format!(
                "saved    {} ({} nodes, {} bytes)\n",
                f.file, f.nodes, f.bytes
            ));
        }
    }
    s.push_str(&format!(
        "peak memory {}\n",
        o.peak_memory_bytes
            .map_or("unknown".into(), |b| format!("{} MiB", b >> 20))
    ));
    s
}
