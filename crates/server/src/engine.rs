//! The two games behind one small interface.
//!
//! Everything the server asks of `royal-ur`, `senet` and `ur-solve` goes
//! through this module, so that the rest of the crate never names a game
//! crate: parse rules text, start a seeded game, list the legal moves, play a
//! move text, resign, read the log, the position, the key, the result and the
//! record, and let a bot choose.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use dice_core::{Ending, Game, LogEntry, Notation, PlayError, Record, Seed, Side};
use royal_ur::{GameExt as _, Ur};
use senet::{GameExt as _, Senet};
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use ur_solve::{PerfectBot, Table, WinChances as _};

pub mod review;

/// The two games, by the words the API uses: `ur` and `senet`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// The Royal Game of Ur.
    Ur,
    /// Senet.
    Senet,
}

impl GameKind {
    /// The API word: `ur` or `senet`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameKind::Ur => "ur",
            GameKind::Senet => "senet",
        }
    }

    /// The game an API word names.
    #[must_use]
    pub fn from_word(word: &str) -> Option<GameKind> {
        match word {
            "ur" => Some(GameKind::Ur),
            "senet" => Some(GameKind::Senet),
            _ => None,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule set of either game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// Royal Game of Ur rules.
    Ur(royal_ur::Variant),
    /// Senet rules.
    Senet(senet::Variant),
}

/// Rules text that names no rule set of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a rule set of {game}: {why}")]
pub struct RulesError {
    /// The game.
    pub game: GameKind,
    /// The text given.
    pub text: String,
    /// What the game's own parser said.
    pub why: String,
}

impl RuleSet {
    /// The rule set `text` names for `game` (a name or the fields spelled
    /// out, as `race` reads them); the game's default when `None`.
    ///
    /// # Errors
    ///
    /// [`RulesError`] for text the game does not read.
    pub fn parse(game: GameKind, text: Option<&str>) -> Result<RuleSet, RulesError> {
        let fail = |why: String| RulesError {
            game,
            text: text.unwrap_or_default().to_owned(),
            why,
        };
        Ok(match (game, text) {
            (GameKind::Ur, None) => RuleSet::Ur(royal_ur::Variant::default()),
            (GameKind::Senet, None) => RuleSet::Senet(senet::Variant::default()),
            (GameKind::Ur, Some(t)) => {
                RuleSet::Ur(dice_core::read_rules(t).map_err(|e| fail(format!("{e}")))?)
            }
            (GameKind::Senet, Some(t)) => {
                RuleSet::Senet(dice_core::read_rules(t).map_err(|e| fail(format!("{e}")))?)
            }
        })
    }

    /// The game these rules are for.
    #[must_use]
    pub const fn kind(&self) -> GameKind {
        match self {
            RuleSet::Ur(_) => GameKind::Ur,
            RuleSet::Senet(_) => GameKind::Senet,
        }
    }
}

/// The record's rules text: the name, or the fields spelled out.
impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleSet::Ur(v) => v.fmt(f),
            RuleSet::Senet(v) => v.fmt(f),
        }
    }
}

/// Why a move was refused: the engine's refusal code (`wrong_distance`,
/// `bad_move`, ...) and its sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The engine's code.
    pub code: &'static str,
    /// What the engine said.
    pub message: String,
}

/// A game of either kind, thrown from a seed.
#[derive(Clone)]
pub enum AnyGame {
    /// The Royal Game of Ur.
    Ur(Game<Ur>),
    /// Senet.
    Senet(Game<Senet>),
}

/// Runs `$body` with `$g` bound to the game inside, whichever it is.
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::Ur($g) => $body,
            AnyGame::Senet($g) => $body,
        }
    };
}

/// Why a game could not be started.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game cannot start: {0}")]
pub struct StartError(String);

