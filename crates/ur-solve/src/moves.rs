//! Move generation on [`State`]s: the rules of `royal-ur` read through the
//! index's geometry, tested against `royal_ur::Position::legal_into` and
//! `apply_unchecked` for every state of small rule sets.

use crate::index::{Index, State};

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Successor {
    /// The position after the move, seen from the side that moves next.
    pub next: State,
    /// Whether the mover moves again (the piece landed on a rosette); when
    /// false, `next` is seen from the other side.
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
    pub fn for_each_move(&self, state: State, roll: u8, mut f: impl FnMut(Successor)) -> usize {
        if roll == 0 || self.is_over(state) {
            return 0;
        }
        let theirs_on_mine = self.theirs_in_mine(state.theirs);
        let safe = self.variant().safe_rosettes();
        let blocked = state.mine
            | if safe {
                theirs_on_mine & self.rosette_mask
            } else {
                0
            };
        let home = self.route_len() + 1;
        let on_board = state.mine.count_ones() as u8;
        let mut n = 0;
        if state.my_home + on_board < self.pieces() && blocked & (1 << roll) == 0 {
            f(self.successor(state, 0, roll, theirs_on_mine));
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
                f(self.successor(state, from, to, theirs_on_mine));
                n += 1;
            }
        }
        n
    }

    /// A move from step `from` (0 for the hand) to step `to` on the board;
    /// `theirs_on_mine` is their pieces as steps of my route.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        reason = "hot path; `to` is a step of the route, at most 16, inside the 32 entries \
                  of `mine_to_theirs`"
    )]
    fn successor(&self, state: State, from: u8, to: u8, theirs_on_mine: u32) -> Successor {
        let mine = (state.mine & !(1u32 << from)) | (1 << to);
        let mut theirs = state.theirs;
        if theirs_on_mine & (1 << to) != 0 {
            theirs &= !(1u32 << self.mine_to_theirs[usize::from(to)]);
        }
        if self.rosette_mask & (1 << to) != 0 {
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
    use royal_ur::{Route, Variant};

    use super::*;

    /// For every state of the 1- and 2-piece rule sets (and every 23rd state
    /// of the 3-piece ones), both sides to move and every roll, the moves
    /// here lead to the positions royal-ur's moves lead to, in the same
    /// order.
    #[test]
    fn moves_match_royal_ur_for_every_state_of_small_sets() {
        let mut checked = 0u64;
        for route in Route::ALL {
            for safe in [false, true] {
                for pieces in 1..=3 {
                    let v = Variant::new(route, 4, 0, safe, pieces).unwrap();
                    let ix = Index::new(&v);
                    let mut list = MoveList::new();
                    let stride = if pieces == 3 { 23 } else { 1 };
                    for i in (0..ix.len()).step_by(stride) {
                        let st = ix.unrank(i).unwrap();
                        for side in Side::ALL {
                            let pos = ix.position(st, side);
                            for roll in 0..=4 {
                                pos.legal_into(&v, roll, &mut list);
                                let want: Vec<_> = list
                                    .iter()
                                    .map(|&mv| pos.apply_unchecked(&v, roll, mv).unwrap())
                                    .map(|(next, flags)| (next, flags.rosette))
                                    .collect();
                                let mut got = Vec::new();
                                let n = ix.for_each_move(st, roll, |s| {
                                    let who = if s.again { side } else { side.other() };
                                    got.push((ix.position(s.next, who), s.again));
                                });
                                assert_eq!(n, got.len());
                                assert_eq!(got, want, "{v} {pos} roll {roll}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000);
    }
}
