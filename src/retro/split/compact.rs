//! A split tier on the compact encoding: each part holds its range
//! in the compact solver's counted bytes, two a slot
//! ([`crate::retro::compact::ooc::Share`]), the children's records held
//! sparse, and checkpoints at level boundaries that a rerun resumes from.
//!
//! The protocol, every part in step:
//! 1. **Resume or scan.** Every part lists the checkpoints it has; the parts
//!    agree on the latest boundary all of them hold and load it (one that
//!    cannot starts the tier over everywhere); else each scans its range.
//! 2. **Levels.** One exchange agrees on the next distance `d` (the smallest
//!    any part holds), whether a checkpoint is due, whether a stop was asked
//!    and whether the last level found a slot. Then rounds: each part
//!    propagates some of its chunks at `d` (until about [`round_records`]
//!    records wait for the others), sends them, and applies what it receives
//!    at once; the rounds end when no part has chunks left at `d`.
//! 3. **Draws**: what is left undecided. Each part writes its part file from
//!    its bytes (the records are never held apart from them).
//!
//! A part that meets a position the compact encoding cannot hold (more than
//! 254 in-tier moves, a distance past its limit) says so at the next exchange,
//! and every part gives the tier up together ([`Compact::Refused`]): the caller
//! then solves it with the full split solver.

use super::files::write_part_from;
use super::{
    msg_u64, round_records, u32_at, u64_at, Net, Partition, SplitOptions, Traffic, Transport,
};
use crate::error::{Error, Result};
use crate::progress::{stop_requested, Progress};
use crate::retro::compact::ooc::{Share, CHUNK_SLOTS};
use crate::retro::driver::remove_checkpoint;
use crate::retro::solver::{ChildValues, TierStats};
use crate::tier::TierGame;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Level message flags.
const DUE: u8 = 1;
const STOP: u8 = 2;
const FOUND: u8 = 4;
const REFUSED: u8 = 8;
/// Round message flags.
const MORE: u8 = 1;

/// How a compact split tier ended.
pub(super) enum Compact {
    /// Solved; this part's file written: levels and this part's traffic.
    Solved(u32, Traffic),
    /// Some part met what the compact encoding cannot hold (its message).
    Refused(String),
}

/// Checkpoints of part `me` of `parts` of tier `name`: `DIR/<name>.p<k>of<n>.c<from>`.
struct Checkpoints {
    dir: PathBuf,
    prefix: String,
}

impl Checkpoints {
    fn new(out_dir: &Path, name: &str, me: usize, parts: usize) -> Self {
        Checkpoints {
            dir: out_dir.to_path_buf(),
            prefix: format!("{name}.p{me}of{parts}.c"),
        }
    }

    fn path(&self, from: u32) -> PathBuf {
        self.dir.join(format!("{}{from}", self.prefix))
    }

    /// This part's own checkpoint of a scan under way (no other part's is
    /// needed to go on with it: the scan exchanges nothing).
    fn scan_path(&self) -> PathBuf {
        self.dir.join(format!("{}scan", self.prefix))
    }

    /// The boundaries this part has checkpoints of.
    fn list(&self) -> Result<Vec<u32>> {
        let io = |e| Error::io(format!("listing {}", self.dir.display()), e);
        let mut v = Vec::new();
        for e in std::fs::read_dir(&self.dir).map_err(io)? {
            let name = e.map_err(io)?.file_name();
            let name = name.to_string_lossy();
            if let Some(from) = name
                .strip_prefix(&self.prefix)
                .and_then(|t| t.parse::<u32>().ok())
            {
                v.push(from);
            }
        }
        v.sort_unstable();
        Ok(v)
    }

    /// Removes every level checkpoint but `keep`'s, and with `scan` the
    /// scan's.
    fn prune(&self, keep: Option<u32>, scan: bool) -> Result<()> {
        for from in self.list()? {
            if Some(from) != keep {
                remove_checkpoint(&self.path(from))?;
            }
        }
        if scan {
            remove_checkpoint(&self.scan_path())?;
        }
        Ok(())
    }
}

/// Removes the compact split checkpoints of tier `name` part `me` of `parts`
/// (its table is written).
pub(super) fn remove_checkpoints(
    out_dir: &Path,
    name: &str,
    me: usize,
    parts: usize,
) -> Result<()> {
    Checkpoints::new(out_dir, name, me, parts).prune(None, true)
}

