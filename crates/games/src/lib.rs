#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod any;
mod board;
mod bot;
mod catalogue;
mod encode;
mod folder;
mod game;
mod games;
mod kind;
mod level;
mod race;
mod teach;
mod view;
mod words;

pub use any::{
    AnyBot, AnyGame, AnyMove, AnyPosition, AnyVariant, Refusal, ReplayRefusal, record_moves,
};
pub use board::{
    Board, BoardRow, Counts, Direction, Mark, MarkKind, PieceView, Placed, Sides, SquareKind,
    SquareView,
};
pub use bot::{Analysis, Bot, BotError, Solved, Tables, TablesError, Unsolved};
pub use catalogue::{
    Catalogue, Field, GameCatalogue, LevelNote, Named, Preset, RuleSetView, RulesBoard, RulesError,
    catalogue, kind_of_rules_line, preset_of, read_rules, record_names,
};
pub use encode::{action_mask, move_for_action};
pub use folder::{
    SolveProgress, TableSolve, TableSolveError, remove_stale_temps, table_files, tables_folder,
};
pub use game::{BadPosition, Inconsistent, RaceGame};
pub use games::senet::SenetMoveView;
pub use games::ur::UrMoveView;
pub use kind::{Kind, UnknownGame};
pub use level::{Level, ParseLevelError};
pub use race::Race;
pub use teach::{Landing, LegendEntry, MovePlaces, OfferView, RuleLine, Said, Voice};
/// A game judged by a solved table ([`Tables::analyse`]).
pub use ur_solve::{GameAnalysis, SideTotals, TurnAnalysis};
pub use view::{
    Did, EntryView, GameView, LegalMove, LevelWord, LineView, PlaceView, PlyView, Point,
    PositionView, ResultView, Story, ThoughtView, Worth,
};
pub use words::{DiceKind, Words, narrate, number_word, result_words};

/// The game crates, for [`for_kind!`] and front ends that name a game's
/// own types.
#[doc(hidden)]
pub use ::royal_ur;
#[doc(hidden)]
pub use ::senet;
