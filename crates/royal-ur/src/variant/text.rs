//! Rules text: what a person writes, and the record's rules line.

use dice_core::{MAX_DICE, ReadRules, VariantError, read_rules};

use super::{
    BOARD_VALUES, DICE_VALUES, FIELDS, PATH_VALUES, PIECES_MAX, PIECES_VALUES, REFERENCE_FIELDS,
    ROUTE_VALUES, SWITCH_VALUES, Variant, ZERO_VALUES, zero_fits,
};
use crate::{BoardShape, Path, Route};

/// Rules a person writes: a preset's name, or the fields that differ from
/// finkel in any order.
impl ReadRules for Variant {
    const FIELDS: &'static str = "board, path (or route), dice, zero_rolls, safe_rosettes, \
                                  rosette_again, capture_again, pieces";

    fn named(name: &str) -> Result<Variant, VariantError> {
        Variant::named(name)
    }

    fn with_field(self, field: &str, value: &str) -> Result<Variant, VariantError> {
        Variant::with_field(self, field, value)
    }

    /// All the fields are read before any two are judged together, so
    /// `zero_rolls=6 dice=5` reads as well as `dice=5 zero_rolls=6`.
    fn from_fields(fields: &[(&str, &str)]) -> Result<Variant, VariantError> {
        Variant::custom(fields.iter().copied())
    }
}

/// The fields given in a rules text, each read but not yet judged with the
/// others.
#[derive(Default)]
struct Given {
    board: Option<BoardShape>,
    /// The path, and the field that named it (`path` or `route`).
    path: Option<(Path, &'static str)>,
    dice: Option<u8>,
    zero_rolls: Option<u8>,
    safe_rosettes: Option<bool>,
    rosette_again: Option<bool>,
    capture_again: Option<bool>,
    pieces: Option<u8>,
}

/// The names a person may use.
const NAMES_WORDS: &str = "aseb, blitz, finkel, finkel2p, masters, masters4d";

/// The names a record uses.
const RECORD_NAMES_WORDS: &str =
    "aseb, blitz, finkel, masters (a record spells any other rule set out as its fields)";

/// A one-digit value from `low` to `high`.
fn digit(value: &str, low: u8, high: u8) -> Option<u8> {
    match value.as_bytes() {
        [d @ b'0'..=b'9'] if (low..=high).contains(&(d - b'0')) => Some(d - b'0'),
        _ => None,
    }
}

impl Given {
    /// Reads one field's value.
    fn set(&mut self, field: &str, value: &str) -> Result<(), VariantError> {
        let bad = |field: &'static str, allowed: &'static str| VariantError::BadValue {
            field,
            value: value.to_owned(),
            allowed,
        };
        let repeated = || VariantError::RepeatedField(field.to_owned());
        match field {
            "board" => {
                let board = value.parse().map_err(|_| bad("board", BOARD_VALUES))?;
                self.board
                    .replace(board)
                    .map_or(Ok(()), |_| Err(repeated()))
            }
            "path" | "route" => {
                let (path, name) = if field == "path" {
                    let path = value.parse().map_err(|_| bad("path", PATH_VALUES))?;
                    (path, "path")
                } else {
                    let route: Route = value.parse().map_err(|_| bad("route", ROUTE_VALUES))?;
                    (route.path(), "route")
                };
                match self.path.replace((path, name)) {
                    None => Ok(()),
                    Some((_, before)) if before == name => Err(repeated()),
                    Some((other, before)) => Err(VariantError::Clash {
                        first: format!("{before}={}", spell(other, before)),
                        second: format!("{name}={value}"),
                        why: "route is the reference's name for the path (short is bell, long \
                              is masters): give one of them",
                    }),
                }
            }
            "dice" => {
                let dice = digit(value, 1, MAX_DICE).ok_or_else(|| bad("dice", DICE_VALUES))?;
                self.dice.replace(dice).map_or(Ok(()), |_| Err(repeated()))
            }
            "zero_rolls" => {
                let zero = digit(value, 0, 9).ok_or_else(|| bad("zero_rolls", ZERO_VALUES))?;
                self.zero_rolls
                    .replace(zero)
                    .map_or(Ok(()), |_| Err(repeated()))
            }
            "safe_rosettes" | "rosette_again" | "capture_again" => {
                let on = digit(value, 0, 1).ok_or_else(|| {
                    bad(
                        match field {
                            "safe_rosettes" => "safe_rosettes",
                            "rosette_again" => "rosette_again",
                            _ => "capture_again",
                        },
                        SWITCH_VALUES,
                    )
                })? == 1;
                let slot = match field {
                    "safe_rosettes" => &mut self.safe_rosettes,
                    "rosette_again" => &mut self.rosette_again,
                    _ => &mut self.capture_again,
                };
                slot.replace(on).map_or(Ok(()), |_| Err(repeated()))
            }
            "pieces" => {
                let pieces =
                    digit(value, 1, PIECES_MAX).ok_or_else(|| bad("pieces", PIECES_VALUES))?;
                self.pieces
                    .replace(pieces)
                    .map_or(Ok(()), |_| Err(repeated()))
            }
            _ => Err(VariantError::UnknownField {
                field: field.to_owned(),
                fields: <Variant as ReadRules>::FIELDS,
            }),
        }
    }

