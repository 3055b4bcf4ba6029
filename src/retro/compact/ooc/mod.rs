//! Tiers larger than memory: the compact solver's counted kind (two bytes a
//! slot) with the tier's bytes in parts on disk, one part in memory at a time.
//! The files are described in [`files`].
//!
//! The algorithm is the compact solver's ([`super`]), pass by pass:
//! 1. **Scan**, part after part: each part's slots scanned as the compact
//!    solver scans them (exits read from the child tiers, held in memory), the
//!    part written to disk.
//! 2. **Passes** `d = 0, 1, …` (the smallest distance some part holds, or
//!    `d + 1` while updates wait). In a pass, each part that holds slots at `d`
//!    or has updates waiting is read, applies its waiting updates (in the order
//!    of the pass that made them), then propagates its slots at `d` as the
//!    compact solver does: a loss makes each open predecessor a win at `d + 1`,
//!    a win takes its edges off each undecided predecessor's counter, and a
//!    counter reaching zero is a loss at `max(d + 1, the slowest exit loss)`:
//!    every in-tier child is then a win decided at `d` or before, the last at
//!    `d`. A predecessor in another part becomes an update record in a file for
//!    that part, applied when that part is next read: later in this pass, or in
//!    the next (its effects are all at `d + 1` or later, so the order of the
//!    pass is kept). The part is written back.
//! 3. What is left undecided is a draw; the table is written part by part.
//!
//! The records equal the compact and full solvers' (the tests compare them):
//! values and distances are a function of the game graph, the losses of a
//! level commute with its wins (a position with a lost child never has its
//! counter reach zero), and updates are applied in the order of their levels,
//! so a counter reaches zero at the level of its slowest in-tier child.
//!
//! Only the counted kind is done out of core: a counter reaching zero needs no
//! in-tier child's byte, so no part reads another's bytes. A position with more
//! than 254 in-tier moves (a counter a byte cannot hold) is refused.
//!
//! **Resuming.** Every file is written to a temporary file and renamed; a
//! part's file ([`store`]) says the last pass it finished. Its update files are
//! written before it, and the files it applied are removed after it, so a run
//! killed anywhere resumes: a part not yet written is redone from its previous
//! bytes with the same updates, one written is skipped and the updates it
//! applied are removed. A resume proves it holds every pass before it goes on
//! ([`resume`]): the state names the run, each part's pass and the lists that
//! must exist; every part, list and update file names its run and pass; a
//! file missing, older or newer than the state says, or of another run,
//! starts the tier over with a note that says why. `--memory` bounds one
//! part's bytes, the children's records and the buffers.

mod files;
mod pass;
mod share;
mod store;

pub(crate) use share::{share_bytes, Share};

/// Slots of a chunk: the unit of a share's scan ([`Share::scan`]).
pub(crate) const CHUNK_SLOTS: usize = CHUNK;

use super::{record, records_of, Boundary, Bytes, CompactKind, CHUNK, SET_WORDS};
use crate::error::{Error, Result};
use crate::progress::{stop_requested, Progress};
use crate::retro::solver::checkpoint::Identity;
use crate::retro::solver::TierAt;
use crate::retro::solver::{ChildValues, Scratch, TierStats};
use crate::tier::{decode, Outcomes, TierGame};
pub(in crate::retro) use files::{check_dir, remove_own};
use files::{
    list_lists, list_updates, part_path, read_list, read_state, remove_list, remove_update,
    update_is_whole, write_state, Layout, RunId, State, StateFile, UpdateFile, Written, SLOT_BITS,
    SLOT_MASK, WRITE_BUFFER,
};
use pass::pass_part;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bytes an out-of-core solve needs beside one part's bytes and the children:
/// a write buffer per update file, the jobs' buffers (up to eight threads at
/// `JOB_RECORDS` records each) and the reading of updates.
pub(crate) fn ooc_overhead(parts: u64) -> u64 {
    (parts + 12) * WRITE_BUFFER as u64
}

/// Bytes of one part of `slots / parts` slots (two a slot, distance sets).
pub(crate) fn ooc_part_bytes(slots: u64, parts: u64) -> u64 {
    let share = slots.div_ceil(parts.max(1)).div_ceil(CHUNK as u64) * CHUNK as u64;
    share * 2 + share / 256 + ooc_overhead(parts)
}

