//! What a log entry says about a move beyond its text.

use serde::{Deserialize, Serialize};

use crate::Place;

/// What a move did, or a lost turn: whether the same side throws next,
/// whether an enemy piece was swapped back, and where the piece ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Flags {
    /// The same side throws next.
    pub again: bool,
    /// The move swapped an enemy piece back to the departure house.
    pub swap: bool,
    /// Where the moved piece ended (`None` for a lost turn).
    pub ends: Option<Place>,
}
