//! A scope solved tier after tier in parts: options, events, and the plan's loop.

use super::compact::{remove_checkpoints, solve_part_compact, Compact};
use super::files::{join_parts, valid_part, write_part};
use super::part::solve_part_in;
use super::part_memory;
use super::{
    msg_u32, part_path, plan_part_memory, u64_at, Net, Partition, SplitOptions, Traffic, Transport,
    SPLIT_FRONTIER_BYTES_PER_SLOT, SPLIT_STATE_BYTES_PER_SLOT,
};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::retro::driver::{
    check_index, format_bytes, kept_tier, load_records, make_summary, open_out_dir, plan,
    stored_start_record, write_summary, MadeBy, Plan, SolveReport, Summary, TierSummary,
};
use crate::retro::lock::{DirLock, UNFINISHED_MARK};
use crate::retro::scope::{Scope, Solvable};
use crate::retro::solver::{ChildRecords, ChildValues, SparseRecords};
use crate::table::{table_path, Table};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Options of [`solve_split`].
#[derive(Clone, Debug, Default)]
pub struct SplitSolveOptions {
    /// Memory limit per part (`None`: no check).
    pub memory_limit: Option<u64>,
    /// The exchange rounds' size.
    pub split: SplitOptions,
    /// Who asked for the solve, written into `summary.json` by part 0 (`None`:
    /// the field is absent).
    pub made_by: Option<MadeBy>,
}

/// What a split solve tells its caller as it goes (part 0 only).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum SplitEvent {
    /// The solve starts: tiers of the plan, kept from disk, parts.
    Started {
        /// Tiers of the scope.
        tiers: usize,
        /// Tiers whose tables were kept.
        kept: usize,
        /// Parts every tier is split into.
        parts: usize,
        /// The largest estimate of a part's memory over the tiers.
        memory_per_part: u64,
        /// The tier an earlier split solve into this directory was solving
        /// when it ended without finishing it (killed, interrupted, a rank
        /// died), if any; read from [`UNFINISHED_MARK`].
        unfinished: Option<String>,
    },
    /// Every part starts on this tier.
    Solving {
        /// Tier name.
        tier: String,
    },
    /// A tier was solved in parts and joined.
    Solved {
        /// Tier name.
        tier: String,
        /// Its slots.
        slots: u64,
        /// Seconds from its start to its table.
        seconds: f64,
        /// Every part's traffic, summed.
        traffic: Traffic,
        /// Only joined from part files an earlier run left.
        joined_only: bool,
        /// Solved on the compact encoding (two bytes a slot), not by the full
        /// split solver.
        compact: bool,
        /// Tiers done, of `total`.
        done: usize,
        /// Tiers of the scope.
        total: usize,
    },
    /// A stop request (Ctrl-C, or the job ending because a process died)
    /// came while this tier was being solved; its table was not written.
    Stopped {
        /// Tier name.
        tier: String,
    },
}

/// Every part's `Ok(())`, or the first failure (see [`Net::agree`]).
fn agree_ok<T: Transport>(net: &mut Net<'_, T>, local: Result<()>) -> Result<()> {
    net.agree(local.map(|()| Vec::new())).map(|_| ())
}

/// Solves `scope` of `game` into `out_dir` with every tier split across the
/// parts of `transport` (every part calls it with the same arguments; they must
/// share `out_dir`). Part 0 takes the directory's lock, joins each tier's part
/// files into its table, writes `summary.json` and returns the report; the
/// other parts return `None`.
pub fn solve_split<G: Solvable, T: Transport>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    transport: &mut T,
    options: &SplitSolveOptions,
    observe: &dyn Fn(&SplitEvent),
    progress: &dyn Progress,
) -> Result<Option<SolveReport>> {
    let mut net = Net::new(transport);
    match solve_split_in(game, scope, out_dir, &mut net, options, observe, progress) {
        Ok(r) => Ok(r),
        Err(e) => Err(net.fail(e)),
    }
}

