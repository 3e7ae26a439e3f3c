//! The paths: which square each step of a side's own path is, and the
//! reference's two routes as spellings of two of them.

use std::fmt;
use std::str::FromStr;

use dice_core::Side;
use serde::{Deserialize, Serialize};

use crate::{BoardShape, Square};

/// The longest path has 27 steps (murray's).
pub const PATH_MAX: usize = 27;

/// A pair of paths, one for each side: the squares a side's pieces take
/// from the hand (step 0) to home (step `len + 1`). Dark's path is light's
/// with rows 1 and 3 swapped, on every path here.
///
/// | path | board | steps | light's squares, step 1..len |
/// |---|---|---|---|
/// | bell | standard | 14 | d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 h1 g1 |
/// | masters | standard | 16 | d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 |
/// | murray | standard | 27 | masters', then g2 f2 e2 d2 c2 b2 a2 a3 b3 c3 d3 |
/// | skiriuk | standard | 23 | masters', then g2 f2 e2 d2 c2 b2 a2 |
/// | aseb | aseb | 16 | d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2 |
///
/// Bell's is the reference's short route and masters' its long one.
/// Murray's and skiriuk's paths come back down the middle lane, so a piece
/// visits `a2..g2` twice, first on the way out (steps 5..11) and again on
/// the way back (steps 23..17): a position says which visit a piece is on.
/// Murray's path leaves the board along the other side's entry row, so
/// every square is on both sides' paths.
///
/// ```
/// use dice_core::Side;
/// use royal_ur::{BoardShape, Path};
///
/// assert_eq!(Path::Murray.len(), 27);
/// let e2 = "e2".parse()?;
/// assert_eq!(Path::Murray.step_of(Side::Light, e2), Some(9));
/// assert_eq!(Path::Murray.second_step_of(Side::Light, e2), Some(19));
/// assert_eq!(Path::Masters.second_step_of(Side::Light, e2), None);
/// assert_eq!(Path::Aseb.board(), BoardShape::Aseb);
/// assert_eq!(Path::Aseb.square(Side::Dark, 16).map(|s| s.name()), Some("l2"));
/// # Ok::<(), royal_ur::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Path {
    /// R. C. Bell's (1979), finkel's: 14 steps; the sides share row 2.
    Bell,
    /// James Masters' (2021): 16 steps; the sides share row 2 and `g1 h1 g3 h3`.
    Masters,
    /// H. J. R. Murray's (1952): 27 steps, out and back along row 2 and off
    /// along the other side's entry row.
    Murray,
    /// Dmitriy Skiriuk's (2021): 23 steps, out and back along row 2 and off
    /// its end.
    Skiriuk,
    /// The aseb board's (Crist, Dunn-Vaturi and de Voogt, 2016): 16 steps
    /// along the whole twelve-square middle lane.
    Aseb,
}

/// Precomputed tables of one path for one side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    /// Steps on the board.
    pub(crate) len: u8,
    /// The square (its index, [`Square::cell`]) of each step; index 0 (the
    /// hand) and past `len` hold 0 and are never read as a square.
    pub(crate) cell: [u8; 32],
    /// `chunks[k][v]`: the steps (as a mask, bit `s` for step `s`) of the
    /// squares `5k..5k+4` set in `v`, each at its first visit; four lookups
    /// turn a standard board's mask into a step mask, six any board's.
    pub(crate) chunks: [[u32; 32]; 6],
    /// The first step of each square, 0 when the path does not visit it.
    pub(crate) step: [u8; 32],
    /// The second step of each square, 0 when the path visits it at most
    /// once.
    pub(crate) step2: [u8; 32],
    /// `laps[v]`: the second steps (as a mask) of the squares `a2..g2`
    /// whose files are set in `v` (bit `f` for file `f`).
    pub(crate) laps: [u32; 128],
    /// The squares the path visits, as a mask.
    pub(crate) mask: u32,
}

impl Table {
    /// Runs for every piece of every position generated, so it keeps plain
    /// indexing: each index is masked `& 31` into a 32-entry row, and the rows
    /// are the constants 0..=3 of six.
    ///
    /// The steps of the pieces on `cells` (squares of the standard board,
    /// at their first visit), as a mask (bit `s` for step `s`; squares the
    /// path does not visit are left out).
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

    /// [`Table::steps_of`] for squares of either board (indices up to 29).
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `& 31` masks into 32-entry rows, and the rows are the constants 4 and 5 of six"
    )]
    pub(crate) fn steps_of_wide(&self, cells: u32) -> u32 {
        self.steps_of(cells)
            | self.chunks[4][((cells >> 20) & 31) as usize]
            | self.chunks[5][((cells >> 25) & 31) as usize]
    }

    /// The second steps of the pieces on `a2..g2` whose files are set in
    /// `laps`.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `& 127` masks into the 128 entries of `laps`"
    )]
    pub(crate) fn lap_steps(&self, laps: u8) -> u32 {
        self.laps[usize::from(laps & 127)]
    }
}

