//! Position strings: reading them as the reference does, and writing them.

use std::fmt;
use std::str::FromStr;

use dice_core::Side;

use super::{LAP_SQUARES, Position, lap_bit};
use crate::{BoardShape, Square, Variant};

dice_core::coded_enum! {
    /// The reference's position codes (`code()`, e.g. `POS_GAP`), with their
    /// numbers.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum PositionErrorKind {
        /// No string, or an empty one (1).
        Null = 1("POS_NULL", "it is empty"),
        /// Not three rows (2).
        Rows = 2("POS_ROWS", "it does not have three rows"),
        /// A row not as wide as the board's (eight files; on the aseb board 4,
        /// 12 and 4) (3).
        Width = 3("POS_WIDTH", "a row is not eight squares wide"),
        /// A meaningless character (4).
        Letter = 4("POS_LETTER", "it holds a character that means nothing there"),
        /// A piece or an empty run on a missing square e1/f1/e3/f3 (5).
        Gap = 5("POS_GAP", "a piece or an empty run falls on a missing square"),
        /// An `x` on a real square (6).
        X = 6("POS_X", "an x stands on a real square"),
        /// The side is not `l` or `d` (7).
        Side = 7("POS_SIDE", "the side to move is not l or d"),
        /// A hand or home that is not one digit 0-7 (8).
        Count = 8("POS_COUNT", "a hand or home is not one digit 0 to 7"),
        /// A field missing, or something after the last (9).
        Field = 9("POS_FIELD", "a field is missing or something follows the last"),
        /// 48 characters or more (10).
        Long = 10("POS_LONG", "it is 48 characters or longer"),
    }
}

impl PositionErrorKind {
    /// The reference's number, 1..10 (0 is `POS_OK`, which is no error).
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// What the code means on `shape`'s board.
    #[must_use]
    pub const fn message_on(self, shape: BoardShape) -> &'static str {
        match (shape, self) {
            (BoardShape::Aseb, PositionErrorKind::Width) => {
                "a row is not as wide as the aseb board's (4, 12 and 4 squares)"
            }
            (BoardShape::Aseb, PositionErrorKind::X) => {
                "an x stands on a square (the aseb board has no gaps to mark)"
            }
            _ => self.message(),
        }
    }
}

/// A position string that was refused, with the reference's code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the position {text:?} was refused ({}): {}", .code.code(), .code.message_on(*.shape))]
pub struct PositionError {
    code: PositionErrorKind,
    text: String,
    shape: BoardShape,
}

impl PositionError {
    /// The reference's code.
    #[must_use]
    pub const fn kind(&self) -> PositionErrorKind {
        self.code
    }

    /// The reference's name for the code, e.g. `POS_GAP`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.code.code()
    }

    /// The reference's number for the code, 1..10.
    #[must_use]
    pub const fn number(&self) -> u8 {
        self.code.number()
    }

    /// The text that was refused.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the code means on the board the text was read for.
    #[must_use]
    pub const fn message(&self) -> &'static str {
        self.code.message_on(self.shape)
    }
}

/// Whether file `file` of internal row `row` (0 = row 1) is a missing square
/// of the standard board.
const fn is_gap(row: usize, file: usize) -> bool {
    row != 1 && (file == 4 || file == 5)
}

/// Which letters a position text may hold beyond `l` and `d`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Letters {
    /// The reference's: `l`, `d`, digits 1..8 and `x`.
    Reference,
    /// The reference's, and `L`/`D` for a piece on its second visit to
    /// `a2..g2` (murray's and skiriuk's paths).
    SecondVisits,
}

