//! The Royal Game of Ur behind [`Engine`].

use std::path::Path;
use std::sync::Arc;

use dice_core::{Faces, Game, LogEntry, Side};
use royal_ur::{
    BoardShape, Flags, LEVEL_TOP, MoveInfo, Place, Position, Square, Ur, Variant, display_entry,
};
use serde_json::{Map, Value, json};

use crate::engine::Engine;
use crate::error::io_words;
use crate::error::{Failure, Refused};
use crate::render::{
    self, Beside, Board, Cell, DiceLook, Glyph, Part, Row, SideLine, Trace, TraceKind,
};
use crate::style::Style;

/// A player the computer runs for ur: the engine's bot at a level, or the
/// perfect bot reading a solved table.
#[derive(Clone, Debug)]
pub enum UrBot {
    /// `royal_ur::Bot` at a level from 1 to the top.
    Ladder(royal_ur::Bot),
    /// The best move by the table (shared: a table is a memory map).
    Perfect(Arc<ur_solve::PerfectBot<ur_solve::Table>>),
}

impl From<royal_ur::Bot> for UrBot {
    fn from(bot: royal_ur::Bot) -> UrBot {
        UrBot::Ladder(bot)
    }
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

/// An empty square's glyph.
const DOT: Glyph = Glyph::new("·", ".");
/// An empty rosette's glyph.
const ROSETTE: Glyph = Glyph::new("✿", "*");

/// A square's number on the drawn board: its cell.
fn square_number(sq: Square) -> u8 {
    // At most 26 cells (the aseb board's): the number fits.
    sq.cell() as u8
}

/// The files above a board: `     a  b  c … h` (the aseb board to `l`).
fn file_letters(board: BoardShape) -> String {
    let files: Vec<String> = (0..board.row_width(2))
        .map(|f| char::from(b'a' + f).to_string())
        .collect();
    format!("     {}", files.join("  "))
}

fn place_words(place: Place) -> String {
    match place {
        Place::Hand => "the hand".to_owned(),
        Place::Home => "home".to_owned(),
        Place::Square(sq) => sq.name().to_owned(),
    }
}

impl Engine for Ur {
    const CMD: &'static str = "ur";
    const CAPTURE_WORD: &'static str = "captures";
    /// A throw of nothing moves nothing under finkel's dice (spec §17: a
    /// roll is 0 to 4).
    const ROLL_MIN: u8 = 0;

    type Bot = UrBot;
    type MoveInfo = MoveInfo;

    fn named_variants() -> Vec<Variant> {
        vec![Variant::FINKEL, Variant::MASTERS]
    }

    /// Reads the position in the rule set's text: the aseb board's rows,
    /// or second visits on murray's and skiriuk's paths (the reference's
    /// text under its own rule sets).
    fn parse_position(text: &str, variant: &Variant, input: &str) -> Result<Position, Refused> {
        Position::parse_for(text, variant).map_err(|e| {
            Refused::new(
                input,
                e.code(),
                format!("{text:?} is not a position: {}", e.kind().message()),
            )
            .detail("text", text)
            .detail("number", e.number())
        })
    }

    fn inconsistency(variant: &Variant, position: &Position) -> Option<(&'static str, String)> {
        position
            .check(variant)
            .err()
            .map(|e| (e.code(), e.to_string()))
    }

    fn places_json(mv: royal_ur::Move) -> (Value, Value) {
        (json!(mv.from().to_string()), json!(mv.to().to_string()))
    }

    fn position_text(position: &Position) -> String {
        position.to_string()
    }

    fn key_text(position: &Position, variant: &Variant) -> String {
        position.key_text(variant)
    }

    fn move_infos(variant: &Variant, position: &Position, roll: u8) -> Vec<MoveInfo> {
        position.move_infos(variant, roll).collect()
    }

    fn move_json(info: &MoveInfo) -> Value {
        json!({
            "move": info.mv().to_string(),
            "display": info.to_string(),
            "captures": info.captures(),
            "rosette": info.rosette(),
            "home": info.home(),
        })
    }

