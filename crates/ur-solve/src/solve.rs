//! Value iteration on the Bellman equation, layer by layer.
//!
//! The value of a state is the chance that the side to move wins, before it
//! throws: the sum over rolls of the roll's chance times the best value of
//! the moves it allows (the state's value when the mover moves again, one
//! minus the next state's value when the turn passes), and one minus the
//! value of the same position with the other side to move when the roll
//! allows no move.
//!
//! Homes never empty, so the layers (my home, their home) are solved from
//! the highest home sum down. A move home goes up a layer, a passed turn
//! goes from (a, b) to (b, a), so the two mirrored layers are swept together
//! until neither changes by more than the tolerance. Sweeps are in place
//! (Gauss–Seidel); the states of a layer are split between threads, which
//! read each other's latest values (relaxed atomics, a chaotic relaxation of
//! a monotone sup-norm contraction, which converges like the sequential
//! sweep). Once a pair has settled, a read-only pass over it from its
//! successor lists measures its residual max |T(V) − V| (later pairs never
//! change its values or those it reads, so the largest of these is the
//! residual of the whole table), which is the honest check of the result.
//!
//! [`solve`] reads as those steps, one module each: `plan` puts the layer
//! pairs in order and shares a pair's states between threads; `sweep`
//! solves a pair (Bellman sweeps, each followed by policy sweeps of the
//! moves it chose) and measures its residual; `transitions` is
//! everything the rule set decides (the rolls and their chances, the
//! successors of a state, who has won), so that other rules change it and
//! not the sweeps; `records` holds what a pair's sweeps keep between
//! sweeps (an entry for each state and its mirror, lists of successors);
//! `values` the shared values and `parallel` the threads.

mod parallel;
mod plan;
mod records;
mod sweep;
mod transitions;
mod values;

use std::time::Instant;

use royal_ur::{Position, Variant};

use self::plan::{Plan, start_values};
use self::records::PairRecords;
use self::sweep::Solver;
use self::transitions::Transitions;
use self::values::Values;
use crate::error::{LookupError, SolveError, check_size};
use crate::index::{Index, State};

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// Threads to sweep with (at least 1). Default: the machine's cores.
    pub threads: usize,
    /// A layer is done when no value changed by this much in a sweep.
    /// Default 1e-9.
    pub tolerance: f64,
    /// Sweeps a layer may take before [`SolveError::NotConverged`].
    /// Default 10,000.
    pub max_sweeps: u32,
    /// Between Bellman sweeps, the equations of the best moves found are
    /// swept until their change falls below this fraction of the last
    /// Bellman sweep's change (or below the tolerance / 16). Default 0.1.
    pub policy_depth: f64,
    /// Memory, in bytes, for listing the successors of the layer pair
    /// being solved. The first Bellman sweep of a pair lists the successors
    /// of its states (about 60 bytes a state) until this is used up; later
    /// Bellman sweeps read the listed ones instead of generating and
    /// ranking their moves again, which makes them several times quicker.
    /// The rest are generated on every sweep. Default 4 GiB, which lists
    /// every state of finkel and about half of the largest masters pair.
    pub list_bytes: u64,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            tolerance: 1e-9,
            max_sweeps: 10_000,
            policy_depth: 0.1,
            list_bytes: 4 << 30,
        }
    }
}

/// What the solver is doing, for a progress bar. Sent after every sweep,
/// after each pair's residual check and at the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// What is running.
    pub stage: Stage,
    /// The layer being swept: (my home, their home) of its lower-numbered
    /// half (the pair (a, b) and (b, a) is swept together).
    pub layer: (u8, u8),
    /// Layer pairs finished, and how many there are.
    pub pairs_done: usize,
    /// Layer pairs in all.
    pub pairs: usize,
    /// Sweeps of the current pair so far.
    pub sweep: u32,
    /// The largest change in the last sweep (or the residual so far).
    pub change: f64,
    /// States in finished layers.
    pub states_done: u64,
    /// States in all (one side to move).
    pub states: u64,
    /// Seconds since the solve started.
    pub elapsed: f64,
}

/// The stage of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Sweeping layers.
    Sweeping,
    /// A layer pair's residual checked: the pair is finished.
    Residual,
    /// Done.
    Done,
}

