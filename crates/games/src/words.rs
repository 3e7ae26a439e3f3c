//! A game in words: what it calls its things, a ply told in a sentence,
//! and how a game ended.

use dice_core::{Ending, Faces, Game, LogEntry, PLY_CAP, Side};

use serde::Serialize;

use crate::RaceGame;

/// What a game's throwing pieces are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceKind {
    /// Four-sided pyramids with two marked tips (Ur's dice).
    Pyramids,
    /// Flat sticks with one marked face (Senet's).
    Sticks,
}

/// What a game calls its things.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Words {
    /// The throwing pieces: `dice` or `sticks`.
    pub dice: &'static str,
    /// What they are, for drawing them.
    pub dice_kind: DiceKind,
    /// What statistics call a capture: `captures` or `swaps`.
    pub capture: &'static str,
    /// What a finished piece is: `home` or `borne off`.
    pub home: &'static str,
}

/// A number from one to nine in words.
#[must_use]
pub const fn number_word(n: u8) -> Option<&'static str> {
    match n {
        1 => Some("one"),
        2 => Some("two"),
        3 => Some("three"),
        4 => Some("four"),
        5 => Some("five"),
        6 => Some("six"),
        7 => Some("seven"),
        8 => Some("eight"),
        9 => Some("nine"),
        _ => None,
    }
}

/// A ply told in a sentence, the one every front end shows: `light rolls
/// 2 (▲△▲△) and moves c1 to a1 (c1-a1); it lands on a rosette and throws
/// again.` The throw's faces are drawn by `faces` (the terminal draws
/// them as dice, a program may write them as `0101`).
///
/// ```
/// use dice_core::{Game, Seed};
/// use royal_ur::{Ur, Variant};
///
/// let mut game = Game::<Ur>::seeded(Seed::new("words")?, Variant::FINKEL)?;
/// let mv = game.legal()[0];
/// game.play(mv)?;
/// let told = race_games::narrate(game.variant(), &game.log()[0], &|f| f.to_string());
/// assert!(told.starts_with(&format!("{} rolls", game.log()[0].side)), "{told}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn narrate<G: RaceGame>(
    variant: &G::Variant,
    entry: &LogEntry<G>,
    faces: &dyn Fn(Faces) -> String,
) -> String {
    G::narrate(variant, entry, faces)
}

/// How a game ended, in a sentence; `None` while it is on.
#[must_use]
pub fn result_words<G: RaceGame>(game: &Game<G>) -> Option<String> {
    let o = game.result()?;
    let plies = o.plies;
    let home = |side| G::home(game.variant(), game.position(), side);
    let word = G::WORDS.home;
    let score = format!(
        "light {} {word}, dark {} {word}",
        home(Side::Light),
        home(Side::Dark)
    );
    Some(match (o.winner, o.how) {
        (Some(w), Ending::Home) => {
            format!("{w} wins with every piece {word} ({score}) after {plies} plies.")
        }
        (Some(w), Ending::Resign) => {
            format!(
                "{} resigns: {w} wins ({score}) after {plies} plies.",
                w.other()
            )
        }
        _ => format!("the game is drawn: it reached the cap of {PLY_CAP} plies ({score})."),
    })
}
