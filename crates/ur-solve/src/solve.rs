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

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
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

    /// The chance that the side to move wins a state, before it throws;
    /// `None` for a state the index does not hold.
    fn state_value(&self, st: State) -> Option<f64> {
        self.index().rank(st).map(|i| self.value_at(i))
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
            .map(|st| self.value_at(index.rank_valid(st)))
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
        let start = Position::start(self.index.variant(), dice_core::Side::Light);
        WinChances::win_chance(self, &start).unwrap_or(0.0)
    }
}

/// The chances of a rule set's rolls that can move a piece, as (roll,
/// probability), and the chance of a roll of 0, which never can.
fn roll_chances(variant: &Variant) -> (Vec<(u8, f64)>, f64) {
    let (moving, still): (Vec<_>, Vec<_>) = variant
        .chances()
        .iter()
        .map(|c| (c.roll, f64::from(c.weight) / f64::from(c.denominator)))
        .partition(|&(roll, _)| roll > 0);
    (moving, still.iter().map(|&(_, p)| p).sum())
}

struct Solver<'a> {
    index: &'a Index,
    values: &'a [AtomicU64],
    /// The rolls that can move a piece, with their chances: the per-roll
    /// words of the solver's records are for these rolls only.
    chances: Vec<(u8, f64)>,
    /// The chance of a roll that never moves (0), which passes the turn.
    still: f64,
}

/// Marks a successor code whose value is one minus the stored one (the
/// turn passes); the other 31 bits are the successor's index.
const FLIP: u32 = 1 << 31;
/// The code of a roll that allows no move (the turn passes to the
/// mirror); no successor index reaches 2^30.
const FORFEIT: u32 = 1 << 30;
/// How many entries ahead a policy sweep prefetches the values it will
/// read, and how many words ahead a Bellman sweep over the successor lists
/// does.
const PREFETCH_ENTRIES: usize = 32;
const PREFETCH_WORDS: usize = 384;

/// Most rolls that can move a piece (1..4).
const ROLLS_MAX: usize = 4;
/// Most words a pair takes in a successor list: a counts word and at most
/// seven moves a roll, for the state and its mirror.
const PAIR_WORDS_MAX: usize = 2 * (1 + 7 * ROLLS_MAX);

