//! What the front end needs from a game beyond its [`dice_core::Rules`] and
//! [`Notation`]: text forms, JSON, drawing, narration and a bot. `ur.rs` and `senet.rs`
//! implement it; everything else in the crate is generic over it.

use dice_core::{
    Faces, Game, LEVEL_ASKED_MAX, Ladder, LogEntry, Notation, ReadRules, Side, read_rules,
};
use serde_json::{Map, Value};

use crate::error::{Failure, Refused};
use crate::render::{Board, DiceLook, Trace};
use crate::style::Style;

/// A game the `race` command can play.
pub trait Engine: Ladder + Notation<Variant: ReadRules + Default> {
    /// The word on the command line: `ur` or `senet`.
    const CMD: &'static str;
    /// What the game calls a capture in statistics: `captures` or `swaps`.
    const CAPTURE_WORD: &'static str;
    /// The lowest roll a question may name (a question's highest is the
    /// record's, [`Notation::max_roll`]).
    const ROLL_MIN: u8;

    /// A player the computer runs: the game's ladder bot, or more.
    type Bot: Clone + std::fmt::Debug + From<dice_core::Bot<Self>>;

    /// What a legal move does, in full (the game's `MoveInfo`).
    type MoveInfo;

    /// The named rule sets, for `bench`.
    fn named_variants() -> Vec<Self::Variant>;

    /// Reads a position string under these rules (its text only; see
    /// [`Engine::inconsistency`] for whether it can occur).
    ///
    /// # Errors
    ///
    /// A refusal with the position code (`POS_GAP`, `shape`, ...).
    fn parse_position(
        text: &str,
        variant: &Self::Variant,
        input: &str,
    ) -> Result<Self::Position, Refused>;

    /// Why the position cannot occur under these rules, as its code and a
    /// sentence, or `None` when it can.
    fn inconsistency(
        variant: &Self::Variant,
        position: &Self::Position,
    ) -> Option<(&'static str, String)>;

    /// The `from` and `to` of a move as JSON, for a refusal's detail.
    fn places_json(mv: Self::Move) -> (Value, Value);

    /// The position string.
    fn position_text(position: &Self::Position) -> String;

    /// The position key as text.
    fn key_text(position: &Self::Position, variant: &Self::Variant) -> String;

    /// What each legal move for `roll` does, in the rules' order.
    fn move_infos(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
    ) -> Vec<Self::MoveInfo>;

    /// A legal move as JSON for `race moves --json`.
    fn move_json(info: &Self::MoveInfo) -> Value;

    /// The move a [`Engine::MoveInfo`] is about.
    fn move_of(info: &Self::MoveInfo) -> Self::Move;

    /// What a legal move does, in a few words each (`captures`, `swaps`,
    /// `throws again`), for the list offered to a player.
    fn move_notes(info: &Self::MoveInfo) -> Vec<String>;

    /// A legal move as a line of the numbered list offered to a player: the
    /// move, then its notes.
    fn move_label(info: &Self::MoveInfo) -> String {
        let mv = Self::move_of(info).to_string();
        let notes = Self::move_notes(info);
        if notes.is_empty() {
            mv
        } else {
            format!("{mv:<8} {}", notes.join(", "))
        }
    }

    /// A log entry in display form (`3: a2-d2x*`, `5: 12-17`, `0: -`).
    fn entry_label(entry: &LogEntry<Self>) -> String;

    /// A plain sentence saying what a log entry did.
    fn narrate(variant: &Self::Variant, entry: &LogEntry<Self>, style: &Style) -> String;

    /// How many of a side's pieces are home (borne off).
    fn home(variant: &Self::Variant, position: &Self::Position, side: Side) -> u8;

    /// Whether a ply captured (Ur) or swapped (Senet).
    fn is_capture(flags: &Self::Flags) -> bool;

    /// How the dice look (the face that counts is drawn filled).
    const DICE: DiceLook;

    /// What the game calls a piece that has finished: `home` or `borne
    /// off`, on the board and in the result alike.
    const HOME_WORD: &'static str;

    /// What a throw is worth beyond its number, in a few words each: a
    /// throw of no marks that counts more than nothing, a throw that
    /// throws again.
    fn throw_notes(variant: &Self::Variant, faces: Option<Faces>, roll: u8) -> Vec<&'static str>;

    /// The board laid out in rows (the game's geometry), with each side's
    /// line; [`crate::render`] draws it.
    fn board(variant: &Self::Variant, position: &Self::Position) -> Board;

    /// The squares a ply touched (left, landed on, or a piece sent there),
    /// numbered as the board's cells, for marking the last turn.
    fn traces(entry: &LogEntry<Self>) -> Vec<Trace>;

    /// The route or track, drawn, for the `route` command.
    fn draw_route(variant: &Self::Variant, side: Side, style: &Style) -> String;

    /// Whether the game has a perfect level, a bot that reads a solved
    /// table (`--table`).
    const PERFECT: bool = false;

    /// The perfect bot for these rules, reading the solved table at
    /// `table`. A game without one says so.
    ///
    /// # Errors
    ///
    /// A usage error (exit 2) for a game with no perfect level, or no table
    /// given; a refusal (exit 1) for a table that cannot be read.
    fn perfect_bot(
        variant: &Self::Variant,
        table: Option<&std::path::Path>,
        input: &str,
    ) -> Result<Self::Bot, Failure> {
        let _ = (variant, table);
        Err(Failure::usage(
            input,
            format!(
                "{} has no perfect level (no solved table); {}",
                Self::CMD,
                levels_words::<Self>()
            ),
        ))
    }

    /// The bot's level, for messages.
    fn bot_level(bot: &Self::Bot) -> u8;

    /// The bot's level as a word for messages and JSON: the number, or a
    /// name such as `perfect`.
    fn bot_name(bot: &Self::Bot) -> String {
        Self::bot_level(bot).to_string()
    }

    /// The bot's move in a game, `None` when it has no roll.
    fn choose(bot: &Self::Bot, game: &Game<Self>) -> Option<Self::Move>;

    /// What the bot plays in a position on a roll and what it found, as the
    /// fields of its thought (`move` first), or `None` when the roll allows
    /// no move.
    fn thought_json(
        bot: &Self::Bot,
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
    ) -> Option<Map<String, Value>>;
}

/// Reads rules a person gave: a name, or the fields that differ from the
/// game's default rule set, in any order (`dice_core::read_rules`); the
/// default rule set when none are given.
///
/// # Errors
///
/// A refusal naming `input`, with the code `rules` and the rules' own code
/// as `why`.
pub fn parse_variant<E: Engine>(text: Option<&str>, input: &str) -> Result<E::Variant, Refused> {
    let Some(text) = text else {
        return Ok(E::Variant::default());
    };
    read_rules::<E::Variant>(text).map_err(|e| {
        Refused::new(input, "rules", e.to_string())
            .why(e.code())
            .detail("text", text)
    })
}

/// A bot level as the command line gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A rung of the ladder, 1 to 99 (above the top plays the top).
    Ladder(u8),
    /// The top of the ladder.
    Top,
    /// The perfect bot, reading a solved table.
    Perfect,
}

