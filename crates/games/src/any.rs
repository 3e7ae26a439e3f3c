//! Either game as one value, in the shape of shakmaty's `VariantPosition`:
//! a rule set, a position, a move, a game and a bot of any game, each an
//! enum with one arm a game.

use std::fmt;

use dice_core::{
    Game, NewGameError, Notation, PlayError, Record, ReplayError, Rules, Seed, Side, record_rules,
};
use royal_ur::Ur;
use senet::Senet;

use crate::{
    Analysis, Board, Bot, BotError, EntryView, GameView, Kind, Level, LineView, OfferView,
    RaceGame, ResultView, RuleSetView, RulesError, Story, Tables, read_rules,
};

/// Runs `$body` with `$g` bound to what the `$enum` value holds, whichever
/// game it is. A new game adds its arm here.
macro_rules! each {
    ($value:expr, $enum:ident, $g:ident => $body:expr) => {
        match $value {
            $enum::Ur($g) => $body,
            $enum::Senet($g) => $body,
        }
    };
}

/// A rule set of any game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyVariant {
    /// Royal Game of Ur rules.
    Ur(royal_ur::Variant),
    /// Senet rules.
    Senet(senet::Variant),
}

impl AnyVariant {
    /// The rule set `text` names for the game (a name, or the fields that
    /// differ from its default in any order); the default when `None`.
    ///
    /// # Errors
    ///
    /// [`RulesError`] for text the game does not read.
    ///
    /// ```
    /// use race_games::{AnyVariant, Kind};
    ///
    /// let rules = AnyVariant::read(Kind::Senet, Some("skyruk"))?;
    /// assert_eq!((rules.kind(), rules.to_string().as_str()), (Kind::Senet, "skyruk"));
    /// # Ok::<(), race_games::RulesError>(())
    /// ```
    pub fn read(kind: Kind, text: Option<&str>) -> Result<AnyVariant, RulesError> {
        Ok(match kind {
            Kind::Ur => AnyVariant::Ur(read_rules::<Ur>(text)?),
            Kind::Senet => AnyVariant::Senet(read_rules::<Senet>(text)?),
        })
    }

    /// The game these rules are for.
    #[must_use]
    pub const fn kind(&self) -> Kind {
        match self {
            AnyVariant::Ur(_) => Kind::Ur,
            AnyVariant::Senet(_) => Kind::Senet,
        }
    }

    /// The rule set with the board it is played on, and whether `tables`
    /// holds it.
    #[must_use]
    pub fn view(&self, tables: &Tables) -> RuleSetView {
        match self {
            AnyVariant::Ur(v) => RuleSetView::of::<Ur>(v, tables),
            AnyVariant::Senet(v) => RuleSetView::of::<Senet>(v, tables),
        }
    }
}

/// The record's rules text: the name, or the fields spelled out.
impl fmt::Display for AnyVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, AnyVariant, v => v.fmt(f))
    }
}

/// A position of any game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyPosition {
    /// A Royal Game of Ur position.
    Ur(royal_ur::Position),
    /// A Senet position.
    Senet(senet::Position),
}

/// The position text.
impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, AnyPosition, p => p.fmt(f))
    }
}

/// A move of any game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyMove {
    /// A Royal Game of Ur move.
    Ur(royal_ur::Move),
    /// A Senet move.
    Senet(senet::Move),
}

/// The move's wire text.
impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, AnyMove, m => m.fmt(f))
    }
}

/// Why a move was refused: the game's refusal code (`wrong_distance`,
/// `bad_move`, ...) and its sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({code})")]
pub struct Refusal {
    /// The game's code.
    pub code: &'static str,
    /// What the game said.
    pub message: String,
}

impl<R: Notation> From<PlayError<R>> for Refusal {
    fn from(e: PlayError<R>) -> Refusal {
        Refusal {
            code: e.code(),
            message: match &e {
                PlayError::Refused { refusal, mv, roll } => {
                    format!("{mv} on a roll of {roll}: {refusal}")
                }
                PlayError::BadMove { text, why } => format!("{text:?} is not a move: {why}"),
                other => other.to_string(),
            },
        }
    }
}