impl AnyGame {
    /// A new game under `rules`, every throw made from `seed`.
    ///
    /// # Errors
    ///
    /// [`StartError`] when the engine refuses the set-up (an opening
    /// throw-off that never ends).
    pub fn new(rules: &RuleSet, seed: Seed) -> Result<AnyGame, StartError> {
        let fail = |e: dice_core::NewGameError| StartError(e.to_string());
        Ok(match rules {
            RuleSet::Ur(v) => AnyGame::Ur(Game::seeded(seed, *v).map_err(fail)?),
            RuleSet::Senet(v) => AnyGame::Senet(Game::seeded(seed, *v).map_err(fail)?),
        })
    }

    /// The game's kind.
    #[must_use]
    pub const fn kind(&self) -> GameKind {
        match self {
            AnyGame::Ur(_) => GameKind::Ur,
            AnyGame::Senet(_) => GameKind::Senet,
        }
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> RuleSet {
        match self {
            AnyGame::Ur(g) => RuleSet::Ur(*g.variant()),
            AnyGame::Senet(g) => RuleSet::Senet(*g.variant()),
        }
    }

    /// Plies played: moves and lost turns.
    #[must_use]
    pub fn ply(&self) -> u32 {
        with_game!(self, g => g.ply())
    }

    /// The side to move; `None` once over.
    #[must_use]
    pub fn side(&self) -> Option<Side> {
        with_game!(self, g => g.side())
    }

    /// The roll in hand; `None` once over.
    #[must_use]
    pub fn roll(&self) -> Option<u8> {
        with_game!(self, g => g.roll())
    }

    /// The faces of the throw in hand (`0101`), when known.
    #[must_use]
    pub fn faces(&self) -> Option<String> {
        with_game!(self, g => g.faces().map(|f| f.to_string()))
    }

    /// The position text.
    #[must_use]
    pub fn position(&self) -> String {
        with_game!(self, g => g.position().to_string())
    }

    /// The position key as text (for the Royal Game of Ur, 14 digits on
    /// the paths whose keys hold second visits).
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            AnyGame::Ur(g) => g.key_text(),
            AnyGame::Senet(g) => g.key().to_string(),
        }
    }

    /// The legal move texts, in engine order.
    #[must_use]
    pub fn legal(&self) -> Vec<String> {
        with_game!(self, g => g.legal().iter().map(ToString::to_string).collect())
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        with_game!(self, g => g.is_over())
    }

    /// The winner (`None` for a draw) and how it ended, once over.
    #[must_use]
    pub fn result(&self) -> Option<(Option<Side>, Ending)> {
        with_game!(self, g => g.result().map(|o| (o.winner, o.how)))
    }

    /// Plays a move given as text.
    ///
    /// # Errors
    ///
    /// A [`Refusal`] with the engine's code; the game is then unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), Refusal> {
        with_game!(self, g => play(g, text))
    }

    /// Takes back the last move (and the turns lost after it), or a
    /// resignation.
    pub fn undo(&mut self) -> bool {
        with_game!(self, g => g.undo().is_ok())
    }

    /// Resigns for `side`; false, changing nothing, when already over.
    pub fn resign(&mut self, side: Side) -> bool {
        with_game!(self, g => g.resign(Some(side)).is_ok())
    }

    /// Whether ply `ply` was a move by `side` that `text` names (in any
    /// spelling the game reads).
    #[must_use]
    pub fn played(&self, ply: u32, side: Side, text: &str) -> bool {
        with_game!(self, g => played(g, ply, side, text))
    }

    /// The move texts of every move played, with the ply of each, in order
    /// (lost turns are not moves).
    #[must_use]
    pub fn moves(&self) -> Vec<(u32, String)> {
        with_game!(self, g => g
            .log()
            .iter()
            .filter_map(|e| Some((e.ply, e.mv?.to_string())))
            .collect())
    }

    /// The text of the move played at `ply`, if a move was.
    #[must_use]
    pub fn move_at(&self, ply: u32) -> Option<String> {
        with_game!(self, g => usize::try_from(ply)
            .ok()
            .and_then(|i| g.log().get(i))
            .and_then(|e| e.mv)
            .map(|mv| mv.to_string()))
    }

    /// The log, ready to be written as JSON.
    #[must_use]
    pub fn log(&self) -> LogView<'_> {
        LogView(self, 0)
    }

    /// The log's entries from index `from` on, ready to be written as
    /// JSON (none when `from` is past the end).
    #[must_use]
    pub fn log_since(&self, from: usize) -> LogView<'_> {
        LogView(self, from)
    }

    /// How many entries the log holds (lost turns included).
    #[must_use]
    pub fn log_len(&self) -> usize {
        with_game!(self, g => g.log().len())
    }

    /// The record text. With `reveal` false it carries no seed (nor the
    /// count of opening throws, which a record may only give with one):
    /// the throws it lists are then a script, and nothing in it tells a
    /// throw to come.
    #[must_use]
    pub fn record(&self, reveal: bool) -> String {
        with_game!(self, g => record(g, reveal))
    }

    /// A bot's move, as text; `None` when the game has no roll in hand or
    /// the bot plays other rules.
    #[must_use]
    pub fn choose(&self, bot: &Bot) -> Option<String> {
        match (self, bot) {
            (AnyGame::Ur(g), Bot::Ur(b)) => b.choose(g).map(|m| m.to_string()),
            (AnyGame::Ur(g), Bot::Perfect(b)) => b.choose(g).map(|m| m.to_string()),
            (AnyGame::Senet(g), Bot::Senet(b)) => b.choose(g).map(|m| m.to_string()),
            _ => None,
        }
    }

    /// Light's chance to win before the throw in hand, by a solved table for
    /// these rules, when one is given.
    #[must_use]
    pub fn light_chance(&self, tables: &Tables) -> Option<f64> {
        let AnyGame::Ur(g) = self else { return None };
        let table = tables.for_rules(&self.rules())?;
        let chance = table.table().win_chance(g.position()).ok()?;
        Some(match g.position().side() {
            Side::Light => chance,
            Side::Dark => 1.0 - chance,
        })
    }
}

