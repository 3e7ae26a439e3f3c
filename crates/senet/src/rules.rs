//! The rules of Senet as pure functions, on dice-core's [`Rules`] trait.

use dice_core::{Faces, MoveList, Notation, Opening, Rules, Side, Status};
use serde::{Deserialize, Serialize};

use crate::position::{bit, blockade_mask, protected_mask, run_of};
use crate::{Dest, Move, On26, ParseMoveError, Position, Reach26, Refusal, Seat, Variant, Water};

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

/// What a log entry says beyond the move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Flags {
    /// The same side throws next.
    pub again: bool,
    /// The move swapped an enemy piece back to the departure house.
    pub swap: bool,
    /// Where the moved piece ended (`None` for a lost turn).
    pub ends: Option<Dest>,
}

/// Whether a roll gives the same side another throw: 1, 4 or 5.
#[must_use]
pub const fn throws_again(roll: u8) -> bool {
    matches!(roll, 1 | 4 | 5)
}

/// What a throw of four sticks is worth: the count of light faces, or 5 for
/// none.
#[must_use]
pub const fn roll_of(throw: u8) -> u8 {
    if throw == 0 { 5 } else { throw }
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

/// Where a piece sent to rebirth goes: 15, or the first empty house below.
#[inline]
fn rebirth(occupied: u32) -> u8 {
    let free = !occupied & ((1u32 << 15) - 1);
    if free == 0 {
        // cannot happen: at most 13 other pieces stand on houses 1..15
        15
    } else {
        (32 - free.leading_zeros()) as u8
    }
}

/// A judged move: (nominal destination rank, where it ends (rank), swap).
type Judged = (u8, u8, bool);

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
        1..=25 => {
            let mut t = f + r;
            if t > 26 {
                if c.variant.reach26 == Reach26::From25 && f == 25 {
                    t = 26;
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
                if t >= 26 {
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
        26 => {
            if r >= 5 {
                return Ok((31, 31, false));
            }
            let t = 26 + r;
            match c.variant.water {
                Water::Reborn => {
                    if t == 27 {
                        return Ok((27, rebirth(occupied & !bit(26)), false));
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
                    } else if occupied & bit(27) == 0 {
                        27
                    } else {
                        rebirth(occupied & !bit(26))
                    };
                    Ok((t, ends, false))
                }
            }
        }
        27 => match r {
            1..=3 => Ok((27 + r, rebirth(occupied & !bit(27)), false)),
            4 => Ok((31, 31, false)),
            _ => Err(Refusal::Overshoot),
        },
        28 if r == 3 => Ok((31, 31, false)),
        29 if r == 2 => Ok((31, 31, false)),
        30 if r == 1 || c.variant.off30 == crate::Off30::Any => Ok((31, 31, false)),
        _ => Err(Refusal::Overshoot),
    }
}

/// A backward move of the mover's piece on `f` by `r`.
#[inline]
pub(crate) fn backward(c: &Ctx, f: u8, r: u8) -> Result<Judged, Refusal> {
    if f >= 26 {
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

/// The nominal destination rank of a forward move (spec §3).
#[inline]
fn nominal_forward(variant: &Variant, f: u8, r: u8) -> u8 {
    if f == 25 && variant.reach26 == Reach26::From25 {
        26
    } else {
        (f + r).min(31)
    }
}

/// The bits of houses 1..=25.
const LOW25: u32 = (1 << 25) - 1;
/// The bits of houses 1..=26.
const LOW26: u32 = (1 << 26) - 1;

/// The legal moves, into `out` (cleared first). Exposed through [`Rules`].
///
/// Forward moves from 1..=25 are found for all pieces at once on bitboards;
/// the rare cases (breaking a run, from 25 under `from25`, pieces on 26..30)
/// go through [`forward`] one by one.
#[inline]
pub(crate) fn generate(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
    out.clear();
    if !(1..=5).contains(&roll) || position.bits(Side::Light) == 0 || position.bits(Side::Dark) == 0
    {
        return;
    }
    let c = Ctx::new(variant, position);
    if let Some(b) = position.bound(variant) {
        if let Ok((to, ends, swap)) = forward(&c, b, roll) {
            out.push(Move::judged(b, to, ends, swap));
        }
        return;
    }
    let r = u32::from(roll);
    let (own, opp) = (c.own, c.opp);
    let low = own & LOW25;
    // landing houses 1..=26: not own, not a protected enemy, not an enemy on 26
    let land = !own & !(opp & (c.opp_protected | !LOW25)) & LOW26;
    let base = low & (land >> r);
    let mut path = 0u32;
    for k in 1..r {
        path |= c.opp_blockade >> k;
    }
    let mut ok = base & !path;
    let mut slow = (base & path & ((opp & c.opp_blockade) >> r)) | (own & !LOW25);
    if variant.reach26 == Reach26::From25 && roll >= 2 {
        slow |= own & bit(25);
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
            if t <= 26 {
                out.push(Move::judged(f, t, t, opp & bit(t) != 0));
            } else if let Ok((to, ends, swap)) = forward(&c, f, roll) {
                out.push(Move::judged(f, to, ends, swap));
            }
        }
        return;
    }
    let mut pieces = own & LOW25;
    while pieces != 0 {
        let f = pieces.trailing_zeros() as u8 + 1;
        pieces &= pieces - 1;
        if let Ok((to, ends, swap)) = backward(&c, f, roll) {
            out.push(Move::judged(f, to, ends, swap));
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
    out.clear();
    if !(1..=5).contains(&roll) || position.bits(Side::Light) == 0 || position.bits(Side::Dark) == 0
    {
        return;
    }
    let c = Ctx::new(variant, position);
    if let Some(b) = position.bound(variant) {
        if let Ok((to, ends, swap)) = forward(&c, b, roll) {
            out.push(Move::judged(b, to, ends, swap));
        }
        return;
    }
    for f in 1..=30u8 {
        if c.own & bit(f) != 0
            && let Ok((to, ends, swap)) = forward(&c, f, roll)
        {
            out.push(Move::judged(f, to, ends, swap));
        }
    }
    if out.is_empty() {
        for f in 1..=25u8 {
            if c.own & bit(f) != 0
                && let Ok((to, ends, swap)) = backward(&c, f, roll)
            {
                out.push(Move::judged(f, to, ends, swap));
            }
        }
    }
}

/// Judges a move of the side to move: the move as legal would list it, or
/// why not. Exposed through [`Rules::apply`] and [`Rules::refusal`].
pub(crate) fn judge(
    variant: &Variant,
    position: &Position,
    roll: u8,
    mv: Move,
) -> Result<Move, Refusal> {
    let f = mv.from();
    match position.at_bits(f) {
        None => return Err(Refusal::NoPiece),
        Some(s) if s != position.side() => return Err(Refusal::NotYourPiece),
        Some(_) => {}
    }
    if let Some(b) = position.bound(variant)
        && f != b
    {
        return Err(Refusal::Bound);
    }
    let c = Ctx::new(variant, position);
    let to = mv.dest_rank();
    if to < f {
        if f >= 26 {
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
        let (to, ends, swap) = backward(&c, f, roll)?;
        return Ok(Move::judged(f, to, ends, swap));
    }
    if to != nominal_forward(variant, f, roll) {
        return Err(Refusal::WrongDistance);
    }
    let (to, ends, swap) = forward(&c, f, roll)?;
    Ok(Move::judged(f, to, ends, swap))
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
    let f = mv.from();
    let t = mv.dest_rank();
    let mut p = *position;
    let (own, opp) = (position.bits(side), position.bits(side.other()));
    let (ends, swap) = if f <= 25 && t <= 26 {
        (t, t < 26 && opp & bit(t) != 0)
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
    if ends <= 30 {
        *mine |= bit(ends);
    }
    if swap {
        let theirs = &mut p.boards[side.other().index()];
        *theirs &= !bit(t);
        *theirs |= bit(f);
    }
    let again = throws_again(roll) || (variant.on26 == On26::Again && ends == 26);
    p.side = if again { side } else { side.other() };
    (
        p,
        Flags {
            again,
            swap,
            ends: Some(Dest::from_rank(ends)),
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

    fn dice(_variant: &Variant) -> u8 {
        4
    }

    #[inline]
    fn roll(_variant: &Variant, faces: Faces) -> u8 {
        roll_of(faces.marked())
    }

    fn chances(_variant: &Variant) -> &'static [dice_core::Chance] {
        &crate::chances::ROLL_CHANCES
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

    fn is_consistent(variant: &Variant, position: &Position) -> bool {
        position.is_consistent(variant)
    }

    #[inline]
    fn legal(variant: &Variant, position: &Position, roll: u8, out: &mut MoveList<Move>) {
        generate(variant, position, roll, out);
    }

    #[inline]
    fn apply(variant: &Variant, position: &Position, roll: u8, mv: Move) -> (Position, Flags) {
        make(variant, position, roll, mv)
    }

    #[inline]
    fn forfeit(_variant: &Variant, position: &Position, roll: u8) -> (Position, Flags) {
        let again = throws_again(roll);
        let side = if again {
            position.side()
        } else {
            position.side().other()
        };
        (
            position.with_side(side),
            Flags {
                again,
                swap: false,
                ends: None,
            },
        )
    }

    #[inline]
    fn status(_variant: &Variant, position: &Position) -> Status {
        if position.bits(Side::Light) == 0 {
            Status::Won(Side::Light)
        } else if position.bits(Side::Dark) == 0 {
            Status::Won(Side::Dark)
        } else {
            Status::Ongoing
        }
    }

    fn refusal(variant: &Variant, position: &Position, roll: u8, mv: Move) -> Refusal {
        // `judge` accepts exactly what `generate` lists; the fallback is
        // unreachable for a move legal does not hold (see the tests).
        judge(variant, position, roll, mv)
            .err()
            .unwrap_or(Refusal::WrongDistance)
    }
}

/// Senet records (spec §7): rolls up to 5, the turn-line shape of the Royal
/// Game of Ur's records (three or four faces, so that three sticks are a
/// `faces` error rather than a malformed line), and a `[light p2]` header
/// when light does not sit at p1.
impl Notation for Senet {
    const MAX_ROLL: u8 = 5;
    const FACES_LEN: std::ops::RangeInclusive<usize> = 3..=4;
    type Extra = Seat;

    fn next_in_record(variant: &Variant, side: Side, roll: u8, mv: Option<Move>) -> Side {
        let reaches26 =
            variant.on26 == On26::Again && mv.is_some_and(|m| m.to() == Dest::House(26));
        if throws_again(roll) || reaches26 {
            side
        } else {
            side.other()
        }
    }

    fn next_in_record_why(
        variant: &Variant,
        _side: Side,
        roll: u8,
        mv: Option<Move>,
    ) -> &'static str {
        if variant.on26 == On26::Again && mv.is_some_and(|m| m.to() == Dest::House(26)) {
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
                let h = 1 + rng.below(30) as u8;
                if p.at_bits(h).is_none() && !(h == 27 && variant.water == Water::Reborn) {
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
                    let a: Vec<_> = fast
                        .iter()
                        .map(|m| (m.to_string(), m.ends(), m.is_swap()))
                        .collect();
                    let b: Vec<_> = plain
                        .iter()
                        .map(|m| (m.to_string(), m.ends(), m.is_swap()))
                        .collect();
                    assert_eq!(a, b, "{p} roll {roll} under {variant}");
                    for from in 1..=30u8 {
                        for to in 1..=31u8 {
                            if to == from {
                                continue;
                            }
                            let mv = Move::judged(from, to, 0, false);
                            let listed = fast.iter().find(|m| **m == mv);
                            match (judge(&variant, &p, roll, mv), listed) {
                                (Ok(j), Some(l)) => {
                                    assert_eq!((j.ends(), j.is_swap()), (l.ends(), l.is_swap()));
                                    let (q1, f1) = make(&variant, &p, roll, mv);
                                    assert_eq!(f1.ends, l.ends(), "{p} {mv} roll {roll}");
                                    assert_eq!(f1.swap, l.is_swap());
                                    assert_eq!(
                                        q1.on_board(p.side())
                                            + u8::from(l.ends() == Some(Dest::Off)),
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
