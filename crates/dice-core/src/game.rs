//! `Game<R>`: one game of any [`Rules`], with its dice, log, undo and record.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::{Thrower, Thrown};
use crate::{Chance, Coded, Dice, Faces, MoveList, Notation, Opening, Rules, Seed, Side, Status};

/// After this many plies (moves plus lost turns) a game nobody has won is
/// drawn. A winning move on the last ply still wins.
pub const PLY_CAP: u32 = 15_000;

/// Room made in a new game's log and undo stack: more plies than most
/// games of either game last, so that they seldom grow while it is played.
const PLIES_RESERVED: usize = 256;

/// How many tied throw-offs an opening may have before it is given up.
pub const OPENING_TIES_MAX: usize = 64;

/// Everything a new [`Game`] is made from.
///
/// ```
/// use dice_core::{Dice, Seed, Setup, Side};
/// # use dice_core::toy::{Toy, ToyVariant};
///
/// let setup: Setup<Toy> = Setup::new(Dice::Seeded(Seed::new("s")?), ToyVariant::default())
///     .with_first(Side::Dark);
/// assert_eq!(setup.first, Some(Side::Dark));
/// # Ok::<(), dice_core::SeedError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Setup<R: Notation> {
    /// Where the throws come from.
    pub dice: Dice,
    /// The rule set.
    pub variant: R::Variant,
    /// The side to move first; `None` lets the rules decide (see [`Opening`]),
    /// or the start position's side when one is given.
    pub first: Option<Side>,
    /// A position to start from instead of the rules' start.
    pub position: Option<R::Position>,
    /// The game's extra set-up (see [`Notation::Extra`]).
    pub extra: R::Extra,
}

impl<R: Notation> Setup<R> {
    /// A set-up with these dice and rules, and everything else left to the rules.
    #[must_use]
    pub fn new(dice: Dice, variant: R::Variant) -> Setup<R> {
        Setup {
            dice,
            variant,
            first: None,
            position: None,
            extra: R::Extra::default(),
        }
    }

    /// Names the side that moves first.
    #[must_use]
    pub fn with_first(mut self, side: Side) -> Setup<R> {
        self.first = Some(side);
        self
    }

    /// Starts from this position (its side moves first unless
    /// [`Setup::with_first`] names another).
    #[must_use]
    pub fn with_position(mut self, position: R::Position) -> Setup<R> {
        self.position = Some(position);
        self
    }

    /// Sets the extra set-up.
    #[must_use]
    pub fn with_extra(mut self, extra: R::Extra) -> Setup<R> {
        self.extra = extra;
        self
    }
}

crate::coded_error! {
    /// Why a [`Game`] could not be made.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum NewGameError {
        /// A game played from a script has no dice to throw for the first side:
        /// it must be told who moves first, or given a position.
        #[error("a game with no seed must be told who moves first")]
        FirstNeeded => "first_needed",
        /// The start position does not fit the rule set (for example the wrong
        /// number of pieces).
        #[error("the position {position} does not fit the rules {rules}")]
        Inconsistent {
            /// The position, as text.
            position: String,
            /// The rule set, as text.
            rules: String,
            /// The game's code for the first problem found
            /// ([`Rules::Inconsistency`](crate::Rules::Inconsistency)).
            why: &'static str,
        } => "inconsistent",
        /// The throw-off for the first move tied [`OPENING_TIES_MAX`] times.
        #[error("the opening throw tied {OPENING_TIES_MAX} times, which is not chance")]
        OpeningTied => "opening_tied",
    }
}

/// How a game ended: its ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Ending {
    /// A side brought all its pieces home.
    Home,
    /// A side resigned.
    Resign,
    /// The ply cap was reached: a draw.
    PlyCap,
}

