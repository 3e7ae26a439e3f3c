//! Rule sets: finkel, masters and custom ones.

use std::fmt;
use std::str::FromStr;

use dice_core::{Chance, ReadRules, VariantError, read_rules};

use crate::Route;

/// The most pieces a side can have.
pub const PIECES_MAX: u8 = 7;

/// The five fields of a rule set, in their canonical order.
pub const FIELDS: [&str; 5] = ["route", "dice", "zero_rolls", "safe_rosettes", "pieces"];

/// A rule set: five fields, always written in the order
/// `route dice zero_rolls safe_rosettes pieces`.
///
/// | field | allowed | finkel | masters |
/// |---|---|---|---|
/// | route | `short` / `long` | short | long |
/// | dice | 3 / 4 | 4 | 3 |
/// | zero_rolls (what an all-unmarked throw is worth) | 0 / 4 | 0 | 4 |
/// | safe_rosettes | 0 / 1 | 1 | 0 |
/// | pieces | 1..7 | 7 | 7 |
///
/// Fields that a custom rule set leaves out take finkel's values. A rule set
/// is named (`finkel`, `masters`) whenever its five values equal that set's,
/// however it was built. The text form ([`Display`](fmt::Display) /
/// [`FromStr`]) is the record's rules text: the name, or exactly the five
/// `name=value` fields in canonical order.
///
/// ```
/// use royal_ur::{Route, Variant};
///
/// let v = Variant::custom([("route", "long"), ("pieces", "3")])?;
/// assert_eq!(v.route(), Route::Long);
/// assert_eq!(v.name(), None);
/// assert_eq!(v.to_string(), "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=3");
/// assert_eq!(v.to_string().parse::<Variant>()?, v);
///
/// let m = Variant::custom([("route", "long"), ("dice", "3"), ("zero_rolls", "4"), ("safe_rosettes", "0")])?;
/// assert_eq!(m, Variant::MASTERS);
/// assert_eq!(m.to_string(), "masters");
/// # Ok::<(), royal_ur::VariantError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    route: Route,
    dice: u8,
    zero_rolls: u8,
    safe_rosettes: bool,
    pieces: u8,
}

const fn ch(roll: u8, weight: u8, denominator: u8) -> Chance {
    Chance {
        roll,
        weight,
        denominator,
    }
}

const CHANCES_4_0: [Chance; 5] = [
    ch(0, 1, 16),
    ch(1, 4, 16),
    ch(2, 6, 16),
    ch(3, 4, 16),
    ch(4, 1, 16),
];
const CHANCES_4_4: [Chance; 4] = [ch(1, 4, 16), ch(2, 6, 16), ch(3, 4, 16), ch(4, 2, 16)];
const CHANCES_3_0: [Chance; 4] = [ch(0, 1, 8), ch(1, 3, 8), ch(2, 3, 8), ch(3, 1, 8)];
const CHANCES_3_4: [Chance; 4] = [ch(1, 3, 8), ch(2, 3, 8), ch(3, 1, 8), ch(4, 1, 8)];

/// Rules a person writes: `finkel`, `masters`, or the fields that differ
/// from finkel in any order.
impl ReadRules for Variant {
    const FIELDS: &'static str = "route, dice, zero_rolls, safe_rosettes, pieces";

    fn named(name: &str) -> Result<Variant, VariantError> {
        Variant::named(name)
    }

    fn with_field(self, field: &str, value: &str) -> Result<Variant, VariantError> {
        Variant::with_field(self, field, value)
    }
}

impl Variant {
    /// Irving Finkel's rules: short route, 4 dice, a throw of nothing moves
    /// nothing, safe rosettes, 7 pieces.
    pub const FINKEL: Variant = Variant {
        route: Route::Short,
        dice: 4,
        zero_rolls: 0,
        safe_rosettes: true,
        pieces: 7,
    };

    /// James Masters' rules: long route, 3 dice, a throw of nothing moves
    /// four, rosettes do not protect, 7 pieces.
    pub const MASTERS: Variant = Variant {
        route: Route::Long,
        dice: 3,
        zero_rolls: 4,
        safe_rosettes: false,
        pieces: 7,
    };

