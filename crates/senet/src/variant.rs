//! Rule sets: kendall, skyruk, and custom ones from the seven fields.

use dice_core::{Chance, ReadRules, VariantError, read_rules};

/// Which pieces of a run are protected from a swap.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protect {
    /// Every piece of a run of two or more (`all`, kendall).
    All,
    /// The first and the last piece of a run of two or more (`ends`, skyruk).
    Ends,
}

/// How long a run must be to block the other side.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blockade {
    /// Three in a row (`3`, kendall).
    Three,
    /// Two in a row (`2`, skyruk).
    Two,
}

/// How a piece reaches house 26.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach26 {
    /// Only on the exact roll (`exact`, kendall).
    Exact,
    /// On the exact roll, or from house 25 on any roll (`from25`, skyruk).
    From25,
}

/// What reaching house 26 earns.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum On26 {
    /// Nothing more (`none`, kendall).
    None,
    /// One more throw, bound to the piece on 26 (`again`, skyruk).
    Again,
}

/// What house 27, the water, does.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Water {
    /// A piece entering it goes back to rebirth at once (`reborn`, kendall).
    Reborn,
    /// A piece stands on it and leaves by a later throw; an occupied
    /// 28..30 or 27 diverts a move from 26 (`stand`, skyruk).
    Stand,
}

/// How a piece leaves from house 30.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Off30 {
    /// Only on a roll of 1 (`one`, kendall).
    One,
    /// On any roll (`any`, skyruk).
    Any,
}

/// Pieces a side.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pieces {
    /// Five a side (both named sets).
    Five,
    /// Seven a side.
    Seven,
}

impl Pieces {
    /// The number: 5 or 7.
    #[must_use]
    pub const fn count(self) -> u8 {
        match self {
            Pieces::Five => 5,
            Pieces::Seven => 7,
        }
    }
}

/// A rule set: the seven fields of the rules, always in this order.
///
/// A variant whose fields equal kendall's or skyruk's (five pieces) is named
/// and written by its name; any other is written as its fields (the
/// record's rules text, [`Display`](std::fmt::Display), read back by
/// [`Variant::from_rules_line`]). [`FromStr`](std::str::FromStr) reads rules as a person
/// writes them: a name, or the fields that differ from kendall.
///
/// ```
/// use senet::{Pieces, Variant};
///
/// assert_eq!(Variant::KENDALL.to_string(), "kendall");
/// let seven: Variant = "pieces=7".parse().unwrap();
/// assert_eq!(seven, Variant::KENDALL.with_pieces(Pieces::Seven));
/// assert_eq!(seven.name(), None);
/// assert_eq!(
///     seven.to_string(),
///     "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=7"
/// );
/// assert_eq!(Variant::from_rules_line(&seven.to_string()).unwrap(), seven);
/// assert_eq!("skyruk".parse::<Variant>().unwrap(), Variant::SKYRUK);
/// assert_eq!("chess".parse::<Variant>().unwrap_err().code(), "unknown_name");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Which pieces of a run are protected.
    pub protect: Protect,
    /// The shortest run that blocks.
    pub blockade: Blockade,
    /// How house 26 is reached.
    pub reach26: Reach26,
    /// What reaching 26 earns.
    pub on26: On26,
    /// What the water does.
    pub water: Water,
    /// How a piece leaves from 30.
    pub off30: Off30,
    /// Pieces a side.
    pub pieces: Pieces,
}

const fn ch(roll: u8, weight: u16) -> Chance {
    Chance {
        roll,
        weight,
        denominator: 16,
    }
}

/// What the four sticks can roll, 1 to 5, and how many of the sixteen ways
/// they fall make each: a roll is the count of marked faces, and none
/// marked rolls 5. Every rule set throws the same sticks.
///
/// ```
/// let total: u32 = senet::CHANCES.iter().map(|c| u32::from(c.weight)).sum();
/// assert_eq!(total, 16);
/// assert_eq!(senet::CHANCES[4].roll, 5); // none marked
/// ```
pub const CHANCES: [Chance; 5] = [ch(1, 4), ch(2, 6), ch(3, 4), ch(4, 1), ch(5, 1)];

/// The names of the seven fields, in record order.
pub const FIELDS: [&str; 7] = [
    "protect", "blockade", "reach26", "on26", "water", "off30", "pieces",
];

impl Variant {
    /// Timothy Kendall's reconstruction as modern sets play it (the default).
    pub const KENDALL: Variant = Variant {
        protect: Protect::All,
        blockade: Blockade::Three,
        reach26: Reach26::Exact,
        on26: On26::None,
        water: Water::Reborn,
        off30: Off30::One,
        pieces: Pieces::Five,
    };

