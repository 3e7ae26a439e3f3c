//! What `race_games` refuses, in the command line's words: rules, position
//! text and bot levels given on the command line, as refusals (exit 1) and
//! usage errors (exit 2) naming the option.

use std::path::Path;

use race_games::{Bot, BotError, Level, RaceGame, read_rules};

use crate::error::{Failure, Refused, io_words};

/// Reads rules a person gave: a name, or the fields that differ from the
/// game's default rule set, in any order; the default rule set when none
/// are given.
///
/// # Errors
///
/// A refusal naming `input`, with the code `rules` and the rules' own code
/// as `why`.
pub fn parse_variant<G: RaceGame>(text: Option<&str>, input: &str) -> Result<G::Variant, Refused> {
    read_rules::<G>(text).map_err(|e| {
        Refused::new(input, "rules", e.source.to_string())
            .why(e.code())
            .detail("text", e.text.as_str())
    })
}

/// Reads a position's text under these rules (whether it can occur is
/// [`crate::query::inconsistency`]'s question).
///
/// # Errors
///
/// A refusal with the game's position code (`POS_GAP`, `shape`, ...).
pub fn parse_position<G: RaceGame>(
    text: &str,
    variant: &G::Variant,
    input: &str,
) -> Result<G::Position, Refused> {
    G::read_position(text, variant).map_err(|e| {
        let refused = Refused::new(input, e.code, e.to_string()).detail("text", text);
        match e.number {
            Some(number) => refused.detail("number", number),
            None => refused,
        }
    })
}

/// What the levels are, in words.
pub fn levels_words<G: RaceGame>() -> String {
    let top = G::LEVEL_TOP;
    let words = if G::PERFECT {
        ", top, or perfect with --table"
    } else {
        " or top"
    };
    format!(
        "a level is 1 to {} (above {top} the bot plays {top}){words}",
        dice_core::LEVEL_ASKED_MAX
    )
}

/// A table refusal: exit 1 with the table error's code (`missing`,
/// `wrong_rules`, `checksum` ...).
pub fn table_refusal(input: &str, e: &ur_solve::TableError) -> Refused {
    let message = match e {
        ur_solve::TableError::Io { path, source } => {
            format!("table file {}: {}", path.display(), io_words(source))
        }
        other => other.to_string(),
    };
    Refused::new(input, e.code(), message)
}

/// A bot at a level given on the command line (`1`..`99`, `top`, or for a
/// game that can read a solved table `perfect`) with the `--table` the
/// command was given.
///
/// # Errors
///
/// A usage error (exit 2) for a level that is not one, or that needs a
/// table and has none; a refusal (exit 1) for a table that cannot be read.
pub fn bot<G: RaceGame>(
    level: &str,
    variant: &G::Variant,
    input: &str,
    table: Option<&Path>,
) -> Result<Bot<G>, Failure> {
    let Ok(asked) = level.parse::<Level>() else {
        return Err(Failure::usage(
            input,
            format!("there is no level {level:?}: {}", levels_words::<G>()),
        ));
    };
    Bot::new(asked, variant, table).map_err(|e| match e {
        BotError::NoPerfect(kind) => Failure::usage(
            input,
            format!(
                "{kind} has no perfect level (no solved table); {}",
                levels_words::<G>()
            ),
        ),
        BotError::NoTable(_) => Failure::usage(
            input,
            "perfect needs --table PATH, the table `race solve` wrote for these rules",
        ),
        BotError::Table(e) => table_refusal("--table", &e).into(),
        other => Refused::new("--table", other.code(), other.to_string()).into(),
    })
}
