//! Senet behind [`RaceGame`].

use std::sync::Arc;

use dice_core::{Faces, LogEntry, Notation, Rules, Side, Thought};
use senet::{
    Blockade, Flags, HOUSES, House, Move, Off30, On26, Place, Position, PositionErrorKind, Protect,
    Reach26, Senet, Variant, Water, display_entry,
};
use serde::Serialize;

use crate::catalogue::{Field, LevelNote, Preset};
use crate::encode::put;
use crate::teach::listed;
use crate::words::{DiceKind, Words};
use crate::{
    BadPosition, Board, BoardRow, Counts, Did, Direction, Inconsistent, Kind, Landing, LegalMove,
    LegendEntry, LevelWord, Mark, MarkKind, PieceView, PlaceView, Race, RaceGame, RuleLine,
    RulesBoard, Sides, SquareKind, SquareView, Tables, ThoughtView, Unsolved, Voice, Worth,
};

/// A legal Senet move as `race moves --json` gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SenetMoveView {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Where it points: a house, or `off`.
    pub to: PlaceView,
    /// Where the piece ends (the water and its rebirth, a diversion).
    pub ends: PlaceView,
    /// Whether it swaps places with an enemy piece.
    pub swap: bool,
    /// Whether it moves backward.
    pub backward: bool,
}

/// A place as JSON: the house's number, or `off`.
fn place_view(place: Place) -> PlaceView {
    match place.house() {
        Some(h) => PlaceView::Number(h.number()),
        None => PlaceView::Name("off".to_owned()),
    }
}

/// The places a move's piece passes, in order: the houses, and `off`
/// last for a move that bears off.
fn path(mv: Move) -> Vec<String> {
    let from = mv.from().number();
    let to = mv.to().house().map_or(HOUSES + 1, House::number);
    let houses: Vec<u8> = if mv.is_backward() {
        (to..from).rev().collect()
    } else {
        (from + 1..=to.min(HOUSES)).collect()
    };
    let mut path: Vec<String> = houses.iter().map(u8::to_string).collect();
    if mv.to() == Place::Off {
        path.push("off".to_owned());
    }
    path
}

/// The houses with a name of their own, and their kinds.
const SPECIAL: [(House, SquareKind); 6] = [
    (House::REBIRTH, SquareKind::Rebirth),
    (House::HAPPINESS, SquareKind::Happiness),
    (House::WATER, SquareKind::Water),
    (House::THREE_TRUTHS, SquareKind::ThreeTruths),
    (House::RE_ATOUM, SquareKind::ReAtoum),
    (House::HORUS, SquareKind::Horus),
];

/// The houses of the grid's three rows, left to right: 1..10, 20..11,
/// 21..30, and the way the track runs along each.
fn rows() -> [([u8; 10], Direction); 3] {
    let row = |house: fn(u8) -> u8| std::array::from_fn(|i| house(i as u8));
    [
        (row(|i| 1 + i), Direction::Right),
        (row(|i| 20 - i), Direction::Left),
        (row(|i| 21 + i), Direction::Off),
    ]
}

/// Whether a ply's piece went into the water: it stands there, or it fell
/// in (a move to the water or past happiness that ends elsewhere) and was
/// reborn.
fn into_water(mv: Move, ends: Option<Place>) -> bool {
    match ends {
        Some(Place::House(House::WATER)) => true,
        Some(Place::House(h)) if Some(h) != mv.to().house() => {
            mv.to().house() >= Some(House::WATER) || mv.from() >= House::HAPPINESS
        }
        _ => false,
    }
}

impl RaceGame for Senet {
    const KIND: Kind = Kind::Senet;

