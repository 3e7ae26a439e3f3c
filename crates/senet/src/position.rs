//! A position: thirty houses and the side to move.

use std::fmt;
use std::str::FromStr;

use dice_core::Side;

use crate::house::{HAPPINESS, HOUSES, WATER};
use crate::{House, Key, On26, Protect, Variant, Water};

/// The bits of houses 1..=27, where runs are counted (the pieces on 28..30
/// are in no run).
pub(crate) const RUN_MASK: u32 = (1 << WATER) - 1;
/// The bits of houses 1..=30.
pub(crate) const BOARD_MASK: u32 = (1 << HOUSES) - 1;

/// The bit of house `h` (1..=30).
#[inline]
pub(crate) const fn bit(h: u8) -> u32 {
    1u32 << (h - 1)
}

/// The pieces of runs of two or more.
#[inline]
fn in_pairs(s: u32) -> u32 {
    let s = s & RUN_MASK;
    s & ((s << 1) | (s >> 1))
}

/// The protected pieces of a side's bitboard under `protect`.
#[inline]
pub(crate) fn protected_mask(s: u32, protect: Protect) -> u32 {
    let s = s & RUN_MASK;
    let left = s & (s << 1);
    let right = s & (s >> 1);
    match protect {
        Protect::All => left | right,
        // the first or the last of a run of two or more: exactly one neighbour
        Protect::Ends => left ^ right,
    }
}

/// The pieces of a side's bitboard that stand in a blockade.
#[inline]
pub(crate) fn blockade_mask(s: u32, blockade: crate::Blockade) -> u32 {
    let s = s & RUN_MASK;
    match blockade {
        crate::Blockade::Two => in_pairs(s),
        crate::Blockade::Three => {
            let t = s & (s >> 1) & (s >> 2);
            t | (t << 1) | (t << 2)
        }
    }
}

/// The run (of one side's bitboard) that contains house `h`.
pub(crate) fn run_of(s: u32, h: u8) -> u32 {
    let s = s & RUN_MASK;
    let b = bit(h);
    if s & b == 0 {
        return 0;
    }
    let mut run = b;
    loop {
        let grown = (run | (run << 1) | (run >> 1)) & s;
        if grown == run {
            return run;
        }
        run = grown;
    }
}

/// A Senet position: who stands on each of the thirty houses, and the side to
/// move. Pieces not on the board are home.
///
/// Under `on26=again`, a piece of the side to move on house 26 means the
/// throw is bound to it: that state is part of the position, not extra.
///
/// The text form (spec §6) is three groups of ten characters `l`, `d` or `.`
/// for houses 1-10, 11-20 and 21-30, then a space and the side to move.
///
/// ```
/// use dice_core::Side;
/// use senet::{House, Position, Variant};
///
/// let start = Position::start(&Variant::KENDALL, Side::Light);
/// assert_eq!(start.to_string(), "dldldldldl/........../.......... l");
/// assert_eq!(start.at("2".parse()?), Some(Side::Light));
/// assert_eq!(start.at(House::WATER), None);
/// let back = Position::parse("dldldldldl/........../.......... l")?;
/// assert_eq!(back, start);
/// assert_eq!(start.key(&Variant::KENDALL).to_string(), "0000000000066666");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) boards: [u32; 2],
    pub(crate) side: Side,
}

impl Position {
    /// The start: dark on the odd houses from 1, light on the even, as many
    /// pieces a side as the rules have, `first` to move.
    #[must_use]
    pub fn start(variant: &Variant, first: Side) -> Position {
        let (mut light, mut dark) = (0u32, 0u32);
        for i in 0..variant.piece_count() {
            dark |= bit(2 * i + 1);
            light |= bit(2 * i + 2);
        }
        Position {
            boards: [light, dark],
            side: first,
        }
    }

    /// An empty board with `side` to move (every piece home); put pieces on
    /// it with [`Position::with_piece`].
    #[must_use]
    pub const fn empty(side: Side) -> Position {
        Position {
            boards: [0, 0],
            side,
        }
    }

    /// The same position with `who` (or nobody) on `house`.
    #[must_use]
    pub const fn with_piece(mut self, house: House, who: Option<Side>) -> Position {
        let b = house.bit();
        self.boards[0] &= !b;
        self.boards[1] &= !b;
        if let Some(side) = who {
            *self.board_mut(side) |= b;
        }
        self
    }

