//! What the games' bots share: a bot is a level on its game's ladder and a
//! node budget, given and checked the same way for every game.

use std::marker::PhantomData;

use crate::{Game, Notation, Thought};

/// The highest level a bot may be asked for. Levels run from 1; above the
/// top of its game's ladder a bot plays the top.
pub const LEVEL_ASKED_MAX: u8 = 99;

/// The largest node budget a bot takes.
pub const BUDGET_MAX: u64 = 2_000_000_000;

crate::coded_error! {
    /// Why a bot could not be made or a level looked up.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
    #[non_exhaustive]
    pub enum BotError {
        /// A level outside 1..99 for a bot, or outside its ladder for a rung.
        #[error(
            "there is no level {level}; the ladder is 1 to {top}, and a bot takes 1 to 99 (above \
             {top} it plays {top})"
        )]
        Level {
            /// The level asked for.
            level: u32,
            /// The top of the ladder.
            top: u8,
        } => "level",
        /// A budget outside 1..2,000,000,000.
        #[error("a budget is a whole number from 1 to 2000000000, not {0}")]
        Budget(u64) => "budget",
    }
}

/// The level a bot asked for `level` (1..=99; `None` for the top) plays on
/// a ladder whose top is `top`: the level itself, or the top above it.
///
/// ```
/// use dice_core::{BotError, bot_level};
///
/// assert_eq!(bot_level(Some(2), 4), Ok(2));
/// assert_eq!(bot_level(Some(99), 4), Ok(4));
/// assert_eq!(bot_level(None, 4), Ok(4));
/// assert_eq!(bot_level(Some(0), 4), Err(BotError::Level { level: 0, top: 4 }));
/// ```
///
/// # Errors
///
/// [`BotError::Level`] for level 0 or above [`LEVEL_ASKED_MAX`].
pub fn bot_level(level: Option<u8>, top: u8) -> Result<u8, BotError> {
    match level {
        None => Ok(top),
        Some(l) if (1..=LEVEL_ASKED_MAX).contains(&l) => Ok(l.min(top)),
        Some(l) => Err(BotError::Level {
            level: u32::from(l),
            top,
        }),
    }
}

/// A bot's node budget: `budget` (1..=2,000,000,000), or `default` when
/// none is given.
///
/// # Errors
///
/// [`BotError::Budget`] for 0 or above [`BUDGET_MAX`].
pub fn bot_budget(budget: Option<u64>, default: u64) -> Result<u64, BotError> {
    match budget.unwrap_or(default) {
        b @ 1..=BUDGET_MAX => Ok(b),
        b => Err(BotError::Budget(b)),
    }
}

/// A game's bot ladder: how high it goes, the budget a bot has by
/// default, and how a bot thinks at each level. Each game implements it on
/// its rules; [`Bot`] is the player.
pub trait Ladder: Notation {
    /// The top level. A bot asked for a level above it (up to
    /// [`LEVEL_ASKED_MAX`]) plays this one.
    const LEVEL_TOP: u8;

    /// The node budget of a bot given none.
    const BUDGET_DEFAULT: u64;

    /// What a bot at `level` (1 to [`Ladder::LEVEL_TOP`]) with `budget`
    /// nodes plays under `variant` in `position` with `roll`, and how it
    /// found it; `None` when the roll allows no move.
    fn think(
        level: u8,
        budget: u64,
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
    ) -> Option<Thought<Self::Move>>;
}

/// A player at one level of a game's [`Ladder`], with a node budget. The
/// same question always gets the same answer: no randomness, no clock.
///
/// ```
/// use dice_core::toy::{Toy, ToyVariant};
/// use dice_core::{Bot, BotError, Game, Ladder, Seed};
///
/// let bot = Bot::<Toy>::new(Some(9), None)?;
/// assert_eq!((bot.level(), bot.budget()), (Toy::LEVEL_TOP, Toy::BUDGET_DEFAULT));
/// assert_eq!(Bot::<Toy>::new(Some(0), None), Err(BotError::Level { level: 0, top: 2 }));
///
/// let mut game: Game<Toy> = Game::seeded(Seed::new("bot")?, ToyVariant::default())?;
/// while let Some(mv) = bot.choose(&game) {
///     game.play(mv)?;
/// }
/// assert!(game.is_over());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bot<L: Ladder> {
    level: u8,
    budget: u64,
    ladder: PhantomData<L>,
}

impl<L: Ladder> Default for Bot<L> {
    /// The top level, with the default budget.
    fn default() -> Bot<L> {
        Bot {
            level: L::LEVEL_TOP,
            budget: L::BUDGET_DEFAULT,
            ladder: PhantomData,
        }
    }
}

impl<L: Ladder> Bot<L> {
    /// A bot at `level` (1..99; above the top of the ladder plays the top;
    /// `None` is the top) with a node `budget` (1..2,000,000,000; `None` is
    /// the ladder's [`Ladder::BUDGET_DEFAULT`]).
    ///
    /// # Errors
    ///
    /// [`BotError::Level`] for level 0 or above 99, [`BotError::Budget`] for
    /// a budget of 0 or above 2,000,000,000.
    pub fn new(level: Option<u8>, budget: Option<u64>) -> Result<Bot<L>, BotError> {
        Ok(Bot {
            level: bot_level(level, L::LEVEL_TOP)?,
            budget: bot_budget(budget, L::BUDGET_DEFAULT)?,
            ladder: PhantomData,
        })
    }

    /// The level this bot plays (1 to the top of the ladder).
    #[must_use]
    pub const fn level(&self) -> u8 {
        self.level
    }

    /// The node budget.
    #[must_use]
    pub const fn budget(&self) -> u64 {
        self.budget
    }

    /// The move this bot plays under `variant` in `position` with `roll`,
    /// and how it found it; `None` when the roll allows no move.
    #[must_use]
    pub fn think(
        &self,
        variant: &L::Variant,
        position: &L::Position,
        roll: u8,
    ) -> Option<Thought<L::Move>> {
        L::think(self.level, self.budget, variant, position, roll)
    }

    /// The move this bot plays in a game, `None` when it has no roll or the
    /// game is over.
    #[must_use]
    pub fn choose(&self, game: &Game<L>) -> Option<L::Move> {
        let roll = game.roll()?;
        self.think(game.variant(), game.position(), roll)
            .map(|t| t.mv)
    }
}
