//! The two board shapes: which squares a board has, where its rosettes are,
//! and the order its key lays the squares out in.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::square::ROSETTE_MASK;
use crate::{CELLS, Square};

/// A board's shape. Both have twenty squares in three rows; row 1 is
/// light's, row 3 dark's, and row 2 the middle lane both sides share.
///
/// * `standard`, the board of the British Museum: rows 1 and 3 have files
///   `a..d` and `g..h` (`e1 f1 e3 f3` are missing), row 2 has `a..h`.
///   Rosettes `a1 g1 d2 a3 g3`.
/// * `aseb`, the aseb (twenty squares) board: rows 1 and 3 have files
///   `a..d`, row 2 has `a..l`. Rosettes `a1 a3 d2 h2 l2`.
///
/// ```text
///  standard                              aseb
///       a   b   c   d   e   f   g   h        a   b   c   d   e   f   g   h   i   j   k   l
///   3  [*] [ ] [ ] [ ]         [*] [ ]   3  [*] [ ] [ ] [ ]
///   2  [ ] [ ] [ ] [*] [ ] [ ] [ ] [ ]   2  [ ] [ ] [ ] [*] [ ] [ ] [ ] [*] [ ] [ ] [ ] [*]
///   1  [*] [ ] [ ] [ ]         [*] [ ]   1  [*] [ ] [ ] [ ]
/// ```
///
/// Each board numbers its squares row by row from row 1 (its cells, 0..19),
/// which is the order its key lays them out in: the standard board as
/// the reference does (`a1=0 … h1=5`, `a2=6 … h2=13`, `a3=14 … h3=19`), the
/// aseb board `a1=0 … d1=3`, `a2=4 … l2=15`, `a3=16 … d3=19`.
///
/// ```
/// use royal_ur::BoardShape;
///
/// let aseb = BoardShape::Aseb;
/// let l2 = aseb.square_named("l2").expect("on the aseb board");
/// assert_eq!((aseb.cell(l2), aseb.is_rosette(l2)), (Some(15), true));
/// assert_eq!(BoardShape::Standard.cell(l2), None);
/// assert_eq!(BoardShape::Standard.square_named("e1"), None);
/// assert_eq!("aseb".parse::<BoardShape>(), Ok(aseb));
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum BoardShape {
    /// Twenty squares, eight long, with a gap in the outer rows.
    #[default]
    Standard,
    /// Twenty squares: four on each side, a middle lane of twelve.
    Aseb,
}

/// The aseb board's squares in cell order, by their indices (see
/// [`Square::cell`]): `a1..d1`, `a2..h2`, `i2..l2`, `a3..d3`.
const ASEB_SQUARES: [u8; CELLS] = [
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 22, 23, 24, 25, 14, 15, 16, 17,
];

/// The aseb board's squares, as a mask over square indices.
const ASEB_MASK: u32 = 0xf | (0xff << 6) | (0xf << 14) | (0xf << 22);

/// The aseb board's rosettes `a1 d2 h2 a3 l2`, as a mask over square
/// indices.
const ASEB_ROSETTES: u32 = (1 << 0) | (1 << 9) | (1 << 13) | (1 << 14) | (1 << 25);

/// The squares of each board in cell order.
static SQUARES: [[Square; CELLS]; 2] = [Square::ALL, aseb_squares()];

#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time; `i` runs below `CELLS`, the length of both arrays"
)]
const fn aseb_squares() -> [Square; CELLS] {
    let mut out = Square::ALL;
    let mut i = 0;
    while i < CELLS {
        out[i] = Square::from_index(ASEB_SQUARES[i]);
        i += 1;
    }
    out
}

impl BoardShape {
    /// Both shapes, standard first.
    pub const ALL: [BoardShape; 2] = [BoardShape::Standard, BoardShape::Aseb];