    /// `base` with the given fields set, once every pair of fields that
    /// depend on each other is judged: the board and the path (when one is
    /// given the other follows), and the dice and zero_rolls.
    fn build(self, base: Variant) -> Result<Variant, VariantError> {
        let path = match (self.path, self.board) {
            (Some((path, name)), Some(board)) => {
                if path.board() != board {
                    return Err(VariantError::Clash {
                        first: format!("board={board}"),
                        second: format!("{name}={}", spell(path, name)),
                        why: "the aseb path is played on the aseb board, and the bell, \
                              masters, murray and skiriuk paths on the standard board",
                    });
                }
                path
            }
            (Some((path, _)), None) => path,
            (None, Some(board)) if base.path.board() != board => match board {
                BoardShape::Standard => Path::Bell,
                BoardShape::Aseb => Path::Aseb,
            },
            (None, _) => base.path,
        };
        let dice = self.dice.unwrap_or(base.dice);
        let zero_rolls = self.zero_rolls.unwrap_or(base.zero_rolls);
        if !zero_fits(dice, zero_rolls) {
            return Err(VariantError::Clash {
                first: format!("dice={dice}"),
                second: format!("zero_rolls={zero_rolls}"),
                why: "a throw with nothing marked is worth 0 or one more than the dice \
                      (and 4 with four dice)",
            });
        }
        Ok(Variant {
            path,
            dice,
            zero_rolls,
            safe_rosettes: self.safe_rosettes.unwrap_or(base.safe_rosettes),
            rosette_again: self.rosette_again.unwrap_or(base.rosette_again),
            capture_again: self.capture_again.unwrap_or(base.capture_again),
            pieces: self.pieces.unwrap_or(base.pieces),
        })
    }
}

/// A path as the field `name` (`path` or `route`) spells it.
fn spell(path: Path, name: &str) -> &'static str {
    match (name, path.route()) {
        ("route", Some(route)) => route.as_str(),
        _ => path.as_str(),
    }
}

impl Variant {
    /// The preset with this name: `aseb`, `blitz`, `finkel`, `finkel2p`,
    /// `masters` or `masters4d`.
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for any other name.
    pub fn named(name: &str) -> Result<Variant, VariantError> {
        Variant::PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
            .ok_or_else(|| VariantError::UnknownName {
                name: name.to_owned(),
                names: NAMES_WORDS,
            })
    }

