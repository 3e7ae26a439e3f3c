//! Positions: the board, both hands and homes, and the side to move.
use dice_core::{Side, Status};

use crate::key::spread;
use crate::{BoardShape, Key, Path, Square, Variant};

mod check;
mod text;

pub use check::Inconsistency;
pub use text::{PositionError, PositionErrorKind};

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

    /// How many of a side's pieces are home. Like every question a rule
    /// set could answer, in both games, it takes the rule set (Senet counts
    /// homes from its pieces); a position here holds its homes.
    #[must_use]
    pub const fn home(&self, side: Side, _variant: &Variant) -> u8 {
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

    /// The key (see [`Key`]): 47 bits, and under the murray and skiriuk
    /// paths a bit for each of `a2..g2` whose piece is on its second visit.
    /// Like every question a rule set could answer, in both games, it takes
    /// the rule set; a position here holds all its key needs.
    #[must_use]
    pub const fn key(&self, _variant: &Variant) -> Key {
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
        format!("{:0width$x}", self.key(variant).bits())
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

dice_core::serde_via_text!(Position);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_the_spec() {
        let key = |t: &str| {
            Position::parse(t)
                .unwrap()
                .key(&Variant::FINKEL)
                .to_string()
        };
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
    fn consistency_counts_hand_board_and_home() {
        let p = Position::parse("llllxxll/lll5/4xx2 l 7 7 7 7").unwrap();
        assert!(!p.counts_hold(7));
        let p = Position::parse("4xx2/3d4/3lxx2 d 6 0 6 0").unwrap();
        assert!(p.counts_hold(7));
        assert!(!p.counts_hold(6));
    }
}
