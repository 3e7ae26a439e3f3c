//! Why a well-formed move is not legal.

dice_core::coded_enum! {
    /// Why a move text is not legal for the throw in hand (spec §3.7). When
    /// several reasons apply, the first in this order is reported:
    /// `no_piece`, `not_your_piece`, `bound`, `backward_not_allowed`,
    /// `wrong_distance`, `overshoot`, `own_piece`, `occupied`, `protected`,
    /// `blockade`. (`game_over`, `no_roll` and `bad_move` come before all of
    /// them and belong to the game.)
    #[non_exhaustive]
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Refusal {
        /// No piece stands on the departure house.
        NoPiece("no_piece", "no piece stands on that house"),
        /// The piece on the departure house is the other side's.
        NotYourPiece("not_your_piece", "that piece belongs to the other side"),
        /// The throw belongs to the piece on 26 (`on26=again`).
        Bound("bound", "this throw belongs to the piece on 26"),
        /// A backward move while a forward move exists, or a backward move
        /// from 26..30, where pieces never move backward.
        BackwardNotAllowed(
            "backward_not_allowed",
            "a piece moves backward only when no forward move exists, and never from 26 to 30"
        ),
        /// The destination is not the one the roll points to.
        WrongDistance("wrong_distance", "the roll does not take that piece there"),
        /// The roll would pass 26 without standing on it, or leave 27..30 on a
        /// roll that does not take the piece off.
        Overshoot(
            "overshoot",
            "no piece passes 26 without standing on it, and 27 to 30 are left only on their rolls"
        ),
        /// The mover's own piece stands on the destination.
        OwnPiece("own_piece", "a piece of the same side stands there"),
        /// An enemy piece stands on the destination among 26..30, where nobody
        /// is swapped.
        Occupied("occupied", "houses 26 to 30 are landed on only when empty"),
        /// The enemy piece on the destination stands in a run its rules protect.
        Protected("protected", "that piece stands in a protected run"),
        /// The move would pass over an enemy blockade.
        Blockade("blockade", "the move would pass an enemy blockade"),
    }
}