    /// A rule set from `field, value` pairs as text, in any order, each
    /// field at most once; fields left out take finkel's values.
    ///
    /// Values: board `standard`/`aseb`; path `bell`/`masters`/`murray`/
    /// `skiriuk`/`aseb`, or route `short`/`long` (bell/masters); dice `1`..`8`;
    /// zero_rolls `0` or dice+1 (and `4` with four dice); safe_rosettes,
    /// rosette_again, capture_again `0`/`1`; pieces `1`..`7`. When only one
    /// of board and path is given, the other follows from it.
    ///
    /// ```
    /// use royal_ur::{BoardShape, Path, Variant};
    ///
    /// let v = Variant::custom([("board", "aseb"), ("capture_again", "1")])?;
    /// assert_eq!((v.board(), v.path()), (BoardShape::Aseb, Path::Aseb));
    /// let err = Variant::custom([("board", "aseb"), ("path", "bell")]).unwrap_err();
    /// assert_eq!(err.code(), "clash");
    /// assert!(err.to_string().starts_with("board=aseb and path=bell do not go together"));
    /// assert_eq!(Variant::custom([("zero_rolls", "6"), ("dice", "5")])?.chances().len(), 6);
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownField`] for a field that does not exist,
    /// [`VariantError::BadValue`] for a value a field may not take,
    /// [`VariantError::RepeatedField`] for a field given twice and
    /// [`VariantError::Clash`] for fields that do not go together.
    pub fn custom<'a>(
        fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Variant, VariantError> {
        let mut given = Given::default();
        for (field, value) in fields {
            given.set(field, value)?;
        }
        given.build(Variant::FINKEL)
    }

    /// Reads rules as a person writes them: a preset's name, or the fields
    /// that differ from finkel as `name=value`, in any order, separated by
    /// spaces; the same as [`FromStr`](std::str::FromStr). (A record's rules line is stricter:
    /// see [`Variant::from_rules_line`].)
    ///
    /// ```
    /// use royal_ur::{Path, Variant};
    ///
    /// assert_eq!(Variant::parse_lenient("masters")?, Variant::MASTERS);
    /// assert_eq!(Variant::parse_lenient("finkel2p")?, Variant::FINKEL.with_pieces(2)?);
    /// let v = Variant::parse_lenient("pieces=5 route=long")?;
    /// assert_eq!((v.path(), v.pieces(), v.dice()), (Path::Masters, 5, 4));
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
    /// [`VariantError::RepeatedField`] for a field given twice,
    /// [`VariantError::BadValue`] for a value a field may not take and
    /// [`VariantError::Clash`] for fields that do not go together.
    pub fn parse_lenient(text: &str) -> Result<Variant, VariantError> {
        read_rules(text)
    }

    /// This rule set with one field set from text. Setting the board or the
    /// path makes the other follow when it must (`board=aseb` brings the
    /// aseb path, `path=bell` the standard board).
    ///
    /// # Errors
    ///
    /// As [`Variant::custom`]; [`VariantError::Clash`] when the dice given
    /// do not allow this rule set's zero_rolls, or the reverse.
    pub fn with_field(self, field: &str, value: &str) -> Result<Variant, VariantError> {
        let mut given = Given::default();
        given.set(field, value)?;
        given.build(self)
    }

    /// The name records write for this rule set: `finkel`, `masters`,
    /// `blitz` or `aseb` when every value equals that preset's, however it
    /// was built; else `None`. (`finkel2p` and `masters4d`, which the
    /// reference plays as custom rule sets, are written as its five
    /// fields: see [`Variant::preset`].)
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        self.preset()
            .filter(|name| !matches!(*name, "finkel2p" | "masters4d"))
    }

    /// The preset this rule set is, by name, if it is one (all six).
    #[must_use]
    pub fn preset(&self) -> Option<&'static str> {
        Variant::PRESETS
            .iter()
            .find(|(_, v)| v == self)
            .map(|&(name, _)| name)
    }

    /// The fields spelled out in the record's form, even for a named set
    /// (the reference's `describe`): the reference's five
    /// (`route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=7`) for a
    /// rule set it plays ([`Variant::is_reference`]), else all eight.
    #[must_use]
    pub fn spelled_out(&self) -> String {
        let safe = u8::from(self.safe_rosettes);
        match self.path.route() {
            Some(route) if self.is_reference() => format!(
                "route={route} dice={} zero_rolls={} safe_rosettes={safe} pieces={}",
                self.dice, self.zero_rolls, self.pieces
            ),
            _ => format!(
                "board={} path={} dice={} zero_rolls={} safe_rosettes={safe} rosette_again={} \
                 capture_again={} pieces={}",
                self.board(),
                self.path,
                self.dice,
                self.zero_rolls,
                u8::from(self.rosette_again),
                u8::from(self.capture_again),
                self.pieces
            ),
        }
    }

    /// The eight fields as `(name, value)` text pairs, in canonical order.
    #[must_use]
    pub fn fields(&self) -> [(&'static str, String); 8] {
        let switch = |on: bool| u8::from(on).to_string();
        [
            ("board", self.board().to_string()),
            ("path", self.path.to_string()),
            ("dice", self.dice.to_string()),
            ("zero_rolls", self.zero_rolls.to_string()),
            ("safe_rosettes", switch(self.safe_rosettes)),
            ("rosette_again", switch(self.rosette_again)),
            ("capture_again", switch(self.capture_again)),
            ("pieces", self.pieces.to_string()),
        ]
    }
}

