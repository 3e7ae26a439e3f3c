//! A game as data for a front end: a legal move, a ply of the log (what it
//! did and where the piece ended), a position, a game's state and a bot's
//! thought, each a serde struct whose JSON the command line and the server
//! speak.

use dice_core::{Game, LogEntry, Side};
use serde::Serialize;

use crate::{Landing, MovePlaces, OfferView, Placed, Race, RaceGame, Said};

/// A legal move and what it does: the move, the game's own view of it
/// (what `race moves --json` prints) and a few words each on what it does
/// (`captures`, `rosette, throws again`, `swaps`, `ends on 15`).
#[derive(Clone, Debug)]
pub struct LegalMove<G: RaceGame> {
    /// The move.
    pub mv: G::Move,
    /// The game's view of it, as JSON gives it.
    pub view: G::MoveView,
    /// What it does, in a few words each.
    pub notes: Vec<String>,
    /// The places its piece passes, in order, the last where it points.
    pub path: Vec<String>,
    /// What landing does.
    pub lands: Vec<Landing>,
    /// Where the piece ends when that is not where the move points.
    pub ends: Option<String>,
}

impl<G: RaceGame> LegalMove<G> {
    /// The move and what it does, as a line of the numbered list offered to
    /// a player: `a2-d2    captures, rosette, throws again`.
    #[must_use]
    pub fn label(&self) -> String {
        let mv = self.mv.to_string();
        if self.notes.is_empty() {
            mv
        } else {
            format!("{mv:<8} {}", self.notes.join(", "))
        }
    }
}

/// What a ply did, in terms every game shares.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Did {
    /// The same side throws next.
    pub again: bool,
    /// An enemy piece went back to its owner's hand (Ur).
    pub capture: bool,
    /// The piece landed on a rosette (Ur).
    pub rosette: bool,
    /// The enemy piece swapped places with the one moved (Senet).
    pub swap: bool,
    /// The piece went into the water (Senet's house 27): it stands there
    /// or is reborn.
    pub water: bool,
    /// The piece went home (Ur) or off the board (Senet).
    pub home: bool,
    /// Where the piece ended when that is not where the move points
    /// (Senet's water and diversions).
    pub ends: Option<String>,
}

/// One ply of the log as data: the throw, the move and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryView {
    /// The ply (0 for the first).
    pub ply: u32,
    /// The side that threw.
    pub side: Side,
    /// What the throw was worth.
    pub roll: u8,
    /// The faces of the throw (`0101`), when known.
    pub faces: Option<String>,
    /// The move text, or `None` for a lost turn.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The same side throws next.
    pub again: bool,
    /// An enemy piece went back to its owner's hand (Ur).
    pub capture: bool,
    /// The piece landed on a rosette (Ur).
    pub rosette: bool,
    /// The enemy piece swapped places with the one moved (Senet).
    pub swap: bool,
    /// The piece went into the water (Senet).
    pub water: bool,
    /// The piece went home (Ur) or off the board (Senet).
    pub home: bool,
    /// Where the piece ended when that is not where the move points: a
    /// square, a house or `off`.
    pub ends: Option<String>,
}

impl EntryView {
    /// The view of a log entry.
    #[must_use]
    pub fn of<G: RaceGame>(variant: &G::Variant, entry: &LogEntry<G>) -> EntryView {
        let did = G::did(variant, entry);
        EntryView {
            ply: entry.ply,
            side: entry.side,
            roll: entry.roll,
            faces: entry.faces.map(|f| f.to_string()),
            mv: entry.mv.map(|m| m.to_string()),
            again: did.again,
            capture: did.capture,
            rosette: did.rosette,
            swap: did.swap,
            water: did.water,
            home: did.home,
            ends: did.ends,
        }
    }
}

/// A log entry with the sentence that tells it ([`narrate`](crate::narrate),
/// the faces as digits): an entry of a game's log for a front end that
/// shows the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    /// The entry, its fields beside `words` in JSON.
    #[serde(flatten)]
    pub entry: EntryView,
    /// Where the move started and pointed (`from`, `to` beside the other
    /// fields in JSON; none for a lost turn).
    #[serde(flatten)]
    pub places: Option<MovePlaces>,
    /// The ply in words.
    pub words: String,
}

impl LineView {
    /// The view of `entry`, a ply under `variant`.
    #[must_use]
    pub fn of<G: RaceGame>(variant: &G::Variant, entry: &LogEntry<G>) -> LineView {
        LineView {
            entry: EntryView::of(variant, entry),
            places: entry.mv.map(MovePlaces::of::<G>),
            words: crate::words::narrate(variant, entry, &|f| f.to_string()),
        }
    }
}

/// A ply told for a front end: the entry, the position after it, the race
/// count there and the sentence that says what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlyView {
    /// The ply.
    #[serde(flatten)]
    pub entry: EntryView,
    /// Where the move started and pointed (beside the other fields in
    /// JSON; none for a lost turn).
    #[serde(flatten)]
    pub places: Option<MovePlaces>,
    /// The position after the ply.
    pub position: String,
    /// The race count after the ply.
    pub race: Race,
    /// The pieces after the ply, by place (beside the other fields in
    /// JSON).
    #[serde(flatten)]
    pub placed: Placed,
    /// The ply in words (its faces as `0101`).
    pub words: String,
    /// The ply said to each reader, as a page says it.
    pub said: Said,
    /// The moves the throw offered, with their routes (none for a turn
    /// lost).
    pub offered: Vec<OfferView>,
}