/// Figures of a finished solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveStats {
    /// Bellman sweeps over layers in all (a sweep of a pair counts each
    /// half).
    pub sweeps: u64,
    /// Sweeps of the fixed-policy equations of a layer pair, in all.
    pub policy_sweeps: u64,
    /// State updates made by those sweeps.
    pub policy_updates: u64,
    /// State updates made by the Bellman sweeps.
    pub updates: u64,
    /// The largest sweep count a layer pair needed.
    pub max_pair_sweeps: u32,
    /// max |T(V) − V| over every state, measured after the sweeps.
    pub residual: f64,
    /// Seconds sweeping (and all else but the residual checks).
    pub sweep_seconds: f64,
    /// Seconds of the pairs' residual checks.
    pub residual_seconds: f64,
}

impl SolveStats {
    /// Nothing done yet.
    const ZERO: SolveStats = SolveStats {
        sweeps: 0,
        policy_sweeps: 0,
        policy_updates: 0,
        updates: 0,
        max_pair_sweeps: 0,
        residual: 0.0,
        sweep_seconds: 0.0,
        residual_seconds: 0.0,
    };
}

/// A solved rule set held in memory: the chance that the side to move wins,
/// for every state of the index, in f64.
#[derive(Clone, Debug)]
pub struct Solution {
    index: Index,
    values: Vec<f64>,
    stats: SolveStats,
}

/// Reading win chances by index; implemented by [`Solution`] and
/// [`Table`](crate::Table).
pub trait WinChances {
    /// The index the values follow.
    fn index(&self) -> &Index;

    /// The value at an index (0.0 past the end).
    fn value_at(&self, index: u64) -> f64;

    /// The move to play for `roll` in the state at `index`, as its place
    /// among the roll's legal moves in the rules' order, where the stored
    /// values alone would choose another (a 2-byte table's choices; see
    /// [`ValueType::P16`](crate::ValueType::P16)); `None` elsewhere, and
    /// always for f64 values.
    fn chosen_move(&self, index: u64, roll: u8) -> Option<usize> {
        let _ = (index, roll);
        None
    }

    /// The chance that the side to move wins a state, before it throws;
    /// `None` for a state the index does not hold.
    fn state_value(&self, state: State) -> Option<f64> {
        self.index().rank(state).map(|i| self.value_at(i))
    }

    /// The chance that the side to move in `position` wins, before it
    /// throws (1.0 or 0.0 once the game is won).
    ///
    /// # Errors
    ///
    /// [`LookupError::Inconsistent`] when the position does not fit the
    /// rule set.
    fn win_chance(&self, position: &Position) -> Result<f64, LookupError> {
        let index = self.index();
        index
            .state(position)
            .map(|state| self.value_at(index.rank_valid(state)))
    }

    /// The rule set.
    fn variant(&self) -> &Variant {
        self.index().variant()
    }
}

impl WinChances for Solution {
    fn index(&self) -> &Index {
        &self.index
    }

    fn value_at(&self, index: u64) -> f64 {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.values.get(i))
            .copied()
            .unwrap_or(0.0)
    }
}

impl Solution {
    /// Values from elsewhere (a table read in, such as a RoyalUr lookup
    /// table), one for each state of `index` in its order, with no solve
    /// figures (all zero).
    #[must_use]
    pub const fn from_values(index: Index, values: Vec<f64>) -> Solution {
        Solution {
            index,
            values,
            stats: SolveStats::ZERO,
        }
    }

    /// The figures of the solve.
    #[must_use]
    pub const fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// Every value, in index order.
    #[must_use]
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The chance that the side to move wins (see
    /// [`WinChances::win_chance`]).
    ///
    /// # Errors
    ///
    /// As [`WinChances::win_chance`].
    pub fn win_chance(&self, position: &Position) -> Result<f64, LookupError> {
        WinChances::win_chance(self, position)
    }

    /// The chance that the first mover wins from the start position.
    #[must_use]
    pub fn first_mover(&self) -> f64 {
        let start = Position::start(self.index.variant(), dice_core::Side::Light);
        WinChances::win_chance(self, &start).unwrap_or(0.0)
    }
}

/// Whether [`solve`] takes `variant`, decided from its counts and its
/// path alone (nothing is built), so that a program can refuse a rule set
/// before it starts the work.
///
/// # Errors
///
/// As [`solve`]: [`SolveError::TooBig`] for a rule set with more states
/// than a successor code names, [`SolveError::Rules`] for a path that is
/// not the same for both sides.
///
/// # Examples
///
/// ```
/// use royal_ur::Variant;
///
/// assert!(ur_solve::check_rules(&Variant::FINKEL).is_ok());
/// let murray: Variant = "path=murray pieces=5".parse()?;
/// assert_eq!(ur_solve::check_rules(&murray).unwrap_err().code(), "too_big");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_rules(variant: &Variant) -> Result<(), SolveError> {
    check_size(variant, royal_ur::count_positions(variant) / 2)?;
    crate::index::check_mirrors(variant)
}

