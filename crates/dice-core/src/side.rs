//! The two sides of a race game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the two sides. Both games in this workspace call them light and dark.
///
/// The text form is `light` / `dark`; records use the letters `l` / `d`.
///
/// ```
/// use dice_core::Side;
///
/// assert_eq!(Side::Light.other(), Side::Dark);
/// assert_eq!("dark".parse::<Side>(), Ok(Side::Dark));
/// assert_eq!(Side::Light.letter(), 'l');
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Light: side code 0.
    Light,
    /// Dark: side code 1.
    Dark,
}

impl Side {
    /// Both sides, light first.
    pub const ALL: [Side; 2] = [Side::Light, Side::Dark];

    /// The opposing side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::Light => Side::Dark,
            Side::Dark => Side::Light,
        }
    }

    /// 0 for light, 1 for dark: handy for indexing per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::Light => 0,
            Side::Dark => 1,
        }
    }

    /// The side with index 0 (light) or anything else (dark).
    #[must_use]
    pub const fn from_index(index: usize) -> Side {
        if index == 0 { Side::Light } else { Side::Dark }
    }

    /// The word, `light` or `dark`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Side::Light => "light",
            Side::Dark => "dark",
        }
    }

    /// The record letter, `l` or `d`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::Light => 'l',
            Side::Dark => 'd',
        }
    }

    /// The side for a record letter `l` / `d`, if it is one.
    #[must_use]
    pub const fn from_letter(letter: char) -> Option<Side> {
        match letter {
            'l' => Some(Side::Light),
            'd' => Some(Side::Dark),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text given for a side was neither `light` nor `dark`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a side is 'light' or 'dark', not {0:?}")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "light" => Ok(Side::Light),
            "dark" => Ok(Side::Dark),
            _ => Err(ParseSideError(s.to_owned())),
        }
    }
}
