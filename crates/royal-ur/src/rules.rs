//! Move generation, applying moves, refusals, and the `Rules` impl.

use dice_core::{Chance, Faces, MoveList, Opening, Side, Status};

use crate::moves::{HAND, HOME};
use crate::route::is_rosette_cell;
use crate::square::ROSETTE_MASK;
use crate::{Flags, Move, ParseMoveError, Place, Position, Refusal, Variant};

/// The highest roll any rule set allows.
pub const ROLL_MAX: u8 = 4;

/// The Royal Game of Ur, as [`dice_core::Rules`]: a marker type that is
/// never built.
///
/// ```
/// use dice_core::{MoveList, Rules, Side};
/// use royal_ur::{Position, Ur, Variant};
///
/// let start = Ur::start(&Variant::FINKEL, Side::Light);
/// let mut moves = MoveList::new();
/// Ur::legal(&Variant::FINKEL, &start, 4, &mut moves);
/// assert_eq!(moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["hand-a1"]);
/// let (next, flags) = Ur::apply(&Variant::FINKEL, &start, 4, moves[0]);
/// assert!(flags.rosette);
/// assert_eq!(next.to_string(), "4xx2/8/l3xx2 l 6 0 7 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ur {}

impl Position {
    /// The legal moves for `roll`, in the reference order, written into `out`
    /// (cleared first): the hand first if it holds a piece, then the pieces
    /// by ascending step of their own route. No moves for a roll of 0 or
    /// above 4, or once someone has won.
    ///
    /// This is the hot path: table lookups and bit masks, no allocation.
    #[inline]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `me` and `me ^ 1` are 0 or 1 into two-entry per-side arrays, and \
                  every `cell` index is at most 17 < 18 entries: `roll` is 1..=4, `s` is a \
                  step of `steps_of` (at most 16) and `land` is below `home` (at most 17)"
    )]
    pub fn legal_into(&self, variant: &Variant, roll: u8, out: &mut MoveList<Move>) {
        out.clear();
        let pieces = variant.pieces();
        if roll == 0 || roll > ROLL_MAX || self.homes[0] >= pieces || self.homes[1] >= pieces {
            return;
        }
        let me = self.side.index();
        let t = variant.route().table(self.side);
        let own = self.boards[me];
        let enemy = self.boards[me ^ 1];
        let blocked = own
            | if variant.safe_rosettes() {
                enemy & ROSETTE_MASK
            } else {
                0
            };
        let home = t.len + 1;
        if self.hands[me] > 0 {
            let to = t.cell[usize::from(roll) & 31];
            out.push_if(Move { from: HAND, to }, blocked & (1 << to) == 0);
        }
        let mut steps = t.steps_of(own);
        while steps != 0 {
            let s = steps.trailing_zeros() as u8;
            steps &= steps - 1;
            let land = s + roll;
            let from = t.cell[usize::from(s) & 31];
            if land >= home {
                if land == home {
                    out.push(Move { from, to: HOME });
                }
                break;
            }
            let to = t.cell[usize::from(land) & 31];
            out.push_if(Move { from, to }, blocked & (1 << to) == 0);
        }
    }

    /// The legal moves for `roll` as a list (see [`Position::legal_into`]).
    #[must_use]
    pub fn legal(&self, variant: &Variant, roll: u8) -> MoveList<Move> {
        let mut out = MoveList::new();
        self.legal_into(variant, roll, &mut out);
        out
    }

    /// Makes a move without checking that it is legal, and says what it did.
    ///
    /// The piece leaves the hand or its square; going home adds one to home;
    /// otherwise an enemy on the destination goes back to its owner's hand
    /// and the piece is placed there. The same side moves again when the
    /// piece landed on a rosette, the other side otherwise.
    ///
    /// Returns `None` (and changes nothing) when the mover has no piece at
    /// `from`. Use [`Position::legal_into`] first for a legal move.
    #[must_use]
    #[inline]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; the only indices are `me` and `me ^ 1`, 0 or 1 since `me` is a \
                  `Side::index`, into the two-entry per-side arrays"
    )]
    pub fn apply_unchecked(&self, mv: Move) -> Option<(Position, Flags)> {
        let me = self.side.index();
        let mut next = *self;
        if mv.from == HAND {
            next.hands[me] = next.hands[me].checked_sub(1)?;
        } else {
            let bit = 1u32 << (mv.from & 31);
            if self.boards[me] & bit == 0 {
                return None;
            }
            next.boards[me] &= !bit;
        }
        let mut flags = Flags::default();
        if mv.to == HOME {
            next.homes[me] = next.homes[me].saturating_add(1);
            flags.home = true;
        } else {
            let bit = 1u32 << (mv.to & 31);
            if next.boards[me ^ 1] & bit != 0 {
                next.boards[me ^ 1] &= !bit;
                next.hands[me ^ 1] = next.hands[me ^ 1].saturating_add(1);
                flags.captures = true;
            }
            next.boards[me] |= bit;
            flags.rosette = is_rosette_cell(mv.to & 31);
        }
        if !flags.rosette {
            next.side = self.side.other();
        }
        Some((next, flags))
    }

    /// The position after a turn lost to the roll: the other side moves.
    #[must_use]
    pub const fn forfeit(&self) -> Position {
        self.with_side(self.side.other())
    }

    /// Plays `mv` for `roll` if it is legal.
    ///
    /// # Errors
    ///
    /// The [`Refusal`] saying why it is not (see [`Position::refusal`]).
    pub fn play(
        &self,
        variant: &Variant,
        roll: u8,
        mv: Move,
    ) -> Result<(Position, Flags), Refusal> {
        if self.legal(variant, roll).contains(&mv)
            && let Some(done) = self.apply_unchecked(mv)
        {
            return Ok(done);
        }
        Err(self.refusal(variant, roll, mv))
    }

    /// Why `mv` is not legal for `roll` here, by the first rule that applies,
    /// in the reference's order:
    ///
    /// 1. from the hand: `no_piece` if the hand is empty;
    /// 2. from a square: empty → `no_piece`, an enemy → `not_your_piece`, the
    ///    mover's piece on a square its route does not visit → `no_piece`;
    /// 3. to home: past home → `overshoot`, short of it → `wrong_distance`;
    /// 4. to a square that is not the roll away along the route →
    ///    `wrong_distance`;
    /// 5. the mover's own piece there → `own_piece`; an enemy on a rosette
    ///    under safe rosettes → `safe_rosette`;
    /// 6. otherwise `bad_move` (a legal move, or a finished game).
    #[must_use]
    pub fn refusal(&self, variant: &Variant, roll: u8, mv: Move) -> Refusal {
        let t = variant.route().table(self.side);
        let from_step = match mv.from() {
            Place::Hand => {
                if self.hand(self.side) == 0 {
                    return Refusal::NoPiece;
                }
                0
            }
            Place::Square(sq) => match self.at(sq) {
                None => return Refusal::NoPiece,
                Some(s) if s != self.side => return Refusal::NotYourPiece,
                Some(_) => match t.step.get(sq.cell()) {
                    None | Some(0) => return Refusal::NoPiece,
                    Some(&s) => s,
                },
            },
            Place::Home => return Refusal::NoPiece,
        };
        let lands = u32::from(from_step) + u32::from(roll);
        let home = u32::from(t.len) + 1;
        match mv.to() {
            Place::Home => {
                if lands > home {
                    Refusal::Overshoot
                } else if lands < home {
                    Refusal::WrongDistance
                } else {
                    Refusal::BadMove
                }
            }
            Place::Square(sq) => {
                let on_route = lands >= 1
                    && lands <= u32::from(t.len)
                    && t.cell
                        .get(lands as usize)
                        .is_some_and(|&cell| usize::from(cell) == sq.cell());
                if !on_route {
                    Refusal::WrongDistance
                } else {
                    match self.at(sq) {
                        Some(s) if s == self.side => Refusal::OwnPiece,
                        Some(_) if sq.is_rosette() && variant.safe_rosettes() => {
                            Refusal::SafeRosette
                        }
                        _ => Refusal::BadMove,
                    }
                }
            }
            Place::Hand => Refusal::BadMove,
        }
    }
}