/// How an out-of-core tier is solved.
#[derive(Clone, Debug)]
pub(crate) struct OocOptions {
    /// Its directory (`DIR/<tier>.ooc`).
    pub dir: PathBuf,
    /// Number of parts.
    pub parts: usize,
    /// Test hook: stop with [`Error::Interrupted`] right after this many parts
    /// were written in this run (as a kill there would: nothing after it done).
    pub stop_after_writes: Option<u64>,
}

/// What an out-of-core solve did (this run's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OocReport {
    /// Parts of the tier.
    pub parts: usize,
    /// Parts read (a pass's and the table's reads).
    pub reads: u64,
    /// Parts written.
    pub writes: u64,
    /// Bytes of the part files written.
    pub bytes_written: u64,
    /// Bytes of update files written.
    pub update_bytes: u64,
    /// Passes that read some part.
    pub passes: u32,
    /// Whether this run went on from an earlier one's files.
    pub resumed: bool,
}

/// A tier solved out of core: its records are read back part by part.
pub(crate) struct OocTier {
    dir: PathBuf,
    layout: Layout,
    run_id: RunId,
    rules: String,
    fingerprint: u64,
    name: String,
    /// Outcome counts and levels.
    pub stats: TierStats,
    /// Seconds this run spent.
    pub seconds: f64,
    /// What this run did.
    pub report: OocReport,
    /// The parts' states on disk, opened on first use (read frame by frame:
    /// no part is held in memory while the table is written).
    states: Mutex<Vec<Option<Arc<store::States>>>>,
    /// The first error met while giving records.
    failed: Mutex<Option<Error>>,
}

/// The identity of part `k` of run `run` in its checkpoint.
fn part_tier(name: &str, layout: &Layout, k: usize, run: RunId) -> String {
    let r = layout.range(k);
    format!(
        "{name} part {k} of {} (slots {}..{}) run {run}",
        layout.parts, r.start, r.end
    )
}

/// What a pass reads of its tier: the game, the tier, its children's
/// records, its name and which part holds a slot.
struct Ctx<'a, G: TierGame> {
    pub game: &'a G,
    pub tier: G::Tier,
    pub children: &'a ChildValues<G::Tier>,
    pub name: String,
    pub owner: Owner,
}

impl<'a, G: TierGame> Ctx<'a, G> {
    /// The tier as the kernel reads it.
    fn tier_at(&self) -> TierAt<'a, G> {
        TierAt {
            game: self.game,
            tier: self.tier,
            children: self.children,
        }
    }
}

/// Which part holds a slot.
#[derive(Clone, Copy, Debug)]
enum Owner {
    /// Out of core: parts of whole chunks ([`Layout`]).
    Chunks(Layout),
    /// Split across processes: `parts` index ranges of equal size (±1) of
    /// `size` slots, as `crate::retro::split` partitions a tier.
    Even { size: u64, parts: usize },
}

impl Owner {
    /// The part of slot `i` (`i` below the tier's size).
    #[inline]
    pub(super) fn of(&self, i: usize) -> usize {
        match *self {
            Owner::Chunks(l) => l.owner(i),
            // The largest k with k·size/parts <= i.
            Owner::Even { size, parts } => {
                (((i as u128 + 1) * parts as u128 - 1) / size as u128) as usize
            }
        }
    }
}

/// Where a pass puts the update records for other parts.
trait Sink: Sync {
    /// Records `recs` for part `dest`.
    fn put(&self, dest: usize, recs: &[u64]) -> Result<()>;
}

impl Sink for files::Outboxes {
    fn put(&self, dest: usize, recs: &[u64]) -> Result<()> {
        files::Outboxes::put(self, dest, recs)
    }
}

struct Run<'a, G: TierGame> {
    ctx: Ctx<'a, G>,
    layout: Layout,
    dir: &'a Path,
    rules: String,
    /// The run's identity (its state's).
    run_id: RunId,
    /// Per part: the distances its chunks hold (union of their sets).
    held: Vec<[u64; SET_WORDS]>,
    /// Per part: the boundary's `from` (0 scanned, `d + 1` after pass `d`).
    done: Vec<u32>,
    /// Per part: whether its last pass found a slot.
    found: Vec<bool>,
    /// Update files on disk: (dest, level, producer).
    updates: BTreeSet<(usize, u32, usize)>,
    /// The lists of the finished passes whose files are not all applied:
    /// (level, producer) to what each of its files holds.
    lists: BTreeMap<(u32, usize), Vec<Written>>,
    report: OocReport,
    writes_left: Option<u64>,
    /// A part's bytes kept for the next read of the same size and kind.
    spare: Option<Bytes>,
}