/// Solves a rule set: every state's chance that the side to move wins.
///
/// `progress` is called after every sweep and after each pair's residual
/// check.
///
/// # Errors
///
/// [`SolveError::Options`] for a tolerance that is not in (0, 0.1) or a
/// zero sweep limit; [`SolveError::TooBig`] for a rule set with more
/// states than the solver numbers (counted by
/// [`royal_ur::count_positions`]: more than a successor code holds, 2^30,
/// which murray with 5 or more pieces and skiriuk with 6 or 7 pass);
/// [`SolveError::Rules`] for a path
/// the index cannot read (see [`Index::new`]);
/// [`SolveError::NotConverged`] when a layer pair does not settle
/// within the sweep limit.
///
/// # Examples
///
/// ```
/// use royal_ur::{Position, Variant};
/// use ur_solve::{solve, SolveOptions};
///
/// let v = Variant::MASTERS.with_pieces(1)?;
/// let sol = solve(&v, &SolveOptions::default(), |_| {})?;
/// assert!(sol.stats().residual < 1e-8);
/// assert!(sol.first_mover() > 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    variant: &Variant,
    options: &SolveOptions,
    mut progress: impl FnMut(&Progress),
) -> Result<Solution, SolveError> {
    check(options)?;
    check_rules(variant)?;
    let started = Instant::now();
    let index = Index::new(variant)?;
    let rules = Transitions::new(&index)?;
    let plan = Plan::new(&index);
    let slots = start_values(&rules)?;
    let solver = Solver::new(rules, Values::new(&slots));
    let at = |stage, layer, pairs_done, states_done| Progress {
        stage,
        layer,
        pairs_done,
        pairs: plan.pairs.len(),
        sweep: 0,
        change: 0.0,
        states_done,
        states: index.len(),
        elapsed: started.elapsed().as_secs_f64(),
    };
    let mut stats = SolveStats::ZERO;
    // The layer pairs in turn, each solved to the tolerance.
    let mut records = PairRecords::new(plan.most_entries, solver.rules().rolls().len())?;
    let mut done = plan.finished_states;
    for (k, &pair) in plan.pairs.iter().enumerate() {
        let (sweeps, residual) =
            solver.solve_pair(pair, &mut records, options, &mut stats, |sweep, change| {
                progress(&Progress {
                    sweep,
                    change,
                    ..at(Stage::Sweeping, pair.first(), k, done)
                });
            })?;
        stats.max_pair_sweeps = stats.max_pair_sweeps.max(sweeps);
        stats.residual = stats.residual.max(residual);
        done += pair.states(&index);
        progress(&Progress {
            change: stats.residual,
            ..at(Stage::Residual, pair.first(), k + 1, done)
        });
    }
    drop(records);
    stats.sweep_seconds = started.elapsed().as_secs_f64() - stats.residual_seconds;
    let values = values::numbers(slots);
    progress(&Progress {
        change: stats.residual,
        ..at(Stage::Done, (0, 0), plan.pairs.len(), index.len())
    });
    Ok(Solution {
        index,
        values,
        stats,
    })
}

/// Refuses options that make no sense.
fn check(options: &SolveOptions) -> Result<(), SolveError> {
    if !(options.tolerance > 0.0 && options.tolerance < 0.1) {
        return Err(SolveError::Options(format!(
            "the tolerance must be above 0 and below 0.1, not {}",
            options.tolerance
        )));
    }
    if options.max_sweeps == 0 {
        return Err(SolveError::Options(
            "at least one sweep must be allowed".to_owned(),
        ));
    }
    Ok(())
}