/// Where a part is: the next distance and the levels that found a slot.
#[derive(Clone, Copy)]
struct At {
    from: u32,
    levels: u32,
}

/// Solves this part's share of `tier` on the compact encoding and writes its
/// part file at `part_file`.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_part_compact<G: TierGame, T: Transport>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    net: &mut Net<'_, T>,
    options: &SplitOptions,
    out_dir: &Path,
    part_file: &Path,
    progress: &dyn Progress,
) -> Result<Compact> {
    let (me, parts) = (net.me(), net.parts());
    let size = game.tier_size(tier);
    let range = Partition::wide(size, parts)?.range(me);
    let name = game.tier_name(tier);
    let ckpts = Checkpoints::new(out_dir, &name, me, parts);
    let traffic_before = net.traffic;
    let loaded = resume(game, tier, children, net, &ckpts, (me, parts), &range)?;
    let (share, mut at) = match loaded {
        Some(s) => s,
        None => {
            progress.stage_in(
                &format!("{name} scan (compact, part {me} of {parts})"),
                range.end - range.start,
                "slots",
            );
            let scanned = scan_share(
                game,
                tier,
                children,
                &range,
                (me, parts),
                &ckpts,
                options,
                progress,
            );
            progress.finish_stage();
            let (share, refused) = match scanned {
                Ok(s) => (Some(s), None),
                Err(Error::Memory(m)) => (None, Some(m)),
                Err(e) => return Err(e),
            };
            let msg = refused.as_ref().map_or(vec![0], |m| {
                let mut v = vec![1];
                v.extend_from_slice(m.as_bytes());
                v
            });
            let all = net.gather(msg)?;
            if let Some(m) = all.iter().find(|b| b.first() == Some(&1)) {
                return Ok(Compact::Refused(
                    String::from_utf8_lossy(&m[1..]).into_owned(),
                ));
            }
            let share = share.ok_or_else(|| Error::Internal("a share without its bytes".into()))?;
            (share, At { from: 0, levels: 0 })
        }
    };
    let every = options.checkpoint_every;
    let mut last_save = Instant::now();
    let mut found_last = false;
    let mut refused: Option<String> = None;
    progress.stage(
        &format!("{name} propagate (compact, part {me} of {parts})"),
        0,
    );
    loop {
        let next = share.next_level(at.from).map_or(u64::MAX, u64::from);
        let mut flags = 0u8;
        if every.is_some_and(|e| last_save.elapsed() >= e) {
            flags |= DUE;
        }
        if stop_requested() || options.stop_at.is_some_and(|s| at.from >= s) {
            flags |= STOP;
        }
        if found_last {
            flags |= FOUND;
        }
        if refused.is_some() {
            flags |= REFUSED;
        }
        let mut msg = next.to_le_bytes().to_vec();
        msg.push(flags);
        let all = net.gather(msg)?;
        let any = |f: u8| all.iter().any(|b| b.get(8).is_some_and(|x| x & f != 0));
        if any(FOUND) {
            at.levels += 1;
        }
        if any(REFUSED) {
            let why = refused.unwrap_or_else(|| {
                "another part met a position the compact encoding cannot hold".into()
            });
            return Ok(Compact::Refused(why));
        }
        let d = all
            .iter()
            .map(|b| msg_u64(b, 0))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .min()
            .unwrap_or(u64::MAX);
        let stop = any(STOP);
        if any(DUE) || stop {
            let t = Instant::now();
            share.save(&ckpts.path(at.from), None, (at.from, at.levels))?;
            net.agree(Ok(Vec::new()))?;
            ckpts.prune(Some(at.from), true)?;
            progress.message(&format!(
                "{name}: checkpoint of part {me} before distance {} ({:.1} s)",
                at.from,
                t.elapsed().as_secs_f64()
            ));
            last_save = Instant::now();
        }
        if stop {
            return Err(Error::Interrupted);
        }
        if d == u64::MAX {
            break;
        }
        let d = d as u32;
        let (found, why) = level(&share, net, d)?;
        found_last = found > 0;
        refused = why;
        at.from = d + 1;
        progress.message(&format!(
            "{name}: distance {d}, {found} positions in part {me}"
        ));
    }
    progress.finish_stage();
    let stats = TierStats {
        outcomes: share.outcomes(),
        levels: at.levels,
    };
    write_part_from(
        part_file,
        game.fingerprint(),
        size,
        &range,
        stats.levels,
        &|r| share.records(r),
    )?;
    let mut traffic = net.traffic;
    traffic.bytes_sent -= traffic_before.bytes_sent;
    traffic.exchanges -= traffic_before.exchanges;
    traffic.remote_updates -= traffic_before.remote_updates;
    Ok(Compact::Solved(stats.levels, traffic))
}

