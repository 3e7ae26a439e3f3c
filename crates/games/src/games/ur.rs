//! The Royal Game of Ur behind [`RaceGame`].

use std::collections::BTreeMap;
use std::sync::Arc;

use dice_core::{Faces, LogEntry, Side, Thought};
use royal_ur::{
    BoardShape, CELLS, Flags, Move, Place, Position, Square, Ur, Variant, display_entry,
};
use serde::Serialize;
use ur_solve::{PerfectBot, Table, WinChances as _};

use crate::catalogue::{Field, LevelNote, Preset};
use crate::encode::put;
use crate::teach::listed;
use crate::words::{DiceKind, Words, number_word};
use crate::{
    BadPosition, Board, BoardRow, Counts, Did, Inconsistent, Kind, Landing, LegalMove, LegendEntry,
    LevelWord, Mark, MarkKind, PieceView, PlaceView, Race, RaceGame, RuleLine, RulesBoard, Sides,
    SquareKind, SquareView, Tables, ThoughtView, Voice, Worth,
};

/// A legal Royal Game of Ur move as `race moves --json` gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UrMoveView {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its display form with what it does (`a2-d2x*`).
    pub display: String,
    /// Whether it captures.
    pub captures: bool,
    /// Whether it lands on a rosette.
    pub rosette: bool,
    /// Whether it brings the piece home.
    pub home: bool,
}

/// A place in words, for a sentence.
fn place_words(place: Place) -> String {
    match place {
        Place::Hand => "the hand".to_owned(),
        Place::Home => "home".to_owned(),
        Place::Square(sq) => sq.name().to_owned(),
    }
}

/// A square's number on the board data: its cell.
fn square_number(sq: Square) -> u8 {
    // At most 26 cells (the aseb board's): the number fits.
    sq.cell() as u8
}

/// The grid's rows, top first: the board's rows 3, 2 and 1.
const ROWS: [u8; 3] = [3, 2, 1];

impl RaceGame for Ur {
    const KIND: Kind = Kind::Ur;