fn play<R: Notation>(game: &mut Game<R>, text: &str) -> Result<(), Refusal> {
    game.play_text(text).map(drop).map_err(|e| Refusal {
        code: e.code(),
        message: match &e {
            PlayError::Refused { refusal, mv, roll } => {
                format!("{mv} on a roll of {roll}: {refusal}")
            }
            PlayError::BadMove { text, why } => format!("{text:?} is not a move: {why}"),
            other => other.to_string(),
        },
    })
}

fn played<R: Notation>(game: &Game<R>, ply: u32, side: Side, text: &str) -> bool {
    let Ok(mv) = R::parse_move(game.variant(), text) else {
        return false;
    };
    usize::try_from(ply)
        .ok()
        .and_then(|i| game.log().get(i))
        .is_some_and(|e| e.side == side && e.mv == Some(mv))
}

fn record<R: Notation>(game: &Game<R>, reveal: bool) -> String {
    let mut record: Record<R> = game.to_record();
    if !reveal {
        record.seed = None;
        record.opening = 0;
    }
    record.to_string()
}

/// A game's log as JSON, from one of its entries on: a list of `{"ply",
/// "side", "roll", "faces", "move"}`, `move` being `null` for a turn lost
/// to the roll.
pub struct LogView<'a>(&'a AnyGame, usize);

impl Serialize for LogView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        with_game!(self.0, g => log_json(g.log().get(self.1..).unwrap_or_default(), serializer))
    }
}

fn log_json<R: Notation, S: Serializer>(
    log: &[LogEntry<R>],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    struct Entry<'a, R: Notation>(&'a LogEntry<R>);
    impl<R: Notation> Serialize for Entry<'_, R> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let e = self.0;
            let mut s = serializer.serialize_struct("Entry", 5)?;
            s.serialize_field("ply", &e.ply)?;
            s.serialize_field("side", e.side.as_str())?;
            s.serialize_field("roll", &e.roll)?;
            s.serialize_field("faces", &e.faces)?;
            s.serialize_field("move", &e.mv)?;
            s.end()
        }
    }
    let mut seq = serializer.serialize_seq(Some(log.len()))?;
    for e in log {
        seq.serialize_element(&Entry(e))?;
    }
    seq.end()
}

