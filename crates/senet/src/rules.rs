//! The rules of Senet as pure functions, on dice-core's [`Rules`] trait.

use dice_core::{Faces, MoveList, Notation, Opening, Rules, Side, Status};

use crate::house::{BEFORE_HAPPINESS, HAPPINESS, HORUS, OFF, REBIRTH, WATER};
use crate::position::{bit, blockade_mask, protected_mask, run_of};
use crate::{
    Flags, House, Move, Off30, On26, ParseMoveError, Place, Position, Reach26, Refusal, Seat,
    Variant, Water,
};

/// The rules of Senet, for [`dice_core::Game`]: a marker type with no values.
///
/// Everything here is a pure function of the rules, the position and the
/// roll: no I/O, no allocation in move generation.
///
/// ```
/// use dice_core::{MoveList, Rules, Side};
/// use senet::{Position, Senet, Variant};
///
/// let v = Variant::KENDALL;
/// let start = Position::start(&v, Side::Light);
/// let mut moves = MoveList::new();
/// Senet::legal(&v, &start, 1, &mut moves);
/// let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
/// assert_eq!(texts, ["2-3", "4-5", "6-7", "8-9", "10-11"]); // every swap is open: no runs yet
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Senet {}

impl Position {
    /// The legal moves for `roll` (1..=5), in the rules' order, written into
    /// `out` (cleared first): forward moves by ascending departure house,
    /// or, when there are none, backward moves the same way; only the piece
    /// on 26 when the throw is bound to it. No moves for any other roll, or
    /// once someone has won.
    #[inline]
    pub fn legal_into(&self, variant: &Variant, roll: u8, out: &mut MoveList<Move>) {
        generate(variant, self, roll, out);
    }

    /// The legal moves for `roll` as a list (see [`Position::legal_into`]).
    #[must_use]
    pub fn legal(&self, variant: &Variant, roll: u8) -> MoveList<Move> {
        let mut out = MoveList::new();
        self.legal_into(variant, roll, &mut out);
        out
    }

    /// Plays `mv` for `roll` if it is legal, giving the position after it
    /// and what it did.
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
        judge(variant, self, roll, mv)?;
        Ok(make(variant, self, roll, mv))
    }

    /// The position after a turn lost to `roll`: the same side throws again
    /// after a 1, 4 or 5, the other side after a 2 or 3. Like every
    /// question a rule set could answer, in both games, it takes the rule
    /// set; every rule set here loses a turn alike.
    #[must_use]
    pub const fn forfeit(&self, _variant: &Variant, roll: u8) -> Position {
        if throws_again(roll) {
            *self
        } else {
            self.with_side(self.side.other())
        }
    }

    /// Whether someone has won under `variant`: the first side (light
    /// checked first) with no piece left on the board. The ply cap is the
    /// game's business. (Every rule set ends the same way; the rule set is
    /// asked for, as the Royal Game of Ur's `status` asks for it, so that
    /// both games read alike and a rule set that ends otherwise can.)
    #[must_use]
    pub const fn status(&self, variant: &Variant) -> Status {
        let _ = variant;
        if self.bits(Side::Light) == 0 {
            Status::Won(Side::Light)
        } else if self.bits(Side::Dark) == 0 {
            Status::Won(Side::Dark)
        } else {
            Status::Ongoing
        }
    }

    /// Why `mv` is not legal for `roll` here: the first of the reasons of
    /// spec §3.7 that applies (see [`Refusal`]). For a legal move, which
    /// has no reason, `wrong_distance`.
    #[must_use]
    pub fn refusal(&self, variant: &Variant, roll: u8, mv: Move) -> Refusal {
        // `judge` accepts exactly what `generate` lists (see the tests).
        judge(variant, self, roll, mv)
            .err()
            .unwrap_or(Refusal::WrongDistance)
    }
}

/// The highest roll: four sticks with no marked face.
pub const ROLL_MAX: u8 = 5;

/// Whether a roll gives the same side another throw: 1, 4 or 5.
#[must_use]
pub const fn throws_again(roll: u8) -> bool {
    matches!(roll, 1 | 4 | 5)
}

