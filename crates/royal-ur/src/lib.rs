//! The Royal Game of Ur.
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod flags;
mod key;
mod moves;
mod position;
mod refusal;
mod route;
mod rules;
mod square;
mod variant;

pub use flags::Flags;
pub use key::Key;
pub use moves::{Move, ParseMoveError, Place};
pub use position::{Position, PositionCode, PositionError};
pub use refusal::Refusal;
pub use route::{ParseRouteError, ROUTE_MAX, Route};
pub use rules::{ROLL_MAX, Ur};
pub use square::{CELLS, ParseSquareError, Square};
pub use variant::{Chance, FIELDS, PIECES_MAX, Variant, VariantError};
