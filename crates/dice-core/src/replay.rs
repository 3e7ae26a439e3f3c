//! Replaying records through a game's own rules, and writing games as records.

use std::fmt;

use crate::{
    Dice, Ending, Game, Notation, ParseRecordError, PlayError, Record, RecordErrorKind,
    RecordResult, Rules, ScriptRoll, Seed, Setup, Side, Turn,
};

/// How a record stops describing a game, found while replaying it (the
/// `why` of a `bad_record`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MismatchKind {
    /// The opening (who moved first, how many throws it took) differs.
    Opening,
    /// The record has a move where the game lost the turn by itself, or the
    /// other way round.
    Move,
    /// The record names the wrong side.
    Side,
    /// The record's roll is not the game's.
    Roll,
    /// The record goes on after the game ended.
    Over,
    /// The record loses a turn where the game has a move to make.
    Forfeit,
    /// The result line is not how the game ended.
    Result,
}

impl MismatchKind {
    /// The contract word, e.g. `forfeit`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            MismatchKind::Opening => "opening",
            MismatchKind::Move => "move",
            MismatchKind::Side => "side",
            MismatchKind::Roll => "roll",
            MismatchKind::Over => "over",
            MismatchKind::Forfeit => "forfeit",
            MismatchKind::Result => "result",
        }
    }
}

impl fmt::Display for MismatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a record could not be replayed.
///
/// [`code`](ReplayError::code), [`why`](ReplayError::why),
/// [`line`](ReplayError::line) and [`ply`](ReplayError::ply) are the
/// contract (the reference gives the same); [`message`](ReplayError::message)
/// is a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError<R: Rules> {
    /// The text is not a record (`bad_record`, with the line).
    Parse(ParseRecordError),
    /// The record stops describing the game at this ply (`bad_record`).
    Mismatch {
        /// The ply (turn index from 0; the number of turns for the result line).
        ply: usize,
        /// How the record and the game part.
        kind: MismatchKind,
        /// The record's line for that ply (see [`Record::line_of`]).
        line: usize,
        /// What the record says there against what the game did.
        found: String,
    },
    /// The move of this ply was refused by the rules; the code is the
    /// refusal's own (`wrong_distance`, ...).
    Refused {
        /// The ply (turn index from 0).
        ply: usize,
        /// The record's line for that ply (see [`Record::line_of`]).
        line: usize,
        /// The refusal.
        error: PlayError<R>,
    },
}

impl<R: Rules> ReplayError<R> {
    /// The contract word: `bad_record`, or the code of the refused move.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ReplayError::Parse(_) | ReplayError::Mismatch { .. } => "bad_record",
            ReplayError::Refused { error, .. } => error.code(),
        }
    }

    /// The parse error's name or the replay reason, for a `bad_record`.
    #[must_use]
    pub fn why(&self) -> Option<&'static str> {
        match self {
            ReplayError::Parse(e) => Some(e.kind.as_str()),
            ReplayError::Mismatch { kind, .. } => Some(kind.as_str()),
            ReplayError::Refused { .. } => None,
        }
    }

    /// The line of a parse error (the reference gives a line for those
    /// only; see [`ReplayError::record_line`] for every error's line).
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            ReplayError::Parse(e) => Some(e.line),
            _ => None,
        }
    }

    /// The ply at which the record stopped describing a game.
    #[must_use]
    pub fn ply(&self) -> Option<usize> {
        match self {
            ReplayError::Parse(_) => None,
            ReplayError::Mismatch { ply, .. } | ReplayError::Refused { ply, .. } => Some(*ply),
        }
    }

    /// The record line the error is about, counted from 1 (0 for the text
    /// as a whole): a parse error's line, or the line of the turn at the
    /// error's ply (the result line's for `result`).
    #[must_use]
    pub fn record_line(&self) -> usize {
        match self {
            ReplayError::Parse(e) => e.line,
            ReplayError::Mismatch { line, .. } | ReplayError::Refused { line, .. } => *line,
        }
    }

    /// A lowercase sentence naming the line (and the ply) and saying what is
    /// wrong there, without the codes, e.g. `line 3, ply 0: hand-d1 on a
    /// roll of 3 is refused: that is not the roll away along the route`.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            ReplayError::Parse(e) => e.message(),
            ReplayError::Mismatch {
                ply, line, found, ..
            } => format!("line {line}, ply {ply}: {found}"),
            ReplayError::Refused { ply, line, error } => {
                format!("line {line}, ply {ply}: {}", error.message())
            }
        }
    }
}

impl<R: Rules> fmt::Display for ReplayError<R> {
    /// The sentence, then the codes: `MESSAGE (CODE[, WHY])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.message(), self.code())?;
        if let Some(why) = self.why() {
            write!(f, ", {why}")?;
        }
        f.write_str(")")
    }
}

impl<R: Rules> std::error::Error for ReplayError<R> {}