    /// The names of the named rule sets, sorted.
    pub const NAMES: [&'static str; 2] = ["finkel", "masters"];

    /// A rule set from its five values.
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for dice other than 3 or 4, zero_rolls other
    /// than 0 or 4, or pieces outside 1..7.
    pub fn new(
        route: Route,
        dice: u8,
        zero_rolls: u8,
        safe_rosettes: bool,
        pieces: u8,
    ) -> Result<Variant, VariantError> {
        let bad = |field: &'static str, allowed: &'static str, value: u8| VariantError::BadValue {
            field,
            value: value.to_string(),
            allowed,
        };
        if dice != 3 && dice != 4 {
            return Err(bad("dice", "3 or 4", dice));
        }
        if zero_rolls != 0 && zero_rolls != 4 {
            return Err(bad("zero_rolls", "0 or 4", zero_rolls));
        }
        if !(1..=PIECES_MAX).contains(&pieces) {
            return Err(bad("pieces", "1 to 7", pieces));
        }
        Ok(Variant {
            route,
            dice,
            zero_rolls,
            safe_rosettes,
            pieces,
        })
    }

    /// The rule set with this name: `finkel` or `masters`.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for any other name.
    pub fn named(name: &str) -> Result<Variant, VariantError> {
        match name {
            "finkel" => Ok(Variant::FINKEL),
            "masters" => Ok(Variant::MASTERS),
            _ => Err(unknown_name(name)),
        }
    }

    /// A rule set from `field, value` pairs as text, in any order; fields
    /// left out take finkel's values (a later pair wins over an earlier one).
    ///
    /// Values: route `short`/`long`, dice `3`/`4`, zero_rolls `0`/`4`,
    /// safe_rosettes `0`/`1`, pieces `1`..`7`.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownField`] for a field that does not exist and
    /// [`VariantError::BadValue`] for a value a field may not take.
    pub fn custom<'a>(
        fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Variant, VariantError> {
        let mut v = Variant::FINKEL;
        for (field, value) in fields {
            v = v.with_field(field, value)?;
        }
        Ok(v)
    }

    /// Reads rules as a person writes them: a name, or the fields that
    /// differ from finkel as `name=value`, in any order, separated by
    /// spaces. (A record's rules line is stricter: see [`FromStr`].)
    ///
    /// ```
    /// use royal_ur::{Route, Variant};
    ///
    /// assert_eq!(Variant::parse_lenient("masters")?, Variant::MASTERS);
    /// let v = Variant::parse_lenient("pieces=5 route=long")?;
    /// assert_eq!((v.route(), v.pieces(), v.dice()), (Route::Long, 5, 4));
    /// assert_eq!(v.to_string(), "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5");
    /// assert_eq!(Variant::parse_lenient("pieces=3 pieces=4").unwrap_err().code(), "repeated_field");
    /// assert_eq!(Variant::parse_lenient("colour=red").unwrap_err().code(), "unknown_field");
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for a word that names no rule set,
    /// [`VariantError::UnknownField`] for a field that does not exist (or a
    /// word that is not `name=value` among fields),
    /// [`VariantError::RepeatedField`] for a field given twice and
    /// [`VariantError::BadValue`] for a value a field may not take.
    pub fn parse_lenient(text: &str) -> Result<Variant, VariantError> {
        read_rules(text)
    }

    /// This rule set with one field set from text.
    ///
    /// # Errors
    ///
    /// As [`Variant::custom`].
    pub fn with_field(mut self, field: &str, value: &str) -> Result<Variant, VariantError> {
        let (name, allowed, ok) = match field {
            "route" => (
                "route",
                "short or long",
                value.parse().map(|r| self.route = r).is_ok(),
            ),
            "dice" => ("dice", "3 or 4", matches!(value, "3" | "4")),
            "zero_rolls" => ("zero_rolls", "0 or 4", matches!(value, "0" | "4")),
            "safe_rosettes" => ("safe_rosettes", "0 or 1", matches!(value, "0" | "1")),
            "pieces" => (
                "pieces",
                "1 to 7",
                matches!(value, "1" | "2" | "3" | "4" | "5" | "6" | "7"),
            ),
            _ => {
                return Err(VariantError::UnknownField {
                    field: field.to_owned(),
                    fields: <Variant as ReadRules>::FIELDS,
                });
            }
        };
        if !ok {
            return Err(VariantError::BadValue {
                field: name,
                value: value.to_owned(),
                allowed,
            });
        }
        let digit = value.bytes().next().map_or(0, |b| b.wrapping_sub(b'0'));
        match name {
            "dice" => self.dice = digit,
            "zero_rolls" => self.zero_rolls = digit,
            "safe_rosettes" => self.safe_rosettes = digit == 1,
            "pieces" => self.pieces = digit,
            _ => {}
        }
        Ok(self)
    }

    /// This rule set on another route.
    #[must_use]
    pub const fn with_route(mut self, route: Route) -> Variant {
        self.route = route;
        self
    }

    /// This rule set with rosettes safe or not.
    #[must_use]
    pub const fn with_safe_rosettes(mut self, safe: bool) -> Variant {
        self.safe_rosettes = safe;
        self
    }

    /// This rule set with another number of pieces a side.
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for pieces outside 1..7.
    pub fn with_pieces(self, pieces: u8) -> Result<Variant, VariantError> {
        Variant::new(
            self.route,
            self.dice,
            self.zero_rolls,
            self.safe_rosettes,
            pieces,
        )
    }

    /// This rule set with other dice.
    ///
    /// # Errors
    ///
    /// [`VariantError::BadValue`] for dice other than 3 or 4, or zero_rolls
    /// other than 0 or 4.
    pub fn with_dice(self, dice: u8, zero_rolls: u8) -> Result<Variant, VariantError> {
        Variant::new(
            self.route,
            dice,
            zero_rolls,
            self.safe_rosettes,
            self.pieces,
        )
    }

    /// The route.
    #[must_use]
    pub const fn route(&self) -> Route {
        self.route
    }

    /// How many dice a throw uses: 3 or 4.
    #[must_use]
    pub const fn dice(&self) -> u8 {
        self.dice
    }

    /// What a throw with nothing marked is worth: 0 or 4.
    #[must_use]
    pub const fn zero_rolls(&self) -> u8 {
        self.zero_rolls
    }

    /// Whether a piece on a rosette cannot be captured.
    #[must_use]
    pub const fn safe_rosettes(&self) -> bool {
        self.safe_rosettes
    }

    /// Pieces a side, 1..7; a side wins when this many are home.
    #[must_use]
    pub const fn pieces(&self) -> u8 {
        self.pieces
    }

    /// `finkel` or `masters` when all five values equal that set's, else
    /// `None`.
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        if *self == Variant::FINKEL {
            Some("finkel")
        } else if *self == Variant::MASTERS {
            Some("masters")
        } else {
            None
        }
    }

