//! Rule sets: the presets (finkel, masters, blitz, aseb, finkel2p,
//! masters4d) and every combination of board, path, dice and switches.

use dice_core::{MAX_DICE, VariantError};

use crate::{BoardShape, Flags, Path, Route};

mod chances;
mod text;

/// The most pieces a side can have.
pub const PIECES_MAX: u8 = 7;

/// The fields of a rule set, in their canonical order.
pub const FIELDS: [&str; 8] = [
    "board",
    "path",
    "dice",
    "zero_rolls",
    "safe_rosettes",
    "rosette_again",
    "capture_again",
    "pieces",
];

/// The reference's five fields, in its order: the spelling of a rule set
/// the reference can play.
pub const REFERENCE_FIELDS: [&str; 5] = ["route", "dice", "zero_rolls", "safe_rosettes", "pieces"];

/// A rule set: the board and path, the dice, the pieces and three switches.
///
/// | field | values | finkel | masters | blitz | aseb |
/// |---|---|---|---|---|---|
/// | board | `standard`, `aseb` | standard | standard | standard | aseb |
/// | path | `bell`, `masters`, `murray`, `skiriuk`, `aseb` | bell | masters | masters | aseb |
/// | dice | 1..8 two-sided dice | 4 | 3 | 4 | 4 |
/// | zero_rolls (what a throw with nothing marked is worth) | 0 or dice+1 (and 4 with 4 dice) | 0 | 4 | 0 | 0 |
/// | safe_rosettes | 0 / 1 | 1 | 0 | 0 | 1 |
/// | rosette_again (landing on a rosette throws again) | 0 / 1 | 1 | 1 | 1 | 1 |
/// | capture_again (capturing throws again) | 0 / 1 | 0 | 0 | 1 | 0 |
/// | pieces | 1..7 | 7 | 7 | 5 | 5 |
///
/// Two more presets are finkel's and masters' with one change each:
/// `finkel2p` (finkel with 2 pieces) and `masters4d` (masters with four
/// dice, a throw of nothing worth 0, as RoyalUr.net's "Masters with four
/// dice"). The board follows from the path (the aseb path is played on the
/// aseb board, the others on the standard one).
///
/// # Text
///
/// Rules text a person writes ([`FromStr`](std::str::FromStr), [`Variant::parse_lenient`],
/// the command line) is a preset's name or the fields that differ from finkel, in any
/// order; `route=short|long` is the reference's spelling of `path=bell|masters`,
/// and when only one of `board` and `path` is given the other follows.
///
/// The record's rules text ([`Display`](std::fmt::Display) /
/// [`Variant::from_rules_line`]) keeps
/// every record the reference engine can play readable by it:
///
/// 1. `finkel` and `masters` are written by name;
/// 2. any other rule set the reference can play (standard board, bell or
///    masters path, 3 or 4 dice, zero_rolls 0 or 4, a rosette throws
///    again, a capture does not) is written as the reference's five fields
///    `route dice zero_rolls safe_rosettes pieces`: `finkel2p` and
///    `masters4d` among them, which the reference plays as custom rule
///    sets;
/// 3. `blitz` and `aseb` are written by name;
/// 4. anything else is written as all eight [`FIELDS`] in their order.
///
/// The record's reader takes a name it writes or the one spelled form of a
/// rule set (so finkel spelled out in five fields reads, and is kept so by
/// records).
///
/// ```
/// use royal_ur::{Path, Variant};
///
/// let v = Variant::custom([("route", "long"), ("pieces", "3")])?;
/// assert_eq!(v.path(), Path::Masters);
/// assert_eq!(v.name(), None);
/// assert_eq!(v.to_string(), "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=3");
/// assert_eq!(v.to_string().parse::<Variant>()?, v);
///
/// let m = Variant::custom([("route", "long"), ("dice", "3"), ("zero_rolls", "4"), ("safe_rosettes", "0")])?;
/// assert_eq!(m, Variant::MASTERS);
/// assert_eq!(m.to_string(), "masters");
///
/// let murray = Variant::parse_lenient("path=murray dice=3")?;
/// assert_eq!(
///     murray.to_string(),
///     "board=standard path=murray dice=3 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=7"
/// );
/// assert_eq!(Variant::parse_lenient("masters4d")?.to_string(), "route=long dice=4 zero_rolls=0 safe_rosettes=0 pieces=7");
/// assert_eq!(Variant::BLITZ.to_string(), "blitz");
/// # Ok::<(), royal_ur::VariantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    path: Path,
    dice: u8,
    zero_rolls: u8,
    safe_rosettes: bool,
    rosette_again: bool,
    capture_again: bool,
    pieces: u8,
}

