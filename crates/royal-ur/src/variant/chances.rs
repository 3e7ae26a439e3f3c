//! The dice's chances: what a throw is worth and how often it comes up.

use dice_core::{Chance, MAX_DICE};

use super::Variant;

/// `n` choose `k`, for the dice's chances (n ≤ 8).
const fn choose(n: u16, k: u16) -> u16 {
    let mut r = 1u16;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The chances of `n` dice: `[0]` when a throw of nothing is worth 0
/// (rolls 0..=n), `[1]` when it is worth `n + 1` (rolls 1..=n+1; n marked
/// and none marked come up once each); `n + 1` entries each.
/// Evaluated at compile time; `n ≤ 8` keeps every index below 10.
#[allow(
    clippy::indexing_slicing,
    reason = "compile-time table construction; `k` runs to at most 8 (n = 8), inside the 10 entries"
)]
const fn chances_of(n: u8) -> [[Chance; 10]; 2] {
    let none = Chance {
        roll: 0,
        weight: 0,
        denominator: 1,
    };
    let mut out = [[none; 10]; 2];
    let denominator = 1u16 << n;
    let mut k = 0u16;
    while k <= n as u16 {
        let weight = choose(n as u16, k);
        out[0][k as usize] = Chance {
            roll: k as u8,
            weight,
            denominator,
        };
        if k >= 1 {
            out[1][k as usize - 1] = Chance {
                roll: k as u8,
                weight,
                denominator,
            };
        }
        k += 1;
    }
    out[1][n as usize] = Chance {
        roll: n + 1,
        weight: 1,
        denominator,
    };
    out
}

/// `CHANCES[n - 1]` for `n` dice (see [`chances_of`]).
static CHANCES: [[[Chance; 10]; 2]; MAX_DICE as usize] = [
    chances_of(1),
    chances_of(2),
    chances_of(3),
    chances_of(4),
    chances_of(5),
    chances_of(6),
    chances_of(7),
    chances_of(8),
];

/// Four dice, a throw of nothing worth 4: 4 comes up two ways (the
/// reference's `dice=4 zero_rolls=4`).
static CHANCES_4_4: [Chance; 4] = [
    Chance {
        roll: 1,
        weight: 4,
        denominator: 16,
    },
    Chance {
        roll: 2,
        weight: 6,
        denominator: 16,
    },
    Chance {
        roll: 3,
        weight: 4,
        denominator: 16,
    },
    Chance {
        roll: 4,
        weight: 2,
        denominator: 16,
    },
];

impl Variant {
    /// What the dice can roll and how often, in ascending order of roll.
    ///
    /// ```
    /// use royal_ur::Variant;
    ///
    /// let rolls: Vec<(u8, u16)> = Variant::MASTERS.chances().iter().map(|c| (c.roll, c.weight)).collect();
    /// assert_eq!(rolls, [(1, 3), (2, 3), (3, 1), (4, 1)]);
    /// let eight = Variant::FINKEL.with_dice(8, 9)?;
    /// assert_eq!(eight.chances().last().map(|c| (c.roll, c.weight, c.denominator)), Some((9, 1, 256)));
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    #[must_use]
    pub fn chances(&self) -> &'static [Chance] {
        let n = usize::from(self.dice);
        let Some(tables) = CHANCES.get(n.wrapping_sub(1)) else {
            return &[];
        };
        let table = match (self.dice, self.zero_rolls) {
            (4, 4) => return &CHANCES_4_4,
            (_, 0) => &tables[0],
            _ => &tables[1],
        };
        table.get(..=n).unwrap_or(&[])
    }

    /// What a throw with `marked` dice marked is worth: the count, except
    /// that 0 is worth `zero_rolls`.
    #[must_use]
    pub const fn roll_of(&self, marked: u8) -> u8 {
        if marked == 0 { self.zero_rolls } else { marked }
    }

    /// The highest roll the dice can make: the dice, or one more when a
    /// throw of nothing is worth that.
    #[must_use]
    pub const fn max_roll(&self) -> u8 {
        if self.zero_rolls > self.dice {
            self.zero_rolls
        } else {
            self.dice
        }
    }

    /// The highest roll a move may be asked for: 4, as in the reference
    /// (whose rolls are 0 to 4 whatever the dice), or the dice's highest
    /// roll when that is more.
    #[must_use]
    pub const fn roll_limit(&self) -> u8 {
        let max = self.max_roll();
        if max > crate::ROLL_MAX {
            max
        } else {
            crate::ROLL_MAX
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_chances_tables() {
        let show = |v: Variant| {
            v.chances()
                .iter()
                .map(|c| format!("[{},{},{}]", c.roll, c.weight, c.denominator))
                .collect::<String>()
        };
        assert_eq!(
            show(Variant::FINKEL),
            "[0,1,16][1,4,16][2,6,16][3,4,16][4,1,16]"
        );
        assert_eq!(
            show(Variant::FINKEL.with_dice(4, 4).unwrap()),
            "[1,4,16][2,6,16][3,4,16][4,2,16]"
        );
        assert_eq!(
            show(Variant::FINKEL.with_dice(3, 0).unwrap()),
            "[0,1,8][1,3,8][2,3,8][3,1,8]"
        );
        assert_eq!(show(Variant::MASTERS), "[1,3,8][2,3,8][3,1,8][4,1,8]");
        assert_eq!(
            show(Variant::FINKEL.with_dice(1, 2).unwrap()),
            "[1,1,2][2,1,2]"
        );
        assert_eq!(
            show(Variant::FINKEL.with_dice(8, 0).unwrap()),
            "[0,1,256][1,8,256][2,28,256][3,56,256][4,70,256][5,56,256][6,28,256][7,8,256][8,1,256]"
        );
    }
}
