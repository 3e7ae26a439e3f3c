//! Why a well-formed move is not legal.

dice_core::coded_enum! {
    /// Why a move is refused, with the reference's codes, checked in the
    /// reference's order (see [`Position::refusal`](crate::Position::refusal)).
    ///
    /// `game_over`, `no_roll` and `bad_move` for text that is not a move at all
    /// are the game's own refusals (dice-core's `PlayError`); these are the ones
    /// that depend on the board.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[non_exhaustive]
    pub enum Refusal {
        /// The mover has no piece at the `from` place.
        NoPiece("no_piece", "there is no piece of the side to move there"),
        /// The piece at `from` belongs to the other side.
        NotYourPiece("not_your_piece", "that piece belongs to the other side"),
        /// `to` is not exactly the roll away from `from` along the mover's route.
        WrongDistance("wrong_distance", "that is not the roll away along the route"),
        /// The mover's own piece stands on `to`.
        OwnPiece("own_piece", "a piece of the same side stands there"),
        /// An enemy piece on a rosette cannot be captured (rosettes are safe).
        SafeRosette("safe_rosette", "a piece on a rosette cannot be captured"),
        /// Bearing off needs the exact roll.
        Overshoot("overshoot", "bearing off needs the exact roll"),
        /// The fallback of the reference's order; no (from, to) pair of places
        /// reaches it.
        BadMove("bad_move", "that move is not legal"),
    }
}
