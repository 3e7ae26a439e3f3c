//! Whether a position can occur in a game under a rule set.

use dice_core::Side;

use super::{LAP_SQUARES, Position};
use crate::{BoardShape, Key, Square, Variant};

dice_core::coded_error! {
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
        } => "board",
        /// Two pieces stand on one square.
        #[error("two pieces stand on {square}")]
        Shared {
            /// The square.
            square: Square,
        } => "shared",
        /// A piece stands on a square the board does not have.
        #[error("a {side} piece stands off the board")]
        OffBoard {
            /// The side.
            side: Side,
        } => "off_board",
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
        } => "pieces",
        /// A piece stands on a square its side's path does not visit.
        #[error("a {side} piece stands on {square}, a square only {}'s path uses", .side.other())]
        Route {
            /// The side.
            side: Side,
            /// The square.
            square: Square,
        } => "route",
        /// A square is marked as holding a piece on its second visit where
        /// there is none, or under a path that visits it once.
        #[error(
            "{square} is marked as holding a piece on its second visit, which these rules cannot make"
        )]
        Lap {
            /// The square.
            square: Square,
        } => "lap",
        /// Both sides have every piece home, which no game reaches (it ends when
        /// the first side has).
        #[error("both sides have every piece home, but the game ends when the first side has")]
        BothHome => "both_home",
        /// The key does not pack the position as spec §6 lays it out (see
        /// [`Key`]): the board square by square, the homes, the side to move
        /// and the second visits.
        #[error("the key {key} is not the position's {laid_out:012x}")]
        Key {
            /// The key the position gives.
            key: Key,
            /// The bits the layout gives.
            laid_out: u64,
        } => "key",
    }
}

// The per-side accessors below index `boards`, `hands` and `homes` by side.
// Every such index is `Side::index()`, which is 0 or 1, into a two-entry
// array, so none can be out of bounds.
#[allow(
    clippy::indexing_slicing,
    reason = "every index is a `Side::index` (0 or 1) into a two-entry per-side array"
)]
impl Position {
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
            let (hand, board, home) = (
                self.hand(side),
                self.on_board(side),
                self.home(side, variant),
            );
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
        if self.home(Side::Light, variant) >= pieces && self.home(Side::Dark, variant) >= pieces {
            return Err(Inconsistency::BothHome);
        }
        let key = self.key(variant);
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
        bits | u64::from(self.homes[0]) << 40
            | u64::from(self.homes[1]) << 43
            | (self.side.index() as u64) << 46
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(p.key(&Variant::FINKEL).bits(), key, "{text}");
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
}