    const PRESETS: &'static [Preset<Variant>] = &[
        Preset {
            name: "finkel",
            variant: Variant::FINKEL,
            about: "Irving Finkel's rules: four dice, rosettes are safe, a throw of nothing loses the turn.",
            reference: true,
        },
        Preset {
            name: "masters",
            variant: Variant::MASTERS,
            about: "Masters rules: three dice, a throw of nothing counts 4, the long route, rosettes are not safe.",
            reference: true,
        },
        Preset {
            name: "blitz",
            variant: Variant::BLITZ,
            about: "Blitz: five pieces, four dice, the long route, rosettes are not safe, and a capture throws again too.",
            reference: false,
        },
        Preset {
            name: "aseb",
            variant: Variant::ASEB,
            about: "Aseb: the long board of twelve middle squares, five pieces, four dice, rosettes are safe.",
            reference: false,
        },
        Preset {
            name: "finkel2p",
            variant: Variant::FINKEL2P,
            about: "Finkel's rules with two pieces a side: a short game.",
            reference: false,
        },
        Preset {
            name: "masters4d",
            variant: Variant::MASTERS4D,
            about: "Masters rules with four dice, a throw of nothing losing the turn.",
            reference: false,
        },
    ];

    /// Every field but the board, which follows the path (the aseb path is
    /// played on the aseb board, the others on the standard one).
    const FIELDS: &'static [Field] = &[
        Field {
            name: "path",
            values: &["bell", "masters", "murray", "skiriuk", "aseb"],
        },
        Field {
            name: "dice",
            values: &["4", "3", "2", "1", "5", "6", "7", "8"],
        },
        Field {
            name: "zero_rolls",
            values: &["0", "4", "5", "2", "3", "6", "7", "8", "9"],
        },
        Field {
            name: "safe_rosettes",
            values: &["1", "0"],
        },
        Field {
            name: "rosette_again",
            values: &["1", "0"],
        },
        Field {
            name: "capture_again",
            values: &["0", "1"],
        },
        Field {
            name: "pieces",
            values: &["7", "6", "5", "4", "3", "2", "1"],
        },
    ];

    const LEVEL_NOTES: &'static [LevelNote] = &[
        LevelNote {
            level: "1",
            name: "Beginner",
            about: "Beginner: grabs captures and rosettes when it sees them",
        },
        LevelNote {
            level: "2",
            name: "Casual",
            about: "Casual: looks two moves ahead",
        },
        LevelNote {
            level: "3",
            name: "Strong",
            about: "Strong: looks three moves ahead",
        },
        LevelNote {
            level: "4",
            name: "Expert",
            about: "Expert: looks four moves ahead",
        },
        LevelNote {
            level: "perfect",
            name: "Perfect",
            about: "Perfect: plays the solved game's best move every time",
        },
    ];

    const PERFECT: bool = true;

    /// A throw of nothing moves nothing under finkel's dice (a roll is 0
    /// to 4).
    const ROLL_MIN: u8 = 0;

    const WORDS: Words = Words {
        dice: "dice",
        dice_kind: DiceKind::Pyramids,
        capture: "captures",
        home: "home",
    };

    const ABOUT: &'static str = "Seven pieces race over twenty squares. Rosettes throw again; landing on an enemy sends it back.";

    type Solved = PerfectBot<Table>;
    type MoveView = UrMoveView;

    fn fields(variant: &Variant) -> Vec<(&'static str, String)> {
        variant.fields().into()
    }

    /// The rule set's text: the aseb board's rows, or second visits on
    /// murray's and skiriuk's paths.
    fn read_position(text: &str, variant: &Variant) -> Result<Position, BadPosition> {
        Position::parse_for(text, variant).map_err(|e| BadPosition {
            text: text.to_owned(),
            code: e.code(),
            why: e.kind().message(),
            number: Some(e.number()),
        })
    }

    fn check(variant: &Variant, position: &Position) -> Result<(), Inconsistent> {
        position.check(variant).map_err(|e| Inconsistent {
            code: e.code(),
            message: e.to_string(),
        })
    }

    fn key_text(variant: &Variant, position: &Position) -> String {
        position.key_text(variant)
    }

    fn legal_moves(variant: &Variant, position: &Position, roll: u8) -> Vec<LegalMove<Ur>> {
        let route = variant.path();
        position
            .move_infos(variant, roll)
            .map(|info| LegalMove {
                mv: info.mv(),
                view: UrMoveView {
                    mv: info.mv().to_string(),
                    display: info.to_string(),
                    captures: info.captures(),
                    rosette: info.rosette(),
                    home: info.home(),
                },
                notes: [
                    (info.captures(), "captures"),
                    (info.rosette(), "rosette, throws again"),
                    (info.home(), "home"),
                    (info.from() == Place::Hand, "enters"),
                ]
                .into_iter()
                .filter(|&(applies, _)| applies)
                .map(|(_, note)| note.to_owned())
                .collect(),
                path: (info.from_step() + 1..=info.to_step())
                    .map(|step| {
                        route
                            .square(info.side(), step)
                            .map_or_else(|| "home".to_owned(), |sq| sq.name().to_owned())
                    })
                    .collect(),
                lands: [
                    (info.from() == Place::Hand, Landing::Enter),
                    (info.captures(), Landing::Capture),
                    (info.rosette(), Landing::Rosette),
                    (info.home(), Landing::Home),
                    (variant.throws_again(info.flags()), Landing::Again),
                ]
                .into_iter()
                .filter(|&(applies, _)| applies)
                .map(|(_, landing)| landing)
                .collect(),
                ends: None,
            })
            .collect()
    }

    fn places(mv: Move) -> (PlaceView, PlaceView) {
        (
            PlaceView::Name(mv.from().to_string()),
            PlaceView::Name(mv.to().to_string()),
        )
    }

    fn entry_label(entry: &LogEntry<Ur>) -> String {
        display_entry(entry)
    }

    fn did(variant: &Variant, entry: &LogEntry<Ur>) -> Did {
        Did {
            again: variant.throws_again(entry.flags),
            capture: entry.flags.captures,
            rosette: entry.flags.rosette,
            home: entry.flags.home,
            ..Did::default()
        }
    }

    fn narrate(variant: &Variant, entry: &LogEntry<Ur>, faces: &dyn Fn(Faces) -> String) -> String {
        let side = entry.side;
        let drawn = entry
            .faces
            .map(|f| format!(" ({})", faces(f)))
            .unwrap_or_default();
        let worth: String = Ur::throw_notes(variant, entry.faces, entry.roll)
            .iter()
            .map(|note| format!(", {note}"))
            .collect();
        let Some(mv) = entry.mv else {
            return if entry.roll == 0 {
                format!("{side} rolls 0{drawn} and loses the turn.")
            } else {
                format!(
                    "{side} rolls {}{drawn}{worth} but has no move: the turn is lost.",
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
            "{side} rolls {}{drawn}{worth} and {action} ({mv})",
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

    fn say(variant: &Variant, entry: &LogEntry<Ur>, voice: Voice) -> String {
        let who = voice.who();
        let worth: String = Ur::throw_notes(variant, entry.faces, entry.roll)
            .iter()
            .map(|note| format!(" ({note})"))
            .collect();
        let roll = entry.roll;
        let Some(mv) = entry.mv else {
            return if roll == 0 {
                format!(
                    "{who} threw nothing: a throw of nothing moves no piece, so the turn is lost."
                )
            } else {
                format!("{who} threw {roll}{worth}: no piece can move {roll}, so the turn is lost.")
            };
        };
        let mut text = match (mv.from(), mv.to()) {
            (Place::Hand, to) => format!(
                "{who} threw {roll}{worth} and entered a piece on {}",
                place_words(to)
            ),
            (from, Place::Home) => {
                format!(
                    "{who} threw {roll}{worth} and brought the piece on {} home",
                    place_words(from)
                )
            }
            (from, to) => format!(
                "{who} threw {roll}{worth} and moved {} to {}",
                place_words(from),
                place_words(to)
            ),
        };
        if entry.flags.rosette {
            text.push_str(", a rosette");
        }
        if entry.flags.captures {
            text.push_str(&format!(
                ", taking {} there: it goes back to {}",
                voice.their_piece(),
                voice.their_hand()
            ));
        }
        if variant.throws_again(entry.flags) {
            text.push_str(&format!("; {}", voice.throws_again()));
        }
        text.push('.');
        text
    }

    fn how_to(variant: &Variant) -> Vec<RuleLine> {
        let dice = variant.dice();
        let path = variant.path();
        let steps = path.len();
        let pieces = variant.pieces();
        let zero = match variant.zero_rolls() {
            0 => "a throw of nothing loses the turn".to_owned(),
            n => format!("a throw of nothing counts {n}"),
        };
        let route = |side: Side| {
            let names: Vec<String> = path
                .squares(side)
                .into_iter()
                .map(|sq| sq.name().to_owned())
                .collect();
            names.join(" ")
        };
        let rosettes: Vec<String> = variant
            .board()
            .rosettes()
            .into_iter()
            .map(|sq| sq.name().to_owned())
            .collect();
        let again = match (variant.rosette_again(), variant.capture_again()) {
            (true, true) => "Landing on a rosette or capturing throws again.",
            (true, false) => "Landing on a rosette throws again.",
            (false, true) => "Capturing throws again.",
            (false, false) => "Nothing throws again.",
        };
        vec![
            RuleLine::new(
                "Goal",
                format!(
                    "Bring all {pieces} of your pieces along your route and home before the other side does."
                ),
            ),
            RuleLine::new(
                "Dice",
                format!(
                    "{dice} four-sided dice, each with two of its four tips marked: a throw counts the marked tips that point up, 0 to {dice}; {zero}."
                ),
            ),
            RuleLine::new(
                "Moving",
                format!(
                    "Each throw moves one piece exactly that many squares along its route, onto an empty square or one an enemy piece holds, never onto your own. A piece enters from your hand onto the route's first squares: a throw of 1 puts it on the first. {again}"
                ),
            ),
            RuleLine::new(
                "Route",
                format!(
                    "Each side's route is {steps} squares, then home. Light: {}. Dark: {}. The squares both routes share are where pieces meet.",
                    route(Side::Light),
                    route(Side::Dark)
                ),
            ),
            RuleLine::new(
                "Captures",
                "Landing on a square an enemy piece holds captures it: it goes back to its owner's hand, to start again.",
            ),
            RuleLine::new(
                "Rosettes",
                format!(
                    "The rosettes are {}. {}",
                    listed(&rosettes),
                    if variant.safe_rosettes() {
                        "A piece on a rosette is safe: no enemy may land on it."
                    } else {
                        "A piece on a rosette is not safe: an enemy landing there captures it."
                    }
                ),
            ),
            RuleLine::new(
                "Home",
                format!(
                    "A piece goes home by the exact throw that takes it one step past its route's last square ({} for light).",
                    path.square(Side::Light, steps).map_or("", Square::name)
                ),
            ),
            RuleLine::new(
                "First throw",
                "Before the game each side throws the dice once: the side with more marked tips up throws first, and a tie throws again.",
            ),
        ]
    }

    fn legend(variant: &Variant) -> Vec<LegendEntry> {
        let again = if variant.rosette_again() {
            "landing on one throws again"
        } else {
            "landing on one does not throw again"
        };
        let safe = if variant.safe_rosettes() {
            "a piece on it is safe"
        } else {
            "a piece on it can be captured"
        };
        vec![LegendEntry {
            kind: SquareKind::Rosette,
            squares: variant
                .board()
                .rosettes()
                .into_iter()
                .map(|sq| sq.name().to_owned())
                .collect(),
            name: "rosette",
            about: format!("A rosette: {again}; {safe}."),
        }]
    }

    /// A throw of no marks is worth what the rules say (nothing is said
    /// when it is worth nothing).
    fn throw_notes(variant: &Variant, faces: Option<Faces>, _roll: u8) -> Vec<String> {
        match (faces, number_word(variant.zero_rolls())) {
            (Some(f), Some(word)) if f.marked() == 0 && variant.zero_rolls() > 0 => {
                vec![format!("no marks: worth {word}")]
            }
            _ => Vec::new(),
        }
    }

    fn home(variant: &Variant, position: &Position, side: Side) -> u8 {
        position.home(side, variant)
    }

    fn is_capture(flags: &Flags) -> bool {
        flags.captures
    }

    /// Three rows of eight files (twelve on the aseb board), light's near
    /// row at the bottom.
    fn board(variant: &Variant, position: &Position) -> Board {
        let shape = variant.board();
        let route = variant.path();
        let columns = shape.row_width(2);
        let mut squares = Vec::new();
        let mut pieces = Vec::new();
        for (y, &row) in (0u8..).zip(ROWS.iter()) {
            for file in 0..columns {
                let Some(sq) = shape.at(file, row) else {
                    continue;
                };
                squares.push(SquareView {
                    name: sq.name().to_owned(),
                    number: square_number(sq),
                    column: file,
                    row: y,
                    kind: if shape.is_rosette(sq) {
                        SquareKind::Rosette
                    } else {
                        SquareKind::Plain
                    },
                });
                if let Some(side) = position.at(sq) {
                    pieces.push(PieceView {
                        square: sq.name().to_owned(),
                        number: square_number(sq),
                        side,
                    });
                }
            }
        }
        squares.sort_by_key(|s| s.number);
        pieces.sort_by_key(|p| p.number);
        Board {
            columns,
            files: (0..columns)
                .map(|f| char::from(b'a' + f).to_string())
                .collect(),
            rows: ROWS
                .iter()
                .map(|&row| BoardRow {
                    label: Some(row.to_string()),
                    near: match row {
                        1 => Some(Side::Light),
                        3 => Some(Side::Dark),
                        _ => None,
                    },
                    direction: None,
                })
                .collect(),
            squares,
            routes: Sides::new(|side| {
                route
                    .squares(side)
                    .into_iter()
                    .map(|sq| sq.name().to_owned())
                    .collect()
            }),
            pieces,
            counts: Sides::new(|side| Counts {
                hand: Some(position.hand(side)),
                on_board: position.on_board(side),
                home: position.home(side, variant),
            }),
        }
    }

    /// A capture sends the other piece to the hand, off the board: only
    /// the mover's two squares are touched.
    fn marks(entry: &LogEntry<Ur>) -> Vec<Mark> {
        let Some(mv) = entry.mv else {
            return Vec::new();
        };
        [(mv.from(), MarkKind::Left), (mv.to(), MarkKind::Landed)]
            .into_iter()
            .filter_map(|(place, kind)| match place {
                Place::Square(sq) => Some(Mark {
                    number: square_number(sq),
                    side: entry.side,
                    kind,
                }),
                _ => None,
            })
            .collect()
    }

    /// A piece in the hand has the whole route and one step home to go.
    fn race(variant: &Variant, position: &Position) -> Race {
        let route = variant.path();
        let home = u32::from(route.len()) + 1;
        let of = |side: Side| {
            let on_board: u32 = position
                .steps(side, route)
                .into_iter()
                .map(|s| home - u32::from(s))
                .sum();
            on_board + u32::from(position.hand(side)) * home
        };
        Race {
            light: of(Side::Light),
            dark: of(Side::Dark),
        }
    }

    fn route_heading(variant: &Variant, side: Side) -> String {
        let steps = variant.path().len();
        format!("{side}'s route ({steps} steps; home after step {steps}):")
    }

    fn rules_board(variant: &Variant) -> RulesBoard {
        let route = variant.path();
        let shape = variant.board();
        RulesBoard::Ur {
            shape: shape.as_str(),
            files: shape.row_width(2),
            squares: shape.squares().iter().map(|sq| sq.name()).collect(),
            path: route.as_str(),
            routes: Side::ALL
                .into_iter()
                .map(|side| {
                    let squares = route.squares(side).into_iter().map(Square::name).collect();
                    (side.as_str(), squares)
                })
                .collect::<BTreeMap<_, _>>(),
            rosettes: shape.rosettes().into_iter().map(Square::name).collect(),
            pieces: variant.pieces(),
            dice: variant.dice(),
            zero_rolls: variant.zero_rolls(),
            safe_rosettes: variant.safe_rosettes(),
            rosette_again: variant.rosette_again(),
            capture_again: variant.capture_again(),
        }
    }

    /// The reference's fields: `move level index depth value nodes
    /// stopped`, with `stopped` 0 or 1.
    fn ladder_thought(t: Thought<Move>) -> ThoughtView {
        ThoughtView {
            mv: t.mv.to_string(),
            level: LevelWord::Number(t.level),
            index: Some(t.index),
            depth: Some(t.depth),
            value: Worth::Score(t.value),
            nodes: Some(t.nodes),
            stopped: Some(u8::from(t.stopped)),
        }
    }

    fn solved_in(tables: &Tables, variant: &Variant) -> Option<Arc<PerfectBot<Table>>> {
        tables
            .ur()
            .iter()
            .find(|t| t.table().variant() == variant)
            .cloned()
    }

    fn solved_rules(tables: &Tables) -> Vec<String> {
        tables
            .ur()
            .iter()
            .map(|t| t.table().variant().to_string())
            .collect()
    }

    /// The standard board's twenty squares, the hand, home, and the aseb
    /// board's i2..l2 (the squares the standard board lacks).
    fn action_count(variant: &Variant) -> usize {
        usize::from(variant.path().len()) + 1
    }

    fn action(variant: &Variant, position: &Position, mv: Move) -> usize {
        match mv.from() {
            Place::Square(sq) => position
                .step_at(position.side(), sq, variant.path())
                .map_or(0, usize::from),
            Place::Hand | Place::Home => 0,
        }
    }

    fn observation_len(_variant: &Variant) -> usize {
        3 * CELLS + 6
    }

    fn observe(variant: &Variant, position: &Position, roll: Option<u8>, out: &mut [f32]) {
        let me = position.side();
        // The three planes straight from the position's masks, one bit a
        // number and no branches; the numbers after them are cleared.
        let (mine, theirs) = (position.board_mask(me), position.board_mask(me.other()));
        let masks = [mine, theirs, position.second_visit_mask() & (mine | theirs)];
        let squares = variant.board().squares();
        for (plane, mask) in out.chunks_mut(CELLS).zip(masks) {
            for (x, sq) in plane.iter_mut().zip(squares) {
                *x = f32::from(u8::from(mask >> sq.cell() & 1 != 0));
            }
        }
        if let Some(rest) = out.get_mut(3 * CELLS..) {
            rest.fill(0.0);
        }
        let pieces = f32::from(variant.pieces().max(1));
        for (i, side) in [me, me.other()].into_iter().enumerate() {
            put(
                out,
                3 * CELLS + 2 * i,
                f32::from(position.hand(side)) / pieces,
            );
            put(
                out,
                3 * CELLS + 2 * i + 1,
                f32::from(position.home(side, variant)) / pieces,
            );
        }
        let top = f32::from(variant.max_roll().max(1));
        put(out, 3 * CELLS + 4, f32::from(roll.unwrap_or(0)) / top);
        put(out, 3 * CELLS + 5, f32::from(u8::from(me == Side::Light)));
    }

    fn any_move(bits: u64) -> Option<Move> {
        let place = |b: u64| match b % 26 {
            20 => Place::Hand,
            21 => Place::Home,
            c @ 22.. => BoardShape::Aseb
                .at(c as u8 - 14, 2)
                .map_or(Place::Hand, Place::Square),
            c => Square::from_cell(c as usize).map_or(Place::Hand, Place::Square),
        };
        // A move from home or to the hand is not a move at all; it becomes
        // hand-home, which no roll allows and the rules then judge.
        match (place(bits), place(bits >> 8)) {
            (Place::Home, _) | (_, Place::Hand) => Move::new(Place::Hand, Place::Home),
            (from, to) => Move::new(from, to),
        }
        .ok()
    }
}