/// What each field takes, for [`VariantError::BadValue`].
const BOARD_VALUES: &str = "a board is standard or aseb";
const PATH_VALUES: &str = "a path is bell, masters, murray, skiriuk or aseb";
const ROUTE_VALUES: &str = "a route is short (path bell) or long (path masters)";
const DICE_VALUES: &str = "dice is a whole number from 1 to 8";
const ZERO_VALUES: &str = "zero_rolls is 0 or dice+1, one digit (and 4 with four dice)";
const SWITCH_VALUES: &str = "a switch is 0 or 1";
const PIECES_VALUES: &str = "pieces is a whole number from 1 to 7";

/// Whether a throw of nothing may be worth `zero` with `dice` dice: 0 or
/// `dice + 1`, and 4 with four dice (the reference's `dice=4 zero_rolls=4`).
const fn zero_fits(dice: u8, zero: u8) -> bool {
    zero == 0 || zero == dice + 1 || (dice == 4 && zero == 4)
}

impl Variant {
    /// Irving Finkel's rules: bell's path, 4 dice, a throw of nothing moves
    /// nothing, safe rosettes, a rosette throws again, 7 pieces.
    pub const FINKEL: Variant = Variant {
        path: Path::Bell,
        dice: 4,
        zero_rolls: 0,
        safe_rosettes: true,
        rosette_again: true,
        capture_again: false,
        pieces: 7,
    };

    /// James Masters' rules: masters' path, 3 dice, a throw of nothing
    /// moves four, rosettes do not protect, a rosette throws again, 7 pieces.
    pub const MASTERS: Variant = Variant {
        path: Path::Masters,
        dice: 3,
        zero_rolls: 4,
        safe_rosettes: false,
        rosette_again: true,
        capture_again: false,
        pieces: 7,
    };

    /// RoyalUr.net's blitz: masters' path, 4 dice (a throw of nothing moves
    /// nothing), rosettes do not protect, a rosette and a capture both
    /// throw again, 5 pieces.
    pub const BLITZ: Variant = Variant {
        path: Path::Masters,
        dice: 4,
        zero_rolls: 0,
        safe_rosettes: false,
        rosette_again: true,
        capture_again: true,
        pieces: 5,
    };

    /// Aseb: the aseb board and path, 4 dice (a throw of nothing moves
    /// nothing), safe rosettes, a rosette throws again, 5 pieces.
    pub const ASEB: Variant = Variant {
        path: Path::Aseb,
        dice: 4,
        zero_rolls: 0,
        safe_rosettes: true,
        rosette_again: true,
        capture_again: false,
        pieces: 5,
    };

    /// Finkel's rules with 2 pieces a side.
    pub const FINKEL2P: Variant = Variant {
        pieces: 2,
        ..Variant::FINKEL
    };

    /// Masters' rules with four dice (RoyalUr.net's "Masters with four
    /// dice"): a throw of nothing moves nothing.
    pub const MASTERS4D: Variant = Variant {
        dice: 4,
        zero_rolls: 0,
        ..Variant::MASTERS
    };

