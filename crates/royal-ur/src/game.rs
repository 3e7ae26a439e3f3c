//! The game: dice-core's `Game` for these rules, and what it adds.

use dice_core::{Dice, LogEntry, NewGameError, Setup, Side};

use crate::{Flags, Key, Move, Position, PositionError, Square, Ur, Variant};

/// A game of the Royal Game of Ur: seeded or scripted dice, the settle loop,
/// the log, undo, resignation, the 15,000-ply cap and records, from
/// dice-core. [`GameExt`] adds what only this game has.
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
/// [`hand`](GameExt::hand), [`home`](GameExt::home) ...).
///
/// ```
/// use dice_core::Seed;
/// use royal_ur::{Game, GameExt, Variant};
///
/// let mut game = Game::seeded(Seed::new("any bytes at all")?, Variant::FINKEL)?;
/// while !game.is_over() {
///     let mv = game.legal()[0];
///     game.play(mv)?;
/// }
/// let text = game.to_record().to_string();
/// let again = Game::replay_text(&text, None)?;
/// assert_eq!(again.key(), game.key());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Game = dice_core::Game<Ur>;

/// What a Royal Game of Ur game offers beyond the generic [`dice_core::Game`].
pub trait GameExt {
    /// The key of the current position.
    fn key(&self) -> Key;
    /// The key as text: 12 hex digits, or 14 under the murray and skiriuk
    /// paths (see [`Position::key_text`]).
    fn key_text(&self) -> String;
    /// Who stands on a square.
    fn at(&self, square: Square) -> Option<Side>;
    /// How many of a side's pieces wait in hand.
    fn hand(&self, side: Side) -> u8;
    /// How many of a side's pieces are home.
    fn home(&self, side: Side) -> u8;
    /// The display form of every log entry, in order (`3: a2-d2x*`, `0: -`).
    fn log_display(&self) -> Vec<String>;
}

impl GameExt for Game {
    fn key(&self) -> Key {
        self.position().key(self.variant())
    }

    fn key_text(&self) -> String {
        self.position().key_text(self.variant())
    }

    fn at(&self, square: Square) -> Option<Side> {
        self.position().at(square)
    }

    fn hand(&self, side: Side) -> u8 {
        self.position().hand(side)
    }

    fn home(&self, side: Side) -> u8 {
        self.position().home(side, self.variant())
    }

    fn log_display(&self) -> Vec<String> {
        self.log().iter().map(display_entry).collect()
    }
}

/// The display form of a move: `R: from-to`, then `x` if it captures and `*`
/// if it lands on a rosette, e.g. `3: a2-d2x*` or `1: g1-home`.
///
/// ```
/// use royal_ur::{display_move, Flags};
///
/// let flags = Flags { captures: true, rosette: true, home: false };
/// assert_eq!(display_move("a2-d2".parse()?, 3, flags), "3: a2-d2x*");
/// # Ok::<(), royal_ur::ParseMoveError>(())
/// ```
#[must_use]
pub fn display_move(mv: Move, roll: u8, flags: Flags) -> String {
    format!("{roll}: {mv}{}", flags.suffix())
}

/// The display form of a turn lost to the roll: `R: -`, e.g. `0: -`.
#[must_use]
pub fn display_forfeit(roll: u8) -> String {
    format!("{roll}: -")
}

/// The display form of a log entry (a move or a lost turn).
#[must_use]
pub fn display_entry(entry: &LogEntry<Ur>) -> String {
    match entry.mv {
        Some(mv) => display_move(mv, entry.roll, entry.flags),
        None => display_forfeit(entry.roll),
    }
}

/// Why a game could not be made from a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NewFromPositionError {
    /// The position string was refused.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The game refused the set-up (for example a position that does not
    /// hold the rule set's pieces).
    #[error(transparent)]
    Game(#[from] NewGameError),
}

impl NewFromPositionError {
    /// The contract word: the position code (e.g. `POS_GAP`) or the game's.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            NewFromPositionError::Position(e) => e.code(),
            NewFromPositionError::Game(e) => e.code(),
        }
    }
}

/// A game from a position string (in `variant`'s text, see
/// [`Position::parse_for`]): its side moves first unless `first` names
/// another, and nothing is thrown for the first side.
///
/// # Errors
///
/// [`NewFromPositionError::Position`] for a string that is refused and
/// [`NewFromPositionError::Game`] for a position that does not hold the rule
/// set's pieces.
pub fn game_from_position(
    dice: Dice,
    variant: Variant,
    position: &str,
    first: Option<Side>,
) -> Result<Game, NewFromPositionError> {
    let position = Position::parse_for(position, &variant)?;
    let mut setup = Setup::new(dice, variant).with_position(position);
    if let Some(side) = first {
        setup = setup.with_first(side);
    }
    Ok(Game::new(setup)?)
}
