//! Rule sets: the presets (finkel, masters, blitz, aseb, finkel2p,
//! masters4d) and every combination of board, path, dice and switches.

use std::fmt;
use std::str::FromStr;

use dice_core::{Chance, MAX_DICE, ReadRules, VariantError, read_rules};

use crate::{BoardShape, Flags, Path, Route};

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
/// Rules text a person writes ([`FromStr`], [`Variant::parse_lenient`],
/// the command line) is a preset's name or the fields that differ from finkel, in any
/// order; `route=short|long` is the reference's spelling of `path=bell|masters`,
/// and when only one of `board` and `path` is given the other follows.
///
/// The record's rules text ([`Display`](fmt::Display) /
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

/// What each field takes, for [`VariantError::BadValue`].
const BOARD_VALUES: &str = "a board is standard or aseb";
const PATH_VALUES: &str = "a path is bell, masters, murray, skiriuk or aseb";
const ROUTE_VALUES: &str = "a route is short (path bell) or long (path masters)";
const DICE_VALUES: &str = "dice is a whole number from 1 to 8";
const ZERO_VALUES: &str = "zero_rolls is 0 or dice+1, one digit (and 4 with four dice)";
const SWITCH_VALUES: &str = "a switch is 0 or 1";
const PIECES_VALUES: &str = "pieces is a whole number from 1 to 7";

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
    /// spaces; the same as [`FromStr`]. (A record's rules line is stricter:
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

impl Default for Variant {
    /// Finkel's rules.
    fn default() -> Variant {
        Variant::FINKEL
    }
}

impl fmt::Display for Variant {
    /// The record's rules text: the name, or the fields spelled out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => f.write_str(&self.spelled_out()),
        }
    }
}

impl FromStr for Variant {
    type Err = VariantError;

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
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        read_rules(s)
    }
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

dice_core::serde_via_text!(Variant);

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
