//! Senet behind [`Engine`].

use dice_core::{Faces, Game, LogEntry, Side};
use senet::{Bot, Flags, House, Move, MoveInfo, Place, Position, Senet, Variant, display_entry};
use serde_json::{Map, Value, json};

use crate::engine::Engine;
use crate::error::Refused;
use crate::style::{Paint, Style};

fn piece(side: Side, style: &Style) -> String {
    match side {
        Side::Light => style.paint(style.pick("○", "L"), Paint::Light),
        Side::Dark => style.paint(style.pick("●", "D"), Paint::Dark),
    }
}

fn house_glyph(house: u8, style: &Style) -> &'static str {
    match house {
        15 => style.pick("☥", "@"),
        26 => style.pick("☆", "!"),
        27 => style.pick("≈", "~"),
        28 => style.pick("Ⅲ", "3"),
        29 => style.pick("Ⅱ", "2"),
        30 => style.pick("Ⅰ", "1"),
        _ => style.pick("·", "."),
    }
}

fn sticks_text(faces: Faces, style: &Style) -> String {
    (0..faces.len())
        .map(|i| {
            if faces.die(i) {
                style.pick("▯", "|")
            } else {
                style.pick("▮", "-")
            }
        })
        .collect()
}

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
            .map(|f| format!(" ({})", sticks_text(f, style)))
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

    fn draw(
        variant: &Variant,
        position: &Position,
        last: &[LogEntry<Senet>],
        style: &Style,
    ) -> String {
        let mut left = [false; 32];
        let mut landed = [false; 32];
        for entry in last {
            if let Some(mv) = entry.mv {
                left[usize::from(mv.from().number())] = true;
                if let Some(Place::House(h)) = entry.flags.ends {
                    landed[usize::from(h.number())] = true;
                }
            }
        }
        let arrows = [
            style.pick("→", ">"),
            style.pick("←", "<"),
            style.pick("→ off", "> off"),
        ];
        let mut out = String::new();
        for (r, row) in rows().iter().enumerate() {
            let numbers: String = row.iter().map(|h| format!("{h:>2} ")).collect();
            out.push_str(&style.paint(&format!("  {}", numbers.trim_end()), Paint::Dim));
            out.push('\n');
            out.push_str("  ");
            for &h in row {
                let glyph = match House::new(h).and_then(|h| position.at(h)) {
                    Some(side) => piece(side, style),
                    None => style.paint(house_glyph(h, style), Paint::Dim),
                };
                let (l, r) = if landed[usize::from(h)] {
                    ("[", "]")
                } else if left[usize::from(h)] {
                    ("(", ")")
                } else {
                    (" ", " ")
                };
                let (l, r) = if l == " " {
                    (l.to_owned(), r.to_owned())
                } else {
                    (style.paint(l, Paint::Mark), style.paint(r, Paint::Mark))
                };
                out.push_str(&format!("{l}{glyph}{r}"));
            }
            out.push_str(&format!("  {}\n", arrows[r]));
        }
        for side in Side::ALL {
            let off = position.home(side, variant);
            let glyphs: String = (0..off).map(|_| piece(side, style)).collect();
            out.push_str(&format!(
                "  {:<5} on the board {}, off {off} {glyphs}",
                side.as_str(),
                position.on_board(side)
            ));
            out = out.trim_end().to_owned();
            out.push('\n');
        }
        let marks: Vec<String> = last
            .iter()
            .filter(|e| e.mv.is_some())
            .map(|e| format!("{} {}", e.side, Self::entry_label(e)))
            .collect();
        if !marks.is_empty() {
            out.push_str(&format!("  last: {}\n", marks.join(", ")));
        }
        out
    }

    fn draw_throw(_variant: &Variant, faces: Option<Faces>, roll: u8, style: &Style) -> String {
        let again = if senet::throws_again(roll) {
            " (throws again)"
        } else {
            ""
        };
        match faces {
            Some(f) => format!("sticks {}  roll {roll}{again}", sticks_text(f, style)),
            None => format!("roll {roll}{again}"),
        }
    }

    fn draw_route(variant: &Variant, _side: Side, style: &Style) -> String {
        let mut out =
            String::from("the track runs 1 to 10, back 11 to 20, then 21 to 30 and off:\n");
        let empty = Position::empty(Side::Light);
        out.push_str(
            &Self::draw(variant, &empty, &[], style)
                .lines()
                .take(6)
                .collect::<Vec<_>>()
                .join("\n"),
        );
        out.push('\n');
        out.push_str(&format!(
            "  {} 15 rebirth  {} 26 happiness  {} 27 water  {} 28 three truths  {} 29 re-atoum  {} 30 horus\n",
            house_glyph(15, style),
            house_glyph(26, style),
            house_glyph(27, style),
            house_glyph(28, style),
            house_glyph(29, style),
            house_glyph(30, style),
        ));
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
