//! The `Notation` trait: how a game is written in a record, beside its rules.

use std::fmt::Debug;
use std::ops::RangeInclusive;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Rules, Side, VariantError};

/// What the generic record format (see [`Record`](crate::Record)) needs to
/// know about a game beyond its [`Rules`]: the shape of its turn lines, who
/// throws after a line (for the parser's side check, judged from the line
/// alone), its rules line, and any set-up the record carries that is not
/// the rules.
///
/// A [`Game`](crate::Game) writes and replays records, so it needs both
/// traits; code that only plays (walks, searches) needs only [`Rules`].
pub trait Notation: Rules {
    /// The highest roll a turn line may state under `variant` (one decimal
    /// digit). A line stating more is not a turn line (`turn`).
    fn max_roll(variant: &Self::Variant) -> u8;

    /// How many faces a turn line may write under `variant` (digits `0` and
    /// `1`). A line writing another count is not a turn line (`turn`); a
    /// count in this range that is not the rule set's dice is a `faces`
    /// error.
    fn faces_len(variant: &Self::Variant) -> RangeInclusive<usize>;

    /// Game set-up that is not the rules and not the first side but belongs
    /// in the record (Senet's seat for light). `()` when there is none.
    type Extra: Clone + Eq + Debug + Default + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Who throws after a record's turn line, judged from the line alone:
    /// the side, the roll and the move (`None` for a lost turn). `None`
    /// when the line alone cannot tell (a move that may or may not have
    /// captured, under a rule set where a capture throws again): the parser
    /// then lets either side follow, and replaying checks the side against
    /// the game.
    fn next_in_record(
        variant: &Self::Variant,
        side: Side,
        roll: u8,
        mv: Option<Self::Move>,
    ) -> Option<Side>;

    /// Why [`Notation::next_in_record`] names the side it does, in words
    /// that follow a turn line in a message (`line 10, "…", lands on a
    /// rosette, so the same side throws again`). The default says only
    /// whether the turn stays or passes (or may do either).
    fn next_in_record_why(
        variant: &Self::Variant,
        side: Side,
        roll: u8,
        mv: Option<Self::Move>,
    ) -> &'static str {
        match Self::next_in_record(variant, side, roll, mv) {
            Some(next) if next == side => "keeps the turn",
            Some(_) => "passes the turn",
            None => "may keep or pass the turn",
        }
    }

    /// The rule set's fields spelled out in record form, even when it has a
    /// name (records that spell a named set out keep that spelling).
    fn spelled_out(variant: &Self::Variant) -> String;

    /// Reads the text of a record's rules line (inside `[rules …]`),
    /// strictly: a name as `Display` writes it, or the one spelling of the
    /// fields ([`Notation::spelled_out`]), and nothing else. (The rule
    /// set's `FromStr` reads rules as a person writes them, which is more.)
    ///
    /// # Errors
    ///
    /// The [`VariantError`] of text that is neither.
    fn read_rules_line(text: &str) -> Result<Self::Variant, VariantError>;

    /// The record header line (without brackets) for the extra set-up, or
    /// `None` when it is the default and goes unwritten.
    fn extra_header(extra: &Self::Extra) -> Option<String> {
        let _ = extra;
        None
    }

    /// Reads an extra header (the text inside the brackets), or `None` when
    /// the line is not one.
    fn read_extra_header(text: &str) -> Option<Self::Extra> {
        let _ = text;
        None
    }
}