// The per-side accessors below index `boards`, `hands` and `homes` by side.
// Every such index is `Side::index()`, which is 0 or 1, into a two-entry
// array, so none can be out of bounds.
#[allow(
    clippy::indexing_slicing,
    reason = "every index is a `Side::index` (0 or 1) into a two-entry per-side array"
)]
impl Position {
    /// Reads a position string of the standard board, checking it exactly
    /// as the reference does, left to right, so that the first fault found
    /// gives the code. ([`Position::parse_for`] reads a rule set's texts:
    /// the aseb board's, and second visits.)
    ///
    /// ```
    /// use royal_ur::{Position, PositionErrorKind};
    ///
    /// assert!(Position::parse("llllxxll/lll5/4xx2 l 7 7 7 7").is_ok());
    /// let err = Position::parse("8/8/8 l 7 0 7 0").unwrap_err();
    /// assert_eq!(err.kind(), PositionErrorKind::Gap);
    /// assert_eq!(err.number(), 5);
    /// ```
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first fault ([`PositionErrorKind`]).
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        Position::read_text(text, BoardShape::Standard, Letters::Reference)
    }

    /// Reads a position string as `variant` writes it:
    ///
    /// * on the standard board, the reference's text ([`Position::parse`]),
    ///   and under the murray and skiriuk paths `L` or `D` for a light or
    ///   dark piece on its second visit to one of `a2..g2` (anywhere else,
    ///   and under any other path, `L` and `D` are `POS_LETTER` as in the
    ///   reference);
    /// * on the aseb board, its three rows of 4, 12 and 4 squares, only
    ///   real squares and no `x`: `row3/row2/row1 side lhand lhome dhand
    ///   dhome`, with `l`, `d` and a decimal number 1..12 for that many
    ///   empty squares (adjacent empties are one number, so every position
    ///   has one text). The start with five pieces is `4/12/4 l 5 0 5 0`.
    ///   The codes are the reference's, checked left to right in its order:
    ///   `POS_WIDTH` for a row of another width or a number that runs past
    ///   it, `POS_LETTER` for a number written with a leading `0`, `POS_X`
    ///   for an `x` (`POS_GAP` cannot occur).
    ///
    /// ```
    /// use dice_core::Side;
    /// use royal_ur::{Position, Variant};
    ///
    /// let aseb = Position::parse_for("4/3l8/4 d 4 0 5 0", &Variant::ASEB)?;
    /// assert_eq!(aseb.at("d2".parse()?), Some(Side::Light));
    /// assert_eq!(aseb.to_string(), "4/3l8/4 d 4 0 5 0");
    /// assert_eq!(Position::parse_for("4/13/4 l 5 0 5 0", &Variant::ASEB).unwrap_err().code(), "POS_WIDTH");
    ///
    /// let murray = Variant::parse_lenient("path=murray")?;
    /// let back = Position::parse_for("4xx2/4L3/4xx2 d 6 0 7 0", &murray)?;
    /// assert!(back.is_second_visit("e2".parse()?));
    /// assert_eq!(Position::parse("4xx2/4L3/4xx2 d 6 0 7 0").unwrap_err().code(), "POS_LETTER");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first fault ([`PositionErrorKind`]).
    pub fn parse_for(text: &str, variant: &Variant) -> Result<Position, PositionError> {
        let letters = if variant.path().revisits() {
            Letters::SecondVisits
        } else {
            Letters::Reference
        };
        Position::read_text(text, variant.board(), letters)
    }

    fn read_text(
        text: &str,
        shape: BoardShape,
        letters: Letters,
    ) -> Result<Position, PositionError> {
        let s = text.as_bytes();
        let read = match shape {
            BoardShape::Standard => Position::read(s, letters),
            BoardShape::Aseb => Position::read_aseb(s),
        };
        read.map_err(|code| PositionError {
            code,
            text: text.to_owned(),
            shape,
        })
    }

    fn read(s: &[u8], letters: Letters) -> Result<Position, PositionErrorKind> {
        use PositionErrorKind as C;
        if s.is_empty() {
            return Err(C::Null);
        }
        if s.len() >= 48 {
            return Err(C::Long);
        }
        let mut pos = Position::EMPTY;
        let mut row = 2usize;
        let mut file = 0usize;
        let mut i = 0;
        while let Some(&c) = s.get(i) {
            if c == b' ' {
                break;
            }
            match c {
                b'/' => {
                    if file != 8 {
                        return Err(C::Width);
                    }
                    if row == 0 {
                        return Err(C::Rows);
                    }
                    row -= 1;
                    file = 0;
                }
                b'1'..=b'8' => {
                    for _ in 0..(c - b'0') {
                        if file >= 8 {
                            return Err(C::Width);
                        }
                        if is_gap(row, file) {
                            return Err(C::Gap);
                        }
                        file += 1;
                    }
                }
                b'x' => {
                    if file >= 8 {
                        return Err(C::Width);
                    }
                    if !is_gap(row, file) {
                        return Err(C::X);
                    }
                    file += 1;
                }
                b'l' | b'd' | b'L' | b'D' => {
                    let second = c.is_ascii_uppercase();
                    if second && letters == Letters::Reference {
                        return Err(C::Letter);
                    }
                    if file >= 8 {
                        return Err(C::Width);
                    }
                    if is_gap(row, file) {
                        return Err(C::Gap);
                    }
                    if second && (row != 1 || file >= LAP_SQUARES as usize) {
                        return Err(C::Letter);
                    }
                    if let Some(sq) = Square::at(file as u8, row as u8 + 1) {
                        pos.place(sq, c.eq_ignore_ascii_case(&b'd'), second);
                    }
                    file += 1;
                }
                _ => return Err(C::Letter),
            }
            i += 1;
        }
        if row != 0 {
            return Err(C::Rows);
        }
        if file != 8 {
            return Err(C::Width);
        }
        pos.read_counts(s, i)
    }

    /// The aseb board's text (see [`Position::parse_for`]).
    fn read_aseb(s: &[u8]) -> Result<Position, PositionErrorKind> {
        use PositionErrorKind as C;
        if s.is_empty() {
            return Err(C::Null);
        }
        if s.len() >= 48 {
            return Err(C::Long);
        }
        let shape = BoardShape::Aseb;
        let mut pos = Position::empty(shape);
        let mut row = 3u8;
        let mut file = 0u8;
        let mut i = 0;
        while let Some(&c) = s.get(i) {
            if c == b' ' {
                break;
            }
            let width = shape.row_width(row);
            match c {
                b'/' => {
                    if file != width {
                        return Err(C::Width);
                    }
                    if row == 1 {
                        return Err(C::Rows);
                    }
                    row -= 1;
                    file = 0;
                }
                b'0' => return Err(C::Letter),
                b'1'..=b'9' => {
                    let mut run = u32::from(c - b'0');
                    while let Some(&d @ b'0'..=b'9') = s.get(i + 1) {
                        run = run.saturating_mul(10).saturating_add(u32::from(d - b'0'));
                        i += 1;
                    }
                    if u32::from(file) + run > u32::from(width) {
                        return Err(C::Width);
                    }
                    file += run as u8;
                }
                b'l' | b'd' | b'x' => {
                    if file >= width {
                        return Err(C::Width);
                    }
                    if c == b'x' {
                        return Err(C::X);
                    }
                    if let Some(sq) = shape.at(file, row) {
                        pos.place(sq, c == b'd', false);
                    }
                    file += 1;
                }
                _ => return Err(C::Letter),
            }
            i += 1;
        }
        if row != 1 {
            return Err(C::Rows);
        }
        if file != shape.row_width(1) {
            return Err(C::Width);
        }
        pos.read_counts(s, i)
    }

    /// Puts a light (or dark) piece on `square` while reading a text.
    fn place(&mut self, square: Square, dark: bool, second: bool) {
        self.boards[usize::from(dark)] |= 1 << square.cell();
        if second {
            self.set_laps(self.laps() | lap_bit(square));
        }
    }

    /// The rest of a position string after its board, from the space at
    /// `i`: the side to move and the four counts, checked as the reference
    /// does.
    fn read_counts(mut self, s: &[u8], mut i: usize) -> Result<Position, PositionErrorKind> {
        use PositionErrorKind as C;
        if s.get(i) != Some(&b' ') {
            return Err(C::Field);
        }
        self.side = match s.get(i + 1) {
            Some(b'l') => Side::Light,
            Some(b'd') => Side::Dark,
            _ => return Err(C::Side),
        };
        i += 2;
        let mut counts = [0u8; 4];
        for count in &mut counts {
            if s.get(i) != Some(&b' ') {
                return Err(C::Field);
            }
            let digit = match s.get(i + 1) {
                None => return Err(C::Field),
                Some(&d @ b'0'..=b'7') => d - b'0',
                Some(_) => return Err(C::Count),
            };
            if !matches!(s.get(i + 2), None | Some(b' ')) {
                return Err(C::Count);
            }
            *count = digit;
            i += 2;
        }
        if i != s.len() {
            return Err(C::Field);
        }
        self.hands = [counts[0], counts[2]];
        self.homes = [counts[1], counts[3]];
        Ok(self)
    }
}