/// What a throw of four sticks is worth: the count of marked (light) faces,
/// or 5 for none.
#[must_use]
pub const fn roll_of(marked: u8) -> u8 {
    if marked == 0 { 5 } else { marked }
}

/// Everything move generation needs, computed once per position.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    own: u32,
    opp: u32,
    opp_protected: u32,
    opp_blockade: u32,
    variant: Variant,
}

impl Ctx {
    #[inline]
    pub(crate) fn new(variant: &Variant, position: &Position) -> Ctx {
        let own = position.bits(position.side());
        let opp = position.bits(position.side().other());
        Ctx {
            own,
            opp,
            opp_protected: protected_mask(opp, variant.protect),
            opp_blockade: blockade_mask(opp, variant.blockade),
            variant: *variant,
        }
    }
}

/// The houses strictly between `lo` and `hi` (lo < hi), as bits.
#[inline]
const fn between(lo: u8, hi: u8) -> u32 {
    // houses lo+1 ..= hi-1 are bits lo ..= hi-2
    ((1u32 << (hi - 1)) - 1) & !((1u32 << lo) - 1)
}

/// Where a piece sent to rebirth goes: the House of Rebirth (15), or the
/// first empty house below it.
#[inline]
fn rebirth(occupied: u32) -> u8 {
    let free = !occupied & ((1u32 << REBIRTH) - 1);
    if free == 0 {
        // cannot happen: at most 13 other pieces stand on houses 1..15
        REBIRTH
    } else {
        (32 - free.leading_zeros()) as u8
    }
}

/// A judged move: (the rank the roll points to, the rank where the piece
/// ends, whether it swaps).
type Judged = (u8, u8, bool);

/// Off the board, as a judged move: the piece leaves from its house.
const BORNE_OFF: Judged = (OFF, OFF, false);

#[inline]
fn path_clear(c: &Ctx, lo: u8, hi: u8, target: u8, swap: bool) -> bool {
    let mut blocked = between(lo, hi) & c.opp_blockade;
    if blocked != 0 && swap {
        // breaking: the run of the piece landed on may be passed
        blocked &= !run_of(c.opp, target);
    }
    blocked == 0
}

/// A forward move of the mover's piece on `f` by `r`.
#[inline]
pub(crate) fn forward(c: &Ctx, f: u8, r: u8) -> Result<Judged, Refusal> {
    let occupied = c.own | c.opp;
    match f {
        1..=BEFORE_HAPPINESS => {
            let mut t = f + r;
            if t > HAPPINESS {
                if c.variant.reach26 == Reach26::From25 && f == BEFORE_HAPPINESS {
                    t = HAPPINESS;
                } else {
                    return Err(Refusal::Overshoot);
                }
            }
            let tb = bit(t);
            if c.own & tb != 0 {
                return Err(Refusal::OwnPiece);
            }
            let swap = c.opp & tb != 0;
            if swap {
                if t >= HAPPINESS {
                    return Err(Refusal::Occupied);
                }
                if c.opp_protected & tb != 0 {
                    return Err(Refusal::Protected);
                }
            }
            if !path_clear(c, f, t, t, swap) {
                return Err(Refusal::Blockade);
            }
            Ok((t, t, swap))
        }
        HAPPINESS => {
            let t = HAPPINESS + r;
            if t >= OFF {
                return Ok(BORNE_OFF);
            }
            match c.variant.water {
                Water::Reborn => {
                    if t == WATER {
                        return Ok((WATER, rebirth(occupied & !bit(HAPPINESS)), false));
                    }
                    let tb = bit(t);
                    if c.own & tb != 0 {
                        Err(Refusal::OwnPiece)
                    } else if c.opp & tb != 0 {
                        Err(Refusal::Occupied)
                    } else {
                        Ok((t, t, false))
                    }
                }
                Water::Stand => {
                    let ends = if occupied & bit(t) == 0 {
                        t
                    } else if occupied & bit(WATER) == 0 {
                        WATER
                    } else {
                        rebirth(occupied & !bit(HAPPINESS))
                    };
                    Ok((t, ends, false))
                }
            }
        }
        // The water: 1 to 3 point to 28..30 but send the piece back; only
        // the roll that takes it off (4) lets it leave.
        WATER => match r {
            1..=3 => Ok((WATER + r, rebirth(occupied & !bit(WATER)), false)),
            _ if WATER + r == OFF => Ok(BORNE_OFF),
            _ => Err(Refusal::Overshoot),
        },
        // 28, 29 and 30 are left by the roll that takes the piece off
        // exactly; 30 by any roll under off30=any.
        _ if f + r == OFF || (f == HORUS && c.variant.off30 == Off30::Any) => Ok(BORNE_OFF),
        _ => Err(Refusal::Overshoot),
    }
}