impl<R: Rules> From<ParseRecordError> for ReplayError<R> {
    fn from(e: ParseRecordError) -> ReplayError<R> {
        ReplayError::Parse(e)
    }
}

/// A side's words in a message: `light` or `dark`.
fn who(side: Option<Side>) -> &'static str {
    side.map_or("nobody", Side::as_str)
}

impl<R: Notation> Game<R> {
    /// The whole game as a record: rules, first side, seed, opening, every
    /// ply with its dice, and the result once the game is over.
    ///
    /// A game started from a position other than the rules' start cannot be
    /// replayed from its record, which has no place for the position.
    #[must_use]
    pub fn to_record(&self) -> Record<R> {
        Record {
            variant: self.variant().clone(),
            spelled_out: false,
            first: self.first(),
            extra: self.extra().clone(),
            seed: self.seed().cloned(),
            opening: self.opening().len() as u64,
            turns: self
                .log()
                .iter()
                .map(|e| Turn {
                    side: e.side,
                    roll: e.roll,
                    faces: e.faces,
                    mv: e.mv,
                })
                .collect(),
            result: self.result().map(|o| RecordResult {
                winner: o.winner,
                how: o.how,
            }),
        }
    }

    /// Rebuilds a game from a record, playing every move through
    /// [`Game::play`].
    ///
    /// With a seed every throw is made again and must be the record's;
    /// without one the record's rolls are the script, and the game has no
    /// roll after the last turn. `rules` replays under another rule set.
    ///
    /// # Errors
    ///
    /// A [`ReplayError`] naming the ply where the record stops describing a
    /// game, or carrying the refusal of the move that broke the rules.
    pub fn replay(
        record: &Record<R>,
        rules: Option<R::Variant>,
    ) -> Result<Game<R>, ReplayError<R>> {
        let variant = rules.unwrap_or_else(|| record.variant.clone());
        let mut game = match &record.seed {
            Some(seed) => seeded_start(record, seed, variant)?,
            None => scripted_start(record, variant)?,
        };
        for (ply, turn) in record.turns.iter().enumerate() {
            replay_turn(&mut game, record, ply, turn)?;
        }
        if let Some(result) = record.result {
            check_result(&mut game, record, result)?;
        }
        Ok(game)
    }

