//! Drawing for every game: pieces, dice and sticks, the side lines, the
//! marks of each side's last turn, routes, and a board laid out from the
//! game's board data (`race_games::Board`: its squares on a grid, their
//! kinds, the pieces, hands and homes) and the squares its plies touched
//! (`RaceGame::marks`). Everything is drawn here, once, as text (with ANSI
//! colour when the style has it) or as the lines of the terminal screen.

use dice_core::{Faces, LogEntry, Side};
use race_games::{DiceKind, Direction, Mark, MarkKind, RaceGame, SquareKind};
use ratatui::style::{Color, Modifier, Style as Look};
use ratatui::text::{Line, Span};

use crate::style::{Paint, Style};

/// A glyph in Unicode and in plain ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The Unicode form.
    pub unicode: &'static str,
    /// The ASCII form.
    pub ascii: &'static str,
}

impl Glyph {
    /// A glyph from its two forms.
    pub const fn new(unicode: &'static str, ascii: &'static str) -> Glyph {
        Glyph { unicode, ascii }
    }

    /// The form the style draws.
    pub fn pick(self, style: &Style) -> &'static str {
        style.pick(self.unicode, self.ascii)
    }
}

/// How a game's dice look: what they are called, and their two faces. In
/// every game the face that counts (the marked one) is drawn filled.
#[derive(Clone, Copy, Debug)]
pub struct DiceLook {
    /// `dice` or `sticks`.
    pub word: &'static str,
    /// The face that counts, filled.
    pub counts: Glyph,
    /// The face that does not count, hollow.
    pub blank: Glyph,
}

/// How a game's dice look.
pub const fn dice_look<G: RaceGame>() -> DiceLook {
    let (counts, blank) = match G::WORDS.dice_kind {
        DiceKind::Pyramids => (Glyph::new("▲", "#"), Glyph::new("△", ".")),
        DiceKind::Sticks => (Glyph::new("▮", "#"), Glyph::new("▯", ".")),
    };
    DiceLook {
        word: G::WORDS.dice,
        counts,
        blank,
    }
}

/// An empty square's glyph, by its kind.
const fn glyph(kind: SquareKind) -> Glyph {
    match kind {
        SquareKind::Rosette => Glyph::new("✿", "*"),
        SquareKind::Rebirth => Glyph::new("☥", "@"),
        SquareKind::Happiness => Glyph::new("☆", "!"),
        SquareKind::Water => Glyph::new("≈", "~"),
        SquareKind::ThreeTruths => Glyph::new("Ⅲ", "3"),
        SquareKind::ReAtoum => Glyph::new("Ⅱ", "2"),
        SquareKind::Horus => Glyph::new("Ⅰ", "1"),
        _ => Glyph::new("·", "."),
    }
}

/// The note beside a row that a shared track runs along.
const fn arrow(direction: Direction) -> Glyph {
    match direction {
        Direction::Right => Glyph::new("→", ">"),
        Direction::Left => Glyph::new("←", "<"),
        Direction::Off => Glyph::new("→ off", "> off"),
    }
}

/// A board laid out for drawing: rows of cells from the top, and each
/// side's line (how many pieces wait and how many are home).
#[derive(Clone, Debug)]
pub struct Board {
    /// The rows, top first.
    pub rows: Vec<Row>,
    /// Light's line, then dark's.
    pub sides: [SideLine; 2],
}

/// One row of a board.
#[derive(Clone, Debug)]
pub struct Row {
    /// The cells, left to right.
    pub cells: Vec<Cell>,
    /// What stands to the right of the row when there is room.
    pub beside: Beside,
}

impl Row {
    /// A row of dim text only (file letters, house numbers).
    pub fn label(text: impl Into<String>) -> Row {
        Row {
            cells: vec![Cell::Label(text.into())],
            beside: Beside::Nothing,
        }
    }
}

/// What stands to the right of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beside {
    /// Nothing.
    Nothing,
    /// This side's line (below the board instead when the terminal is narrow).
    Side(Side),
    /// A note such as the direction of the track (left out when narrow).
    Note(Glyph),
}

/// A cell of a row.
#[derive(Clone, Debug)]
pub enum Cell {
    /// Dim text.
    Label(String),
    /// No square here: as wide as a square.
    Gap,
    /// A square: its number in the game's own numbering (what a
    /// [`Mark`] names), the piece on it, and the glyph of the square when
    /// empty.
    Square {
        /// The square's number.
        at: u8,
        /// The piece on it.
        piece: Option<Side>,
        /// The empty square's glyph (a rosette, a special house, a dot).
        empty: Glyph,
    },
}

/// One side's line: two counts with their words, such as `hand 7` and
/// `home 0`, each with the pieces drawn after it or not.
#[derive(Clone, Debug)]
pub struct SideLine {
    /// The counts, in order.
    pub parts: [Part; 2],
}

