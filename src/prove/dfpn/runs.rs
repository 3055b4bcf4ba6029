//! One-sided runs and values: df-pn phases alternated with the closure search
//! under the node and time budget, and the value of a position from up to two
//! one-sided runs.

use super::{key_of, Prover, RunOutcome, RunReport, StopReason, Worker, STACK_BYTES};
use crate::game::{Game, Oracle, Value};
use crate::progress::Progress;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

impl<'a, G: Game, O: Oracle<G>> Prover<'a, G, O> {
    /// Proves or disproves "`side` forces a win" at `pos`: phases of df-pn
    /// (all threads) alternate with the closure search and the local
    /// retrograde analysis (one thread each), each round twice as long as the
    /// previous one, until one is final or the budget is spent. All keep what
    /// they found in the shared table. A phase of the closure search or the
    /// local analysis that does not fit the memory budget (or, for the
    /// closure search, the thread's stack) ends early and is dropped from the
    /// rest of the run; df-pn goes on.
    pub fn prove_side(&self, pos: &G::Pos, side: usize, progress: &dyn Progress) -> RunReport {
        let t0 = Instant::now();
        let nodes0 = self.shared.nodes.load(Ordering::Relaxed);
        let hits0 = self.shared.table_hits.load(Ordering::Relaxed);
        let positions0 = self.shared.positions.load(Ordering::Relaxed);
        self.shared.root_pn.store(1, Ordering::Relaxed);
        self.shared.root_dn.store(1, Ordering::Relaxed);
        let mut phase = self.cfg.phase_nodes.max(1);
        let mut fin = None;
        // Set once the budget (or the stack) cut the closure search or the
        // local analysis short: that phase is not tried again in this run
        // (phases only grow), and df-pn goes on without it.
        let (mut closure_cut, mut local_cut) = (false, false);
        loop {
            self.end_phase_after(phase);
            if let Some(r) = self.dfpn_phase(pos, side, progress) {
                fin = Some(r);
                break;
            }
            if self.over_budget() || self.shared.should_stop() {
                break;
            }
            if self.cfg.closure && !closure_cut {
                self.end_phase_after(phase);
                let (r, hit) = self.on_one_thread(side, progress, |w| w.closure_root(pos));
                if let Some(r) = r {
                    fin = Some(r);
                    break;
                }
                closure_cut = hit;
                if self.over_budget() || self.shared.should_stop() {
                    break;
                }
            }
            if self.cfg.local && !local_cut {
                // Half a phase: the walk takes every move, and from a position
                // far from any leaf it cannot settle anything.
                self.end_phase_after((phase / 2).max(1));
                let (r, hit) = self.on_one_thread(side, progress, |w| w.local_root(pos));
                if let Some(r) = r {
                    fin = Some(r);
                    break;
                }
                local_cut = hit;
                if self.over_budget() || self.shared.should_stop() {
                    break;
                }
            }
            phase = phase.saturating_mul(2);
        }
        self.shared.phase_end.store(u64::MAX, Ordering::Relaxed);
        let (pn, dn, dist) = fin.unwrap_or_else(|| {
            // Unknown: the root's last numbers (from the table when stored).
            let key = key_of(self.key(pos), side);
            self.tt.probe(key).map_or(
                (
                    self.shared.root_pn.load(Ordering::Relaxed),
                    self.shared.root_dn.load(Ordering::Relaxed),
                    0,
                ),
                |e| (e.pn, e.dn, e.dist),
            )
        });
        let outcome = if pn == 0 {
            RunOutcome::Proven
        } else if dn == 0 {
            RunOutcome::Disproven
        } else {
            RunOutcome::Unknown
        };
        let stopped = (outcome == RunOutcome::Unknown).then(|| self.stop_reason());
        RunReport {
            side,
            side_name: self.game.side_name(side),
            outcome,
            pn,
            dn,
            nodes: self.shared.nodes.load(Ordering::Relaxed) - nodes0,
            positions: self.shared.positions.load(Ordering::Relaxed) - positions0,
            table_hits: self.shared.table_hits.load(Ordering::Relaxed) - hits0,
            seconds: t0.elapsed().as_secs_f64(),
            proof_plies: (pn == 0).then_some(dist),
            stopped,
            memory_peak_bytes: self.tt.budget().peak(),
        }
    }