    /// Reads a position string: its syntax only (spec §6), three groups of
    /// ten houses and the side to move. Whether the position can occur
    /// under a rule set, and so whether it holds too many pieces or a piece
    /// in the water under `water=reborn`, is [`Position::check`]'s
    /// question. [`FromStr`](std::str::FromStr) and serde read the same.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the first problem: `shape`, `character`
    /// or `side`.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let err = |kind| PositionError {
            kind,
            text: text.to_owned(),
        };
        let Some((board, side)) = text.split_once(' ') else {
            return Err(err(PositionErrorKind::Shape));
        };
        let groups: Vec<&str> = board.split('/').collect();
        if groups.len() != 3 || groups.iter().any(|g| g.chars().count() != 10) || side.is_empty() {
            return Err(err(PositionErrorKind::Shape));
        }
        let mut p = Position::empty(Side::Light);
        for (i, c) in groups.concat().chars().enumerate() {
            let b = 1u32 << i;
            match c {
                'l' => p.boards[0] |= b,
                'd' => p.boards[1] |= b,
                '.' => {}
                _ => return Err(err(PositionErrorKind::Character)),
            }
        }
        p.side = match side {
            "l" => Side::Light,
            "d" => Side::Dark,
            _ => return Err(err(PositionErrorKind::Side)),
        };
        Ok(p)
    }

    /// The side to move.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The same position with another side to move.
    #[must_use]
    pub const fn with_side(self, side: Side) -> Position {
        Position {
            boards: self.boards,
            side,
        }
    }

    /// The houses a side stands on, as bits: bit `h - 1` for house `h`.
    #[must_use]
    #[allow(
        clippy::indexing_slicing,
        reason = "`Side::index` is 0 or 1 and `boards` has two entries"
    )]
    pub const fn bits(&self, side: Side) -> u32 {
        self.boards[side.index()]
    }

    /// The bitboard of one side, to change it.
    #[inline]
    #[allow(
        clippy::indexing_slicing,
        reason = "`Side::index` is 0 or 1 and `boards` has two entries"
    )]
    const fn board_mut(&mut self, side: Side) -> &mut u32 {
        &mut self.boards[side.index()]
    }

    #[inline]
    pub(crate) fn at_bits(&self, house: u8) -> Option<Side> {
        let b = bit(house);
        if self.boards[0] & b != 0 {
            Some(Side::Light)
        } else if self.boards[1] & b != 0 {
            Some(Side::Dark)
        } else {
            None
        }
    }

    /// Who stands on a house, if anyone.
    #[must_use]
    pub fn at(&self, house: House) -> Option<Side> {
        self.at_bits(house.number())
    }

    /// How many pieces a side has on the board.
    #[must_use]
    pub const fn on_board(&self, side: Side) -> u8 {
        self.bits(side).count_ones() as u8
    }

    /// How many pieces a side has borne off, under rules with this many
    /// pieces.
    #[must_use]
    pub const fn home(&self, side: Side, variant: &Variant) -> u8 {
        variant.piece_count().saturating_sub(self.on_board(side))
    }

    /// Whether the piece on `house` cannot be swapped (it stands in a run its
    /// rules protect); false for an empty house.
    #[must_use]
    pub fn protected(&self, house: House, variant: &Variant) -> bool {
        self.boards
            .iter()
            .any(|&s| protected_mask(s, variant.protect) & house.bit() != 0)
    }

    /// Whether the piece on `house` belongs to a run the other side may not
    /// pass; false for an empty house.
    #[must_use]
    pub fn in_blockade(&self, house: House, variant: &Variant) -> bool {
        self.boards
            .iter()
            .any(|&s| blockade_mask(s, variant.blockade) & house.bit() != 0)
    }

    /// The house whose piece alone the throw in hand may move: 26 under
    /// `on26=again` when the side to move stands there.
    #[must_use]
    pub fn bound(&self, variant: &Variant) -> Option<House> {
        (variant.on26 == On26::Again && self.bits(self.side) & bit(HAPPINESS) != 0)
            .then_some(House::HAPPINESS)
    }

    /// Whether the position can occur in a game under `variant`, checked
    /// whole: no house holds two pieces and none stands off the thirty; no
    /// more pieces a side than the rules have; nobody in the water under
    /// `water=reborn`; at most one side with every piece home; under
    /// `on26=again` with `water=stand` nobody but the side to move on 26
    /// (with `water=reborn` a bound throw that has no move passes the turn
    /// and leaves its piece there); and the key packs
    /// the position as spec §6 lays it out. The rules
    /// ([`dice_core::Rules::check_position`]), the tests, the fuzz targets
    /// and `race soak` all ask it.
    ///
    /// ```
    /// use dice_core::Side;
    /// use senet::{Position, Variant};
    ///
    /// let start = Position::start(&Variant::KENDALL, Side::Light);
    /// assert_eq!(start.check(&Variant::KENDALL), Ok(()));
    /// let empty = Position::empty(Side::Light);
    /// assert_eq!(empty.check(&Variant::KENDALL).unwrap_err().code(), "both_home");
    /// ```
    ///
    /// # Errors
    ///
    /// The first [`Inconsistency`] found, in that order (light before dark).
    pub fn check(&self, variant: &Variant) -> Result<(), Inconsistency> {
        let shared = self.boards[0] & self.boards[1] & BOARD_MASK;
        if let Some(house) = House::new(shared.trailing_zeros() as u8 + 1) {
            return Err(Inconsistency::Shared { house });
        }
        for side in Side::ALL {
            if self.bits(side) & !BOARD_MASK != 0 {
                return Err(Inconsistency::OffBoard { side });
            }
        }
        let pieces = variant.piece_count();
        for side in Side::ALL {
            let count = self.on_board(side);
            if count > pieces {
                return Err(Inconsistency::Pieces {
                    side,
                    count,
                    pieces,
                });
            }
        }
        if variant.water == Water::Reborn
            && let Some(side) = self.at(House::WATER)
        {
            return Err(Inconsistency::Water { side });
        }
        if self.boards[0] == 0 && self.boards[1] == 0 {
            return Err(Inconsistency::BothHome);
        }
        // Under water=reborn an occupied target stops the bound move, and a
        // bound throw lost on a 2 or 3 passes the turn with the piece still
        // on 26 (spec §3 rule 6); under water=stand the bound throw always
        // has a move off 26.
        if variant.on26 == On26::Again
            && variant.water == Water::Stand
            && self.bits(self.side.other()) & bit(HAPPINESS) != 0
        {
            return Err(Inconsistency::On26 {
                side: self.side.other(),
            });
        }
        let key = self.key(variant);
        let laid_out = self.key_laid_out(variant);
        if key.bits() != laid_out {
            return Err(Inconsistency::Key { key, laid_out });
        }
        Ok(())
    }

    /// The key as spec §6 lays it out, read house by house: two bits a
    /// house (1 light, 2 dark), the side to move at bit 60 and a bound throw
    /// at bit 61. [`Position::key`] packs the same bits from the boards.
    fn key_laid_out(&self, variant: &Variant) -> u64 {
        let mut bits = 0u64;
        for house in House::ALL {
            let code = match self.at(house) {
                None => 0,
                Some(Side::Light) => 1u64,
                Some(Side::Dark) => 2,
            };
            bits |= code << (2 * (house.number() - 1));
        }
        bits | u64::from(self.side == Side::Dark) << 60
            | u64::from(self.bound(variant).is_some()) << 61
    }

    /// The key of spec §6: two bits a house (0 empty, 1 light, 2 dark), bit
    /// 60 for dark to move, bit 61 for a throw bound to 26.
    #[must_use]
    pub fn key(&self, variant: &Variant) -> Key {
        let mut k = 0u64;
        let (mut l, mut d) = (self.boards[0], self.boards[1]);
        while l != 0 {
            let i = l.trailing_zeros();
            k |= 1 << (2 * i);
            l &= l - 1;
        }
        while d != 0 {
            let i = d.trailing_zeros();
            k |= 2 << (2 * i);
            d &= d - 1;
        }
        if self.side == Side::Dark {
            k |= 1 << 60;
        }
        if self.bound(variant).is_some() {
            k |= 1 << 61;
        }
        Key::from_bits(k)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // thirty houses, two slashes, a space and the side
        let mut s = String::with_capacity(34);
        for house in House::ALL {
            s.push(self.at(house).map_or('.', Side::letter));
            if matches!(house.number(), 10 | 20) {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.letter());
        f.write_str(&s)
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s)
    }
}