impl fmt::Display for Position {
    /// The position string, at most 36 characters (32 on the aseb board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; 40];
        let mut n = 0;
        let mut put = |b: u8| {
            if let Some(slot) = out.get_mut(n) {
                *slot = b;
                n += 1;
            }
        };
        let mut run = 0u8;
        let flush = |run: &mut u8, put: &mut dyn FnMut(u8)| {
            if *run >= 10 {
                put(b'0' + *run / 10);
            }
            if *run > 0 {
                put(b'0' + *run % 10);
            }
            *run = 0;
        };
        for row in [3u8, 2, 1] {
            for file in 0..self.shape().row_width(row) {
                let piece = match self.shape().at(file, row) {
                    None => Some(b'x'),
                    Some(sq) => self.at(sq).map(|s| {
                        let letter = s.letter() as u8;
                        if self.is_second_visit(sq) {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        }
                    }),
                };
                match piece {
                    None => run += 1,
                    Some(letter) => {
                        flush(&mut run, &mut put);
                        put(letter);
                    }
                }
            }
            flush(&mut run, &mut put);
            if row > 1 {
                put(b'/');
            }
        }
        let digit = |d: u8| b'0' + d.min(9);
        for b in [
            b' ',
            self.side.letter() as u8,
            b' ',
            digit(self.hands[0]),
            b' ',
            digit(self.homes[0]),
            b' ',
            digit(self.hands[1]),
            b' ',
            digit(self.homes[1]),
        ] {
            put(b);
        }
        f.write_str(std::str::from_utf8(out.get(..n).unwrap_or(&[])).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> &'static str {
        match Position::parse(text) {
            Ok(_) => "POS_OK",
            Err(e) => e.code(),
        }
    }

