#![doc = include_str!("../README.md")]

mod bot;
mod dice;
mod game;
mod key;
mod lanes;
mod lean;
mod notation;
mod record;
mod replay;
mod rules;
mod rules_text;
mod search;
mod seed;
mod side;
pub mod toy;
mod xorshift;

pub use bot::{BUDGET_MAX, Bot, BotError, LEVEL_ASKED_MAX, Ladder, bot_budget, bot_level};
pub use dice::{Dice, Faces, MAX_DICE, ParseFacesError, ScriptRoll, more_marked, throw_bits};
pub use game::{
    Ending, Game, GameOver, LogEntry, NewGameError, NothingToUndo, OPENING_TIES_MAX, Outcome,
    PLY_CAP, PlayError, Plies, Ply, Setup, Undone,
};
pub use key::Key;
pub use lean::Lean;
pub use notation::Notation;
pub use record::{ParseRecordError, Record, RecordErrorKind, RecordResult, Turn, record_rules};
pub use replay::{MismatchKind, ReplayError};
pub use rules::{
    Chance, Coded, MOVES_MAX, MoveList, Opening, Rules, Status, split_move, successors, walk,
};
pub use rules_text::{
    ReadRules, RulesText, RulesTextError, VariantError, read_rules, read_rules_text,
};
pub use search::{Cutoff, DEPTH_MAX, SearchInfo, SearchOptions, Thought, Tie, WIN, search};
pub use seed::{Seed, SeedError};
pub use side::{ParseSideError, Side};
pub use xorshift::Xorshift;

#[doc(hidden)]
pub use serde as __serde;

/// Declares a fieldless enum of coded reasons (a refusal, a kind of text
/// error), each variant with its contract word and a sentence (and, if
/// wanted, its number: `Null = 1("POS_NULL", "it is empty")`): the enum,
/// `ALL` (every variant, in declaration order), `code()` and `message()`
/// as `const fn`s, `Display` as the sentence and [`Coded`]. In the manner
/// of cozy-chess's `simple_error!`: the games' error enums are declared,
/// not written out by hand.
///
/// ```
/// dice_core::coded_enum! {
///     /// Why a toy move is refused.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
///     pub enum Why {
///         /// Nothing stands there.
///         Empty("empty", "no piece stands there"),
///         /// Too far.
///         Far("far", "the goal needs the exact roll"),
///     }
/// }
///
/// assert_eq!(Why::ALL, [Why::Empty, Why::Far]);
/// assert_eq!(Why::Far.code(), "far");
/// assert_eq!(Why::Empty.to_string(), "no piece stands there");
/// assert_eq!(dice_core::Coded::code(&Why::Empty), "empty");
/// ```
#[macro_export]
macro_rules! coded_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $(= $number:literal)? ($code:literal, $message:expr)
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$vmeta])* $variant $(= $number)?,)+
        }

        impl $name {
            /// Every variant, in the order declared (the order checked).
            pub const ALL: [$name; [$($code),+].len()] = [$($name::$variant),+];

            /// The contract word.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)+
                }
            }

            /// A lowercase sentence saying why.
            #[must_use]
            pub const fn message(self) -> &'static str {
                match self {
                    $($name::$variant => $message,)+
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.message())
            }
        }

        impl $crate::Coded for $name {
            fn code(&self) -> &'static str {
                $name::code(*self)
            }
        }
    };
}