/// The moves of a record's text, with the ply of each, in order; `None`
/// for text that is not a record of `game`.
#[must_use]
pub fn record_moves(game: GameKind, text: &str) -> Option<Vec<(u32, String)>> {
    fn moves<R: Notation>(text: &str) -> Option<Vec<(u32, String)>> {
        let record = Record::<R>::parse(text).ok()?;
        record
            .turns
            .iter()
            .enumerate()
            .filter_map(|(ply, t)| Some((u32::try_from(ply).ok(), t.mv?.to_string())))
            .map(|(ply, mv)| Some((ply?, mv)))
            .collect()
    }
    match game {
        GameKind::Ur => moves::<Ur>(text),
        GameKind::Senet => moves::<Senet>(text),
    }
}

/// A bot level: 1 to 4 on either game's ladder, or `perfect` (the Royal
/// Game of Ur played from a solved table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A rung of the ladder, 1..=4.
    Ladder(u8),
    /// The best move by a solved table.
    Perfect,
}

impl Level {
    /// The top of both ladders.
    pub const TOP: Level = Level::Ladder(royal_ur::LEVEL_TOP);

    /// The level a word names: `1`..`4` or `perfect`.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Level> {
        match word {
            "perfect" => Some(Level::Perfect),
            _ => word.parse().ok().and_then(Level::ladder),
        }
    }

    /// The ladder level `n`, if it is one.
    #[must_use]
    pub fn ladder(n: u8) -> Option<Level> {
        (1..=royal_ur::LEVEL_TOP)
            .contains(&n)
            .then_some(Level::Ladder(n))
    }
}

/// `1`..`4` or `perfect`.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Ladder(n) => write!(f, "{n}"),
            Level::Perfect => f.write_str("perfect"),
        }
    }
}

/// A player the server runs.
#[derive(Clone, Debug)]
pub enum Bot {
    /// The Royal Game of Ur ladder.
    Ur(royal_ur::Bot),
    /// The Royal Game of Ur played from a solved table.
    Perfect(Arc<PerfectBot<Table>>),
    /// The Senet ladder.
    Senet(senet::Bot),
}

/// Why there is no bot for a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BotError {
    /// Senet has no solved tables.
    #[error("senet has no perfect level; the levels are 1 to 4")]
    NoPerfect,
    /// No table was given for these rules.
    #[error("the perfect level needs a solved table for {0}, and the server was given none")]
    NoTable(String),
    /// The engine refused the level.
    #[error("{0}")]
    Level(String),
}

impl Bot {
    /// The bot for `level` under `rules`.
    ///
    /// # Errors
    ///
    /// [`BotError`] for `perfect` without a table for these rules, or for
    /// Senet.
    pub fn new(rules: &RuleSet, level: Level, tables: &Tables) -> Result<Bot, BotError> {
        match (rules, level) {
            (RuleSet::Ur(_), Level::Ladder(n)) => royal_ur::Bot::new(Some(n), None)
                .map(Bot::Ur)
                .map_err(|e| BotError::Level(e.to_string())),
            (RuleSet::Senet(_), Level::Ladder(n)) => senet::Bot::new(Some(n), None)
                .map(Bot::Senet)
                .map_err(|e| BotError::Level(e.to_string())),
            (RuleSet::Ur(v), Level::Perfect) => tables
                .for_rules(rules)
                .map(Bot::Perfect)
                .ok_or_else(|| BotError::NoTable(v.to_string())),
            (RuleSet::Senet(_), Level::Perfect) => Err(BotError::NoPerfect),
        }
    }
}

/// The solved Royal Game of Ur tables the server was given, one per rule
/// set.
#[derive(Clone, Debug, Default)]
pub struct Tables(Vec<Arc<PerfectBot<Table>>>);

/// A table file that could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("table {path}: {why}")]
pub struct TableError {
    /// The file.
    pub path: String,
    /// What was wrong.
    pub why: String,
}

