//! The game: dice-core's `Game` for these rules, and what it adds.

use dice_core::{Dice, LogEntry, ScriptRoll, Side};
use serde::Serialize;

use crate::{House, Key, Move, RULES_REVISION, Seat, Senet, throws_again};

/// A game of Senet: seeded or scripted sticks, the settle loop, the log,
/// undo, resignation, the 15,000-ply cap and records, from dice-core.
/// [`GameExt`] adds what only this game has.
///
/// This is an alias of [`dice_core::Game`], where the methods a caller
/// uses live and are documented: [`seeded`](dice_core::Game::seeded) and
/// [`new`](dice_core::Game::new) to start, [`legal`](dice_core::Game::legal),
/// [`side`](dice_core::Game::side) and [`roll`](dice_core::Game::roll) to
/// look, [`play`](dice_core::Game::play) and
/// [`play_text`](dice_core::Game::play_text) to move,
/// [`undo`](dice_core::Game::undo) and [`resign`](dice_core::Game::resign),
/// [`log`](dice_core::Game::log) and [`result`](dice_core::Game::result),
/// and records: [`to_record`](dice_core::Game::to_record),
/// [`replay`](dice_core::Game::replay) and
/// [`replay_text`](dice_core::Game::replay_text). Bring [`GameExt`] into
/// scope for the rest
/// ([`key`](GameExt::key), [`at`](GameExt::at),
/// [`home`](GameExt::home), [`turn`](GameExt::turn) ...).
///
/// ```
/// use dice_core::Seed;
/// use senet::{Game, GameExt, Variant};
///
/// let mut game = Game::seeded(Seed::new("senet example")?, Variant::KENDALL)?;
/// assert_eq!(game.position().to_string(), "dldldldldl/........../.......... l");
/// // the first throw, 1111, is a roll of 4
/// assert_eq!((game.marked(), game.roll()), (Some(4), Some(4)));
/// while !game.is_over() {
///     let mv = game.legal()[0];
///     game.play(mv)?;
/// }
/// let record = game.to_record().to_string();
/// let again = Game::replay_text(&record, None)?;
/// assert_eq!(again.key(), game.key());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Game = dice_core::Game<Senet>;

/// Whose throw it is and what it is for: the state of the turn, as the
/// game in hand has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TurnInfo {
    /// The side throwing.
    pub side: Side,
    /// Which throw of this side's run of throws this is, from 1.
    pub segment: u32,
    /// The house whose piece alone this throw may move, if any.
    pub bound: Option<House>,
    /// Whether this throw's roll (1, 4 or 5) gives another throw. A move
    /// reaching 26 under `on26=again` earns one too, whatever the roll.
    pub extra: bool,
}

/// What a Senet game offers beyond the generic [`dice_core::Game`].
pub trait GameExt {
    /// The key of the current position (spec §6).
    fn key(&self) -> Key;
    /// Who stands on a house.
    fn at(&self, house: House) -> Option<Side>;
    /// How many of a side's pieces are borne off.
    fn home(&self, side: Side) -> u8;
    /// The display form of every log entry, in order (`3: 12-15`, `2: -`).
    fn log_display(&self) -> Vec<String>;
    /// Whose turn it is (`None` once over or with no roll in hand).
    fn turn(&self) -> Option<TurnInfo>;
    /// The side a seat plays.
    fn side_of(&self, seat: Seat) -> Side;
    /// The seat that plays a side.
    fn seat_of(&self, side: Side) -> Seat;
    /// Whether the piece on a house cannot be swapped.
    fn protected(&self, house: House) -> bool;
    /// Whether the piece on a house is part of a blockade.
    fn in_blockade(&self, house: House) -> bool;
    /// How many sticks show their marked (light) face in the throw in hand,
    /// 0..=4 (a roll of 5 is none marked).
    fn marked(&self) -> Option<u8>;
    /// [`RULES_REVISION`].
    fn rules_revision(&self) -> u32;
}

impl GameExt for Game {
    fn key(&self) -> Key {
        self.position().key(self.variant())
    }

    fn at(&self, house: House) -> Option<Side> {
        self.position().at(house)
    }

    fn home(&self, side: Side) -> u8 {
        self.position().home(side, self.variant())
    }

    fn log_display(&self) -> Vec<String> {
        self.log().iter().map(display_entry).collect()
    }

    fn turn(&self) -> Option<TurnInfo> {
        let side = self.side()?;
        let roll = self.roll()?;
        let before = self
            .log()
            .iter()
            .rev()
            .take_while(|e| e.side == side)
            .count();
        Some(TurnInfo {
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

    fn protected(&self, house: House) -> bool {
        self.position().protected(house, self.variant())
    }

    fn in_blockade(&self, house: House) -> bool {
        self.position().in_blockade(house, self.variant())
    }

    fn marked(&self) -> Option<u8> {
        match self.faces() {
            Some(faces) => Some(faces.marked()),
            None => self.roll().map(|r| if r == 5 { 0 } else { r }),
        }
    }

    fn rules_revision(&self) -> u32 {
        RULES_REVISION
    }
}

/// The display form of a move: `R: F-T`, e.g. `3: 12-15`.
///
/// ```
/// assert_eq!(senet::display_move("28-off".parse()?, 3), "3: 28-off");
/// # Ok::<(), senet::ParseMoveError>(())
/// ```
#[must_use]
pub fn display_move(mv: Move, roll: u8) -> String {
    format!("{roll}: {mv}")
}

/// The display form of a turn lost to the roll: `R: -`, e.g. `2: -`.
#[must_use]
pub fn display_forfeit(roll: u8) -> String {
    format!("{roll}: -")
}

/// The display form of a log entry (a move or a lost turn).
#[must_use]
pub fn display_entry(entry: &LogEntry<Senet>) -> String {
    match entry.mv {
        Some(mv) => display_move(mv, entry.roll),
        None => display_forfeit(entry.roll),
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