    fn move_of(info: &MoveInfo) -> royal_ur::Move {
        info.mv()
    }

    fn move_notes(info: &MoveInfo) -> Vec<String> {
        [
            (info.captures(), "captures"),
            (info.rosette(), "rosette, throws again"),
            (info.home(), "home"),
            (info.from() == Place::Hand, "enters"),
        ]
        .into_iter()
        .filter(|&(applies, _)| applies)
        .map(|(_, note)| note.to_owned())
        .collect()
    }

    fn entry_label(entry: &LogEntry<Ur>) -> String {
        display_entry(entry)
    }

    fn narrate(variant: &Variant, entry: &LogEntry<Ur>, style: &Style) -> String {
        let side = entry.side;
        let faces = entry
            .faces
            .map(|f| format!(" ({})", render::faces(f, &Self::DICE, style)))
            .unwrap_or_default();
        let worth: String = Self::throw_notes(variant, entry.faces, entry.roll)
            .iter()
            .map(|note| format!(", {note}"))
            .collect();
        let Some(mv) = entry.mv else {
            return if entry.roll == 0 {
                format!("{side} rolls 0{faces} and loses the turn.")
            } else {
                format!(
                    "{side} rolls {}{faces}{worth} but has no move: the turn is lost.",
                    entry.roll
                )
            };
        };
        let action = match (mv.from(), mv.to()) {
            (Place::Hand, to) => format!("enters a piece on {}", place_words(to)),
            (from, Place::Home) => format!("bears a piece home from {}", place_words(from)),
            (from, to) => format!("moves {} to {}", place_words(from), place_words(to)),
        };
        let mut text = format!(
            "{side} rolls {}{faces}{worth} and {action} ({mv})",
            entry.roll
        );
        if entry.flags.captures {
            text.push_str(&format!(", capturing a {} piece", side.other()));
        }
        if entry.flags.rosette {
            text.push_str("; it lands on a rosette");
        }
        if variant.throws_again(entry.flags) {
            text.push_str(if entry.flags.rosette {
                " and throws again"
            } else {
                ", and throws again"
            });
        }
        text.push('.');
        text
    }

    fn home(_variant: &Variant, position: &Position, side: Side) -> u8 {
        position.home(side)
    }

    fn is_capture(flags: &Flags) -> bool {
        flags.captures
    }

    const DICE: DiceLook = DiceLook {
        word: "dice",
        counts: Glyph::new("▲", "#"),
        blank: Glyph::new("△", "."),
    };

    const HOME_WORD: &'static str = "home";

    fn throw_notes(variant: &Variant, faces: Option<Faces>, _roll: u8) -> Vec<&'static str> {
        match faces {
            Some(f) if f.marked() == 0 && variant.zero_rolls() == 4 => vec!["no marks: worth four"],
            _ => Vec::new(),
        }
    }

    /// Three rows (of eight files, or twelve on the aseb board), light's
    /// near row at the bottom; each side's line beside its own row.
    fn board(variant: &Variant, position: &Position) -> Board {
        let board = variant.board();
        let mut rows = vec![Row::label(file_letters(board))];
        for row in [3u8, 2, 1] {
            let mut cells = vec![Cell::Label(format!("  {row} "))];
            cells.extend(
                (0..board.row_width(2)).map(|file| match board.at(file, row) {
                    Some(sq) => Cell::Square {
                        at: square_number(sq),
                        piece: position.at(sq),
                        empty: if board.is_rosette(sq) { ROSETTE } else { DOT },
                    },
                    None => Cell::Gap,
                }),
            );
            let beside = match row {
                3 => Beside::Side(Side::Dark),
                1 => Beside::Side(Side::Light),
                _ => Beside::Nothing,
            };
            rows.push(Row { cells, beside });
        }
        let line = |side| SideLine {
            parts: [
                Part {
                    word: "hand",
                    count: position.hand(side),
                    pieces: true,
                },
                Part {
                    word: Self::HOME_WORD,
                    count: position.home(side),
                    pieces: false,
                },
            ],
        };
        Board {
            rows,
            sides: [line(Side::Light), line(Side::Dark)],
        }
    }

