//! What a legal move is, in full: the reference's move fields and trace.

use std::fmt;

use dice_core::Side;
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::{BoardShape, Flags, Move, Place, Position, Square, Variant, display_move};

/// Everything the reference says about one legal move: who makes it, for
/// which roll, from which step of the mover's own route to which, and what
/// it does.
///
/// Steps count along the mover's path ([`Path`](crate::Path)): 0 is the
/// hand, 1..=len the squares, and `len + 1` (15 on the short route, 17 on
/// the long) is home. For a legal move `to_step = from_step + roll`.
///
/// A [`Move`] stays the small wire identity (two places); a `MoveInfo` is
/// worked out from a position, a rule set and a roll with
/// [`Position::move_info`] or [`Position::move_infos`], and cannot be built
/// by hand, so its fields always agree with one another.
///
/// Its [`Display`](fmt::Display) form is the display form of
/// [`display_move`] (`3: a2-d2x*`); [`MoveInfo::trace`] gives the trace
/// (`5>8x*`). Serialized (for JSON), it is an object with the reference's
/// fields `side roll from to from_step to_step from_cell to_cell captures
/// rosette home trace`; the cells are the board's cell indices
/// ([`BoardShape::cell`]), and `null` for the hand and home where the
/// reference writes -1.
///
/// ```
/// use dice_core::Side;
/// use royal_ur::{Place, Position, Variant};
///
/// // Light on a2 (step 5), dark on the rosette d2.
/// let pos: Position = "4xx2/l2d4/4xx2 l 6 0 6 0".parse()?;
/// let unsafe_rosettes = Variant::custom([("safe_rosettes", "0")])?;
/// let info = pos.move_info(&unsafe_rosettes, 3, "a2-d2".parse()?).expect("legal");
/// assert_eq!(info.side(), Side::Light);
/// assert_eq!((info.from_step(), info.to_step()), (5, 8));
/// assert_eq!(info.to(), Place::Square("d2".parse()?));
/// assert!(info.captures() && info.rosette() && !info.home());
/// assert_eq!(info.trace(), "5>8x*");
/// assert_eq!(info.to_string(), "3: a2-d2x*");
///
/// // Under finkel's safe rosettes the same move is not legal.
/// assert_eq!(pos.move_info(&Variant::FINKEL, 3, "a2-d2".parse()?), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveInfo {
    side: Side,
    roll: u8,
    mv: Move,
    from_step: u8,
    to_step: u8,
    flags: Flags,
    shape: BoardShape,
}

impl MoveInfo {
    /// The side that makes the move.
    #[must_use]
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The roll the move is for.
    #[must_use]
    pub const fn roll(&self) -> u8 {
        self.roll
    }

    /// The move itself, its wire identity (`a2-d2`).
    #[must_use]
    pub const fn mv(&self) -> Move {
        self.mv
    }

    /// Where the piece comes from: the hand or a square.
    #[must_use]
    pub const fn from(&self) -> Place {
        self.mv.from()
    }

    /// Where the piece goes: a square or home.
    #[must_use]
    pub const fn to(&self) -> Place {
        self.mv.to()
    }

    /// The step of the mover's route the piece leaves: 0 for the hand.
    #[must_use]
    pub const fn from_step(&self) -> u8 {
        self.from_step
    }

    /// The step of the mover's route the piece reaches: `len + 1` for home.
    #[must_use]
    pub const fn to_step(&self) -> u8 {
        self.to_step
    }

    /// The square the piece leaves, `None` for the hand (the reference's
    /// `from_cell` -1).
    #[must_use]
    pub const fn from_cell(&self) -> Option<Square> {
        square_of(self.mv.from())
    }

    /// The square the piece reaches, `None` for home (the reference's
    /// `to_cell` -1).
    #[must_use]
    pub const fn to_cell(&self) -> Option<Square> {
        square_of(self.mv.to())
    }

    /// Whether an enemy piece on the destination goes back to its hand.
    #[must_use]
    pub const fn captures(&self) -> bool {
        self.flags.captures
    }

    /// Whether the piece lands on a rosette (which throws again when the
    /// rule set's rosettes do); never true for a move home.
    #[must_use]
    pub const fn rosette(&self) -> bool {
        self.flags.rosette
    }

    /// Whether the piece goes home.
    #[must_use]
    pub const fn home(&self) -> bool {
        self.flags.home
    }

    /// The three flags together, as a game's log records them.
    #[must_use]
    pub const fn flags(&self) -> Flags {
        self.flags
    }

