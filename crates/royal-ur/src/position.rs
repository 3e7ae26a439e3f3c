//! Positions: the board, both hands and homes, and the side to move.

use std::fmt;
use std::str::FromStr;

use dice_core::{Side, Status};

use crate::key::spread;
use crate::{BoardShape, Key, Path, Square, Variant};

/// The most pieces a hand or home can hold in a position string (one digit).
const COUNT_MAX: u8 = 7;

/// A position: which side stands on each square, both hands, both homes and
/// the side to move. It is a small `Copy` value; it holds no ply and no dice.
///
/// Its text form is the reference position string (see
/// [`Position::parse`]): `row3/row2/row1 side lhand lhome dhand dhome`, for
/// example `4xx2/8/4xx2 l 7 0 7 0` for the start of finkel's game. A
/// position knows its board's shape, and the aseb board's positions are
/// written with that board's rows (`4/12/4 l 5 0 5 0`); on the murray and
/// skiriuk paths a piece on its second visit to `a2..g2` is written `L` or
/// `D` (see [`Position::parse_for`]).
///
/// Hands are stored, not derived: a position string whose counts do not add
/// up still reads; [`Position::check`] checks them against a rule set.
///
/// ```
/// use dice_core::Side;
/// use royal_ur::{Position, Variant};
///
/// let start = Position::start(&Variant::FINKEL, Side::Light);
/// assert_eq!(start.to_string(), "4xx2/8/4xx2 l 7 0 7 0");
/// let pos = Position::parse("4xx2/3d4/3lxx2 d 6 0 6 0")?;
/// assert_eq!(pos.at("d2".parse().unwrap()), Some(Side::Dark));
/// assert_eq!(pos.hand(Side::Light), 6);
/// assert_eq!(pos.side(), Side::Dark);
/// assert_eq!(pos.check(&Variant::FINKEL), Ok(()));
/// # Ok::<(), royal_ur::PositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Squares held by light and by dark, as masks over square indices
    /// ([`Square::cell`]).
    pub(crate) boards: [u32; 2],
    pub(crate) hands: [u8; 2],
    pub(crate) homes: [u8; 2],
    pub(crate) side: Side,
    /// Bits 0..6: bit `f` says the piece on file `f` of row 2 (`a2..g2`) is
    /// on its second visit there (murray's and skiriuk's paths; 0 on the
    /// others). Bit 7: the board is the aseb board. (One byte for both
    /// keeps a position small enough to travel in registers.)
    pub(crate) meta: u8,
}

/// The bit of [`Position::meta`] that says the board is the aseb board.
const ASEB_BIT: u8 = 0x80;

/// The squares `a2..g2` (indices 6..12), where a piece may be on its second
/// visit, as a mask over square indices; bit `f` of a position's laps is
/// square index `LAP_BASE + f`.
const LAP_BASE: u32 = 6;

/// How many squares `a2..g2` are.
const LAP_SQUARES: u32 = 7;

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

