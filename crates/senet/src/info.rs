//! What a legal move does, in full.

use std::fmt;

use dice_core::Side;
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::rules::make;
use crate::{Flags, House, Move, Place, Position, Variant};

/// Everything one legal move does: who makes it, for which roll, where the
/// roll points and where the piece really ends (the water sends it back to
/// rebirth; under `water=stand` an occupied house diverts it), whether it
/// swaps an enemy piece back to the departure house, and whether the same
/// side throws again.
///
/// A [`Move`] stays the small wire identity (two places); a `MoveInfo` is
/// worked out from a position, a rule set and a roll with
/// [`Position::move_info`] or [`Position::move_infos`], and cannot be built
/// by hand, so its fields always agree with one another.
///
/// Its [`Display`](fmt::Display) form is the roll and the move (`3:
/// 12-15`). Serialized (for JSON), it is an object with the fields `side
/// roll move from to ends swap again backward`.
///
/// ```
/// use dice_core::Side;
/// use senet::{House, Place, Position, Variant};
///
/// // Light on 26, the water empty: a roll of 1 points to 27 and sends the
/// // piece back to 15.
/// let pos = Position::parse("d........./........../.....l.... l")?;
/// let info = pos.move_info(&Variant::KENDALL, 1, "26-27".parse()?).expect("legal");
/// assert_eq!(info.side(), Side::Light);
/// assert_eq!(info.to(), Place::House(House::WATER));
/// assert_eq!(info.ends(), Place::House(House::REBIRTH));
/// assert!(!info.swap() && info.again());
/// assert_eq!(info.to_string(), "1: 26-27");
/// assert_eq!(pos.move_info(&Variant::KENDALL, 2, "26-27".parse()?), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveInfo {
    side: Side,
    roll: u8,
    mv: Move,
    flags: Flags,
}

impl MoveInfo {
    /// The side that makes the move.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The roll the move is for.
    #[must_use]
    pub const fn roll(&self) -> u8 {
        self.roll
    }

    /// The move itself, its wire identity (`12-15`).
    #[must_use]
    pub const fn mv(&self) -> Move {
        self.mv
    }

    /// The house the piece leaves.
    #[must_use]
    pub const fn from(&self) -> House {
        self.mv.from()
    }

    /// The place the roll points to, as the move is written.
    #[must_use]
    pub const fn to(&self) -> Place {
        self.mv.to()
    }

    /// Where the piece really ends: the place the roll points to, or the
    /// house of rebirth (or below) after the water, or the water or rebirth
    /// when an occupied house diverts a move from 26 under `water=stand`.
    #[must_use]
    pub const fn ends(&self) -> Place {
        match self.flags.ends {
            Some(place) => place,
            None => self.mv.to(),
        }
    }

    /// Whether an enemy piece goes back to the departure house.
    #[must_use]
    pub const fn swap(&self) -> bool {
        self.flags.swap
    }

    /// Whether the same side throws next (a roll of 1, 4 or 5, or reaching
    /// 26 under `on26=again`).
    #[must_use]
    pub const fn again(&self) -> bool {
        self.flags.again
    }

    /// Whether the move goes backward.
    #[must_use]
    pub const fn is_backward(&self) -> bool {
        self.mv.is_backward()
    }

    /// The flags together, as a game's log records them.
    #[must_use]
    pub const fn flags(&self) -> Flags {
        self.flags
    }
}

impl fmt::Display for MoveInfo {
    /// The roll and the move, `3: 12-15`, as a log shows a move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.roll, self.mv)
    }
}

impl Serialize for MoveInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("MoveInfo", 9)?;
        s.serialize_field("side", &self.side)?;
        s.serialize_field("roll", &self.roll)?;
        s.serialize_field("move", &self.mv)?;
        s.serialize_field("from", &self.from())?;
        s.serialize_field("to", &self.to())?;
        s.serialize_field("ends", &self.ends())?;
        s.serialize_field("swap", &self.swap())?;
        s.serialize_field("again", &self.again())?;
        s.serialize_field("backward", &self.is_backward())?;
        s.end()
    }
}

impl Position {
    /// The full account of `mv` for `roll` under `variant`, or `None` when
    /// [`Position::legal_into`] would not list it.
    #[must_use]
    pub fn move_info(&self, variant: &Variant, roll: u8, mv: Move) -> Option<MoveInfo> {
        self.legal(variant, roll)
            .contains(&mv)
            .then(|| self.info_of_listed(variant, roll, mv))
    }

    /// The full account of every legal move for `roll`, in the order of
    /// [`Position::legal_into`]. The iterator owns what it needs and
    /// borrows neither argument.
    ///
    /// ```
    /// use dice_core::Side;
    /// use senet::{Position, Variant};
    ///
    /// let start = Position::start(&Variant::KENDALL, Side::Light);
    /// let swaps: Vec<String> = start
    ///     .move_infos(&Variant::KENDALL, 1)
    ///     .filter(|i| i.swap())
    ///     .map(|i| i.mv().to_string())
    ///     .collect();
    /// assert_eq!(swaps, ["2-3", "4-5", "6-7", "8-9"]);
    /// ```
    pub fn move_infos(
        &self,
        variant: &Variant,
        roll: u8,
    ) -> impl Iterator<Item = MoveInfo> + use<> {
        let legal = self.legal(variant, roll);
        let (variant, position) = (*variant, *self);
        (0..legal.len()).filter_map(move |i| {
            let mv = *legal.get(i)?;
            Some(position.info_of_listed(&variant, roll, mv))
        })
    }

    /// The account of a move [`Position::legal_into`] listed for `roll`.
    fn info_of_listed(&self, variant: &Variant, roll: u8, mv: Move) -> MoveInfo {
        let (_, flags) = make(variant, self, roll, mv);
        MoveInfo {
            side: self.side,
            roll,
            mv,
            flags,
        }
    }
}
