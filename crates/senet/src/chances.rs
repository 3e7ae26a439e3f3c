//! What the four sticks can do.

use serde::Serialize;

/// One roll the sticks can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Chance {
    /// The roll: houses moved, 1..=5.
    pub roll: u8,
    /// The throw behind it: light faces up, 0..=4.
    pub throw: u8,
    /// How many of the sixteen ways four sticks fall make it.
    pub ways: u8,
    /// Whether it gives the same side another throw.
    pub again: bool,
}

/// Each roll, 1 to 5, with its throw, its ways out of 16 and whether it
/// throws again.
///
/// ```
/// let total: u32 = senet::CHANCES.iter().map(|c| u32::from(c.ways)).sum();
/// assert_eq!(total, 16);
/// assert_eq!(senet::CHANCES[4].throw, 0); // a roll of 5 is a throw of none
/// ```
pub const CHANCES: [Chance; 5] = [
    Chance {
        roll: 1,
        throw: 1,
        ways: 4,
        again: true,
    },
    Chance {
        roll: 2,
        throw: 2,
        ways: 6,
        again: false,
    },
    Chance {
        roll: 3,
        throw: 3,
        ways: 4,
        again: false,
    },
    Chance {
        roll: 4,
        throw: 4,
        ways: 1,
        again: true,
    },
    Chance {
        roll: 5,
        throw: 0,
        ways: 1,
        again: true,
    },
];

/// [`CHANCES`] as `dice_core` counts them, for the generic walk and bots.
pub(crate) const ROLL_CHANCES: [dice_core::Chance; 5] = {
    /// One roll as `dice_core` counts it: its ways out of sixteen.
    const fn counted(c: Chance) -> dice_core::Chance {
        dice_core::Chance {
            roll: c.roll,
            weight: c.ways,
            denominator: 16,
        }
    }
    let [a, b, c, d, e] = CHANCES;
    [counted(a), counted(b), counted(c), counted(d), counted(e)]
};