impl Ending {
    /// The contract word: `home`, `resign` or `ply_cap`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Ending::Home => "home",
            Ending::Resign => "resign",
            Ending::PlyCap => "ply_cap",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome<R: Rules> {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub how: Ending,
    /// The position the game ended in.
    pub final_position: R::Position,
    /// Plies played (moves plus lost turns).
    pub plies: u32,
}

impl<R: Rules> Outcome<R> {
    /// Whether nobody won.
    #[must_use]
    pub fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// The side that lost, if one did.
    #[must_use]
    pub fn loser(&self) -> Option<Side> {
        self.winner.map(Side::other)
    }
}

/// One ply of a game: a move, or a turn lost to the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct LogEntry<R: Rules> {
    /// The ply before this entry (0 for the first).
    pub ply: u32,
    /// The side that threw.
    pub side: Side,
    /// The throw number, counted through the whole game.
    pub throw: u64,
    /// What the throw was worth.
    pub roll: u8,
    /// The faces of the throw, when known.
    pub faces: Option<Faces>,
    /// The move made, or `None` for a lost turn.
    #[serde(rename = "move")]
    pub mv: Option<R::Move>,
    /// What the rules say about the ply (a capture, an extra throw, ...).
    pub flags: R::Flags,
}

impl<R: Rules> LogEntry<R> {
    /// Whether the turn was lost to the roll.
    #[must_use]
    pub fn is_forfeit(&self) -> bool {
        self.mv.is_none()
    }
}

/// A ply of a game's log with the positions around it (see [`Game::plies`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply<'a, R: Rules> {
    /// The log's entry: who threw, the roll, the move and its flags.
    pub entry: &'a LogEntry<R>,
    /// The position the ply was played in.
    pub before: R::Position,
    /// The position it left.
    pub after: R::Position,
}

/// The plies of a game in order, each with its positions: see [`Game::plies`].
#[derive(Clone, Debug)]
pub struct Plies<'a, R: Rules> {
    log: &'a [LogEntry<R>],
    before: &'a [R::Position],
    /// The game's position now, after the last ply.
    now: R::Position,
}

impl<'a, R: Rules> Iterator for Plies<'a, R> {
    type Item = Ply<'a, R>;

    fn next(&mut self) -> Option<Ply<'a, R>> {
        let (entry, log) = self.log.split_first()?;
        let (&before, rest) = self.before.split_first()?;
        self.log = log;
        self.before = rest;
        let after = rest.first().copied().unwrap_or(self.now);
        Some(Ply {
            entry,
            before,
            after,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.log.len(), Some(self.log.len()))
    }
}

impl<R: Rules> ExactSizeIterator for Plies<'_, R> {}

/// What [`Game::undo`] took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Undone<R: Rules> {
    /// This side's resignation: the game is on again.
    Resignation(Side),
    /// A move, and the turns lost to the roll after it.
    Move {
        /// The move's log entry.
        entry: LogEntry<R>,
        /// How many turns were lost after it (and taken back with it).
        forfeits: usize,
    },
}

/// Why [`Game::undo`] took nothing back: there is no resignation, and no
/// move has been made (or every one has been taken back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("there is nothing to take back")]
pub struct NothingToUndo;

impl NothingToUndo {
    /// The contract word, `nothing_to_undo`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "nothing_to_undo"
    }
}

/// Why a game refused to change: it has already ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("the game has ended")]
pub struct GameOver;

impl GameOver {
    /// The contract word, `game_over`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "game_over"
    }
}

/// Why [`Game::play`] refused a move. A refused move changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError<R: Rules> {
    /// The game has ended.
    GameOver,
    /// There is no roll in hand: a game from a script has used every roll.
    NoRoll,
    /// The text is not a move at all.
    BadMove {
        /// The text given.
        text: String,
        /// Why it is not a move.
        why: R::MoveError,
    },
    /// The move is well formed but the rules do not allow it now.
    Refused {
        /// The game's reason.
        refusal: R::Refusal,
        /// The move.
        mv: R::Move,
        /// The roll in hand.
        roll: u8,
    },
}

impl<R: Rules> PlayError<R> {
    /// The contract word: `game_over`, `no_roll`, `bad_move`, or the rules'
    /// refusal code (e.g. `wrong_distance`).
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game_over",
            PlayError::NoRoll => "no_roll",
            PlayError::BadMove { .. } => "bad_move",
            PlayError::Refused { refusal, .. } => refusal.code(),
        }
    }

    /// A lowercase sentence saying what was refused and why, without the
    /// code, e.g. `hand-d1 on a roll of 3 is refused: that is not the roll
    /// away along the route`.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            PlayError::GameOver => "the game has ended".to_owned(),
            PlayError::NoRoll => "there is no roll in hand".to_owned(),
            PlayError::BadMove { text, why } => format!("{text:?} is not a move: {why}"),
            PlayError::Refused { refusal, mv, roll } => {
                format!("{mv} on a roll of {roll} is refused: {refusal}")
            }
        }
    }
}

