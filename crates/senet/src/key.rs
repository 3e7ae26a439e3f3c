//! The 16-hex-digit key of a position.

/// A position packed into 62 bits, exactly (no hash), written as 16
/// lowercase hexadecimal digits, zero-padded (spec §6; dice-core's
/// [`Key`](dice_core::Key)).
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
pub type Key = dice_core::Key<16>;