/// Why a position cannot occur in a game under a rule set (see
/// [`Position::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Inconsistency {
    /// The position is on another board than the rule set plays on.
    #[error("the position is on the {position} board, but these rules play on the {rules} board")]
    Board {
        /// The position's board.
        position: BoardShape,
        /// The rule set's.
        rules: BoardShape,
    },
    /// Two pieces stand on one square.
    #[error("two pieces stand on {square}")]
    Shared {
        /// The square.
        square: Square,
    },
    /// A piece stands on a square the board does not have.
    #[error("a {side} piece stands off the board")]
    OffBoard {
        /// The side.
        side: Side,
    },
    /// A side does not have the rule set's pieces in hand, on the board and
    /// home together.
    #[error(
        "{side} has {} pieces ({hand} in hand, {board} on the board, {home} home), not {pieces}",
        u16::from(*hand) + u16::from(*board) + u16::from(*home)
    )]
    Pieces {
        /// The side.
        side: Side,
        /// Its pieces in hand.
        hand: u8,
        /// Its pieces on the board.
        board: u8,
        /// Its pieces home.
        home: u8,
        /// The pieces a side has under the rules.
        pieces: u8,
    },
    /// A piece stands on a square its side's path does not visit.
    #[error("a {side} piece stands on {square}, a square only {}'s path uses", .side.other())]
    Route {
        /// The side.
        side: Side,
        /// The square.
        square: Square,
    },
    /// A square is marked as holding a piece on its second visit where
    /// there is none, or under a path that visits it once.
    #[error(
        "{square} is marked as holding a piece on its second visit, which these rules cannot make"
    )]
    Lap {
        /// The square.
        square: Square,
    },
    /// Both sides have every piece home, which no game reaches (it ends when
    /// the first side has).
    #[error("both sides have every piece home, but the game ends when the first side has")]
    BothHome,
    /// The key does not pack the position as spec §6 lays it out (see
    /// [`Key`]): the board square by square, the homes, the side to move
    /// and the second visits.
    #[error("the key {key} is not the position's {laid_out:012x}")]
    Key {
        /// The key the position gives.
        key: Key,
        /// The bits the layout gives.
        laid_out: u64,
    },
}

impl Inconsistency {
    /// The contract word: `board`, `shared`, `off_board`, `pieces`,
    /// `route`, `lap`, `both_home` or `key`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Inconsistency::Board { .. } => "board",
            Inconsistency::Lap { .. } => "lap",
            Inconsistency::Shared { .. } => "shared",
            Inconsistency::OffBoard { .. } => "off_board",
            Inconsistency::Pieces { .. } => "pieces",
            Inconsistency::Route { .. } => "route",
            Inconsistency::BothHome => "both_home",
            Inconsistency::Key { .. } => "key",
        }
    }
}

impl dice_core::Coded for Inconsistency {
    fn code(&self) -> &'static str {
        Inconsistency::code(self)
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
    /// An empty standard board, nothing in hand or home, light to move.
    pub const EMPTY: Position = Position::empty(BoardShape::Standard);

    /// An empty board of `shape`, nothing in hand or home, light to move.
    #[must_use]
    pub const fn empty(shape: BoardShape) -> Position {
        Position {
            boards: [0, 0],
            hands: [0, 0],
            homes: [0, 0],
            side: Side::Light,
            meta: match shape {
                BoardShape::Standard => 0,
                BoardShape::Aseb => ASEB_BIT,
            },
        }
    }

    /// The second visits: bit `f` for a piece on its second visit to file
    /// `f` of row 2.
    #[inline]
    pub(crate) const fn laps(&self) -> u8 {
        self.meta & !ASEB_BIT
    }

    /// Sets the second visits (see [`Position::laps`]).
    #[inline]
    pub(crate) const fn set_laps(&mut self, laps: u8) {
        self.meta = (self.meta & ASEB_BIT) | (laps & !ASEB_BIT);
    }

    /// The start under `variant`: every piece in hand, `first` to move, on
    /// the rule set's board.
    #[must_use]
    pub const fn start(variant: &Variant, first: Side) -> Position {
        let n = variant.pieces();
        Position {
            hands: [n, n],
            side: first,
            ..Position::empty(variant.board())
        }
    }

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

    /// The side to move.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The board's shape.
    #[must_use]
    pub const fn shape(&self) -> BoardShape {
        if self.meta & ASEB_BIT == 0 {
            BoardShape::Standard
        } else {
            BoardShape::Aseb
        }
    }

    /// Who stands on a square, if anyone.
    #[must_use]
    pub const fn at(&self, square: Square) -> Option<Side> {
        let bit = 1 << square.cell();
        if self.boards[0] & bit != 0 {
            Some(Side::Light)
        } else if self.boards[1] & bit != 0 {
            Some(Side::Dark)
        } else {
            None
        }
    }

