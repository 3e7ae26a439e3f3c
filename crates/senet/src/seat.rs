//! Seats: which player plays light.

use std::fmt;
use std::str::FromStr;

use dice_core::Side;
use serde::{Deserialize, Serialize};

/// A seat at the board: `p1` or `p2`. Light is p1 unless a game is made with
/// light on p2; the record says so with a `[light p2]` header.
///
/// ```
/// use dice_core::Side;
/// use senet::Seat;
///
/// assert_eq!(Seat::P2.side(Seat::P2), Side::Light);
/// assert_eq!(Seat::P1.side(Seat::P2), Side::Dark);
/// assert_eq!(Seat::of(Side::Light, Seat::P2), Seat::P2);
/// assert_eq!("p3".parse::<Seat>().unwrap_err().code(), "seat");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The first seat (light by default).
    #[default]
    P1,
    /// The second seat.
    P2,
}

impl Seat {
    /// The side this seat plays when light sits at `light`.
    #[must_use]
    pub const fn side(self, light: Seat) -> Side {
        if matches!((self, light), (Seat::P1, Seat::P1) | (Seat::P2, Seat::P2)) {
            Side::Light
        } else {
            Side::Dark
        }
    }

    /// The seat that plays `side` when light sits at `light`.
    #[must_use]
    pub const fn of(side: Side, light: Seat) -> Seat {
        match (side, light) {
            (Side::Light, seat) => seat,
            (Side::Dark, Seat::P1) => Seat::P2,
            (Side::Dark, Seat::P2) => Seat::P1,
        }
    }

    /// The word: `p1` or `p2`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::P1 => "p1",
            Seat::P2 => "p2",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        match text {
            "p1" => Ok(Seat::P1),
            "p2" => Ok(Seat::P2),
            _ => Err(ParseSeatError(text.to_owned())),
        }
    }
}

/// Text that is not `p1` or `p2`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a seat is p1 or p2, not {0:?}")]
pub struct ParseSeatError(pub String);

impl ParseSeatError {
    /// The contract word: `seat`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "seat"
    }
}