/// A backward move of the mover's piece on `f` by `r`.
#[inline]
pub(crate) fn backward(c: &Ctx, f: u8, r: u8) -> Result<Judged, Refusal> {
    if f >= HAPPINESS {
        return Err(Refusal::BackwardNotAllowed);
    }
    if r >= f {
        return Err(Refusal::WrongDistance);
    }
    let t = f - r;
    let tb = bit(t);
    if c.own & tb != 0 {
        return Err(Refusal::OwnPiece);
    }
    let swap = c.opp & tb != 0;
    if swap && c.opp_protected & tb != 0 {
        return Err(Refusal::Protected);
    }
    if !path_clear(c, t, f, t, swap) {
        return Err(Refusal::Blockade);
    }
    Ok((t, t, swap))
}

/// The rank a forward move's roll points to (spec §3).
#[inline]
fn nominal_forward(variant: &Variant, f: u8, r: u8) -> u8 {
    if f == BEFORE_HAPPINESS && variant.reach26 == Reach26::From25 {
        HAPPINESS
    } else {
        (f + r).min(OFF)
    }
}

/// The bits of houses 1..=25.
const BEFORE_HAPPINESS_MASK: u32 = (1 << BEFORE_HAPPINESS) - 1;
/// The bits of houses 1..=26.
const UP_TO_HAPPINESS_MASK: u32 = (1 << HAPPINESS) - 1;

/// Starts generating the legal moves into `out` (cleared): the context to
/// go on with, or `None` when the moves are already all there (none for a
/// roll the sticks cannot make or a finished game; the bound piece's one
/// move, if it has it, for a throw bound to 26).
#[inline]
fn begin(
    variant: &Variant,
    position: &Position,
    roll: u8,
    out: &mut MoveList<Move>,
) -> Option<Ctx> {
    out.clear();
    if !(1..=ROLL_MAX).contains(&roll)
        || position.bits(Side::Light) == 0
        || position.bits(Side::Dark) == 0
    {
        return None;
    }
    let c = Ctx::new(variant, position);
    let Some(b) = position.bound(variant).map(House::number) else {
        return Some(c);
    };
    if let Ok((to, _, _)) = forward(&c, b, roll) {
        out.push(Move::between(b, to));
    }
    None
}

