//! `race_games.Bot` and `race_games.Table`: the bot ladder and the perfect
//! player, and the Royal Game of Ur's solved table.

use pyo3::prelude::*;
use race_games::{Bot, Kind, Level, RaceGame, Tables};
use royal_ur::Ur;
use senet::Senet;

use crate::game::{Played, PyGame, PyMove};
use crate::{Raise, dataclass, kind, to_py};

/// A bot of either game.
#[derive(Clone, Debug)]
enum Bots {
    Ur(Bot<Ur>, royal_ur::Variant),
    Senet(Bot<Senet>, senet::Variant),
}

fn bot_error(py: Python<'_>, e: &race_games::BotError) -> PyErr {
    Raise::new("BotError", e.code(), e.to_string()).err(py)
}

/// A bot level as text or a number.
#[derive(FromPyObject)]
enum LevelArg {
    Number(i64),
    Word(String),
}

fn level(py: Python<'_>, arg: LevelArg) -> PyResult<Level> {
    let text = match arg {
        LevelArg::Number(n) => n.to_string(),
        LevelArg::Word(w) => w,
    };
    text.parse::<Level>()
        .map_err(|e| Raise::new("BotError", e.code(), e.to_string()).err(py))
}

/// A player the computer runs: a rung of the game's ladder (`1` to `99`,
/// `top`, the default), or `perfect` over a solved table.
#[pyclass(module = "race_games._native", name = "Bot", frozen)]
pub(crate) struct PyBot {
    bot: Bots,
}

fn think<'py, G: RaceGame>(
    py: Python<'py>,
    bot: &Bot<G>,
    variant: &G::Variant,
    position: &G::Position,
    roll: u8,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    bot.think(variant, position, roll)
        .map_err(|e| bot_error(py, &e))?
        .map(|t| dataclass(py, "Thought", &t))
        .transpose()
}

fn position_of<G: RaceGame>(
    py: Python<'_>,
    variant: &G::Variant,
    text: &str,
) -> PyResult<G::Position> {
    let position = G::read_position(text, variant)
        .map_err(|e| Raise::new("PositionError", e.code, e.to_string()).err(py))?;
    G::check(variant, &position)
        .map_err(|e| Raise::new("PositionError", e.code, e.message).err(py))?;
    Ok(position)
}

fn roll_of<G: RaceGame>(py: Python<'_>, variant: &G::Variant, roll: u8) -> PyResult<u8> {
    let (low, high) = (G::ROLL_MIN, G::max_roll(variant));
    if (low..=high).contains(&roll) {
        Ok(roll)
    } else {
        Err(Raise::new(
            "PositionError",
            "roll",
            format!("{roll} is not a roll of these rules; rolls are {low} to {high}"),
        )
        .err(py))
    }
}

fn wrong_game(py: Python<'_>, bot: Kind, game: Kind) -> PyErr {
    Raise::new(
        "BotError",
        "wrong_game",
        format!("this bot plays {bot}, and the game is {game}"),
    )
    .err(py)
}

#[pymethods]
impl PyBot {
    /// The bot at `level` for `game` under `rules`; the perfect one plays
    /// from `table`.
    #[new]
    #[pyo3(signature = (level = None, game = "ur", rules = None, table = None))]
    fn new(
        py: Python<'_>,
        level: Option<LevelArg>,
        game: &str,
        rules: Option<&str>,
        table: Option<&PyTable>,
    ) -> PyResult<PyBot> {
        let level = match level {
            Some(level) => self::level(py, level)?,
            None => Level::Top,
        };
        let empty = Tables::default();
        let tables = table.map_or(&empty, |t| &t.tables);
        let bot = match kind(py, game)? {
            Kind::Ur => {
                let variant = match (rules, table) {
                    (None, Some(t)) => t.variant,
                    _ => crate::rules::<Ur>(py, rules)?,
                };
                let bot =
                    Bot::with_tables(level, &variant, tables).map_err(|e| bot_error(py, &e))?;
                Bots::Ur(bot, variant)
            }
            Kind::Senet => {
                let variant = crate::rules::<Senet>(py, rules)?;
                let bot =
                    Bot::with_tables(level, &variant, tables).map_err(|e| bot_error(py, &e))?;
                Bots::Senet(bot, variant)
            }
        };
        Ok(PyBot { bot })
    }

    /// The level it plays at (`1` .. the top of the ladder, `perfect`).
    #[getter]
    fn level(&self) -> String {
        match &self.bot {
            Bots::Ur(b, _) => b.level().to_string(),
            Bots::Senet(b, _) => b.level().to_string(),
        }
    }