/// A record that could not be replayed: the contract's code (`bad_record`,
/// or the code of the move refused), the check that failed (`why`, for a
/// `bad_record`), the record's line (0 for the text as a whole), the ply
/// (for an error in the moves) and a sentence, as `race replay` gives them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({code})")]
pub struct ReplayRefusal {
    /// The contract word.
    pub code: &'static str,
    /// The check that failed, for a `bad_record`.
    pub why: Option<&'static str>,
    /// The record's line, from 1 (0 for the text as a whole).
    pub line: usize,
    /// The ply (turn index from 0) where the record stopped describing a
    /// game.
    pub ply: Option<usize>,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl<R: Rules> From<ReplayError<R>> for ReplayRefusal {
    fn from(e: ReplayError<R>) -> ReplayRefusal {
        ReplayRefusal {
            code: e.code(),
            why: e.why(),
            line: e.record_line(),
            ply: e.ply(),
            message: e.message(),
        }
    }
}

impl Kind {
    /// Which game a record is, by its rules line (after the checks every
    /// record passes first: not empty, a newline at the end, line 1's
    /// shape).
    ///
    /// # Errors
    ///
    /// A `bad_record` [`ReplayRefusal`] for text that is no record, or
    /// whose rules line names no rule set of either game.
    ///
    /// ```
    /// use race_games::Kind;
    ///
    /// assert_eq!(Kind::of_record("[rules skyruk]\n"), Ok(Kind::Senet));
    /// let e = Kind::of_record("[rules chess]\n").unwrap_err();
    /// assert_eq!((e.code, e.why, e.line), ("bad_record", Some("rules"), 1));
    /// ```
    pub fn of_record(text: &str) -> Result<Kind, ReplayRefusal> {
        let rules = record_rules(text).map_err(|e| ReplayRefusal {
            code: "bad_record",
            why: Some(e.kind.as_str()),
            line: e.line,
            ply: None,
            message: e.message(),
        })?;
        crate::kind_of_rules_line(rules).ok_or_else(|| ReplayRefusal {
            code: "bad_record",
            why: Some("rules"),
            line: 1,
            ply: None,
            message: format!("line 1 names no rule set of either game: {rules:?}"),
        })
    }
}

/// A bot of any game.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyBot {
    /// A Royal Game of Ur bot.
    Ur(Bot<Ur>),
    /// A Senet bot.
    Senet(Bot<Senet>),
}

impl AnyBot {
    /// The bot at `level` for these rules, the perfect one playing from
    /// the table `tables` holds for them.
    ///
    /// # Errors
    ///
    /// As [`Bot::with_tables`].
    pub fn with_tables(
        rules: &AnyVariant,
        level: Level,
        tables: &Tables,
    ) -> Result<AnyBot, BotError> {
        Ok(match rules {
            AnyVariant::Ur(v) => AnyBot::Ur(Bot::with_tables(level, v, tables)?),
            AnyVariant::Senet(v) => AnyBot::Senet(Bot::with_tables(level, v, tables)?),
        })
    }

    /// The level it plays at.
    #[must_use]
    pub fn level(&self) -> Level {
        each!(self, AnyBot, b => b.level())
    }
}

/// A game of any kind.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyGame {
    /// The Royal Game of Ur.
    Ur(Game<Ur>),
    /// Senet.
    Senet(Game<Senet>),
}