    /// The reconstruction published with gym-senet.
    pub const SKYRUK: Variant = Variant {
        protect: Protect::Ends,
        blockade: Blockade::Two,
        reach26: Reach26::From25,
        on26: On26::Again,
        water: Water::Stand,
        off30: Off30::Any,
        pieces: Pieces::Five,
    };

    /// The same rules with another number of pieces.
    #[must_use]
    pub const fn with_pieces(self, pieces: Pieces) -> Variant {
        Variant { pieces, ..self }
    }

    /// `kendall` or `skyruk` when the fields equal that set, else `None`.
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        if *self == Variant::KENDALL {
            Some("kendall")
        } else if *self == Variant::SKYRUK {
            Some("skyruk")
        } else {
            None
        }
    }

    /// The rule set with this name: `kendall` or `skyruk`.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for any other name.
    pub fn named(name: &str) -> Result<Variant, VariantError> {
        match name {
            "kendall" => Ok(Variant::KENDALL),
            "skyruk" => Ok(Variant::SKYRUK),
            _ => Err(VariantError::UnknownName {
                name: name.to_owned(),
                names: "kendall, skyruk",
            }),
        }
    }

    /// What the sticks can roll and how often, in ascending order of roll
    /// ([`CHANCES`], the same under every rule set).
    #[must_use]
    pub const fn chances(&self) -> &'static [Chance] {
        &CHANCES
    }

    /// Pieces a side, as a number.
    #[must_use]
    pub const fn piece_count(&self) -> u8 {
        self.pieces.count()
    }

    /// These rules with one field set from its text, e.g. `("water", "stand")`:
    /// the way to build a rule set from fields given in any order.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownField`] for an unknown field name,
    /// [`VariantError::BadValue`] for a value the field does not take.
    ///
    /// ```
    /// use senet::Variant;
    ///
    /// let v = Variant::KENDALL.with_field("water", "stand").unwrap();
    /// assert_eq!(v.to_string(), "protect=all blockade=3 reach26=exact on26=none water=stand off30=one pieces=5");
    /// assert_eq!(Variant::KENDALL.with_field("colour", "red").unwrap_err().code(), "unknown_field");
    /// ```
    pub fn with_field(self, field: &str, value: &str) -> Result<Variant, VariantError> {
        let bad = |field: &'static str, allowed: &'static str| VariantError::BadValue {
            field,
            value: value.to_owned(),
            allowed,
        };
        let mut v = self;
        match field {
            "protect" => {
                v.protect = match value {
                    "all" => Protect::All,
                    "ends" => Protect::Ends,
                    _ => return Err(bad("protect", "all or ends")),
                }
            }
            "blockade" => {
                v.blockade = match value {
                    "3" => Blockade::Three,
                    "2" => Blockade::Two,
                    _ => return Err(bad("blockade", "3 or 2")),
                }
            }
            "reach26" => {
                v.reach26 = match value {
                    "exact" => Reach26::Exact,
                    "from25" => Reach26::From25,
                    _ => return Err(bad("reach26", "exact or from25")),
                }
            }
            "on26" => {
                v.on26 = match value {
                    "none" => On26::None,
                    "again" => On26::Again,
                    _ => return Err(bad("on26", "none or again")),
                }
            }
            "water" => {
                v.water = match value {
                    "reborn" => Water::Reborn,
                    "stand" => Water::Stand,
                    _ => return Err(bad("water", "reborn or stand")),
                }
            }
            "off30" => {
                v.off30 = match value {
                    "one" => Off30::One,
                    "any" => Off30::Any,
                    _ => return Err(bad("off30", "one or any")),
                }
            }
            "pieces" => {
                v.pieces = match value {
                    "5" => Pieces::Five,
                    "7" => Pieces::Seven,
                    _ => return Err(bad("pieces", "5 or 7")),
                }
            }
            _ => return Err(unknown_field(field)),
        }
        Ok(v)
    }

    /// Reads rules as a person writes them: a name, or the fields that
    /// differ from kendall as `name=value`, in any order, separated by
    /// spaces; the same as [`FromStr`](std::str::FromStr). (A record's rules line is stricter:
    /// see [`Variant::from_rules_line`].)
    ///
    /// ```
    /// use senet::{Pieces, Variant, Water};
    ///
    /// assert_eq!(Variant::parse_lenient("skyruk")?, Variant::SKYRUK);
    /// let v = Variant::parse_lenient("pieces=7 water=stand")?;
    /// assert_eq!((v.pieces, v.water), (Pieces::Seven, Water::Stand));
    /// assert_eq!(v.protect, Variant::KENDALL.protect);
    /// assert_eq!(Variant::parse_lenient("water=stand water=reborn").unwrap_err().code(), "repeated_field");
    /// assert_eq!(Variant::parse_lenient("colour=red").unwrap_err().code(), "unknown_field");
    /// # Ok::<(), senet::VariantError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for a word that names no rule set,
    /// [`VariantError::UnknownField`] for a field that does not exist (or a
    /// word that is not `name=value` among fields),
    /// [`VariantError::RepeatedField`] for a field given twice and
    /// [`VariantError::BadValue`] for a value a field does not take.
    pub fn parse_lenient(text: &str) -> Result<Variant, VariantError> {
        read_rules(text)
    }

    /// The seven fields spelled out, `protect=all blockade=3 ...`, even for a
    /// named set.
    #[must_use]
    pub fn spelled_out(&self) -> String {
        let values = [
            match self.protect {
                Protect::All => "all",
                Protect::Ends => "ends",
            },
            match self.blockade {
                Blockade::Three => "3",
                Blockade::Two => "2",
            },
            match self.reach26 {
                Reach26::Exact => "exact",
                Reach26::From25 => "from25",
            },
            match self.on26 {
                On26::None => "none",
                On26::Again => "again",
            },
            match self.water {
                Water::Reborn => "reborn",
                Water::Stand => "stand",
            },
            match self.off30 {
                Off30::One => "one",
                Off30::Any => "any",
            },
            match self.pieces {
                Pieces::Five => "5",
                Pieces::Seven => "7",
            },
        ];
        let mut out = String::new();
        for (i, (field, value)) in FIELDS.iter().zip(values).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(field);
            out.push('=');
            out.push_str(value);
        }
        out
    }
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::KENDALL
    }
}

