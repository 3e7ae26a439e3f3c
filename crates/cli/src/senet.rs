//! Senet behind [`Engine`].

use dice_core::{Faces, Game, LogEntry, Side};
use senet::{Bot, Flags, House, Move, MoveInfo, Place, Position, Senet, Variant, display_entry};
use serde_json::{Map, Value, json};

use crate::engine::Engine;
use crate::error::Refused;
use crate::render::{
    self, Beside, Board, Cell, DiceLook, Glyph, Part, Row, SideLine, Trace, TraceKind,
};
use crate::style::Style;

/// An empty house's glyph: the special houses have their own.
fn house_glyph(house: u8) -> Glyph {
    SPECIAL
        .iter()
        .find(|(h, ..)| h.number() == house)
        .map_or(Glyph::new("·", "."), |&(_, glyph, _)| glyph)
}

/// The special houses: their glyphs and names.
const SPECIAL: [(House, Glyph, &str); 6] = [
    (House::REBIRTH, Glyph::new("☥", "@"), "rebirth"),
    (House::HAPPINESS, Glyph::new("☆", "!"), "happiness"),
    (House::WATER, Glyph::new("≈", "~"), "water"),
    (House::THREE_TRUTHS, Glyph::new("Ⅲ", "3"), "three truths"),
    (House::RE_ATOUM, Glyph::new("Ⅱ", "2"), "re-atoum"),
    (House::HORUS, Glyph::new("Ⅰ", "1"), "horus"),
];

/// A place as JSON: the house's number, or `"off"`.
fn place_json(place: Place) -> Value {
    match place.house() {
        Some(h) => json!(h.number()),
        None => json!("off"),
    }
}

/// The houses of the three rows in drawing order: 1..10, 20..11, 21..30.
fn rows() -> [[u8; 10]; 3] {
    let mut rows = [[0u8; 10]; 3];
    for i in 0..10u8 {
        rows[0][usize::from(i)] = 1 + i;
        rows[1][usize::from(i)] = 20 - i;
        rows[2][usize::from(i)] = 21 + i;
    }
    rows
}

impl Engine for Senet {
    const CMD: &'static str = "senet";
    const CAPTURE_WORD: &'static str = "swaps";
    /// Four sticks always move: none marked is a 5.
    const ROLL_MIN: u8 = 1;

    type Bot = Bot;
    type MoveInfo = MoveInfo;

    fn named_variants() -> Vec<Variant> {
        vec![Variant::KENDALL, Variant::SKYRUK]
    }

    fn parse_position(text: &str, variant: &Variant, input: &str) -> Result<Position, Refused> {
        Position::parse(text, variant).map_err(|e| {
            Refused::new(
                input,
                e.code(),
                format!("{text:?} is not a position: {}", e.kind().message()),
            )
            .detail("text", text)
        })
    }

    fn inconsistency(variant: &Variant, position: &Position) -> Option<(&'static str, String)> {
        position
            .check(variant)
            .err()
            .map(|e| (e.code(), e.to_string()))
    }

    fn places_json(mv: Move) -> (Value, Value) {
        (json!(mv.from().number()), place_json(mv.to()))
    }

    fn position_text(position: &Position) -> String {
        position.to_string()
    }

    fn key_text(position: &Position, variant: &Variant) -> String {
        position.key(variant).to_string()
    }

    fn move_infos(variant: &Variant, position: &Position, roll: u8) -> Vec<MoveInfo> {
        position.move_infos(variant, roll).collect()
    }

    fn move_json(info: &MoveInfo) -> Value {
        json!({
            "move": info.mv().to_string(),
            "to": place_json(info.to()),
            "ends": place_json(info.ends()),
            "swap": info.swap(),
            "backward": info.is_backward(),
        })
    }

    fn move_of(info: &MoveInfo) -> Move {
        info.mv()
    }

    fn move_notes(info: &MoveInfo) -> Vec<String> {
        let mut notes = Vec::new();
        if info.is_backward() {
            notes.push("backward".to_owned());
        }
        if info.swap() {
            notes.push("swaps".to_owned());
        }
        if info.ends() != info.to() {
            notes.push(format!("ends on {}", info.ends()));
        } else if info.ends() == Place::Off {
            notes.push("bears off".to_owned());
        }
        if info.again() {
            notes.push("throws again".to_owned());
        }
        notes
    }

    fn entry_label(entry: &LogEntry<Senet>) -> String {
        display_entry(entry)
    }