impl AnyGame {
    /// A new game under `rules`, every throw made from `seed`.
    ///
    /// # Errors
    ///
    /// [`NewGameError`] when the game refuses the set-up (an opening
    /// throw-off that never ends).
    ///
    /// ```
    /// use dice_core::Seed;
    /// use race_games::{AnyGame, AnyVariant, Kind};
    ///
    /// let rules = AnyVariant::read(Kind::Ur, None)?;
    /// let mut game = AnyGame::new(&rules, Seed::new("any")?)?;
    /// let mv = game.legal()[0].to_string();
    /// game.play_text(&mv)?;
    /// assert_eq!(game.ply(), game.entries().len() as u32);
    /// assert_eq!(game.play_text("z9-z9").unwrap_err().code, "bad_move");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(rules: &AnyVariant, seed: Seed) -> Result<AnyGame, NewGameError> {
        Ok(match rules {
            AnyVariant::Ur(v) => AnyGame::Ur(Game::seeded(seed, *v)?),
            AnyVariant::Senet(v) => AnyGame::Senet(Game::seeded(seed, *v)?),
        })
    }

    /// Replays a record of the game `rules` are for, under those rules
    /// (the record's own rules when `rules` is `None`; use
    /// [`Kind::of_record`] to find the game).
    ///
    /// # Errors
    ///
    /// A [`ReplayRefusal`] naming the line or the ply, as `race replay`
    /// does.
    ///
    /// ```
    /// use race_games::{AnyGame, Kind};
    ///
    /// let text = "[rules finkel]\n[first light]\n1. l 2: hand-c1\n";
    /// let game = AnyGame::replay(text, Kind::of_record(text)?, None)?;
    /// assert_eq!((game.kind(), game.ply()), (Kind::Ur, 1));
    /// let e = AnyGame::replay("[rules finkel]\n[first light]\n1. l 2: hand-d1\n", Kind::Ur, None)
    ///     .unwrap_err();
    /// assert_eq!((e.code, e.line, e.ply), ("wrong_distance", 3, Some(0)));
    /// # Ok::<(), race_games::ReplayRefusal>(())
    /// ```
    pub fn replay(
        text: &str,
        kind: Kind,
        rules: Option<&AnyVariant>,
    ) -> Result<AnyGame, ReplayRefusal> {
        let other = |rules: &AnyVariant| ReplayRefusal {
            code: "bad_record",
            why: Some("rules"),
            line: 0,
            ply: None,
            message: format!("the rules given are {}'s, not {kind}'s", rules.kind()),
        };
        Ok(match (kind, rules) {
            (Kind::Ur, None) => AnyGame::Ur(Game::replay_text(text, None)?),
            (Kind::Ur, Some(AnyVariant::Ur(v))) => AnyGame::Ur(Game::replay_text(text, Some(*v))?),
            (Kind::Senet, None) => AnyGame::Senet(Game::replay_text(text, None)?),
            (Kind::Senet, Some(AnyVariant::Senet(v))) => {
                AnyGame::Senet(Game::replay_text(text, Some(*v))?)
            }
            (_, Some(rules)) => return Err(other(rules)),
        })
    }

    /// The game's kind.
    #[must_use]
    pub const fn kind(&self) -> Kind {
        match self {
            AnyGame::Ur(_) => Kind::Ur,
            AnyGame::Senet(_) => Kind::Senet,
        }
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> AnyVariant {
        match self {
            AnyGame::Ur(g) => AnyVariant::Ur(*g.variant()),
            AnyGame::Senet(g) => AnyVariant::Senet(*g.variant()),
        }
    }

    /// Plies played: moves and lost turns.
    #[must_use]
    pub fn ply(&self) -> u32 {
        each!(self, AnyGame, g => g.ply())
    }

    /// The side to move; `None` once over.
    #[must_use]
    pub fn side(&self) -> Option<Side> {
        each!(self, AnyGame, g => g.side())
    }

    /// The roll in hand; `None` once over.
    #[must_use]
    pub fn roll(&self) -> Option<u8> {
        each!(self, AnyGame, g => g.roll())
    }

    /// The faces of the throw in hand (`0101`), when known.
    #[must_use]
    pub fn faces(&self) -> Option<String> {
        each!(self, AnyGame, g => g.faces().map(|f| f.to_string()))
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyGame::Ur(g) => AnyPosition::Ur(*g.position()),
            AnyGame::Senet(g) => AnyPosition::Senet(*g.position()),
        }
    }

    /// The position key as text.
    #[must_use]
    pub fn key(&self) -> String {
        each!(self, AnyGame, g => key(g))
    }

    /// The legal moves, in the rules' order.
    #[must_use]
    pub fn legal(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Ur(g) => g.legal().iter().map(|&m| AnyMove::Ur(m)).collect(),
            AnyGame::Senet(g) => g.legal().iter().map(|&m| AnyMove::Senet(m)).collect(),
        }
    }

    /// The legal moves as a page offers them, with their routes and what
    /// landing does, in the rules' order (none once over).
    #[must_use]
    pub fn offers(&self) -> Vec<OfferView> {
        each!(self, AnyGame, g => offers(g))
    }

    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        each!(self, AnyGame, g => g.is_over())
    }

    /// The winner (`None` for a draw) and how it ended, once over.
    #[must_use]
    pub fn result(&self) -> Option<ResultView> {
        each!(self, AnyGame, g => g.result().map(|o| ResultView { winner: o.winner, how: o.how }))
    }

    /// Plays a move given as text.
    ///
    /// # Errors
    ///
    /// A [`Refusal`] with the game's code; the game is then unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, Refusal> {
        Ok(match self {
            AnyGame::Ur(g) => AnyMove::Ur(g.play_text(text)?),
            AnyGame::Senet(g) => AnyMove::Senet(g.play_text(text)?),
        })
    }

    /// Takes back the last move (and the turns lost after it), or a
    /// resignation; false when there is nothing to take back.
    pub fn undo(&mut self) -> bool {
        each!(self, AnyGame, g => g.undo().is_ok())
    }

    /// Resigns for `side`; false, changing nothing, when already over.
    pub fn resign(&mut self, side: Side) -> bool {
        each!(self, AnyGame, g => g.resign(Some(side)).is_ok())
    }

    /// Whether ply `ply` was a move by `side` that `text` names (in any
    /// spelling the game reads).
    #[must_use]
    pub fn played(&self, ply: u32, side: Side, text: &str) -> bool {
        each!(self, AnyGame, g => played(g, ply, side, text))
    }

    /// The move texts of every move played, with the ply of each, in order
    /// (lost turns are not moves).
    #[must_use]
    pub fn moves(&self) -> Vec<(u32, String)> {
        each!(self, AnyGame, g => g
            .log()
            .iter()
            .filter_map(|e| Some((e.ply, e.mv?.to_string())))
            .collect())
    }

    /// Every ply of the log as data.
    #[must_use]
    pub fn entries(&self) -> Vec<EntryView> {
        each!(self, AnyGame, g => g.log().iter().map(|e| EntryView::of(g.variant(), e)).collect())
    }

    /// How many entries the log holds (lost turns included).
    #[must_use]
    pub fn log_len(&self) -> usize {
        each!(self, AnyGame, g => g.log().len())
    }

    /// The log's plies from index `from` on, each with its sentence (none
    /// when `from` is past the end): what a front end holding the first
    /// `from` lacks.
    #[must_use]
    pub fn lines_from(&self, from: usize) -> Vec<LineView> {
        each!(self, AnyGame, g => g
            .log()
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(|e| LineView::of(g.variant(), e))
            .collect())
    }

    /// The game told ply by ply from ply `from` on (see [`Story::of`]).
    #[must_use]
    pub fn story(&self, from: usize) -> Story {
        each!(self, AnyGame, g => Story::of(g, from))
    }

    /// The board with the position on it.
    #[must_use]
    pub fn board(&self) -> Board {
        each!(self, AnyGame, g => board(g))
    }

    /// The game's state as data.
    #[must_use]
    pub fn view(&self) -> GameView {
        each!(self, AnyGame, g => GameView::of(g))
    }

    /// The record text. With `reveal` false it carries no seed (nor the
    /// count of opening throws, which a record may only give with one):
    /// the throws it lists are then a script, and nothing in it tells a
    /// throw to come.
    #[must_use]
    pub fn record(&self, reveal: bool) -> String {
        each!(self, AnyGame, g => record(g, reveal))
    }

    /// A bot's move; `None` when the game has no roll in hand or the bot
    /// plays another game.
    #[must_use]
    pub fn choose(&self, bot: &AnyBot) -> Option<AnyMove> {
        match (self, bot) {
            (AnyGame::Ur(g), AnyBot::Ur(b)) => b.choose(g).map(AnyMove::Ur),
            (AnyGame::Senet(g), AnyBot::Senet(b)) => b.choose(g).map(AnyMove::Senet),
            _ => None,
        }
    }

    /// Light's chance to win before the throw in hand, by the solved table
    /// `tables` holds for these rules, when there is one.
    #[must_use]
    pub fn light_chance(&self, tables: &Tables) -> Option<f64> {
        each!(self, AnyGame, g => light_chance(g, tables))
    }

    /// The game judged by the solved table for its rules, once it is over;
    /// `None` while it goes on or when no table is given for its rules.
    ///
    /// # Errors
    ///
    /// [`BotError`] for a game the table cannot judge.
    pub fn analysis(&self, tables: &Tables) -> Result<Option<Analysis>, BotError> {
        match self {
            AnyGame::Ur(g) if g.is_over() && tables.for_rules::<Ur>(g.variant()).is_some() => {
                tables.analysis(g).map(Some)
            }
            _ => Ok(None),
        }
    }
}