dice_core::serde_via_text!(Position);

dice_core::coded_error! {
    /// Why a position cannot occur in a game under a rule set (see
    /// [`Position::check`]).
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
    pub enum Inconsistency {
        /// Two pieces stand on one house.
        #[error("two pieces stand on house {house}")]
        Shared {
            /// The house.
            house: House,
        } => "shared",
        /// A piece stands past the thirty houses.
        #[error("a {side} piece stands off the board")]
        OffBoard {
            /// The side.
            side: Side,
        } => "off_board",
        /// A side has more pieces on the board than the rules give it.
        #[error("{side} has {count} pieces on the board, but the rules give each side {pieces}")]
        Pieces {
            /// The side.
            side: Side,
            /// Its pieces on the board.
            count: u8,
            /// The pieces a side has under the rules.
            pieces: u8,
        } => "pieces",
        /// A piece stands in the water (27) under `water=reborn`, which sends it
        /// back at once.
        #[error("a {side} piece stands in the water (27), which water=reborn sends back at once")]
        Water {
            /// The side.
            side: Side,
        } => "water",
        /// Both sides have every piece borne off, which no game reaches (it
        /// ends when the first side has).
        #[error("both sides have every piece borne off, but the game ends when the first side has")]
        BothHome => "both_home",
        /// Under `on26=again` with `water=stand` a piece of the side not to
        /// move stands on 26, whose throw would have been bound to it (and a
        /// bound throw there always has a move).
        #[error(
            "{side}, not to move, stands on 26, but under on26=again reaching 26 earns the side \
             one more throw"
        )]
        On26 {
            /// The side on 26.
            side: Side,
        } => "on26",
        /// The key does not pack the position as spec §6 lays it out (see
        /// [`Key`]): the board house by house, the side to move and a bound
        /// throw.
        #[error("the key {key} is not the position's {laid_out:016x}")]
        Key {
            /// The key the position gives.
            key: Key,
            /// The bits the layout gives.
            laid_out: u64,
        } => "key",
    }
}