    /// Parses a record's text and replays it (see [`Game::replay`]).
    ///
    /// A `side` parse error keeps the reference's line and check, but when
    /// the record already stops describing a game before that line, its
    /// sentence says so: the parser judges who throws after a line from the
    /// line alone, so a move the game refuses (light's `b1-a3`, a3 named as
    /// a rosette but not on light's route) makes the next line's side look
    /// wrong, and the sentence names the move and the game's refusal.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Parse`] for text that is not a record, otherwise as
    /// [`Game::replay`].
    pub fn replay_text(text: &str, rules: Option<R::Variant>) -> Result<Game<R>, ReplayError<R>> {
        match Record::parse(text) {
            Ok(record) => Game::replay(&record, rules),
            Err(e) if e.kind == RecordErrorKind::Side => {
                Err(ReplayError::Parse(explain_side::<R>(text, e, rules)))
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// A [`ReplayError::Mismatch`] at `ply` of `record`.
fn mismatch<R: Notation>(
    record: &Record<R>,
    ply: usize,
    kind: MismatchKind,
    found: String,
) -> ReplayError<R> {
    ReplayError::Mismatch {
        ply,
        kind,
        line: record.line_of(ply),
        found,
    }
}

/// The game a seeded record starts: the seed's dice, and its opening
/// giving the first move to the record's side after the record's number
/// of throws.
fn seeded_start<R: Notation>(
    record: &Record<R>,
    seed: &Seed,
    variant: R::Variant,
) -> Result<Game<R>, ReplayError<R>> {
    let mut setup =
        Setup::new(Dice::Seeded(seed.clone()), variant).with_extra(record.extra.clone());
    if record.opening == 0 {
        setup = setup.with_first(record.first);
    }
    let game =
        Game::new(setup).map_err(|e| mismatch(record, 0, MismatchKind::Opening, e.to_string()))?;
    let thrown = game.opening().len() as u64;
    if game.first() != record.first || thrown != record.opening {
        return Err(mismatch(
            record,
            0,
            MismatchKind::Opening,
            format!(
                "the seed's opening gives {} the first move after {thrown} throws, \
                 but the record says {} first after {}",
                game.first(),
                record.first,
                record.opening
            ),
        ));
    }
    Ok(game)
}

/// The game a record without a seed starts: its rolls are the script.
fn scripted_start<R: Notation>(
    record: &Record<R>,
    variant: R::Variant,
) -> Result<Game<R>, ReplayError<R>> {
    let script = record
        .turns
        .iter()
        .map(|t| ScriptRoll {
            roll: t.roll,
            faces: t.faces,
        })
        .collect();
    let setup = Setup::new(Dice::Script(script), variant)
        .with_first(record.first)
        .with_extra(record.extra.clone());
    Game::new(setup).map_err(|e| mismatch(record, 0, MismatchKind::Opening, e.to_string()))
}

/// Plays turn `ply` of `record` in `game`, or checks it against the turn
/// the game lost by itself there.
fn replay_turn<R: Notation>(
    game: &mut Game<R>,
    record: &Record<R>,
    ply: usize,
    turn: &Turn<R>,
) -> Result<(), ReplayError<R>> {
    if let Some(entry) = game.log().get(ply) {
        let lost = format!(
            "the game lost {}'s turn by itself here, on a roll of {} that allows no move",
            entry.side, entry.roll
        );
        if let Some(mv) = turn.mv {
            return Err(mismatch(
                record,
                ply,
                MismatchKind::Move,
                format!("{lost}, but the record plays {mv}"),
            ));
        }
        if entry.side != turn.side {
            return Err(mismatch(
                record,
                ply,
                MismatchKind::Side,
                format!("{lost}, but the record names {}", turn.side),
            ));
        }
        if entry.roll != turn.roll {
            return Err(mismatch(
                record,
                ply,
                MismatchKind::Roll,
                format!("{lost}, but the record says a roll of {}", turn.roll),
            ));
        }
        return Ok(());
    }
    if let Some(o) = game.result() {
        return Err(mismatch(
            record,
            ply,
            MismatchKind::Over,
            format!(
                "the game ended at ply {} ({}), but the record goes on",
                o.plies,
                RecordResult {
                    winner: o.winner,
                    how: o.how
                }
            ),
        ));
    }
    let Some(mv) = turn.mv else {
        let moves: Vec<String> = game.legal().iter().map(ToString::to_string).collect();
        return Err(mismatch(
            record,
            ply,
            MismatchKind::Forfeit,
            format!(
                "the record has {} lose the turn on a roll of {}, but the game has moves \
                 for it: {}",
                turn.side,
                turn.roll,
                moves.join(" ")
            ),
        ));
    };
    if game.side() != Some(turn.side) {
        return Err(mismatch(
            record,
            ply,
            MismatchKind::Side,
            format!(
                "the record names {}, but {} is to move",
                turn.side,
                who(game.side())
            ),
        ));
    }
    if game.roll() != Some(turn.roll) {
        let game_roll = game
            .roll()
            .map_or_else(|| "none".to_owned(), |r| r.to_string());
        return Err(mismatch(
            record,
            ply,
            MismatchKind::Roll,
            format!(
                "the record says a roll of {}, but the game's roll is {game_roll}",
                turn.roll
            ),
        ));
    }
    game.play(mv).map_err(|error| ReplayError::Refused {
        ply,
        line: record.line_of(ply),
        error,
    })?;
    Ok(())
}

/// Whether the game after the record's last turn ends as its result line
/// says (a resignation is made in `game`).
fn check_result<R: Notation>(
    game: &mut Game<R>,
    record: &Record<R>,
    result: RecordResult,
) -> Result<(), ReplayError<R>> {
    let ply = record.turns.len();
    let ended = game.result().map(|o| RecordResult {
        winner: o.winner,
        how: o.how,
    });
    let agrees = match result.how {
        Ending::Resign => match result.winner {
            Some(winner) => game.resign(Some(winner.other())).is_ok(),
            None => false,
        },
        how => game
            .result()
            .is_some_and(|o| o.how == how && o.winner == result.winner),
    };
    if agrees {
        return Ok(());
    }
    let game_says = match ended {
        Some(ended) => format!("the game ended {ended}"),
        None => "the game has not ended".to_owned(),
    };
    Err(mismatch(
        record,
        ply,
        MismatchKind::Result,
        format!("the record's result is {result}, but {game_says}"),
    ))
}

/// A `side` error at line L, with what replaying the lines before it finds
/// added to its sentence: the move on line L-1 that the game refuses, or
/// where the record stops describing a game further up.
fn explain_side<R: Notation>(
    text: &str,
    e: ParseRecordError,
    rules: Option<R::Variant>,
) -> ParseRecordError {
    // The lines before the one refused parse: the parser checks in order.
    let before: String = text.split_inclusive('\n').take(e.line - 1).collect();
    let Ok(record) = Record::<R>::parse(&before) else {
        return e;
    };
    let Err(wrong) = Game::replay(&record, rules) else {
        return e;
    };
    let said = e.message();
    let more = match (&wrong, record.turns.last()) {
        (ReplayError::Refused { line, error, .. }, Some(turn)) if *line + 1 == e.line => format!(
            "{said}; but {} cannot make that move ({}), so line {line} is what is wrong, and \
             line {}'s side only looks wrong because of it",
            turn.side,
            error.message(),
            e.line
        ),
        _ => format!(
            "{said}; but the record goes wrong earlier: {}",
            wrong.message()
        ),
    };
    e.with_message(more)
}
