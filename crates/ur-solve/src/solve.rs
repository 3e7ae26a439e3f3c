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
//! sweep). A final read-only pass over the whole table measures the residual
//! max |T(V) − V|, which is the honest check of the result.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use royal_ur::{Position, Variant};

use crate::error::{LookupError, SolveError};
use crate::index::{Block, Index, State};

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
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            tolerance: 1e-9,
            max_sweeps: 10_000,
        }
    }
}

/// What the solver is doing, for a progress bar. Sent after every sweep
/// and at the start and end of the residual pass.
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
    /// States in finished layers (or checked by the residual pass).
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
    /// The residual pass over the whole table.
    Residual,
    /// Done.
    Done,
}

/// Figures of a finished solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveStats {
    /// Sweeps over layers in all (a sweep of a pair counts each half).
    pub sweeps: u64,
    /// State updates made by the sweeps.
    pub updates: u64,
    /// The largest sweep count a layer pair needed.
    pub max_pair_sweeps: u32,
    /// max |T(V) − V| over every state, measured after the sweeps.
    pub residual: f64,
    /// Seconds sweeping, and seconds of the residual pass.
    pub sweep_seconds: f64,
    /// Seconds of the residual pass.
    pub residual_seconds: f64,
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

    /// The chance that the side to move wins a state, before it throws.
    fn state_value(&self, st: State) -> f64 {
        self.value_at(self.index().rank(st))
    }

    /// The chance that the side to move in `position` wins, before it
    /// throws (1.0 or 0.0 once the game is won).
    ///
    /// # Errors
    ///
    /// [`LookupError::Inconsistent`] when the position does not fit the
    /// rule set.
    fn win_chance(&self, position: &Position) -> Result<f64, LookupError> {
        self.index().state(position).map(|st| self.state_value(st))
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
        WinChances::win_chance(self, &Position::start(self.index.pieces())).unwrap_or(0.0)
    }
}

/// The chances of a rule set's rolls, as (roll, probability).
fn roll_chances(variant: &Variant) -> Vec<(u8, f64)> {
    variant
        .chances()
        .iter()
        .map(|c| (c.roll, f64::from(c.weight) / f64::from(c.denominator)))
        .collect()
}

struct Solver<'a> {
    index: &'a Index,
    values: &'a [AtomicU64],
    chances: Vec<(u8, f64)>,
}

impl Solver<'_> {
    #[inline(always)]
    fn load(&self, i: u64) -> f64 {
        // Indices come from the index's own rank of valid states.
        match self.values.get(i as usize) {
            Some(v) => f64::from_bits(v.load(Ordering::Relaxed)),
            None => 0.0,
        }
    }

    /// T(V) at a state that is not over.
    #[inline(always)]
    fn bellman(&self, st: State) -> f64 {
        let ix = self.index;
        let mut forfeit = -1.0f64;
        let mut acc = 0.0f64;
        for &(roll, p) in &self.chances {
            let mut best = -1.0f64;
            ix.for_each_move(st, roll, |s| {
                let v = self.load(ix.rank(s.next));
                let v = if s.again { v } else { 1.0 - v };
                if v > best {
                    best = v;
                }
            });
            if best < 0.0 {
                if forfeit < 0.0 {
                    forfeit = 1.0 - self.load(ix.rank(st.mirror()));
                }
                best = forfeit;
            }
            acc += p * best;
        }
        acc
    }

    /// One in-place sweep over some blocks of a layer, last state first;
    /// returns the largest change.
    fn sweep(&self, blocks: &[Block], a: u8, b: u8) -> f64 {
        let ix = self.index;
        let mut change = 0.0f64;
        for blk in blocks.iter().rev() {
            let mut i = blk.first + blk.len();
            for pm in (0..blk.my_subsets).rev() {
                let mine = blk.mine | ix.private_steps(pm);
                for pt in (0..blk.their_subsets).rev() {
                    i -= 1;
                    let st = State {
                        mine,
                        theirs: blk.theirs | ix.private_steps(pt),
                        my_home: a,
                        their_home: b,
                    };
                    let new = self.bellman(st);
                    if let Some(slot) = self.values.get(i as usize) {
                        let old = f64::from_bits(slot.swap(new.to_bits(), Ordering::Relaxed));
                        change = change.max((new - old).abs());
                    }
                }
            }
        }
        change
    }

    /// max |T(V) − V| over some blocks of a layer.
    fn residual(&self, blocks: &[Block], a: u8, b: u8) -> f64 {
        let ix = self.index;
        let mut worst = 0.0f64;
        for blk in blocks {
            let mut i = blk.first;
            for pm in 0..blk.my_subsets {
                let mine = blk.mine | ix.private_steps(pm);
                for pt in 0..blk.their_subsets {
                    let st = State {
                        mine,
                        theirs: blk.theirs | ix.private_steps(pt),
                        my_home: a,
                        their_home: b,
                    };
                    let r = (self.bellman(st) - self.load(i)).abs();
                    worst = worst.max(r);
                    i += 1;
                }
            }
        }
        worst
    }
}

