//! The bot a front end runs: the game's ladder, or the perfect player over
//! a solved table; and the solved tables a program was given, keyed by
//! rule set.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use dice_core::{Game, Side};
use serde::Serialize;
use ur_solve::{
    AnalysisError, GameAnalysis, LookupError, PerfectBot, Table, TableError, WinChances as _,
};

use crate::{Kind, Level, RaceGame, ThoughtView};

/// Why there is no bot, or no thought, for what was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BotError {
    /// The game has no perfect level: nothing solves it.
    #[error("{0} has no perfect level (no solved table)")]
    NoPerfect(Kind),
    /// The perfect level was asked for without a table for these rules.
    #[error("the perfect level needs a solved table for {0}, and none was given")]
    NoTable(String),
    /// The table file could not be read, or holds other rules.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The table does not hold the position asked about.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// A game the table cannot judge.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}

impl BotError {
    /// The contract word: `no_perfect`, `no_table`, or the table's own
    /// (`missing`, `wrong_rules`, `checksum`, `inconsistent`, `illegal` ...).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            BotError::NoPerfect(_) => "no_perfect",
            BotError::NoTable(_) => "no_table",
            BotError::Table(e) => e.code(),
            BotError::Lookup(e) => e.code(),
            BotError::Analysis(e) => e.code(),
        }
    }
}

/// A game's solved table, read by the perfect player. A game that nothing
/// solves names [`Unsolved`], which has no values.
pub trait Solved<G: RaceGame>: fmt::Debug + Send + Sync + Sized + 'static {
    /// Opens the table at `path`, which must be for these rules.
    ///
    /// # Errors
    ///
    /// [`BotError::Table`] for a file that is not a table of these rules,
    /// [`BotError::NoPerfect`] for a game nothing solves.
    fn open_for(path: &Path, variant: &G::Variant) -> Result<Self, BotError>;

    /// The best move in the game, `None` when it has no roll in hand (or
    /// the table does not hold its position).
    fn choose(&self, game: &Game<G>) -> Option<G::Move>;

    /// The best move on `roll` and the mover's chance to win after it;
    /// `None` when the roll allows no move.
    ///
    /// # Errors
    ///
    /// [`BotError::Lookup`] when the table does not hold the position.
    fn think(&self, position: &G::Position, roll: u8) -> Result<Option<(G::Move, f64)>, BotError>;

    /// Light's chance to win before the throw, when the table holds the
    /// position.
    fn light_chance(&self, position: &G::Position) -> Option<f64>;
}

/// The table of a game nothing solves: there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {}

impl<G: RaceGame> Solved<G> for Unsolved {
    fn open_for(_: &Path, _: &G::Variant) -> Result<Unsolved, BotError> {
        Err(BotError::NoPerfect(G::KIND))
    }

    fn choose(&self, _: &Game<G>) -> Option<G::Move> {
        match *self {}
    }

    fn think(&self, _: &G::Position, _: u8) -> Result<Option<(G::Move, f64)>, BotError> {
        match *self {}
    }

    fn light_chance(&self, _: &G::Position) -> Option<f64> {
        match *self {}
    }
}

impl Solved<royal_ur::Ur> for PerfectBot<Table> {
    fn open_for(path: &Path, variant: &royal_ur::Variant) -> Result<Self, BotError> {
        Ok(PerfectBot::new(Table::open_for(path, variant)?))
    }

    fn choose(&self, game: &Game<royal_ur::Ur>) -> Option<royal_ur::Move> {
        PerfectBot::choose(self, game)
    }

    fn think(
        &self,
        position: &royal_ur::Position,
        roll: u8,
    ) -> Result<Option<(royal_ur::Move, f64)>, BotError> {
        Ok(PerfectBot::think(self, position, roll)?)
    }

    fn light_chance(&self, position: &royal_ur::Position) -> Option<f64> {
        let chance = self.table().win_chance(position).ok()?;
        Some(match position.side() {
            dice_core::Side::Light => chance,
            dice_core::Side::Dark => 1.0 - chance,
        })
    }
}

/// A player the computer runs: a rung of the game's ladder, or the
/// perfect player over a solved table (shared: a table is a memory map).
///
/// ```
/// use race_games::{Bot, Level};
/// use senet::Senet;
///
/// let bot = Bot::<Senet>::new(Level::Ladder(9), &senet::Variant::KENDALL, None)?;
/// assert_eq!(bot.level(), Level::Ladder(4));
/// let none = Bot::<Senet>::new(Level::Perfect, &senet::Variant::KENDALL, None);
/// assert_eq!(none.unwrap_err().code(), "no_perfect");
/// # Ok::<(), race_games::BotError>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Bot<G: RaceGame> {
    /// The game's ladder at a level.
    Ladder(dice_core::Bot<G>),
    /// The best move by a solved table.
    Perfect(Arc<G::Solved>),
}