    /// Whether the piece on `square` is on its second visit there (only on
    /// `a2..g2`, under the murray and skiriuk paths).
    #[must_use]
    pub const fn is_second_visit(&self, square: Square) -> bool {
        self.laps() & lap_bit(square) != 0
    }

    /// The squares whose pieces are on their second visit, as a mask over
    /// square indices (see [`Position::board_mask`]); 0 except under the
    /// murray and skiriuk paths.
    #[must_use]
    pub const fn second_visit_mask(&self) -> u32 {
        (self.laps() as u32) << LAP_BASE
    }

    /// How many of a side's pieces wait in hand.
    #[must_use]
    pub const fn hand(&self, side: Side) -> u8 {
        self.hands[side.index()]
    }

    /// How many of a side's pieces are home.
    #[must_use]
    pub const fn home(&self, side: Side) -> u8 {
        self.homes[side.index()]
    }

    /// How many of a side's pieces stand on the board.
    #[must_use]
    pub const fn on_board(&self, side: Side) -> u8 {
        self.boards[side.index()].count_ones() as u8
    }

    /// The squares a side's pieces stand on, as a mask (bit `c` for the
    /// square whose [`Square::cell`] is `c`: on the standard board its
    /// cell index).
    #[must_use]
    pub const fn board_mask(&self, side: Side) -> u32 {
        self.boards[side.index()]
    }

    /// Whether each side has exactly `pieces` pieces in hand, on the board
    /// and home together (and no square holds two): the reference's
    /// `consistent`, which [`Board::new`](crate::Board::new) asks.
    /// [`Position::check`] asks whether the position can occur at all.
    pub(crate) const fn counts_hold(&self, pieces: u8) -> bool {
        let p = pieces as u32;
        let off = !self.shape().mask();
        self.boards[0] & self.boards[1] == 0
            && self.boards[0] & off == 0
            && self.boards[1] & off == 0
            && self.hands[0] as u32 + self.homes[0] as u32 + self.boards[0].count_ones() == p
            && self.hands[1] as u32 + self.homes[1] as u32 + self.boards[1].count_ones() == p
    }

    /// Whether the position can occur in a game under `variant`, checked
    /// whole: it is on the rule set's board; no square holds two pieces
    /// and none stands off the board; each side has the rule set's pieces
    /// (hand, board and home together; the reference's `consistent`);
    /// every piece stands on its own path;
    /// a piece is on its second visit only where its path makes one; no
    /// more than one side has every piece home; and the key packs the
    /// position as spec §6 lays it out. The rules
    /// ([`dice_core::Rules::check_position`]), the tests, the fuzz targets
    /// and `race soak` all ask it.
    ///
    /// ```
    /// use dice_core::Side;
    /// use royal_ur::{Position, Variant};
    ///
    /// let start = Position::start(&Variant::FINKEL, Side::Light);
    /// assert_eq!(start.check(&Variant::FINKEL), Ok(()));
    /// let eight = Position::parse("4xx2/8/4xx2 l 7 0 7 1")?;
    /// assert_eq!(
    ///     eight.check(&Variant::FINKEL).unwrap_err().to_string(),
    ///     "dark has 8 pieces (7 in hand, 0 on the board, 1 home), not 7"
    /// );
    /// let astray = Position::parse("l3xx2/8/4xx2 l 6 0 7 0")?;
    /// assert_eq!(
    ///     astray.check(&Variant::FINKEL).unwrap_err().to_string(),
    ///     "a light piece stands on a3, a square only dark's path uses"
    /// );
    /// assert_eq!(start.check(&Variant::ASEB).unwrap_err().code(), "board");
    /// # Ok::<(), royal_ur::PositionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first [`Inconsistency`] found, in that order (light before dark).
    pub fn check(&self, variant: &Variant) -> Result<(), Inconsistency> {
        if self.shape() != variant.board() {
            return Err(Inconsistency::Board {
                position: self.shape(),
                rules: variant.board(),
            });
        }
        if let Some(square) = self.square_in(self.boards[0] & self.boards[1]) {
            return Err(Inconsistency::Shared { square });
        }
        for side in Side::ALL {
            if self.board_mask(side) & !self.shape().mask() != 0 {
                return Err(Inconsistency::OffBoard { side });
            }
        }
        let pieces = variant.pieces();
        for side in Side::ALL {
            let (hand, board, home) = (self.hand(side), self.on_board(side), self.home(side));
            if u16::from(hand) + u16::from(board) + u16::from(home) != u16::from(pieces) {
                return Err(Inconsistency::Pieces {
                    side,
                    hand,
                    board,
                    home,
                    pieces,
                });
            }
        }
        let path = variant.path();
        for side in Side::ALL {
            let astray = self.board_mask(side) & !path.table(side).mask;
            if let Some(square) = self.square_in(astray) {
                return Err(Inconsistency::Route { side, square });
            }
        }
        let occupied = self.boards[0] | self.boards[1];
        let lapped = if path.revisits() {
            self.second_visit_mask() & !occupied
        } else {
            self.second_visit_mask()
        };
        if let Some(square) = self.square_in(lapped) {
            return Err(Inconsistency::Lap { square });
        }
        if self.home(Side::Light) >= pieces && self.home(Side::Dark) >= pieces {
            return Err(Inconsistency::BothHome);
        }
        let key = self.key();
        let laid_out = self.key_laid_out();
        if key.bits() != laid_out {
            return Err(Inconsistency::Key { key, laid_out });
        }
        Ok(())
    }