/// The legal moves, into `out` (cleared first). Exposed through
/// [`Position::legal_into`] and [`Rules`].
///
/// Forward moves from 1..=25 are found for all pieces at once on bitboards;
/// the rare cases (breaking a run, from 25 under `from25`, pieces on 26..30)
/// go through [`forward`] one by one.
#[inline]
pub(crate) fn generate(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
    let Some(c) = begin(variant, position, roll, out) else {
        return;
    };
    let r = u32::from(roll);
    let (own, opp) = (c.own, c.opp);
    let low = own & BEFORE_HAPPINESS_MASK;
    // landing houses 1..=26: not own, not a protected enemy, not an enemy on 26
    let land = !own & !(opp & (c.opp_protected | !BEFORE_HAPPINESS_MASK)) & UP_TO_HAPPINESS_MASK;
    let base = low & (land >> r);
    let mut path = 0u32;
    for k in 1..r {
        path |= c.opp_blockade >> k;
    }
    let mut ok = base & !path;
    let mut slow = (base & path & ((opp & c.opp_blockade) >> r)) | (own & !BEFORE_HAPPINESS_MASK);
    if variant.reach26 == Reach26::From25 && roll >= 2 {
        slow |= own & bit(BEFORE_HAPPINESS);
    }
    while slow != 0 {
        let f = slow.trailing_zeros() as u8 + 1;
        slow &= slow - 1;
        if forward(&c, f, roll).is_ok() {
            ok |= bit(f);
        }
    }
    if ok != 0 {
        while ok != 0 {
            let f = ok.trailing_zeros() as u8 + 1;
            ok &= ok - 1;
            let t = f + roll;
            if t <= HAPPINESS {
                out.push(Move::between(f, t));
            } else if let Ok((to, _, _)) = forward(&c, f, roll) {
                out.push(Move::between(f, to));
            }
        }
        return;
    }
    let mut pieces = own & BEFORE_HAPPINESS_MASK;
    while pieces != 0 {
        let f = pieces.trailing_zeros() as u8 + 1;
        pieces &= pieces - 1;
        if let Ok((to, _, _)) = backward(&c, f, roll) {
            out.push(Move::between(f, to));
        }
    }
}

/// The legal moves one piece at a time, straight from the rules: the
/// reference the bitboard generator is tested against.
#[cfg(test)]
pub(crate) fn generate_plain(
    variant: &Variant,
    position: &Position,
    roll: u8,
    out: &mut MoveList<Move>,
) {
    let Some(c) = begin(variant, position, roll, out) else {
        return;
    };
    for f in 1..=HORUS {
        if c.own & bit(f) != 0
            && let Ok((to, _, _)) = forward(&c, f, roll)
        {
            out.push(Move::between(f, to));
        }
    }
    if out.is_empty() {
        for f in 1..=BEFORE_HAPPINESS {
            if c.own & bit(f) != 0
                && let Ok((to, _, _)) = backward(&c, f, roll)
            {
                out.push(Move::between(f, to));
            }
        }
    }
}

/// Judges a move of the side to move: `Ok` exactly when [`generate`] lists
/// it, else why not. Exposed through [`Position::refusal`].
pub(crate) fn judge(
    variant: &Variant,
    position: &Position,
    roll: u8,
    mv: Move,
) -> Result<(), Refusal> {
    let f = mv.departure();
    match position.at(mv.from()) {
        None => return Err(Refusal::NoPiece),
        Some(s) if s != position.side() => return Err(Refusal::NotYourPiece),
        Some(_) => {}
    }
    if let Some(b) = position.bound(variant)
        && mv.from() != b
    {
        return Err(Refusal::Bound);
    }
    let c = Ctx::new(variant, position);
    let to = mv.to_rank();
    if to < f {
        if f >= HAPPINESS {
            return Err(Refusal::BackwardNotAllowed);
        }
        let mut list = MoveList::new();
        generate(variant, position, roll, &mut list);
        if list.iter().any(|m| !m.is_backward()) {
            return Err(Refusal::BackwardNotAllowed);
        }
        if u16::from(to) + u16::from(roll) != u16::from(f) {
            return Err(Refusal::WrongDistance);
        }
        return backward(&c, f, roll).map(|_| ());
    }
    if to != nominal_forward(variant, f, roll) {
        return Err(Refusal::WrongDistance);
    }
    forward(&c, f, roll).map(|_| ())
}

