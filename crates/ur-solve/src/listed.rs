//! The states of a path that visits squares twice (murray, skiriuk),
//! numbered by a sorted list.
//!
//! On these paths a side has two steps on each of `a2..g2` (its first and
//! its second visit), so the dense numbering of [`Index`](crate::Index),
//! one digit a shared cell, does not fit them. Instead every state is
//! enumerated once, square by square (a square is empty, or holds one of
//! my pieces at one of my steps there, or one of theirs at one of theirs),
//! packed into a [`Key`] whose order is the layer's (my home, their home)
//! first, and kept sorted: the index of a state is its place in the list,
//! found by a binary search within its layer.
//!
//! The list takes 8 bytes a state, as many as its values, and is rebuilt
//! from the rules whenever an index is built (a table file needs only the
//! rules and the values).

use std::fmt;

use dice_core::Side;
use royal_ur::{Path, Variant};

use crate::error::SolveError;
use crate::index::State;

/// The most states (one side to move) a listed index holds: 2^26 =
/// 67,108,864. The list, the values and the solver's records take about
/// 80 bytes a state at the peak, some 5 GB at this limit, and the first
/// sweep of a layer pair generates every move through `royal-ur` and finds
/// every successor by a binary search, which takes minutes per ten million
/// states on this machine's cores. Skiriuk with 4 pieces (54,179,242)
/// fits; murray with 4 (207,330,951) and skiriuk with 5 (522,642,136) do
/// not.
pub const LISTED_MAX: u64 = 1 << 26;

/// A state packed in 64 bits: my home (bits 60..63), their home (56..59),
/// my steps (28..55) and theirs (0..27). Steps go up to 27 (murray's
/// path), so each side's mask fits 28 bits; the order of keys is the
/// order of layers, then of my steps, then of theirs.
type Key = u64;

const MASK_BITS: u32 = 28;
const MASK: u64 = (1 << MASK_BITS) - 1;

fn key(state: State) -> Key {
    u64::from(state.my_home) << 60
        | u64::from(state.their_home) << 56
        | u64::from(state.mine) << MASK_BITS
        | u64::from(state.theirs)
}

fn state(key: Key) -> State {
    State {
        mine: ((key >> MASK_BITS) & MASK) as u32,
        theirs: (key & MASK) as u32,
        my_home: (key >> 60) as u8,
        their_home: ((key >> 56) & 0xf) as u8,
    }
}

/// Every state of a rule set on a path that visits squares twice, in key
/// order.
#[derive(Clone)]
pub(crate) struct Listed {
    keys: Vec<Key>,
    /// First index of each layer (`my_home * (pieces + 1) + their_home`),
    /// and the count at the back.
    layer_start: Vec<u64>,
}

impl fmt::Debug for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Listed")
            .field("states", &self.keys.len())
            .finish_non_exhaustive()
    }
}

impl Listed {
    /// Lists every state of `variant`: each placement of both sides'
    /// pieces, no square held twice, with each home count that fits.
    ///
    /// # Errors
    ///
    /// [`SolveError::TooBig`] for a rule set with more than
    /// [`LISTED_MAX`] states (counted by [`royal_ur::count_positions`]
    /// before anything is listed).
    pub(crate) fn new(variant: &Variant) -> Result<Listed, SolveError> {
        let states = royal_ur::count_positions(variant) / 2;
        if states > LISTED_MAX {
            return Err(SolveError::TooBig {
                rules: variant.to_string(),
                states,
                limit: LISTED_MAX,
                bytes: states.saturating_mul(std::mem::size_of::<f64>() as u64),
            });
        }
        let pieces = variant.pieces();
        let boards = placements(variant.path(), pieces);
        let mut keys = Vec::with_capacity(usize::try_from(states).unwrap_or(0));
        let mut layer_start = Vec::with_capacity(usize::from(pieces + 1).pow(2) + 1);
        for my_home in 0..=pieces {
            for their_home in 0..=pieces {
                layer_start.push(keys.len() as u64);
                keys.extend(
                    boards
                        .iter()
                        .filter(|&&(mine, theirs)| {
                            mine.count_ones() + u32::from(my_home) <= u32::from(pieces)
                                && theirs.count_ones() + u32::from(their_home) <= u32::from(pieces)
                        })
                        .map(|&(mine, theirs)| {
                            key(State {
                                mine,
                                theirs,
                                my_home,
                                their_home,
                            })
                        }),
                );
            }
        }
        layer_start.push(keys.len() as u64);
        debug_assert!(keys.is_sorted(), "keys out of order");
        Ok(Listed { keys, layer_start })
    }

    /// First index of each layer, and the count at the back.
    pub(crate) fn layer_start(&self) -> &[u64] {
        &self.layer_start
    }

    /// The index of a state, or `None` when it is not listed.
    #[inline]
    pub(crate) fn rank(&self, state: State, layer: usize) -> Option<u64> {
        let (&start, &end) = (
            self.layer_start.get(layer)?,
            self.layer_start.get(layer + 1)?,
        );
        let run = self.keys.get(start as usize..end as usize)?;
        run.binary_search(&key(state))
            .ok()
            .map(|i| start + i as u64)
    }

    /// The state at an index, or `None` past the end.
    #[inline]
    pub(crate) fn unrank(&self, index: u64) -> Option<State> {
        let i = usize::try_from(index).ok()?;
        self.keys.get(i).copied().map(state)
    }
}

/// Every placement of at most `pieces` pieces a side on the board, as
/// (my steps, their steps), both sorted ascending: built square by square,
/// each square empty or holding a piece of mine or theirs at one of the
/// steps its side's path has there (two on a square visited twice).
fn placements(path: Path, pieces: u8) -> Vec<(u32, u32)> {
    let steps = |side: Side| -> Vec<Vec<u8>> {
        path.board()
            .squares()
            .iter()
            .map(|&sq| {
                [path.step_of(side, sq), path.second_step_of(side, sq)]
                    .into_iter()
                    .flatten()
                    .collect()
            })
            .collect()
    };
    let (mine, theirs) = (steps(Side::Light), steps(Side::Dark));
    let mut out = vec![(0u32, 0u32)];
    for (my_steps, their_steps) in mine.iter().zip(&theirs) {
        let before = out.len();
        for k in 0..before {
            let Some(&(m, t)) = out.get(k) else { continue };
            if m.count_ones() < u32::from(pieces) {
                out.extend(my_steps.iter().map(|&s| (m | 1 << s, t)));
            }
            if t.count_ones() < u32::from(pieces) {
                out.extend(their_steps.iter().map(|&s| (m, t | 1 << s)));
            }
        }
    }
    out.sort_unstable();
    out
}
