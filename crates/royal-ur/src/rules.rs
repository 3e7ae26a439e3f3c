//! Move generation, applying moves, refusals, and the `Rules` impl.

use dice_core::{Chance, Faces, MoveList, Opening, Side, Status};

use crate::moves::{HAND, HOME};
use crate::path::Table;
use crate::{Flags, Inconsistency, Move, ParseMoveError, Path, Place, Position, Refusal, Variant};

/// The highest roll of the reference's rule sets (3 or 4 dice): moves are
/// asked for rolls 0 to 4 under them. A rule set with more dice allows up
/// to its own highest roll ([`Variant::roll_limit`]).
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
    /// by ascending step of their own path (a piece on its second visit at
    /// its later step). No moves for a roll of 0 or above the rule set's
    /// limit ([`Variant::roll_limit`]: 4, or the dice's highest roll when
    /// that is more), or once someone has won.
    ///
    /// This is the hot path: table lookups and bit masks, no allocation.
    #[inline]
    pub fn legal_into(&self, variant: &Variant, roll: u8, out: &mut MoveList<Move>) {
        out.clear();
        let pieces = variant.pieces();
        if roll == 0
            || (roll > ROLL_MAX && roll > variant.max_roll())
            || self.homes[0] >= pieces
            || self.homes[1] >= pieces
        {
            return;
        }
        let path = variant.path();
        let t = path.table(self.side);
        match path {
            Path::Bell | Path::Masters => self.legal_on::<false, false>(variant, t, roll, out),
            Path::Aseb | Path::Murray | Path::Skiriuk => {
                self.legal_elsewhere(variant, t, roll, out);
            }
        }
    }

    /// [`Position::legal_into`] on the aseb board or a path that visits
    /// squares twice, kept out of line so that the reference's paths stay
    /// small enough to inline.
    #[inline(never)]
    fn legal_elsewhere(&self, variant: &Variant, t: &Table, roll: u8, out: &mut MoveList<Move>) {
        if variant.path().revisits() {
            self.legal_on::<false, true>(variant, t, roll, out);
        } else {
            self.legal_on::<true, false>(variant, t, roll, out);
        }
    }

    /// [`Position::legal_into`] on one path's table `t`, for a roll of 1 up
    /// to the limit: `WIDE` for the aseb board (squares past the standard
    /// board's twenty), `LAPS` for a path that visits `a2..g2` twice.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `me` and `me ^ 1` are 0 or 1 into two-entry per-side arrays, and \
                  every `cell` index is below 32 entries: `roll` is at most 9, `s` is a step of \
                  the path (at most 27) and `land` is below `home` (at most 28)"
    )]
    fn legal_on<const WIDE: bool, const LAPS: bool>(
        &self,
        variant: &Variant,
        t: &Table,
        roll: u8,
        out: &mut MoveList<Move>,
    ) {
        let me = self.side.index();
        let own = self.boards[me];
        let enemy = self.boards[me ^ 1];
        let rosettes = if WIDE {
            crate::BoardShape::Aseb.rosette_mask()
        } else {
            crate::square::ROSETTE_MASK
        };
        let blocked = own
            | if variant.safe_rosettes() {
                enemy & rosettes
            } else {
                0
            };
        let home = t.len + 1;
        if self.hands[me] > 0 {
            let to = t.cell[usize::from(roll) & 31];
            out.push_if(Move { from: HAND, to }, blocked & (1 << to) == 0);
        }
        let mut steps = if LAPS {
            let lap = self.laps() & (own >> 6) as u8;
            t.steps_of(own & !(u32::from(lap) << 6)) | t.lap_steps(lap)
        } else if WIDE {
            t.steps_of_wide(own)
        } else {
            t.steps_of(own)
        };
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

    /// Makes a move for `roll` under `variant` without checking that it is
    /// legal, and says what it did.
    ///
    /// The piece leaves the hand or its square; going home adds one to home;
    /// otherwise an enemy on the destination goes back to its owner's hand
    /// and the piece is placed there (on murray's and skiriuk's paths, at
    /// the visit `roll` brings it to). The same side moves again when the
    /// piece landed on a rosette and a rosette throws again, or it captured
    /// and a capture throws again (once, if both); the other side otherwise.
    /// A move home is never a rosette move nor a capture.
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
    pub fn apply_unchecked(
        &self,
        variant: &Variant,
        roll: u8,
        mv: Move,
    ) -> Option<(Position, Flags)> {
        // The next position is built whole from the mover's and the enemy's
        // parts, not copied and then patched through `me`-indexed fields: a
        // patched copy sits in memory and is read back wider than it was
        // written, which stalls the processor on every move.
        let me = self.side.index();
        let [mut own, mut enemy] = [self.boards[me], self.boards[me ^ 1]];
        let [mut hand, mut enemy_hand] = [self.hands[me], self.hands[me ^ 1]];
        let [mut home, enemy_home] = [self.homes[me], self.homes[me ^ 1]];
        if mv.from == HAND {
            hand = hand.checked_sub(1)?;
        } else {
            let bit = 1u32 << (mv.from & 31);
            if own & bit == 0 {
                return None;
            }
            own &= !bit;
        }
        let mut flags = Flags::default();
        if mv.to == HOME {
            home = home.saturating_add(1);
            flags.home = true;
        } else {
            let bit = 1u32 << (mv.to & 31);
            if enemy & bit != 0 {
                enemy &= !bit;
                enemy_hand = enemy_hand.saturating_add(1);
                flags.captures = true;
            }
            own |= bit;
            flags.rosette = self.shape().rosette_mask() & bit != 0;
        }
        let mut next = Position {
            boards: per_side(self.side, own, enemy),
            hands: per_side(self.side, hand, enemy_hand),
            homes: per_side(self.side, home, enemy_home),
            side: if variant.throws_again(flags) {
                self.side
            } else {
                self.side.other()
            },
            meta: self.meta,
        };
        if variant.path().revisits() {
            next.set_laps(self.laps_after(variant.path(), roll, mv));
        }
        Some((next, flags))
    }

    /// The second visits after `mv` for `roll` on a path that revisits: the
    /// piece leaving a square takes its mark with it, and the square it
    /// lands on is marked when `roll` brings it there on its second visit.
    #[inline(never)]
    fn laps_after(&self, path: Path, roll: u8, mv: Move) -> u8 {
        let t = path.table(self.side);
        let mut laps = self.laps();
        let from_step = match mv.from() {
            Place::Square(sq) => {
                let step = self.step_at(self.side, sq, path).unwrap_or(0);
                laps &= !crate::position::lap_bit(sq);
                step
            }
            Place::Hand | Place::Home => 0,
        };
        if let Place::Square(sq) = mv.to() {
            let bit = crate::position::lap_bit(sq);
            let second = t.step2.get(sq.cell()).copied().unwrap_or(0);
            if second != 0 && second == from_step.saturating_add(roll) {
                laps |= bit;
            } else {
                laps &= !bit;
            }
        }
        laps
    }

    /// The position after a turn lost to the roll: the other side moves.
    /// Like every question a rule set could answer, in both games, it takes
    /// the rule set; every rule set here loses a turn alike.
    #[must_use]
    pub const fn forfeit(&self, _variant: &Variant) -> Position {
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
            && let Some(done) = self.apply_unchecked(variant, roll, mv)
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
    ///    mover's piece on a square its path does not visit → `no_piece`;
    /// 3. to home: past home → `overshoot`, short of it → `wrong_distance`;
    /// 4. to a square that is not the roll away along the path (from the
    ///    visit the piece is on) → `wrong_distance`;
    /// 5. the mover's own piece there → `own_piece`; an enemy on a rosette
    ///    under safe rosettes → `safe_rosette`;
    /// 6. otherwise `bad_move` (a legal move, or a finished game).
    #[must_use]
    pub fn refusal(&self, variant: &Variant, roll: u8, mv: Move) -> Refusal {
        let path = variant.path();
        let t = path.table(self.side);
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
                Some(_) => match self.step_at(self.side, sq, path) {
                    None => return Refusal::NoPiece,
                    Some(s) => s,
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
                let on_path = lands >= 1
                    && lands <= u32::from(t.len)
                    && t.cell
                        .get(lands as usize)
                        .is_some_and(|&cell| usize::from(cell) == sq.cell());
                if !on_path {
                    Refusal::WrongDistance
                } else {
                    match self.at(sq) {
                        Some(s) if s == self.side => Refusal::OwnPiece,
                        Some(_) if self.shape().is_rosette(sq) && variant.safe_rosettes() => {
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
    type Inconsistency = Inconsistency;

    fn dice(variant: &Variant) -> u8 {
        variant.dice()
    }

    /// Reads a move's text with the squares of the rule set's board (see
    /// [`Move::parse_on`]).
    fn parse_move(variant: &Variant, text: &str) -> Result<Move, ParseMoveError> {
        Move::parse_on(text, variant.board())
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
    fn check_position(variant: &Variant, position: &Position) -> Result<(), Inconsistency> {
        position.check(variant)
    }

    #[inline]
    fn legal(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
        position.legal_into(variant, roll, out);
    }

    #[inline]
    fn apply(variant: &Variant, position: &Position, roll: u8, mv: Move) -> (Position, Flags) {
        position
            .apply_unchecked(variant, roll, mv)
            .unwrap_or((*position, Flags::default()))
    }

    #[inline]
    fn forfeit(variant: &Variant, position: &Position, _roll: u8) -> (Position, Flags) {
        (position.forfeit(variant), Flags::default())
    }

    #[inline]
    fn status(variant: &Variant, position: &Position) -> Status {
        position.status(variant)
    }

    fn refusal(variant: &Variant, position: &Position, roll: u8, mv: Move) -> Refusal {
        position.refusal(variant, roll, mv)
    }
}

/// Records of the Royal Game of Ur (spec §13): rolls 0 to 4 and faces of
/// three or four dice under the reference's rule sets (up to the dice's
/// highest roll, and as many faces as dice, under others), and who throws
/// next judged from the line.
impl dice_core::Notation for Ur {
    type Extra = ();

    fn read_rules_line(text: &str) -> Result<Variant, dice_core::VariantError> {
        Variant::from_rules_line(text)
    }

    fn max_roll(variant: &Variant) -> u8 {
        variant.roll_limit()
    }

    /// 3 or 4, the reference's, widened to take in the rule set's dice.
    fn faces_len(variant: &Variant) -> std::ops::RangeInclusive<usize> {
        let dice = usize::from(variant.dice());
        dice.min(3)..=dice.max(4)
    }

    /// Under the reference's rule sets, the same side throws again when the
    /// move's destination square is named `a1 g1 a3 g3 d2`, whatever the
    /// route; home and a lost turn pass. Under others: a move onto a
    /// rosette of the board keeps the turn when a rosette throws again; a
    /// move that may have captured (onto a square the enemy's path visits,
    /// not a safe rosette) may keep it when a capture throws again, which
    /// the line alone does not say (`None`: the replay checks the side);
    /// anything else passes it.
    fn next_in_record(variant: &Variant, side: Side, _roll: u8, mv: Option<Move>) -> Option<Side> {
        let Some(mv) = mv else {
            return Some(side.other());
        };
        if variant.is_reference() {
            return Some(if mv.lands_on_rosette() {
                side
            } else {
                side.other()
            });
        }
        match turn_after(variant, side, mv) {
            Turn::Again => Some(side),
            Turn::Either => None,
            Turn::Passes => Some(side.other()),
        }
    }

    fn next_in_record_why(
        variant: &Variant,
        side: Side,
        _roll: u8,
        mv: Option<Move>,
    ) -> &'static str {
        let Some(mv) = mv else {
            return "loses the turn to the roll, so the other side throws";
        };
        if mv.to() == Place::Home {
            return "bears a piece home, so the other side throws";
        }
        if variant.is_reference() {
            return if mv.lands_on_rosette() {
                "lands on a rosette, so the same side throws again"
            } else {
                "does not land on a rosette, so the other side throws"
            };
        }
        match turn_after(variant, side, mv) {
            Turn::Again => "lands on a rosette, so the same side throws again",
            Turn::Either => {
                "may have captured, and a capture throws again under these rules, so either \
                 side may throw next"
            }
            Turn::Passes if variant.capture_again() => {
                "cannot have captured and does not land on a rosette that throws again, so \
                 the other side throws"
            }
            Turn::Passes => {
                "does not land on a rosette that throws again, so the other side throws"
            }
        }
    }

    fn spelled_out(variant: &Variant) -> String {
        variant.spelled_out()
    }
}

/// `own` (`side`'s) and `enemy` (the other side's) as a per-side pair,
/// light's first, as [`Position`] keeps them.
const fn per_side<T: Copy>(side: Side, own: T, enemy: T) -> [T; 2] {
    match side {
        Side::Light => [own, enemy],
        Side::Dark => [enemy, own],
    }
}

/// Who throws after a move, as far as its text tells.
enum Turn {
    /// The same side.
    Again,
    /// Either, depending on whether it captured.
    Either,
    /// The other side.
    Passes,
}

/// Who throws after `side` makes `mv` under `variant`, judged from the move
/// alone: onto a rosette of the board that throws again, the same side; a
/// move that may capture (onto a square the enemy's path visits, which is
/// not a safe rosette) under capture_again, either; anything else, the
/// other side.
fn turn_after(variant: &Variant, side: Side, mv: Move) -> Turn {
    let Place::Square(to) = mv.to() else {
        return Turn::Passes;
    };
    let board = variant.board();
    let rosette = board.is_rosette(to);
    if rosette && variant.rosette_again() {
        return Turn::Again;
    }
    let enemy_visits = variant.path().step_of(side.other(), to).is_some();
    let may_capture = enemy_visits && !(rosette && variant.safe_rosettes());
    if variant.capture_again() && may_capture {
        Turn::Either
    } else {
        Turn::Passes
    }
}