    #[test]
    fn start_positions_are_written_as_the_reference_does() {
        assert_eq!(
            Position::start(&Variant::FINKEL, Side::Light).to_string(),
            "4xx2/8/4xx2 l 7 0 7 0"
        );
        let five = Variant::FINKEL.with_pieces(5).unwrap();
        assert_eq!(
            Position::start(&five, Side::Light).to_string(),
            "4xx2/8/4xx2 l 5 0 5 0"
        );
        let mut full = Position::EMPTY.with_side(Side::Dark);
        for sq in Square::ALL {
            full = full.with_piece(sq, Some(Side::Dark));
        }
        assert_eq!(full.to_string(), "ddddxxdd/dddddddd/ddddxxdd d 0 0 0 0");
    }

    #[test]
    fn codes_follow_the_reference_order() {
        let cases = [
            ("", "POS_NULL"),
            ("4xx2/8/4xx2 l 7 0 7 0 ", "POS_FIELD"),
            ("4xx2/8 l 7 0 7 0", "POS_ROWS"),
            ("4xx2/8/4xx2/8 l 7 0 7 0", "POS_ROWS"),
            ("4xx2/7/4xx2 l 7 0 7 0", "POS_WIDTH"),
            ("4xx2/9/4xx2 l 7 0 7 0", "POS_LETTER"),
            ("4xx2/0/4xx2 l 7 0 7 0", "POS_LETTER"),
            ("4XX2/8/4xx2 l 7 0 7 0", "POS_LETTER"),
            ("8/8/4xx2 l 7 0 7 0", "POS_GAP"),
            ("4lx2/8/4xx2 l 7 0 7 0", "POS_GAP"),
            ("x3xx2/8/4xx2 l 7 0 7 0", "POS_X"),
            ("4xx3/8/4xx2 l 7 0 7 0", "POS_WIDTH"),
            ("4xx2/8/4xx2 L 7 0 7 0", "POS_SIDE"),
            ("4xx2/8/4xx2 ", "POS_SIDE"),
            ("4xx2/8/4xx2", "POS_FIELD"),
            ("4xx2/8/4xx2 l 8 0 7 0", "POS_COUNT"),
            ("4xx2/8/4xx2 l 77 0 7 0", "POS_COUNT"),
            ("4xx2/8/4xx2 l 7 0 7", "POS_FIELD"),
            ("4xx2/8/4xx2 l 7 0 7 ", "POS_FIELD"),
            ("4xx2/8/4xx2 l7 0 7 0", "POS_FIELD"),
            ("4xx2/8/4xx2  l 7 0 7 0", "POS_SIDE"),
            ("llllxxll/lll5/4xx2 l 7 7 7 7", "POS_OK"),
            ("4xx2/8/4xx2 d 0 0 0 0", "POS_OK"),
        ];
        let long = format!("4xx2/8/4xx2 l 7 0 7 0 {}", "1".repeat(26));
        assert_eq!(long.len(), 48);
        assert_eq!(code(&long), "POS_LONG");
        assert_eq!(code(&long[..47]), "POS_FIELD");
        for (text, want) in cases {
            assert_eq!(code(text), want, "{text:?}");
        }
    }
}