impl<'a, G: TierGame> Run<'a, G> {
    fn id_text(&self, k: usize) -> String {
        part_tier(&self.ctx.name, &self.layout, k, self.run_id)
    }

    fn read(&mut self, k: usize, kind: CompactKind) -> Result<Option<store::Part>> {
        let tier = self.id_text(k);
        let r = self.layout.range(k);
        let id = Identity {
            rules: &self.rules,
            fingerprint: self.ctx.game.fingerprint(),
            tier: &tier,
            size: (r.end - r.start) as u64,
        };
        let spare = self.spare.take();
        let got = store::read(&part_path(self.dir, k, self.layout.parts), &id, kind, spare)?;
        if got.is_some() {
            self.report.reads += 1;
        }
        Ok(got)
    }

    /// Writes part `k` (with `keep`, the segments a pass left alone keep
    /// their compressed bytes); the test hook may stop right after.
    fn write(
        &mut self,
        k: usize,
        bytes: &Bytes,
        at: Boundary,
        keep: Option<(&store::Dirty, &[store::Frame])>,
    ) -> Result<()> {
        let tier = self.id_text(k);
        let id = Identity {
            rules: &self.rules,
            fingerprint: self.ctx.game.fingerprint(),
            tier: &tier,
            size: bytes.len as u64,
        };
        let path = part_path(self.dir, k, self.layout.parts);
        self.report.bytes_written += store::write(&path, &id, bytes, at, keep)?;
        self.report.writes += 1;
        self.held[k] = held(bytes);
        self.done[k] = at.from;
        self.found[k] = at.levels > 0;
        if let Some(left) = self.writes_left.as_mut() {
            *left = left.saturating_sub(1);
            if *left == 0 {
                return Err(Error::Interrupted);
            }
        }
        Ok(())
    }

    /// The updates waiting for part `k` at pass `d`: made before it in the
    /// order of passes and parts.
    fn waiting(&self, k: usize, d: u32) -> Vec<(usize, u32, usize)> {
        self.updates
            .range((k, 0, 0)..(k + 1, 0, 0))
            .filter(|&&(_, l, p)| (l, p) < (d, k))
            .copied()
            .collect()
    }

    /// Whether update file `u` was applied by its part (which was written
    /// after the pass that applied it).
    fn spent(&self, (d, l, p): UpdateFile) -> bool {
        self.done[d] > 0 && (l, p) < (self.done[d] - 1, d)
    }

    /// What the list of its pass says of update file `u`.
    fn listed(&self, (d, l, p): UpdateFile) -> Result<Written> {
        self.lists
            .get(&(l, p))
            .and_then(|ws| ws.iter().find(|w| w.dest == d))
            .copied()
            .ok_or_else(|| {
                Error::Internal(format!(
                    "update file upd-{d}-{l}-{p} of tier {} is named by no list",
                    self.ctx.name
                ))
            })
    }

    /// Drops the lists all of whose files are applied (the caller removes
    /// their files once the state no longer names them); returns them.
    fn prune_lists(&mut self) -> Vec<(u32, usize)> {
        let done: Vec<(u32, usize)> = self
            .lists
            .iter()
            .filter(|(&(l, p), ws)| ws.iter().all(|w| !self.updates.contains(&(w.dest, l, p))))
            .map(|(&k, _)| k)
            .collect();
        for k in &done {
            self.lists.remove(k);
        }
        done
    }

    /// The state as of now, at `from` with pass `current` under way.
    fn state(&self, levels: u32, from: u32, current: Option<u32>) -> State {
        State {
            run: self.run_id,
            scanned: true,
            from,
            levels,
            current,
            done: self.done.clone(),
            found: self.found.clone(),
            lists: self.lists.keys().copied().collect(),
        }
    }

