//! The rules as the solver reads them: which rolls can move a piece and
//! their chances, the successors each roll allows, and who has won.
//!
//! Everything the solver knows of the rule set is here (with the move
//! generation on states, [`Index::for_each_move`], that it calls, which
//! follows the path, safe rosettes and the two throw-again switches); the
//! sweeps only combine values.

use royal_ur::{PIECES_MAX, Variant};

use crate::error::{STATES_MAX, SolveError, check_size};
use crate::index::{Index, State};

/// Most rolls that can move a piece: 1 to 9 with eight dice (the most a
/// rule set has) and a 0 worth 9.
pub(super) const ROLLS_MAX: usize = 9;

/// Most moves a roll allows: one a piece.
pub(super) const MOVES_MAX: usize = PIECES_MAX as usize;

/// A successor as the sweeps store it: its index, and whether the turn
/// passes to the other side, whose value is then one minus the stored one.
/// Bit 31 says the turn passes, the other bits are the index; an index
/// never reaches 2^30 ([`Transitions::new`] refuses a rule set with more
/// states), which leaves [`Code::NO_MOVE`] free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Code(u32);

impl Code {
    /// The bit of a successor after which the other side moves.
    const TURN_PASSES: u32 = 1 << 31;

    /// How many indices a code can name.
    pub(super) const INDICES: u64 = STATES_MAX;

    /// What is recorded for a roll that allows no move.
    pub(super) const NO_MOVE: Code = Code(1 << 30);

    /// The code of the state at `index`, after which the turn passes or
    /// not.
    #[inline(always)]
    fn successor(index: u64, turn_passes: bool) -> Code {
        debug_assert!(index < Code::INDICES, "index {index} does not fit a code");
        let index = index as u32;
        Code(if turn_passes {
            index | Code::TURN_PASSES
        } else {
            index
        })
    }

    /// The code stored as `bits`.
    #[inline(always)]
    pub(super) const fn from_bits(bits: u32) -> Code {
        Code(bits)
    }

    /// The code as it is stored.
    #[inline(always)]
    pub(super) const fn bits(self) -> u32 {
        self.0
    }

    /// The index of the successor.
    #[inline(always)]
    pub(super) const fn index(self) -> usize {
        (self.0 & !Code::TURN_PASSES) as usize
    }

    /// Whether the other side moves in the successor.
    #[inline(always)]
    pub(super) const fn turn_passes(self) -> bool {
        self.0 & Code::TURN_PASSES != 0
    }
}

/// The rules of one rule set over the states of its index.
pub(super) struct Transitions<'a> {
    index: &'a Index,
    /// The rolls that can move a piece, with their chances, in the order
    /// of the rule set's throws: an entry's choices are for these rolls,
    /// in this order.
    rolls: Vec<(u8, f64)>,
    /// The chance of a throw that can never move a piece (a 0), which
    /// passes the turn.
    never_moves: f64,
}

impl<'a> Transitions<'a> {
    /// The rules of the index's rule set.
    ///
    /// # Errors
    ///
    /// [`SolveError::TooBig`] when the rule set has more states than a
    /// [`Code`] can name (see `check_size`), [`SolveError::Options`]
    /// when it has more moving rolls than [`ROLLS_MAX`] (no rule set of
    /// `royal-ur` has).
    pub(super) fn new(index: &'a Index) -> Result<Transitions<'a>, SolveError> {
        check_size(index.variant(), index.len())?;
        let (rolls, never_moves) = roll_chances(index.variant());
        if rolls.len() > ROLLS_MAX {
            return Err(SolveError::Options(format!(
                "{} has {} rolls that move, more than the {ROLLS_MAX} the solver records",
                index.variant(),
                rolls.len()
            )));
        }
        Ok(Transitions {
            index,
            rolls,
            never_moves,
        })
    }

    /// The index of the states.
    pub(super) const fn index(&self) -> &'a Index {
        self.index
    }

    /// The rolls that can move a piece, with their chances.
    #[inline(always)]
    pub(super) fn rolls(&self) -> &[(u8, f64)] {
        &self.rolls
    }

    /// The chance of a throw that can never move a piece.
    #[inline(always)]
    pub(super) const fn never_moves(&self) -> f64 {
        self.never_moves
    }

    /// Calls `f` with each successor `roll` allows in `state`, in the
    /// reference order, and returns how many there were.
    #[inline(always)]
    pub(super) fn for_each_successor(
        &self,
        state: State,
        roll: u8,
        mut f: impl FnMut(Code),
    ) -> usize {
        let index = self.index;
        index.for_each_move(state, roll, |successor| {
            f(Code::successor(
                index.rank_valid(successor.next),
                !successor.again,
            ));
        })
    }

    /// The value of a finished game for the side to move in the layer (my
    /// home, their home): 1 when my pieces are all home, 0 when theirs
    /// are, `None` while the game goes on.
    pub(super) fn finished_value(&self, my_home: u8, their_home: u8) -> Option<f64> {
        let pieces = self.index.pieces();
        if my_home == pieces {
            Some(1.0)
        } else if their_home == pieces {
            Some(0.0)
        } else {
            None
        }
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

#[cfg(test)]
mod tests {
    use royal_ur::Path;

    use super::*;

    /// The largest rule sets (seven pieces on each path the index numbers,
    /// masters' and aseb's the largest) number their states within a code,
    /// every dice count's moving rolls fit an entry, a rule set past the
    /// codes is refused with its size, and a code keeps an index and
    /// whether the turn passes apart.
    #[test]
    fn every_rule_set_fits_the_codes() {
        for path in [Path::Bell, Path::Masters, Path::Aseb] {
            let largest = Variant::FINKEL
                .with_path(path)
                .with_pieces(PIECES_MAX)
                .unwrap();
            let index = Index::new(&largest).unwrap();
            assert!(index.len() < Code::INDICES, "{largest}");
            assert!(Transitions::new(&index).is_ok(), "{largest}");
        }
        for dice in 1..=8 {
            for zero_rolls in [0, dice + 1] {
                let variant = Variant::FINKEL
                    .with_pieces(1)
                    .and_then(|v| v.with_dice(dice, zero_rolls))
                    .unwrap();
                let index = Index::new(&variant).unwrap();
                let rules = Transitions::new(&index).unwrap();
                let moving = usize::from(dice) + usize::from(zero_rolls > 0);
                assert_eq!(rules.rolls().len(), moving, "{variant}");
                let total: f64 = rules.rolls().iter().map(|&(_, p)| p).sum();
                assert!(
                    (total + rules.never_moves() - 1.0).abs() < 1e-12,
                    "{variant}"
                );
            }
        }
        let murray = Variant::FINKEL.with_path(Path::Murray);
        let states = royal_ur::count_positions(&murray) / 2;
        let err = check_size(&murray, states).unwrap_err();
        assert_eq!(err.code(), "too_big");
        let text = err.to_string();
        assert!(text.contains(&states.to_string()), "{text}");
        assert!(text.contains(&(8 * states).to_string()), "{text}");
        assert!(check_size(&Variant::MASTERS, Code::INDICES).is_ok());
        let last = Code::INDICES - 1;
        for turn_passes in [false, true] {
            let code = Code::successor(last, turn_passes);
            assert_eq!(code.index() as u64, last);
            assert_eq!(code.turn_passes(), turn_passes);
            assert_ne!(code, Code::NO_MOVE);
        }
    }
}
