//! Positions: the board, both hands and homes, and the side to move.

use std::fmt;
use std::str::FromStr;

use dice_core::{Side, Status};

use crate::key::spread;
use crate::{CELLS, Key, Route, Square, Variant};

/// The most pieces a hand or home can hold in a position string (one digit).
const COUNT_MAX: u8 = 7;

/// A position: which side stands on each square, both hands, both homes and
/// the side to move. It is a small `Copy` value; it holds no ply and no dice.
///
/// Its text form is the reference position string (see
/// [`Position::parse`]): `row3/row2/row1 side lhand lhome dhand dhome`, for
/// example `4xx2/8/4xx2 l 7 0 7 0` for the start of finkel's game.
///
/// Hands are stored, not derived: a position string whose counts do not add
/// up still reads; [`Position::is_consistent`] checks them against a rule
/// set's pieces.
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
/// assert!(pos.is_consistent(7));
/// # Ok::<(), royal_ur::PositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cells held by light and by dark, as masks over cell indices.
    pub(crate) boards: [u32; 2],
    pub(crate) hands: [u8; 2],
    pub(crate) homes: [u8; 2],
    pub(crate) side: Side,
}

/// The reference's position codes, with their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// No string, or an empty one (1).
    Null = 1,
    /// Not three rows (2).
    Rows = 2,
    /// A row not eight files wide (3).
    Width = 3,
    /// A meaningless character (4).
    Letter = 4,
    /// A piece or an empty run on a missing square e1/f1/e3/f3 (5).
    Gap = 5,
    /// An `x` on a real square (6).
    X = 6,
    /// The side is not `l` or `d` (7).
    Side = 7,
    /// A hand or home that is not one digit 0-7 (8).
    Count = 8,
    /// A field missing, or something after the last (9).
    Field = 9,
    /// 48 characters or more (10).
    Long = 10,
}

impl PositionErrorKind {
    /// The reference's name, e.g. `POS_GAP`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PositionErrorKind::Null => "POS_NULL",
            PositionErrorKind::Rows => "POS_ROWS",
            PositionErrorKind::Width => "POS_WIDTH",
            PositionErrorKind::Letter => "POS_LETTER",
            PositionErrorKind::Gap => "POS_GAP",
            PositionErrorKind::X => "POS_X",
            PositionErrorKind::Side => "POS_SIDE",
            PositionErrorKind::Count => "POS_COUNT",
            PositionErrorKind::Field => "POS_FIELD",
            PositionErrorKind::Long => "POS_LONG",
        }
    }

    /// The reference's number, 1..10 (0 is `POS_OK`, which is no error).
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// What the code means, as a lowercase sentence (`a row is not eight
    /// squares wide`).
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            PositionErrorKind::Null => "it is empty",
            PositionErrorKind::Rows => "it does not have three rows",
            PositionErrorKind::Width => "a row is not eight squares wide",
            PositionErrorKind::Letter => "it holds a character that means nothing there",
            PositionErrorKind::Gap => "a piece or an empty run falls on a missing square",
            PositionErrorKind::X => "an x stands on a real square",
            PositionErrorKind::Side => "the side to move is not l or d",
            PositionErrorKind::Count => "a hand or home is not one digit 0 to 7",
            PositionErrorKind::Field => "a field is missing or something follows the last",
            PositionErrorKind::Long => "it is 48 characters or longer",
        }
    }
}

/// A position string that was refused, with the reference's code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the position {text:?} was refused ({}): {}", .code.as_str(), .code.message())]
pub struct PositionError {
    code: PositionErrorKind,
    text: String,
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
        self.code.as_str()
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
}

/// Why a position cannot occur in a game under a rule set (see
/// [`Position::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Inconsistency {
    /// Two pieces stand on one square.
    #[error("two pieces stand on {square}")]
    Shared {
        /// The square.
        square: Square,
    },
    /// A piece stands on a cell past the twenty squares.
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
    /// A piece stands on a square its side's route does not visit.
    #[error("a {side} piece stands on {square}, a square only {}'s route uses", .side.other())]
    Route {
        /// The side.
        side: Side,
        /// The square.
        square: Square,
    },
    /// Both sides have every piece home, which no game reaches (it ends when
    /// the first side has).
    #[error("both sides have every piece home, but the game ends when the first side has")]
    BothHome,
    /// The key does not pack the position as spec §6 lays it out (see
    /// [`Key`]): the board square by square, the homes and the side to move.
    #[error("the key {key} is not the position's {laid_out:012x}")]
    Key {
        /// The key the position gives.
        key: Key,
        /// The bits the layout gives.
        laid_out: u64,
    },
}