    /// The reference's trace: `from_step>to_step`, then `x` if the move
    /// captures and `*` if it lands on a rosette, e.g. `0>1`, `11>12*`,
    /// `5>8x*`.
    #[must_use]
    pub fn trace(&self) -> String {
        format!("{}>{}{}", self.from_step, self.to_step, self.flags.suffix())
    }
}

const fn square_of(place: Place) -> Option<Square> {
    match place {
        Place::Square(sq) => Some(sq),
        Place::Hand | Place::Home => None,
    }
}

impl fmt::Display for MoveInfo {
    /// The display form `R: from-to`, then `x` if it captures and `*` if it
    /// lands on a rosette (see [`display_move`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&display_move(self.mv, self.roll, self.flags))
    }
}

impl Serialize for MoveInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let cell = |sq: Option<Square>| sq.and_then(|sq| self.shape.cell(sq));
        let mut s = serializer.serialize_struct("MoveInfo", 12)?;
        s.serialize_field("side", &self.side)?;
        s.serialize_field("roll", &self.roll)?;
        s.serialize_field("from", self.from().name())?;
        s.serialize_field("to", self.to().name())?;
        s.serialize_field("from_step", &self.from_step)?;
        s.serialize_field("to_step", &self.to_step)?;
        s.serialize_field("from_cell", &cell(self.from_cell()))?;
        s.serialize_field("to_cell", &cell(self.to_cell()))?;
        s.serialize_field("captures", &self.flags.captures)?;
        s.serialize_field("rosette", &self.flags.rosette)?;
        s.serialize_field("home", &self.flags.home)?;
        s.serialize_field("trace", &self.trace())?;
        s.end()
    }
}

impl Position {
    /// The full account of `mv` for `roll` under `variant`, or `None` when
    /// [`Position::legal_into`] would not list it (an illegal move, a roll
    /// of 0 or above the rule set's limit, or a game someone has won).
    ///
    /// ```
    /// use dice_core::Side;
    /// use royal_ur::{Position, Variant};
    ///
    /// let start = Position::start(&Variant::FINKEL, Side::Light);
    /// let info = start.move_info(&Variant::FINKEL, 4, "hand-a1".parse()?).expect("legal");
    /// assert_eq!(info.trace(), "0>4*");
    /// assert_eq!(start.move_info(&Variant::FINKEL, 3, "hand-a1".parse()?), None);
    /// # Ok::<(), royal_ur::ParseMoveError>(())
    /// ```
    #[must_use]
    pub fn move_info(&self, variant: &Variant, roll: u8, mv: Move) -> Option<MoveInfo> {
        if !self.legal(variant, roll).contains(&mv) {
            return None;
        }
        self.play_listed(variant, roll, mv).map(|(info, _)| info)
    }

    /// The full account of every legal move for `roll`, in the order of
    /// [`Position::legal_into`] (the hand first, then by ascending step).
    /// The iterator owns what it needs and borrows neither argument.
    ///
    /// ```
    /// use royal_ur::{Position, Variant};
    ///
    /// // Light: c1 (2), a1 (4), b2 (6), four in hand; dark: c2, d2.
    /// let pos: Position = "4xx2/1ldd4/l1l1xx2 l 4 0 5 0".parse()?;
    /// let traces: Vec<String> = pos.move_infos(&Variant::FINKEL, 3).map(|i| i.trace()).collect();
    /// assert_eq!(traces, ["0>3", "2>5", "4>7x", "6>9"]);
    /// # Ok::<(), royal_ur::PositionError>(())
    /// ```
    pub fn move_infos(
        &self,
        variant: &Variant,
        roll: u8,
    ) -> impl Iterator<Item = MoveInfo> + use<> {
        let legal = self.legal(variant, roll);
        let variant = *variant;
        let position = *self;
        (0..legal.len()).filter_map(move |i| {
            let mv = *legal.get(i)?;
            position
                .play_listed(&variant, roll, mv)
                .map(|(info, _)| info)
        })
    }

    /// Plays a move [`Position::legal_into`] listed for `roll`, giving its
    /// account and the position after it; `None` only when the mover has no
    /// piece at `from` on its route, which a listed move always has.
    pub(crate) fn play_listed(
        &self,
        variant: &Variant,
        roll: u8,
        mv: Move,
    ) -> Option<(MoveInfo, Position)> {
        let side = self.side();
        let from_step = match mv.from() {
            Place::Square(sq) => self.step_at(side, sq, variant.path())?,
            Place::Hand | Place::Home => 0,
        };
        let (next, flags) = self.apply_unchecked(variant, roll, mv)?;
        let info = MoveInfo {
            side,
            roll,
            mv,
            from_step,
            to_step: from_step.saturating_add(roll),
            flags,
            shape: self.shape(),
        };
        Some((info, next))
    }
}