    /// Its move in `game`; `None` when the game has no roll in hand.
    fn choose(&self, py: Python<'_>, game: &PyGame) -> PyResult<Option<PyMove>> {
        let text = match (&self.bot, &game.game) {
            (Bots::Ur(b, _), Played::Ur(g)) => b.choose(g).map(|m| m.to_string()),
            (Bots::Senet(b, _), Played::Senet(g)) => b.choose(g).map(|m| m.to_string()),
            (Bots::Ur(..), Played::Senet(_)) => return Err(wrong_game(py, Kind::Ur, Kind::Senet)),
            (Bots::Senet(..), Played::Ur(_)) => return Err(wrong_game(py, Kind::Senet, Kind::Ur)),
        };
        Ok(text.and_then(|t| game.legal_move(&t)))
    }

    /// What it plays in `game` and what it found; `None` when the game has
    /// no roll in hand.
    fn think<'py>(&self, py: Python<'py>, game: &PyGame) -> PyResult<Option<Bound<'py, PyAny>>> {
        match (&self.bot, &game.game) {
            (Bots::Ur(b, _), Played::Ur(g)) => match g.roll() {
                Some(roll) if !g.legal().is_empty() => {
                    think(py, b, g.variant(), g.position(), roll)
                }
                _ => Ok(None),
            },
            (Bots::Senet(b, _), Played::Senet(g)) => match g.roll() {
                Some(roll) if !g.legal().is_empty() => {
                    think(py, b, g.variant(), g.position(), roll)
                }
                _ => Ok(None),
            },
            (Bots::Ur(..), Played::Senet(_)) => Err(wrong_game(py, Kind::Ur, Kind::Senet)),
            (Bots::Senet(..), Played::Ur(_)) => Err(wrong_game(py, Kind::Senet, Kind::Ur)),
        }
    }

    /// What it plays in `position` (its text) on `roll` under the bot's
    /// rules; `None` when the roll allows no move.
    fn think_at<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        roll: u8,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match &self.bot {
            Bots::Ur(b, v) => {
                let p = position_of::<Ur>(py, v, position)?;
                think(py, b, v, &p, roll_of::<Ur>(py, v, roll)?)
            }
            Bots::Senet(b, v) => {
                let p = position_of::<Senet>(py, v, position)?;
                think(py, b, v, &p, roll_of::<Senet>(py, v, roll)?)
            }
        }
    }
}

/// A solved table of the Royal Game of Ur, read from `race solve`'s file.
#[pyclass(module = "race_games._native", name = "Table", frozen)]
pub(crate) struct PyTable {
    tables: Tables,
    variant: royal_ur::Variant,
}

#[pymethods]
impl PyTable {
    /// Opens the table file at `path` (memory-mapped).
    #[new]
    fn new(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PyTable> {
        let tables = Tables::open(&[&path])
            .map_err(|e| Raise::new("BotError", e.code(), e.to_string()).err(py))?;
        let rules = tables.rules_of::<Ur>();
        let variant = rules
            .first()
            .and_then(|r| <Ur as dice_core::Notation>::read_rules_line(r).ok())
            .ok_or_else(|| Raise::new("BotError", "missing", "the file holds no table").err(py))?;
        Ok(PyTable { tables, variant })
    }

    /// The rules it solves.
    #[getter]
    fn rules(&self) -> String {
        self.variant.to_string()
    }

    /// The chance that the side to move wins at `position`, before its
    /// throw.
    fn win_chance(&self, py: Python<'_>, position: &str) -> PyResult<f64> {
        let p = position_of::<Ur>(py, &self.variant, position)?;
        self.tables
            .win_chance(&self.variant, &p)
            .map_err(|e| bot_error(py, &e))
    }

    /// The perfect move in `position` on `roll` and the mover's chance to
    /// win after it; `None` when the roll allows no move.
    fn best<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        roll: u8,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let p = position_of::<Ur>(py, &self.variant, position)?;
        let roll = roll_of::<Ur>(py, &self.variant, roll)?;
        let bot = Bot::<Ur>::with_tables(Level::Perfect, &self.variant, &self.tables)
            .map_err(|e| bot_error(py, &e))?;
        think(py, &bot, &self.variant, &p, roll)
    }

    /// Every ply of a game (or a record's text) judged by the table.
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let played = if let Ok(g) = game.cast::<PyGame>() {
            g.borrow().game.clone()
        } else {
            crate::game::replay(py, &game.extract::<String>()?, Some("ur"), None)?.game
        };
        let Played::Ur(g) = played else {
            return Err(wrong_game(py, Kind::Ur, Kind::Senet));
        };
        let analysis = self.tables.analyse(&g).map_err(|e| bot_error(py, &e))?;
        to_py(py, &analysis)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBot>()?;
    m.add_class::<PyTable>()?;
    Ok(())
}
