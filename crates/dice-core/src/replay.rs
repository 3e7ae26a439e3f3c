//! Replaying records through a game's own rules, and writing games as records.

use std::fmt;

use crate::{
    Dice, Game, How, ParseRecordError, PlayError, Record, RecordResult, Rules, ScriptRoll, Setup,
    Turn,
};

/// Why a record does not describe a game, found while replaying it (the
/// `why` of a `bad_record`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReplayWhy {
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

impl ReplayWhy {
    /// The contract word, e.g. `forfeit`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ReplayWhy::Opening => "opening",
            ReplayWhy::Move => "move",
            ReplayWhy::Side => "side",
            ReplayWhy::Roll => "roll",
            ReplayWhy::Over => "over",
            ReplayWhy::Forfeit => "forfeit",
            ReplayWhy::Result => "result",
        }
    }
}

impl fmt::Display for ReplayWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a record could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError<R: Rules> {
    /// The text is not a record (`bad_record`, with the line).
    Parse(ParseRecordError),
    /// The record stops describing the game at this ply (`bad_record`).
    Mismatch {
        /// The ply (turn index from 0; the number of turns for the result line).
        ply: usize,
        /// Why.
        why: ReplayWhy,
    },
    /// The move of this ply was refused by the rules; the code is the
    /// refusal's own (`wrong_distance`, ...).
    Refused {
        /// The ply (turn index from 0).
        ply: usize,
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
            ReplayError::Mismatch { why, .. } => Some(why.as_str()),
            ReplayError::Refused { .. } => None,
        }
    }

    /// The line of a parse error.
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
}

impl<R: Rules> fmt::Display for ReplayError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Parse(e) => write!(f, "bad_record: {e}"),
            ReplayError::Mismatch { ply, why } => {
                write!(
                    f,
                    "bad_record: the record parts from the game at ply {ply} ({why})"
                )
            }
            ReplayError::Refused { ply, error } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl<R: Rules> std::error::Error for ReplayError<R> {}

impl<R: Rules> From<ParseRecordError> for ReplayError<R> {
    fn from(e: ParseRecordError) -> ReplayError<R> {
        ReplayError::Parse(e)
    }
}

impl<R: Rules> Game<R> {
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
        let opening_mismatch = ReplayError::Mismatch {
            ply: 0,
            why: ReplayWhy::Opening,
        };
        let mut game = match &record.seed {
            Some(seed) => {
                let mut setup =
                    Setup::new(Dice::Seeded(seed.clone()), variant).extra(record.extra.clone());
                if record.opening == 0 {
                    setup = setup.first(record.first);
                }
                let game = Game::new(setup).map_err(|_| opening_mismatch.clone())?;
                if game.first() != record.first || game.opening().len() as u64 != record.opening {
                    return Err(opening_mismatch);
                }
                game
            }
            None => {
                let script = record
                    .turns
                    .iter()
                    .map(|t| ScriptRoll {
                        roll: t.roll,
                        faces: t.faces,
                    })
                    .collect();
                let setup = Setup::new(Dice::Script(script), variant)
                    .first(record.first)
                    .extra(record.extra.clone());
                Game::new(setup).map_err(|_| opening_mismatch)?
            }
        };

        for (ply, turn) in record.turns.iter().enumerate() {
            let mismatch = |why| ReplayError::Mismatch { ply, why };
            if let Some(entry) = game.log().get(ply) {
                if turn.mv.is_some() || entry.mv.is_some() {
                    return Err(mismatch(ReplayWhy::Move));
                }
                if entry.side != turn.side {
                    return Err(mismatch(ReplayWhy::Side));
                }
                if entry.roll != turn.roll {
                    return Err(mismatch(ReplayWhy::Roll));
                }
                continue;
            }
            if game.is_over() {
                return Err(mismatch(ReplayWhy::Over));
            }
            let Some(mv) = turn.mv else {
                return Err(mismatch(ReplayWhy::Forfeit));
            };
            if game.side() != Some(turn.side) {
                return Err(mismatch(ReplayWhy::Side));
            }
            if game.roll() != Some(turn.roll) {
                return Err(mismatch(ReplayWhy::Roll));
            }
            game.play(mv)
                .map_err(|error| ReplayError::Refused { ply, error })?;
        }

        if let Some(result) = record.result {
            let ply = record.turns.len();
            let agrees = match result.how {
                How::Resign => match result.winner {
                    Some(winner) => game.resign(Some(winner.other())),
                    None => false,
                },
                how => game
                    .result()
                    .is_some_and(|o| o.how == how && o.winner == result.winner),
            };
            if !agrees {
                return Err(ReplayError::Mismatch {
                    ply,
                    why: ReplayWhy::Result,
                });
            }
        }
        Ok(game)
    }

    /// Parses a record's text and replays it (see [`Game::replay`]).
    ///
    /// # Errors
    ///
    /// [`ReplayError::Parse`] for text that is not a record, otherwise as
    /// [`Game::replay`].
    pub fn replay_text(text: &str, rules: Option<R::Variant>) -> Result<Game<R>, ReplayError<R>> {
        Game::replay(&Record::parse(text)?, rules)
    }
}