impl<R: Rules> fmt::Display for PlayError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("game_over: the game has ended"),
            PlayError::NoRoll => f.write_str("no_roll: there is no roll in hand"),
            PlayError::BadMove { text, why } => {
                write!(f, "bad_move: {text:?} is not a move: {why}")
            }
            PlayError::Refused { refusal, mv, roll } => {
                write!(f, "{}: {mv} on a roll of {roll}: {refusal}", refusal.code())
            }
        }
    }
}

impl<R: Rules> std::error::Error for PlayError<R> {}

/// What undo returns to: the game as it was when a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice<R: Rules> {
    position: R::Position,
    ply: u32,
    throws: u64,
    roll: u8,
    faces: Option<Faces>,
    log_len: usize,
}

/// A game of any [`Rules`] (with its [`Notation`]): dice, the settle loop, the log, undo,
/// resignation, the ply cap, and records.
///
/// Between calls a game is either over, or it has a side to move, a roll in
/// hand and at least one legal move: a throw that allows no move is logged as
/// a lost turn and the next throw is made at once. The one exception is a game
/// played from a script that has run out: it has no roll until it is made
/// again with more.
///
/// ```
/// use dice_core::{Game, Seed};
/// # use dice_core::toy::{Toy, ToyVariant};
///
/// let mut game: Game<Toy> = Game::seeded(Seed::new("any bytes")?, ToyVariant::default())?;
/// while !game.is_over() {
///     let mv = game.legal()[0];
///     game.play(mv)?;
/// }
/// let record = game.to_record().to_string();
/// let again: Game<Toy> = Game::replay_text(&record, None)?;
/// assert_eq!(again.position(), game.position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game<R: Notation> {
    variant: R::Variant,
    extra: R::Extra,
    thrower: Thrower,
    dice_count: u8,
    first: Side,
    opening: Vec<Faces>,
    start: R::Position,
    position: R::Position,
    /// The position before each ply of the log, one for each entry.
    before: Vec<R::Position>,
    ply: u32,
    throws: u64,
    roll: Option<u8>,
    faces: Option<Faces>,
    legal: MoveList<R::Move>,
    log: Vec<LogEntry<R>>,
    choices: Vec<Choice<R>>,
    resigned: Option<Side>,
}

impl<R: Notation> PartialEq for Game<R> {
    /// Two games are equal when everything a caller can observe is: rules,
    /// set-up, dice, position, ply, throws, roll, the log and what undo would
    /// return to.
    fn eq(&self, other: &Game<R>) -> bool {
        self.variant == other.variant
            && self.extra == other.extra
            && self.thrower.dice() == other.thrower.dice()
            && self.first == other.first
            && self.opening == other.opening
            && self.start == other.start
            && self.position == other.position
            && self.ply == other.ply
            && self.throws == other.throws
            && self.roll == other.roll
            && self.faces == other.faces
            && self.legal == other.legal
            && self.log == other.log
            && self.resigned == other.resigned
            && self.choices == other.choices
    }
}