/// This part's share scanned: from its own checkpoint of a scan under way
/// when there is a whole one (else from the start), in passes of a 16th of
/// the share, the bytes saved after a pass when `options` say a checkpoint
/// is due (and on a stop request, which then ends the scan).
#[allow(clippy::too_many_arguments)]
fn scan_share<'a, G: TierGame>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildValues<G::Tier>,
    range: &std::ops::Range<u64>,
    (me, parts): (usize, usize),
    ckpts: &Checkpoints,
    options: &SplitOptions,
    progress: &dyn Progress,
) -> Result<Share<'a, G>> {
    let path = ckpts.scan_path();
    let resumed = Share::load(game, tier, children, range.clone(), (me, parts), &path)
        .ok()
        .flatten()
        .filter(|(s, c, f, _)| *f == 0 && *c <= s.chunks());
    let (share, mut done) = match resumed {
        Some((s, c, _, _)) => (s, c),
        None => (
            Share::new(game, tier, children, range.clone(), (me, parts))?,
            0,
        ),
    };
    progress.advance((done * CHUNK_SLOTS).min(range.end as usize - range.start as usize) as u64);
    let chunks = share.chunks();
    let pass = chunks.div_ceil(16).max(1);
    let mut last = Instant::now();
    while done < chunks {
        let end = (done + pass).min(chunks);
        share.scan(done..end, progress)?;
        done = end;
        let stop = stop_requested() || options.stop_scan_after.is_some_and(|p| done >= p);
        let due = options
            .checkpoint_every
            .is_some_and(|e| last.elapsed() >= e);
        if done < chunks && (due || stop) {
            share.save(&path, Some(done), (0, 0))?;
            last = Instant::now();
        }
        if stop && done < chunks {
            return Err(Error::Interrupted);
        }
    }
    remove_checkpoint(&path)?;
    Ok(share)
}

/// The latest boundary every part holds a checkpoint of, loaded; `None` (every
/// part's checkpoints removed) when there is none or some part cannot load it.
fn resume<'a, G: TierGame, T: Transport>(
    game: &'a G,
    tier: G::Tier,
    children: &'a ChildValues<G::Tier>,
    net: &mut Net<'_, T>,
    ckpts: &Checkpoints,
    (me, parts): (usize, usize),
    range: &std::ops::Range<u64>,
) -> Result<Option<(Share<'a, G>, At)>> {
    let mine = ckpts.list()?;
    let mut msg = Vec::with_capacity(4 * mine.len());
    for f in &mine {
        msg.extend_from_slice(&f.to_le_bytes());
    }
    let all = net.gather(msg)?;
    let lists: Vec<Vec<u32>> = all
        .iter()
        .map(|b| {
            if b.len() % 4 != 0 {
                return Err(Error::Internal(format!(
                    "split: a list of tiers from another part has {} bytes, not a multiple of 4",
                    b.len()
                )));
            }
            Ok(b.chunks_exact(4).map(|c| u32_at(c, 0)).collect())
        })
        .collect::<Result<_>>()?;
    let common = mine
        .iter()
        .rev()
        .find(|f| lists.iter().all(|l| l.contains(f)))
        .copied();
    let loaded = match common {
        Some(from) => Share::load(
            game,
            tier,
            children,
            range.clone(),
            (me, parts),
            &ckpts.path(from),
        )
        .ok()
        .flatten()
        .filter(|(s, c, f, _)| *f == from && *c == s.chunks()),
        None => None,
    };
    let ok = net.gather(vec![u8::from(loaded.is_some())])?;
    if common.is_some() && ok.iter().all(|b| b.first() == Some(&1)) {
        if let Some((share, _, from, levels)) = loaded {
            ckpts.prune(Some(from), true)?;
            return Ok(Some((share, At { from, levels })));
        }
    }
    // No boundary every part holds: the level checkpoints go, a scan under
    // way is kept (each part goes on with its own).
    ckpts.prune(None, false)?;
    Ok(None)
}

