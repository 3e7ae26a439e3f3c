//! The routes: which square each step of a side's own route is.

use std::fmt;
use std::str::FromStr;

use dice_core::Side;
use serde::{Deserialize, Serialize};

use crate::Square;
use crate::square::ROSETTE_MASK;

/// The longest route has 16 steps.
pub const ROUTE_MAX: usize = 16;

/// A route: the path a side's pieces take from the hand (step 0) to home
/// (step `len + 1`).
///
/// Dark's route is light's with rows 1 and 3 swapped.
///
/// | route | light's squares, step 1..len |
/// |---|---|
/// | short (14) | d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 h1 g1 |
/// | long (16) | d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 |
///
/// ```
/// use dice_core::Side;
/// use royal_ur::Route;
///
/// assert_eq!(Route::Long.len(), 16);
/// let g3 = "g3".parse()?;
/// assert_eq!(Route::Long.step_of(Side::Light, g3), Some(12));
/// assert_eq!(Route::Long.step_of(Side::Dark, g3), Some(16));
/// assert_eq!(Route::Short.step_of(Side::Light, g3), None);
/// assert_eq!(Route::Short.square(Side::Dark, 1).map(|s| s.name()), Some("d3"));
/// # Ok::<(), royal_ur::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// Finkel's route, 14 steps; the sides share the 8 squares of row 2.
    Short,
    /// Masters' route, 16 steps; the sides share 12 squares.
    Long,
}

/// Precomputed tables of one route for one side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    /// Steps on the board (14 or 16).
    pub(crate) len: u8,
    /// The cell of each step; index 0 (hand) and past `len` hold 0 and are
    /// never read as a cell.
    pub(crate) cell: [u8; ROUTE_MAX + 2],
    /// The step of each cell, 0 when the route does not visit it.
    pub(crate) step: [u8; 20],
    /// The cells the route visits, as a mask.
    pub(crate) mask: u32,
    /// `chunks[k][v]`: the steps (as a mask, bit `s` for step `s`) of the
    /// cells `5k..5k+4` set in `v`; four lookups turn a cell mask into a
    /// step mask.
    pub(crate) chunks: [[u32; 32]; 4],
}

impl Table {
    /// Runs for every piece of every position generated, so it keeps plain
    /// indexing: each index is masked `& 31` into a 32-entry row, and the rows
    /// are the constants 0..=3 of four.
    ///
    /// The steps of the pieces on `cells`, as a mask (bit `s` for step `s`;
    /// cells the route does not visit are left out).
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `& 31` masks into 32-entry rows (proof above)"
    )]
    pub(crate) fn steps_of(&self, cells: u32) -> u32 {
        self.chunks[0][(cells & 31) as usize]
            | self.chunks[1][((cells >> 5) & 31) as usize]
            | self.chunks[2][((cells >> 10) & 31) as usize]
            | self.chunks[3][((cells >> 15) & 31) as usize]
    }
}

const LIGHT_SHORT: [u8; 14] = [3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 13, 5, 4];
const LIGHT_LONG: [u8; 16] = [3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 18, 19, 13, 5, 4];

/// The cell with rows 1 and 3 swapped.
const fn mirror(cell: u8) -> u8 {
    match cell {
        0..=5 => cell + 14,
        14..=19 => cell - 14,
        _ => cell,
    }
}

/// Builds one side's tables. Only ever evaluated at compile time, for
/// [`TABLES`], so a bad index would fail the build; and none is bad: `i` runs
/// below `light.len()` (at most 16), so `i + 1` fits the 18 entries of `cell`;
/// `mirror` keeps cells in 0..=19, inside the 20 of `step`; `k < 4`, `v < 32`
/// and `5 * k + b <= 19` fit `chunks` and `step`.
#[allow(
    clippy::indexing_slicing,
    reason = "compile-time table construction; bounds proved in the doc comment"
)]
const fn table(light: &[u8], dark: bool) -> Table {
    let mut t = Table {
        len: light.len() as u8,
        cell: [0; ROUTE_MAX + 2],
        step: [0; 20],
        mask: 0,
        chunks: [[0; 32]; 4],
    };
    let mut i = 0;
    while i < light.len() {
        let c = if dark { mirror(light[i]) } else { light[i] };
        t.cell[i + 1] = c;
        t.step[c as usize] = (i + 1) as u8;
        t.mask |= 1 << c;
        i += 1;
    }
    let mut k = 0;
    while k < 4 {
        let mut v = 0;
        while v < 32 {
            let mut steps = 0u32;
            let mut b = 0;
            while b < 5 {
                let cell = 5 * k + b;
                if v & (1 << b) != 0 && t.step[cell] != 0 {
                    steps |= 1 << t.step[cell];
                }
                b += 1;
            }
            t.chunks[k][v] = steps;
            v += 1;
        }
        k += 1;
    }
    t
}

/// `TABLES[route][side]`.
pub(crate) static TABLES: [[Table; 2]; 2] = [
    [table(&LIGHT_SHORT, false), table(&LIGHT_SHORT, true)],
    [table(&LIGHT_LONG, false), table(&LIGHT_LONG, true)],
];

