//! What a log entry says about a move beyond its text.

use serde::{Deserialize, Serialize};

/// What a move did: captured, landed on a rosette (and so earned another
/// roll), went home. A lost turn has all three false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Flags {
    /// An enemy piece went back to its owner's hand.
    pub captures: bool,
    /// The piece landed on a rosette; the same side rolls again.
    pub rosette: bool,
    /// The piece went home.
    pub home: bool,
}

impl Flags {
    /// The display suffix: `x` if it captures, then `*` if it lands on a
    /// rosette.
    #[must_use]
    pub const fn suffix(self) -> &'static str {
        match (self.captures, self.rosette) {
            (true, true) => "x*",
            (true, false) => "x",
            (false, true) => "*",
            (false, false) => "",
        }
    }
}