dice_core::rules_text! {
    /// Reads rules as a person writes them, as the command line reads them:
    /// a preset's name, or the fields that differ from finkel in any order
    /// ([`Variant::parse_lenient`]). A record's rules line is read strictly,
    /// by [`Variant::from_rules_line`].
    ///
    /// ```
    /// use royal_ur::Variant;
    ///
    /// assert_eq!("masters4d".parse::<Variant>()?, Variant::MASTERS4D);
    /// assert_eq!("pieces=2".parse::<Variant>()?, Variant::FINKEL2P);
    /// assert_eq!("finkel".parse::<Variant>()?, Variant::FINKEL);
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    Variant
}

impl Variant {
    /// Reads a record's rules text, strictly: a name records write
    /// (`finkel`, `masters`, `blitz`, `aseb`), or a rule set's one
    /// spelling, one space apart: the reference's five fields in its order
    /// for a rule set it plays, all eight [`FIELDS`] in order for any other.
    ///
    /// ```
    /// use royal_ur::Variant;
    ///
    /// assert_eq!(Variant::from_rules_line("masters")?, Variant::MASTERS);
    /// let five = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2";
    /// assert_eq!(Variant::from_rules_line(five)?, Variant::FINKEL2P);
    /// // What a person may write is not a record's spelling.
    /// assert_eq!(Variant::from_rules_line("finkel2p").unwrap_err().code(), "unknown_name");
    /// assert_eq!(Variant::from_rules_line("pieces=2").unwrap_err().code(), "rules");
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`VariantError::UnknownName`] for a word that is no name records
    /// write, [`VariantError::NotSpelledOut`] (`rules`) for fields that are
    /// not the rule set's one spelling, and a field's own error for a value
    /// it does not take.
    pub fn from_rules_line(s: &str) -> Result<Variant, VariantError> {
        if let Some(v) = Variant::named(s).ok().filter(|v| v.name() == Some(s)) {
            return Ok(v);
        }
        let not = || VariantError::NotSpelledOut {
            text: s.to_owned(),
            spelling: "a rule set's fields in order: route, dice, zero_rolls, safe_rosettes, \
                       pieces for a rule set the reference plays, else board, path, dice, \
                       zero_rolls, safe_rosettes, rosette_again, capture_again, pieces",
        };
        let parts: Vec<&str> = s.split(' ').collect();
        let order: &[&str] = match parts.len() {
            5 => &REFERENCE_FIELDS,
            8 => &FIELDS,
            _ if s.contains('=') => return Err(not()),
            _ => {
                return Err(VariantError::UnknownName {
                    name: s.to_owned(),
                    names: RECORD_NAMES_WORDS,
                });
            }
        };
        let mut given = Given::default();
        for (part, want) in parts.into_iter().zip(order) {
            let (field, value) = part.split_once('=').ok_or_else(not)?;
            if field != *want {
                return Err(not());
            }
            given.set(field, value)?;
        }
        let v = given.build(Variant::FINKEL)?;
        if v.is_reference() == (order.len() == REFERENCE_FIELDS.len()) {
            Ok(v)
        } else {
            Err(not())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_and_descriptions() {
        assert_eq!(Variant::named("finkel"), Ok(Variant::FINKEL));
        assert_eq!(
            Variant::named("Finkel").unwrap_err(),
            VariantError::UnknownName {
                name: "Finkel".into(),
                names: NAMES_WORDS
            }
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
        let mut names = Variant::NAMES;
        names.sort_unstable();
        assert_eq!(names, Variant::NAMES);
        for (name, v) in Variant::PRESETS {
            assert_eq!(Variant::named(name), Ok(v));
            assert_eq!(v.preset(), Some(name));
        }
        assert!(
            Variant::named("blits")
                .unwrap_err()
                .to_string()
                .ends_with("the names are aseb, blitz, finkel, finkel2p, masters, masters4d")
        );
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
                fields: <Variant as ReadRules>::FIELDS,
            })
        );
        for (field, value) in [
            ("dice", "9"),
            ("dice", "0"),
            ("dice", "10"),
            ("pieces", "0"),
            ("pieces", "8"),
            ("route", "Long"),
            ("route", "bell"),
            ("path", "short"),
            ("board", "Aseb"),
            ("zero_rolls", "10"),
            ("safe_rosettes", "true"),
            ("capture_again", "2"),
        ] {
            let err = Variant::custom([(field, value)]).unwrap_err();
            assert_eq!(err.code(), "bad_value", "{field}={value}");
            assert!(err.to_string().contains(value));
        }
        assert_eq!(
            Variant::custom([("pieces", "3"), ("pieces", "3")]).unwrap_err(),
            VariantError::RepeatedField("pieces".into())
        );
    }

    #[test]
    fn board_and_path_follow_each_other_and_clash_by_name() {
        let aseb = Variant::custom([("board", "aseb")]).unwrap();
        assert_eq!(aseb.path(), Path::Aseb);
        let aseb = Variant::custom([("path", "aseb")]).unwrap();
        assert_eq!(aseb.board(), BoardShape::Aseb);
        assert_eq!(
            Variant::custom([("board", "standard")]).unwrap(),
            Variant::FINKEL
        );
        assert_eq!(
            Variant::ASEB
                .with_field("board", "standard")
                .unwrap()
                .path(),
            Path::Bell
        );
        assert_eq!(
            Variant::ASEB.with_field("path", "murray").unwrap().board(),
            BoardShape::Standard
        );
        for (a, b) in [
            (("board", "aseb"), ("path", "bell")),
            (("path", "skiriuk"), ("board", "aseb")),
            (("board", "standard"), ("path", "aseb")),
            (("route", "long"), ("board", "aseb")),
            (("route", "short"), ("path", "bell")),
            (("path", "murray"), ("route", "long")),
        ] {
            let err = Variant::custom([a, b]).unwrap_err();
            assert_eq!(err.code(), "clash", "{a:?} {b:?}");
            let text = err.to_string();
            for (f, v) in [a, b] {
                assert!(text.contains(&format!("{f}={v}")), "{text}");
            }
        }
    }

    #[test]
    fn rules_text_is_strict() {
        for good in [
            "finkel",
            "masters",
            "blitz",
            "aseb",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5",
            "board=standard path=murray dice=3 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=7",
            "board=standard path=bell dice=5 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=7",
            "board=standard path=bell dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=0 capture_again=0 pieces=7",
        ] {
            assert_eq!(Variant::from_rules_line(good).unwrap().to_string(), good);
        }
        for (spelled, name) in [
            (
                "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=7",
                "finkel",
            ),
            (
                "board=standard path=masters dice=4 zero_rolls=0 safe_rosettes=0 rosette_again=1 capture_again=1 pieces=5",
                "blitz",
            ),
        ] {
            assert_eq!(Variant::from_rules_line(spelled).unwrap().to_string(), name);
        }
        for bad in [
            "dice=4 route=long zero_rolls=0 safe_rosettes=1 pieces=5",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1",
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5 pieces=5",
            "route=long  dice=4 zero_rolls=0 safe_rosettes=1",
            "route=long dice=9 zero_rolls=0 safe_rosettes=1 pieces=5",
            // Outside the reference's space: only the eight fields spell it.
            "route=long dice=5 zero_rolls=0 safe_rosettes=1 pieces=5",
            // Inside it: only the five fields spell it.
            "board=standard path=bell dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=5",
            "board=aseb path=bell dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 capture_again=0 pieces=5",
            "finkel2p",
            "masters4d",
            "",
            "bell",
        ] {
            assert!(Variant::from_rules_line(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Variant::from_rules_line("bell").unwrap_err().to_string(),
            "no rule set is called \"bell\"; the names are aseb, blitz, finkel, masters (a \
             record spells any other rule set out as its fields)"
        );
        // What a person writes is read by FromStr, as the command line
        // reads it, where the record's reader refuses it.
        for (text, v) in [
            ("finkel2p", Variant::FINKEL2P),
            ("masters4d", Variant::MASTERS4D),
            ("pieces=2", Variant::FINKEL2P),
            (
                "dice=4 route=long zero_rolls=0 safe_rosettes=0",
                Variant::MASTERS4D,
            ),
        ] {
            assert!(Variant::from_rules_line(text).is_err(), "{text}");
            assert_eq!(text.parse::<Variant>(), Ok(v), "{text}");
            assert_eq!(Variant::parse_lenient(text), Ok(v), "{text}");
        }
        assert_eq!(
            "bell".parse::<Variant>().unwrap_err().code(),
            "unknown_name"
        );
    }
}