    /// The presets and their names, sorted by name.
    pub const PRESETS: [(&'static str, Variant); 6] = [
        ("aseb", Variant::ASEB),
        ("blitz", Variant::BLITZ),
        ("finkel", Variant::FINKEL),
        ("finkel2p", Variant::FINKEL2P),
        ("masters", Variant::MASTERS),
        ("masters4d", Variant::MASTERS4D),
    ];

    /// The names of the presets, sorted.
    pub const NAMES: [&'static str; 6] = [
        "aseb",
        "blitz",
        "finkel",
        "finkel2p",
        "masters",
        "masters4d",
    ];

    /// A rule set from the reference's five values, with a rosette
    /// throwing again and a capture not.
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for dice outside 1..8 or pieces outside
    /// 1..7, and [`VariantError::Clash`] for a zero_rolls the dice do not
    /// allow (0 or dice+1, and 4 with four dice).
    pub fn new(
        route: Route,
        dice: u8,
        zero_rolls: u8,
        safe_rosettes: bool,
        pieces: u8,
    ) -> Result<Variant, VariantError> {
        Variant {
            path: route.path(),
            safe_rosettes,
            ..Variant::FINKEL
        }
        .with_dice(dice, zero_rolls)?
        .with_pieces(pieces)
    }

    /// This rule set on another path (the board follows).
    #[must_use]
    pub const fn with_path(mut self, path: Path) -> Variant {
        self.path = path;
        self
    }

    /// This rule set on the path a route names (bell or masters).
    #[must_use]
    pub const fn with_route(self, route: Route) -> Variant {
        self.with_path(route.path())
    }

    /// This rule set with rosettes safe or not.
    #[must_use]
    pub const fn with_safe_rosettes(mut self, safe: bool) -> Variant {
        self.safe_rosettes = safe;
        self
    }

    /// This rule set with a landing on a rosette throwing again or not.
    #[must_use]
    pub const fn with_rosette_again(mut self, again: bool) -> Variant {
        self.rosette_again = again;
        self
    }

    /// This rule set with a capture throwing again or not.
    #[must_use]
    pub const fn with_capture_again(mut self, again: bool) -> Variant {
        self.capture_again = again;
        self
    }

    /// This rule set with another number of pieces a side.
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for pieces outside 1..7.
    pub fn with_pieces(mut self, pieces: u8) -> Result<Variant, VariantError> {
        if !(1..=PIECES_MAX).contains(&pieces) {
            return Err(VariantError::BadValue {
                field: "pieces",
                value: pieces.to_string(),
                allowed: PIECES_VALUES,
            });
        }
        self.pieces = pieces;
        Ok(self)
    }

    /// This rule set with other dice: `dice` two-sided dice (1..8), a throw
    /// with nothing marked worth `zero_rolls` (0 or dice+1, and 4 with four
    /// dice).
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for dice outside 1..8 and
    /// [`VariantError::Clash`] for a zero_rolls the dice do not allow.
    pub fn with_dice(mut self, dice: u8, zero_rolls: u8) -> Result<Variant, VariantError> {
        if !(1..=MAX_DICE).contains(&dice) {
            return Err(VariantError::BadValue {
                field: "dice",
                value: dice.to_string(),
                allowed: DICE_VALUES,
            });
        }
        if !zero_fits(dice, zero_rolls) {
            return Err(VariantError::Clash {
                first: format!("dice={dice}"),
                second: format!("zero_rolls={zero_rolls}"),
                why: "a throw with nothing marked is worth 0 or one more than the dice \
                      (and 4 with four dice)",
            });
        }
        self.dice = dice;
        self.zero_rolls = zero_rolls;
        Ok(self)
    }

    /// The board: the aseb board for the aseb path, else the standard one.
    #[must_use]
    pub const fn board(&self) -> BoardShape {
        self.path.board()
    }

    /// The path.
    #[must_use]
    pub const fn path(&self) -> Path {
        self.path
    }

    /// The reference's route, for the bell (`short`) and masters (`long`)
    /// paths.
    #[must_use]
    pub const fn route(&self) -> Option<Route> {
        self.path.route()
    }

    /// How many dice a throw uses: 1 to 8.
    #[must_use]
    pub const fn dice(&self) -> u8 {
        self.dice
    }

    /// What a throw with nothing marked is worth: 0, dice+1, or 4 with four
    /// dice.
    #[must_use]
    pub const fn zero_rolls(&self) -> u8 {
        self.zero_rolls
    }

    /// Whether a piece on a rosette cannot be captured.
    #[must_use]
    pub const fn safe_rosettes(&self) -> bool {
        self.safe_rosettes
    }

    /// Whether a piece landing on a rosette earns another throw.
    #[must_use]
    pub const fn rosette_again(&self) -> bool {
        self.rosette_again
    }

    /// Whether a capture earns another throw. A capture on a rosette (with
    /// rosettes that do not protect) earns one throw, not two.
    #[must_use]
    pub const fn capture_again(&self) -> bool {
        self.capture_again
    }

    /// Pieces a side, 1..7; a side wins when this many are home.
    #[must_use]
    pub const fn pieces(&self) -> u8 {
        self.pieces
    }

    /// Whether the reference engine can play this rule set: the standard
    /// board, the bell or masters path (its short and long routes), 3 or 4
    /// dice, zero_rolls 0 or 4, a rosette throwing again and a capture not.
    /// Everything such a rule set does (throws, positions, keys, moves,
    /// records, the bot) is the reference's, byte for byte.
    #[must_use]
    pub const fn is_reference(&self) -> bool {
        self.path.route().is_some()
            && (self.dice == 3 || self.dice == 4)
            && (self.zero_rolls == 0 || self.zero_rolls == 4)
            && self.rosette_again
            && !self.capture_again
    }

    /// Whether the side that made a move with these flags throws again:
    /// it landed on a rosette and a rosette throws again, or it captured
    /// and a capture throws again (one extra throw when both hold). A move
    /// home is neither.
    ///
    /// ```
    /// use royal_ur::{Flags, Variant};
    ///
    /// let capture = Flags { captures: true, rosette: false, home: false };
    /// assert!(!Variant::FINKEL.throws_again(capture));
    /// assert!(Variant::BLITZ.throws_again(capture));
    /// let rosette = Flags { captures: false, rosette: true, home: false };
    /// assert!(Variant::FINKEL.throws_again(rosette));
    /// assert!(!Variant::FINKEL.with_rosette_again(false).throws_again(rosette));
    /// ```
    #[must_use]
    #[inline]
    pub const fn throws_again(&self, flags: Flags) -> bool {
        (flags.rosette && self.rosette_again) || (flags.captures && self.capture_again)
    }
}

impl Default for Variant {
    /// Finkel's rules.
    fn default() -> Variant {
        Variant::FINKEL
    }
}

dice_core::serde_via_text!(Variant);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_royalur_s_values() {
        let spelled = |v: Variant| v.fields().map(|(f, x)| format!("{f}={x}")).join(" ");
        assert_eq!(
            spelled(Variant::BLITZ),
            "board=standard path=masters dice=4 zero_rolls=0 safe_rosettes=0 rosette_again=1 capture_again=1 pieces=5"
        );
        assert_eq!(
            spelled(Variant::ASEB),
            "board=aseb path=aseb dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=5"
        );
        assert_eq!(
            Variant::FINKEL2P.to_string(),
            "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2"
        );
        assert_eq!(
            Variant::MASTERS4D.to_string(),
            "route=long dice=4 zero_rolls=0 safe_rosettes=0 pieces=7"
        );
        assert_eq!(Variant::MASTERS4D.preset(), Some("masters4d"));
        assert_eq!(Variant::MASTERS4D.name(), None);
        for (name, v) in Variant::PRESETS {
            let reference = matches!(name, "finkel" | "masters" | "finkel2p" | "masters4d");
            assert_eq!(v.is_reference(), reference, "{name}");
        }
    }