    /// A capture sends the other piece to the hand, off the board: only
    /// the mover's two squares are touched.
    fn traces(entry: &LogEntry<Ur>) -> Vec<Trace> {
        let Some(mv) = entry.mv else {
            return Vec::new();
        };
        let side = entry.side;
        [(mv.from(), TraceKind::Left), (mv.to(), TraceKind::Landed)]
            .into_iter()
            .filter_map(|(place, kind)| match place {
                Place::Square(sq) => Some(Trace {
                    at: square_number(sq),
                    side,
                    kind,
                }),
                _ => None,
            })
            .collect()
    }

    fn draw_route(variant: &Variant, side: Side, style: &Style) -> String {
        let route = variant.path();
        let mut out = format!(
            "{side}'s route ({} steps; home after step {}):\n",
            route.len(),
            route.len()
        );
        let board = variant.board();
        out.push_str(&file_letters(board));
        out.push('\n');
        for row in [3u8, 2, 1] {
            out.push_str(&format!("  {row} "));
            for file in 0..board.row_width(2) {
                let cell = board
                    .at(file, row)
                    .and_then(|sq| route.step_of(side, sq).map(|s| (sq, s)));
                match cell {
                    Some((sq, s)) if board.is_rosette(sq) => {
                        out.push_str(&format!("{s:>2}{}", style.pick("✿", "*")));
                    }
                    Some((_, s)) => out.push_str(&format!("{s:>2} ")),
                    None if board.at(file, row).is_some() => out.push_str(" - "),
                    None => out.push_str("   "),
                }
            }
            out = out.trim_end().to_owned();
            out.push('\n');
        }
        out
    }

    const PERFECT: bool = true;

    fn perfect_bot(variant: &Variant, table: Option<&Path>, input: &str) -> Result<UrBot, Failure> {
        let Some(path) = table else {
            return Err(Failure::usage(
                input,
                "perfect needs --table PATH, the table `race solve` wrote for these rules",
            ));
        };
        let table =
            ur_solve::Table::open_for(path, variant).map_err(|e| table_refusal("--table", &e))?;
        Ok(UrBot::Perfect(Arc::new(ur_solve::PerfectBot::new(table))))
    }

    /// The perfect bot counts as one above the top level.
    fn bot_level(bot: &UrBot) -> u8 {
        match bot {
            UrBot::Ladder(b) => b.level(),
            UrBot::Perfect(_) => LEVEL_TOP.saturating_add(1),
        }
    }

    fn bot_name(bot: &UrBot) -> String {
        match bot {
            UrBot::Ladder(b) => b.level().to_string(),
            UrBot::Perfect(_) => "perfect".to_owned(),
        }
    }

    fn choose(bot: &UrBot, game: &Game<Ur>) -> Option<royal_ur::Move> {
        match bot {
            UrBot::Ladder(b) => b.choose(game),
            UrBot::Perfect(b) => b.choose(game),
        }
    }

    /// The ladder's thought has the reference's fields (spec §17's
    /// `think`): `move level index depth value nodes stopped`, with
    /// `stopped` 0 or 1. The perfect bot's is `move level index value`, its
    /// value the mover's chance to win after the move.
    fn thought_json(
        bot: &UrBot,
        variant: &Variant,
        position: &Position,
        roll: u8,
    ) -> Option<Map<String, Value>> {
        let value = match bot {
            UrBot::Ladder(b) => {
                let t = b.think(variant, position, roll)?;
                json!({
                    "move": t.mv.to_string(),
                    "level": t.level,
                    "index": t.index,
                    "depth": t.depth,
                    "value": t.value,
                    "nodes": t.nodes,
                    "stopped": u8::from(t.stopped),
                })
            }
            UrBot::Perfect(b) => {
                let (mv, chance) = b.think(position, roll).ok().flatten()?;
                let index = position.legal(variant, roll).iter().position(|&m| m == mv);
                json!({
                    "move": mv.to_string(),
                    "level": "perfect",
                    "index": index,
                    "value": chance,
                })
            }
        };
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }
}
