//! The 12-hex-digit key of a position.

/// A position packed into 47 bits, exactly (no hash), written as 12
/// lowercase hexadecimal digits, zero-padded (dice-core's [`Key`](dice_core::Key)).
///
/// Bits `2c..2c+1` hold the piece on cell `c` (0 empty, 1 light, 2 dark),
/// bits 40..42 light's home count, bits 43..45 dark's and bit 46 the side to
/// move (1 = dark). Hands are not in the key (they follow from the rest when
/// the position is consistent). The cells are the board's
/// ([`BoardShape::cell`](crate::BoardShape::cell)): on the aseb board
/// `a1..d1`, `a2..l2`, `a3..d3`, so its keys share the standard board's
/// space and mean something only under their rule set.
///
/// Under the murray and skiriuk paths bits 47..53 say which of `a2..g2`
/// hold a piece on its second visit (bit `47 + f` for file `f`), and the
/// key is written with 14 digits ([`Position::key_text`](crate::Position::key_text));
/// elsewhere those bits are 0.
///
/// ```
/// use royal_ur::{Position, Variant};
///
/// let start = Position::parse("4xx2/8/4xx2 l 7 0 7 0")?;
/// assert_eq!(start.key(&Variant::FINKEL).to_string(), "000000000000");
/// let full = Position::parse("ddddxxdd/dddddddd/ddddxxdd d 0 7 0 7")?;
/// assert_eq!(full.key(&Variant::FINKEL).to_string(), "7faaaaaaaaaa");
/// # Ok::<(), royal_ur::PositionError>(())
/// ```
pub type Key = dice_core::Key<12>;

/// Spreads the low 20 bits of `x` to the even bits of the result.
pub(crate) const fn spread(x: u32) -> u64 {
    let mut x = x as u64 & 0xf_ffff;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    x = (x | (x << 1)) & 0x5555_5555_5555_5555;
    x
}
