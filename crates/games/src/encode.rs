//! Either game as numbers, for programs that learn or search: an integer
//! action for each legal move and a fixed-length observation of a
//! position, the same under every front end that speaks in numbers.
//!
//! An action names the piece a move starts from, so that the same number
//! means the same thing in every position:
//!
//! * the Royal Game of Ur: the step of the mover's route the piece stands
//!   on, `0` for the hand (every piece in hand enters alike) and `1` to the
//!   route's length for a piece on the board (on murray's and skiriuk's
//!   paths the step counts the visit the piece is on); the rules have
//!   `route length + 1` actions (15 under finkel);
//! * Senet: the house the piece stands on, less one (`0` for house 1 to
//!   `29` for house 30); 30 actions.
//!
//! A roll allows at most one move a starting place, so an action and the
//! position and roll it is played in name one move.
//!
//! An observation ([`RaceGame::observe`]) is seen by the side to move,
//! every number from 0 to 1:
//!
//! * the Royal Game of Ur, 66 numbers: for each of the board's 20 cells
//!   (`a1`, `b1` ... in the board's cell order) 1 where the mover has a
//!   piece (0..20), where the other side has one (20..40), where a piece
//!   is on its second visit (40..60, murray's and skiriuk's paths); then
//!   the mover's pieces in hand and home and the other side's, each as a
//!   share of the pieces (60..64); the roll in hand over the highest roll
//!   (64); 1 when the mover is light (65);
//! * Senet, 64 numbers: for each house 1 to 30, 1 where the mover stands
//!   (0..30) and where the other side does (30..60); each side's pieces
//!   borne off as a share of the pieces, the mover's first (60, 61); the
//!   roll over 5 (62); 1 when the mover is light (63).

use crate::RaceGame;

/// Sets `out[at]`, when `out` is that long.
pub(crate) fn put(out: &mut [f32], at: usize, value: f32) {
    if let Some(x) = out.get_mut(at) {
        *x = value;
    }
}

/// The legal move among `legal` that `action` names, if one does.
///
/// ```
/// use dice_core::{Game, Seed};
/// use race_games::{RaceGame, action_mask, move_for_action};
/// use royal_ur::Ur;
///
/// let game = Game::<Ur>::seeded(Seed::new("actions")?, royal_ur::Variant::FINKEL)?;
/// let (variant, position) = (game.variant(), game.position());
/// let mut mask = vec![false; Ur::action_count(variant)];
/// action_mask::<Ur>(variant, position, game.legal(), &mut mask);
/// for (action, &allowed) in mask.iter().enumerate() {
///     let mv = move_for_action::<Ur>(variant, position, game.legal(), action);
///     assert_eq!(mv.is_some(), allowed);
/// }
/// assert!(mask[0], "the first move enters a piece: action 0, the hand");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn move_for_action<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    legal: &[G::Move],
    action: usize,
) -> Option<G::Move> {
    legal
        .iter()
        .copied()
        .find(|&mv| G::action(variant, position, mv) == action)
}

/// Marks in `mask` (cleared first) the actions of the moves in `legal`;
/// actions past the mask's end are left out.
pub fn action_mask<G: RaceGame>(
    variant: &G::Variant,
    position: &G::Position,
    legal: &[G::Move],
    mask: &mut [bool],
) {
    mask.fill(false);
    for &mv in legal {
        if let Some(m) = mask.get_mut(G::action(variant, position, mv)) {
            *m = true;
        }
    }
}