    #[test]
    fn zero_rolls_is_none_or_one_more_than_the_dice() {
        for dice in 1..=8u8 {
            for zero in 0..=9u8 {
                let fits = zero == 0 || zero == dice + 1 || (dice, zero) == (4, 4);
                let v = Variant::custom([
                    ("dice", dice.to_string().as_str()),
                    ("zero_rolls", zero.to_string().as_str()),
                ]);
                assert_eq!(v.is_ok(), fits, "{dice} {zero}");
                if let Ok(v) = v {
                    let total: u32 = v.chances().iter().map(|c| u32::from(c.weight)).sum();
                    assert_eq!(total, 1 << dice);
                    assert!(v.chances().iter().all(|c| c.denominator == 1 << dice));
                    assert!(v.chances().windows(2).all(|w| w[0].roll < w[1].roll));
                    assert_eq!(v.chances().last().map(|c| c.roll), Some(v.max_roll()));
                    assert_eq!(v.roll_limit(), v.max_roll().max(4));
                } else {
                    assert_eq!(v.unwrap_err().code(), "clash");
                }
            }
        }
        // Either order: the pair is judged once both are read.
        assert!(Variant::custom([("zero_rolls", "9"), ("dice", "8")]).is_ok());
        assert_eq!(
            Variant::MASTERS.with_field("dice", "5").unwrap_err().code(),
            "clash"
        );
    }
}