/// The position after a move `legal` lists, and its flags. The move is
/// trusted (dice-core applies only listed moves); any other move gives some
/// position but never a panic.
///
/// Applying runs for every node a search visits, so it indexes the boards
/// directly: both indices are a `Side::index`, 0 or 1, into the two-entry
/// `boards`.
#[inline]
#[allow(
    clippy::indexing_slicing,
    reason = "hot path; the only indices are `Side::index` (0 or 1) into `[u32; 2]`"
)]
pub(crate) fn make(
    variant: &Variant,
    position: &Position,
    roll: u8,
    mv: Move,
) -> (Position, Flags) {
    let side = position.side();
    let f = mv.departure();
    let t = mv.to_rank();
    let mut p = *position;
    let (own, opp) = (position.bits(side), position.bits(side.other()));
    let (ends, swap) = if f <= BEFORE_HAPPINESS && t <= HAPPINESS {
        (t, t < HAPPINESS && opp & bit(t) != 0)
    } else {
        let c = Ctx {
            own,
            opp,
            opp_protected: 0,
            opp_blockade: 0,
            variant: *variant,
        };
        match forward(&c, f, roll) {
            Ok((_, ends, _)) => (ends, false),
            Err(_) => return (*position, Flags::default()),
        }
    };
    let mine = &mut p.boards[side.index()];
    *mine &= !bit(f);
    if ends <= HORUS {
        *mine |= bit(ends);
    }
    if swap {
        let theirs = &mut p.boards[side.other().index()];
        *theirs &= !bit(t);
        *theirs |= bit(f);
    }
    let again = throws_again(roll) || (variant.on26 == On26::Again && ends == HAPPINESS);
    p.side = if again { side } else { side.other() };
    (
        p,
        Flags {
            again,
            swap,
            ends: Some(Place::from_rank(ends)),
        },
    )
}

impl Rules for Senet {
    const GAME: &'static str = "senet";

    type Variant = Variant;
    type Position = Position;
    type Move = Move;
    type MoveError = ParseMoveError;
    type Refusal = Refusal;
    type Flags = Flags;
    type Inconsistency = crate::Inconsistency;

    fn dice(_variant: &Variant) -> u8 {
        4
    }

    #[inline]
    fn roll(_variant: &Variant, faces: Faces) -> u8 {
        roll_of(faces.marked())
    }

    fn chances(variant: &Variant) -> &'static [dice_core::Chance] {
        variant.chances()
    }

    fn opening(_variant: &Variant) -> Opening {
        Opening::Fixed(Side::Light)
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

    fn check_position(variant: &Variant, position: &Position) -> Result<(), crate::Inconsistency> {
        position.check(variant)
    }

    #[inline]
    fn legal(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
        position.legal_into(variant, roll, out);
    }

    #[inline]
    fn apply(variant: &Variant, position: &Position, roll: u8, mv: Move) -> (Position, Flags) {
        make(variant, position, roll, mv)
    }

    #[inline]
    fn forfeit(variant: &Variant, position: &Position, roll: u8) -> (Position, Flags) {
        let flags = Flags {
            again: throws_again(roll),
            swap: false,
            ends: None,
        };
        (position.forfeit(variant, roll), flags)
    }

    #[inline]
    fn status(variant: &Variant, position: &Position) -> Status {
        position.status(variant)
    }

    fn refusal(variant: &Variant, position: &Position, roll: u8, mv: Move) -> Refusal {
        position.refusal(variant, roll, mv)
    }
}

/// Whether a record's move earns one more throw by reaching house 26 under
/// `on26=again`, judged from its text.
fn reaches_happiness_again(variant: &Variant, mv: Option<Move>) -> bool {
    variant.on26 == On26::Again && mv.is_some_and(|m| m.to() == Place::House(House::HAPPINESS))
}

/// Senet records (spec §7): rolls up to 5, the turn-line shape of the Royal
/// Game of Ur's records (three or four faces, so that three sticks are a
/// `faces` error rather than a malformed line), and a `[light p2]` header
/// when light does not sit at p1.
impl Notation for Senet {
    type Extra = Seat;

    fn read_rules_line(text: &str) -> Result<Variant, dice_core::VariantError> {
        Variant::from_rules_line(text)
    }

    fn max_roll(_variant: &Variant) -> u8 {
        ROLL_MAX
    }

    fn faces_len(_variant: &Variant) -> std::ops::RangeInclusive<usize> {
        3..=4
    }

    fn next_in_record(variant: &Variant, side: Side, roll: u8, mv: Option<Move>) -> Option<Side> {
        Some(
            if throws_again(roll) || reaches_happiness_again(variant, mv) {
                side
            } else {
                side.other()
            },
        )
    }

