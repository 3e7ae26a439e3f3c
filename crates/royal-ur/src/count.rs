//! Counting positions.

use dice_core::Side;

use crate::{PIECES_MAX, Variant};

/// How many positions a rule set has: every placement of each side's pieces
/// on squares of its own path, no two on one square, with the rest split
/// between hand and home in every way, times 2 for the side to move. On the
/// murray and skiriuk paths a piece on `a2..g2` may be on either of its
/// two visits there, and each counts.
///
/// Only the path and the pieces change it.
///
/// ```
/// use royal_ur::{count_positions, Variant};
///
/// assert_eq!(count_positions(&Variant::FINKEL), 275_827_872);
/// assert_eq!(count_positions(&Variant::BLITZ), 2 * 41_264_288);
/// ```
#[must_use]
pub fn count_positions(variant: &Variant) -> u64 {
    const N: usize = PIECES_MAX as usize + 1;
    let path = variant.path();
    let p = usize::from(variant.pieces());
    // ways[l][d]: the placements of l light and d dark pieces, built square
    // by square: a square stays empty, or holds a light piece on one of the
    // visits light's path makes to it, or a dark piece likewise.
    let mut ways = [[0u64; N]; N];
    ways[0][0] = 1;
    for &square in path.board().squares() {
        let visits = |side: Side| {
            u64::from(path.step_of(side, square).is_some())
                + u64::from(path.second_step_of(side, square).is_some())
        };
        let (light, dark) = (visits(Side::Light), visits(Side::Dark));
        let before = ways;
        let at = |l: Option<usize>, d: Option<usize>| {
            l.zip(d)
                .and_then(|(l, d)| before.get(l)?.get(d).copied())
                .unwrap_or(0)
        };
        for (l, row) in ways.iter_mut().enumerate() {
            for (d, w) in row.iter_mut().enumerate() {
                *w = at(Some(l), Some(d))
                    + at(l.checked_sub(1), Some(d)) * light
                    + at(Some(l), d.checked_sub(1)) * dark;
            }
        }
    }
    let mut total = 0u64;
    for (l, row) in ways.iter().enumerate().take(p + 1) {
        for (d, &w) in row.iter().enumerate().take(p + 1) {
            total += w * (p - l + 1) as u64 * (p - d + 1) as u64;
        }
    }
    2 * total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Path;

    /// The counts per side to move of docs/solver.md and of RoyalUr-Java's
    /// paths (one piece per square; a square visited twice holds a first
    /// or a second visit).
    #[test]
    fn counts_per_side_to_move() {
        let per_side = |path: Path, pieces: u8| {
            count_positions(&Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap()) / 2
        };
        assert_eq!(per_side(Path::Bell, 7), 137_913_936);
        assert_eq!(per_side(Path::Masters, 7), 501_032_952);
        assert_eq!(per_side(Path::Aseb, 5), 41_264_288);
        assert_eq!(per_side(Path::Bell, 2), 13_112);
        for (path, one, two) in [
            (Path::Skiriuk, 592, 69_819),
            (Path::Murray, 800, 130_975),
            (Path::Masters, 312, 20_623),
        ] {
            assert_eq!(per_side(path, 1), one, "{path}");
            assert_eq!(per_side(path, 2), two, "{path}");
        }
        assert_eq!(per_side(Path::Murray, 7), 107_967_669_800);
    }
}