    /// The first square (in the board's cell order) of a mask over square
    /// indices, if any.
    fn square_in(&self, mask: u32) -> Option<Square> {
        self.shape()
            .squares()
            .iter()
            .copied()
            .find(|sq| mask & (1 << sq.cell()) != 0)
    }

    /// The key as spec §6 lays it out, read square by square in the board's
    /// cell order: two bits a cell (1 light, 2 dark), light's home at bit
    /// 40, dark's at 43, the side to move at 46, and the second visits of
    /// `a2..g2` at bits 47..53. [`Position::key`] packs the same bits with
    /// masks.
    fn key_laid_out(&self) -> u64 {
        let mut bits = 0u64;
        for (cell, &square) in self.shape().squares().iter().enumerate() {
            let code = match self.at(square) {
                None => 0,
                Some(Side::Light) => 1u64,
                Some(Side::Dark) => 2,
            };
            bits |= code << (2 * cell);
        }
        for (f, square) in (0..LAP_SQUARES as u8).filter_map(|f| Square::at(f, 2).map(|s| (f, s))) {
            if self.is_second_visit(square) {
                bits |= 1 << (47 + u32::from(f));
            }
        }
        bits | u64::from(self.home(Side::Light)) << 40
            | u64::from(self.home(Side::Dark)) << 43
            | (self.side.index() as u64) << 46
    }

    /// The key (see [`Key`]): 47 bits, and under the murray and skiriuk
    /// paths a bit for each of `a2..g2` whose piece is on its second visit.
    #[must_use]
    pub const fn key(&self) -> Key {
        let light = self.shape().cells_of(self.boards[0]);
        let dark = self.shape().cells_of(self.boards[1]);
        let board = spread(light) | (spread(dark) << 1);
        Key::from_bits(
            board
                | ((self.homes[0] as u64 & 7) << 40)
                | ((self.homes[1] as u64 & 7) << 43)
                | ((self.side.index() as u64) << 46)
                | ((self.laps() as u64 & 127) << 47),
        )
    }

