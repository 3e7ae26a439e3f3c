//! Moves as the wire names them: `a2-d2`, `hand-b1`, `g1-home`.

use std::fmt;
use std::str::FromStr;

use crate::{BoardShape, Square};

/// Code of the hand in a [`Move`]'s packed places (squares are 0..19 and
/// 22..25, see [`Square::cell`]).
pub(crate) const HAND: u8 = 20;
/// Code of home in a [`Move`]'s packed places.
pub(crate) const HOME: u8 = 21;

/// Where a move starts or ends: the hand, a square, or home.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// The pieces that have not entered the board.
    Hand,
    /// A square of the board.
    Square(Square),
    /// The pieces that have left the board.
    Home,
}

impl Place {
    /// The wire name: `hand`, `home` or the square's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Place::Hand => "hand",
            Place::Home => "home",
            Place::Square(sq) => sq.name(),
        }
    }

    const fn code(self) -> u8 {
        match self {
            Place::Hand => HAND,
            Place::Home => HOME,
            Place::Square(sq) => sq.cell() as u8,
        }
    }

    const fn from_code(code: u8) -> Place {
        match code {
            HAND => Place::Hand,
            HOME => Place::Home,
            c => Place::Square(Square::from_index(c)),
        }
    }

    /// Reads one part of a move text, in any case, with `shape`'s squares.
    fn read(part: &str, shape: BoardShape) -> Option<Place> {
        if part.eq_ignore_ascii_case("hand") {
            Some(Place::Hand)
        } else if part.eq_ignore_ascii_case("home") {
            Some(Place::Home)
        } else {
            shape.square_named(part).map(Place::Square)
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move: two places, from and to. It says nothing about the roll or the
/// side; equality is the identity of the wire text.
///
/// The text form is `from-to` in lowercase: `a2-d2`, `hand-b1`, `g1-home`.
/// [`FromStr`] reads any case, with the standard board's squares (as the
/// reference does); [`Move::parse_on`] reads a given board's (`e2-i2` on
/// the aseb board). A move never starts at home nor ends in the hand.
/// Whether it is legal is a question for a position and a roll.
///
/// ```
/// use royal_ur::{Move, Place};
///
/// let mv: Move = "HAND-B1".parse()?;
/// assert_eq!(mv.from(), Place::Hand);
/// assert_eq!(mv.to_string(), "hand-b1");
/// assert_eq!("b1".parse::<Move>().unwrap_err().code(), "shape");
/// assert_eq!("home-b1".parse::<Move>().unwrap_err().code(), "from_home");
/// # Ok::<(), royal_ur::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
}

impl Move {
    /// A move between two places.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError::FromHome`] when `from` is home and
    /// [`ParseMoveError::ToHand`] when `to` is the hand.
    pub fn new(from: Place, to: Place) -> Result<Move, ParseMoveError> {
        let text = || format!("{from}-{to}");
        match (from, to) {
            (Place::Home, _) => Err(ParseMoveError::FromHome(text())),
            (_, Place::Hand) => Err(ParseMoveError::ToHand(text())),
            _ => Ok(Move {
                from: from.code(),
                to: to.code(),
            }),
        }
    }

    /// Where the piece comes from.
    #[must_use]
    pub const fn from(self) -> Place {
        Place::from_code(self.from)
    }

    /// Where the piece goes.
    #[must_use]
    pub const fn to(self) -> Place {
        Place::from_code(self.to)
    }

    /// Whether the piece enters from the hand.
    #[must_use]
    pub const fn is_entry(self) -> bool {
        self.from == HAND
    }

    /// Whether the piece goes home.
    #[must_use]
    pub const fn is_home(self) -> bool {
        self.to == HOME
    }

    /// Whether the destination square is a rosette of the standard board
    /// (`a1 g1 d2 a3 g3`), the reference's record rule; home is not.
    #[must_use]
    pub const fn lands_on_rosette(self) -> bool {
        match self.to() {
            Place::Square(sq) => sq.is_rosette(),
            _ => false,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.from().name())?;
        f.write_str("-")?;
        f.write_str(self.to().name())
    }
}

dice_core::coded_error! {
    /// Why a text is not a move, with the reference's names.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum ParseMoveError {
        /// No text at all.
        #[error("a move needs some text")]
        Empty => "empty",
        /// Not exactly two places with one dash between them.
        #[error("{0:?} is not two places with a dash between them")]
        Shape(String) => "shape",
        /// A part that is not `hand`, `home` or a square.
        #[error("{place:?} in {text:?} is not hand, home or a square")]
        Place {
            /// The whole text.
            text: String,
            /// The part that is not a place.
            place: String,
        } => "place",
        /// A move that starts at home.
        #[error("{0:?} starts at home, which no piece leaves")]
        FromHome(String) => "from_home",
        /// A move that ends in the hand.
        #[error("{0:?} ends in the hand, which no move goes back to")]
        ToHand(String) => "to_hand",
    }
}

