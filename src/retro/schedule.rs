//! The cluster manager's scheduling of whole tiers across workers, without MPI
//! (`cluster`, feature `mpi`, sends and receives; this decides).
//!
//! Tiers are indices into the plan's order (its waves, flattened). A tier is
//! *ready* once every stored child is finished; kept tiers (on disk from an
//! earlier run) are finished from the start. `Schedule::assign` hands the
//! largest ready tier (ties: plan order) to an idle worker, as long as there are
//! both and no tier has failed; the worker that reported last is the first to get
//! a new tier. A report (`Schedule::solved`, `Schedule::failed`) frees its
//! worker; a solved tier makes the parents whose last child it was ready. After a
//! failure nothing more is handed out: the tiers in flight are waited for. The
//! run is over when no tier is in flight (`Schedule::is_over`); then every tier
//! is finished unless a tier failed or the graph left some never ready.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// What the manager does with a worker's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Taken: the tier is finished (a solved report) or the run is failing (a
    /// failed report).
    Accepted,
    /// A report the schedule cannot take (a tier outside the plan, a tier
    /// already finished reported solved, a tier not handed to that worker):
    /// the manager ends the run.
    Unexpected,
}

/// The scheduling state of one run: which tiers are finished, ready, in flight,
/// and which workers are idle. Workers are named by their rank.
#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    /// Slots of each tier (the larger ready tier goes first).
    sizes: Vec<u64>,
    /// Children of each tier not yet finished.
    waiting: Vec<usize>,
    /// The tiers of which each tier is a stored child.
    parents: Vec<Vec<usize>>,
    finished: Vec<bool>,
    done: usize,
    ready: BinaryHeap<(u64, Reverse<usize>)>,
    /// Idle workers, the next one to get a tier last.
    idle: Vec<i32>,
    /// The tier each busy worker solves.
    in_flight: BTreeMap<i32, usize>,
    failed: bool,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Schedule {
    /// A run of the tiers `0..sizes.len()` (of `sizes[i]` slots each), where
    /// `children[i]` are tier `i`'s stored children and `kept[i]` says tier `i` is
    /// finished already, on the workers `workers` (first listed, first served).
    /// `None` when a child index is outside the plan.
    pub(crate) fn new(
        sizes: Vec<u64>,
        children: &[Vec<usize>],
        kept: &[bool],
        workers: impl IntoIterator<Item = i32>,
    ) -> Option<Schedule> {
        let n = sizes.len();
        if children.len() != n || kept.len() != n {
            return None;
        }
        let mut waiting = vec![0; n];
        let mut parents = vec![Vec::new(); n];
        for (i, kids) in children.iter().enumerate() {
            for &c in kids {
                parents.get_mut(c)?.push(i);
                waiting[i] += 1;
            }
        }
        for i in (0..n).filter(|&i| kept[i]) {
            for &p in &parents[i] {
                waiting[p] -= 1;
            }
        }
        let mut idle: Vec<i32> = workers.into_iter().collect();
        idle.reverse();
        let mut schedule = Schedule {
            ready: BinaryHeap::new(),
            done: kept.iter().filter(|&&k| k).count(),
            finished: kept.to_vec(),
            sizes,
            waiting,
            parents,
            idle,
            in_flight: BTreeMap::new(),
            failed: false,
        };
        for i in 0..n {
            if !schedule.finished[i] && schedule.waiting[i] == 0 {
                schedule.make_ready(i);
            }
        }
        Some(schedule)
    }

    fn make_ready(&mut self, i: usize) {
        self.ready.push((self.sizes[i], Reverse(i)));
    }

    /// The next orders: (worker, tier) pairs, the largest ready tiers to the
    /// idle workers (none once a tier has failed). They are in flight from now on.
    pub(crate) fn assign(&mut self) -> Vec<(i32, usize)> {
        let mut orders = Vec::new();
        while !self.failed && !self.idle.is_empty() && !self.ready.is_empty() {
            let (Some(rank), Some((_, Reverse(i)))) = (self.idle.pop(), self.ready.pop()) else {
                break;
            };
            self.in_flight.insert(rank, i);
            orders.push((rank, i));
        }
        orders
    }

    /// Whether the run is over: no tier is in flight (call after [`Self::assign`]).
    pub(crate) fn is_over(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// The tiers in flight, by worker.
    pub(crate) fn in_flight(&self) -> impl Iterator<Item = (i32, usize)> + '_ {
        self.in_flight.iter().map(|(&r, &i)| (r, i))
    }

    /// A report from `rank`: it is idle again.
    fn report(&mut self, rank: i32) {
        self.in_flight.remove(&rank);
        self.idle.push(rank);
    }

    /// `rank` solved `tier`: finished, and the parents it was the last child of
    /// are ready.
    pub(crate) fn solved(&mut self, rank: i32, tier: usize) -> Verdict {
        let handed = self.in_flight.get(&rank).copied();
        self.report(rank);
        // Only the tier handed to this worker: another worker's tier, or one
        // never handed out, is not finished by this report.
        if handed != Some(tier) || tier >= self.finished.len() || self.finished[tier] {
            return Verdict::Unexpected;
        }
        self.finished[tier] = true;
        self.done += 1;
        for k in 0..self.parents[tier].len() {
            let p = self.parents[tier][k];
            self.waiting[p] -= 1;
            if self.waiting[p] == 0 && !self.finished[p] {
                self.make_ready(p);
            }
        }
        Verdict::Accepted
    }

    /// `rank` failed on `tier`: no tier is handed out any more.
    pub(crate) fn failed(&mut self, rank: i32, tier: usize) -> Verdict {
        let handed = self.in_flight.get(&rank).copied();
        self.report(rank);
        if handed != Some(tier) || tier >= self.finished.len() {
            return Verdict::Unexpected;
        }
        self.failed = true;
        Verdict::Accepted
    }

    /// Whether a tier has failed.
    #[cfg(test)]
    pub(crate) fn has_failed(&self) -> bool {
        self.failed
    }

    /// Tiers finished, kept ones included.
    #[cfg(test)]
    pub(crate) fn done(&self) -> usize {
        self.done
    }

    /// Tiers of the run.
    #[cfg(test)]
    pub(crate) fn total(&self) -> usize {
        self.finished.len()
    }

    /// Whether `tier` is finished.
    #[cfg(test)]
    pub(crate) fn is_finished(&self, tier: usize) -> bool {
        self.finished.get(tier).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `s` to the end, every worker solving at once what it was given, the
    /// orders of a round reported in reverse: the orders handed out, in rounds.
    fn run(s: &mut Schedule) -> Vec<Vec<(i32, usize)>> {
        let mut rounds = Vec::new();
        loop {
            let orders = s.assign();
            if s.is_over() {
                assert!(orders.is_empty());
                break;
            }
            for &(r, t) in orders.iter().rev() {
                assert_eq!(s.solved(r, t), Verdict::Accepted);
            }
            rounds.push(orders);
        }
        rounds
    }

    /// Three waves: 0, 1 (leaves); 2 (children 0, 1), 3 (child 1); 4 (children 2, 3).
    fn diamond() -> (Vec<u64>, Vec<Vec<usize>>) {
        (
            vec![10, 20, 30, 5, 7],
            vec![vec![], vec![], vec![0, 1], vec![1], vec![2, 3]],
        )
    }

    fn handed(rounds: &[Vec<(i32, usize)>]) -> Vec<usize> {
        rounds.iter().flatten().map(|&(_, t)| t).collect()
    }

    #[test]
    fn every_tier_once_after_its_children() {
        let (sizes, children) = diamond();
        for workers in 1..=7 {
            let kept = vec![false; 5];
            let mut s = Schedule::new(sizes.clone(), &children, &kept, 1..=workers).unwrap();
            let rounds = run(&mut s);
            let order = handed(&rounds);
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, vec![0, 1, 2, 3, 4], "{workers} workers");
            // A tier comes in a later round than each of its children.
            let round_of = |t: usize| rounds.iter().position(|r| r.iter().any(|o| o.1 == t));
            for (t, kids) in children.iter().enumerate() {
                for &c in kids {
                    assert!(round_of(c) < round_of(t), "tier {t} before child {c}");
                }
            }
            assert_eq!((s.done(), s.total()), (5, 5));
            assert!((0..5).all(|t| s.is_finished(t)));
            assert!(!s.has_failed());
        }
    }

    #[test]
    fn waves_in_order_largest_first() {
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[false; 5], [1]).unwrap();
        // One worker: the larger leaf first, then the larger ready tier each time.
        assert_eq!(handed(&run(&mut s)), vec![1, 0, 2, 3, 4]);
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[false; 5], [1, 2]).unwrap();
        assert_eq!(
            run(&mut s),
            vec![vec![(1, 1), (2, 0)], vec![(1, 2), (2, 3)], vec![(1, 4)]]
        );
    }

    #[test]
    fn ties_go_in_plan_order() {
        let mut s = Schedule::new(
            vec![4; 4],
            &[vec![], vec![], vec![], vec![]],
            &[false; 4],
            [7],
        )
        .unwrap();
        assert_eq!(handed(&run(&mut s)), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_parent_waits_for_its_last_child() {
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[false; 5], [1, 2, 3]).unwrap();
        assert_eq!(s.assign(), vec![(1, 1), (2, 0)]);
        assert_eq!(s.solved(1, 1), Verdict::Accepted);
        // 3 is ready (its one child is done), 2 still waits for 0.
        assert_eq!(s.assign(), vec![(1, 3)]);
        assert_eq!(s.solved(1, 3), Verdict::Accepted);
        assert!(s.assign().is_empty());
        assert_eq!(s.in_flight().collect::<Vec<_>>(), vec![(2, 0)]);
        assert_eq!(s.solved(2, 0), Verdict::Accepted);
        // The worker that reported last goes first.
        assert_eq!(s.assign(), vec![(2, 2)]);
        assert_eq!(s.solved(2, 2), Verdict::Accepted);
        assert_eq!(s.assign(), vec![(2, 4)]);
        assert_eq!(s.solved(2, 4), Verdict::Accepted);
        assert!(s.assign().is_empty() && s.is_over());
    }

    #[test]
    fn more_workers_than_tiers() {
        let mut s = Schedule::new(vec![1, 2], &[vec![], vec![]], &[false; 2], 1..=10).unwrap();
        let orders = s.assign();
        assert_eq!(orders, vec![(1, 1), (2, 0)]);
        assert_eq!(s.in_flight().count(), 2);
        assert_eq!(s.solved(2, 0), Verdict::Accepted);
        assert_eq!(s.solved(1, 1), Verdict::Accepted);
        assert!(s.assign().is_empty() && s.is_over());
        assert_eq!(s.done(), 2);
    }

    #[test]
    fn kept_tiers_are_not_handed_out() {
        let (sizes, children) = diamond();
        let kept = [true, true, false, true, false];
        let mut s = Schedule::new(sizes, &children, &kept, [1, 2]).unwrap();
        assert_eq!(s.done(), 3);
        assert_eq!(run(&mut s), vec![vec![(1, 2)], vec![(1, 4)]]);
        assert_eq!(s.done(), 5);
        // Everything kept: nothing to do.
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[true; 5], [1]).unwrap();
        assert!(s.assign().is_empty() && s.is_over());
        assert_eq!(s.done(), 5);
    }

    #[test]
    fn a_failure_stops_handing_out_but_waits_for_the_tiers_in_flight() {
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[false; 5], [1, 2]).unwrap();
        assert_eq!(s.assign(), vec![(1, 1), (2, 0)]);
        assert_eq!(s.failed(1, 1), Verdict::Accepted);
        assert!(s.has_failed());
        assert!(s.assign().is_empty());
        assert!(!s.is_over(), "tier 0 is still being solved");
        assert_eq!(s.solved(2, 0), Verdict::Accepted);
        assert!(s.assign().is_empty() && s.is_over());
        assert_eq!(s.done(), 1);
        assert!(s.is_finished(0) && !s.is_finished(1));
    }

    #[test]
    fn unexpected_reports() {
        let (sizes, children) = diamond();
        let mut s =
            Schedule::new(sizes, &children, &[true, false, false, false, false], [1]).unwrap();
        assert_eq!(s.assign(), vec![(1, 1)]);
        // A kept tier reported solved, tiers outside the plan.
        assert_eq!(s.solved(1, 0), Verdict::Unexpected);
        assert_eq!(s.solved(1, 5), Verdict::Unexpected);
        assert_eq!(s.failed(1, 9), Verdict::Unexpected);
        assert!(!s.has_failed());
        // A child outside the plan, lengths that differ.
        assert!(Schedule::new(vec![1], &[vec![1]], &[false], [1]).is_none());
        assert!(Schedule::new(vec![1, 1], &[vec![]], &[false], [1]).is_none());
    }

    #[test]
    fn a_report_names_the_tier_its_worker_was_given() {
        let (sizes, children) = diamond();
        let mut s = Schedule::new(sizes, &children, &[false; 5], [1, 2]).unwrap();
        assert_eq!(s.assign(), vec![(1, 1), (2, 0)]);
        // Worker 1 holds tier 1 and reports tier 0 (worker 2's): refused, and
        // tier 0 stays unfinished.
        assert_eq!(s.solved(1, 0), Verdict::Unexpected);
        assert!(!s.is_finished(0));
        // A worker with nothing in flight cannot finish or fail a tier.
        assert_eq!(s.solved(1, 1), Verdict::Unexpected);
        assert_eq!(s.failed(1, 1), Verdict::Unexpected);
        assert!(!s.is_finished(1) && !s.has_failed());
        // The right report is taken.
        assert_eq!(s.solved(2, 0), Verdict::Accepted);
        assert!(s.is_finished(0));
    }

    #[test]
    fn a_cycle_is_never_ready() {
        // 1 and 2 are each other's child: only 0 is solved, the run ends short.
        let children = [vec![], vec![2], vec![1]];
        let mut s = Schedule::new(vec![1, 1, 1], &children, &[false; 3], [1]).unwrap();
        assert_eq!(handed(&run(&mut s)), vec![0]);
        assert_eq!((s.done(), s.total()), (1, 3));
    }

    #[test]
    fn no_tiers() {
        let mut s = Schedule::new(vec![], &[], &[], [1, 2]).unwrap();
        assert!(s.assign().is_empty() && s.is_over());
        assert_eq!(s.total(), 0);
    }
}