fn solve_split_in<G: Solvable, T: Transport>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    net: &mut Net<'_, T>,
    options: &SplitSolveOptions,
    observe: &dyn Fn(&SplitEvent),
    progress: &dyn Progress,
) -> Result<Option<SolveReport>> {
    let me = net.me();
    let started = Instant::now();
    let (plan, need, _lock) = split_setup(game, scope, out_dir, net, options)?;
    let order: Vec<G::Tier> = plan.waves.iter().flatten().copied().collect();
    let mut done: BTreeMap<G::Tier, TierSummary> = BTreeMap::new();
    let kept_set = agree_kept(game, &order, out_dir, net, &mut done)?;
    let kept = if me == 0 { kept_set.len() } else { 0 };
    if me == 0 {
        let unfinished = crate::regular::read_to_string(out_dir.join(UNFINISHED_MARK))
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            // Killed after its table was written: nothing unfinished.
            .filter(|t| !kept_set.iter().any(|&i| game.tier_name(order[i]) == *t));
        observe(&SplitEvent::Started {
            tiers: order.len(),
            kept,
            parts: net.parts(),
            memory_per_part: need,
            unfinished,
        });
    }
    let mut cache: HashMap<G::Tier, Arc<Vec<u16>>> = HashMap::new();
    let (mut solved, mut slots_solved) = (0usize, 0u64);
    for (i, &t) in order.iter().enumerate() {
        if kept_set.contains(&i) {
            continue;
        }
        let tier_started = Instant::now();
        let name = game.tier_name(t);
        if me == 0 {
            observe(&SplitEvent::Solving { tier: name.clone() });
            // Best effort: the mark is a message for a rerun, and a part 0
            // failing alone here would leave the other parts waiting.
            let _ = mark_unfinished(out_dir, Some(&name));
        }
        let size = game.tier_size(t);
        let resumed = resumed_part(game, t, out_dir, net)?;
        let (levels, traffic, compact) = match resumed {
            Some(levels) => (levels, Traffic::default(), false),
            None => match solve_part_file(game, t, out_dir, net, options, &mut cache, progress) {
                Err(Error::Interrupted) => {
                    if me == 0 {
                        observe(&SplitEvent::Stopped { tier: name });
                    }
                    return Err(Error::Interrupted);
                }
                other => other?,
            },
        };
        let joined = join_tier(game, t, out_dir, net, levels, &tier_started)?;
        // The table is written: this part's checkpoints of the tier are spent.
        let spent = remove_checkpoints(out_dir, &name, me, net.parts());
        agree_ok(net, spent)?;
        solved += 1;
        slots_solved += size;
        if let Some(summary) = joined {
            done.insert(t, summary);
            observe(&SplitEvent::Solved {
                tier: name,
                slots: size,
                seconds: tier_started.elapsed().as_secs_f64(),
                traffic,
                joined_only: resumed.is_some(),
                compact,
                done: done.len(),
                total: order.len(),
            });
        }
        progress.tiers_done(kept_set.len() + solved, order.len());
    }
    if me != 0 {
        return Ok(None);
    }
    // Best effort, as above; a mark left behind names a tier whose table is
    // kept, which the next run ignores.
    let _ = mark_unfinished(out_dir, None);
    let start_record = stored_start_record(game, out_dir, |t| order.contains(&t))?;
    let summary = Summary {
        made_by: options.made_by.clone(),
        ..make_summary(game, &plan, &done, start_record)
    };
    write_summary(out_dir, &summary)?;
    Ok(Some(SolveReport {
        summary,
        solved,
        resumed: kept,
        seconds: started.elapsed().as_secs_f64(),
        slots_solved,
    }))
}