impl Move {
    /// Reads a move's text with the squares of `shape`'s board, in any case:
    /// on the standard board exactly as [`FromStr`] does, and on the aseb
    /// board its own squares (`e2-i2`, `l2-home`; `e1` or `m2` is a `place`
    /// error there).
    ///
    /// ```
    /// use royal_ur::{BoardShape, Move};
    ///
    /// let mv = Move::parse_on("E2-I2", BoardShape::Aseb)?;
    /// assert_eq!(mv.to_string(), "e2-i2");
    /// assert_eq!(Move::parse_on("e2-i2", BoardShape::Standard).unwrap_err().code(), "place");
    /// assert_eq!(Move::parse_on("g1-home", BoardShape::Aseb).unwrap_err().code(), "place");
    /// # Ok::<(), royal_ur::ParseMoveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ParseMoveError`] with the reference's names: `empty`, `shape`,
    /// `place`, `from_home` or `to_hand`.
    pub fn parse_on(s: &str, shape: BoardShape) -> Result<Move, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let (a, b) = dice_core::split_move(s).ok_or_else(|| ParseMoveError::Shape(s.to_owned()))?;
        let place = |part: &str| {
            Place::read(part, shape).ok_or_else(|| ParseMoveError::Place {
                text: s.to_owned(),
                place: part.to_owned(),
            })
        };
        let from = place(a)?;
        let to = place(b)?;
        match (from, to) {
            (Place::Home, _) => Err(ParseMoveError::FromHome(s.to_owned())),
            (_, Place::Hand) => Err(ParseMoveError::ToHand(s.to_owned())),
            _ => Ok(Move {
                from: from.code(),
                to: to.code(),
            }),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Move::parse_on(s, BoardShape::Standard)
    }
}

dice_core::serde_via_text!(Move);

#[cfg(test)]
mod tests {
    use super::*;

    fn why(text: &str) -> &'static str {
        match text.parse::<Move>() {
            Ok(_) => "ok",
            Err(e) => e.code(),
        }
    }

    /// A move is its identity: two bytes, as Senet's.
    #[test]
    fn a_move_is_two_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 2);
    }

    #[test]
    fn parse_errors_have_the_reference_names() {
        let cases = [
            ("", "empty"),
            ("b1", "shape"),
            ("a1-b1-c1", "shape"),
            ("b1b2", "shape"),
            ("b1>b2", "shape"),
            ("b1-", "place"),
            ("-b1", "place"),
            ("e1-b1", "place"),
            ("b0-b1", "place"),
            ("b11-b2", "place"),
            ("b1-b2x", "place"),
            ("b1-d2*", "place"),
            (" b1-b2", "place"),
            ("i2-a2", "place"),
            ("home-b1", "from_home"),
            ("home-hand", "from_home"),
            ("b1-hand", "to_hand"),
            ("hand-home", "ok"),
            ("b1-h3", "ok"),
            ("HAND-B1", "ok"),
            ("G1-Home", "ok"),
        ];
        for (text, want) in cases {
            assert_eq!(why(text), want, "{text:?}");
        }
    }

    #[test]
    fn text_is_lowercase_and_round_trips() {
        let mv: Move = "A2-D2".parse().unwrap();
        assert_eq!(mv.to_string(), "a2-d2");
        assert!(mv.lands_on_rosette());
        let mv: Move = "g1-HOME".parse().unwrap();
        assert_eq!(mv.to_string(), "g1-home");
        assert!(mv.is_home() && !mv.lands_on_rosette());
        assert_eq!(serde_json::to_string(&mv).unwrap(), "\"g1-home\"");
        assert_eq!(serde_json::from_str::<Move>("\"g1-home\"").unwrap(), mv);
    }

    #[test]
    fn errors_carry_the_text() {
        let err = "b1-zz".parse::<Move>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"zz\" in \"b1-zz\" is not hand, home or a square"
        );
    }
}