impl dice_core::Rules for Ur {
    const GAME: &'static str = "royal-ur";

    type Variant = Variant;
    type Position = Position;
    type Move = Move;
    type MoveError = ParseMoveError;
    type Refusal = Refusal;
    type Flags = Flags;

    fn dice(variant: &Variant) -> u8 {
        variant.dice()
    }

    #[inline]
    fn roll(variant: &Variant, faces: Faces) -> u8 {
        variant.roll_of(faces.marked())
    }

    fn chances(variant: &Variant) -> &'static [Chance] {
        variant.chances()
    }

    fn opening(_variant: &Variant) -> Opening {
        Opening::ThrowOff
    }

    /// The higher marked count moves first (not the roll's value); a tie is
    /// thrown again.
    fn throw_off(_variant: &Variant, light: Faces, dark: Faces) -> Option<Side> {
        dice_core::more_marked(light, dark)
    }

    fn start(variant: &Variant, first: Side) -> Position {
        Position::start(variant, first)
    }

    #[inline]
    fn side(position: &Position) -> Side {
        position.side()
    }

    fn with_side(position: &Position, side: Side) -> Position {
        position.with_side(side)
    }

    /// Stricter than the reference's `consistent` (the piece count): a
    /// piece off its own route or both sides home cannot occur either (see
    /// [`Position::check`]).
    fn is_consistent(variant: &Variant, position: &Position) -> bool {
        position.check(variant).is_ok()
    }

    #[inline]
    fn legal(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
        position.legal_into(variant, roll, out);
    }

    #[inline]
    fn apply(_variant: &Variant, position: &Position, _roll: u8, mv: Move) -> (Position, Flags) {
        position
            .apply_unchecked(mv)
            .unwrap_or((*position, Flags::default()))
    }

    #[inline]
    fn forfeit(_variant: &Variant, position: &Position, _roll: u8) -> (Position, Flags) {
        (position.forfeit(), Flags::default())
    }

    #[inline]
    fn status(variant: &Variant, position: &Position) -> Status {
        position.status(variant)
    }

    fn refusal(variant: &Variant, position: &Position, roll: u8, mv: Move) -> Refusal {
        position.refusal(variant, roll, mv)
    }
}

