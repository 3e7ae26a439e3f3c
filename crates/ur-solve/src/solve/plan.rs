//! The order of a solve: the layer pairs from the highest home sum down,
//! the states of finished games, and how a pair's states are shared out
//! between threads.

use std::ops::Range;
use std::sync::atomic::AtomicU64;

use super::transitions::Transitions;
use super::values::{self, Values};
use crate::error::SolveError;
use crate::index::{Block, Index};

/// Below this many states a layer pair is swept on one thread.
const PARALLEL_MIN: u64 = 1 << 16;

/// The layers (a, b) and (b, a), a ≤ b, solved together: a passed turn
/// goes from one to the other. One layer when a = b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LayerPair {
    /// a, my pieces home in the first layer.
    pub(super) my_home: u8,
    /// b, their pieces home in the first layer.
    pub(super) their_home: u8,
}

impl LayerPair {
    /// The first layer, (a, b), as (my home, their home). Its states with
    /// their mirrors are every state of the pair.
    pub(super) const fn first(self) -> (u8, u8) {
        (self.my_home, self.their_home)
    }

    /// The layers of the pair, as (my home, their home).
    pub(super) fn layers(self) -> impl Iterator<Item = (u8, u8)> {
        let (a, b) = self.first();
        std::iter::once((a, b)).chain((a != b).then_some((b, a)))
    }

    /// How many states the pair holds.
    pub(super) fn states(self, index: &Index) -> u64 {
        self.layers().map(|(x, y)| index.layer_len(x, y)).sum()
    }
}

/// The layer pairs of a rule set in the order they are solved. Homes never
/// fall (a move home goes up a layer, a passed turn from (a, b) to (b, a),
/// a rosette stays), so each pair is a closed system once the pairs with
/// more pieces home are solved: the pairs go from the highest home sum
/// down. The layers where a side has every piece home hold finished games
/// and are not swept.
pub(super) struct Plan {
    /// The pairs in the order they are solved.
    pub(super) pairs: Vec<LayerPair>,
    /// States of finished games.
    pub(super) finished_states: u64,
    /// Most states in the first layer of a pair: the most entries a pair
    /// needs.
    pub(super) most_entries: u64,
}

impl Plan {
    /// The plan of an index's rule set.
    pub(super) fn new(index: &Index) -> Plan {
        let pieces = index.pieces();
        let mut pairs = Vec::new();
        for sum in (0..=2 * (pieces - 1)).rev() {
            for a in 0..pieces {
                if let Some(b) = sum.checked_sub(a)
                    && b < pieces
                    && a <= b
                {
                    pairs.push(LayerPair {
                        my_home: a,
                        their_home: b,
                    });
                }
            }
        }
        let finished_states = finished_layers(pieces)
            .map(|(a, b)| index.layer_len(a, b))
            .sum();
        let most_entries = pairs
            .iter()
            .map(|pair| {
                let (a, b) = pair.first();
                index.layer_len(a, b)
            })
            .max()
            .unwrap_or(0);
        Plan {
            pairs,
            finished_states,
            most_entries,
        }
    }
}

/// The values a solve starts from: the finished games' values, and 0.5 for
/// every other state.
///
/// # Errors
///
/// [`SolveError::Options`] when there are too many states to address.
pub(super) fn start_values(rules: &Transitions<'_>) -> Result<Vec<AtomicU64>, SolveError> {
    let index = rules.index();
    let states = usize::try_from(index.len())
        .map_err(|_| SolveError::Options("the table does not fit in memory".to_owned()))?;
    let slots = values::slots(states, 0.5);
    let values = Values::new(&slots);
    for (a, b) in finished_layers(index.pieces()) {
        if let Some(value) = rules.finished_value(a, b) {
            for i in index.layer_range(a, b) {
                values.set(i as usize, value);
            }
        }
    }
    Ok(slots)
}

/// The layers where a side has every piece home.
fn finished_layers(pieces: u8) -> impl Iterator<Item = (u8, u8)> {
    (0..=pieces)
        .flat_map(move |a| (0..=pieces).map(move |b| (a, b)))
        .filter(move |&(a, b)| a == pieces || b == pieces)
}

/// How a layer pair's sweeps are shared out: the blocks of its first
/// layer in runs of about equal size, one a thread, and the range of
/// entries each run records its mirror pairs in.
pub(super) struct Shares<'b> {
    /// Threads that sweep the pair.
    pub(super) threads: usize,
    /// Each thread's blocks and entries.
    pub(super) runs: Vec<(&'b [Block], Range<usize>)>,
    /// Entries in all.
    pub(super) entries: usize,
}

impl<'b> Shares<'b> {
    /// Shares the pair whose first layer has `blocks` between at most
    /// `threads` threads (one below [`PARALLEL_MIN`] states). Only the
    /// first layer is walked: each state is settled together with its
    /// mirror in (b, a), or in (a, a), once for the two.
    pub(super) fn new(
        index: &Index,
        pair: LayerPair,
        blocks: &'b [Block],
        threads: usize,
    ) -> Shares<'b> {
        let threads = if pair.states(index) < PARALLEL_MIN {
            1
        } else {
            threads
        };
        let (a, b) = pair.first();
        let mut runs = Vec::with_capacity(threads);
        let mut entries = 0;
        for part in split(blocks, threads) {
            let mut n = 0;
            index.for_each_state(part, (a, b), |at, state| {
                if a != b || index.rank_valid(state.mirror()) >= at {
                    n += 1;
                }
            });
            runs.push((part, entries..entries + n));
            entries += n;
        }
        Shares {
            threads,
            runs,
            entries,
        }
    }
}

/// Splits blocks into at most `n` runs of about equal state counts.
pub(super) fn split(blocks: &[Block], n: usize) -> Vec<&[Block]> {
    let total: u64 = blocks.iter().map(Block::len).sum();
    let n = n.max(1);
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    let mut acc = 0u64;
    for (k, block) in blocks.iter().enumerate() {
        acc += block.len();
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
