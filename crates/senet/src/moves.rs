//! Moves as the wire names them: `12-15`, `15-12`, `28-off`.

use std::fmt;
use std::str::FromStr;

use crate::House;
use crate::house::OFF;

/// Where a move goes (or a piece ends): a house, or off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// A house of the board.
    House(House),
    /// Off the board: the piece is home.
    Off,
}

impl Place {
    /// The house, or `None` for off.
    #[must_use]
    pub const fn house(self) -> Option<House> {
        match self {
            Place::House(h) => Some(h),
            Place::Off => None,
        }
    }

    /// Where the place stands along the track: the house's number, or 31
    /// for off.
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Place::House(h) => h.number(),
            Place::Off => OFF,
        }
    }

    /// The place at a rank: the house with that number, or off for 31 and
    /// above (0 is never a rank; it reads as off too).
    pub(crate) const fn from_rank(rank: u8) -> Place {
        match House::new(rank) {
            Some(h) => Place::House(h),
            None => Place::Off,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::House(h) => write!(f, "{h}"),
            Place::Off => f.write_str("off"),
        }
    }
}

impl FromStr for Place {
    type Err = ParseMoveError;

    /// A house 1..=30 in decimal, or `off`.
    fn from_str(text: &str) -> Result<Place, ParseMoveError> {
        if text == "off" {
            return Ok(Place::Off);
        }
        text.parse()
            .map(Place::House)
            .map_err(|_| ParseMoveError::House(text.to_owned()))
    }
}

dice_core::serde_via_text!(Place);

/// A move: the house a piece leaves and the place the roll points to
/// (spec §3), `12-15`, `15-12`, `28-off`. It says nothing about the roll or
/// the side; it is its wire text, and two moves are equal when their texts
/// are. What a legal move does (where the piece really ends, whether it
/// swaps) is its [`MoveInfo`](crate::MoveInfo).
///
/// ```
/// use senet::{House, Move, Place};
///
/// let mv: Move = "26-27".parse().unwrap();
/// assert_eq!(mv.from(), House::HAPPINESS);
/// assert_eq!(mv.to(), Place::House(House::WATER));
/// assert_eq!("28-off".parse::<Move>().unwrap().to(), Place::Off);
/// assert_eq!("27-x".parse::<Move>().unwrap_err().code(), "house");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    /// The rank of the place the roll points to (31 for off).
    to: u8,
}

impl Move {
    /// A move from a house to a place, not yet judged against a board.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError::Still`] when `to` is `from` itself.
    pub fn new(from: House, to: Place) -> Result<Move, ParseMoveError> {
        if to == Place::House(from) {
            return Err(ParseMoveError::Still(format!("{from}-{to}")));
        }
        Ok(Move {
            from: from.number(),
            to: to.rank(),
        })
    }

    /// The house the piece leaves.
    #[must_use]
    pub const fn from(self) -> House {
        match House::new(self.from) {
            Some(h) => h,
            None => House::HORUS,
        }
    }

    /// The place the roll points to, as written.
    #[must_use]
    pub const fn to(self) -> Place {
        Place::from_rank(self.to)
    }

    /// Whether the move goes backward.
    #[must_use]
    pub const fn is_backward(self) -> bool {
        self.to < self.from
    }

    /// A move of the piece on house `from` to rank `to`, both made by the
    /// rules (`from` 1..=30, `to` 1..=31 and not `from`).
    pub(crate) const fn between(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// The departure house's number.
    pub(crate) const fn departure(self) -> u8 {
        self.from
    }

    /// The rank the roll points to (31 for off).
    pub(crate) const fn to_rank(self) -> u8 {
        self.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to())
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// `F-T` with F a house 1..=30 and T a house or `off`, in canonical form
    /// (decimal, no leading zero, lowercase `off`).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let (from, to) =
            dice_core::split_move(text).ok_or_else(|| ParseMoveError::Shape(text.to_owned()))?;
        let from: House = from
            .parse()
            .map_err(|_| ParseMoveError::House(from.to_owned()))?;
        let to: Place = to.parse()?;
        if to == Place::House(from) {
            return Err(ParseMoveError::Still(text.to_owned()));
        }
        Ok(Move {
            from: from.number(),
            to: to.rank(),
        })
    }
}

dice_core::serde_via_text!(Move);

dice_core::coded_error! {
    /// Text that is not a move at all.
    #[non_exhaustive]
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    pub enum ParseMoveError {
        /// No text.
        #[error("a move is F-T, and the text is empty")]
        Empty => "empty",
        /// Not two parts joined by one `-`.
        #[error("a move is F-T (two houses, or a house and off, joined by -), not {0:?}")]
        Shape(String) => "shape",
        /// A part that is not a house 1..=30 (or `off` as the destination).
        #[error("{0:?} is not a house 1 to 30 written in decimal (or off as the destination)")]
        House(String) => "house",
        /// A move from a house to the same house.
        #[error("a move goes somewhere: {0:?} stays where it is")]
        Still(String) => "still",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move is its identity: two bytes, as the Royal Game of Ur's.
    #[test]
    fn a_move_is_two_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 2);
    }

    #[test]
    fn text_round_trips_and_errors_have_codes() {
        for text in ["1-2", "12-15", "15-12", "28-off", "30-off", "26-27"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
            assert_eq!(Move::new(mv.from(), mv.to()), Ok(mv));
        }
        for (text, code) in [
            ("", "empty"),
            ("12", "shape"),
            ("1-2-3", "shape"),
            ("0-2", "house"),
            ("31-2", "house"),
            ("02-3", "house"),
            ("2-Off", "house"),
            ("off-2", "house"),
            ("5-5", "still"),
        ] {
            assert_eq!(text.parse::<Move>().unwrap_err().code(), code, "{text:?}");
        }
        assert_eq!(
            Move::new(House::WATER, Place::House(House::WATER))
                .unwrap_err()
                .code(),
            "still"
        );
    }
}