impl<R: Notation> Game<R> {
    /// A game from a set-up.
    ///
    /// Without a first side or a position, the rules' [`Opening`] decides: a
    /// fixed side, or a throw-off (light throws, then dark, until
    /// [`Rules::throw_off`] names a side; those throws are the game's first
    /// and [`Game::opening`] keeps them). A given position keeps its own side
    /// to move unless a first side is named. Then the first roll is thrown.
    ///
    /// # Errors
    ///
    /// [`NewGameError::FirstNeeded`] for a script game that must throw for
    /// the first side, [`NewGameError::Inconsistent`] for a position that does
    /// not fit the rules, [`NewGameError::OpeningTied`] for a throw-off that
    /// never ends.
    pub fn new(setup: Setup<R>) -> Result<Game<R>, NewGameError> {
        let Setup {
            dice,
            variant,
            first,
            position,
            extra,
        } = setup;
        let mut thrower = Thrower::new(dice);
        let dice_count = R::dice(&variant);
        let mut opening = Vec::new();
        let first = match (first, position) {
            (Some(side), _) => side,
            (None, Some(position)) => R::side(&position),
            (None, None) => match R::opening(&variant) {
                Opening::Fixed(side) => side,
                Opening::ThrowOff => {
                    let Thrower::Seeded { .. } = thrower else {
                        return Err(NewGameError::FirstNeeded);
                    };
                    throw_off::<R>(&variant, &mut thrower, dice_count, &mut opening)?
                }
            },
        };
        let position = match position {
            Some(position) => {
                if let Err(why) = R::check_position(&variant, &position) {
                    return Err(NewGameError::Inconsistent {
                        position: position.to_string(),
                        rules: variant.to_string(),
                        why: why.code(),
                    });
                }
                R::with_side(&position, first)
            }
            None => R::start(&variant, first),
        };
        let mut game = Game {
            variant,
            extra,
            thrower,
            dice_count,
            first,
            throws: opening.len() as u64,
            opening,
            start: position,
            position,
            before: Vec::with_capacity(PLIES_RESERVED),
            ply: 0,
            roll: None,
            faces: None,
            legal: MoveList::new(),
            log: Vec::with_capacity(PLIES_RESERVED),
            choices: Vec::with_capacity(PLIES_RESERVED),
            resigned: None,
        };
        game.settle();
        Ok(game)
    }

    /// A game from a seed under these rules, everything else left to the rules.
    ///
    /// # Errors
    ///
    /// As [`Game::new`].
    pub fn seeded(seed: Seed, variant: R::Variant) -> Result<Game<R>, NewGameError> {
        Game::new(Setup::new(Dice::Seeded(seed), variant))
    }

    /// Throws until the game is over or the side to move has a choice,
    /// logging every turn lost on the way.
    fn settle(&mut self) {
        self.roll = None;
        self.faces = None;
        self.legal.clear();
        while self.status() == Status::Ongoing {
            let skip = self.opening.len() as u64;
            let Some(thrown) = self.thrower.throw(self.throws, skip, self.dice_count) else {
                return;
            };
            let (roll, faces) = match thrown {
                Thrown::Faces(faces) => (R::roll(&self.variant, faces), Some(faces)),
                Thrown::Scripted(s) => (s.roll, s.faces),
            };
            let throw = self.throws;
            self.throws += 1;
            R::legal(&self.variant, &self.position, roll, &mut self.legal);
            if !self.legal.is_empty() {
                self.roll = Some(roll);
                self.faces = faces;
                return;
            }
            let side = R::side(&self.position);
            let (position, flags) = R::forfeit(&self.variant, &self.position, roll);
            self.log.push(LogEntry {
                ply: self.ply,
                side,
                throw,
                roll,
                faces,
                mv: None,
                flags,
            });
            self.before.push(self.position);
            self.position = position;
            self.ply += 1;
        }
    }

    /// The rule set.
    #[must_use]
    pub fn variant(&self) -> &R::Variant {
        &self.variant
    }

