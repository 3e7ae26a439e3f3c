//! What the games' bots share: how a bot's level and node budget are
//! given and checked.

use crate::Coded;

/// The highest level a bot may be asked for. Levels run from 1; above the
/// top of its game's ladder a bot plays the top.
pub const LEVEL_ASKED_MAX: u8 = 99;

/// The largest node budget a bot takes.
pub const BUDGET_MAX: u64 = 2_000_000_000;

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
    },
    /// A budget outside 1..2,000,000,000.
    #[error("a budget is a whole number from 1 to 2000000000, not {0}")]
    Budget(u64),
}

impl BotError {
    /// The contract word: `level` or `budget`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            BotError::Level { .. } => "level",
            BotError::Budget(_) => "budget",
        }
    }
}

impl Coded for BotError {
    fn code(&self) -> &'static str {
        BotError::code(self)
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