/// A count on a side line.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// What is counted: `hand`, `home`, `on the board`, `borne off`.
    pub word: &'static str,
    /// How many.
    pub count: u8,
    /// Whether the pieces are drawn after the count.
    pub pieces: bool,
}

impl Board {
    /// The board of `board` data laid out: file letters above the rows
    /// and each row's name before it when squares are named by file and
    /// row, else each square's number above it; each side's line beside
    /// its near row, or below; the way a shared track runs beside its rows.
    pub fn of<G: RaceGame>(board: &race_games::Board) -> Board {
        let mut rows = Vec::new();
        if !board.files.is_empty() {
            rows.push(Row::label(format!("     {}", board.files.join("  "))));
        }
        for (y, row) in (0u8..).zip(&board.rows) {
            let squares: Vec<_> = (0..board.columns).map(|x| board.at(x, y)).collect();
            if board.files.is_empty() {
                let numbers: String = squares
                    .iter()
                    .map(|s| s.map_or_else(|| "   ".to_owned(), |s| format!("{:>2} ", s.name)))
                    .collect();
                rows.push(Row::label(format!("  {}", numbers.trim_end())));
            }
            let label = row
                .label
                .as_ref()
                .map_or_else(|| "  ".to_owned(), |l| format!("  {l} "));
            let mut cells = vec![Cell::Label(label)];
            cells.extend(squares.iter().map(|s| match s {
                Some(s) => Cell::Square {
                    at: s.number,
                    piece: board.piece(s.number),
                    empty: glyph(s.kind),
                },
                None => Cell::Gap,
            }));
            let beside = match (row.near, row.direction) {
                (Some(side), _) => Beside::Side(side),
                (None, Some(direction)) => Beside::Note(arrow(direction)),
                (None, None) => Beside::Nothing,
            };
            rows.push(Row { cells, beside });
        }
        // A game with a hand shows the pieces still to enter; one without
        // shows those borne off.
        let line = |side| {
            let c = board.counts.of(side);
            let home = |pieces| Part {
                word: G::WORDS.home,
                count: c.home,
                pieces,
            };
            SideLine {
                parts: match c.hand {
                    Some(hand) => [
                        Part {
                            word: "hand",
                            count: hand,
                            pieces: true,
                        },
                        home(false),
                    ],
                    None => [
                        Part {
                            word: "on the board",
                            count: c.on_board,
                            pieces: false,
                        },
                        home(true),
                    ],
                },
            }
        };
        Board {
            rows,
            sides: [line(Side::Light), line(Side::Dark)],
        }
    }
}

/// A side's piece, unpainted, and its paint.
fn piece_run(side: Side, style: &Style) -> (String, Paint) {
    match side {
        Side::Light => (style.pick("○", "L").to_owned(), Paint::Light),
        Side::Dark => (style.pick("●", "D").to_owned(), Paint::Dark),
    }
}

/// A throw's faces, die 0 first: filled where the face counts.
pub fn faces(faces: Faces, look: &DiceLook, style: &Style) -> String {
    (0..faces.len())
        .map(|i| {
            if faces.die(i) {
                look.counts.pick(style)
            } else {
                look.blank.pick(style)
            }
        })
        .collect()
}

/// A throw as the screen shows it: `dice ▲△▲△  roll 2`, with what the game
/// says of it (`no marks: worth four`, `throws again`).
pub fn throw<G: RaceGame>(
    variant: &G::Variant,
    thrown: Option<Faces>,
    roll: u8,
    style: &Style,
) -> String {
    let look = dice_look::<G>();
    let mut text = match thrown {
        Some(f) => format!("{} {}  roll {roll}", look.word, faces(f, &look, style)),
        None => format!("roll {roll}"),
    };
    let notes = G::throw_notes(variant, thrown, roll);
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join("; ")));
    }
    text
}

/// What the faces mean, in a few words: `▲ counts`.
pub fn dice_key<G: RaceGame>(style: &Style) -> String {
    format!("{} counts", dice_look::<G>().counts.pick(style))
}

/// A ply in words, its throw drawn as the game's dice.
pub fn narrate<G: RaceGame>(variant: &G::Variant, entry: &LogEntry<G>, style: &Style) -> String {
    let look = dice_look::<G>();
    G::narrate(variant, entry, &|f| faces(f, &look, style))
}

/// The plies of each side's last turn (a turn being a side's plies in a
/// row: several after a rosette or a throw-again), in the log's order.
pub fn last_turns<G: RaceGame>(log: &[LogEntry<G>]) -> Vec<LogEntry<G>> {
    let mut out: Vec<LogEntry<G>> = Vec::new();
    for side in Side::ALL {
        let Some(end) = log.iter().rposition(|e| e.side == side) else {
            continue;
        };
        let start = log[..end]
            .iter()
            .rposition(|e| e.side != side)
            .map_or(0, |i| i + 1);
        out.extend_from_slice(&log[start..=end]);
    }
    out.sort_by_key(|e| e.ply);
    out
}