    /// Ends the next phase `nodes` nodes from now.
    fn end_phase_after(&self, nodes: u64) {
        let now = self.shared.nodes.load(Ordering::Relaxed);
        self.shared
            .phase_end
            .store(now.saturating_add(nodes), Ordering::Relaxed);
    }

    /// Runs `f` on one worker thread with a large stack (the closure search
    /// recurses as deep as its longest line), with soft memory charges: a
    /// charge that does not fit ends the phase, not the run. Returns `f`'s
    /// result and whether the budget cut the phase short.
    fn on_one_thread<R: Send>(
        &self,
        side: usize,
        progress: &dyn Progress,
        f: impl FnOnce(&mut Worker<'_, G, O>) -> Option<R> + Send,
    ) -> (Option<R>, bool) {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("closure".into())
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || {
                    let mut w = self.worker(side, 0);
                    w.progress = Some(progress);
                    w.soft_memory = true;
                    let r = f(&mut w);
                    w.flush();
                    (r, w.memory_hit)
                })
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .unwrap_or((None, false))
        })
    }

    /// Why an unknown run stopped: the memory budget first (it also sets the
    /// stop flag), then the node and time limits, else a stop request.
    fn stop_reason(&self) -> StopReason {
        if self.shared.memory_out.load(Ordering::Relaxed) {
            StopReason::Memory
        } else if self.shared.depth_out.load(Ordering::Relaxed) {
            StopReason::Depth
        } else if self
            .shared
            .node_limit
            .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n)
        {
            StopReason::Nodes
        } else if self
            .shared
            .deadline
            .is_some_and(|d| self.shared.start.elapsed() >= d)
        {
            StopReason::Time
        } else {
            StopReason::Interrupt
        }
    }

    pub(super) fn over_budget(&self) -> bool {
        self.shared.memory_out.load(Ordering::Relaxed)
            || self.shared.depth_out.load(Ordering::Relaxed)
            || self
                .shared
                .node_limit
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n)
            || self
                .shared
                .deadline
                .is_some_and(|d| self.shared.start.elapsed() >= d)
    }

    /// One df-pn phase on every thread; the final (pn, dn, dist) if reached.
    pub(super) fn dfpn_phase(
        &self,
        pos: &G::Pos,
        side: usize,
        progress: &dyn Progress,
    ) -> Option<(u32, u32, u32)> {
        let threads = self.cfg.threads.max(1);
        let done = AtomicBool::new(false);
        let results: Vec<(u32, u32, u32)> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for id in 0..threads {
                let done = &done;
                let b = std::thread::Builder::new()
                    .name(format!("prover-{id}"))
                    .stack_size(STACK_BYTES);
                let h = b.spawn_scoped(scope, move || {
                    let mut w = self.worker(side, id);
                    if id == 0 {
                        w.progress = Some(progress);
                    }
                    let r = w.run_root(pos);
                    if r.0 == 0 || r.1 == 0 {
                        // The first thread to finish stops the others.
                        done.store(true, Ordering::Relaxed);
                        self.shared.stop.store(true, Ordering::Relaxed);
                    }
                    r
                });
                match h {
                    Ok(h) => handles.push(h),
                    Err(_) => break,
                }
            }
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        // A finished run must not stop the next one; the budget stays.
        if done.load(Ordering::Relaxed) && !self.over_budget() {
            self.shared.stop.store(false, Ordering::Relaxed);
        }
        results.iter().find(|r| r.0 == 0 || r.1 == 0).copied()
    }

    /// The value of `pos` for the side to move from up to two runs: the mover
    /// forces a win → win; else the opponent forces a win → loss; else both
    /// disproven → draw. `None` when a run stopped unknown.
    pub fn value(&self, pos: &G::Pos, progress: &dyn Progress) -> (Option<Value>, Vec<RunReport>) {
        let mover = self.game.side_to_move(pos);
        let first = self.prove_side(pos, mover, progress);
        match first.outcome {
            RunOutcome::Proven => return (Some(Value::Win), vec![first]),
            RunOutcome::Unknown => return (None, vec![first]),
            RunOutcome::Disproven => {}
        }
        let second = self.prove_side(pos, 1 - mover, progress);
        let v = match second.outcome {
            RunOutcome::Proven => Some(Value::Loss),
            RunOutcome::Disproven => Some(Value::Draw),
            RunOutcome::Unknown => None,
        };
        (v, vec![first, second])
    }
}