    /// The next pass's distance from `from`: the smallest a part holds, or
    /// `from` while updates wait (their effects are at `from` or later).
    fn next_level(&self, from: u32) -> Option<u32> {
        let all = self.held.iter().fold([0u64; SET_WORDS], |a, b| {
            std::array::from_fn(|w| a[w] | b[w])
        });
        let held = (from..=super::MAX_COMPACT_DISTANCE).find(|&d| has(&all, d));
        let waiting = (!self.updates.is_empty()).then_some(from);
        match (held, waiting) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

fn has(set: &[u64; SET_WORDS], d: u32) -> bool {
    set[d as usize / 64] >> (d % 64) & 1 != 0
}

fn held(bytes: &Bytes) -> [u64; SET_WORDS] {
    bytes.sets.iter().fold([0u64; SET_WORDS], |a, s| {
        std::array::from_fn(|w| a[w] | s[w].load(Ordering::Relaxed))
    })
}

/// Solves `tier` out of core in `opts.parts` parts under `opts.dir`, resuming
/// what an earlier run left there. The table is written by the caller
/// ([`OocTier::records`]), which then removes the directory.
pub(crate) fn solve_tier_ooc<G: TierGame>(
    game: &G,
    tier: G::Tier,
    children: &ChildValues<G::Tier>,
    opts: &OocOptions,
    progress: &dyn Progress,
) -> Result<OocTier> {
    let started = Instant::now();
    let size = game.tier_size(tier);
    let name = game.tier_name(tier);
    if size > SLOT_MASK {
        return Err(Error::Memory(format!(
            "tier {name} has {size} slots; the out-of-core solver's updates hold slots below 2^{SLOT_BITS}"
        )));
    }
    let n = usize::try_from(size).map_err(|_| {
        Error::Memory(format!(
            "tier {name} has {size} slots, more than this machine can address"
        ))
    })?;
    let layout = Layout::new(n, opts.parts);
    let dir = opts.dir.as_path();
    check_dir(dir)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    let mut run = Run {
        ctx: Ctx {
            game,
            tier,
            children,
            name: name.clone(),
            owner: Owner::Chunks(layout),
        },
        layout,
        dir,
        rules: game.rules_string(),
        run_id: RunId(0),
        held: vec![[0; SET_WORDS]; layout.parts],
        done: vec![0; layout.parts],
        found: vec![false; layout.parts],
        updates: BTreeSet::new(),
        lists: BTreeMap::new(),
        report: OocReport {
            parts: layout.parts,
            ..OocReport::default()
        },
        writes_left: opts.stop_after_writes,
        spare: None,
    };
    let mut passes = resume(&mut run, progress)?;
    if !passes.scanned {
        scan_parts(&mut run, progress)?;
        passes = run.state(0, 0, None);
        write_state(dir, &layout, &passes)?;
    }
    progress.stage(
        &format!("{name} propagate (out of core, {} parts)", layout.parts),
        0,
    );
    loop {
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        let d = match passes.current.or_else(|| run.next_level(passes.from)) {
            Some(d) => d,
            None => break,
        };
        if passes.current.is_none() {
            passes = run.state(passes.levels, passes.from, Some(d));
            write_state(dir, &layout, &passes)?;
        }
        let mut read_any = false;
        for k in 0..layout.parts {
            if run.done[k] > d {
                continue;
            }
            let waiting = run.waiting(k, d);
            if waiting.is_empty() && !has(&run.held[k], d) {
                continue;
            }
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            read_any = true;
            pass_part(&mut run, k, d, &waiting, progress)?;
        }
        if read_any {
            run.report.passes += 1;
        }
        let found = (0..layout.parts).any(|k| run.done[k] == d + 1 && run.found[k]);
        // Lists whose files are all applied: the state stops naming them,
        // then they go.
        let spent = run.prune_lists();
        passes = run.state(passes.levels + u32::from(found), d + 1, None);
        write_state(dir, &layout, &passes)?;
        for (l, p) in spent {
            remove_list(dir, l, p)?;
        }
        progress.advance(1);
        progress.message(&format!("distance {d}: done (out of core)"));
    }
    progress.finish_stage();
    let mut tier_done = OocTier {
        dir: dir.to_path_buf(),
        layout,
        run_id: run.run_id,
        rules: run.rules.clone(),
        fingerprint: game.fingerprint(),
        name,
        stats: TierStats {
            outcomes: Outcomes::default(),
            levels: passes.levels,
        },
        seconds: 0.0,
        report: OocReport::default(),
        states: Mutex::new(vec![None; layout.parts]),
        failed: Mutex::new(None),
    };
    run.spare = None;
    let mut outcomes = Outcomes::default();
    for k in 0..layout.parts {
        let bytes = run
            .read(k, CompactKind::Plain)?
            .ok_or_else(|| missing(dir, k, layout.parts))?
            .bytes;
        outcomes.merge(&count_outcomes(&bytes));
    }
    tier_done.stats.outcomes = outcomes;
    tier_done.report = run.report;
    tier_done.seconds = started.elapsed().as_secs_f64();
    Ok(tier_done)
}

/// A part file removed from under the solve (by another program or a person).
fn missing(dir: &Path, k: usize, parts: usize) -> Error {
    Error::input(
        part_path(dir, k, parts),
        "the part file is gone in the middle of an out-of-core solve",
    )
}

fn count_outcomes(bytes: &Bytes) -> Outcomes {
    (0..bytes.len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut o = Outcomes::default();
            for i in c * CHUNK..((c + 1) * CHUNK).min(bytes.len) {
                if let Some((v, d)) = decode(record(bytes.load(i))) {
                    o.add(v, d);
                }
            }
            o
        })
        .reduce(Outcomes::default, |mut a, b| {
            a.merge(&b);
            a
        })
}

/// Reads what an earlier run left and returns the state to go on from: the
/// earlier run's when every file agrees with it (the parts read back, the
/// updates they applied removed), else a new run's (written, the directory
/// cleared of the solver's files) with a note that says why.
fn resume<G: TierGame>(run: &mut Run<G>, progress: &dyn Progress) -> Result<State> {
    let dir = run.dir;
    let why = match read_state(dir, &run.layout) {
        StateFile::Read(st) => {
            run.run_id = st.run;
            match check_resume(run, &st)? {
                Ok(()) => {
                    if run.report.resumed {
                        progress.note(&format!(
                            "{}: out of core, resumed from {} ({} parts)",
                            run.ctx.name,
                            dir.display(),
                            run.layout.parts
                        ));
                    }
                    return Ok(st);
                }
                Err(why) => Some(why),
            }
        }
        StateFile::Unusable(why) => Some(why),
        StateFile::Absent => has_own_files(dir)?
            .then(|| "there are out-of-core files but no state to say what they hold".to_string()),
    };
    if let Some(why) = why {
        progress.note(&format!(
            "{}: {why} in {}; the tier starts over",
            run.ctx.name,
            dir.display()
        ));
    }
    start_over(run)?;
    let st = State::fresh(run.layout.parts);
    run.run_id = st.run;
    write_state(dir, &run.layout, &st)?;
    Ok(st)
}

/// Whether `dir` holds a file of the solver's.
fn has_own_files(dir: &Path) -> Result<bool> {
    let io = |e| Error::io(format!("reading {}", dir.display()), e);
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry.map_err(io)?.file_name();
        if files::own_name(&name.to_string_lossy()) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// How far a part is, in words.
fn at_pass(done: u32) -> String {
    match done {
        0 => "scanned, no pass done".into(),
        d => format!("done to pass {}", d - 1),
    }
}

/// Checks every file of the directory against the state `st` (of `run`'s
/// layout, `run.run_id` its run): `Ok(Err(why))` when one is missing, older
/// or newer than the state says, damaged or of another run. On `Ok(Ok(()))`
/// the parts' boundaries, the lists and the update files are read into
/// `run`, the files of a pass its producer did not finish are removed (the
/// pass makes them again), and so are the update files already applied.
fn check_resume<G: TierGame>(
    run: &mut Run<G>,
    st: &State,
) -> Result<std::result::Result<(), String>> {
    let dir = run.dir;
    let parts = run.layout.parts;
    run.updates = list_updates(dir)?;
    // The parts: each where the state says, or (in the pass under way) one
    // pass past it.
    for k in 0..parts {
        // Counted: every frame checked, so a damaged part starts the tier over here.
        let part = match run.read(k, CompactKind::Counted) {
            Ok(Some(part)) => part,
            Ok(None) if !st.scanned => continue,
            Ok(None) => return Ok(Err(format!("part {k} is missing"))),
            Err(e) => return Ok(Err(format!("part {k} is not of this run or damaged ({e})"))),
        };
        let (done, found) = (part.at.from, part.at.levels > 0);
        let agrees = if st.scanned {
            (done, found) == (st.done[k], st.found[k])
                || st.current.is_some_and(|d| st.done[k] <= d && done == d + 1)
        } else {
            done == 0
        };
        if !agrees {
            return Ok(Err(format!(
                "part {k} is {} where the state says {}: files of different moments",
                at_pass(done),
                at_pass(st.done[k])
            )));
        }
        run.held[k] = held(&part.bytes);
        run.done[k] = done;
        run.found[k] = found;
        run.report.resumed = true;
    }
    let lists = list_lists(dir)?;
    if !st.scanned {
        return Ok(if run.updates.is_empty() && lists.is_empty() {
            Ok(())
        } else {
            Err("there are update files or lists before the scan is done".into())
        });
    }
    if let Some(&(d, l, p)) = run
        .updates
        .iter()
        .find(|&&(d, _, p)| d >= parts || p >= parts)
    {
        return Ok(Err(format!(
            "update file upd-{d}-{l}-{p} names a part of no {parts}-part layout"
        )));
    }
    // A pass its producer did not finish (its part not written): its files go.
    let unfinished = |run: &Run<G>, l: u32, p: usize| st.current == Some(l) && run.done[p] <= l;
    // The lists that must exist: the state's, and those of the parts
    // written in the pass under way.
    let mut required = st.lists.clone();
    if let Some(d) = st.current {
        required.extend((0..parts).filter(|&p| run.done[p] == d + 1).map(|p| (d, p)));
    }
    // Applied update files go first (their lists may already be gone).
    let spent: Vec<UpdateFile> = run
        .updates
        .iter()
        .filter(|&&u| run.spent(u))
        .copied()
        .collect();
    for u in spent {
        remove_update(dir, u)?;
        run.updates.remove(&u);
    }
    run.lists.clear();
    for (l, p) in lists {
        if p >= parts {
            return Ok(Err(format!(
                "the list list-{l}-{p} names a part of no {parts}-part layout"
            )));
        }
        if unfinished(run, l, p) {
            remove_list(dir, l, p)?;
            continue;
        }
        let Some(ws) =
            read_list(dir, run.run_id, l, p, parts).filter(|ws| ws.iter().all(|w| w.dest < parts))
        else {
            return Ok(Err(format!(
                "the list list-{l}-{p} is damaged or of another run"
            )));
        };
        if required.contains(&(l, p)) {
            run.lists.insert((l, p), ws);
        } else if ws.iter().all(|w| run.spent((w.dest, l, p))) {
            // A finished pass's list the last state no longer names.
            remove_list(dir, l, p)?;
        } else {
            return Ok(Err(format!(
                "the list list-{l}-{p} is not one the state records"
            )));
        }
    }
    if let Some((l, p)) = required.iter().find(|k| !run.lists.contains_key(k)) {
        return Ok(Err(format!("the list list-{l}-{p} is missing")));
    }
    let unfinished_files: Vec<UpdateFile> = run
        .updates
        .iter()
        .filter(|&&(_, l, p)| unfinished(run, l, p))
        .copied()
        .collect();
    for u in unfinished_files {
        remove_update(dir, u)?;
        run.updates.remove(&u);
    }
    for &u in &run.updates {
        let (d, l, p) = u;
        let Ok(w) = run.listed(u) else {
            return Ok(Err(format!(
                "update file upd-{d}-{l}-{p} is named by no list the state records"
            )));
        };
        if !update_is_whole(dir, run.run_id, u, &w) {
            return Ok(Err(format!(
                "update file upd-{d}-{l}-{p} is not what its list says (damaged or of another run)"
            )));
        }
    }
    for (&(l, p), ws) in &run.lists {
        for w in ws {
            let u = (w.dest, l, p);
            if !run.spent(u) && !run.updates.contains(&u) {
                return Ok(Err(format!(
                    "update file upd-{}-{l}-{p} is missing",
                    w.dest
                )));
            }
        }
    }
    Ok(Ok(()))
}

/// Removes the solver's files of the tier's directory (the directory was
/// checked to hold nothing else).
fn start_over<G: TierGame>(run: &mut Run<G>) -> Result<()> {
    let dir = run.dir;
    remove_own(dir)?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("creating {}", dir.display()), e))?;
    run.updates.clear();
    run.lists.clear();
    run.report.resumed = false;
    run.held.iter_mut().for_each(|h| *h = [0; SET_WORDS]);
    run.done.iter_mut().for_each(|d| *d = 0);
    run.found.iter_mut().for_each(|f| *f = false);
    Ok(())
}