/// Writes [`UNFINISHED_MARK`] naming `tier` (temporary file, then rename), or
/// removes it (`None`).
fn mark_unfinished(out_dir: &Path, tier: Option<&str>) -> Result<()> {
    let path = out_dir.join(UNFINISHED_MARK);
    match tier {
        Some(t) => {
            let tmp = out_dir.join(format!("{UNFINISHED_MARK}.tmp{}", std::process::id()));
            std::fs::write(&tmp, format!("{t}\n"))
                .and_then(|()| std::fs::rename(&tmp, &path))
                .map_err(|e| Error::io(format!("writing {}", path.display()), e))
        }
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io(format!("removing {}", path.display()), e))
            }
            _ => Ok(()),
        },
    }
}

/// The setup every part runs before the first tier: the plan (deterministic)
/// and its memory check on every part, the directory's lock on part 0, and
/// every part's check that it sees the directory part 0 locked. Returns the
/// plan, the memory a part needs and part 0's lock.
fn split_setup<G: Solvable, T: Transport>(
    game: &G,
    scope: &Scope,
    out_dir: &Path,
    net: &mut Net<'_, T>,
    options: &SplitSolveOptions,
) -> Result<(Plan<G::Tier>, u64, Option<DirLock>)> {
    let me = net.me();
    let parts = net.parts();
    let setup = (|| {
        check_index(game, options.memory_limit)?;
        let plan = plan(game, scope)?;
        let need = check_part_memory(game, scope, &plan, parts, options)?;
        let lock = if me == 0 {
            Some(open_out_dir(out_dir)?)
        } else {
            None
        };
        Ok((plan, need, lock))
    })();
    let lock_text = match &setup {
        Ok(_) if me == 0 => crate::regular::read(out_dir.join(crate::retro::lock::LOCK_FILE))
            .map_err(|e| Error::io(format!("reading the lock of {}", out_dir.display()), e)),
        Ok(_) => Ok(Vec::new()),
        Err(_) => Ok(Vec::new()),
    };
    let setup = setup.and_then(|s| lock_text.map(|l| (s, l)));
    let (setup, lock_text) = match setup {
        Ok(s) => s,
        Err(e) => return Err(net.fail(e)),
    };
    let texts = net.agree(Ok(lock_text))?;
    let seen = if me == 0 {
        Ok(())
    } else {
        sees_locked_dir(out_dir, me, &texts[0])
    };
    agree_ok(net, seen)?;
    Ok(setup)
}

/// The memory a part needs for the largest tier of `plan` split into `parts`
/// (on the compact encoding when `options` say), refused with
/// [`Error::Memory`] when it exceeds their limit.
fn check_part_memory<G: Solvable>(
    game: &G,
    scope: &Scope,
    plan: &Plan<G::Tier>,
    parts: usize,
    options: &SplitSolveOptions,
) -> Result<u64> {
    let compact = options.split.compact;
    let need = plan_part_memory(game, plan, parts, compact)?;
    if let Some(l) = options.memory_limit {
        if need > l {
            let what = if compact {
                "its share of the compact state, two bytes a slot, and its children's records held sparse".to_string()
            } else {
                format!(
                    "its share of the state, {} bytes a slot, and its children's records whole",
                    SPLIT_STATE_BYTES_PER_SLOT + SPLIT_FRONTIER_BYTES_PER_SLOT
                )
            };
            return Err(Error::Memory(format!(
                "{} ({} scope) split into {parts} parts needs about {} a part for its largest tier ({what}), but the limit is {}; use more ranks or raise --memory",
                game.rules_string(),
                scope.name(),
                format_bytes(need),
                format_bytes(l)
            )));
        }
    }
    Ok(need)
}

