//! Perft-style counts of the game tree.

use crate::{Position, Senet, Variant};

/// Counts the leaves of the game tree `depth` throws deep: for every roll
/// (each counted once, whatever its chance) every move it allows, and one
/// lost-turn branch for a roll with none. A finished game or depth 0 counts 1.
///
/// ```
/// use dice_core::Side;
/// use senet::{Position, Variant, walk};
///
/// let start = Position::start(&Variant::KENDALL, Side::Light);
/// // rolls 1, 3 and 5 move any of light's five pieces, 2 only the one on 10,
/// // 4 the ones on 8 and 10
/// assert_eq!(walk(&Variant::KENDALL, &start, 1), 5 + 1 + 5 + 2 + 5);
/// ```
#[must_use]
pub fn walk(variant: &Variant, position: &Position, depth: u32) -> u64 {
    dice_core::walk::<Senet>(variant, position, depth)
}
