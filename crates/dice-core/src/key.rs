//! Position keys: a position packed into a number, written in hex.

use std::fmt;

use serde::{Serialize, Serializer};

/// A position packed into a number exactly (no hash), written as `DIGITS`
/// lowercase hexadecimal digits, zero-padded; serialized as that text.
/// Each game lays its key out and names it (`royal_ur::Key`, 12 digits;
/// `senet::Key`, 16).
///
/// ```
/// let key = dice_core::Key::<12>::from_bits(0x4000_0000_0000);
/// assert_eq!(key.to_string(), "400000000000");
/// assert_eq!(key.bits(), 1 << 46);
/// assert_eq!(serde_json::to_string(&key).unwrap(), "\"400000000000\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key<const DIGITS: usize>(u64);

impl<const DIGITS: usize> Key<DIGITS> {
    /// The key with these bits (a game packs them; see its `Key`).
    #[must_use]
    pub const fn from_bits(bits: u64) -> Key<DIGITS> {
        Key(bits)
    }

    /// The packed bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }
}

impl<const DIGITS: usize> fmt::Display for Key<DIGITS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:0width$x}", self.0, width = DIGITS)
    }
}

impl<const DIGITS: usize> Serialize for Key<DIGITS> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
