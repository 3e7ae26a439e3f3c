#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod board;
mod bot;
mod count;
mod flags;
mod game;
mod info;
mod key;
mod moves;
mod path;
mod position;
mod refusal;
mod rules;
mod shape;
mod square;
mod variant;

pub use board::{ApplyError, Board, NewBoardError};
pub use bot::{
    BUDGET_DEFAULT, Bot, LEVEL_TOP, Rung, Thought, Weights, evaluate, greedy, rung, search,
};
pub use count::count_positions;
/// Why rules cannot be read: the one error both games give.
pub use dice_core::VariantError;
pub use dice_core::{BotError, Chance, SearchInfo};
pub use flags::Flags;
pub use game::{
    Game, GameExt, NewFromPositionError, display_entry, display_forfeit, display_move,
    game_from_position,
};
pub use info::MoveInfo;
pub use key::Key;
pub use moves::{Move, ParseMoveError, Place};
pub use path::{PATH_MAX, ParsePathError, ParseRouteError, Path, Route};
pub use position::{Inconsistency, Position, PositionError, PositionErrorKind};
pub use refusal::Refusal;
pub use rules::{ROLL_MAX, Ur};
pub use shape::{BoardShape, ParseBoardError};
pub use square::{CELLS, ParseSquareError, Square};
pub use variant::{FIELDS, PIECES_MAX, REFERENCE_FIELDS, Variant};

/// The workspace README, whose library example is compiled and run here as
/// a doctest with warnings denied (so an unused import fails it as well).
#[cfg(doctest)]
#[doc(test(attr(deny(warnings))))]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadme;