impl Route {
    /// Both routes, short first.
    pub const ALL: [Route; 2] = [Route::Short, Route::Long];

    /// The tables for one side.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `Route` has two variants and `Side::index` is 0 or 1, and `TABLES` is 2 by 2"
    )]
    pub(crate) fn table(self, side: Side) -> &'static Table {
        &TABLES[self as usize][side.index()]
    }

    /// How many steps the route has on the board: 14 or 16. Home is step
    /// `len + 1`.
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> u8 {
        match self {
            Route::Short => 14,
            Route::Long => 16,
        }
    }

    /// The square at `step` (1..=len) of `side`'s route, or `None` for the
    /// hand, home or beyond.
    #[must_use]
    pub fn square(self, side: Side, step: u8) -> Option<Square> {
        let t = self.table(side);
        if step == 0 || step > t.len {
            return None;
        }
        t.cell
            .get(usize::from(step))
            .and_then(|&cell| Square::from_cell(usize::from(cell)))
    }

    /// The step (1..=len) of `square` on `side`'s route, or `None` when the
    /// route does not visit it.
    #[must_use]
    pub fn step_of(self, side: Side, square: Square) -> Option<u8> {
        match self.table(side).step.get(square.cell()) {
            None | Some(0) => None,
            Some(&s) => Some(s),
        }
    }

    /// The squares `side`'s route visits, step 1 first.
    #[must_use]
    pub fn squares(self, side: Side) -> Vec<Square> {
        (1..=self.len())
            .filter_map(|s| self.square(side, s))
            .collect()
    }

    /// The squares on both sides' routes (8 on the short route, 12 on the
    /// long), in cell order.
    #[must_use]
    pub fn shared(self) -> Vec<Square> {
        let mask = self.shared_mask();
        Square::ALL
            .into_iter()
            .filter(|s| mask & (1 << s.cell()) != 0)
            .collect()
    }

    /// The shared cells as a mask over cell indices.
    pub(crate) fn shared_mask(self) -> u32 {
        self.table(Side::Light).mask & self.table(Side::Dark).mask
    }

    /// The steps that land on a rosette, the same for both sides: 4, 8, 14
    /// (short) or 4, 8, 12, 16 (long).
    #[must_use]
    pub fn rosette_steps(self) -> &'static [u8] {
        match self {
            Route::Short => &[4, 8, 14],
            Route::Long => &[4, 8, 12, 16],
        }
    }

    /// The record word, `short` or `long`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Route::Short => "short",
            Route::Long => "long",
        }
    }
}

/// Whether a cell holds a rosette (for code that has a cell, not a square).
#[inline(always)]
pub(crate) const fn is_rosette_cell(cell: u8) -> bool {
    ROSETTE_MASK & (1 << cell) != 0
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A route name that is neither `short` nor `long`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a route is 'short' or 'long', not {0:?}")]
pub struct ParseRouteError(pub String);

impl FromStr for Route {
    type Err = ParseRouteError;

    fn from_str(s: &str) -> Result<Route, ParseRouteError> {
        match s {
            "short" => Ok(Route::Short),
            "long" => Ok(Route::Long),
            _ => Err(ParseRouteError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(route: Route, side: Side) -> String {
        route
            .squares(side)
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn routes_are_the_spec_tables() {
        assert_eq!(
            names(Route::Short, Side::Light),
            "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 h1 g1"
        );
        assert_eq!(
            names(Route::Long, Side::Light),
            "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1"
        );
        assert_eq!(
            names(Route::Short, Side::Dark),
            "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 h3 g3"
        );
        assert_eq!(
            names(Route::Long, Side::Dark),
            "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3"
        );
    }

    #[test]
    fn shared_cells_and_rosette_steps() {
        let shared = |r: Route| {
            r.shared()
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(shared(Route::Short), "a2 b2 c2 d2 e2 f2 g2 h2");
        assert_eq!(shared(Route::Long), "g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 g3 h3");
        for route in Route::ALL {
            for side in Side::ALL {
                let steps: Vec<u8> = (1..=route.len())
                    .filter(|&s| route.square(side, s).is_some_and(Square::is_rosette))
                    .collect();
                assert_eq!(steps, route.rosette_steps());
                assert_eq!(route.square(side, 0), None);
                assert_eq!(route.square(side, route.len() + 1), None);
            }
        }
    }

    #[test]
    fn h2_is_step_14_for_both_on_the_long_route() {
        let h2: Square = "h2".parse().unwrap();
        assert_eq!(Route::Long.step_of(Side::Light, h2), Some(14));
        assert_eq!(Route::Long.step_of(Side::Dark, h2), Some(14));
        let g1: Square = "g1".parse().unwrap();
        assert_eq!(Route::Long.step_of(Side::Light, g1), Some(16));
        assert_eq!(Route::Long.step_of(Side::Dark, g1), Some(12));
    }
}