/// Light's squares (indices, [`Square::cell`]) on each path, step 1 first.
const BELL: [u8; 14] = [3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 13, 5, 4];
const MASTERS: [u8; 16] = [3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 18, 19, 13, 5, 4];
const MURRAY: [u8; 27] = [
    3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 18, 19, 13, 5, 4, 12, 11, 10, 9, 8, 7, 6, 14, 15, 16, 17,
];
const SKIRIUK: [u8; 23] = [
    3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 18, 19, 13, 5, 4, 12, 11, 10, 9, 8, 7, 6,
];
const ASEB: [u8; 16] = [3, 2, 1, 0, 6, 7, 8, 9, 10, 11, 12, 13, 22, 23, 24, 25];

/// The square with rows 1 and 3 swapped (row 2 stays).
const fn mirror(cell: u8) -> u8 {
    match cell {
        0..=5 => cell + 14,
        14..=19 => cell - 14,
        _ => cell,
    }
}

/// Builds one side's tables. Only ever evaluated at compile time, for
/// [`TABLES`], so a bad index would fail the build; and none is bad: `i` runs
/// below `light.len()` (at most 27), so `i + 1` fits the 32 entries of
/// `cell`; squares are below 26, inside the 32 of `step` and `step2`; a
/// step is at most 27 and fits a `u32` mask; `k < 6`, `v < 32` and
/// `5 * k + b < 30` fit `chunks` and `step`; `f < 7` and `v < 128` fit
/// `laps`.
#[allow(
    clippy::indexing_slicing,
    reason = "compile-time table construction; bounds proved in the doc comment"
)]
const fn table(light: &[u8], dark: bool) -> Table {
    let mut t = Table {
        len: light.len() as u8,
        cell: [0; 32],
        chunks: [[0; 32]; 6],
        step: [0; 32],
        step2: [0; 32],
        laps: [0; 128],
        mask: 0,
    };
    let mut i = 0;
    while i < light.len() {
        let c = if dark { mirror(light[i]) } else { light[i] };
        t.cell[i + 1] = c;
        if t.step[c as usize] == 0 {
            t.step[c as usize] = (i + 1) as u8;
        } else {
            t.step2[c as usize] = (i + 1) as u8;
        }
        t.mask |= 1 << c;
        i += 1;
    }
    let mut k = 0;
    while k < 6 {
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
    let mut v = 0;
    while v < 128 {
        let mut steps = 0u32;
        let mut f = 0;
        while f < 7 {
            let second = t.step2[6 + f];
            if v & (1 << f) != 0 && second != 0 {
                steps |= 1 << second;
            }
            f += 1;
        }
        t.laps[v] = steps;
        v += 1;
    }
    t
}

/// `TABLES[path][side]`.
static TABLES: [[Table; 2]; 5] = [
    [table(&BELL, false), table(&BELL, true)],
    [table(&MASTERS, false), table(&MASTERS, true)],
    [table(&MURRAY, false), table(&MURRAY, true)],
    [table(&SKIRIUK, false), table(&SKIRIUK, true)],
    [table(&ASEB, false), table(&ASEB, true)],
];

impl Path {
    /// Every path, in the order of the table above.
    pub const ALL: [Path; 5] = [
        Path::Bell,
        Path::Masters,
        Path::Murray,
        Path::Skiriuk,
        Path::Aseb,
    ];

    /// The tables for one side.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `Path` has five variants and `Side::index` is 0 or 1, and `TABLES` is 5 by 2"
    )]
    pub(crate) fn table(self, side: Side) -> &'static Table {
        &TABLES[self as usize][side.index()]
    }

    /// The board the path is played on: the aseb board for the aseb path,
    /// the standard board for the others.
    #[must_use]
    pub const fn board(self) -> BoardShape {
        match self {
            Path::Aseb => BoardShape::Aseb,
            _ => BoardShape::Standard,
        }
    }

    /// The reference's name for the path, for the two it has.
    #[must_use]
    pub const fn route(self) -> Option<Route> {
        match self {
            Path::Bell => Some(Route::Short),
            Path::Masters => Some(Route::Long),
            _ => None,
        }
    }

    /// Whether a piece visits some squares twice (murray, skiriuk: `a2..g2`).
    #[must_use]
    pub const fn revisits(self) -> bool {
        matches!(self, Path::Murray | Path::Skiriuk)
    }

    /// How many steps the path has on the board: 14, 16, 27, 23 or 16.
    /// Home is step `len + 1`.
    #[must_use]
    #[allow(clippy::len_without_is_empty)]
    pub const fn len(self) -> u8 {
        match self {
            Path::Bell => 14,
            Path::Masters | Path::Aseb => 16,
            Path::Murray => 27,
            Path::Skiriuk => 23,
        }
    }

    /// The square at `step` (1..=len) of `side`'s path, or `None` for the
    /// hand, home or beyond.
    #[must_use]
    pub fn square(self, side: Side, step: u8) -> Option<Square> {
        let t = self.table(side);
        if step == 0 || step > t.len {
            return None;
        }
        t.cell
            .get(usize::from(step))
            .map(|&c| Square::from_index(c))
    }

    /// The step (1..=len) at which `side`'s path first visits `square`, or
    /// `None` when it does not.
    #[must_use]
    pub fn step_of(self, side: Side, square: Square) -> Option<u8> {
        match self.table(side).step.get(square.cell()) {
            None | Some(0) => None,
            Some(&s) => Some(s),
        }
    }

    /// The step at which `side`'s path visits `square` a second time, or
    /// `None` when it visits it at most once (on murray's and skiriuk's
    /// paths `a2..g2` are visited twice).
    #[must_use]
    pub fn second_step_of(self, side: Side, square: Square) -> Option<u8> {
        match self.table(side).step2.get(square.cell()) {
            None | Some(0) => None,
            Some(&s) => Some(s),
        }
    }

    /// The squares `side`'s path visits, step 1 first (a square visited
    /// twice comes twice).
    #[must_use]
    pub fn squares(self, side: Side) -> Vec<Square> {
        (1..=self.len())
            .filter_map(|s| self.square(side, s))
            .collect()
    }

    /// The squares on both sides' paths, in the board's cell order: 8 on
    /// bell's, 12 on masters', skiriuk's and aseb's, all 20 on murray's.
    #[must_use]
    pub fn shared(self) -> Vec<Square> {
        let mask = self.shared_mask();
        self.board()
            .squares()
            .iter()
            .copied()
            .filter(|s| mask & (1 << s.cell()) != 0)
            .collect()
    }

    /// The shared squares as a mask over square indices.
    pub(crate) fn shared_mask(self) -> u32 {
        self.table(Side::Light).mask & self.table(Side::Dark).mask
    }

    /// The steps that land on a rosette of the path's board, the same for
    /// both sides: bell 4, 8, 14; masters and aseb 4, 8, 12, 16; murray 4, 8,
    /// 12, 16, 20, 24; skiriuk 4, 8, 12, 16, 20.
    #[must_use]
    pub const fn rosette_steps(self) -> &'static [u8] {
        match self {
            Path::Bell => &[4, 8, 14],
            Path::Masters | Path::Aseb => &[4, 8, 12, 16],
            Path::Murray => &[4, 8, 12, 16, 20, 24],
            Path::Skiriuk => &[4, 8, 12, 16, 20],
        }
    }

    /// Whether the two sides' paths mirror each other: the same length,
    /// and at every step dark's square is light's with rows 1 and 3
    /// swapped. It holds for every path here (a solver that stores one
    /// side's view relies on it).
    #[must_use]
    pub fn mirrors(self) -> bool {
        let (light, dark) = (self.table(Side::Light), self.table(Side::Dark));
        light.len == dark.len
            && (1..=usize::from(light.len))
                .all(|s| light.cell.get(s).map(|&c| mirror(c)) == dark.cell.get(s).copied())
    }

    /// The record word: `bell`, `masters`, `murray`, `skiriuk` or `aseb`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Path::Bell => "bell",
            Path::Masters => "masters",
            Path::Murray => "murray",
            Path::Skiriuk => "skiriuk",
            Path::Aseb => "aseb",
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A path name that is none of `bell masters murray skiriuk aseb`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a path is bell, masters, murray, skiriuk or aseb, not {0:?}")]
pub struct ParsePathError(pub String);

