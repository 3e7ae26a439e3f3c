//! The 16-hex-digit key of a position.

use std::fmt;

use serde::{Serialize, Serializer};

/// A position packed into 62 bits, exactly (no hash), written as 16
/// lowercase hexadecimal digits, zero-padded (spec §6).
///
/// Bits `2(h-1)..2(h-1)+1` hold house `h` (0 empty, 1 light, 2 dark), bit
/// 60 the side to move (1 = dark) and bit 61 a throw bound to 26 (under
/// `on26=again`, when the side to move stands there).
///
/// ```
/// use dice_core::Side;
/// use senet::{Position, Variant};
///
/// let start = Position::start(&Variant::KENDALL, Side::Light);
/// assert_eq!(start.key(&Variant::KENDALL).to_string(), "0000000000066666");
/// let dark = start.with_side(Side::Dark);
/// assert_eq!(dark.key(&Variant::KENDALL).bits(), (1 << 60) | 0x66666);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub(crate) u64);

impl Key {
    /// The packed bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