impl<G: RaceGame> Clone for Bot<G> {
    fn clone(&self) -> Bot<G> {
        match self {
            Bot::Ladder(b) => Bot::Ladder(*b),
            Bot::Perfect(t) => Bot::Perfect(Arc::clone(t)),
        }
    }
}

impl<G: RaceGame> From<dice_core::Bot<G>> for Bot<G> {
    fn from(bot: dice_core::Bot<G>) -> Bot<G> {
        Bot::Ladder(bot)
    }
}

impl<G: RaceGame> Bot<G> {
    /// The ladder's bot at `level`; `None` for [`Level::Perfect`].
    #[must_use]
    pub fn ladder(level: Level) -> Option<Bot<G>> {
        let asked = match level {
            Level::Ladder(n) => Some(n),
            Level::Top => None,
            Level::Perfect => return None,
        };
        dice_core::Bot::<G>::new(asked, None).ok().map(Bot::Ladder)
    }

    /// The bot at `level` under `variant`; the perfect one reads the solved
    /// table at `table`.
    ///
    /// # Errors
    ///
    /// [`BotError::NoPerfect`] for a game nothing solves,
    /// [`BotError::NoTable`] for the perfect level without a table,
    /// [`BotError::Table`] for a table that cannot be read or holds other
    /// rules.
    pub fn new(
        level: Level,
        variant: &G::Variant,
        table: Option<&Path>,
    ) -> Result<Bot<G>, BotError> {
        if let Some(bot) = Bot::ladder(level) {
            return Ok(bot);
        }
        if !G::PERFECT {
            return Err(BotError::NoPerfect(G::KIND));
        }
        let path = table.ok_or_else(|| BotError::NoTable(variant.to_string()))?;
        Ok(Bot::Perfect(Arc::new(G::Solved::open_for(path, variant)?)))
    }

    /// The bot at `level` under `variant`, the perfect one playing from the
    /// table `tables` holds for these rules.
    ///
    /// # Errors
    ///
    /// As [`Bot::new`], [`BotError::NoTable`] when `tables` has none for
    /// these rules.
    pub fn with_tables(
        level: Level,
        variant: &G::Variant,
        tables: &Tables,
    ) -> Result<Bot<G>, BotError> {
        if let Some(bot) = Bot::ladder(level) {
            return Ok(bot);
        }
        if !G::PERFECT {
            return Err(BotError::NoPerfect(G::KIND));
        }
        tables
            .for_rules::<G>(variant)
            .map(Bot::Perfect)
            .ok_or_else(|| BotError::NoTable(variant.to_string()))
    }

    /// The level it plays at: the ladder's rung (the top for a level above
    /// it), or [`Level::Perfect`].
    #[must_use]
    pub fn level(&self) -> Level {
        match self {
            Bot::Ladder(b) => Level::Ladder(b.level()),
            Bot::Perfect(_) => Level::Perfect,
        }
    }

    /// Its move in `game`, `None` when the game has no roll in hand.
    #[must_use]
    pub fn choose(&self, game: &Game<G>) -> Option<G::Move> {
        match self {
            Bot::Ladder(b) => b.choose(game),
            Bot::Perfect(t) => t.choose(game),
        }
    }

    /// What it plays in `position` on `roll` and what it found; `None`
    /// when the roll allows no move.
    ///
    /// # Errors
    ///
    /// [`BotError::Lookup`] when a solved table does not hold the position.
    pub fn think(
        &self,
        variant: &G::Variant,
        position: &G::Position,
        roll: u8,
    ) -> Result<Option<ThoughtView>, BotError> {
        match self {
            Bot::Ladder(b) => Ok(b.think(variant, position, roll).map(G::ladder_thought)),
            Bot::Perfect(t) => {
                let Some((mv, chance)) = t.think(position, roll)? else {
                    return Ok(None);
                };
                let mut legal = dice_core::MoveList::new();
                G::legal(variant, position, roll, &mut legal);
                Ok(Some(ThoughtView::perfect(
                    mv.to_string(),
                    legal.iter().position(|&m| m == mv),
                    chance,
                )))
            }
        }
    }
}

/// Light's chance when `side`, to move, has `chance`.
fn light(side: Side, chance: f64) -> f64 {
    match side {
        Side::Light => chance,
        Side::Dark => 1.0 - chance,
    }
}

/// A finished game judged by a solved table, for a front end to draw:
/// Light's chance to win at the start and after each move, and the
/// report of [`Tables::analyse`] (its fields beside these two in JSON).
#[derive(Debug, Serialize)]
pub struct Analysis {
    /// Light's chance to win at the start, before the first throw.
    pub start: f64,
    /// Light's chance to win after each move of the report, in order.
    pub light_chances: Vec<f64>,
    /// Every decision judged, and each side's totals.
    #[serde(flatten)]
    pub report: GameAnalysis,
}