impl Inconsistency {
    /// The refusal spec §6 gives a position text under a rule set for this
    /// inconsistency (`pieces`, `water`), when it names one: a front end
    /// reading a position for the rules refuses the text with it.
    #[must_use]
    pub const fn text_refusal(&self) -> Option<PositionErrorKind> {
        match self {
            Inconsistency::Pieces { .. } => Some(PositionErrorKind::Pieces),
            Inconsistency::Water { .. } => Some(PositionErrorKind::Water),
            _ => None,
        }
    }
}

dice_core::coded_enum! {
    /// What is wrong with a position string.
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum PositionErrorKind {
        /// Not three groups of ten characters and a side.
        Shape(
            "shape",
            "a position is three groups of ten houses joined by / and then a space and the side"
        ),
        /// A house character other than `l`, `d` or `.`.
        Character("character", "a house is l, d or ."),
        /// A side other than `l` or `d`.
        Side("side", "the side to move is l or d"),
        /// More pieces of a side than the rules have: the text refusal spec §6
        /// gives [`Inconsistency::Pieces`] (see [`Inconsistency::text_refusal`]).
        Pieces("pieces", "a side has more pieces than the rules give it"),
        /// A piece on 27 under `water=reborn`: the text refusal spec §6 gives
        /// [`Inconsistency::Water`].
        Water("water", "no piece stands in the water (27) under water=reborn"),
    }
}

/// A position string refused, with the first problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {text:?}", .kind.message())]
pub struct PositionError {
    kind: PositionErrorKind,
    text: String,
}

impl PositionError {
    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> PositionErrorKind {
        self.kind
    }

    /// The contract word: `shape`, `character` or `side`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The text that was refused.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_as_laid_out_is_the_spec_s() {
        let start = Position::start(&Variant::KENDALL, Side::Light);
        assert_eq!(start.key_laid_out(&Variant::KENDALL), 0x66666);
        let bound = Position::parse("d........./........../.....l.... l").unwrap();
        let want = (1u64 << 61) | (1 << 50) | 2;
        assert_eq!(bound.key_laid_out(&Variant::SKYRUK), want);
        assert_eq!(bound.key(&Variant::SKYRUK).bits(), want);
        let dark = bound.with_side(Side::Dark);
        assert_eq!(
            dark.key_laid_out(&Variant::KENDALL),
            (1 << 60) | (1 << 50) | 2
        );
    }

    #[test]
    fn check_finds_two_pieces_on_a_house_and_pieces_off_the_board() {
        let start = Position::start(&Variant::KENDALL, Side::Light);
        let mut two = start;
        two.boards[1] |= House::new(2).unwrap().bit();
        assert_eq!(
            two.check(&Variant::KENDALL),
            Err(Inconsistency::Shared {
                house: House::new(2).unwrap()
            })
        );
        let mut off = start;
        off.boards[0] |= 1 << 30;
        assert_eq!(
            off.check(&Variant::KENDALL),
            Err(Inconsistency::OffBoard { side: Side::Light })
        );
    }
}