/// Splits blocks into at most `n` runs of about equal state counts.
fn split(blocks: &[Block], n: usize) -> Vec<&[Block]> {
    let total: u64 = blocks.iter().map(Block::len).sum();
    let n = n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    let mut acc = 0u64;
    for (k, blk) in blocks.iter().enumerate() {
        acc += blk.len();
        let want = total * (out.len() as u64 + 1) / n as u64;
        if acc >= want && out.len() + 1 < n {
            out.push(&blocks[start..=k]);
            start = k + 1;
        }
    }
    out.push(&blocks[start..]);
    out.retain(|s| !s.is_empty());
    out
}

/// Runs `f` over the parts on scoped threads (the first on this one) and
/// returns the largest result.
fn par_max<F>(parts: &[&[Block]], f: F) -> f64
where
    F: Fn(&[Block]) -> f64 + Sync,
{
    match parts {
        [] => 0.0,
        [one] => f(one),
        [first, rest @ ..] => std::thread::scope(|scope| {
            let handles: Vec<_> = rest
                .iter()
                .map(|part| {
                    let f = &f;
                    scope.spawn(move || f(part))
                })
                .collect();
            let mut m = f(first);
            for h in handles {
                // A worker that panicked contributes an infinite change, so
                // the layer never reads as converged.
                m = m.max(h.join().unwrap_or(f64::INFINITY));
            }
            m
        }),
    }
}

/// Below this many states a layer is swept on one thread.
const PARALLEL_MIN: u64 = 1 << 16;

