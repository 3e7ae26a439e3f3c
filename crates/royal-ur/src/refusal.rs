//! Why a well-formed move is not legal.

use std::fmt;

/// Why a move is refused, with the reference's codes, checked in the
/// reference's order (see [`Position::refusal`](crate::Position::refusal)).
///
/// `game_over`, `no_roll` and `bad_move` for text that is not a move at all
/// are the game's own refusals (dice-core's `PlayError`); these are the ones
/// that depend on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Refusal {
    /// The mover has no piece at the `from` place.
    NoPiece,
    /// The piece at `from` belongs to the other side.
    NotYourPiece,
    /// `to` is not exactly the roll away from `from` along the mover's route.
    WrongDistance,
    /// The mover's own piece stands on `to`.
    OwnPiece,
    /// An enemy piece on a rosette cannot be captured (rosettes are safe).
    SafeRosette,
    /// Bearing off needs the exact roll.
    Overshoot,
    /// The fallback of the reference's order; no (from, to) pair of places
    /// reaches it.
    BadMove,
}

impl Refusal {
    /// All refusals, in the order they are checked.
    pub const ALL: [Refusal; 7] = [
        Refusal::NoPiece,
        Refusal::NotYourPiece,
        Refusal::WrongDistance,
        Refusal::OwnPiece,
        Refusal::SafeRosette,
        Refusal::Overshoot,
        Refusal::BadMove,
    ];

    /// The contract word, e.g. `wrong_distance`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::NoPiece => "no_piece",
            Refusal::NotYourPiece => "not_your_piece",
            Refusal::WrongDistance => "wrong_distance",
            Refusal::OwnPiece => "own_piece",
            Refusal::SafeRosette => "safe_rosette",
            Refusal::Overshoot => "overshoot",
            Refusal::BadMove => "bad_move",
        }
    }

    /// A sentence saying what was wrong.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            Refusal::NoPiece => "there is no piece of the side to move there",
            Refusal::NotYourPiece => "that piece belongs to the other side",
            Refusal::WrongDistance => "that is not the roll away along the route",
            Refusal::OwnPiece => "a piece of the same side stands there",
            Refusal::SafeRosette => "a piece on a rosette cannot be captured",
            Refusal::Overshoot => "bearing off needs the exact roll",
            Refusal::BadMove => "that move is not legal",
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
