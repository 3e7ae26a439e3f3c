//! The thirty houses of the board and their names.

use std::fmt;
use std::str::FromStr;

/// How many houses the board has.
pub const HOUSES: u8 = 30;

/// House 15, the House of Rebirth: where a piece sent back by the water
/// goes (or the first empty house below it).
pub(crate) const REBIRTH: u8 = 15;
/// House 25, the last house before the House of Happiness.
pub(crate) const BEFORE_HAPPINESS: u8 = HAPPINESS - 1;
/// House 26, the House of Happiness: every piece must stand on it before
/// going further.
pub(crate) const HAPPINESS: u8 = 26;
/// House 27, the water.
pub(crate) const WATER: u8 = 27;
/// House 28, the House of the Three Truths: left on a roll of 3.
pub(crate) const THREE_TRUTHS: u8 = 28;
/// House 29, the House of Re-Atoum: left on a roll of 2.
pub(crate) const RE_ATOUM: u8 = 29;
/// House 30, the House of Horus: left on a roll of 1 (any roll under
/// `off30=any`).
pub(crate) const HORUS: u8 = 30;
/// Where off the board stands on the track: one past the last house.
pub(crate) const OFF: u8 = HOUSES + 1;

/// One of the thirty houses, numbered 1 to 30 along the track (spec §1):
/// 1 to 10 on the first row, 11 to 20 back along the second, 21 to 30 on
/// the third, and then off the board.
///
/// The text form is the number in decimal, without a leading zero.
///
/// ```
/// use senet::House;
///
/// let water: House = "27".parse()?;
/// assert_eq!(water, House::WATER);
/// assert_eq!(water.number(), 27);
/// assert_eq!(House::new(31), None);
/// assert_eq!(House::ALL.len(), 30);
/// assert!("07".parse::<House>().is_err());
/// # Ok::<(), senet::ParseHouseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct House(u8);

impl House {
    /// All thirty houses, 1 first.
    #[allow(
        clippy::indexing_slicing,
        reason = "evaluated at compile time, and `i` stays below `HOUSES`, the array's length"
    )]
    pub const ALL: [House; HOUSES as usize] = {
        let mut all = [House(1); HOUSES as usize];
        let mut i = 0;
        while i < HOUSES as usize {
            all[i] = House(i as u8 + 1);
            i += 1;
        }
        all
    };

    /// House 15, the House of Rebirth, where the water sends a piece back.
    pub const REBIRTH: House = House(REBIRTH);
    /// House 26, the House of Happiness, which every piece must stand on.
    pub const HAPPINESS: House = House(HAPPINESS);
    /// House 27, the water.
    pub const WATER: House = House(WATER);
    /// House 28, the House of the Three Truths.
    pub const THREE_TRUTHS: House = House(THREE_TRUTHS);
    /// House 29, the House of Re-Atoum.
    pub const RE_ATOUM: House = House(RE_ATOUM);
    /// House 30, the House of Horus, the last.
    pub const HORUS: House = House(HORUS);

    /// The house with this number (1..=30), if there is one.
    #[must_use]
    pub const fn new(number: u8) -> Option<House> {
        if number >= 1 && number <= HOUSES {
            Some(House(number))
        } else {
            None
        }
    }

    /// The number, 1..=30.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The house's bit in a side's bitboard: bit `number - 1`.
    pub(crate) const fn bit(self) -> u32 {
        1 << (self.0 - 1)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Text that is not a house: a number 1 to 30 in decimal, without a
/// leading zero.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no house {0:?}; the houses are 1 to 30, written in decimal")]
pub struct ParseHouseError(pub String);

impl ParseHouseError {
    /// The contract word, `house`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "house"
    }
}

impl FromStr for House {
    type Err = ParseHouseError;

    fn from_str(text: &str) -> Result<House, ParseHouseError> {
        let digits = match text.as_bytes() {
            [b'1'..=b'9'] | [b'1'..=b'9', b'0'..=b'9'] => text.parse().ok(),
            _ => None,
        };
        digits
            .and_then(House::new)
            .ok_or_else(|| ParseHouseError(text.to_owned()))
    }
}

dice_core::serde_via_text!(House);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn houses_read_and_write_their_numbers() {
        for house in House::ALL {
            assert_eq!(house.to_string().parse::<House>(), Ok(house));
            assert_eq!(House::new(house.number()), Some(house));
        }
        for bad in ["0", "31", "07", "", "x", "1 ", "+3", "300"] {
            assert_eq!(
                bad.parse::<House>(),
                Err(ParseHouseError(bad.to_owned())),
                "{bad:?}"
            );
        }
        assert_eq!(House::new(0), None);
        assert_eq!(
            [House::REBIRTH, House::HAPPINESS, House::WATER, House::HORUS].map(House::number),
            [15, 26, 27, 30]
        );
    }
}
