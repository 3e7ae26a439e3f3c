//! The sweeps: Bellman sweeps, which choose each state's best move for
//! every roll, policy sweeps, which follow the chosen moves, and the
//! residual pass.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use super::SolveOptions;
use super::SolveStats;
use super::parallel::{par_max, sweep_together};
use super::plan::{LayerPair, Shares};
use super::records::{Entries, ListReader, MoveCounts, PairRecords, SuccessorList};
use super::transitions::{Code, ROLLS_MAX, Transitions};
use super::values::Values;
use crate::error::SolveError;
use crate::index::{Block, Index, State};

/// How many entries ahead a policy sweep prefetches the values it will
/// read.
const PREFETCH_ENTRIES: usize = 32;
/// How many words of a successor list ahead a Bellman sweep prefetches the
/// values it will read.
const PREFETCH_WORDS: usize = 384;
/// Policy sweeps at most between two Bellman sweeps.
const POLICY_SWEEPS: u32 = 400;

/// A state's equation once each roll's move is chosen:
/// `v = moves + passes × (1 − v')`, where `v'` is the value of the same
/// position with the other side to move.
#[derive(Clone, Copy)]
struct Equation {
    /// The chance-weighted values of the chosen moves of the rolls that
    /// allow one.
    moves: f64,
    /// The chance of the throws that allow no move, which pass the turn.
    passes: f64,
}

impl Equation {
    /// No moves yet: only the throws that never move pass the turn.
    #[inline(always)]
    const fn new(rules: &Transitions<'_>) -> Equation {
        Equation {
            moves: 0.0,
            passes: rules.never_moves(),
        }
    }

    /// Adds a roll of chance `p` whose best move is worth `best`, or that
    /// allows no move when `best` is below 0.
    #[inline(always)]
    fn add(&mut self, p: f64, best: f64) {
        if best < 0.0 {
            self.passes += p;
        } else {
            self.moves += p * best;
        }
    }
}

/// The sweeps over the values of one rule set.
pub(super) struct Solver<'a> {
    rules: Transitions<'a>,
    index: &'a Index,
    values: Values<'a>,
}

