//! The moves a 2-byte table must be told: where its rounded values
//! would choose another move than the exact (f64) values do.
//!
//! A 2-byte table stores each value rounded to a step of 1/65,535. Two
//! moves whose exact values differ by less than a step can round to the
//! same value, or the other way round, and the move chosen on the
//! rounded values is then not always the exact values' best. Such a
//! (state, roll) is rare; the table lists each one with the move the
//! exact values choose, and [`best_move`](crate::best_move) plays it. So
//! a bot reading a 2-byte table chooses the move the f64 solve's bot
//! chooses, in every state and for every roll (equal exact values go to
//! the first move in the rules' order, as they do from f64 values).
//!
//! A choice is one `u64`: the state's index shifted left by 8, the roll
//! in bits 4..8 and the move's place among the roll's legal moves (in
//! the rules' order) in bits 0..4. The list is sorted.

use crate::index::Index;

/// Bits below the index in a choice.
const INDEX_SHIFT: u32 = 8;
/// Bits below the roll in a choice.
const ROLL_SHIFT: u32 = 4;

/// The choice word of the move at place `ordinal` for `roll` in the
/// state at `index`.
pub(crate) const fn word(index: u64, roll: u8, ordinal: usize) -> u64 {
    index << INDEX_SHIFT | (roll as u64) << ROLL_SHIFT | ordinal as u64
}

/// The state index and roll a choice word is for, as one number to
/// search by.
pub(crate) const fn key(word: u64) -> u64 {
    word >> ROLL_SHIFT
}

/// The state index a choice word is for.
pub(crate) const fn state_index(word: u64) -> u64 {
    word >> INDEX_SHIFT
}

/// The key of (index, roll).
pub(crate) const fn key_of(index: u64, roll: u8) -> u64 {
    key(word(index, roll, 0))
}

/// The move's place in a choice word.
pub(crate) const fn ordinal(word: u64) -> usize {
    (word & ((1 << ROLL_SHIFT) - 1)) as usize
}

/// The first index of the largest value, the first among equals; `None`
/// for no values.
fn first_best(values: impl Iterator<Item = f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (k, v) in values.enumerate() {
        match best {
            Some((_, b)) if b >= v => {}
            _ => best = Some((k, v)),
        }
    }
    best.map(|(k, _)| k)
}

/// The choices of the states `range` of an index: for every state that
/// is not over and every roll with more than one move, the exact best
/// move where `rounded` would choose another. `values` are the exact
/// values in index order.
fn choices_in(
    index: &Index,
    values: &[f64],
    rounded: &(impl Fn(f64) -> f64 + Sync),
    rolls: &[u8],
    range: std::ops::Range<u64>,
) -> Vec<u64> {
    let value = |i: u64| -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| values.get(i))
            .copied()
            .unwrap_or(0.0)
    };
    let mut out = Vec::new();
    let mut exact: Vec<f64> = Vec::with_capacity(8);
    let mut kept: Vec<f64> = Vec::with_capacity(8);
    for i in range {
        let Some(state) = index.unrank(i) else {
            continue;
        };
        if index.is_over(state) {
            continue;
        }
        for &roll in rolls {
            exact.clear();
            kept.clear();
            index.for_each_move(state, roll, |s| {
                let v = value(index.rank_valid(s.next));
                let r = rounded(v);
                if s.again {
                    exact.push(v);
                    kept.push(r);
                } else {
                    exact.push(1.0 - v);
                    kept.push(1.0 - r);
                }
            });
            if exact.len() < 2 {
                continue;
            }
            let best = first_best(exact.iter().copied());
            if let Some(b) = best
                && first_best(kept.iter().copied()) != best
            {
                out.push(word(i, roll, b));
            }
        }
    }
    out
}

/// Every choice a table of values rounded by `rounded` must be told,
/// sorted; the states are shared between `threads` threads.
pub(crate) fn choices(
    index: &Index,
    values: &[f64],
    rounded: impl Fn(f64) -> f64 + Sync,
    threads: usize,
) -> Vec<u64> {
    let mut rolls: Vec<u8> = index
        .variant()
        .chances()
        .iter()
        .map(|c| c.roll)
        .filter(|&r| r > 0)
        .collect();
    rolls.sort_unstable();
    rolls.dedup();
    let len = index.len();
    let threads = threads.clamp(1, 64) as u64;
    let parts: Vec<std::ops::Range<u64>> = (0..threads)
        .map(|t| len * t / threads..len * (t + 1) / threads)
        .collect();
    let mut out: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|range| {
                let (rolls, rounded) = (&rolls, &rounded);
                scope.spawn(move || choices_in(index, values, rounded, rolls, range))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    out.sort_unstable();
    out
}