/// Solves a rule set: every state's chance that the side to move wins.
///
/// `progress` is called after every sweep and during the residual pass.
///
/// # Errors
///
/// [`SolveError::Options`] for a tolerance that is not in (0, 0.1) or a
/// zero sweep limit; [`SolveError::NotConverged`] when a layer pair does
/// not settle within the sweep limit.
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
    let started = Instant::now();
    let index = Index::new(variant);
    let p = index.pieces();
    let n = usize::try_from(index.len())
        .map_err(|_| SolveError::Options("the table does not fit in memory".to_owned()))?;
    let values: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0.5f64.to_bits())).collect();
    let solver = Solver {
        index: &index,
        values: &values,
        chances: roll_chances(variant),
    };
    // Finished games: the mover has won (all home) or lost.
    for a in 0..=p {
        for b in 0..=p {
            if a == p || b == p {
                let v = if a == p { 1.0f64 } else { 0.0 };
                for i in index.layer_range(a, b) {
                    if let Some(slot) = values.get(i as usize) {
                        slot.store(v.to_bits(), Ordering::Relaxed);
                    }
                }
            }
        }
    }
    let mut pairs = Vec::new();
    for sum in (0..=2 * (p - 1)).rev() {
        for a in 0..p {
            if let Some(b) = sum.checked_sub(a)
                && b < p
                && a <= b
            {
                pairs.push((a, b));
            }
        }
    }
    let mut stats = SolveStats {
        sweeps: 0,
        updates: 0,
        max_pair_sweeps: 0,
        residual: 0.0,
        sweep_seconds: 0.0,
        residual_seconds: 0.0,
    };
    let terminal: u64 = (0..=p)
        .flat_map(|a| (0..=p).map(move |b| (a, b)))
        .filter(|&(a, b)| a == p || b == p)
        .map(|(a, b)| index.layer_range(a, b).end - index.layer_range(a, b).start)
        .sum();
    let mut done = terminal;
    let threads = options.threads.max(1);
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let halves: Vec<(u8, u8)> = if a == b { vec![(a, b)] } else { vec![(a, b), (b, a)] };
        let parts: Vec<(u8, u8, Vec<Block>)> = halves
            .iter()
            .map(|&(x, y)| (x, y, index.blocks(x, y)))
            .collect();
        let size: u64 = halves
            .iter()
            .map(|&(x, y)| index.layer_range(x, y).end - index.layer_range(x, y).start)
            .sum();
        let mut sweep = 0u32;
        loop {
            sweep += 1;
            let mut change = 0.0f64;
            for (x, y, blocks) in &parts {
                let t = if size < PARALLEL_MIN { 1 } else { threads };
                let chunks = split(blocks, t);
                let c = par_max(&chunks, |part| solver.sweep(part, *x, *y));
                change = change.max(c);
                stats.sweeps += 1;
            }
            stats.updates += size;
            progress(&Progress {
                stage: Stage::Sweeping,
                layer: (a, b),
                pairs_done: k,
                pairs: pairs.len(),
                sweep,
                change,
                states_done: done,
                states: index.len(),
                elapsed: started.elapsed().as_secs_f64(),
            });
            if change < options.tolerance {
                break;
            }
            if sweep >= options.max_sweeps {
                return Err(SolveError::NotConverged {
                    my_home: a,
                    their_home: b,
                    sweeps: sweep,
                    change,
                });
            }
        }
        stats.max_pair_sweeps = stats.max_pair_sweeps.max(sweep);
        done += size;
    }
    stats.sweep_seconds = started.elapsed().as_secs_f64();
    // The residual pass, layer by layer.
    let mut worst = 0.0f64;
    let mut checked = terminal;
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let halves: Vec<(u8, u8)> = if a == b { vec![(a, b)] } else { vec![(a, b), (b, a)] };
        for (x, y) in halves {
            let blocks = index.blocks(x, y);
            let chunks = split(&blocks, threads);
            worst = worst.max(par_max(&chunks, |part| solver.residual(part, x, y)));
            checked += index.layer_range(x, y).end - index.layer_range(x, y).start;
        }
        progress(&Progress {
            stage: Stage::Residual,
            layer: (a, b),
            pairs_done: k + 1,
            pairs: pairs.len(),
            sweep: 0,
            change: worst,
            states_done: checked,
            states: index.len(),
            elapsed: started.elapsed().as_secs_f64(),
        });
    }
    stats.residual = worst;
    stats.residual_seconds = started.elapsed().as_secs_f64() - stats.sweep_seconds;
    let values: Vec<f64> = values
        .into_iter()
        .map(|v| f64::from_bits(v.into_inner()))
        .collect();
    progress(&Progress {
        stage: Stage::Done,
        layer: (0, 0),
        pairs_done: pairs.len(),
        pairs: pairs.len(),
        sweep: 0,
        change: worst,
        states_done: index.len(),
        states: index.len(),
        elapsed: started.elapsed().as_secs_f64(),
    });
    Ok(Solution {
        index,
        values,
        stats,
    })
}
