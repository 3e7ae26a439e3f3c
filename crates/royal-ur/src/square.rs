//! The squares of the boards and their names.

use std::fmt;
use std::str::FromStr;

/// How many squares (cells) a board has: twenty on either shape.
pub const CELLS: usize = 20;

/// The cells that hold a rosette on the standard board: `a1 g1 d2 a3 g3`,
/// as a bit mask over cell indices.
pub(crate) const ROSETTE_MASK: u32 = (1 << 0) | (1 << 4) | (1 << 9) | (1 << 14) | (1 << 18);

/// The first index of the aseb board's own squares `i2 j2 k2 l2`, which the
/// standard board lacks (20 and 21 are a move's hand and home).
const ASEB_ONLY: u8 = 22;

/// Files of the cells of an outer row, in cell order (`e` and `f` are missing).
const OUTER_FILES: [u8; 6] = [0, 1, 2, 3, 6, 7];

/// A square, named file `a`..`l` and row `1`..`3`: one of the twenty of the
/// standard board, or one of the aseb board's own `i2 j2 k2 l2`.
///
/// On the standard board `e1 f1 e3 f3` do not exist. Row 1 is light's row
/// and row 3 is dark's. Each standard square has a cell index 0..19,
/// counted row by row from row 1 and skipping the gaps (`a1=0 … h1=5`,
/// `a2=6 … h2=13`, `a3=14 … h3=19`); the position key depends on that
/// order. The aseb board's `i2..l2` have the indices 22..25 here (so that a
/// square names itself whatever the board); which squares a board has, in
/// which order its key lays them out, and where its rosettes are, is the
/// board's to say ([`BoardShape`](crate::BoardShape)).
///
/// The text form is the lowercase name; [`FromStr`] reads the standard
/// board's twenty, lowercase only (move text, which is case-insensitive,
/// lowercases first); [`BoardShape::square_named`](crate::BoardShape::square_named)
/// reads a given board's.
///
/// ```
/// use royal_ur::Square;
///
/// let d2: Square = "d2".parse()?;
/// assert_eq!(d2.cell(), 9);
/// assert!(d2.is_rosette());
/// assert_eq!(Square::from_cell(19).map(|s| s.to_string()), Some("h3".to_owned()));
/// assert!("e1".parse::<Square>().is_err());
/// # Ok::<(), royal_ur::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All twenty squares in cell order.
    #[allow(
        clippy::indexing_slicing,
        reason = "evaluated at compile time, and `c` stays below `CELLS`, the array's length"
    )]
    pub const ALL: [Square; CELLS] = {
        let mut all = [Square(0); CELLS];
        let mut c = 0;
        while c < CELLS {
            all[c] = Square(c as u8);
            c += 1;
        }
        all
    };

    /// The standard board's square with this cell index (0..19), if there
    /// is one.
    #[must_use]
    pub const fn from_cell(cell: usize) -> Option<Square> {
        if cell < CELLS {
            Some(Square(cell as u8))
        } else {
            None
        }
    }

    /// The standard board's square at `file` (0 = `a` .. 7 = `h`) and `row`
    /// (1..3), if it exists.
    #[must_use]
    pub const fn at(file: u8, row: u8) -> Option<Square> {
        match row {
            1 | 3 => {
                let base = if row == 1 { 0 } else { 14 };
                match file {
                    0..=3 => Some(Square(base + file)),
                    6 | 7 => Some(Square(base + file - 2)),
                    _ => None,
                }
            }
            2 if file < 8 => Some(Square(6 + file)),
            _ => None,
        }
    }

    /// The square with this index ([`Square::cell`]), for tables built at
    /// compile time from indices of real squares (0..=19, 22..=25).
    pub(crate) const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The square at `file` (0 = `a` .. 11 = `l`) and `row` (1..3) on either
    /// board: the standard board's, or one of the aseb board's `i2..l2`.
    pub(crate) const fn any_at(file: u8, row: u8) -> Option<Square> {
        if row == 2 && file >= 8 && file < 12 {
            Some(Square(ASEB_ONLY + file - 8))
        } else {
            Square::at(file, row)
        }
    }

    /// The cell index on the standard board, 0..19; the aseb board's own
    /// `i2..l2` come after it, 22..25. It is the square's bit in a
    /// position's masks ([`Position::board_mask`](crate::Position::board_mask));
    /// [`BoardShape::cell`](crate::BoardShape::cell) gives the cell on a
    /// given board, in the order of its key.
    #[must_use]
    pub const fn cell(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 11 (`l`).
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "the arms index `OUTER_FILES` (6 entries) with 0..=5: cells 0..=5 directly, cells 14..=19 less 14"
    )]
    pub const fn file(self) -> u8 {
        match self.0 {
            0..=5 => OUTER_FILES[self.0 as usize],
            6..=13 => self.0 - 6,
            14..=19 => OUTER_FILES[(self.0 - 14) as usize],
            _ => self.0 - ASEB_ONLY + 8,
        }
    }

    /// The row, 1 to 3.
    #[must_use]
    pub const fn row(self) -> u8 {
        match self.0 {
            0..=5 => 1,
            14..=19 => 3,
            _ => 2,
        }
    }

    /// Whether the square holds a rosette on the standard board (`a1 g1 d2
    /// a3 g3`); [`BoardShape::is_rosette`](crate::BoardShape::is_rosette)
    /// asks a given board.
    #[must_use]
    pub const fn is_rosette(self) -> bool {
        ROSETTE_MASK & (1 << self.0) != 0
    }

    /// The lowercase name, e.g. `d2`.
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "NAMES has 26 entries and `self.0` is below 26: the constructors make cells \
                  0..=19 (`from_cell`, `at`, `ALL`) and 22..=25 (`any_at`) only"
    )]
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; 26] = [
            "a1", "b1", "c1", "d1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
            "a3", "b3", "c3", "d3", "g3", "h3", "", "", "i2", "j2", "k2", "l2",
        ];
        NAMES[self.0 as usize]
    }

    /// The file and row a two-character name spells, read
    /// case-insensitively (`None` for any other length).
    pub(crate) fn file_row(name: &str) -> Option<(u8, u8)> {
        match name.as_bytes() {
            [f, r] => Some((
                f.to_ascii_lowercase().wrapping_sub(b'a'),
                r.wrapping_sub(b'0'),
            )),
            _ => None,
        }
    }

    /// The standard board's square a name spells, read case-insensitively;
    /// used by move text.
    pub(crate) fn from_name_any_case(name: &str) -> Option<Square> {
        Square::file_row(name).and_then(|(file, row)| Square::at(file, row))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of a board's squares (on the standard board
/// lowercase `a1` … `h3`, with `e1 f1 e3 f3` missing).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no square called {0:?}")]
pub struct ParseSquareError(pub String);

impl ParseSquareError {
    /// The contract word, `square`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "square"
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        if s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(ParseSquareError(s.to_owned()));
        }
        Square::from_name_any_case(s).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

dice_core::serde_via_text!(Square);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_follow_the_spec_order() {
        let names: Vec<&str> = Square::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(
            names.join(" "),
            "a1 b1 c1 d1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 g3 h3"
        );
        for sq in Square::ALL {
            assert_eq!(Square::at(sq.file(), sq.row()), Some(sq));
            assert_eq!(sq.name().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn gaps_and_junk_are_not_squares() {
        for bad in [
            "e1", "f1", "e3", "f3", "i2", "a0", "a4", "A1", "", "a", "a11", " a1",
        ] {
            assert_eq!(
                bad.parse::<Square>(),
                Err(ParseSquareError(bad.to_owned())),
                "{bad}"
            );
        }
    }

    #[test]
    fn rosettes_are_the_five() {
        let r: Vec<&str> = Square::ALL
            .iter()
            .filter(|s| s.is_rosette())
            .map(|s| s.name())
            .collect();
        assert_eq!(r, ["a1", "g1", "d2", "a3", "g3"]);
    }
}