/// The solved tables a program was given, one per rule set.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    ur: Vec<Arc<PerfectBot<Table>>>,
}

/// A table file that could not be taken.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablesError {
    /// It could not be read as a table.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A second table for rules already given.
    #[error("table {path}: a second table for {rules}")]
    Twice {
        /// The second file.
        path: String,
        /// The rules, spelled out.
        rules: String,
    },
}

impl TablesError {
    /// The contract word: the table's own, or `twice`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            TablesError::Table(e) => e.code(),
            TablesError::Twice { .. } => "twice",
        }
    }
}

impl Tables {
    /// Opens every table file (memory-mapped; nothing is read until used).
    /// Each file says which game and rules it solves.
    ///
    /// # Errors
    ///
    /// [`TablesError`] for a file that is not a table, or a second table
    /// for rules already given.
    pub fn open(paths: &[impl AsRef<Path>]) -> Result<Tables, TablesError> {
        let mut tables = Tables::default();
        for path in paths {
            tables.add(path.as_ref())?;
        }
        Ok(tables)
    }

    /// Opens one more table file, so that a program opening several knows
    /// which one failed.
    ///
    /// # Errors
    ///
    /// [`TablesError`] for a file that is not a table, or a table for rules
    /// already given; the tables held are then unchanged.
    pub fn add(&mut self, path: &Path) -> Result<(), TablesError> {
        let table = Table::open(path)?;
        if self
            .ur
            .iter()
            .any(|t| t.table().variant() == table.variant())
        {
            return Err(TablesError::Twice {
                path: path.display().to_string(),
                rules: table.variant().spelled_out(),
            });
        }
        self.ur.push(Arc::new(PerfectBot::new(table)));
        Ok(())
    }

    /// The table for these rules of the game, if one was given.
    #[must_use]
    pub fn for_rules<G: RaceGame>(&self, variant: &G::Variant) -> Option<Arc<G::Solved>> {
        G::solved_in(self, variant)
    }

    /// The rule sets of the game with a table, as their record text.
    #[must_use]
    pub fn rules_of<G: RaceGame>(&self) -> Vec<String> {
        G::solved_rules(self)
    }

    /// The chance that the side to move wins at `position` (before its
    /// throw), by the table for `variant`.
    ///
    /// # Errors
    ///
    /// [`BotError::NoTable`] when there is no table for these rules,
    /// [`BotError::Lookup`] for a position the table does not hold.
    pub fn win_chance(
        &self,
        variant: &royal_ur::Variant,
        position: &royal_ur::Position,
    ) -> Result<f64, BotError> {
        let solved = self
            .for_rules::<royal_ur::Ur>(variant)
            .ok_or_else(|| BotError::NoTable(variant.to_string()))?;
        Ok(solved.table().win_chance(position)?)
    }

    /// Every ply of `game` judged by the table for its rules, from the
    /// position it started in: each side's chance before and after, the
    /// best move, the luck of the roll and what the move played lost.
    ///
    /// # Errors
    ///
    /// [`BotError::NoTable`] when there is no table for the game's rules,
    /// [`BotError::Analysis`] for a game the table cannot judge.
    pub fn analyse(&self, game: &Game<royal_ur::Ur>) -> Result<GameAnalysis, BotError> {
        let solved = self
            .for_rules::<royal_ur::Ur>(game.variant())
            .ok_or_else(|| BotError::NoTable(game.variant().to_string()))?;
        Ok(ur_solve::analyse_game(solved.table(), game)?)
    }

    /// [`Tables::analyse`]'s report with each side's chances laid out for a
    /// graph: Light's chance at the start and after every move.
    ///
    /// # Errors
    ///
    /// As [`Tables::analyse`].
    pub fn analysis(&self, game: &Game<royal_ur::Ur>) -> Result<Analysis, BotError> {
        let report = self.analyse(game)?;
        let start = game.start();
        let start = light(start.side(), self.win_chance(game.variant(), start)?);
        let light_chances = report
            .turns
            .iter()
            .map(|t| light(t.side, t.after))
            .collect();
        Ok(Analysis {
            start,
            light_chances,
            report,
        })
    }

    /// The Royal Game of Ur's tables.
    pub(crate) fn ur(&self) -> &[Arc<PerfectBot<Table>>] {
        &self.ur
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_that_cannot_be_added_leaves_the_tables_as_they_were() {
        let mut tables = Tables::default();
        let missing = std::env::temp_dir().join("race-games-no-such-table.bin");
        let Err(e) = tables.add(&missing) else {
            panic!("a missing file was taken as a table");
        };
        assert_eq!(e.code(), "missing");
        assert!(e.to_string().contains("no-such-table"), "{e}");
        assert!(tables.rules_of::<royal_ur::Ur>().is_empty());
        let Err(e) = Tables::open(&[&missing]) else {
            panic!("a missing file was opened as a table");
        };
        assert_eq!(e.code(), "missing");
    }
}