/// A position in a game's story: its text and the race count there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    /// The position text.
    pub position: String,
    /// The race count.
    pub race: Race,
    /// The pieces, by place (beside the other fields in JSON).
    #[serde(flatten)]
    pub placed: Placed,
}

/// A game told ply by ply from its start: a walk of its positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Story {
    /// The position before the first ply.
    pub start: Point,
    /// The plies from the first asked for, in order.
    pub plies: Vec<PlyView>,
}

impl Story {
    /// The game's story from ply `from` on (the start is always the
    /// game's); costs the plies told, not the whole game.
    #[must_use]
    pub fn of<G: RaceGame>(game: &Game<G>, from: usize) -> Story {
        let variant = game.variant();
        let start = game.start();
        Story {
            start: Point {
                position: start.to_string(),
                race: G::race(variant, start),
                placed: G::board(variant, start).into(),
            },
            plies: game
                .plies_from(from)
                .map(|ply| PlyView {
                    entry: EntryView::of(variant, ply.entry),
                    places: ply.entry.mv.map(MovePlaces::of::<G>),
                    position: ply.after.to_string(),
                    race: G::race(variant, &ply.after),
                    placed: G::board(variant, &ply.after).into(),
                    words: crate::words::narrate(variant, ply.entry, &|f| f.to_string()),
                    said: Said::of(ply.entry.side, |voice| G::say(variant, ply.entry, voice)),
                    offered: G::legal_moves(variant, &ply.before, ply.entry.roll)
                        .iter()
                        .map(OfferView::of)
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A position as data: its text, its key, the side to move and whether
/// it can occur under the rules (`race position --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionView {
    /// The position text.
    pub position: String,
    /// The position key as text.
    pub key: String,
    /// The side to move.
    pub side: Side,
    /// Whether it can occur under the rules.
    pub consistent: bool,
}

impl PositionView {
    /// The view of a position under these rules.
    #[must_use]
    pub fn of<G: RaceGame>(variant: &G::Variant, position: &G::Position) -> PositionView {
        PositionView {
            position: position.to_string(),
            key: G::key_text(variant, position),
            side: G::side(position),
            consistent: G::check_position(variant, position).is_ok(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub how: dice_core::Ending,
}

/// A game's state as data (`race replay --json`): where it stands, what
/// may be played, and its record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The game's record name (`royal-ur`, `senet`).
    pub game: &'static str,
    /// The position text.
    pub position: String,
    /// The position key as text.
    pub key: String,
    /// Plies played.
    pub ply: u32,
    /// Throws made.
    pub rolls: u64,
    /// The side to move; `None` once over.
    pub side: Option<Side>,
    /// The roll in hand.
    pub roll: Option<u8>,
    /// The legal moves, in the rules' order.
    pub legal: Vec<String>,
    /// Whether the game is over.
    pub over: bool,
    /// How it ended, once over.
    pub result: Option<ResultView>,
    /// The record text.
    pub record: String,
}

impl GameView {
    /// The view of a game.
    #[must_use]
    pub fn of<G: RaceGame>(game: &Game<G>) -> GameView {
        GameView {
            game: G::GAME,
            position: game.position().to_string(),
            key: G::key_text(game.variant(), game.position()),
            ply: game.ply(),
            rolls: game.throws(),
            side: game.side(),
            roll: game.roll(),
            legal: game.legal().iter().map(ToString::to_string).collect(),
            over: game.is_over(),
            result: game.result().map(|o| ResultView {
                winner: o.winner,
                how: o.how,
            }),
            record: game.to_record().to_string(),
        }
    }
}

/// A place as JSON: a square's name (`a2`, `hand`, `home`) or a house's
/// number (or `off`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PlaceView {
    /// A name.
    Name(String),
    /// A number.
    Number(u8),
}

/// A bot's level in JSON: the ladder's number, or `perfect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LevelWord {
    /// A rung of the ladder.
    Number(u8),
    /// A name.
    Word(&'static str),
}

/// What a thought is worth: the search's score (which a bot that did not
/// search may not have), or a table's chance to win.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Worth {
    /// The search's score.
    Score(Option<i64>),
    /// The mover's chance to win after the move.
    Chance(f64),
}

/// What a bot plays and what it found (`race bot --json`): the ladder's
/// `move level index depth value nodes` (and for Ur `stopped`), the
/// perfect player's `move level index value`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThoughtView {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The level that chose it.
    pub level: LevelWord,
    /// The move's index in the legal list.
    pub index: Option<usize>,
    /// How deep the ladder searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// What it is worth.
    pub value: Worth,
    /// The nodes the ladder searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Whether a deeper search ran out of budget: 0 or 1 (Ur's ladder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<u8>,
}

impl ThoughtView {
    /// The perfect player's thought: its move, the move's index in the
    /// legal list and the mover's chance to win after it.
    #[must_use]
    pub fn perfect(mv: String, index: Option<usize>, chance: f64) -> ThoughtView {
        ThoughtView {
            mv,
            level: LevelWord::Word("perfect"),
            index,
            depth: None,
            value: Worth::Chance(chance),
            nodes: None,
            stopped: None,
        }
    }
}
