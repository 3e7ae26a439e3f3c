//! Move generation on [`State`]s: the rules of `royal-ur` read through the
//! index's geometry, tested against `royal_ur::Position::legal_into` and
//! `apply_unchecked` for every state of small rule sets.

use crate::index::{Index, State};

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Successor {
    /// The position after the move, seen from the side that moves next.
    pub next: State,
    /// Whether the mover throws again (the piece landed on a rosette and
    /// the rules say a rosette throws again, or it captured and they say a
    /// capture does); when false, `next` is seen from the other side.
    pub again: bool,
}

impl Index {
    /// Whether someone has won: the mover (all pieces home) or the other
    /// side.
    #[inline(always)]
    #[must_use]
    pub fn is_over(&self, state: State) -> bool {
        state.my_home >= self.pieces() || state.their_home >= self.pieces()
    }

    /// Calls `f` for each move `roll` allows in `state`, in the reference
    /// order (the hand first, then the pieces by ascending step), and
    /// returns how many there were. A roll of 0 and a finished game allow
    /// none.
    #[inline(always)]
    pub fn for_each_move(&self, state: State, roll: u8, f: impl FnMut(Successor)) -> usize {
        if roll == 0 || self.is_over(state) {
            return 0;
        }
        match &self.twice {
            None => self.moves_on(
                state,
                roll,
                (state.mine, self.theirs_in_mine(state.theirs)),
                |to| self.their_step_bit(to),
                f,
            ),
            Some(twice) => self.moves_on(
                state,
                roll,
                (
                    twice.own_on_mine(state.mine),
                    twice.theirs_on_mine(state.theirs),
                ),
                |to| twice.their_steps_at(to),
                f,
            ),
        }
    }

    /// Their step on the square of my shared step `to`, as a bit (the
    /// dense layout's capture).
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `to` is a step of the path, at most 16, inside the 32 entries \
                  of `mine_to_theirs`"
    )]
    fn their_step_bit(&self, to: u8) -> u32 {
        1 << self.mine_to_theirs[usize::from(to)]
    }

    /// [`Index::for_each_move`] once the squares are read: `own` and
    /// `theirs_on_mine` are my steps on squares my pieces and their pieces
    /// stand on (on a path that visits squares twice, a square held at
    /// either visit blocks or is captured at both of my steps there), and
    /// `their_steps_at(to)` is their steps on the square of my step `to`,
    /// the ones a capture there clears.
    #[inline(always)]
    fn moves_on(
        &self,
        state: State,
        roll: u8,
        (own, theirs_on_mine): (u32, u32),
        their_steps_at: impl Fn(u8) -> u32,
        mut f: impl FnMut(Successor),
    ) -> usize {
        let safe = self.variant().safe_rosettes();
        let blocked = own
            | if safe {
                theirs_on_mine & self.rosette_mask
            } else {
                0
            };
        let home = self.route_len() + 1;
        let on_board = state.mine.count_ones() as u8;
        let mut n = 0;
        if state.my_home + on_board < self.pieces() && blocked & (1 << roll) == 0 {
            f(self.successor(state, 0, roll, theirs_on_mine, &their_steps_at));
            n += 1;
        }
        let mut pieces = state.mine;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let to = from + roll;
            if to >= home {
                if to == home {
                    let mine = state.mine & !(1 << from);
                    f(Successor {
                        next: State {
                            mine: state.theirs,
                            theirs: mine,
                            my_home: state.their_home,
                            their_home: state.my_home + 1,
                        },
                        again: false,
                    });
                    n += 1;
                }
                break;
            }
            if blocked & (1 << to) == 0 {
                f(self.successor(state, from, to, theirs_on_mine, &their_steps_at));
                n += 1;
            }
        }
        n
    }

    /// A move from step `from` (0 for the hand) to step `to` on the board;
    /// `theirs_on_mine` is my steps on squares their pieces hold, and
    /// `their_steps_at(to)` their steps a capture at `to` clears.
    #[inline(always)]
    fn successor(
        &self,
        state: State,
        from: u8,
        to: u8,
        theirs_on_mine: u32,
        their_steps_at: &impl Fn(u8) -> u32,
    ) -> Successor {
        let mine = (state.mine & !(1u32 << from)) | (1 << to);
        let mut theirs = state.theirs;
        let captures = theirs_on_mine & (1 << to) != 0;
        if captures {
            theirs &= !their_steps_at(to);
        }
        if self.again_on & (1 << to) != 0 || (captures && self.capture_again) {
            Successor {
                next: State {
                    mine,
                    theirs,
                    ..state
                },
                again: true,
            }
        } else {
            Successor {
                next: State {
                    mine: theirs,
                    theirs: mine,
                    my_home: state.their_home,
                    their_home: state.my_home,
                },
                again: false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use dice_core::{MoveList, Side};
    use royal_ur::{Path, Variant};

    use super::*;

    /// Rule sets over every path: safe rosettes or not,
    /// and dice, zero rolls and the two throw-again switches in the
    /// combinations of the presets and a few more.
    fn rule_sets(pieces: u8) -> Vec<Variant> {
        let mut out = Vec::new();
        for path in [
            Path::Bell,
            Path::Masters,
            Path::Aseb,
            Path::Murray,
            Path::Skiriuk,
        ] {
            for safe in [false, true] {
                for (dice, zero, rosette_again, capture_again) in [
                    (4, 0, true, false),
                    (3, 4, true, false),
                    (4, 0, true, true),
                    (2, 3, false, true),
                    (8, 9, false, false),
                    (1, 0, true, true),
                ] {
                    let v = Variant::FINKEL
                        .with_path(path)
                        .with_pieces(pieces)
                        .and_then(|v| v.with_dice(dice, zero))
                        .unwrap()
                        .with_safe_rosettes(safe)
                        .with_rosette_again(rosette_again)
                        .with_capture_again(capture_again);
                    out.push(v);
                }
            }
        }
        out
    }

    /// For every state of the 1- and 2-piece rule sets (and every 23rd state
    /// of the 3-piece ones, every 1009th on the paths that visit squares
    /// twice, which have millions), both sides to move and every roll, the moves
    /// here lead to the positions royal-ur's moves lead to (side to move
    /// included, so the same throws again), in the same order.
    #[test]
    fn moves_match_royal_ur_for_every_state_of_small_sets() {
        let mut checked = 0u64;
        let mut again = [0u64; 2];
        for pieces in 1..=3 {
            for v in rule_sets(pieces) {
                let ix = Index::new(&v).unwrap();
                let mut list = MoveList::new();
                let stride = match pieces {
                    1 | 2 => 1,
                    _ if v.path().revisits() => 1009,
                    _ => 23,
                };
                for i in (0..ix.len()).step_by(stride) {
                    let st = ix.unrank(i).unwrap();
                    for side in Side::ALL {
                        let pos = ix.position(st, side);
                        for roll in v.chances().iter().map(|c| c.roll) {
                            pos.legal_into(&v, roll, &mut list);
                            let want: Vec<_> = list
                                .iter()
                                .map(|&mv| pos.apply_unchecked(&v, roll, mv).unwrap().0)
                                .collect();
                            let mut got = Vec::new();
                            let n = ix.for_each_move(st, roll, |s| {
                                let who = if s.again { side } else { side.other() };
                                again[usize::from(s.again)] += 1;
                                got.push(ix.position(s.next, who));
                            });
                            assert_eq!(n, got.len());
                            assert_eq!(got, want, "{v} {pos} roll {roll}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1_000_000, "{checked}");
        assert!(again.iter().all(|&n| n > 10_000), "{again:?}");
    }
}