    /// The record word, `standard` or `aseb`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            BoardShape::Standard => "standard",
            BoardShape::Aseb => "aseb",
        }
    }

    /// The board's twenty squares in cell order (the order of its key).
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "`BoardShape` has two variants, and `SQUARES` two rows"
    )]
    pub fn squares(self) -> &'static [Square; CELLS] {
        &SQUARES[self as usize]
    }

    /// The cell of `square` on this board (0..19, the order of its key), or
    /// `None` when the board does not have it.
    #[must_use]
    pub fn cell(self, square: Square) -> Option<usize> {
        match self {
            BoardShape::Standard => Square::from_cell(square.cell()).map(Square::cell),
            BoardShape::Aseb => ASEB_SQUARES
                .iter()
                .position(|&i| usize::from(i) == square.cell()),
        }
    }

    /// The square at cell `cell` (0..19) of this board.
    #[must_use]
    pub fn square(self, cell: usize) -> Option<Square> {
        self.squares().get(cell).copied()
    }

    /// The square at `file` (0 = `a`) and `row` (1..3), if this board has it.
    #[must_use]
    pub fn at(self, file: u8, row: u8) -> Option<Square> {
        Square::any_at(file, row).filter(|&sq| self.has(sq))
    }

    /// Whether this board has `square`.
    #[must_use]
    pub const fn has(self, square: Square) -> bool {
        self.mask() & (1 << square.cell()) != 0
    }

    /// Whether `square` holds a rosette on this board.
    #[must_use]
    pub const fn is_rosette(self, square: Square) -> bool {
        self.rosette_mask() & (1 << square.cell()) != 0
    }

    /// The rosettes of this board, in cell order.
    #[must_use]
    pub fn rosettes(self) -> Vec<Square> {
        self.squares()
            .iter()
            .copied()
            .filter(|&sq| self.is_rosette(sq))
            .collect()
    }

    /// How many files long the board is: 8 (`a..h`) or 12 (`a..l`).
    #[must_use]
    pub const fn files(self) -> u8 {
        match self {
            BoardShape::Standard => 8,
            BoardShape::Aseb => 12,
        }
    }

    /// How many squares row `row` (1..3) of the position text covers: 8 on
    /// the standard board (its gaps written `x`); 4, 12 and 4 on the aseb
    /// board. 0 for a row that does not exist.
    #[must_use]
    pub const fn row_width(self, row: u8) -> u8 {
        match (self, row) {
            (BoardShape::Standard, 1..=3) | (BoardShape::Aseb, 2) => self.files(),
            (BoardShape::Aseb, 1 | 3) => 4,
            _ => 0,
        }
    }

    /// The square a name spells on this board, read case-insensitively
    /// (`E2`, `l2`), or `None` when the board has no such square.
    #[must_use]
    pub fn square_named(self, name: &str) -> Option<Square> {
        Square::file_row(name).and_then(|(file, row)| self.at(file, row))
    }

    /// The board's squares, as a mask over square indices
    /// ([`Square::cell`]).
    pub(crate) const fn mask(self) -> u32 {
        match self {
            BoardShape::Standard => (1 << CELLS) - 1,
            BoardShape::Aseb => ASEB_MASK,
        }
    }

    /// The board's rosettes, as a mask over square indices.
    #[inline(always)]
    pub(crate) const fn rosette_mask(self) -> u32 {
        match self {
            BoardShape::Standard => ROSETTE_MASK,
            BoardShape::Aseb => ASEB_ROSETTES,
        }
    }

    /// A mask over square indices turned into one over this board's cells
    /// (the order of its key). The standard board's cells are the indices.
    #[inline(always)]
    pub(crate) const fn cells_of(self, squares: u32) -> u32 {
        match self {
            BoardShape::Standard => squares,
            BoardShape::Aseb => {
                (squares & 0xf)
                    | ((squares >> 2) & (0xff << 4))
                    | ((squares >> 10) & (0xf << 12))
                    | ((squares << 2) & (0xf << 16))
            }
        }
    }
}

impl fmt::Display for BoardShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A board name that is neither `standard` nor `aseb`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a board is 'standard' or 'aseb', not {0:?}")]
pub struct ParseBoardError(pub String);

impl FromStr for BoardShape {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<BoardShape, ParseBoardError> {
        match s {
            "standard" => Ok(BoardShape::Standard),
            "aseb" => Ok(BoardShape::Aseb),
            _ => Err(ParseBoardError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(squares: &[Square]) -> String {
        squares
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn cells_are_row_by_row_from_row_1() {
        assert_eq!(
            names(BoardShape::Aseb.squares()),
            "a1 b1 c1 d1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2 a3 b3 c3 d3"
        );
        assert_eq!(BoardShape::Standard.squares(), &Square::ALL);
        for shape in BoardShape::ALL {
            for (cell, &sq) in shape.squares().iter().enumerate() {
                assert_eq!(shape.cell(sq), Some(cell));
                assert_eq!(shape.square(cell), Some(sq));
                assert_eq!(shape.at(sq.file(), sq.row()), Some(sq));
                assert_eq!(shape.square_named(&sq.name().to_uppercase()), Some(sq));
                assert_eq!(shape.cells_of(1 << sq.cell()), 1 << cell);
            }
            assert_eq!(shape.mask().count_ones() as usize, CELLS);
        }
    }

    #[test]
    fn missing_squares_and_rosettes() {
        let aseb = BoardShape::Aseb;
        for gone in ["e1", "h1", "g3", "m2", "a4", "i1"] {
            assert_eq!(aseb.square_named(gone), None, "{gone}");
        }
        for gone in ["e1", "f3", "i2", "l2"] {
            assert_eq!(BoardShape::Standard.square_named(gone), None, "{gone}");
        }
        assert_eq!(names(&aseb.rosettes()), "a1 d2 h2 l2 a3");
        assert_eq!(names(&BoardShape::Standard.rosettes()), "a1 g1 d2 a3 g3");
        assert_eq!(
            (0..=3).map(|r| aseb.row_width(r)).collect::<Vec<_>>(),
            [0, 4, 12, 4]
        );
    }
}
