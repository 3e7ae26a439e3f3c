#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod dice;
mod game;
mod record;
mod replay;
mod rules;
mod seed;
mod side;
pub mod toy;

pub use dice::{Dice, Faces, MAX_DICE, ParseFacesError, ScriptRoll, throw_bits};
pub use game::{
    Game, How, LogEntry, NewGameError, OPENING_TIES_MAX, Outcome, PLY_CAP, PlayError, Setup,
};
pub use record::{ParseRecordError, Record, RecordErrorKind, RecordResult, Turn};
pub use replay::{ReplayError, ReplayWhy};
pub use rules::{Chance, MOVES_MAX, MoveList, Opening, Refusal, Rules, Status, walk};
pub use seed::{Seed, SeedError};
pub use side::{ParseSideError, Side};
