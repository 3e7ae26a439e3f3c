//! Why a well-formed move is not legal.

use std::fmt;

/// Why a move text is not legal for the throw in hand (spec §3.7). When
/// several reasons apply, the first in this order is reported:
/// `no_piece`, `not_your_piece`, `bound`, `backward_not_allowed`,
/// `wrong_distance`, `overshoot`, `own_piece`, `occupied`, `protected`,
/// `blockade`. (`game_over`, `no_roll` and `bad_move` come before all of
/// them and belong to the game.)
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// No piece stands on the departure house.
    NoPiece,
    /// The piece on the departure house is the other side's.
    NotYourPiece,
    /// The throw belongs to the piece on 26 (`on26=again`).
    Bound,
    /// A backward move while a forward move exists, or a backward move
    /// from 26..30, where pieces never move backward.
    BackwardNotAllowed,
    /// The destination is not the one the roll points to.
    WrongDistance,
    /// The roll would pass 26 without standing on it, or leave 27..30 on a
    /// roll that does not take the piece off.
    Overshoot,
    /// The mover's own piece stands on the destination.
    OwnPiece,
    /// An enemy piece stands on the destination among 26..30, where nobody
    /// is swapped.
    Occupied,
    /// The enemy piece on the destination stands in a run its rules protect.
    Protected,
    /// The move would pass over an enemy blockade.
    Blockade,
}

impl Refusal {
    /// All refusals, in the order they are checked.
    pub const ALL: [Refusal; 10] = [
        Refusal::NoPiece,
        Refusal::NotYourPiece,
        Refusal::Bound,
        Refusal::BackwardNotAllowed,
        Refusal::WrongDistance,
        Refusal::Overshoot,
        Refusal::OwnPiece,
        Refusal::Occupied,
        Refusal::Protected,
        Refusal::Blockade,
    ];

    /// The contract word, e.g. `wrong_distance`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::NoPiece => "no_piece",
            Refusal::NotYourPiece => "not_your_piece",
            Refusal::Bound => "bound",
            Refusal::BackwardNotAllowed => "backward_not_allowed",
            Refusal::WrongDistance => "wrong_distance",
            Refusal::Overshoot => "overshoot",
            Refusal::OwnPiece => "own_piece",
            Refusal::Occupied => "occupied",
            Refusal::Protected => "protected",
            Refusal::Blockade => "blockade",
        }
    }

    /// A lowercase sentence saying why.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            Refusal::NoPiece => "no piece stands on that house",
            Refusal::NotYourPiece => "that piece belongs to the other side",
            Refusal::Bound => "this throw belongs to the piece on 26",
            Refusal::BackwardNotAllowed => {
                "a piece moves backward only when no forward move exists, and never from 26 to 30"
            }
            Refusal::WrongDistance => "the roll does not take that piece there",
            Refusal::Overshoot => {
                "no piece passes 26 without standing on it, and 27 to 30 are left only on their rolls"
            }
            Refusal::OwnPiece => "a piece of the same side stands there",
            Refusal::Occupied => "houses 26 to 30 are landed on only when empty",
            Refusal::Protected => "that piece stands in a protected run",
            Refusal::Blockade => "the move would pass an enemy blockade",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl dice_core::Coded for Refusal {
    fn code(&self) -> &'static str {
        Refusal::code(*self)
    }
}
