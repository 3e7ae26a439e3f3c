//! The states of a path that visits squares twice (murray, skiriuk),
//! numbered by a sorted list.
//!
//! On these paths a side has two steps on each of `a2..g2` (its first and
//! its second visit), so the dense numbering of [`Index`](crate::Index),
//! one digit a shared cell, does not fit them. Instead every state is
//! enumerated once, square by square (a square is empty, or holds one of
//! my pieces at one of my steps there, or one of theirs at one of theirs),
//! and kept in order of layer (my home, their home), my steps, their
//! steps: the index of a state is its place in that list, found by two
//! binary searches, one over the groups of states with the same layer and
//! my steps, one over their steps within the group.
//!
//! The list takes 4 bytes a state (half as many as its values) and a few
//! megabytes for the groups, and is rebuilt from the rules whenever an
//! index is built (a table file needs only the rules and the values).

use std::fmt;

use dice_core::Side;
use royal_ur::{Path, Variant};

use crate::error::SolveError;
use crate::index::State;

/// The most states (one side to move) a listed index holds: 2^24 =
/// 16,777,216. The first sweep of each layer pair and the residual pass
/// generate every move through `royal-ur` and find every successor by
/// binary searches that mostly miss the caches: murray with 3 pieces
/// (7,735,248 states) took a minute of CPU, so this limit keeps a solve to
/// a few minutes. Skiriuk and murray with up to 3 pieces fit; skiriuk with
/// 4 (54,179,242) and murray with 4 (207,330,951) do not.
pub const LISTED_MAX: u64 = 1 << 24;

/// A state's layer and my steps packed in 64 bits: my home (bits 32..35),
/// their home (28..31) and my steps (0..27). Steps go up to 27 (murray's
/// path), so a side's steps fit 28 bits; the order of groups is the order
/// of layers, then of my steps.
type Group = u64;

const MASK_BITS: u32 = 28;
const MASK: u64 = (1 << MASK_BITS) - 1;

fn group(state: State) -> Group {
    u64::from(state.my_home) << (MASK_BITS + 4)
        | u64::from(state.their_home) << MASK_BITS
        | u64::from(state.mine)
}

/// Every state of a rule set on a path that visits squares twice, in
/// order of layer, my steps, their steps: the states are grouped by layer
/// and my steps (a short list, searched first), and each group lists their
/// steps in order (searched second), 4 bytes a state.
#[derive(Clone)]
pub(crate) struct Listed {
    /// Each group's layer and my steps, ascending.
    groups: Vec<Group>,
    /// First index of each group, and the count at the back.
    group_start: Vec<u64>,
    /// Their steps in every state, in index order.
    theirs: Vec<u32>,
    /// First index of each layer (`my_home * (pieces + 1) + their_home`),
    /// and the count at the back.
    layer_start: Vec<u64>,
}

impl fmt::Debug for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Listed")
            .field("states", &self.theirs.len())
            .field("groups", &self.groups.len())
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
        let pieces = u32::from(variant.pieces());
        let boards = placements(variant.path(), variant.pieces());
        let mut listed = Listed {
            groups: Vec::new(),
            group_start: Vec::new(),
            theirs: Vec::with_capacity(usize::try_from(states).unwrap_or(0)),
            layer_start: Vec::new(),
        };
        for my_home in 0..=variant.pieces() {
            for their_home in 0..=variant.pieces() {
                listed.layer_start.push(listed.theirs.len() as u64);
                let fits = |steps: u32, home: u8| steps.count_ones() + u32::from(home) <= pieces;
                for &(mine, theirs) in &boards {
                    if !fits(mine, my_home) || !fits(theirs, their_home) {
                        continue;
                    }
                    let g = group(State {
                        mine,
                        theirs,
                        my_home,
                        their_home,
                    });
                    if listed.groups.last() != Some(&g) {
                        listed.groups.push(g);
                        listed.group_start.push(listed.theirs.len() as u64);
                    }
                    listed.theirs.push(theirs);
                }
            }
        }
        listed.layer_start.push(listed.theirs.len() as u64);
        listed.group_start.push(listed.theirs.len() as u64);
        debug_assert!(listed.groups.is_sorted(), "groups out of order");
        Ok(listed)
    }

    /// First index of each layer, and the count at the back.
    pub(crate) fn layer_start(&self) -> &[u64] {
        &self.layer_start
    }

    /// The index of a state, or `None` when it is not listed.
    #[inline]
    pub(crate) fn rank(&self, state: State) -> Option<u64> {
        let g = self.groups.binary_search(&group(state)).ok()?;
        let (&start, &end) = (self.group_start.get(g)?, self.group_start.get(g + 1)?);
        let run = self.theirs.get(start as usize..end as usize)?;
        run.binary_search(&state.theirs)
            .ok()
            .map(|i| start + i as u64)
    }

    /// The state at an index, or `None` past the end.
    #[inline]
    pub(crate) fn unrank(&self, index: u64) -> Option<State> {
        let theirs = *self.theirs.get(usize::try_from(index).ok()?)?;
        let g = self.group_start.partition_point(|&start| start <= index) - 1;
        let &packed = self.groups.get(g)?;
        Some(State {
            mine: (packed & MASK) as u32,
            theirs,
            my_home: (packed >> (MASK_BITS + 4)) as u8,
            their_home: ((packed >> MASK_BITS) & 0xf) as u8,
        })
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
