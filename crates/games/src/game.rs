//! [`RaceGame`]: everything a front end asks of a game beyond its rules,
//! implemented once for each game.

use std::sync::Arc;

use dice_core::{Faces, Ladder, LogEntry, Notation, ReadRules, Side, Thought};
use serde::Serialize;

use crate::catalogue::{Field, LevelNote, Preset};
use crate::{Board, Did, Kind, LegalMove, Mark, PlaceView, Race, RulesBoard, Solved, Tables};
use crate::{LegendEntry, RuleLine, ThoughtView, Voice, Words};

/// Position text that is no position of the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a position: {why}")]
pub struct BadPosition {
    /// The text given.
    pub text: String,
    /// The game's position code (`POS_GAP`, `shape` ...).
    pub code: &'static str,
    /// What is wrong, in words.
    pub why: &'static str,
    /// The code's number, for a game whose position errors have one.
    pub number: Option<u8>,
}

/// Why a position cannot occur under the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Inconsistent {
    /// The game's code for the problem.
    pub code: &'static str,
    /// The problem, in words.
    pub message: String,
}

/// A game as every front end plays it: its catalogue, its bots, its moves
/// and plies as data and in words, its board, and its race count. Each
/// game implements it once; front ends are generic over it, or hold an
/// `Any*` value, and choose the game once from a [`Kind`].
pub trait RaceGame: Ladder + Notation<Variant: ReadRules + Default> {
    /// Which game it is.
    const KIND: Kind;
    /// The named rule sets, the default first, in the order front ends
    /// list them.
    const PRESETS: &'static [Preset<Self::Variant>];
    /// The fields a custom rule set takes and their values, in record order.
    const FIELDS: &'static [Field];
    /// The bot's levels and what each plays like.
    const LEVEL_NOTES: &'static [LevelNote];
    /// Whether the game has a perfect level (a solved table).
    const PERFECT: bool;
    /// The lowest roll there is (a question's highest is
    /// [`Notation::max_roll`]).
    const ROLL_MIN: u8;
    /// What the game calls its things.
    const WORDS: Words;
    /// The game in a sentence, for a newcomer choosing one.
    const ABOUT: &'static str;

    /// The game's solved table, or [`Unsolved`](crate::Unsolved).
    type Solved: Solved<Self>;

    /// A legal move as JSON gives it.
    type MoveView: Serialize + Clone + std::fmt::Debug;

    /// The fields of a rule set as `(name, value)` text pairs, in record
    /// order.
    fn fields(variant: &Self::Variant) -> Vec<(&'static str, String)>;

    /// Reads a position's text under these rules (whether it can occur is
    /// [`RaceGame::check`]'s question).
    ///
    /// # Errors
    ///
    /// [`BadPosition`] with the game's position code.
    fn read_position(text: &str, variant: &Self::Variant) -> Result<Self::Position, BadPosition>;

    /// Whether the position can occur under these rules.
    ///
    /// # Errors
    ///
    /// [`Inconsistent`] with the reason.
    fn check(variant: &Self::Variant, position: &Self::Position) -> Result<(), Inconsistent>;

    /// The position key as text.
    fn key_text(variant: &Self::Variant, position: &Self::Position) -> String;

    /// The legal moves on `roll` and what each does, in the rules' order.
    fn legal_moves(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
    ) -> Vec<LegalMove<Self>>;

    /// Where a move starts and where it points, as JSON names them.
    fn places(mv: Self::Move) -> (PlaceView, PlaceView);

    /// A log entry in display form (`3: a2-d2x*`, `5: 12-17`, `0: -`).
    fn entry_label(entry: &LogEntry<Self>) -> String;

    /// What a ply did.
    fn did(variant: &Self::Variant, entry: &LogEntry<Self>) -> Did;

    /// A ply in a sentence, the throw's faces drawn by `faces` (see
    /// [`crate::narrate`]).
    fn narrate(
        variant: &Self::Variant,
        entry: &LogEntry<Self>,
        faces: &dyn Fn(Faces) -> String,
    ) -> String;

    /// A ply said as a page says it, to the reader `voice` names: "You
    /// threw 4 and entered a piece on d1, a rosette: you throw again."
    fn say(variant: &Self::Variant, entry: &LogEntry<Self>, voice: Voice) -> String;

    /// The rule set's rules in a few lines: the dice, the start, the
    /// route, captures, the special squares, bearing off, who throws
    /// first.
    fn how_to(variant: &Self::Variant) -> Vec<RuleLine>;

    /// What the board's special squares do under the rule set.
    fn legend(variant: &Self::Variant) -> Vec<LegendEntry>;

    /// What a throw is worth beyond its number, in a few words each: a
    /// throw of no marks that counts more than nothing, a throw that
    /// throws again.
    fn throw_notes(variant: &Self::Variant, faces: Option<Faces>, roll: u8) -> Vec<String>;

    /// How many of a side's pieces are home (borne off).
    fn home(variant: &Self::Variant, position: &Self::Position, side: Side) -> u8;

    /// Whether a ply captured (Ur) or swapped (Senet), what statistics
    /// count as [`Words::capture`].
    fn is_capture(flags: &Self::Flags) -> bool;

    /// The board under these rules with the position on it.
    fn board(variant: &Self::Variant, position: &Self::Position) -> Board;

    /// The squares a ply touched, for marking the last turn.
    fn marks(entry: &LogEntry<Self>) -> Vec<Mark>;

    /// How far each side still has to go.
    fn race(variant: &Self::Variant, position: &Self::Position) -> Race;

    /// The sentence above a drawing of a side's route.
    fn route_heading(variant: &Self::Variant, side: Side) -> String;

    /// The rule set's board, its shape and dice, as the server's rules
    /// view gives them.
    fn rules_board(variant: &Self::Variant) -> RulesBoard;

    /// The ladder's thought, as JSON gives it.
    fn ladder_thought(thought: Thought<Self::Move>) -> ThoughtView;

    /// The table `tables` holds for these rules.
    fn solved_in(tables: &Tables, variant: &Self::Variant) -> Option<Arc<Self::Solved>>;

    /// The rule sets `tables` holds tables of, as record text.
    fn solved_rules(tables: &Tables) -> Vec<String>;

    /// How many integer actions there are under these rules (see
    /// [`crate::move_for_action`] for what an action means).
    fn action_count(variant: &Self::Variant) -> usize;

    /// The integer action of a move in `position`: the place the piece
    /// starts from, below [`RaceGame::action_count`].
    fn action(variant: &Self::Variant, position: &Self::Position, mv: Self::Move) -> usize;

    /// How many numbers [`RaceGame::observe`] writes under these rules.
    fn observation_len(variant: &Self::Variant) -> usize;

    /// Writes the observation of `position` with `roll` in hand (none
    /// once the game is over) into `out`, from the side to move's point of
    /// view, every number from 0 to 1; `out` is
    /// [`RaceGame::observation_len`] long (a shorter one takes what fits).
    fn observe(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: Option<u8>,
        out: &mut [f32],
    );

    /// A well-formed move made from random bits, legal or not (for soak
    /// runs that try moves the rules must refuse); `None` now and then.
    fn any_move(bits: u64) -> Option<Self::Move>;
}
