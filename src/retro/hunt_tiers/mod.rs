//! Hunt games as a [`Solvable`](crate::retro::Solvable): scopes and plans for
//! the driver, and the index's tests against the solvers. The tier index itself
//! (`HuntTier`, ranking, un-moves) lives beside the rules, in `crate::hunt::tiers`.

pub(crate) use crate::hunt::tiers::*;

mod solvable;

#[cfg(test)]
mod tests;