/// Declares an error enum whose variants carry data (written with
/// `thiserror`'s `#[error]` as usual), each variant followed by `=>` and
/// its contract word: the enum, a `const fn code` and [`Coded`]. The
/// counterpart of [`coded_enum!`] for errors that say what was refused, so
/// that no game writes the `match` from variant to word by hand.
///
/// ```
/// dice_core::coded_error! {
///     /// Why a toy square's text is refused.
///     #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
///     pub enum SquareError {
///         /// Nothing was written.
///         #[error("a square is a letter and a digit, not nothing")]
///         Empty => "empty",
///         /// A letter the board does not have.
///         #[error("{0:?} is no column of the board")]
///         Column(char) => "column",
///         /// A row past the board.
///         #[error("row {row} is past the board's {rows}")]
///         Row {
///             /// The row written.
///             row: u8,
///             /// The rows the board has.
///             rows: u8,
///         } => "row",
///     }
/// }
///
/// assert_eq!(SquareError::CODES, ["empty", "column", "row"]);
/// assert_eq!(SquareError::Column('z').code(), "column");
/// assert_eq!(SquareError::Row { row: 9, rows: 3 }.to_string(), "row 9 is past the board's 3");
/// assert_eq!(dice_core::Coded::code(&SquareError::Empty), "empty");
/// ```
#[macro_export]
macro_rules! coded_error {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $(( $($tuple:tt)* ))? $({ $($fields:tt)* })? => $code:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$vmeta])* $variant $(( $($tuple)* ))? $({ $($fields)* })?,)+
        }

        impl $name {
            /// Every variant's contract word, in the order declared.
            pub const CODES: [&'static str; [$($code),+].len()] = [$($code),+];

            #[doc = concat!("The contract word:", $(" `", $code, "`",)+ ", one a variant.")]
            #[must_use]
            pub const fn code(&self) -> &'static str {
                match self {
                    $($name::$variant { .. } => $code,)+
                }
            }
        }

        impl $crate::Coded for $name {
            fn code(&self) -> &'static str {
                $name::code(self)
            }
        }
    };
}

/// Gives a rule set its text both ways, the same for every game: `Display`
/// writes the name records write when it has one (its inherent
/// `fn name(&self) -> Option<&'static str>`), else its fields
/// (`fn spelled_out(&self) -> String`); `FromStr` reads rules as a person
/// writes them, through [`read_rules`] (so the type implements
/// [`ReadRules`]). Doc comments given before the type go on `from_str`.
///
/// ```
/// use dice_core::toy::ToyVariant;
///
/// let v: ToyVariant = "dice=4".parse()?;
/// assert_eq!(v.to_string(), "goal=12 dice=4");
/// assert_eq!(ToyVariant::default().to_string(), "toy");
/// # Ok::<(), dice_core::VariantError>(())
/// ```
#[macro_export]
macro_rules! rules_text {
    ($(#[$doc:meta])* $ty:ty) => {
        impl ::core::fmt::Display for $ty {
            /// The record's rules text: the name, or the fields spelled out.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self.name() {
                    ::core::option::Option::Some(name) => f.write_str(name),
                    ::core::option::Option::None => f.write_str(&self.spelled_out()),
                }
            }
        }

        impl ::core::str::FromStr for $ty {
            type Err = $crate::VariantError;

            $(#[$doc])*
            fn from_str(text: &str) -> ::core::result::Result<$ty, $crate::VariantError> {
                $crate::read_rules(text)
            }
        }
    };
}

/// Implements `Serialize` and `Deserialize` for types through their text
/// form (`Display` and `FromStr`), so that JSON speaks the same text as
/// records and the command line.
///
/// ```
/// use std::{fmt, str::FromStr};
///
/// #[derive(Debug, PartialEq)]
/// struct House(u8);
///
/// impl fmt::Display for House {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         write!(f, "h{}", self.0)
///     }
/// }
///
/// impl FromStr for House {
///     type Err = std::num::ParseIntError;
///     fn from_str(s: &str) -> Result<House, Self::Err> {
///         s.trim_start_matches('h').parse().map(House)
///     }
/// }
///
/// dice_core::serde_via_text!(House);
///
/// assert_eq!(serde_json::to_string(&House(7)).unwrap(), "\"h7\"");
/// assert_eq!(serde_json::from_str::<House>("\"h7\"").unwrap(), House(7));
/// ```
#[macro_export]
macro_rules! serde_via_text {
    ($($ty:ty),+ $(,)?) => {$(
        impl $crate::__serde::Serialize for $ty {
            fn serialize<S: $crate::__serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> $crate::__serde::Deserialize<'de> for $ty {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<$ty, D::Error> {
                let text: ::std::string::String =
                    $crate::__serde::Deserialize::deserialize(deserializer)?;
                text.parse().map_err(<D::Error as $crate::__serde::de::Error>::custom)
            }
        }
    )+};
}
