#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod bot;
mod flags;
mod game;
mod house;
mod info;
mod key;
mod moves;
mod position;
mod refusal;
mod rules;
mod seat;
mod variant;

pub use bot::{BUDGET_DEFAULT, Bot, LEVEL_TOP, Thought, evaluate};
/// Why rules cannot be read: the one error both games give.
pub use dice_core::VariantError;
pub use dice_core::{BotError, Chance};
pub use flags::Flags;
pub use game::{Game, GameExt, TurnInfo, display_entry, display_forfeit, display_move, script};
pub use house::{HOUSES, House, ParseHouseError};
pub use info::MoveInfo;
pub use key::Key;
pub use moves::{Move, ParseMoveError, Place};
pub use position::{Inconsistency, Position, PositionError, PositionErrorKind};
pub use refusal::Refusal;
pub use rules::{ROLL_MAX, Senet, roll_of, throws_again};
pub use seat::{ParseSeatError, Seat};
pub use variant::{
    Blockade, CHANCES, FIELDS, Off30, On26, Pieces, Protect, Reach26, Variant, Water,
};

/// The version of what a game does: it goes up when a release changes a move
/// allowed, refused or made from the same seed. The record does not carry it.
pub const RULES_REVISION: u32 = 1;

/// [`RULES_REVISION`] as a function, as the reference offers it.
#[must_use]
pub const fn rules_revision() -> u32 {
    RULES_REVISION
}
