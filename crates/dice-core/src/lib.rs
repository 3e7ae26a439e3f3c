#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod dice;
mod rules;
mod seed;
mod side;

pub use dice::{Dice, Faces, MAX_DICE, ParseFacesError, ScriptRoll, throw_bits};
pub use rules::{MOVES_MAX, MoveList, Opening, Refusal, Rules, Status};
pub use seed::{Seed, SeedError};
pub use side::{ParseSideError, Side};
