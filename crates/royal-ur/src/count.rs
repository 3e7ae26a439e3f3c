//! Counting positions.

use crate::Variant;

/// How many positions a rule set has: every placement of each side's pieces
/// on cells of its own route, no two on one cell, with the rest split
/// between hand and home in every way, times 2 for the side to move.
///
/// Only the route and the pieces change it.
///
/// ```
/// use royal_ur::{count_positions, Variant};
///
/// assert_eq!(count_positions(&Variant::FINKEL), 275_827_872);
/// ```
#[must_use]
pub fn count_positions(variant: &Variant) -> u64 {
    let route = variant.route();
    let shared = u64::from(route.shared_mask().count_ones());
    let private = u64::from(route.len()) - shared;
    let p = u64::from(variant.pieces());
    let mut total = 0u64;
    for kl in 0..=p {
        for kd in 0..=p {
            let mut ways = 0u64;
            for a in 0..=kl.min(shared) {
                for b in 0..=kd.min(shared - a) {
                    ways += choose(shared, a)
                        * choose(shared - a, b)
                        * choose(private, kl - a)
                        * choose(private, kd - b);
                }
            }
            total += ways * (p - kl + 1) * (p - kd + 1);
        }
    }
    2 * total
}

/// Binomial coefficient, 0 when `k > n`.
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(choose(8, 3), 56);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(16, 0), 1);
    }
}