dice_core::rules_text! {
    /// Reads rules as a person writes them, as the command line reads them:
    /// a name, or the fields that differ from kendall in any order
    /// ([`Variant::parse_lenient`]). A record's rules line is read strictly,
    /// by [`Variant::from_rules_line`].
    ///
    /// ```
    /// use senet::{Pieces, Variant};
    ///
    /// assert_eq!("skyruk".parse::<Variant>()?, Variant::SKYRUK);
    /// assert_eq!("pieces=7".parse::<Variant>()?, Variant::KENDALL.with_pieces(Pieces::Seven));
    /// # Ok::<(), senet::VariantError>(())
    /// ```
    Variant
}

impl Variant {
    /// Reads a record's rules text, strictly: a name, or all seven fields
    /// in record order, one space apart.
    ///
    /// ```
    /// use senet::Variant;
    ///
    /// assert_eq!(Variant::from_rules_line("kendall")?, Variant::KENDALL);
    /// // What a person may write is not a record's spelling.
    /// assert_eq!(Variant::from_rules_line("pieces=7").unwrap_err().code(), "rules");
    /// # Ok::<(), senet::VariantError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for a word that names no rule set,
    /// [`VariantError::UnknownField`] for a field Senet does not have,
    /// [`VariantError::NotSpelledOut`] (`rules`) for fields not all seven in
    /// order, and a field's own error for a value it does not take.
    pub fn from_rules_line(text: &str) -> Result<Variant, VariantError> {
        if !text.contains('=') {
            return Variant::named(text);
        }
        let parts: Vec<&str> = text.split(' ').collect();
        let mut v = Variant::KENDALL;
        for (i, part) in parts.iter().enumerate() {
            let Some((field, value)) = part.split_once('=') else {
                return Err(not_spelled_out(text));
            };
            if !FIELDS.contains(&field) {
                return Err(unknown_field(field));
            }
            if FIELDS.get(i) != Some(&field) {
                return Err(not_spelled_out(text));
            }
            v = v.with_field(field, value)?;
        }
        if parts.len() != FIELDS.len() {
            return Err(not_spelled_out(text));
        }
        Ok(v)
    }
}

dice_core::serde_via_text!(Variant);

/// The error for a field Senet does not have.
fn unknown_field(field: &str) -> VariantError {
    VariantError::UnknownField {
        field: field.to_owned(),
        fields: <Variant as ReadRules>::FIELDS,
    }
}

/// The error for a record's rules that are neither a name nor the seven
/// fields in order.
fn not_spelled_out(text: &str) -> VariantError {
    VariantError::NotSpelledOut {
        text: text.to_owned(),
        spelling: "all seven fields in the order protect blockade reach26 on26 water off30 pieces",
    }
}

/// Rules a person writes: `kendall`, `skyruk`, or the fields that differ
/// from kendall in any order.
impl ReadRules for Variant {
    const FIELDS: &'static str = "protect, blockade, reach26, on26, water, off30, pieces";

    fn named(name: &str) -> Result<Variant, VariantError> {
        Variant::named(name)
    }

    fn with_field(self, field: &str, value: &str) -> Result<Variant, VariantError> {
        Variant::with_field(self, field, value)
    }
}
