//! The board as data: its squares with their place on a grid and their
//! kind, each side's route in order, where the pieces stand, and each
//! side's hand and home; and the squares a ply touched. A front end draws
//! from this and parses no position text.

use dice_core::Side;
use serde::Serialize;

/// One value for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sides<T> {
    /// Light's.
    pub light: T,
    /// Dark's.
    pub dark: T,
}

impl<T> Sides<T> {
    /// Both values made by `f` from their side.
    pub fn new(mut f: impl FnMut(Side) -> T) -> Sides<T> {
        Sides {
            light: f(Side::Light),
            dark: f(Side::Dark),
        }
    }

    /// The side's value.
    pub const fn of(&self, side: Side) -> &T {
        match side {
            Side::Light => &self.light,
            Side::Dark => &self.dark,
        }
    }
}

/// What a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SquareKind {
    /// A square like any other.
    Plain,
    /// A rosette (Ur): safe, and landing on it throws again.
    Rosette,
    /// The house of rebirth (Senet's 15), where a piece from the water goes.
    Rebirth,
    /// The house of happiness (Senet's 26), which every piece must reach.
    Happiness,
    /// The water (Senet's 27).
    Water,
    /// The house of three truths (Senet's 28).
    ThreeTruths,
    /// The house of Re-Atoum (Senet's 29).
    ReAtoum,
    /// The house of Horus (Senet's 30).
    Horus,
}

impl SquareKind {
    /// The kind's name in words (`rosette`, `three truths`), `None` for a
    /// plain square.
    #[must_use]
    pub const fn name(self) -> Option<&'static str> {
        match self {
            SquareKind::Plain => None,
            SquareKind::Rosette => Some("rosette"),
            SquareKind::Rebirth => Some("rebirth"),
            SquareKind::Happiness => Some("happiness"),
            SquareKind::Water => Some("water"),
            SquareKind::ThreeTruths => Some("three truths"),
            SquareKind::ReAtoum => Some("re-atoum"),
            SquareKind::Horus => Some("horus"),
        }
    }
}

/// The way a track both sides share runs along a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Left to right.
    Right,
    /// Right to left.
    Left,
    /// Left to right, then off the board.
    Off,
}

/// A square of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// Its name, as moves and positions write it (`d2`, `15`).
    pub name: String,
    /// Its number in the game's numbering (the cell of an Ur square, the
    /// house of a Senet one), as [`Mark`] names it.
    pub number: u8,
    /// Its column on the grid, from the left.
    pub column: u8,
    /// Its row on the grid, from the top.
    pub row: u8,
    /// What it is.
    pub kind: SquareKind,
}

/// A row of the grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardRow {
    /// The row's name when squares are named by file and row (`3`).
    pub label: Option<String>,
    /// The side whose near row it is (where its pieces enter).
    pub near: Option<Side>,
    /// The way the shared track runs along it.
    pub direction: Option<Direction>,
}

/// A piece on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    /// The square's name.
    pub square: String,
    /// The square's number.
    pub number: u8,
    /// Whose piece it is.
    pub side: Side,
}

/// A side's pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Pieces in the hand, still to enter (a game where every piece starts
    /// on the board has no hand).
    pub hand: Option<u8>,
    /// Pieces on the board.
    pub on_board: u8,
    /// Pieces home (borne off).
    pub home: u8,
}

/// A board under a rule set with a position on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// The grid's width in squares.
    pub columns: u8,
    /// The columns' names, left to right (`a` to `h`), when squares are
    /// named by file and row; empty when they are numbered.
    pub files: Vec<String>,
    /// The grid's rows, top first.
    pub rows: Vec<BoardRow>,
    /// Every square, in the game's numbering.
    pub squares: Vec<SquareView>,
    /// Each side's route: its squares' names in order, step 1 first (a
    /// square passed twice is named twice).
    pub routes: Sides<Vec<String>>,
    /// Where the pieces stand.
    pub pieces: Vec<PieceView>,
    /// Each side's hand, pieces on the board and home.
    pub counts: Sides<Counts>,
}

impl Board {
    /// The square at a place on the grid.
    #[must_use]
    pub fn at(&self, column: u8, row: u8) -> Option<&SquareView> {
        self.squares
            .iter()
            .find(|s| s.column == column && s.row == row)
    }

    /// The piece on the square numbered `number`.
    #[must_use]
    pub fn piece(&self, number: u8) -> Option<Side> {
        self.pieces
            .iter()
            .find(|p| p.number == number)
            .map(|p| p.side)
    }

    /// Whether both sides run one track.
    #[must_use]
    pub fn is_shared_track(&self) -> bool {
        self.routes.light == self.routes.dark
    }

    /// The steps of `side`'s route a square is (two for a square passed
    /// twice), counted from 1.
    #[must_use]
    pub fn steps_of(&self, side: Side, name: &str) -> Vec<usize> {
        self.routes
            .of(side)
            .iter()
            .enumerate()
            .filter(|(_, n)| *n == name)
            .map(|(i, _)| i + 1)
            .collect()
    }
}

/// Where a position's pieces are, without the squares (a rule set's
/// layout gives those once): for a front end drawing a game's positions
/// one after another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placed {
    /// Every piece on the board, by square.
    pub pieces: Vec<PieceView>,
    /// Each side's hand, pieces on the board, and home.
    pub counts: Sides<Counts>,
}

impl From<Board> for Placed {
    fn from(board: Board) -> Placed {
        Placed {
            pieces: board.pieces,
            counts: board.counts,
        }
    }
}

/// Whether a piece left a square or landed on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// The piece left the square.
    Left,
    /// A piece landed on the square.
    Landed,
}

/// A square a ply touched: left, landed on, or where a piece was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// The square's number (as [`SquareView::number`]).
    pub number: u8,
    /// Whose piece it concerns.
    pub side: Side,
    /// Left or landed.
    pub kind: MarkKind,
}