    /// What the game's dice can roll and how often ([`Rules::chances`]).
    #[must_use]
    pub fn chances(&self) -> &'static [Chance] {
        R::chances(&self.variant)
    }

    /// The extra set-up (see [`Notation::Extra`]).
    #[must_use]
    pub fn extra(&self) -> &R::Extra {
        &self.extra
    }

    /// The seed, for a game made from one.
    #[must_use]
    pub fn seed(&self) -> Option<&Seed> {
        self.thrower.seed()
    }

    /// Where the throws come from.
    #[must_use]
    pub fn dice(&self) -> Dice {
        self.thrower.dice()
    }

    /// The side that moved first.
    #[must_use]
    pub fn first(&self) -> Side {
        self.first
    }

    /// The throws that decided who moves first, light's then dark's, in
    /// order; empty when the first side was named or fixed.
    #[must_use]
    pub fn opening(&self) -> &[Faces] {
        &self.opening
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &R::Position {
        &self.position
    }

    /// The position the game started from, before its first ply: the
    /// rules' start for the first side, or the position it was set up
    /// from ([`Setup::with_position`]).
    #[must_use]
    pub fn start(&self) -> &R::Position {
        &self.start
    }

    /// The position before ply `ply` (the current one for `ply` equal to
    /// [`Game::ply`]); `None` past it.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&R::Position> {
        self.before
            .get(ply)
            .or_else(|| (ply == self.before.len()).then_some(&self.position))
    }

    /// Every ply of the log with the positions before and after it, from
    /// the first: a walk of the game's positions from [`Game::start`].
    ///
    /// ```
    /// use dice_core::{Game, Seed};
    /// # use dice_core::toy::{Toy, ToyVariant};
    ///
    /// let mut game: Game<Toy> = Game::seeded(Seed::new("walk")?, ToyVariant::default())?;
    /// for _ in 0..5 {
    ///     let mv = game.legal()[0];
    ///     game.play(mv)?;
    /// }
    /// let mut at = *game.start();
    /// for ply in game.plies() {
    ///     assert_eq!(ply.before, at);
    ///     at = ply.after;
    /// }
    /// assert_eq!(&at, game.position());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn plies(&self) -> Plies<'_, R> {
        self.plies_from(0)
    }

    /// The plies from ply `ply` on (none past the last), as
    /// [`Game::plies`]: the walk costs the plies it yields, not the game's.
    #[must_use]
    pub fn plies_from(&self, ply: usize) -> Plies<'_, R> {
        let from = ply.min(self.log.len());
        Plies {
            log: self.log.get(from..).unwrap_or_default(),
            before: self.before.get(from..).unwrap_or_default(),
            now: self.position,
        }
    }

    /// The side to move; `None` once the game is over.
    #[must_use]
    pub fn side(&self) -> Option<Side> {
        (!self.is_over()).then(|| R::side(&self.position))
    }

    /// The roll in hand; `None` once over, or when a script has run out.
    #[must_use]
    pub fn roll(&self) -> Option<u8> {
        self.roll.filter(|_| self.resigned.is_none())
    }

    /// The faces of the throw in hand, when known; `None` once over.
    #[must_use]
    pub fn faces(&self) -> Option<Faces> {
        self.faces.filter(|_| self.resigned.is_none())
    }

    /// The moves the roll in hand allows, in the rules' order. Never empty
    /// while the game is on and has a roll; empty once it is over.
    #[must_use]
    pub fn legal(&self) -> &[R::Move] {
        if self.resigned.is_some() {
            &[]
        } else {
            &self.legal
        }
    }

    /// Plies made: moves plus lost turns. Opening throws are not plies.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// How many throws have been made: the opening throws and the one in
    /// hand included. (Each throw's number, counted from 0, is in the log.)
    #[must_use]
    pub fn throws(&self) -> u64 {
        self.throws
    }

    /// Every ply so far, in order.
    #[must_use]
    pub fn log(&self) -> &[LogEntry<R>] {
        &self.log
    }

    /// The turns lost to the roll at or after `ply`, so that a caller who
    /// last looked at `ply` can say what happened since.
    #[must_use]
    pub fn forfeits_since(&self, ply: u32) -> Vec<LogEntry<R>> {
        self.log
            .iter()
            .filter(|e| e.mv.is_none() && e.ply >= ply)
            .copied()
            .collect()
    }

    /// Where the game stands: a resignation, a win, the ply cap, or ongoing.
    #[must_use]
    pub fn status(&self) -> Status {
        if let Some(loser) = self.resigned {
            return Status::Won(loser.other());
        }
        R::status(&self.variant, &self.position).at_ply(self.ply)
    }

    /// Whether the game has been won, drawn or resigned.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn result(&self) -> Option<Outcome<R>> {
        let status = self.status();
        let how = match self.resigned {
            Some(_) => Ending::Resign,
            None => status.ending()?,
        };
        Some(Outcome {
            winner: status.winner(),
            how,
            final_position: self.position,
            plies: self.ply,
        })
    }

    /// Plays a move and returns it; then throws for the next turn, losing
    /// any turns that roll allows no move for. What the move did is its
    /// entry in [`Game::log`] (the first at the ply before the move).
    ///
    /// A move is played if and only if [`Game::legal`] holds it.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] saying why not; the game is then exactly as it was.
    pub fn play(&mut self, mv: R::Move) -> Result<R::Move, PlayError<R>> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let Some(roll) = self.roll else {
            return Err(PlayError::NoRoll);
        };
        if !self.legal.contains(&mv) {
            let refusal = R::refusal(&self.variant, &self.position, roll, mv);
            return Err(PlayError::Refused { refusal, mv, roll });
        }
        self.choices.push(Choice {
            position: self.position,
            ply: self.ply,
            throws: self.throws,
            roll,
            faces: self.faces,
            log_len: self.log.len(),
        });
        let side = R::side(&self.position);
        let (position, flags) = R::apply(&self.variant, &self.position, roll, mv);
        self.log.push(LogEntry {
            ply: self.ply,
            side,
            throw: self.throws - 1,
            roll,
            faces: self.faces,
            mv: Some(mv),
            flags,
        });
        self.before.push(self.position);
        self.position = position;
        self.ply += 1;
        self.settle();
        Ok(mv)
    }

    /// Plays a move given as text (its wire form, e.g. `a2-d2`).
    ///
    /// # Errors
    ///
    /// As [`Game::play`], and [`PlayError::BadMove`] for text that is not a
    /// move. `game_over` and `no_roll` are reported before the text is read.
    pub fn play_text(&mut self, text: &str) -> Result<R::Move, PlayError<R>> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if self.roll.is_none() {
            return Err(PlayError::NoRoll);
        }
        let mv = R::parse_move(&self.variant, text).map_err(|why| PlayError::BadMove {
            text: text.to_owned(),
            why,
        })?;
        self.play(mv)
    }

    /// Takes back a resignation, or else the last move together with every
    /// turn lost after it, so that the game is as it was when that move was
    /// chosen: the same side, roll, faces and throw count, and says what it
    /// took back. Turns lost before the first move cannot be taken back.
    ///
    /// # Errors
    ///
    /// [`NothingToUndo`] when there is no resignation and no move to take
    /// back; the game is unchanged.
    pub fn undo(&mut self) -> Result<Undone<R>, NothingToUndo> {
        if let Some(side) = self.resigned.take() {
            return Ok(Undone::Resignation(side));
        }
        let Some(&choice) = self.choices.last() else {
            return Err(NothingToUndo);
        };
        // The move's entry: the first of those the choice left behind.
        let Some(&entry) = self.log.get(choice.log_len) else {
            return Err(NothingToUndo);
        };
        let forfeits = self.log.len() - choice.log_len - 1;
        self.choices.pop();
        self.log.truncate(choice.log_len);
        self.before.truncate(choice.log_len);
        self.position = choice.position;
        self.ply = choice.ply;
        self.throws = choice.throws;
        self.roll = Some(choice.roll);
        self.faces = choice.faces;
        R::legal(&self.variant, &self.position, choice.roll, &mut self.legal);
        Ok(Undone::Move { entry, forfeits })
    }

    /// Resigns for `side` (the side to move when `None`); the other side
    /// wins. Returns the game's result.
    ///
    /// # Errors
    ///
    /// [`GameOver`] when the game has already ended; nothing changes.
    pub fn resign(&mut self, side: Option<Side>) -> Result<Outcome<R>, GameOver> {
        if self.is_over() {
            return Err(GameOver);
        }
        self.resigned = Some(side.unwrap_or_else(|| R::side(&self.position)));
        self.result().ok_or(GameOver)
    }
}

/// The opening throw-off: pairs of throws until the rules name a side.
pub(crate) fn throw_off<R: Rules>(
    variant: &R::Variant,
    thrower: &mut Thrower,
    dice_count: u8,
    opening: &mut Vec<Faces>,
) -> Result<Side, NewGameError> {
    for pair in 0..OPENING_TIES_MAX as u64 {
        let (Some(Thrown::Faces(light)), Some(Thrown::Faces(dark))) = (
            thrower.throw(2 * pair, 0, dice_count),
            thrower.throw(2 * pair + 1, 0, dice_count),
        ) else {
            break;
        };
        opening.extend([light, dark]);
        if let Some(side) = R::throw_off(variant, light, dark) {
            return Ok(side);
        }
    }
    Err(NewGameError::OpeningTied)
}