/// Where the text of a board goes: the whole width, or a narrow terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Side lines beside their rows, notes shown.
    Wide,
    /// Side lines below the board, notes left out.
    Narrow,
}

/// A run of text and its paint.
type Run = (String, Option<Paint>);

/// The board's lines as runs of painted text, the last turns' marks on it.
fn lay_out(board: &Board, marks: &[Mark], fit: Fit, style: &Style) -> Vec<Vec<Run>> {
    let mut lines = Vec::new();
    let mut below: Vec<Side> = Vec::new();
    for row in &board.rows {
        let mut line: Vec<Run> = Vec::new();
        for cell in &row.cells {
            match cell {
                Cell::Label(text) => line.push((text.clone(), Some(Paint::Dim))),
                Cell::Gap => line.push(("   ".to_owned(), None)),
                Cell::Square { at, piece, empty } => {
                    let landed = piece.is_some_and(|side| {
                        marks.iter().any(|m| {
                            m.number == *at && m.side == side && m.kind == MarkKind::Landed
                        })
                    });
                    let left = piece.is_none()
                        && marks
                            .iter()
                            .any(|m| m.number == *at && m.kind == MarkKind::Left);
                    let (l, r) = match (landed, left) {
                        (true, _) => ("[", "]"),
                        (_, true) => ("(", ")"),
                        _ => (" ", " "),
                    };
                    let mark = (landed || left).then_some(Paint::Mark);
                    line.push((l.to_owned(), mark));
                    line.push(match piece {
                        Some(side) => {
                            let (glyph, paint) = piece_run(*side, style);
                            (glyph, Some(paint))
                        }
                        None => (empty.pick(style).to_owned(), Some(Paint::Dim)),
                    });
                    line.push((r.to_owned(), mark));
                }
            }
        }
        match (row.beside, fit) {
            (Beside::Side(side), Fit::Wide) => {
                line.push(("   ".to_owned(), None));
                line.extend(side_runs(&board.sides[side_index(side)], side, style));
            }
            (Beside::Side(side), Fit::Narrow) => below.push(side),
            (Beside::Note(note), Fit::Wide) => {
                line.push((format!("   {}", note.pick(style)), None));
            }
            _ => {}
        }
        trim_end(&mut line);
        lines.push(line);
    }
    for side in Side::ALL {
        let beside = board.rows.iter().any(|r| r.beside == Beside::Side(side));
        if !beside || below.contains(&side) {
            let mut line = vec![("  ".to_owned(), None)];
            line.extend(side_runs(&board.sides[side_index(side)], side, style));
            trim_end(&mut line);
            lines.push(line);
        }
    }
    lines
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Light => 0,
        Side::Dark => 1,
    }
}

/// `light  hand 7 ○○○○○○○  home 0`.
fn side_runs(line: &SideLine, side: Side, style: &Style) -> Vec<Run> {
    let mut runs = vec![(format!("{:<5}", side.as_str()), None)];
    for part in &line.parts {
        runs.push((format!("  {} {}", part.word, part.count), None));
        if part.pieces && part.count > 0 {
            let (glyph, paint) = piece_run(side, style);
            runs.push((" ".to_owned(), None));
            runs.push((glyph.repeat(usize::from(part.count)), Some(paint)));
        }
    }
    runs
}

fn trim_end(line: &mut Vec<Run>) {
    while let Some((text, _)) = line.last_mut() {
        let kept = text.trim_end().len();
        if kept > 0 {
            text.truncate(kept);
            return;
        }
        line.pop();
    }
}

/// The marks of the plies given (each side's last turn).
fn marks<G: RaceGame>(last: &[LogEntry<G>]) -> Vec<Mark> {
    last.iter().flat_map(|e| G::marks(e)).collect()
}

/// The board of a position laid out.
fn laid<G: RaceGame>(variant: &G::Variant, position: &G::Position) -> Board {
    Board::of::<G>(&G::board(variant, position))
}

/// The board as text, each side's last turn marked, and a line naming
/// those plies (`last: light 1: h2-h1, dark 2: h3-home`).
pub fn board_text<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    log: &[LogEntry<G>],
    style: &Style,
) -> String {
    let last = last_turns(log);
    let board = laid::<G>(variant, position);
    let mut out = runs_text(&lay_out(&board, &marks(&last), Fit::Wide, style), style);
    let played: Vec<String> = last
        .iter()
        .filter(|e| e.mv.is_some())
        .map(|e| format!("{} {}", e.side, G::entry_label(e)))
        .collect();
    if !played.is_empty() {
        out.push_str(&format!("  last: {}\n", played.join(", ")));
    }
    out
}