/// The successors listed by a chunk's first Bellman sweep of a pair: those
/// of its first `pairs` pairs, in the order of its entries (see
/// [`Solver::listed_parts`] for the layout), in at most `room` words.
struct Listed {
    words: Vec<u32>,
    pairs: usize,
    room: usize,
}
/// Calls `f(index, state)` for every state of some blocks of a layer, last
/// index first.
#[inline(always)]
fn for_each_state(ix: &Index, blocks: &[Block], a: u8, b: u8, mut f: impl FnMut(u64, State)) {
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
                f(i, st);
            }
        }
    }
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

    /// Asks the processor to bring a successor's value into the cache.
    #[inline(always)]
    fn prefetch(&self, code: u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.values.get((code & !FLIP) as usize) {
            // SAFETY: a prefetch is only a hint: it reads nothing into the
            // program and cannot fault; the pointer is to a live value.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    v.as_ptr().cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = code;
    }

    #[inline(always)]
    fn load_code(&self, code: u32) -> f64 {
        let v = self.load(u64::from(code & !FLIP));
        if code & FLIP != 0 { 1.0 - v } else { v }
    }

    /// T(V) at a state that is not over.
    #[inline(always)]
    fn bellman(&self, st: State) -> f64 {
        let ix = self.index;
        let (mut acc, mut lost) = (0.0f64, self.still);
        for &(roll, p) in &self.chances {
            let mut best = -1.0f64;
            ix.for_each_move(st, roll, |s| {
                let i = ix.rank_valid(s.next) as u32;
                best = best.max(self.load_code(if s.again { i } else { i | FLIP }));
            });
            if best < 0.0 {
                lost += p;
            } else {
                acc += p * best;
            }
        }
        if lost > 0.0 {
            acc += lost * self.load_code(ix.rank_valid(st.mirror()) as u32 | FLIP);
        }
        acc
    }

    /// The part of T(V) at a state that does not hang on its mirror: the
    /// chance-weighted best move values over the rolls that allow a move,
    /// and the chance of the rolls that allow none (whose value is one
    /// minus the mirror's). `codes` gets each roll's best successor, or
    /// [`FORFEIT`]. With a `list`, every successor is also appended to it
    /// (see [`Solver::listed_parts`] for the layout).
    #[inline(always)]
    fn parts(
        &self,
        st: State,
        codes: &mut [u32; ROLLS_MAX],
        mut list: Option<&mut Vec<u32>>,
    ) -> (f64, f64) {
        let ix = self.index;
        let (mut acc, mut lost) = (0.0f64, self.still);
        let head = list.as_ref().map(|list| list.len());
        if let Some(list) = list.as_mut() {
            list.push(0);
        }
        let mut counts = 0u32;
        for (k, &(roll, p)) in self.chances.iter().enumerate() {
            let mut best = -1.0f64;
            let mut code = FORFEIT;
            let n = ix.for_each_move(st, roll, |s| {
                let i = ix.rank_valid(s.next) as u32;
                let c = if s.again { i } else { i | FLIP };
                if let Some(list) = list.as_mut() {
                    list.push(c);
                }
                let v = self.load_code(c);
                if v > best {
                    best = v;
                    code = c;
                }
            });
            counts |= (n as u32) << (4 * k);
            if best < 0.0 {
                lost += p;
            } else {
                acc += p * best;
            }
            if let Some(slot) = codes.get_mut(k) {
                *slot = code;
            }
        }
        if let (Some(list), Some(head)) = (list, head)
            && let Some(slot) = list.get_mut(head)
        {
            *slot = counts;
        }
        (acc, lost)
    }

    /// [`Solver::parts`] from a state's successors as `parts` listed them,
    /// from `list[*at]` on: a word with each roll's number of moves (four
    /// bits a roll, roll `k` at bit `4k`), then the successors' codes, roll
    /// by roll. Moves `*at` past them and stores each roll's best successor
    /// (or [`FORFEIT`]) in `codes`. No move generation and no ranking: only
    /// the successors' values are loaded.
    #[inline(always)]
    fn listed_parts(&self, list: &[u32], at: &mut usize, codes: &[AtomicU32]) -> (f64, f64) {
        let (mut acc, mut lost) = (0.0f64, self.still);
        let counts = list.get(*at).copied().unwrap_or(0);
        *at += 1;
        for (k, (slot, &(_, p))) in codes.iter().zip(&self.chances).enumerate() {
            let n = (counts >> (4 * k) & 0xf) as usize;
            let moves = list.get(*at..*at + n).unwrap_or(&[]);
            *at += n;
            let mut best = -1.0f64;
            let mut code = FORFEIT;
            for &c in moves {
                let v = self.load_code(c);
                if v > best {
                    best = v;
                    code = c;
                }
            }
            if best < 0.0 {
                lost += p;
            } else {
                acc += p * best;
            }
            slot.store(code, Ordering::Relaxed);
        }
        (acc, lost)
    }

    /// Stores the exact solution of the two equations of a state and its
    /// mirror (`vs = as + qs (1 − vm)`, `vm = am + qm (1 − vs)`), or of a
    /// state that is its own mirror; returns the largest change.
    #[inline(always)]
    fn settle_pair(&self, s: u32, m: u32, (a_s, q_s): (f64, f64), (a_m, q_m): (f64, f64)) -> f64 {
        let old_s = self.load(u64::from(s));
        let old_m = self.load(u64::from(m));
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
        if let Some(slot) = self.values.get(s as usize) {
            slot.store(vs.to_bits(), Ordering::Relaxed);
        }
        if let Some(slot) = self.values.get(m as usize) {
            slot.store(vm.to_bits(), Ordering::Relaxed);
        }
        (vs - old_s).abs().max((vm - old_m).abs())
    }

    /// The first in-place Bellman sweep of a pair over some blocks of a
    /// layer (each state with its mirror), last state first: records each
    /// pair and its best successors in `entries` (which must have room for
    /// them), and lists the pairs' successors in `listed` while it has room
    /// for them; returns the largest change.
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `e` is `entries[at..at + stride]`, exactly `2 + 2k` long, so \
                  `e[0]`, `e[1]`, `e[2..2 + k]` and `e[2 + k..]` are in bounds"
    )]
    fn first_sweep(
        &self,
        blocks: &[Block],
        (a, b): (u8, u8),
        entries: &[AtomicU32],
        listed: &mut Listed,
    ) -> f64 {
        listed.words.clear();
        listed.pairs = 0;
        let k = self.chances.len();
        let stride = 2 + 2 * k;
        let mut change = 0.0f64;
        let mut cs = [0u32; ROLLS_MAX];
        let mut cm = [0u32; ROLLS_MAX];
        let mut at = 0;
        let mut full = false;
        for_each_state(self.index, blocks, a, b, |i, st| {
            let mirror = st.mirror();
            let m = self.index.rank_valid(mirror);
            if a == b && m < i {
                return;
            }
            full = full || listed.words.len() + PAIR_WORDS_MAX > listed.room;
            let (ps, pm) = if full {
                (
                    self.parts(st, &mut cs, None),
                    self.parts(mirror, &mut cm, None),
                )
            } else {
                listed.pairs += 1;
                (
                    self.parts(st, &mut cs, Some(&mut listed.words)),
                    self.parts(mirror, &mut cm, Some(&mut listed.words)),
                )
            };
            change = change.max(self.settle_pair(i as u32, m as u32, ps, pm));
            if let Some(e) = entries.get(at..at + stride) {
                e[0].store(i as u32, Ordering::Relaxed);
                e[1].store(m as u32, Ordering::Relaxed);
                for (slot, &c) in e[2..2 + k].iter().zip(&cs) {
                    slot.store(c, Ordering::Relaxed);
                }
                for (slot, &c) in e[2 + k..].iter().zip(&cm) {
                    slot.store(c, Ordering::Relaxed);
                }
            }
            at += stride;
        });
        change
    }

    /// The parts of a state's equation from its recorded successors.
    #[inline(always)]
    fn recorded_parts(&self, codes: &[AtomicU32]) -> (f64, f64) {
        let (mut acc, mut lost) = (0.0f64, self.still);
        for (slot, &(_, p)) in codes.iter().zip(&self.chances) {
            let c = slot.load(Ordering::Relaxed);
            if c == FORFEIT {
                lost += p;
            } else {
                acc += p * self.load_code(c);
            }
        }
        (acc, lost)
    }

    /// One in-place sweep of the fixed-policy equations over a run of
    /// entries; returns the largest change.
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `chunks_exact(2 + 2k)` makes every `e` exactly `2 + 2k` long, so \
                  `e[0]`, `e[1]`, `e[2..2 + k]` and `e[2 + k..]` are in bounds"
    )]
    fn policy_sweep(&self, entries: &[AtomicU32]) -> f64 {
        let k = self.chances.len();
        let stride = 2 + 2 * k;
        let mut change = 0.0f64;
        for (j, e) in entries.chunks_exact(stride).enumerate() {
            // The values a later entry will read, asked for now: the loads
            // are scattered over the table, and waiting for them one entry
            // at a time is most of the sweep's time.
            let ahead = (j + PREFETCH_ENTRIES) * stride;
            for c in entries.get(ahead + 2..ahead + stride).unwrap_or(&[]) {
                self.prefetch(c.load(Ordering::Relaxed));
            }
            let ps = self.recorded_parts(&e[2..2 + k]);
            let pm = self.recorded_parts(&e[2 + k..]);
            let s = e[0].load(Ordering::Relaxed);
            let m = e[1].load(Ordering::Relaxed);
            change = change.max(self.settle_pair(s, m, ps, pm));
        }
        change
    }

    /// A later in-place Bellman sweep over a run of entries: the listed
    /// pairs from their lists, the others by generating their moves again;
    /// records the best successors anew and returns the largest change.
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `chunks_exact(2 + 2k)` makes every `e` exactly `2 + 2k` long, so \
                  `e[0]`, `e[1]`, `e[2..2 + k]` and `e[2 + k..]` are in bounds"
    )]
    fn bellman_sweep(&self, entries: &[AtomicU32], listed: &Listed) -> f64 {
        let k = self.chances.len();
        let list = &listed.words[..];
        let mut change = 0.0f64;
        let (mut at, mut fetched) = (0, 0);
        let mut cs = [0u32; ROLLS_MAX];
        let mut cm = [0u32; ROLLS_MAX];
        for (j, e) in entries.chunks_exact(2 + 2 * k).enumerate() {
            let s = e[0].load(Ordering::Relaxed);
            let m = e[1].load(Ordering::Relaxed);
            let (ps, pm) = if j < listed.pairs {
                // As in `policy_sweep`: the successors some entries on
                // (the words there may be counts, whose "values" are
                // harmless to fetch).
                let upto = (at + PREFETCH_WORDS).min(list.len());
                for &c in list.get(fetched..upto).unwrap_or(&[]) {
                    self.prefetch(c);
                }
                fetched = fetched.max(upto);
                (
                    self.listed_parts(list, &mut at, &e[2..2 + k]),
                    self.listed_parts(list, &mut at, &e[2 + k..]),
                )
            } else {
                let Some(st) = self.index.unrank(u64::from(s)) else {
                    continue;
                };
                let parts = (
                    self.parts(st, &mut cs, None),
                    self.parts(st.mirror(), &mut cm, None),
                );
                for (slot, &c) in e[2..].iter().zip(cs.iter().take(k).chain(&cm)) {
                    slot.store(c, Ordering::Relaxed);
                }
                parts
            };
            change = change.max(self.settle_pair(s, m, ps, pm));
        }
        change
    }

    /// max |T(V) − V| over some blocks of a layer.
    fn residual(&self, blocks: &[Block], a: u8, b: u8) -> f64 {
        let mut worst = 0.0f64;
        for_each_state(self.index, blocks, a, b, |i, st| {
            let r = (self.bellman(st) - self.load(i)).abs();
            worst = worst.max(r);
        });
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
            out.extend(blocks.get(start..=k));
            start = k + 1;
        }
    }
    out.extend(blocks.get(start..));
    out.retain(|s| !s.is_empty());
    out
}