/// Chunks `chunks` of `bytes` (the tier's slots from `lo`: a part out of
/// core, a share split across processes) scanned in parallel, exactly (a
/// counter past a byte is refused: no part re-checks another's children),
/// each chunk's slots reported to `progress`; a stop request ends it.
fn scan_chunks<G: TierGame>(
    ctx: &Ctx<G>,
    bytes: &Bytes,
    lo: usize,
    chunks: Range<usize>,
    progress: &dyn Progress,
) -> Result<()> {
    chunks
        .into_par_iter()
        .try_for_each_init(Scratch::new, |scratch, c| -> Result<()> {
            if stop_requested() {
                return Err(Error::Interrupted);
            }
            super::scan_chunk(ctx.tier_at(), bytes, (c, lo), true, scratch)?;
            progress.advance((((c + 1) * CHUNK).min(bytes.len) - c * CHUNK) as u64);
            Ok(())
        })
}

/// Phase 1: every part not yet on disk scanned and written.
fn scan_parts<G: TierGame>(run: &mut Run<G>, progress: &dyn Progress) -> Result<()> {
    let parts = run.layout.parts;
    progress.stage(
        &format!("{} scan (out of core, {parts} parts)", run.ctx.name),
        run.layout.n as u64,
    );
    for k in 0..parts {
        let r = run.layout.range(k);
        if part_path(run.dir, k, parts).exists() {
            progress.advance((r.end - r.start) as u64);
            continue;
        }
        let bytes = Bytes::new(r.end - r.start, &run.ctx.name, CompactKind::Counted)?;
        let chunks = (r.end - r.start).div_ceil(CHUNK);
        scan_chunks(&run.ctx, &bytes, r.start, 0..chunks, progress)?;
        let at = Boundary {
            scanned: bytes.len as u64,
            from: 0,
            levels: 0,
        };
        run.write(k, &bytes, at, None)?;
    }
    progress.finish_stage();
    Ok(())
}