/// The rows of a board without its side lines, unmarked (for a route).
fn grid_text(board: &Board, style: &Style) -> String {
    let lines = lay_out(board, &[], Fit::Wide, style);
    runs_text(&lines[..board.rows.len().min(lines.len())], style)
}

/// A side's route, drawn under its heading: each square's step on the
/// board's grid (a track both sides share: the board itself, with its
/// named squares and the rules).
pub fn route<G: RaceGame>(variant: &G::Variant, side: Side, style: &Style) -> String {
    let mut board = G::board(variant, &G::start(variant, side));
    let mut out = format!("{}\n", G::route_heading(variant, side));
    if board.is_shared_track() {
        board.pieces.clear();
        out.push_str(&grid_text(&Board::of::<G>(&board), style));
        let legend: Vec<String> = board
            .squares
            .iter()
            .filter_map(|s| {
                let name = s.kind.name()?;
                Some(format!("{} {} {name}", glyph(s.kind).pick(style), s.name))
            })
            .collect();
        out.push_str(&format!("  {}\n", legend.join("  ")));
        out.push_str(&format!("  rules: {variant}\n"));
        return out;
    }
    out.push_str(&format!("     {}\n", board.files.join("  ")));
    for (y, row) in (0u8..).zip(&board.rows) {
        out.push_str(&format!("  {} ", row.label.as_deref().unwrap_or_default()));
        for x in 0..board.columns {
            let Some(square) = board.at(x, y) else {
                out.push_str("   ");
                continue;
            };
            match board.steps_of(side, &square.name).first() {
                Some(s) if square.kind == SquareKind::Rosette => {
                    out.push_str(&format!("{s:>2}{}", style.pick("✿", "*")));
                }
                Some(s) => out.push_str(&format!("{s:>2} ")),
                None => out.push_str(" - "),
            }
        }
        out = out.trim_end().to_owned();
        out.push('\n');
    }
    out
}

fn runs_text(lines: &[Vec<Run>], style: &Style) -> String {
    let mut out = String::new();
    for line in lines {
        for (text, paint) in line {
            match paint {
                Some(p) => out.push_str(&style.paint(text, *p)),
                None => out.push_str(text),
            }
        }
        out.push('\n');
    }
    out
}

/// The board as the screen's lines, each side's last turn marked, laid out
/// to fit the width: `None` when even the narrow drawing does not fit.
pub fn board_lines<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    log: &[LogEntry<G>],
    style: &Style,
    width: u16,
) -> Option<Vec<Line<'static>>> {
    let board = laid::<G>(variant, position);
    let marks = marks(&last_turns(log));
    [Fit::Wide, Fit::Narrow].into_iter().find_map(|fit| {
        let lines = lay_out(&board, &marks, fit, style);
        let fits = lines.iter().all(|l| runs_width(l) <= usize::from(width));
        fits.then(|| lines.into_iter().map(|l| screen_line(l, style)).collect())
    })
}

/// The columns and lines the narrow drawing of a game's board takes.
pub fn narrow_size<G: RaceGame>(variant: &G::Variant) -> (usize, usize) {
    let board = laid::<G>(variant, &G::start(variant, Side::Light));
    let lines = lay_out(&board, &[], Fit::Narrow, &Style::default());
    let width = lines.iter().map(|l| runs_width(l)).max().unwrap_or(0);
    (width, lines.len())
}

fn runs_width(line: &[Run]) -> usize {
    line.iter()
        .map(|(t, _)| Span::raw(t.as_str()).width())
        .sum()
}

fn screen_line(runs: Vec<Run>, style: &Style) -> Line<'static> {
    Line::from(
        runs.into_iter()
            .map(|(text, paint)| match paint {
                Some(p) => Span::styled(text, look(p, style)),
                None => Span::raw(text),
            })
            .collect::<Vec<_>>(),
    )
}

/// How a paint looks on the screen (nothing without colour, but the marks
/// and headings, which stay readable without it).
pub fn look(paint: Paint, style: &Style) -> Look {
    let base = Look::default();
    if !style.color {
        return match paint {
            Paint::Bold | Paint::Warn => base.add_modifier(Modifier::BOLD),
            _ => base,
        };
    }
    match paint {
        Paint::Light => base.fg(Color::Yellow).add_modifier(Modifier::BOLD),
        Paint::Dark => base.fg(Color::Cyan).add_modifier(Modifier::BOLD),
        Paint::Mark => base.add_modifier(Modifier::REVERSED),
        Paint::Dim => base.add_modifier(Modifier::DIM),
        Paint::Bold => base.add_modifier(Modifier::BOLD),
        Paint::Warn => base.fg(Color::Red).add_modifier(Modifier::BOLD),
    }
}