    /// The key as text under `variant`: 12 lowercase hex digits, or 14
    /// under the murray and skiriuk paths (whose keys hold the second
    /// visits).
    ///
    /// ```
    /// use dice_core::Side;
    /// use royal_ur::{Position, Variant};
    ///
    /// let murray = Variant::parse_lenient("path=murray")?;
    /// let start = Position::start(&murray, Side::Light);
    /// assert_eq!(start.key_text(&murray), "00000000000000");
    /// assert_eq!(start.key_text(&Variant::FINKEL), "000000000000");
    /// # Ok::<(), royal_ur::VariantError>(())
    /// ```
    #[must_use]
    pub fn key_text(&self, variant: &Variant) -> String {
        let width = if variant.path().revisits() { 14 } else { 12 };
        format!("{:0width$x}", self.key().bits())
    }

    /// The same position with `side` to move.
    #[must_use]
    pub const fn with_side(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// The same position with `who` (or nobody) on `square`, on its first
    /// visit there.
    #[must_use]
    pub const fn with_piece(mut self, square: Square, who: Option<Side>) -> Position {
        let bit = 1 << square.cell();
        self.boards[0] &= !bit;
        self.boards[1] &= !bit;
        self.set_laps(self.laps() & !lap_bit(square));
        if let Some(side) = who {
            self.boards[side.index()] |= bit;
        }
        self
    }

    /// The same position with the piece on `square` on its second visit
    /// (`second`) or its first; `None` for a square other than `a2..g2`,
    /// the only squares a path visits twice.
    #[must_use]
    pub const fn with_second_visit(mut self, square: Square, second: bool) -> Option<Position> {
        let bit = lap_bit(square);
        if bit == 0 {
            return None;
        }
        if second {
            self.set_laps(self.laps() | bit);
        } else {
            self.set_laps(self.laps() & !bit);
        }
        Some(self)
    }

    /// The same position with `n` pieces in `side`'s hand, or `None` when
    /// `n` is above 7.
    #[must_use]
    pub const fn with_hand(mut self, side: Side, n: u8) -> Option<Position> {
        if n > COUNT_MAX {
            return None;
        }
        self.hands[side.index()] = n;
        Some(self)
    }

    /// The same position with `n` of `side`'s pieces home, or `None` when
    /// `n` is above 7.
    #[must_use]
    pub const fn with_home(mut self, side: Side, n: u8) -> Option<Position> {
        if n > COUNT_MAX {
            return None;
        }
        self.homes[side.index()] = n;
        Some(self)
    }

    /// Whether someone has won under `variant`: the first side (light checked
    /// first) with `pieces` home. The ply cap is the game's business.
    #[must_use]
    pub const fn status(&self, variant: &Variant) -> Status {
        let p = variant.pieces();
        if self.homes[0] >= p {
            Status::Won(Side::Light)
        } else if self.homes[1] >= p {
            Status::Won(Side::Dark)
        } else {
            Status::Ongoing
        }
    }

    /// The steps of `side`'s pieces on its own path, as a mask (bit `s` for
    /// step `s`), each piece at the visit it is on; pieces on squares the
    /// path does not visit are left out.
    #[inline(always)]
    pub(crate) fn step_mask(&self, side: Side, path: Path) -> u32 {
        let t = path.table(side);
        let own = self.boards[side.index()];
        match path {
            Path::Bell | Path::Masters => t.steps_of(own),
            Path::Aseb => t.steps_of_wide(own),
            Path::Murray | Path::Skiriuk => {
                let lap = self.laps() & (own >> LAP_BASE) as u8;
                t.steps_of(own & !((u32::from(lap)) << LAP_BASE)) | t.lap_steps(lap)
            }
        }
    }

    /// The step of `side`'s path that its piece on `square` stands at (the
    /// visit it is on), or `None` when no piece of `side` is there or the
    /// path does not visit the square.
    #[must_use]
    pub fn step_at(&self, side: Side, square: Square, path: Path) -> Option<u8> {
        if self.at(square) != Some(side) {
            return None;
        }
        if self.is_second_visit(square) {
            path.second_step_of(side, square)
        } else {
            path.step_of(side, square)
        }
    }

    /// The step of each of `side`'s pieces on its own path, ascending, each
    /// piece at the visit it is on (pieces on squares the path does not
    /// visit are left out).
    #[must_use]
    pub fn steps(&self, side: Side, path: Path) -> Vec<u8> {
        let steps = self.step_mask(side, path);
        (1..=path.len()).filter(|s| steps & (1 << s) != 0).collect()
    }
}

/// The bit of a position's laps for `square`: bit `f` for file `f` of
/// `a2..g2`, 0 for any other square.
pub(crate) const fn lap_bit(square: Square) -> u8 {
    let c = square.cell() as u32;
    if c >= LAP_BASE && c < LAP_BASE + LAP_SQUARES {
        1 << (c - LAP_BASE)
    } else {
        0
    }
}

impl Default for Position {
    /// Finkel's start: seven pieces a side in hand, light to move.
    fn default() -> Position {
        Position::start(&Variant::FINKEL, Side::Light)
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

dice_core::serde_via_text!(Position);

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
    fn keys_of_the_spec() {
        let key = |t: &str| Position::parse(t).unwrap().key().to_string();
        assert_eq!(key("4xx2/8/4xx2 l 7 0 7 0"), "000000000000");
        assert_eq!(key("4xx2/8/4xx2 d 7 0 7 0"), "400000000000");
        assert_eq!(key("4xx2/8/4xx2 l 6 1 7 0"), "010000000000");
        assert_eq!(key("4xx2/8/4xx2 l 0 7 7 0"), "070000000000");
        assert_eq!(key("4xx2/8/4xx2 l 7 0 6 1"), "080000000000");
        assert_eq!(key("4xx2/8/4xx2 l 7 0 0 7"), "380000000000");
        assert_eq!(key("ddddxxdd/dddddddd/ddddxxdd d 0 7 0 7"), "7faaaaaaaaaa");
        // One light piece on a1 (cell 0) and one dark on h3 (cell 19).
        assert_eq!(
            key("4xx1d/8/l3xx2 l 6 0 6 0"),
            format!("{:012x}", (2u64 << 38) | 1)
        );
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

    #[test]
    fn the_key_as_laid_out_is_the_spec_s() {
        for (text, key) in [
            ("4xx2/8/4xx2 d 7 0 7 0", 0x4000_0000_0000),
            ("4xx2/8/4xx2 l 0 7 7 0", 0x0700_0000_0000),
            ("4xx2/8/4xx2 l 7 0 0 7", 0x3800_0000_0000),
            ("4xx1d/8/l3xx2 l 6 0 6 0", (2u64 << 38) | 1),
        ] {
            let p = Position::parse(text).unwrap();
            assert_eq!(p.key_laid_out(), key, "{text}");
            assert_eq!(p.key().bits(), key, "{text}");
        }
    }

    #[test]
    fn check_finds_two_pieces_on_a_square_and_pieces_off_the_board() {
        let start = Position::start(&Variant::FINKEL, Side::Light);
        let a2 = Square::from_cell(6).unwrap();
        let mut two = start.with_piece(a2, Some(Side::Light));
        two.boards[1] |= 1 << a2.cell();
        two.hands = [6, 6];
        assert_eq!(
            two.check(&Variant::FINKEL),
            Err(Inconsistency::Shared { square: a2 })
        );
        let mut off = start;
        off.boards[1] |= 1 << 25;
        off.hands[1] = 6;
        assert_eq!(
            off.check(&Variant::FINKEL),
            Err(Inconsistency::OffBoard { side: Side::Dark })
        );
        assert_eq!(off.check(&Variant::FINKEL).unwrap_err().code(), "off_board");
    }

    #[test]
    fn consistency_counts_hand_board_and_home() {
        let p = Position::parse("llllxxll/lll5/4xx2 l 7 7 7 7").unwrap();
        assert!(!p.counts_hold(7));
        let p = Position::parse("4xx2/3d4/3lxx2 d 6 0 6 0").unwrap();
        assert!(p.counts_hold(7));
        assert!(!p.counts_hold(6));
    }
}