fn offers<G: RaceGame>(game: &Game<G>) -> Vec<OfferView> {
    let Some(roll) = game.roll() else {
        return Vec::new();
    };
    G::legal_moves(game.variant(), game.position(), roll)
        .iter()
        .map(OfferView::of)
        .collect()
}

fn key<G: RaceGame>(game: &Game<G>) -> String {
    G::key_text(game.variant(), game.position())
}

fn board<G: RaceGame>(game: &Game<G>) -> Board {
    G::board(game.variant(), game.position())
}

fn light_chance<G: RaceGame>(game: &Game<G>, tables: &Tables) -> Option<f64> {
    use crate::Solved as _;
    tables
        .for_rules::<G>(game.variant())?
        .light_chance(game.position())
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

/// The moves of a record's text, with the ply of each, in order; `None`
/// for text that is not a record of the game.
#[must_use]
pub fn record_moves(kind: Kind, text: &str) -> Option<Vec<(u32, String)>> {
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
    crate::for_kind!(kind, G => moves::<G>(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed::new([7u8; 32]).unwrap()
    }

    #[test]
    fn a_refused_move_changes_nothing_and_names_the_code() {
        for kind in Kind::ALL {
            let rules = AnyVariant::read(kind, None).unwrap();
            let mut game = AnyGame::new(&rules, seed()).unwrap();
            let before = (game.ply(), game.position(), game.legal());
            let e = game.play_text("not a move").unwrap_err();
            assert_eq!(e.code, "bad_move");
            assert_eq!((game.ply(), game.position(), game.legal()), before);
        }
    }

    #[test]
    fn a_hidden_record_has_no_seed_and_still_reads() {
        let rules = AnyVariant::read(Kind::Senet, None).unwrap();
        let mut game = AnyGame::new(&rules, seed()).unwrap();
        for _ in 0..10 {
            let mv = game.legal()[0].to_string();
            game.play_text(&mv).unwrap();
        }
        let hidden = game.record(false);
        assert!(!hidden.contains("[seed"), "{hidden}");
        assert!(!hidden.contains("[opening"), "{hidden}");
        assert_eq!(record_moves(Kind::Senet, &hidden), Some(game.moves()));
        assert!(
            game.record(true)
                .contains(&format!("[seed {}]", "07".repeat(32)))
        );
    }

    #[test]
    fn played_reads_any_spelling_of_the_move() {
        let rules = AnyVariant::read(Kind::Ur, None).unwrap();
        let mut game = AnyGame::new(&rules, seed()).unwrap();
        let side = game.side().unwrap();
        let (ply, mv) = (game.ply(), game.legal()[0].to_string());
        game.play_text(&mv).unwrap();
        assert!(game.played(ply, side, &mv.to_uppercase()));
        assert!(!game.played(ply, side.other(), &mv));
        assert!(!game.played(ply + 5, side, &mv));
    }

    #[test]
    fn a_bot_plays_its_own_game_only() {
        let tables = Tables::default();
        let ur = AnyVariant::read(Kind::Ur, None).unwrap();
        let senet = AnyVariant::read(Kind::Senet, None).unwrap();
        let game = AnyGame::new(&ur, seed()).unwrap();
        let bot = AnyBot::with_tables(&ur, Level::Ladder(2), &tables).unwrap();
        assert!(
            game.choose(&bot)
                .is_some_and(|mv| game.legal().contains(&mv))
        );
        let other = AnyBot::with_tables(&senet, Level::Top, &tables).unwrap();
        assert_eq!(
            (other.level(), game.choose(&other)),
            (Level::Ladder(4), None)
        );
        let e = AnyBot::with_tables(&ur, Level::Perfect, &tables).unwrap_err();
        assert_eq!(e.code(), "no_table");
        let e = AnyBot::with_tables(&senet, Level::Perfect, &tables).unwrap_err();
        assert_eq!(
            (e.code(), e.to_string().as_str()),
            ("no_perfect", "senet has no perfect level (no solved table)")
        );
    }
}