impl Tables {
    /// Opens every table file (memory-mapped; nothing is read until used).
    ///
    /// # Errors
    ///
    /// [`TableError`] for a file that is not a table, or a second table for
    /// rules already given.
    pub fn open(paths: &[impl AsRef<Path>]) -> Result<Tables, TableError> {
        let mut tables: Vec<Arc<PerfectBot<Table>>> = Vec::new();
        for path in paths {
            let path = path.as_ref();
            let fail = |why: String| TableError {
                path: path.display().to_string(),
                why,
            };
            let table = Table::open(path).map_err(|e| fail(e.to_string()))?;
            if tables
                .iter()
                .any(|t| t.table().variant() == table.variant())
            {
                return Err(fail(format!(
                    "a second table for {}",
                    table.variant().spelled_out()
                )));
            }
            tables.push(Arc::new(PerfectBot::new(table)));
        }
        Ok(Tables(tables))
    }

    /// The table for these rules, if one was given.
    #[must_use]
    pub fn for_rules(&self, rules: &RuleSet) -> Option<Arc<PerfectBot<Table>>> {
        let RuleSet::Ur(v) = rules else { return None };
        self.0.iter().find(|t| t.table().variant() == v).cloned()
    }

    /// The rule sets with a table, as their record text.
    #[must_use]
    pub fn rules(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|t| t.table().variant().to_string())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed::new([7u8; 32]).unwrap()
    }

    #[test]
    fn rules_text_reads_as_race_reads_it() {
        assert_eq!(
            RuleSet::parse(GameKind::Ur, None).unwrap().to_string(),
            "finkel"
        );
        assert_eq!(
            RuleSet::parse(GameKind::Senet, Some("skyruk"))
                .unwrap()
                .to_string(),
            "skyruk"
        );
        // Only the fields that differ from the default need naming.
        assert_eq!(
            RuleSet::parse(GameKind::Ur, Some("pieces=3 route=long"))
                .unwrap()
                .to_string(),
            "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=3"
        );
        let e = RuleSet::parse(GameKind::Ur, Some("kendall")).unwrap_err();
        assert_eq!(e.text, "kendall");
        let e = RuleSet::parse(GameKind::Ur, Some("pieces=3 pieces=4")).unwrap_err();
        assert!(e.why.contains("pieces"), "{}", e.why);
    }

    #[test]
    fn a_refused_move_changes_nothing_and_names_the_code() {
        for rules in [
            RuleSet::parse(GameKind::Ur, None).unwrap(),
            RuleSet::parse(GameKind::Senet, None).unwrap(),
        ] {
            let mut game = AnyGame::new(&rules, seed()).unwrap();
            let before = (game.ply(), game.position(), game.legal());
            let e = game.play("not a move").unwrap_err();
            assert_eq!(e.code, "bad_move");
            assert_eq!((game.ply(), game.position(), game.legal()), before);
        }
    }

    #[test]
    fn a_hidden_record_has_no_seed_and_still_reads() {
        let rules = RuleSet::parse(GameKind::Senet, None).unwrap();
        let mut game = AnyGame::new(&rules, seed()).unwrap();
        for _ in 0..10 {
            let mv = game.legal()[0].clone();
            game.play(&mv).unwrap();
        }
        let hidden = game.record(false);
        assert!(!hidden.contains("[seed"), "{hidden}");
        assert!(!hidden.contains("[opening"), "{hidden}");
        assert_eq!(record_moves(GameKind::Senet, &hidden), Some(game.moves()));
        assert!(
            game.record(true)
                .contains(&format!("[seed {}]", "07".repeat(32)))
        );
    }

    #[test]
    fn played_reads_any_spelling_of_the_move() {
        let rules = RuleSet::parse(GameKind::Ur, None).unwrap();
        let mut game = AnyGame::new(&rules, seed()).unwrap();
        let side = game.side().unwrap();
        let (ply, mv) = (game.ply(), game.legal()[0].clone());
        game.play(&mv).unwrap();
        assert!(game.played(ply, side, &mv.to_uppercase()));
        assert!(!game.played(ply, side.other(), &mv));
        assert!(!game.played(ply + 5, side, &mv));
    }
}