    const PRESETS: &'static [Preset<Variant>] = &[
        Preset {
            name: "kendall",
            variant: Variant::KENDALL,
            about: "Timothy Kendall's reconstruction: two in a row protect, three in a row block, the water sends back.",
            reference: true,
        },
        Preset {
            name: "skyruk",
            variant: Variant::SKYRUK,
            about: "The gym-senet reconstruction: two in a row block, house 26 throws again, the water holds a piece.",
            reference: true,
        },
    ];

    const FIELDS: &'static [Field] = &[
        Field {
            name: "protect",
            values: &["all", "ends"],
        },
        Field {
            name: "blockade",
            values: &["3", "2"],
        },
        Field {
            name: "reach26",
            values: &["exact", "from25"],
        },
        Field {
            name: "on26",
            values: &["none", "again"],
        },
        Field {
            name: "water",
            values: &["reborn", "stand"],
        },
        Field {
            name: "off30",
            values: &["one", "any"],
        },
        Field {
            name: "pieces",
            values: &["5", "7"],
        },
    ];

    const LEVEL_NOTES: &'static [LevelNote] = &[
        LevelNote {
            level: "1",
            name: "Beginner",
            about: "Beginner: a rule of thumb for each throw",
        },
        LevelNote {
            level: "2",
            name: "Casual",
            about: "Casual: looks one throw ahead",
        },
        LevelNote {
            level: "3",
            name: "Strong",
            about: "Strong: looks two throws ahead",
        },
        LevelNote {
            level: "4",
            name: "Expert",
            about: "Expert: looks three throws ahead",
        },
    ];

    const PERFECT: bool = false;

    /// Four sticks always move: none marked is a 5.
    const ROLL_MIN: u8 = 1;

    const WORDS: Words = Words {
        dice: "sticks",
        dice_kind: DiceKind::Sticks,
        capture: "swaps",
        home: "borne off",
    };

    const ABOUT: &'static str = "Five pieces race along thirty houses in an S. Swap a lone enemy back; rows protect and block.";

    type Solved = Unsolved;
    type MoveView = SenetMoveView;

    fn fields(variant: &Variant) -> Vec<(&'static str, String)> {
        senet::FIELDS
            .into_iter()
            .zip(variant.spelled_out().split(' ').map(|fv| {
                fv.split_once('=')
                    .map_or_else(String::new, |(_, value)| value.to_owned())
            }))
            .collect()
    }

    /// The syntax, then the two refusals spec §6 gives the text under a
    /// rule set (`pieces`, `water`).
    fn read_position(text: &str, variant: &Variant) -> Result<Position, BadPosition> {
        let bad = |kind: PositionErrorKind| BadPosition {
            text: text.to_owned(),
            code: kind.code(),
            why: kind.message(),
            number: None,
        };
        let position = Position::parse(text).map_err(|e| bad(e.kind()))?;
        match position.check(variant).err().and_then(|e| e.text_refusal()) {
            Some(kind) => Err(bad(kind)),
            None => Ok(position),
        }
    }

    fn check(variant: &Variant, position: &Position) -> Result<(), Inconsistent> {
        position.check(variant).map_err(|e| Inconsistent {
            code: e.code(),
            message: e.to_string(),
        })
    }

    fn key_text(variant: &Variant, position: &Position) -> String {
        position.key(variant).to_string()
    }

    fn legal_moves(variant: &Variant, position: &Position, roll: u8) -> Vec<LegalMove<Senet>> {
        position
            .move_infos(variant, roll)
            .map(|info| {
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
                let lands = [
                    (info.is_backward(), Landing::Backward),
                    (info.swap(), Landing::Swap),
                    (
                        info.to() == Place::House(House::HAPPINESS),
                        Landing::Happiness,
                    ),
                    (
                        info.to() == Place::House(House::WATER)
                            || into_water(info.mv(), Some(info.ends())),
                        Landing::Water,
                    ),
                    (info.ends() == Place::Off, Landing::Home),
                    (info.again(), Landing::Again),
                ]
                .into_iter()
                .filter(|&(applies, _)| applies)
                .map(|(_, landing)| landing)
                .collect();
                LegalMove {
                    mv: info.mv(),
                    path: path(info.mv()),
                    lands,
                    ends: (info.ends() != info.to()).then(|| info.ends().to_string()),
                    view: SenetMoveView {
                        mv: info.mv().to_string(),
                        to: place_view(info.to()),
                        ends: place_view(info.ends()),
                        swap: info.swap(),
                        backward: info.is_backward(),
                    },
                    notes,
                }
            })
            .collect()
    }

    fn places(mv: Move) -> (PlaceView, PlaceView) {
        (PlaceView::Number(mv.from().number()), place_view(mv.to()))
    }

    fn entry_label(entry: &LogEntry<Senet>) -> String {
        display_entry(entry)
    }

    fn did(_variant: &Variant, entry: &LogEntry<Senet>) -> Did {
        let ends = entry.flags.ends;
        let to = entry.mv.map(|m| m.to());
        Did {
            again: entry.flags.again,
            swap: entry.flags.swap,
            water: entry.mv.is_some_and(|mv| into_water(mv, ends)),
            home: ends == Some(Place::Off),
            ends: ends.filter(|&d| Some(d) != to).map(|d| d.to_string()),
            ..Did::default()
        }
    }

    fn narrate(
        _variant: &Variant,
        entry: &LogEntry<Senet>,
        faces: &dyn Fn(Faces) -> String,
    ) -> String {
        let side = entry.side;
        let sticks = entry
            .faces
            .map(|f| format!(" ({})", faces(f)))
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
                if into_water(mv, entry.flags.ends) {
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

    fn say(_variant: &Variant, entry: &LogEntry<Senet>, voice: Voice) -> String {
        let who = voice.who();
        let roll = entry.roll;
        let worth = if entry.faces.is_some_and(|f| f.marked() == 0) {
            " (no light face up: worth five)"
        } else {
            ""
        };
        let again = if entry.flags.again || senet::throws_again(roll) {
            format!("; {}", voice.throws_again())
        } else {
            String::new()
        };
        let Some(mv) = entry.mv else {
            let pass = if again.is_empty() {
                ", so the sticks pass"
            } else {
                ""
            };
            return format!("{who} threw {roll}{worth}: no piece can move {roll}{pass}{again}.");
        };
        let from = mv.from();
        let mut text = match mv.to() {
            Place::Off => format!("{who} threw {roll}{worth} and bore the piece on {from} off"),
            Place::House(to) if mv.is_backward() => {
                format!("{who} threw {roll}{worth} and moved {from} back to {to}")
            }
            Place::House(to) => format!("{who} threw {roll}{worth} and moved {from} to {to}"),
        };
        if entry.flags.swap {
            text.push_str(&format!(
                ", swapping with {} there, which goes to {from}",
                voice.their_piece()
            ));
        }
        match entry.flags.ends {
            Some(Place::Off) if mv.to() != Place::Off => text.push_str(", bearing it off"),
            Some(Place::House(House::WATER)) => {
                text.push_str(", into the water, where it stands");
            }
            Some(Place::House(h)) if Some(h) != mv.to().house() => {
                if into_water(mv, entry.flags.ends) {
                    text.push_str(&format!(": it fell into the water and is reborn on {h}"));
                } else {
                    text.push_str(&format!(", ending on {h}"));
                }
            }
            _ => {}
        }
        text.push_str(&again);
        text.push('.');
        text
    }

    fn how_to(variant: &Variant) -> Vec<RuleLine> {
        let start = Senet::board(variant, &Position::start(variant, Side::Light));
        let houses = |side: Side| {
            let on: Vec<String> = start
                .pieces
                .iter()
                .filter(|p| p.side == side)
                .map(|p| p.square.clone())
                .collect();
            listed(&on)
        };
        let pieces = variant.pieces.count();
        let protect = if variant.protect == Protect::Ends {
            "the first and last piece of two or more in a row are protected"
        } else {
            "two or more of a side's pieces in a row protect each other"
        };
        let block = if variant.blockade == Blockade::Two {
            "two"
        } else {
            "three"
        };
        let reach = if variant.reach26 == Reach26::From25 {
            "by the exact throw, or from 25 on any throw"
        } else {
            "by the exact throw"
        };
        let on26 = if variant.on26 == On26::Again {
            " Reaching 26 earns one more throw, for that piece."
        } else {
            ""
        };
        let water = if variant.water == Water::Stand {
            "From 26 a throw of 1 goes into the water (27), and so does a move to a taken 28, 29 or 30: the piece stands there until a later 1, 2 or 3 sends it to be reborn on 15, or a 4 bears it off."
        } else {
            "From 26 a throw of 1 falls into the water (27): the piece is reborn on 15, or the first free house before it."
        };
        let thirty = if variant.off30 == Off30::Any {
            "30 on any throw"
        } else {
            "30 on exactly 1"
        };
        vec![
            RuleLine::new(
                "Goal",
                format!(
                    "Bear all {pieces} of your pieces off the board before the other side does."
                ),
            ),
            RuleLine::new(
                "Sticks",
                "Four sticks, light on one face: a throw counts the light faces up, 1 to 4, and none up counts 5. A throw of 1, 4 or 5 throws again.",
            ),
            RuleLine::new(
                "Start",
                format!(
                    "The pieces start on the first houses: light on {}, dark on {}.",
                    houses(Side::Light),
                    houses(Side::Dark)
                ),
            ),
            RuleLine::new(
                "Route",
                "Both sides run the same track in an S: 1 to 10 left to right, 11 to 20 back right to left, 21 to 30 left to right, then off.",
            ),
            RuleLine::new(
                "Moving",
                "Each throw moves one piece that many houses forward. Only when no piece can move forward may one before 26 move back instead; with no move at all the turn is lost.",
            ),
            RuleLine::new(
                "Swaps",
                format!(
                    "Landing on a lone enemy piece swaps the two: it goes to the house the mover left. But {protect}, and {block} in a row block: no enemy passes them."
                ),
            ),
            RuleLine::new(
                "House 26",
                format!(
                    "No piece passes the house of happiness (26) without standing on it, and it is reached {reach}.{on26}"
                ),
            ),
            RuleLine::new("The water", water),
            RuleLine::new(
                "Bearing off",
                format!(
                    "From 26 a 5 bears a piece off; from 28 on exactly 3, from 29 on exactly 2, from {thirty}."
                ),
            ),
            RuleLine::new("First throw", "Light throws first."),
        ]
    }

    fn legend(variant: &Variant) -> Vec<LegendEntry> {
        let entry =
            |house: House, kind: SquareKind, name: &'static str, about: String| LegendEntry {
                kind,
                squares: vec![house.to_string()],
                name,
                about,
            };
        let water = if variant.water == Water::Stand {
            "a piece stands here until a later throw takes it on"
        } else {
            "a piece that falls in is reborn on 15 at once"
        };
        let thirty = if variant.off30 == Off30::Any {
            "Bears off on any throw."
        } else {
            "Bears off on exactly 1."
        };
        vec![
            entry(
                House::REBIRTH,
                SquareKind::Rebirth,
                "the house of rebirth",
                "Where a piece from the water is reborn (or the first free house before it)."
                    .to_owned(),
            ),
            entry(
                House::HAPPINESS,
                SquareKind::Happiness,
                "the house of happiness",
                "Every piece must stand here before going on; from here a 5 bears off.".to_owned(),
            ),
            entry(
                House::WATER,
                SquareKind::Water,
                "the water",
                format!("The water: {water}."),
            ),
            entry(
                House::THREE_TRUTHS,
                SquareKind::ThreeTruths,
                "the house of three truths",
                "Bears off on exactly 3.".to_owned(),
            ),
            entry(
                House::RE_ATOUM,
                SquareKind::ReAtoum,
                "the house of Re-Atoum",
                "Bears off on exactly 2.".to_owned(),
            ),
            entry(
                House::HORUS,
                SquareKind::Horus,
                "the house of Horus",
                thirty.to_owned(),
            ),
        ]
    }

    fn throw_notes(_variant: &Variant, faces: Option<Faces>, roll: u8) -> Vec<String> {
        let mut notes = Vec::new();
        if faces.is_some_and(|f| f.marked() == 0) {
            notes.push("no marks: worth five".to_owned());
        }
        if senet::throws_again(roll) {
            notes.push("throws again".to_owned());
        }
        notes
    }

    fn home(variant: &Variant, position: &Position, side: Side) -> u8 {
        position.home(side, variant)
    }

    fn is_capture(flags: &Flags) -> bool {
        flags.swap
    }

    /// Three rows of ten houses, the track running right, back left, then
    /// right and off.
    fn board(variant: &Variant, position: &Position) -> Board {
        let mut squares = Vec::new();
        for (y, (row, _)) in (0u8..).zip(rows()) {
            for (x, number) in (0u8..).zip(row) {
                let kind = SPECIAL
                    .iter()
                    .find(|(h, _)| h.number() == number)
                    .map_or(SquareKind::Plain, |&(_, kind)| kind);
                squares.push(SquareView {
                    name: number.to_string(),
                    number,
                    column: x,
                    row: y,
                    kind,
                });
            }
        }
        squares.sort_by_key(|s| s.number);
        let track: Vec<String> = House::ALL.iter().map(ToString::to_string).collect();
        Board {
            columns: 10,
            files: Vec::new(),
            rows: rows()
                .into_iter()
                .map(|(_, direction)| BoardRow {
                    label: None,
                    near: None,
                    direction: Some(direction),
                })
                .collect(),
            squares,
            routes: Sides::new(|_| track.clone()),
            pieces: House::ALL
                .into_iter()
                .filter_map(|h| {
                    Some(PieceView {
                        square: h.to_string(),
                        number: h.number(),
                        side: position.at(h)?,
                    })
                })
                .collect(),
            counts: Sides::new(|side| Counts {
                hand: None,
                on_board: position.on_board(side),
                home: position.home(side, variant),
            }),
        }
    }

    /// The mover leaves its house and lands where the move ends; a swapped
    /// piece lands on the house the mover left.
    fn marks(entry: &LogEntry<Senet>) -> Vec<Mark> {
        let Some(mv) = entry.mv else {
            return Vec::new();
        };
        let side = entry.side;
        let from = mv.from().number();
        let mut marks = vec![if entry.flags.swap {
            Mark {
                number: from,
                side: side.other(),
                kind: MarkKind::Landed,
            }
        } else {
            Mark {
                number: from,
                side,
                kind: MarkKind::Left,
            }
        }];
        if let Some(Place::House(h)) = entry.flags.ends {
            marks.push(Mark {
                number: h.number(),
                side,
                kind: MarkKind::Landed,
            });
        }
        marks
    }

    /// A piece on house `h` has `31 - h` steps to go to bear off.
    fn race(_variant: &Variant, position: &Position) -> Race {
        let mut race = Race::default();
        for house in House::ALL {
            let to_go = u32::from(senet::HOUSES + 1 - house.number());
            match position.at(house) {
                Some(Side::Light) => race.light += to_go,
                Some(Side::Dark) => race.dark += to_go,
                None => {}
            }
        }
        race
    }

    fn route_heading(_variant: &Variant, _side: Side) -> String {
        "the track runs 1 to 10, back 11 to 20, then 21 to 30 and off:".to_owned()
    }

    fn rules_board(variant: &Variant) -> RulesBoard {
        RulesBoard::Senet {
            houses: senet::HOUSES,
            special: SPECIAL
                .iter()
                .filter_map(|&(h, kind)| Some((h.number(), kind.name()?)))
                .collect(),
            pieces: variant.piece_count(),
            sticks: <Senet as Rules>::dice(variant),
        }
    }

    /// `move level index depth value nodes`, the value 0 when the bot did
    /// not search.
    fn ladder_thought(t: Thought<Move>) -> ThoughtView {
        ThoughtView {
            mv: t.mv.to_string(),
            level: LevelWord::Number(t.level),
            index: Some(t.index),
            depth: Some(t.depth),
            value: Worth::Score(Some(t.value.unwrap_or(0))),
            nodes: Some(t.nodes),
            stopped: None,
        }
    }

    fn solved_in(_tables: &Tables, _variant: &Variant) -> Option<Arc<Unsolved>> {
        None
    }

    fn solved_rules(_tables: &Tables) -> Vec<String> {
        Vec::new()
    }

    fn action_count(_variant: &Variant) -> usize {
        usize::from(HOUSES)
    }

    fn action(_variant: &Variant, _position: &Position, mv: Move) -> usize {
        usize::from(mv.from().number().saturating_sub(1))
    }

    fn observation_len(_variant: &Variant) -> usize {
        2 * usize::from(HOUSES) + 4
    }

    fn observe(variant: &Variant, position: &Position, roll: Option<u8>, out: &mut [f32]) {
        out.fill(0.0);
        let me = position.side();
        let houses = usize::from(HOUSES);
        for (i, house) in House::ALL.into_iter().enumerate() {
            match position.at(house) {
                Some(side) if side == me => put(out, i, 1.0),
                Some(_) => put(out, houses + i, 1.0),
                None => {}
            }
        }
        let pieces = f32::from(variant.piece_count().max(1));
        put(
            out,
            2 * houses,
            f32::from(position.home(me, variant)) / pieces,
        );
        put(
            out,
            2 * houses + 1,
            f32::from(position.home(me.other(), variant)) / pieces,
        );
        put(
            out,
            2 * houses + 2,
            f32::from(roll.unwrap_or(0)) / f32::from(Senet::max_roll(variant)),
        );
        put(out, 2 * houses + 3, f32::from(u8::from(me == Side::Light)));
    }

    fn any_move(bits: u64) -> Option<Move> {
        let from = House::new((bits % 30) as u8 + 1)?;
        let to = match (bits >> 8) % 31 {
            30 => Place::Off,
            h => Place::House(House::new(h as u8 + 1)?),
        };
        // A move to its own house is not a move at all; it becomes one no
        // roll allows either: off from 1..25 (never the roll's place), or
        // one house back from 26..30 (where nothing moves backward).
        let to = match to.house() {
            Some(h) if h == from && h < House::HAPPINESS => Place::Off,
            Some(h) if h == from => Place::House(House::new(h.number() - 1)?),
            _ => to,
        };
        Move::new(from, to).ok()
    }
}
