#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod error;
mod index;
mod moves;
mod solve;
mod table;

pub use error::{AnalysisError, LookupError, SolveError, TableError};
pub use index::{Index, State, count_positions};
pub use moves::Successor;
pub use solve::{Progress, SolveOptions, SolveStats, Solution, Stage, WinChances, solve};
pub use table::{MAGIC, Table, VERSION, ValueType, write_table};
