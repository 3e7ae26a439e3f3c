//! What the front end needs from a game beyond [`dice_core::Rules`]: text
//! forms, JSON, drawing, narration and a bot. `ur.rs` and `senet.rs`
//! implement it; everything else in the crate is generic over it.

use dice_core::{Faces, Game, LogEntry, MoveList, Rules, Side};
use serde_json::Value;

use crate::error::{Failure, Refused};
use crate::style::Style;

/// A game the `race` command can play.
pub trait Engine: Rules {
    /// The word on the command line: `ur` or `senet`.
    const CMD: &'static str;
    /// What the game calls a capture in statistics: `captures` or `swaps`.
    const CAPTURE_WORD: &'static str;

    /// A player the computer runs.
    type Bot: Clone + std::fmt::Debug;

    /// The rule set used when none is given.
    fn default_variant() -> Self::Variant;

    /// The named rule sets, for `bench`.
    fn named_variants() -> Vec<Self::Variant>;

    /// Reads rules text (a name or the fields spelled out).
    ///
    /// # Errors
    ///
    /// A refusal naming `input` and the rules' own code.
    fn parse_variant(text: &str, input: &str) -> Result<Self::Variant, Refused>;

    /// Reads a position string under these rules.
    ///
    /// # Errors
    ///
    /// A refusal with the position code (`POS_GAP`, `shape`, ...).
    fn parse_position(
        text: &str,
        variant: &Self::Variant,
        input: &str,
    ) -> Result<Self::Position, Refused>;

    /// The position string.
    fn position_text(position: &Self::Position) -> String;

    /// The position key as text.
    fn key_text(position: &Self::Position, variant: &Self::Variant) -> String;

    /// The move as JSON for `race moves --json`.
    fn move_json(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
        mv: Self::Move,
    ) -> Value;

    /// The move as a line of the numbered list offered to a player.
    fn move_label(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
        mv: Self::Move,
    ) -> String;

    /// A log entry in display form (`3: a2-d2x*`, `5: 12-17`, `0: -`).
    fn entry_label(entry: &LogEntry<Self>) -> String;

    /// A plain sentence saying what a log entry did.
    fn narrate(variant: &Self::Variant, entry: &LogEntry<Self>, style: &Style) -> String;

    /// How many of a side's pieces are home (borne off).
    fn home(variant: &Self::Variant, position: &Self::Position, side: Side) -> u8;

    /// Whether a ply captured (Ur) or swapped (Senet).
    fn is_capture(flags: &Self::Flags) -> bool;

    /// The board with both sides' hands and homes, marking `last`: the last
    /// move of each side, as log entries.
    fn draw(
        variant: &Self::Variant,
        position: &Self::Position,
        last: &[LogEntry<Self>],
        style: &Style,
    ) -> String;

    /// The dice or sticks of a throw and what it is worth.
    fn draw_throw(variant: &Self::Variant, faces: Option<Faces>, roll: u8, style: &Style)
    -> String;

    /// The route or track, drawn, for the `route` command.
    fn draw_route(variant: &Self::Variant, side: Side, style: &Style) -> String;

    /// The highest bot level.
    fn level_top(variant: &Self::Variant) -> u8;

    /// A bot at a level (`1`..top, or `top`).
    ///
    /// # Errors
    ///
    /// A refusal with code `level`.
    fn bot(level: &str, variant: &Self::Variant, input: &str) -> Result<Self::Bot, Refused>;

    /// A bot at a level given on the command line with the `--table` the
    /// command was given: as [`Engine::bot`], and the level `perfect` for a
    /// game that can read a solved table. Senet has none, so by default
    /// `perfect` is refused (exit 1, code `level`).
    ///
    /// # Errors
    ///
    /// A refusal (exit 1), or a usage error (exit 2) when a level needs a
    /// table and none was given.
    fn bot_with_table(
        level: &str,
        variant: &Self::Variant,
        input: &str,
        table: Option<&std::path::Path>,
    ) -> Result<Self::Bot, Failure> {
        let _ = table;
        if level == "perfect" {
            return Err(Refused::new(
                input,
                "level",
                format!(
                    "{} has no perfect level; the levels are 1 to {} and top",
                    Self::CMD,
                    Self::level_top(variant)
                ),
            )
            .detail("level", level)
            .into());
        }
        Ok(Self::bot(level, variant, input)?)
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
}

/// The legal moves for a position and a roll, as a vector.
pub fn legal<E: Engine>(variant: &E::Variant, position: &E::Position, roll: u8) -> Vec<E::Move> {
    let mut list = MoveList::new();
    E::legal(variant, position, roll, &mut list);
    list.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use royal_ur::{Position, Ur, Variant};

    #[test]
    fn legal_lists_moves_in_engine_order() {
        let start = Position::start(7);
        let moves = legal::<Ur>(&Variant::FINKEL, &start, 4);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].to_string(), "hand-a1");
    }
}
