//! What a Senet game adds to dice-core's generic [`dice_core::Game`].

use dice_core::{Dice, ScriptRoll, Side};
use serde::Serialize;

use crate::{CHANCES, Chance, HouseError, Key, RULES_REVISION, Seat, Senet, throws_again};

/// A game of Senet: dice-core's generic game under these rules. The Senet
/// specifics (turn, seats, houses, key) come from [`SenetGame`].
///
/// ```
/// use dice_core::Seed;
/// use senet::{Game, SenetGame, Variant};
///
/// let mut game = Game::seeded(Seed::new("senet example")?, Variant::KENDALL)?;
/// assert_eq!(game.position().to_string(), "dldldldldl/........../.......... l");
/// // the first throw, 1111, is a roll of 4
/// assert_eq!((game.throw(), game.roll()), (Some(4), Some(4)));
/// while !game.is_over() {
///     let mv = game.legal()[0];
///     game.play(mv)?;
/// }
/// let record = game.to_record().to_string();
/// let again = Game::replay_text(&record, None)?;
/// assert_eq!(again.position(), game.position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Game = dice_core::Game<Senet>;

/// Whose throw it is and what it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Turn {
    /// The side throwing.
    pub side: Side,
    /// Which throw of this side's run of throws this is, from 1.
    pub segment: u32,
    /// The house whose piece alone this throw may move, if any.
    pub bound: Option<u8>,
    /// Whether this throw's roll (1, 4 or 5) gives another throw. A move
    /// reaching 26 under `on26=again` earns one too, whatever the roll.
    pub extra: bool,
}

/// Senet's own questions to a [`Game`], beyond what every race game answers.
pub trait SenetGame {
    /// Whose turn it is (`None` once over or with no roll in hand).
    fn turn(&self) -> Option<Turn>;
    /// The side a seat plays.
    fn side_of(&self, seat: Seat) -> Side;
    /// The seat that plays a side.
    fn seat_of(&self, side: Side) -> Seat;
    /// Who stands on a house.
    ///
    /// # Errors
    ///
    /// [`HouseError`] for a house that is not 1..=30.
    fn at(&self, house: u8) -> Result<Option<Side>, HouseError>;
    /// How many pieces a side has borne off.
    fn home(&self, side: Side) -> u8;
    /// Whether the piece on a house cannot be swapped.
    ///
    /// # Errors
    ///
    /// [`HouseError`] for a house that is not 1..=30.
    fn protected(&self, house: u8) -> Result<bool, HouseError>;
    /// Whether the piece on a house is part of a blockade.
    ///
    /// # Errors
    ///
    /// [`HouseError`] for a house that is not 1..=30.
    fn in_blockade(&self, house: u8) -> Result<bool, HouseError>;
    /// The position's key (spec §6).
    fn key(&self) -> Key;
    /// How many sticks show light in the throw in hand (0..=4).
    fn throw(&self) -> Option<u8>;
    /// What the sticks can make.
    fn chances(&self) -> &'static [Chance; 5];
    /// [`RULES_REVISION`].
    fn rules_revision(&self) -> u32;
}

impl SenetGame for Game {
    fn turn(&self) -> Option<Turn> {
        let side = self.side()?;
        let roll = self.roll()?;
        let before = self
            .log()
            .iter()
            .rev()
            .take_while(|e| e.side == side)
            .count();
        Some(Turn {
            side,
            segment: u32::try_from(before).unwrap_or(u32::MAX - 1) + 1,
            bound: self.position().bound(self.variant()),
            extra: throws_again(roll),
        })
    }

    fn side_of(&self, seat: Seat) -> Side {
        seat.side(*self.extra())
    }

    fn seat_of(&self, side: Side) -> Seat {
        Seat::of(side, *self.extra())
    }

    fn at(&self, house: u8) -> Result<Option<Side>, HouseError> {
        self.position().at(house)
    }

    fn home(&self, side: Side) -> u8 {
        self.position().home(side, self.variant())
    }

    fn protected(&self, house: u8) -> Result<bool, HouseError> {
        self.position().protected(house, self.variant())
    }

    fn in_blockade(&self, house: u8) -> Result<bool, HouseError> {
        self.position().in_blockade(house, self.variant())
    }

    fn key(&self) -> Key {
        self.position().key(self.variant())
    }

    fn throw(&self) -> Option<u8> {
        match self.faces() {
            Some(faces) => Some(faces.marked()),
            None => self.roll().map(|r| if r == 5 { 0 } else { r }),
        }
    }

    fn chances(&self) -> &'static [Chance; 5] {
        &CHANCES
    }

    fn rules_revision(&self) -> u32 {
        RULES_REVISION
    }
}

/// Dice for a game from a script of rolls (1..=5), with no sticks.
///
/// ```
/// use dice_core::{Setup, Side};
/// use senet::{Game, Variant, script};
///
/// let game = Game::new(Setup::new(script(&[3, 2]), Variant::KENDALL).with_first(Side::Light))?;
/// assert_eq!(game.roll(), Some(3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn script(rolls: &[u8]) -> Dice {
    Dice::Script(rolls.iter().map(|&r| ScriptRoll::new(r)).collect())
}