    /// The five fields spelled out, e.g.
    /// `route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=7`, even for a
    /// named set (the reference's `describe`).
    #[must_use]
    pub fn spelled_out(&self) -> String {
        format!(
            "route={} dice={} zero_rolls={} safe_rosettes={} pieces={}",
            self.route,
            self.dice,
            self.zero_rolls,
            u8::from(self.safe_rosettes),
            self.pieces
        )
    }

    /// The five fields as `(name, value)` text pairs, in canonical order.
    #[must_use]
    pub fn fields(&self) -> [(&'static str, String); 5] {
        [
            ("route", self.route.to_string()),
            ("dice", self.dice.to_string()),
            ("zero_rolls", self.zero_rolls.to_string()),
            ("safe_rosettes", u8::from(self.safe_rosettes).to_string()),
            ("pieces", self.pieces.to_string()),
        ]
    }

    /// What the dice can roll and how often, in ascending order of roll.
    ///
    /// ```
    /// use royal_ur::Variant;
    ///
    /// let rolls: Vec<(u8, u8)> = Variant::MASTERS.chances().iter().map(|c| (c.roll, c.weight)).collect();
    /// assert_eq!(rolls, [(1, 3), (2, 3), (3, 1), (4, 1)]);
    /// ```
    #[must_use]
    pub const fn chances(&self) -> &'static [Chance] {
        match (self.dice, self.zero_rolls) {
            (4, 0) => &CHANCES_4_0,
            (4, _) => &CHANCES_4_4,
            (_, 0) => &CHANCES_3_0,
            _ => &CHANCES_3_4,
        }
    }