/// Whether part `me` sees, in `out_dir`, the lock file part 0 wrote
/// (`lock_text`): every part must write into the same shared directory.
fn sees_locked_dir(out_dir: &Path, me: usize, lock_text: &[u8]) -> Result<()> {
    match crate::regular::read(out_dir.join(crate::retro::lock::LOCK_FILE)) {
        Ok(t) if t == lock_text => Ok(()),
        Ok(_) => Err(Error::Cluster(format!(
            "part {me}: {} here is not the directory part 0 writes (its lock file differs): the output directory must be on a filesystem every node shares",
            out_dir.display()
        ))),
        Err(e) => Err(Error::Cluster(format!(
            "part {me}: cannot reach the shared output directory {}: {e}",
            out_dir.display()
        ))),
    }
}

/// The positions in `order` of the tiers whose tables are kept, decided by
/// part 0 (all parts read the same directory) and sent to every part; part 0
/// puts their summaries into `done`.
fn agree_kept<G: Solvable, T: Transport>(
    game: &G,
    order: &[G::Tier],
    out_dir: &Path,
    net: &mut Net<'_, T>,
    done: &mut BTreeMap<G::Tier, TierSummary>,
) -> Result<BTreeSet<usize>> {
    let kept_list = if net.me() == 0 {
        kept_tables(game, order, out_dir, net.parts(), done)
    } else {
        Ok(Vec::new())
    };
    let kept_list = net.agree(kept_list)?;
    Ok(kept_list[0]
        .chunks_exact(8)
        .map(|c| u64_at(c, 0) as usize)
        .collect())
}

/// Part 0's list of the kept tiers (their positions in `order`, 8 bytes
/// each), their summaries put into `done` and their stale part files removed.
fn kept_tables<G: Solvable>(
    game: &G,
    order: &[G::Tier],
    out_dir: &Path,
    parts: usize,
    done: &mut BTreeMap<G::Tier, TierSummary>,
) -> Result<Vec<u8>> {
    let mut v = Vec::new();
    for (i, &t) in order.iter().enumerate() {
        if let Some(s) = kept_tier(game, t, out_dir)? {
            // Part files left by a run killed between the join and their removal.
            for k in 0..parts {
                let p = part_path(out_dir, &game.tier_name(t), k, parts);
                match std::fs::remove_file(&p) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(Error::io(format!("removing {}", p.display()), e))
                    }
                    _ => {}
                }
                remove_checkpoints(out_dir, &game.tier_name(t), k, parts)?;
            }
            done.insert(t, s);
            v.extend_from_slice(&(i as u64).to_le_bytes());
        }
    }
    Ok(v)
}

/// The levels of this part's file of tier `t` when every part finds a whole
/// part file of an earlier run (the tier is then only joined again), else `None`.
fn resumed_part<G: Solvable, T: Transport>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    net: &mut Net<'_, T>,
) -> Result<Option<u32>> {
    let (me, parts) = (net.me(), net.parts());
    let size = game.tier_size(t);
    let range = Partition::wide(size, parts)?.range(me);
    let mine = part_path(out_dir, &game.tier_name(t), me, parts);
    let have = valid_part(&mine, game.fingerprint(), size, &range);
    let all = net.gather(have.map_or(vec![0], |l| {
        let mut v = vec![1];
        v.extend_from_slice(&l.to_le_bytes());
        v
    }))?;
    if all.iter().all(|b| b.first() == Some(&1)) {
        Ok(Some(msg_u32(&all[0], 1)?))
    } else {
        Ok(None)
    }
}