/// Records of the Royal Game of Ur (spec §13): rolls 0 to 4, faces of three
/// or four dice, and the turn kept by a destination square's name.
impl dice_core::Notation for Ur {
    const MAX_ROLL: u8 = ROLL_MAX;
    const FACES_LEN: std::ops::RangeInclusive<usize> = 3..=4;
    type Extra = ();

    /// The same side throws again when the move's destination square is
    /// named `a1 g1 a3 g3 d2`, whatever the route; home and a lost turn pass.
    fn next_in_record(_variant: &Variant, side: Side, _roll: u8, mv: Option<Move>) -> Side {
        match mv {
            Some(mv) if mv.lands_on_rosette() => side,
            _ => side.other(),
        }
    }

    fn next_in_record_why(
        _variant: &Variant,
        _side: Side,
        _roll: u8,
        mv: Option<Move>,
    ) -> &'static str {
        match mv {
            None => "loses the turn to the roll, so the other side throws",
            Some(mv) if mv.lands_on_rosette() => {
                "lands on a rosette, so the same side throws again"
            }
            Some(mv) if mv.to() == crate::Place::Home => {
                "bears a piece home, so the other side throws"
            }
            Some(_) => "does not land on a rosette, so the other side throws",
        }
    }

    fn spelled_out(variant: &Variant) -> String {
        variant.spelled_out()
    }
}