/// Level `d` in rounds: returns the slots this part found, and the refusal a
/// position of this part met (the rounds go on to their end, so every part
/// takes part in the same exchanges).
fn level<G: TierGame, T: Transport>(
    share: &Share<'_, G>,
    net: &mut Net<'_, T>,
    d: u32,
) -> Result<(usize, Option<String>)> {
    let me = net.me();
    let chunks = share.chunks_at(d);
    let budget = round_records(share.len() as u64);
    let (mut at, mut found) = (0usize, 0usize);
    let mut refused: Option<String> = None;
    // Chunks a round takes, tuned on the records the last round made.
    let mut take = 64usize;
    loop {
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); net.parts()];
        if refused.is_none() && at < chunks.len() {
            let end = (at + take).min(chunks.len());
            match share.propagate(&chunks[at..end], d) {
                Ok((f, recs)) => {
                    found += f;
                    let made: usize = recs.iter().map(Vec::len).sum();
                    let per = made.div_ceil(end - at).max(1);
                    take = (budget / per).clamp(1, 1 << 16);
                    out = recs;
                }
                Err(Error::Memory(m)) => refused = Some(m),
                Err(e) => return Err(e),
            }
            at = end;
        }
        let more = refused.is_none() && at < chunks.len();
        let msgs: Vec<Vec<u8>> = out
            .iter()
            .enumerate()
            .map(|(k, recs)| {
                let mut m = Vec::with_capacity(1 + 8 * recs.len());
                m.push(u8::from(more) * MORE);
                if k != me {
                    for r in recs {
                        m.extend_from_slice(&r.to_le_bytes());
                    }
                }
                m
            })
            .collect();
        let sent: usize = out
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != me)
            .map(|(_, r)| r.len())
            .sum();
        net.traffic.remote_updates += sent as u64;
        drop(out);
        let got = net.round(msgs)?;
        let mut any_more = false;
        for (k, m) in got.iter().enumerate() {
            any_more |= m.first().is_some_and(|f| f & MORE != 0);
            if k == me || refused.is_some() {
                continue;
            }
            if m.is_empty() || (m.len() - 1) % 8 != 0 {
                return Err(Error::Internal(format!(
                    "split: a share of records from another part has {} bytes, not 1 + 8k",
                    m.len()
                )));
            }
            let recs: Vec<u64> = m[1..].chunks_exact(8).map(|c| u64_at(c, 0)).collect();
            match share.apply(&recs, d) {
                Ok(()) => {}
                Err(Error::Memory(x)) => refused = Some(x),
                Err(e) => return Err(e),
            }
        }
        if !any_more {
            break;
        }
    }
    Ok((found, refused))
}

/// `tier` split on the compact encoding across `parts` parts of this process
/// (threads exchanging through [`super::Threads`], `threads` worker threads
/// shared among them, at least one a part), its part files in `dir`: the
/// joined records and the bytes the parts sent each other. For `bench
/// --retro --split`.
pub(crate) fn split_tier_in_process<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    (parts, threads): (usize, usize),
    dir: &Path,
    progress: &dyn Progress,
) -> Result<(Vec<u16>, u64)> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let options = SplitOptions {
        checkpoint_every: None,
        ..SplitOptions::default()
    };
    let name = game.tier_name(tier);
    let results = super::run_parts(parts, (threads / parts.max(1)).max(1), &|t| {
        let mut net = Net::new(t);
        let path = super::part_path(dir, &name, net.me(), net.parts());
        let got = solve_part_compact(
            game, tier, children, &mut net, &options, dir, &path, progress,
        );
        match got {
            Ok(Compact::Solved(_, traffic)) => Ok((path, traffic.bytes_sent)),
            Ok(Compact::Refused(why)) => Err(Error::Memory(why)),
            Err(e) => Err(net.fail(e)),
        }
    });
    let mut records = Vec::with_capacity(game.tier_size(tier) as usize);
    let mut sent = 0;
    for r in results {
        let (path, bytes) = r?;
        records.extend(super::files::part_records(&path)?);
        sent += bytes;
    }
    Ok((records, sent))
}