impl OocTier {
    /// The records of `range`: read from the parts (at most two kept in
    /// memory, states only). An error is kept ([`OocTier::take_error`]) and
    /// gives no records, so a table written from them is refused.
    pub(crate) fn records(&self, range: Range<usize>) -> Vec<u16> {
        match self.try_records(range) {
            Ok(r) => r,
            Err(e) => {
                if let Ok(mut f) = self.failed.lock() {
                    f.get_or_insert(e);
                }
                Vec::new()
            }
        }
    }

    /// The first error [`OocTier::records`] met.
    pub(crate) fn take_error(&self) -> Option<Error> {
        self.failed.lock().ok().and_then(|mut f| f.take())
    }

    fn part(&self, k: usize) -> Result<Arc<store::States>> {
        let mut open = self
            .states
            .lock()
            .map_err(|_| Error::Internal("the out-of-core parts' lock is poisoned".into()))?;
        if let Some(s) = &open[k] {
            return Ok(s.clone());
        }
        let tier = part_tier(&self.name, &self.layout, k, self.run_id);
        let r = self.layout.range(k);
        let id = Identity {
            rules: &self.rules,
            fingerprint: self.fingerprint,
            tier: &tier,
            size: (r.end - r.start) as u64,
        };
        let path = part_path(&self.dir, k, self.layout.parts);
        let s = Arc::new(
            store::states(&path, &id)?.ok_or_else(|| missing(&self.dir, k, self.layout.parts))?,
        );
        open[k] = Some(s.clone());
        Ok(s)
    }

    fn try_records(&self, range: Range<usize>) -> Result<Vec<u16>> {
        let mut out = Vec::with_capacity(range.len());
        let mut i = range.start;
        while i < range.end {
            let k = self.layout.owner(i);
            let r = self.layout.range(k);
            let end = range.end.min(r.end);
            let states = self.part(k)?.get(i - r.start..end - r.start)?;
            if states.len() != end - i {
                return Err(Error::Internal(format!(
                    "part {k} of tier {} gave {} states for {} slots",
                    self.name,
                    states.len(),
                    end - i
                )));
            }
            out.extend(records_of(states.len(), |j| states[j]));
            i = end;
        }
        Ok(out)
    }

    /// Removes the tier's directory (its table is written).
    pub(crate) fn remove_files(&self) -> Result<()> {
        remove_own(&self.dir)
    }
}