    fn next_in_record_why(
        variant: &Variant,
        _side: Side,
        roll: u8,
        mv: Option<Move>,
    ) -> &'static str {
        if reaches_happiness_again(variant, mv) {
            "reaches house 26, which earns one more throw (on26=again)"
        } else if throws_again(roll) {
            "has a roll of 1, 4 or 5, so the same side throws again"
        } else {
            "has a roll of 2 or 3, so the sticks pass to the other side"
        }
    }

    fn spelled_out(variant: &Variant) -> String {
        variant.spelled_out()
    }

    fn extra_header(extra: &Seat) -> Option<String> {
        match extra {
            Seat::P1 => None,
            Seat::P2 => Some("light p2".to_owned()),
        }
    }

    fn read_extra_header(text: &str) -> Option<Seat> {
        (text == "light p2").then_some(Seat::P2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::house::HOUSES;
    use dice_core::Xorshift;

    fn random_position(rng: &mut Xorshift, variant: &Variant) -> Position {
        let mut p = Position::empty(if rng.next_u64().is_multiple_of(2) {
            Side::Light
        } else {
            Side::Dark
        });
        for side in Side::ALL {
            let n = 1 + rng.below(usize::from(variant.piece_count()));
            let mut placed = 0;
            while placed < n {
                let h = 1 + rng.below(usize::from(HOUSES)) as u8;
                if p.at_bits(h).is_none() && !(h == WATER && variant.water == Water::Reborn) {
                    p.boards[side.index()] |= bit(h);
                    placed += 1;
                }
            }
        }
        p
    }

    fn variants() -> Vec<Variant> {
        let mut all = Vec::new();
        for protect in ["all", "ends"] {
            for blockade in ["3", "2"] {
                for reach in ["exact", "from25"] {
                    for on26 in ["none", "again"] {
                        for water in ["reborn", "stand"] {
                            for off30 in ["one", "any"] {
                                let text = format!(
                                    "protect={protect} blockade={blockade} reach26={reach} on26={on26} water={water} off30={off30} pieces=7"
                                );
                                all.push(text.parse().unwrap());
                            }
                        }
                    }
                }
            }
        }
        all
    }

    /// The bitboard generator agrees with the plain one, move for move and
    /// in order, and `judge` accepts exactly the listed moves (so the
    /// refusal fallback is never reached).
    #[test]
    fn bitboards_agree_with_the_plain_rules_and_judge() {
        let mut rng = Xorshift::new(7);
        let mut fast = MoveList::new();
        let mut plain = MoveList::new();
        for variant in variants() {
            for _ in 0..60 {
                let p = random_position(&mut rng, &variant);
                for roll in 1..=5 {
                    generate(&variant, &p, roll, &mut fast);
                    generate_plain(&variant, &p, roll, &mut plain);
                    assert_eq!(fast, plain, "{p} roll {roll} under {variant}");
                    let c = Ctx::new(&variant, &p);
                    for from in 1..=HORUS {
                        for to in 1..=OFF {
                            if to == from {
                                continue;
                            }
                            let mv = Move::between(from, to);
                            let listed = fast.iter().find(|m| **m == mv);
                            match (judge(&variant, &p, roll, mv), listed) {
                                (Ok(()), Some(_)) => {
                                    // The fast apply agrees with the rules'
                                    // judgement of where the piece ends.
                                    let judged = if mv.is_backward() {
                                        backward(&c, from, roll)
                                    } else {
                                        forward(&c, from, roll)
                                    };
                                    let (_, ends, swap) = judged.unwrap();
                                    let (q, flags) = make(&variant, &p, roll, mv);
                                    assert_eq!(
                                        flags.ends,
                                        Some(Place::from_rank(ends)),
                                        "{p} {mv} roll {roll}"
                                    );
                                    assert_eq!(flags.swap, swap);
                                    assert_eq!(
                                        q.on_board(p.side()) + u8::from(ends == OFF),
                                        p.on_board(p.side())
                                    );
                                }
                                (Err(_), None) => {}
                                (j, l) => panic!(
                                    "{p} roll {roll} {mv} under {variant}: judge {j:?}, listed {l:?}"
                                ),
                            }
                        }
                    }
                }
            }
        }
    }
}
