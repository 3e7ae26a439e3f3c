//! Moves in their wire form: `F-T` or `F-off`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Where a move goes (or a piece ends): a house 1..=30 or off the board.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dest {
    /// A house, 1..=30.
    House(u8),
    /// Off the board: the piece is home.
    Off,
}

impl Dest {
    /// The house, or `None` for off.
    #[must_use]
    pub const fn house(self) -> Option<u8> {
        match self {
            Dest::House(h) => Some(h),
            Dest::Off => None,
        }
    }

    /// A number for ordering along the track: the house, or 31 for off.
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Dest::House(h) => h,
            Dest::Off => 31,
        }
    }

    pub(crate) const fn from_rank(rank: u8) -> Dest {
        if rank >= 31 {
            Dest::Off
        } else {
            Dest::House(rank)
        }
    }
}

impl fmt::Display for Dest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dest::House(h) => write!(f, "{h}"),
            Dest::Off => f.write_str("off"),
        }
    }
}

impl Serialize for Dest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Dest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Dest, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text == "off" {
            return Ok(Dest::Off);
        }
        match parse_house(&text) {
            Some(h) => Ok(Dest::House(h)),
            None => Err(serde::de::Error::custom(format!(
                "not a house or off: {text:?}"
            ))),
        }
    }
}

/// A move: the house a piece leaves and the house the roll points to
/// (spec §3), `12-15`, `15-12`, `28-off`.
///
/// Equality and hashing are those of the wire text (`from` and `to`). A move
/// that [`legal`](crate::Senet) lists also knows where the piece really ends
/// ([`Move::ends`]: rebirth after the water, a skyruk diversion) and whether
/// it swaps; a move parsed from text does not know yet.
///
/// ```
/// use senet::{Dest, Move};
///
/// let mv: Move = "26-27".parse().unwrap();
/// assert_eq!(mv.from(), 26);
/// assert_eq!(mv.to(), Dest::House(27));
/// assert_eq!("28-off".parse::<Move>().unwrap().to(), Dest::Off);
/// assert_eq!("27-x".parse::<Move>().unwrap_err().code(), "house");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Move {
    from: u8,
    to: u8,
    ends: u8,
    swap: bool,
}

impl Move {
    /// A move from `from` (1..=30) to `to`, not yet judged against a board.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError::House`] when `from` or the house of `to` is not 1..=30.
    pub fn new(from: u8, to: Dest) -> Result<Move, ParseMoveError> {
        if !(1..=30).contains(&from) {
            return Err(ParseMoveError::House(from.to_string()));
        }
        if let Dest::House(h) = to
            && !(1..=30).contains(&h)
        {
            return Err(ParseMoveError::House(h.to_string()));
        }
        Ok(Move {
            from,
            to: to.rank(),
            ends: 0,
            swap: false,
        })
    }

    pub(crate) const fn judged(from: u8, to: u8, ends: u8, swap: bool) -> Move {
        Move {
            from,
            to,
            ends,
            swap,
        }
    }

    /// The house the piece leaves.
    #[must_use]
    pub const fn from(&self) -> u8 {
        self.from
    }

    /// The house the roll points to, as written.
    #[must_use]
    pub const fn to(&self) -> Dest {
        Dest::from_rank(self.to)
    }

    /// Where the piece really ends (rebirth, a diversion), when the move came
    /// from the legal moves; `None` for a move only parsed from text.
    #[must_use]
    pub const fn ends(&self) -> Option<Dest> {
        if self.ends == 0 {
            None
        } else {
            Some(Dest::from_rank(self.ends))
        }
    }

    /// Whether the move swaps an enemy piece back to the departure house
    /// (only known for a move from the legal moves).
    #[must_use]
    pub const fn is_swap(&self) -> bool {
        self.swap
    }

    /// Whether the move goes backward.
    #[must_use]
    pub const fn is_backward(&self) -> bool {
        self.to < self.from
    }

    pub(crate) const fn dest_rank(&self) -> u8 {
        self.to
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.from.hash(state);
        self.to.hash(state);
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to())
    }
}

fn parse_house(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    let ok = match b {
        [d] => (b'1'..=b'9').contains(d),
        [d, e] => (b'1'..=b'9').contains(d) && e.is_ascii_digit(),
        _ => false,
    };
    if !ok {
        return None;
    }
    let n: u8 = text.parse().ok()?;
    (1..=30).contains(&n).then_some(n)
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// `F-T` with F a house 1..=30 and T a house or `off`, in canonical form
    /// (decimal, no leading zero, lowercase `off`).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let parts: Vec<&str> = text.split('-').collect();
        let [from, to] = parts.as_slice() else {
            return Err(ParseMoveError::Shape(text.to_owned()));
        };
        let from = parse_house(from).ok_or_else(|| ParseMoveError::House((*from).to_owned()))?;
        let to = if *to == "off" {
            31
        } else {
            parse_house(to).ok_or_else(|| ParseMoveError::House((*to).to_owned()))?
        };
        if to == from {
            return Err(ParseMoveError::Still(text.to_owned()));
        }
        Ok(Move {
            from,
            to,
            ends: 0,
            swap: false,
        })
    }
}

dice_core::serde_via_text!(Move);

/// Text that is not a move at all.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// No text.
    #[error("a move is F-T, and the text is empty")]
    Empty,
    /// Not two parts joined by one `-`.
    #[error("a move is F-T (two houses, or a house and off, joined by -), not {0:?}")]
    Shape(String),
    /// A part that is not a house 1..=30 (or `off` as the destination).
    #[error("{0:?} is not a house 1 to 30 written in decimal (or off as the destination)")]
    House(String),
    /// A move from a house to the same house.
    #[error("a move goes somewhere: {0:?} stays where it is")]
    Still(String),
}

impl ParseMoveError {
    /// The contract word: `empty`, `shape`, `house` or `still`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            ParseMoveError::Empty => "empty",
            ParseMoveError::Shape(_) => "shape",
            ParseMoveError::House(_) => "house",
            ParseMoveError::Still(_) => "still",
        }
    }
}