    fn narrate(_variant: &Variant, entry: &LogEntry<Senet>, style: &Style) -> String {
        let side = entry.side;
        let sticks = entry
            .faces
            .map(|f| format!(" ({})", render::faces(f, &Self::DICE, style)))
            .unwrap_or_default();
        let again = if entry.flags.again || senet::throws_again(entry.roll) {
            format!("; {side} throws again")
        } else {
            String::new()
        };
        let Some(mv) = entry.mv else {
            let pass = if again.is_empty() {
                "; the sticks pass"
            } else {
                ""
            };
            return format!(
                "{side} throws {}{sticks} and has no move{again}{pass}.",
                entry.roll
            );
        };
        let mut text = format!("{side} throws {}{sticks} and plays {mv}", entry.roll);
        if mv.is_backward() {
            text.push_str(", backward");
        }
        if entry.flags.swap {
            text.push_str(&format!(
                ", swapping with the {} piece, which goes to {}",
                side.other(),
                mv.from()
            ));
        }
        match entry.flags.ends {
            Some(Place::Off) => text.push_str(", bearing the piece off"),
            Some(Place::House(House::WATER)) => {
                text.push_str(", into the water, where it stands");
            }
            Some(Place::House(h)) if Some(h) != mv.to().house() => {
                if mv.to().house() >= Some(House::WATER) || mv.from() >= House::HAPPINESS {
                    text.push_str(&format!(", falls into the water and is reborn on {h}"));
                } else {
                    text.push_str(&format!(" and ends on {h}"));
                }
            }
            _ => {}
        }
        text.push_str(&again);
        text.push('.');
        text
    }

    fn home(variant: &Variant, position: &Position, side: Side) -> u8 {
        position.home(side, variant)
    }

    fn is_capture(flags: &Flags) -> bool {
        flags.swap
    }

    const DICE: DiceLook = DiceLook {
        word: "sticks",
        counts: Glyph::new("▮", "#"),
        blank: Glyph::new("▯", "."),
    };

    const HOME_WORD: &'static str = "borne off";

    fn throw_notes(_variant: &Variant, faces: Option<Faces>, roll: u8) -> Vec<&'static str> {
        let mut notes = Vec::new();
        if faces.is_some_and(|f| f.marked() == 0) {
            notes.push("no marks: worth five");
        }
        if senet::throws_again(roll) {
            notes.push("throws again");
        }
        notes
    }

    /// Three rows of ten houses, each under its numbers, the track running
    /// right, back left, then right and off; the sides' lines below.
    fn board(variant: &Variant, position: &Position) -> Board {
        const ARROWS: [Glyph; 3] = [
            Glyph::new("→", ">"),
            Glyph::new("←", "<"),
            Glyph::new("→ off", "> off"),
        ];
        let mut out = Vec::new();
        for (row, arrow) in rows().iter().zip(ARROWS) {
            let numbers: String = row.iter().map(|h| format!("{h:>2} ")).collect();
            out.push(Row::label(format!("  {}", numbers.trim_end())));
            let mut cells = vec![Cell::Label("  ".to_owned())];
            cells.extend(row.iter().map(|&h| Cell::Square {
                at: h,
                piece: House::new(h).and_then(|h| position.at(h)),
                empty: house_glyph(h),
            }));
            out.push(Row {
                cells,
                beside: Beside::Note(arrow),
            });
        }
        let line = |side| SideLine {
            parts: [
                Part {
                    word: "on the board",
                    count: position.on_board(side),
                    pieces: false,
                },
                Part {
                    word: Self::HOME_WORD,
                    count: position.home(side, variant),
                    pieces: true,
                },
            ],
        };
        Board {
            rows: out,
            sides: [line(Side::Light), line(Side::Dark)],
        }
    }

    /// The mover leaves its house and lands where the move ends; a swapped
    /// piece lands on the house the mover left.
    fn traces(entry: &LogEntry<Senet>) -> Vec<Trace> {
        let Some(mv) = entry.mv else {
            return Vec::new();
        };
        let side = entry.side;
        let from = mv.from().number();
        let mut traces = vec![if entry.flags.swap {
            Trace {
                at: from,
                side: side.other(),
                kind: TraceKind::Landed,
            }
        } else {
            Trace {
                at: from,
                side,
                kind: TraceKind::Left,
            }
        }];
        if let Some(Place::House(h)) = entry.flags.ends {
            traces.push(Trace {
                at: h.number(),
                side,
                kind: TraceKind::Landed,
            });
        }
        traces
    }

    fn draw_route(variant: &Variant, _side: Side, style: &Style) -> String {
        let mut out =
            String::from("the track runs 1 to 10, back 11 to 20, then 21 to 30 and off:\n");
        let empty = Position::empty(Side::Light);
        out.push_str(&render::grid_text(&Self::board(variant, &empty), style));
        let legend: Vec<String> = SPECIAL
            .iter()
            .map(|(house, glyph, name)| format!("{} {} {name}", glyph.pick(style), house.number()))
            .collect();
        out.push_str(&format!("  {}\n", legend.join("  ")));
        out.push_str(&format!("  rules: {variant}\n"));
        out
    }

    fn bot_level(bot: &Bot) -> u8 {
        bot.level()
    }

    fn choose(bot: &Bot, game: &Game<Senet>) -> Option<Move> {
        bot.choose(game)
    }

    /// The fields of Senet's thought: `move level index depth value nodes`,
    /// the value 0 when the bot did not search.
    fn thought_json(
        bot: &Bot,
        variant: &Variant,
        position: &Position,
        roll: u8,
    ) -> Option<Map<String, Value>> {
        let t = bot.think(variant, position, roll)?;
        let fields = json!({
            "move": t.mv.to_string(),
            "level": t.level,
            "index": t.index,
            "depth": t.depth,
            "value": t.value.unwrap_or(0),
            "nodes": t.nodes,
        });
        match fields {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }
}