/// Solves this part's share of tier `t` and writes its part file (every part
/// must succeed): on the compact encoding when `options` say and it holds the
/// tier, else by the full split solver. Returns the levels and this part's
/// traffic, and whether it was the compact encoding.
fn solve_part_file<G: Solvable, T: Transport>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    net: &mut Net<'_, T>,
    options: &SplitSolveOptions,
    cache: &mut HashMap<G::Tier, Arc<Vec<u16>>>,
    progress: &dyn Progress,
) -> Result<(u32, Traffic, bool)> {
    let name = game.tier_name(t);
    let mine = part_path(out_dir, &name, net.me(), net.parts());
    if options.split.compact {
        cache.clear();
        let children = match sparse_children(game, t, out_dir, progress) {
            Ok(c) => c,
            Err(e) => return Err(net.fail(e)),
        };
        let got = solve_part_compact(
            game,
            t,
            &children,
            net,
            &options.split,
            out_dir,
            &mine,
            progress,
        )?;
        match got {
            Compact::Solved(levels, traffic) => {
                agree_ok(net, Ok(()))?;
                return Ok((levels, traffic, true));
            }
            Compact::Refused(why) => {
                progress.note(&format!(
                    "{name}: not on the compact encoding ({why}); split by the full solver"
                ));
                check_full_fits(game, t, net.parts(), options.memory_limit)?;
            }
        }
    }
    let children = match load_children(game, t, out_dir, cache) {
        Ok(c) => c,
        Err(e) => return Err(net.fail(e)),
    };
    let res = solve_part_in(game, t, &children, net, &options.split, progress)?;
    drop(children);
    let written = write_part(&mine, game.fingerprint(), game.tier_size(t), &res);
    let levels = res.stats.levels;
    let traffic = res.total_traffic;
    drop(res);
    agree_ok(net, written)?;
    Ok((levels, traffic, false))
}

/// Refuses tier `t` split by the full solver when a part's need exceeds `limit`.
fn check_full_fits<G: Solvable>(
    game: &G,
    t: G::Tier,
    parts: usize,
    limit: Option<u64>,
) -> Result<()> {
    let need = part_memory(game, t, parts, false)?;
    match limit {
        Some(l) if need > l => Err(Error::Memory(format!(
            "tier {} split by the full solver needs about {} a part, but the limit is {}; use more ranks or raise --memory",
            game.tier_name(t),
            format_bytes(need),
            format_bytes(l)
        ))),
        _ => Ok(()),
    }
}

/// The records of `t`'s children held sparse (a byte a won or lost slot and
/// a bit a slot), read from their tables.
fn sparse_children<G: Solvable>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    progress: &dyn Progress,
) -> Result<ChildValues<G::Tier>> {
    let mut children = ChildValues::new();
    for c in game.stored_children(t) {
        let table = Table::open(&table_path(out_dir, &game.tier_name(c)))?;
        let s = SparseRecords::from_table(&table, progress)?;
        children.insert_records(c, ChildRecords::Sparse(Arc::new(s)));
    }
    Ok(children)
}

/// The records of `t`'s children, whole (every part holds them all), from
/// `cache` or their tables; `cache` keeps only these children.
fn load_children<G: Solvable>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    cache: &mut HashMap<G::Tier, Arc<Vec<u16>>>,
) -> Result<ChildValues<G::Tier>> {
    let kids = game.stored_children(t);
    cache.retain(|c, _| kids.contains(c));
    let mut children = ChildValues::new();
    for &c in &kids {
        let r = match cache.get(&c) {
            Some(r) => r.clone(),
            None => {
                let r = Arc::new(load_records(game, out_dir, c)?);
                cache.insert(c, r.clone());
                r
            }
        };
        children.insert(c, r);
    }
    Ok(children)
}

/// Part 0 joins the part files of `t` into its table (its summary returned);
/// the others wait for the table before the next tier reads it (`None`).
fn join_tier<G: Solvable, T: Transport>(
    game: &G,
    t: G::Tier,
    out_dir: &Path,
    net: &mut Net<'_, T>,
    levels: u32,
    tier_started: &Instant,
) -> Result<Option<TierSummary>> {
    let joined = if net.me() == 0 {
        let seconds = tier_started.elapsed().as_secs_f64();
        join_parts(game, t, out_dir, net.parts(), levels, seconds).map(Some)
    } else {
        Ok(None)
    };
    let joined = match joined {
        Ok(s) => s,
        Err(e) => return Err(net.fail(e)),
    };
    agree_ok(net, Ok(()))?;
    Ok(joined)
}