/// Reads a level: `1` to `99` written without a leading zero, `top` or
/// `perfect`; `None` for anything else.
pub fn parse_level(text: &str) -> Option<Level> {
    match text {
        "top" => Some(Level::Top),
        "perfect" => Some(Level::Perfect),
        _ if text.starts_with('0') || !text.bytes().all(|b| b.is_ascii_digit()) => None,
        _ => text
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=LEVEL_ASKED_MAX).contains(n))
            .map(Level::Ladder),
    }
}

/// What the levels are, in words.
pub fn levels_words<E: Engine>() -> String {
    let top = E::LEVEL_TOP;
    let words = if E::PERFECT {
        ", top, or perfect with --table"
    } else {
        " or top"
    };
    format!("a level is 1 to {LEVEL_ASKED_MAX} (above {top} the bot plays {top}){words}")
}

/// A bot at a level given on the command line (`1`..`99`, `top`, or for a
/// game that can read a solved table `perfect`) with the `--table` the
/// command was given.
///
/// # Errors
///
/// A usage error (exit 2) for a level that is not one, or that needs a
/// table and has none; a refusal (exit 1) for a table that cannot be read.
pub fn bot<E: Engine>(
    level: &str,
    variant: &E::Variant,
    input: &str,
    table: Option<&std::path::Path>,
) -> Result<E::Bot, Failure> {
    let usage = || {
        Failure::usage(
            input,
            format!("there is no level {level:?}: {}", levels_words::<E>()),
        )
    };
    let level = match parse_level(level) {
        Some(Level::Ladder(n)) => Some(n),
        Some(Level::Top) => None,
        Some(Level::Perfect) => return E::perfect_bot(variant, table, input),
        None => return Err(usage()),
    };
    dice_core::Bot::<E>::new(level, None)
        .map(E::Bot::from)
        .map_err(|_| usage())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_1_to_99_top_and_perfect() {
        assert_eq!(parse_level("1"), Some(Level::Ladder(1)));
        assert_eq!(parse_level("99"), Some(Level::Ladder(99)));
        assert_eq!(parse_level("top"), Some(Level::Top));
        assert_eq!(parse_level("perfect"), Some(Level::Perfect));
        for bad in ["0", "100", "05", "", "+3", "Top", "4 "] {
            assert_eq!(parse_level(bad), None, "{bad:?}");
        }
    }
}