    /// What a throw with `marked` dice marked is worth: the count, except
    /// that 0 is worth `zero_rolls`.
    #[must_use]
    pub const fn roll_of(&self, marked: u8) -> u8 {
        if marked == 0 { self.zero_rolls } else { marked }
    }
}

impl Default for Variant {
    /// Finkel's rules.
    fn default() -> Variant {
        Variant::FINKEL
    }
}

impl fmt::Display for Variant {
    /// The record's rules text: the name, or the five fields spelled out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => f.write_str(&self.spelled_out()),
        }
    }
}

/// The error for a name no rule set has.
fn unknown_name(name: &str) -> VariantError {
    VariantError::UnknownName {
        name: name.to_owned(),
        names: "finkel, masters",
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// Reads a name, or exactly the five `name=value` fields in canonical
    /// order, one space apart (the record's rules text).
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        if let Ok(v) = Variant::named(s) {
            return Ok(v);
        }
        let not = || VariantError::NotSpelledOut {
            text: s.to_owned(),
            spelling: "the five fields route, dice, zero_rolls, safe_rosettes, pieces in that order",
        };
        let parts: Vec<&str> = s.split(' ').collect();
        if parts.len() != FIELDS.len() {
            return Err(if s.contains('=') {
                not()
            } else {
                unknown_name(s)
            });
        }
        let mut v = Variant::FINKEL;
        for (part, want) in parts.into_iter().zip(FIELDS) {
            let (field, value) = part.split_once('=').ok_or_else(not)?;
            if field != want {
                return Err(not());
            }
            v = v.with_field(field, value)?;
        }
        Ok(v)
    }
}

dice_core::serde_via_text!(Variant);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_and_descriptions() {
        assert_eq!(Variant::named("finkel"), Ok(Variant::FINKEL));
        assert_eq!(
            Variant::named("Finkel").unwrap_err(),
            unknown_name("Finkel")
        );
        assert_eq!(
            Variant::FINKEL.spelled_out(),
            "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=7"
        );
        assert_eq!(
            Variant::MASTERS.spelled_out(),
            "route=long dice=3 zero_rolls=4 safe_rosettes=0 pieces=7"
        );
        assert_eq!(Variant::default().name(), Some("finkel"));
    }

    #[test]
    fn custom_reads_what_differs_from_finkel() {
        let v = Variant::custom([("route", "long")]).unwrap();
        assert_eq!(
            v.to_string(),
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=7"
        );
        assert_eq!(Variant::custom([]).unwrap(), Variant::FINKEL);
        assert_eq!(
            Variant::custom([("safe_rosette", "1")]),
            Err(VariantError::UnknownField {
                field: "safe_rosette".into(),
                fields: "route, dice, zero_rolls, safe_rosettes, pieces"
            })
        );
        for (field, value) in [
            ("dice", "5"),
            ("pieces", "0"),
            ("pieces", "8"),
            ("route", "Long"),
            ("zero_rolls", "2"),
            ("safe_rosettes", "true"),
        ] {
            let err = Variant::custom([(field, value)]).unwrap_err();
            assert_eq!(err.code(), "bad_value", "{field}={value}");
            assert!(err.to_string().contains(value));
        }
    }

    #[test]
    fn rules_text_is_strict() {
        for good in [
            "finkel",
            "masters",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5",
        ] {
            assert_eq!(good.parse::<Variant>().unwrap().to_string(), good);
        }
        assert_eq!(
            "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=7"
                .parse::<Variant>()
                .unwrap()
                .to_string(),
            "finkel"
        );
        for bad in [
            "dice=4 route=long zero_rolls=0 safe_rosettes=1 pieces=5",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5 pieces=5",
            "route=long  dice=4 zero_rolls=0 safe_rosettes=1",
            "route=long dice=5 zero_rolls=0 safe_rosettes=1 pieces=5",
            "",
            "bell",
        ] {
            assert!(bad.parse::<Variant>().is_err(), "{bad}");
        }
    }

    #[test]
    fn chances_tables() {
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
        for v in [Variant::FINKEL, Variant::MASTERS] {
            let total: u32 = v.chances().iter().map(|c| u32::from(c.weight)).sum();
            assert_eq!(total, 1 << v.dice());
        }
    }
}