impl FromStr for Path {
    type Err = ParsePathError;

    fn from_str(s: &str) -> Result<Path, ParsePathError> {
        Path::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ParsePathError(s.to_owned()))
    }
}

/// The reference's name for a path: `short` is [`Path::Bell`] (finkel's)
/// and `long` is [`Path::Masters`]. The reference's rules text writes the
/// path so (`route=short`), and its rule sets use only these two.
///
/// ```
/// use royal_ur::{Path, Route};
///
/// assert_eq!(Route::Long.path(), Path::Masters);
/// assert_eq!(Path::Bell.route(), Some(Route::Short));
/// assert_eq!(Path::Murray.route(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// Finkel's route: [`Path::Bell`].
    Short,
    /// Masters' route: [`Path::Masters`].
    Long,
}

impl Route {
    /// Both routes, short first.
    pub const ALL: [Route; 2] = [Route::Short, Route::Long];

    /// The path the route names.
    #[must_use]
    pub const fn path(self) -> Path {
        match self {
            Route::Short => Path::Bell,
            Route::Long => Path::Masters,
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

    fn names(path: Path, side: Side) -> String {
        path.squares(side)
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn paths_are_royalur_s_square_by_square() {
        let cases = [
            (
                Path::Bell,
                "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 h1 g1",
                "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 h3 g3",
            ),
            (
                Path::Masters,
                "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1",
                "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3",
            ),
            (
                Path::Murray,
                "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 g2 f2 e2 d2 c2 b2 a2 a3 b3 c3 d3",
                "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3 g2 f2 e2 d2 c2 b2 a2 a1 b1 c1 d1",
            ),
            (
                Path::Skiriuk,
                "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 g2 f2 e2 d2 c2 b2 a2",
                "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3 g2 f2 e2 d2 c2 b2 a2",
            ),
            (
                Path::Aseb,
                "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2",
                "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2",
            ),
        ];
        for (path, light, dark) in cases {
            assert_eq!(names(path, Side::Light), light, "{path}");
            assert_eq!(names(path, Side::Dark), dark, "{path}");
            assert_eq!(path.squares(Side::Light).len(), usize::from(path.len()));
            assert!(path.mirrors(), "{path}");
        }
    }

    #[test]
    fn shared_squares_rosette_steps_and_second_visits() {
        let shared = |p: Path| {
            p.shared()
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(shared(Path::Bell), "a2 b2 c2 d2 e2 f2 g2 h2");
        assert_eq!(shared(Path::Masters), "g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 g3 h3");
        assert_eq!(shared(Path::Skiriuk), shared(Path::Masters));
        assert_eq!(Path::Murray.shared().len(), 20);
        assert_eq!(shared(Path::Aseb), "a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2");
        for path in Path::ALL {
            for side in Side::ALL {
                let steps: Vec<u8> = (1..=path.len())
                    .filter(|&s| {
                        path.square(side, s)
                            .is_some_and(|sq| path.board().is_rosette(sq))
                    })
                    .collect();
                assert_eq!(steps, path.rosette_steps(), "{path} {side}");
                assert_eq!(path.square(side, 0), None);
                assert_eq!(path.square(side, path.len() + 1), None);
                for step in 1..=path.len() {
                    let sq = path.square(side, step).unwrap();
                    assert!(path.board().has(sq));
                    let visits = [path.step_of(side, sq), path.second_step_of(side, sq)];
                    assert!(visits.contains(&Some(step)), "{path} {side} {step}");
                }
                let twice: Vec<&str> = path
                    .board()
                    .squares()
                    .iter()
                    .filter(|&&sq| path.second_step_of(side, sq).is_some())
                    .map(|sq| sq.name())
                    .collect();
                let want: &[&str] = if path.revisits() {
                    &["a2", "b2", "c2", "d2", "e2", "f2", "g2"]
                } else {
                    &[]
                };
                assert_eq!(twice, want, "{path} {side}");
            }
        }
        let a2 = Square::at(0, 2).unwrap();
        assert_eq!(Path::Murray.step_of(Side::Dark, a2), Some(5));
        assert_eq!(Path::Murray.second_step_of(Side::Dark, a2), Some(23));
        let a3 = Square::at(0, 3).unwrap();
        assert_eq!(Path::Murray.step_of(Side::Light, a3), Some(24));
        assert_eq!(Path::Murray.step_of(Side::Dark, a3), Some(4));
    }

    #[test]
    fn step_numbers_differ_by_side_on_masters_path() {
        let h2: Square = "h2".parse().unwrap();
        assert_eq!(Path::Masters.step_of(Side::Light, h2), Some(14));
        assert_eq!(Path::Masters.step_of(Side::Dark, h2), Some(14));
        let g1: Square = "g1".parse().unwrap();
        assert_eq!(Path::Masters.step_of(Side::Light, g1), Some(16));
        assert_eq!(Path::Masters.step_of(Side::Dark, g1), Some(12));
    }

    #[test]
    fn names_read_back() {
        for path in Path::ALL {
            assert_eq!(path.as_str().parse::<Path>(), Ok(path));
        }
        for route in Route::ALL {
            assert_eq!(route.path().route(), Some(route));
            assert_eq!(route.as_str().parse::<Route>(), Ok(route));
        }
        assert!("short".parse::<Path>().is_err());
        assert!("Bell".parse::<Path>().is_err());
    }
}