impl Inconsistency {
    /// The contract word: `shared`, `off_board`, `pieces`, `route`,
    /// `both_home` or `key`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
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

/// Whether file `file` of internal row `row` (0 = row 1) is a missing square.
const fn is_gap(row: usize, file: usize) -> bool {
    row != 1 && (file == 4 || file == 5)
}

// The per-side accessors below index `boards`, `hands` and `homes` by side.
// Every such index is `Side::index()`, which is 0 or 1, into a two-entry
// array, so none can be out of bounds.
#[allow(
    clippy::indexing_slicing,
    reason = "every index is a `Side::index` (0 or 1) into a two-entry per-side array"
)]
impl Position {
    /// An empty board, nothing in hand or home, light to move.
    pub const EMPTY: Position = Position {
        boards: [0, 0],
        hands: [0, 0],
        homes: [0, 0],
        side: Side::Light,
    };

    /// The start under `variant`: every piece in hand, `first` to move.
    #[must_use]
    pub const fn start(variant: &Variant, first: Side) -> Position {
        let n = variant.pieces();
        Position {
            boards: [0, 0],
            hands: [n, n],
            homes: [0, 0],
            side: first,
        }
    }

    /// Reads a position string, checking it exactly as the reference does,
    /// left to right, so that the first fault found gives the code.
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
        Position::read(text.as_bytes()).map_err(|code| PositionError {
            code,
            text: text.to_owned(),
        })
    }

    fn read(s: &[u8]) -> Result<Position, PositionErrorKind> {
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
                b'l' | b'd' => {
                    if file >= 8 {
                        return Err(C::Width);
                    }
                    if is_gap(row, file) {
                        return Err(C::Gap);
                    }
                    if let Some(sq) = Square::at(file as u8, row as u8 + 1) {
                        let board = if c == b'd' {
                            &mut pos.boards[1]
                        } else {
                            &mut pos.boards[0]
                        };
                        *board |= 1 << sq.cell();
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
        if s.get(i) != Some(&b' ') {
            return Err(C::Field);
        }
        pos.side = match s.get(i + 1) {
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
        pos.hands = [counts[0], counts[2]];
        pos.homes = [counts[1], counts[3]];
        Ok(pos)
    }

    /// The side to move.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
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

    /// The cells a side's pieces stand on, as a mask (bit `c` for cell `c`,
    /// see [`Square::cell`]).
    #[must_use]
    pub const fn board_mask(&self, side: Side) -> u32 {
        self.boards[side.index()]
    }

    /// Whether each side has exactly `pieces` pieces in hand, on the board
    /// and home together (and no square holds two): the reference's
    /// `consistent`. [`Position::check`] also asks whether the position can
    /// occur at all.
    #[must_use]
    pub const fn is_consistent(&self, pieces: u8) -> bool {
        let p = pieces as u32;
        self.boards[0] & self.boards[1] == 0
            && self.boards[0] >> 20 == 0
            && self.boards[1] >> 20 == 0
            && self.hands[0] as u32 + self.homes[0] as u32 + self.boards[0].count_ones() == p
            && self.hands[1] as u32 + self.homes[1] as u32 + self.boards[1].count_ones() == p
    }

    /// Whether the position can occur in a game under `variant`, checked
    /// whole: no square holds two pieces and none stands off the board;
    /// each side has the rule set's pieces (hand, board and home together;
    /// the reference's [`Position::is_consistent`]); every piece stands on
    /// its own route; no more than one side has every piece home; and the
    /// key packs the position as spec §6 lays it out. The rules
    /// ([`dice_core::Rules::is_consistent`]), the tests, the fuzz targets
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
    ///     "a light piece stands on a3, a square only dark's route uses"
    /// );
    /// # Ok::<(), royal_ur::PositionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first [`Inconsistency`] found, in that order (light before dark).
    pub fn check(&self, variant: &Variant) -> Result<(), Inconsistency> {
        if let Some(square) =
            Square::from_cell((self.boards[0] & self.boards[1]).trailing_zeros() as usize)
        {
            return Err(Inconsistency::Shared { square });
        }
        for side in Side::ALL {
            if self.board_mask(side) >> CELLS != 0 {
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
        let route = variant.route();
        for side in Side::ALL {
            let astray = self.board_mask(side) & !route.table(side).mask;
            if let Some(square) = Square::from_cell(astray.trailing_zeros() as usize)
                && astray != 0
            {
                return Err(Inconsistency::Route { side, square });
            }
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

    /// The key as spec §6 lays it out, read square by square: two bits a
    /// cell (1 light, 2 dark), light's home at bit 40, dark's at 43, the
    /// side to move at 46. [`Position::key`] packs the same bits with masks.
    fn key_laid_out(&self) -> u64 {
        let mut bits = 0u64;
        for square in Square::ALL {
            let code = match self.at(square) {
                None => 0,
                Some(Side::Light) => 1u64,
                Some(Side::Dark) => 2,
            };
            bits |= code << (2 * square.cell());
        }
        bits | u64::from(self.home(Side::Light)) << 40
            | u64::from(self.home(Side::Dark)) << 43
            | (self.side.index() as u64) << 46
    }

    /// The 47-bit key (see [`Key`]).
    #[must_use]
    pub const fn key(&self) -> Key {
        let board = spread(self.boards[0]) | (spread(self.boards[1]) << 1);
        Key::from_bits(
            board
                | ((self.homes[0] as u64 & 7) << 40)
                | ((self.homes[1] as u64 & 7) << 43)
                | ((self.side.index() as u64) << 46),
        )
    }

    /// The same position with `side` to move.
    #[must_use]
    pub const fn with_side(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// The same position with `who` (or nobody) on `square`.
    #[must_use]
    pub const fn with_piece(mut self, square: Square, who: Option<Side>) -> Position {
        let bit = 1 << square.cell();
        self.boards[0] &= !bit;
        self.boards[1] &= !bit;
        if let Some(side) = who {
            self.boards[side.index()] |= bit;
        }
        self
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

    /// The step of each of `side`'s pieces on its own route, ascending
    /// (pieces on squares the route does not visit are left out).
    #[must_use]
    pub fn steps(&self, side: Side, route: Route) -> Vec<u8> {
        let t = route.table(side);
        let mut steps = 0u32;
        let mut m = self.board_mask(side) & t.mask;
        while m != 0 {
            if let Some(&s) = t.step.get(m.trailing_zeros() as usize) {
                steps |= 1 << s;
            }
            m &= m - 1;
        }
        (1..=route.len())
            .filter(|s| steps & (1 << s) != 0)
            .collect()
    }
}

impl Default for Position {
    /// Finkel's start: seven pieces a side in hand, light to move.
    fn default() -> Position {
        Position::start(&Variant::FINKEL, Side::Light)
    }
}

impl fmt::Display for Position {
    /// The position string, at most 36 characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; 40];
        let mut n = 0;
        let mut put = |b: u8| {
            if let Some(slot) = out.get_mut(n) {
                *slot = b;
                n += 1;
            }
        };
        for row in (0..3usize).rev() {
            let mut run = 0u8;
            for file in 0..8usize {
                let piece = match Square::at(file as u8, row as u8 + 1) {
                    None => Some(b'x'),
                    Some(sq) => self.at(sq).map(|s| s.letter() as u8),
                };
                match piece {
                    None => run += 1,
                    Some(letter) => {
                        if run > 0 {
                            put(b'0' + run);
                            run = 0;
                        }
                        put(letter);
                    }
                }
            }
            if run > 0 {
                put(b'0' + run);
            }
            if row > 0 {
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
        assert!(!p.is_consistent(7));
        let p = Position::parse("4xx2/3d4/3lxx2 d 6 0 6 0").unwrap();
        assert!(p.is_consistent(7));
        assert!(!p.is_consistent(6));
    }
}