impl<'a> Solver<'a> {
    /// Sweeps over `values` by `rules`.
    pub(super) const fn new(rules: Transitions<'a>, values: Values<'a>) -> Solver<'a> {
        Solver {
            index: rules.index(),
            rules,
            values,
        }
    }

    /// The rules swept by.
    pub(super) const fn rules(&self) -> &Transitions<'a> {
        &self.rules
    }

    /// Solves a layer pair: Bellman sweeps, each followed by policy sweeps,
    /// until a Bellman sweep changes no value by the tolerance, then
    /// checks the pair's residual max |T(V) − V| from its lists. Adds its
    /// sweeps and the check's time to `stats` and calls `report(sweeps so
    /// far, change)` after every Bellman sweep and every run of policy
    /// sweeps; returns how many sweeps the pair took and its residual.
    ///
    /// # Errors
    ///
    /// [`SolveError::NotConverged`] when the pair does not settle within
    /// `options.max_sweeps`.
    pub(super) fn solve_pair(
        &self,
        pair: LayerPair,
        records: &mut PairRecords,
        options: &SolveOptions,
        stats: &mut SolveStats,
        mut report: impl FnMut(u32, f64),
    ) -> Result<(u32, f64), SolveError> {
        let states = pair.states(self.index);
        let (a, b) = pair.first();
        let blocks = self.index.blocks(a, b);
        let shares = Shares::new(self.index, pair, &blocks, options.threads.max(1));
        let (entries, lists) =
            records.for_pair(shares.entries, shares.runs.len(), options.list_bytes);
        let mut sweep = 0u32;
        loop {
            // A Bellman sweep, which also chooses each state's best moves:
            // the first generates the moves and lists every successor, the
            // others read the lists.
            sweep += 1;
            let first = sweep == 1;
            let work: Vec<_> = shares.runs.iter().zip(lists.iter_mut()).collect();
            let change = par_max(work, |(&(blocks, ref run), list)| {
                let entries = entries.range(run.clone());
                if first {
                    self.first_sweep(blocks, pair, entries, list)
                } else {
                    self.bellman_sweep(entries, list)
                }
            });
            stats.sweeps += pair.layers().count() as u64;
            stats.updates += states;
            report(sweep, change);
            if change < options.tolerance {
                let checking = Instant::now();
                let work: Vec<_> = shares.runs.iter().zip(lists.iter()).collect();
                let residual = par_max(work, |((_, run), list)| {
                    self.residual_sweep(entries.range(run.clone()), list)
                });
                stats.residual_seconds += checking.elapsed().as_secs_f64();
                return Ok((sweep, residual));
            }
            if sweep >= options.max_sweeps {
                return Err(SolveError::NotConverged {
                    my_home: a,
                    their_home: b,
                    sweeps: sweep,
                    change,
                });
            }
            // Sweeps of the equations of the chosen moves, the threads
            // sharing the entries, until they settle well below the last
            // change.
            let target = (options.tolerance / 16.0).max(change * options.policy_depth);
            let budget = options.max_sweeps.saturating_sub(sweep).min(POLICY_SWEEPS);
            let (made, last) = sweep_together(entries, shares.threads, target, budget, |run| {
                self.policy_sweep(run)
            });
            stats.policy_updates += u64::from(made) * states;
            sweep += made;
            stats.policy_sweeps += u64::from(made);
            report(sweep, last);
        }
    }

    /// A state's equation with the best move of every roll, by generating
    /// the moves; `choices` gets each roll's best successor, or
    /// [`Code::NO_MOVE`]. With a `list`, every successor is also listed.
    #[inline(always)]
    fn equation(
        &self,
        state: State,
        choices: &mut [Code; ROLLS_MAX],
        mut list: Option<&mut SuccessorList>,
    ) -> Equation {
        let mut equation = Equation::new(&self.rules);
        let head = list.as_mut().map(|list| list.begin_state());
        let mut counts = MoveCounts::default();
        for ((k, &(roll, p)), choice) in self.rules.rolls().iter().enumerate().zip(choices) {
            let mut best = -1.0f64;
            *choice = Code::NO_MOVE;
            let moves = self.rules.for_each_successor(state, roll, |code| {
                if let Some(list) = list.as_mut() {
                    list.push(code);
                }
                let v = self.values.of(code);
                if v > best {
                    best = v;
                    *choice = code;
                }
            });
            counts = counts.with(k, moves);
            equation.add(p, best);
        }
        if let (Some(list), Some(head)) = (list, head) {
            list.end_state(head, counts);
        }
        equation
    }

    /// [`Solver::equation`] from a state's successors as a list holds them:
    /// no move generation and no ranking, only the successors' values are
    /// loaded. Stores each roll's best successor (or [`Code::NO_MOVE`]) in
    /// `choices`.
    #[inline(always)]
    fn listed_equation(&self, list: &mut ListReader<'_>, choices: &[AtomicU32]) -> Equation {
        let mut equation = Equation::new(&self.rules);
        let counts = list.counts();
        for (k, (slot, &(_, p))) in choices.iter().zip(self.rules.rolls()).enumerate() {
            let mut best = -1.0f64;
            let mut choice = Code::NO_MOVE;
            for &bits in list.successors(counts.of(k)) {
                let code = Code::from_bits(bits);
                let v = self.values.of(code);
                if v > best {
                    best = v;
                    choice = code;
                }
            }
            equation.add(p, best);
            slot.store(choice.bits(), Ordering::Relaxed);
        }
        equation
    }

    /// A state's equation with the moves recorded in `choices`.
    #[inline(always)]
    fn recorded_equation(&self, choices: &[AtomicU32]) -> Equation {
        let mut equation = Equation::new(&self.rules);
        for (slot, &(_, p)) in choices.iter().zip(self.rules.rolls()) {
            let code = Code::from_bits(slot.load(Ordering::Relaxed));
            if code == Code::NO_MOVE {
                equation.passes += p;
            } else {
                equation.moves += p * self.values.of(code);
            }
        }
        equation
    }

    /// Stores the exact solution of the equations of a state `s` and its
    /// mirror `m` (`vs = as + qs (1 − vm)`, `vm = am + qm (1 − vs)`, with
    /// `a` an equation's `moves` and `q` its `passes`), or of a state that
    /// is its own mirror; returns the largest change.
    #[inline(always)]
    fn settle(&self, (s, m): (usize, usize), state: Equation, mirror: Equation) -> f64 {
        let Equation {
            moves: a_s,
            passes: q_s,
        } = state;
        let Equation {
            moves: a_m,
            passes: q_m,
        } = mirror;
        let old_s = self.values.get(s);
        let old_m = self.values.get(m);
        let (vs, vm) = if s == m {
            let v = (a_s + q_s) / (1.0 + q_s);
            (v, v)
        } else {
            let det = 1.0 - q_s * q_m;
            let vs = if det > 1e-12 {
                (a_s + q_s * (1.0 - a_m - q_m)) / det
            } else {
                a_s + q_s * (1.0 - old_m)
            };
            (vs, a_m + q_m * (1.0 - vs))
        };
        self.values.set(s, vs);
        self.values.set(m, vm);
        (vs - old_s).abs().max((vm - old_m).abs())
    }

    /// The first Bellman sweep of a pair over some blocks of its first
    /// layer, last state first, each state with its mirror: records each
    /// mirror pair and its best moves in `entries` (which must have room
    /// for them), and lists the pairs' successors in `list` while it has
    /// room; returns the largest change.
    fn first_sweep(
        &self,
        blocks: &[Block],
        pair: LayerPair,
        entries: Entries<'_>,
        list: &mut SuccessorList,
    ) -> f64 {
        list.clear();
        let mut change = 0.0f64;
        let mut state_choices = [Code::NO_MOVE; ROLLS_MAX];
        let mut mirror_choices = [Code::NO_MOVE; ROLLS_MAX];
        let mut slots = entries.iter();
        self.index
            .for_each_state(blocks, pair.first(), |at, state| {
                let mirror = state.mirror();
                let mirror_at = self.index.rank_valid(mirror);
                if pair.my_home == pair.their_home && mirror_at < at {
                    // Settled with its mirror, which comes later in the walk.
                    return;
                }
                let (state_equation, mirror_equation) = if list.has_room() {
                    list.pair_listed();
                    (
                        self.equation(state, &mut state_choices, Some(&mut *list)),
                        self.equation(mirror, &mut mirror_choices, Some(&mut *list)),
                    )
                } else {
                    (
                        self.equation(state, &mut state_choices, None),
                        self.equation(mirror, &mut mirror_choices, None),
                    )
                };
                let indices = (at as usize, mirror_at as usize);
                change = change.max(self.settle(indices, state_equation, mirror_equation));
                if let Some(entry) = slots.next() {
                    entry.record((at, mirror_at), [&state_choices, &mirror_choices]);
                }
            });
        change
    }

    /// A later Bellman sweep over a run of entries: the listed pairs from
    /// their list, the others by generating their moves again; records the
    /// best moves anew and returns the largest change.
    fn bellman_sweep(&self, entries: Entries<'_>, list: &SuccessorList) -> f64 {
        let mut change = 0.0f64;
        self.for_each_equation(entries, list, |indices, state, mirror| {
            change = change.max(self.settle(indices, state, mirror));
        });
        change
    }

    /// max |T(V) − V| over a run of a solved pair's entries, from the
    /// pair's lists as a Bellman sweep reads them (the same equations, so
    /// the same figures, as generating the moves again), changing no
    /// value: later pairs never change a solved pair's values or those it
    /// reads, so this is the pair's share of the residual of the table.
    fn residual_sweep(&self, entries: Entries<'_>, list: &SuccessorList) -> f64 {
        let mut worst = 0.0f64;
        self.for_each_equation(entries, list, |(s, m), state, mirror| {
            let (vs, vm) = (self.values.get(s), self.values.get(m));
            let ts = state.moves + state.passes * (1.0 - vm);
            let tm = mirror.moves + mirror.passes * (1.0 - vs);
            worst = worst.max((ts - vs).abs()).max((tm - vm).abs());
        });
        worst
    }

    /// Calls `visit(indices, state's equation, mirror's equation)` for
    /// every entry of a run with the best move of every roll: the listed
    /// pairs from their list, the others by generating their moves again;
    /// records the best moves anew.
    #[inline(always)]
    fn for_each_equation(
        &self,
        entries: Entries<'_>,
        list: &SuccessorList,
        mut visit: impl FnMut((usize, usize), Equation, Equation),
    ) {
        let mut reader = list.reader();
        let mut state_choices = [Code::NO_MOVE; ROLLS_MAX];
        let mut mirror_choices = [Code::NO_MOVE; ROLLS_MAX];
        for (j, entry) in entries.iter().enumerate() {
            let indices = entry.indices();
            let (state_equation, mirror_equation) = if j < list.pairs() {
                // As in `policy_sweep`: ask for the values of the
                // successors some way ahead.
                for &bits in reader.ahead(PREFETCH_WORDS) {
                    self.values.prefetch(Code::from_bits(bits));
                }
                (
                    self.listed_equation(&mut reader, entry.state_choices()),
                    self.listed_equation(&mut reader, entry.mirror_choices()),
                )
            } else {
                let Some(state) = self.index.unrank(indices.0 as u64) else {
                    continue;
                };
                let equations = (
                    self.equation(state, &mut state_choices, None),
                    self.equation(state.mirror(), &mut mirror_choices, None),
                );
                entry.choose([&state_choices, &mirror_choices]);
                equations
            };
            visit(indices, state_equation, mirror_equation);
        }
    }

    /// One sweep of the equations of the recorded moves over a run of
    /// entries; returns the largest change.
    fn policy_sweep(&self, entries: Entries<'_>) -> f64 {
        let mut change = 0.0f64;
        let mut ahead = entries.iter().skip(PREFETCH_ENTRIES);
        for entry in entries.iter() {
            // The values a later entry will read, asked for now: the loads
            // are scattered over the table, and waiting for them one entry
            // at a time is most of the sweep's time.
            if let Some(later) = ahead.next() {
                for code in later.choices() {
                    self.values.prefetch(code);
                }
            }
            let state_equation = self.recorded_equation(entry.state_choices());
            let mirror_equation = self.recorded_equation(entry.mirror_choices());
            change = change.max(self.settle(entry.indices(), state_equation, mirror_equation));
        }
        change
    }
}