/// Runs `f` over the items on scoped threads (the first on this one) and
/// returns the largest result.
fn par_max<T: Send, F>(items: Vec<T>, f: F) -> f64
where
    F: Fn(T) -> f64 + Sync,
{
    let mut items = items.into_iter();
    let Some(first) = items.next() else {
        return 0.0;
    };
    let rest: Vec<T> = items.collect();
    if rest.is_empty() {
        return f(first);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = rest
            .into_iter()
            .map(|item| {
                let f = &f;
                scope.spawn(move || f(item))
            })
            .collect();
        let mut m = f(first);
        for h in handles {
            // A worker that panicked contributes an infinite change, so the
            // layer never reads as converged.
            m = m.max(h.join().unwrap_or(f64::INFINITY));
        }
        m
    })
}

/// A barrier for a fixed number of threads that spins briefly, then
/// yields.
struct SpinBarrier {
    threads: usize,
    count: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> SpinBarrier {
        SpinBarrier {
            threads,
            count: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.count.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::AcqRel);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Below this many states a layer pair is swept on one thread.
const PARALLEL_MIN: u64 = 1 << 16;

/// Policy sweeps at most between two Bellman sweeps.
const POLICY_SWEEPS: u32 = 400;

/// Sweeps the fixed-policy equations of `entries` (split between
/// `threads`) until a sweep changes nothing by `target` or `budget` sweeps
/// are made; returns the sweeps made and the last largest change.
fn policy_sweeps(
    solver: &Solver<'_>,
    entries: &[AtomicU32],
    threads: usize,
    target: f64,
    budget: u32,
) -> (u32, f64) {
    let stride = 2 + 2 * solver.chances.len();
    let n = entries.len() / stride;
    let part = |t: usize| -> &[AtomicU32] {
        let lo = n * t / threads * stride;
        let hi = n * (t + 1) / threads * stride;
        entries.get(lo..hi).unwrap_or(&[])
    };
    if threads <= 1 {
        let mut last = 0.0;
        for s in 1..=budget {
            last = solver.policy_sweep(entries);
            if last < target {
                return (s, last);
            }
        }
        return (budget, last);
    }
    let barrier = SpinBarrier::new(threads);
    // Sweep s gathers into slot s % 3; the slot of sweep s - 1 is cleared
    // after the barrier of sweep s, when every thread has read it and
    // before anyone can reach sweep s + 2.
    let slots = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    #[allow(
        clippy::indexing_slicing,
        reason = "every index into `slots` is taken `% 3`, and there are three slots"
    )]
    let run = |t: usize| -> (u32, f64) {
        let mut made = 0;
        let mut last = 0.0;
        for s in 0..budget {
            let change = solver.policy_sweep(part(t));
            // Changes are non-negative, so their bit patterns order as
            // the numbers do.
            slots[s as usize % 3].fetch_max(change.to_bits(), Ordering::AcqRel);
            barrier.wait();
            last = f64::from_bits(slots[s as usize % 3].load(Ordering::Acquire));
            if t == 0 {
                slots[(s as usize + 2) % 3].store(0, Ordering::Release);
            }
            made = s + 1;
            if last < target {
                break;
            }
        }
        (made, last)
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|t| {
                let run = &run;
                scope.spawn(move || run(t))
            })
            .collect();
        let mine = run(0);
        for h in handles {
            let _ = h.join();
        }
        mine
    })
}

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
    let (chances, still) = roll_chances(variant);
    let solver = Solver {
        index: &index,
        values: &values,
        chances,
        still,
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
        policy_sweeps: 0,
        policy_updates: 0,
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
    let stride = 2 + 2 * solver.chances.len();
    // The best successors of every state (and its mirror) of the pair
    // being solved: 2 + 2 × rolls words a pair.
    let largest = pairs
        .iter()
        .map(|&(a, b)| index.layer_range(a, b).end - index.layer_range(a, b).start)
        .max()
        .unwrap_or(0);
    let entries_len = usize::try_from(largest * stride as u64)
        .map_err(|_| SolveError::Options("the table does not fit in memory".to_owned()))?;
    let entries: Vec<AtomicU32> = (0..entries_len).map(|_| AtomicU32::new(0)).collect();
    // The successors of the pair being solved, one list a chunk.
    let mut lists: Vec<Listed> = Vec::new();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let halves: Vec<(u8, u8)> = if a == b {
            vec![(a, b)]
        } else {
            vec![(a, b), (b, a)]
        };
        let size: u64 = halves
            .iter()
            .map(|&(x, y)| index.layer_range(x, y).end - index.layer_range(x, y).start)
            .sum();
        let t = if size < PARALLEL_MIN { 1 } else { threads };
        // Only the half (a, b) is walked: each state is settled together
        // with its mirror in (b, a) (or in (a, a), once per pair).
        let blocks: Vec<(u8, u8, Vec<Block>)> = vec![(a, b, index.blocks(a, b))];
        let chunks: Vec<(u8, u8, &[Block])> = blocks
            .iter()
            .flat_map(|(x, y, bl)| split(bl, t).into_iter().map(move |c| (*x, *y, c)))
            .collect();
        // Each chunk records the pairs it settles in its own run of
        // entries.
        let mut runs = Vec::with_capacity(chunks.len());
        let room = usize::try_from(options.list_bytes / 4 / chunks.len().max(1) as u64)
            .unwrap_or(usize::MAX);
        lists.resize_with(chunks.len(), || Listed {
            words: Vec::new(),
            pairs: 0,
            room: 0,
        });
        for listed in &mut lists {
            listed.room = room;
        }
        let mut at = 0usize;
        for &(x, y, c) in &chunks {
            let mut n = 0usize;
            for_each_state(&index, c, x, y, |i, st| {
                if x != y || index.rank_valid(st.mirror()) >= i {
                    n += 1;
                }
            });
            runs.push(at..at + n * stride);
            at += n * stride;
        }
        let entries = entries.get(..at).unwrap_or(&[]);
        let sweeping = |sweep, change| Progress {
            stage: Stage::Sweeping,
            layer: (a, b),
            pairs_done: k,
            pairs: pairs.len(),
            sweep,
            change,
            states_done: done,
            states: index.len(),
            elapsed: started.elapsed().as_secs_f64(),
        };
        let mut sweep = 0u32;
        loop {
            // A Bellman sweep, which also fixes each state's best moves:
            // the first generates the moves and lists every successor, the
            // others read the lists.
            sweep += 1;
            let work: Vec<_> = chunks
                .iter()
                .zip(runs.iter().cloned())
                .zip(lists.iter_mut())
                .collect();
            let first = sweep == 1;
            let change = par_max(work, |((&(x, y, c), run), listed)| {
                let entries = entries.get(run).unwrap_or(&[]);
                if first {
                    solver.first_sweep(c, (x, y), entries, listed)
                } else {
                    solver.bellman_sweep(entries, listed)
                }
            });
            stats.sweeps += halves.len() as u64;
            stats.updates += size;
            progress(&sweeping(sweep, change));
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
            // Sweeps of the equations of those moves, the threads sharing
            // the entries, until they settle well below the last change.
            let target = (options.tolerance / 16.0).max(change * options.policy_depth);
            let budget = options.max_sweeps.saturating_sub(sweep).min(POLICY_SWEEPS);
            let done_sweeps = policy_sweeps(&solver, entries, t, target, budget);
            stats.policy_updates += u64::from(done_sweeps.0) * size;
            sweep += done_sweeps.0;
            stats.policy_sweeps += u64::from(done_sweeps.0);
            progress(&sweeping(sweep, done_sweeps.1));
        }
        stats.max_pair_sweeps = stats.max_pair_sweeps.max(sweep);
        done += size;
    }
    stats.sweep_seconds = started.elapsed().as_secs_f64();
    // The residual pass, layer by layer.
    let mut worst = 0.0f64;
    let mut checked = terminal;
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let halves: Vec<(u8, u8)> = if a == b {
            vec![(a, b)]
        } else {
            vec![(a, b), (b, a)]
        };
        for (x, y) in halves {
            let blocks = index.blocks(x, y);
            let chunks = split(&blocks, threads);
            worst = worst.max(par_max(chunks, |part| solver.residual(part, x, y)));
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
