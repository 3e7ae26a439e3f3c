//! A board with no dice and an undo stack: the reference's Rules class.

use dice_core::{Ending, MoveList, NothingToUndo, Side, Status};

use crate::{Key, Move, MoveInfo, Position, Refusal, Variant};

/// A position under a rule set, with a ply count and an undo stack, and no
/// dice: the caller says what each roll is. It has the game's semantics
/// (move generation, captures, rosette extra turns, the win and the
/// 15,000-ply cap) and nothing else: no log, no record, no resignation.
///
/// # Why it is not a [`Game`](crate::Game)
///
/// A game throws its own dice (or reads a script of them), loses a turn by
/// itself when a roll allows no move, and undoes back to the last move
/// choice, the turns lost after it included. The reference's Rules class
/// does none of that: the caller names every roll, loses a turn by calling
/// [`Board::forfeit`], and takes back one ply at a time with
/// [`Board::undo`], a lost turn as much as a move. So a board keeps its own
/// stack of positions (each a small `Copy` value; there is no log and no
/// dice to rewind), and shares everything else with the game: the rules are
/// [`Position`]'s, and the ply cap and the result are dice-core's
/// ([`Status::at_ply`], [`Status::ending`]).
///
/// Names mapped from the reference's Rules class: `rules` is
/// [`Board::variant`], `board` (an engine clone) is [`Board::position`],
/// `how`/`winner`/`status`/`is_over` are [`Board::how`], [`Board::winner`],
/// [`Board::status`] and [`Board::is_over`].
///
/// # Which moves [`Board::apply`] accepts
///
/// The reference's `apply` only checks that the game is on, and that the
/// mover has a piece where the move starts; it would play a move of the
/// wrong length, or onto its own piece, if asked. This board is stricter:
/// it applies only a move that [`Board::moves`] lists for the roll given,
/// exactly as [`Game::play`](crate::Game) does, and refuses anything else
/// with an [`ApplyError`] naming the reason, changing nothing. Every move
/// the reference would generate is accepted; only moves it would never
/// offer are refused. ([`Position::apply_unchecked`] remains for callers
/// who want the unchecked form.)
///
/// ```
/// use dice_core::{Side, Status};
/// use royal_ur::{Board, Variant};
///
/// let mut board = Board::start(Variant::FINKEL, Side::Light);
/// let info = board.apply(4, "hand-a1".parse()?)?;
/// assert_eq!(info.trace(), "0>4*");
/// // The rosette earns another roll: light moves again.
/// assert_eq!((board.side(), board.ply()), (Side::Light, 1));
/// board.forfeit()?;
/// assert_eq!((board.side(), board.ply(), board.depth()), (Side::Dark, 2, 2));
///
/// assert_eq!(board.apply(3, "a1-c2".parse()?).unwrap_err().code(), "not_your_piece");
/// assert_eq!(board.undo()?.side(), Side::Dark);
/// board.undo()?;
/// assert!(board.undo().is_err());
/// assert_eq!(board.position().to_string(), "4xx2/8/4xx2 l 7 0 7 0");
/// assert_eq!(board.status(), Status::Ongoing);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    variant: Variant,
    position: Position,
    ply: u32,
    /// The position before each move or lost turn, oldest first.
    undo: Vec<Position>,
}

/// Why a [`Board`] could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NewBoardError {
    /// The position does not hold the rule set's pieces: for some side,
    /// hand, board and home do not add up to `pieces`, or two pieces share a
    /// square.
    #[error("the position {position} does not hold {pieces} pieces a side, one to a square")]
    Inconsistent {
        /// The position given (with the side to move it was given).
        position: Position,
        /// The rule set's pieces a side.
        pieces: u8,
    },
    /// The position is on another board than the rule set plays on.
    #[error("the position {position} is on the {} board, but the rules play on the {rules} board", .position.shape())]
    WrongBoard {
        /// The position given.
        position: Position,
        /// The rule set's board.
        rules: crate::BoardShape,
    },
}

impl NewBoardError {
    /// The contract word, `inconsistent` (as the game's own set-up error),
    /// for both.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            NewBoardError::Inconsistent { .. } | NewBoardError::WrongBoard { .. } => "inconsistent",
        }
    }
}

/// Why [`Board::apply`] refused a move; the board is then unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// The game is over: won, or drawn at the ply cap.
    #[error("the game is over")]
    GameOver,
    /// A roll above the rule set's limit ([`Variant::roll_limit`]: 4, or
    /// the dice's highest roll when that is more).
    #[error("a roll is a whole number from 0 to {max}, not {roll}")]
    Roll {
        /// The roll given.
        roll: u8,
        /// The highest roll these rules allow.
        max: u8,
    },
    /// The move is not legal for the roll here.
    #[error("{mv} is not legal for a roll of {roll}: {refusal}")]
    Refused {
        /// Why, by the reference's rules (see [`Position::refusal`]).
        refusal: Refusal,
        /// The move refused.
        mv: Move,
        /// The roll it was asked for.
        roll: u8,
    },
}

impl ApplyError {
    /// The contract word: `game_over`, `bad_roll`, or the refusal's code
    /// (e.g. `wrong_distance`).
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            ApplyError::GameOver => "game_over",
            ApplyError::Roll { .. } => "bad_roll",
            ApplyError::Refused { refusal, .. } => refusal.code(),
        }
    }
}

impl Board {
    /// A board at `position` under `variant`, with `first` to move if given
    /// (else the position's side), at ply `ply`.
    ///
    /// A ply at or past [`PLY_CAP`](dice_core::PLY_CAP) gives a board that is already drawn
    /// (unless someone has won).
    ///
    /// ```
    /// use dice_core::Side;
    /// use royal_ur::{Board, Position, Variant};
    ///
    /// let pos: Position = "4xx2/8/4xx2 l 5 0 5 0".parse()?;
    /// let five = Variant::FINKEL.with_pieces(5)?;
    /// let board = Board::new(five, pos, Some(Side::Dark), 12)?;
    /// assert_eq!((board.side(), board.ply()), (Side::Dark, 12));
    /// let err = Board::new(Variant::FINKEL, pos, None, 0).unwrap_err();
    /// assert_eq!(err.code(), "inconsistent");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`NewBoardError::WrongBoard`] for a position on another board than
    /// the rule set's, and [`NewBoardError::Inconsistent`] when it does not
    /// hold the rule set's pieces in hand, on the board and home (the
    /// reference's `consistent`).
    pub fn new(
        variant: Variant,
        position: Position,
        first: Option<Side>,
        ply: u32,
    ) -> Result<Board, NewBoardError> {
        let position = position.with_side(first.unwrap_or(position.side()));
        if position.shape() != variant.board() {
            return Err(NewBoardError::WrongBoard {
                position,
                rules: variant.board(),
            });
        }
        if !position.counts_hold(variant.pieces()) {
            return Err(NewBoardError::Inconsistent {
                position,
                pieces: variant.pieces(),
            });
        }
        Ok(Board {
            variant,
            position,
            ply,
            undo: Vec::new(),
        })
    }

    /// The start of a game: every piece in hand, `first` to move, ply 0.
    #[must_use]
    pub fn start(variant: Variant, first: Side) -> Board {
        Board {
            variant,
            position: Position::start(&variant, first),
            ply: 0,
            undo: Vec::new(),
        }
    }

    /// The rule set.
    #[must_use]
    pub const fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The side to move (still answered once the game is over).
    #[must_use]
    pub const fn side(&self) -> Side {
        self.position.side()
    }

    /// Plies made: the starting ply plus every move and lost turn since.
    #[must_use]
    pub const fn ply(&self) -> u32 {
        self.ply
    }

    /// The current position.
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// The key of the current position.
    #[must_use]
    pub const fn key(&self) -> Key {
        self.position.key(&self.variant)
    }

    /// How many of a side's pieces wait in hand.
    #[must_use]
    pub const fn hand(&self, side: Side) -> u8 {
        self.position.hand(side)
    }

    /// How many of a side's pieces are home.
    #[must_use]
    pub const fn home(&self, side: Side) -> u8 {
        self.position.home(side, &self.variant)
    }

    /// Where the game stands: won by the first side (light checked first)
    /// with all its pieces home; else drawn once the ply reaches
    /// [`PLY_CAP`](dice_core::PLY_CAP); else ongoing. A win on the capping ply is a win.
    #[must_use]
    pub const fn status(&self) -> Status {
        self.position.status(&self.variant).at_ply(self.ply)
    }

    /// How the game ended: [`Ending::Home`], [`Ending::PlyCap`], or `None`
    /// while it is on.
    #[must_use]
    pub const fn how(&self) -> Option<Ending> {
        self.status().ending()
    }

    /// The winner, if someone has won.
    #[must_use]
    pub const fn winner(&self) -> Option<Side> {
        self.status().winner()
    }

    /// Whether the game is won or drawn.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        !matches!(self.status(), Status::Ongoing)
    }

    /// The legal moves for `roll` in the reference order (see
    /// [`Position::legal_into`]): none once the game is over, and none for a
    /// roll of 0 or above the rule set's limit. [`Position::move_infos`] gives their details.
    #[must_use]
    pub fn moves(&self, roll: u8) -> MoveList<Move> {
        if self.is_over() {
            return MoveList::new();
        }
        self.position.legal(&self.variant, roll)
    }

    /// Plays `mv` for `roll` and says what it did; the ply goes up by one
    /// and the position before it goes on the undo stack. See the type's
    /// documentation for which moves are accepted.
    ///
    /// # Errors
    ///
    /// Nothing changes, and the error says why: [`ApplyError::GameOver`],
    /// [`ApplyError::Roll`] for a roll above the rule set's limit, or [`ApplyError::Refused`]
    /// with the reference's reason for a move [`Board::moves`] does not
    /// list (a roll of 0 lists none).
    pub fn apply(&mut self, roll: u8, mv: Move) -> Result<MoveInfo, ApplyError> {
        if self.is_over() {
            return Err(ApplyError::GameOver);
        }
        let max = self.variant.roll_limit();
        if roll > max {
            return Err(ApplyError::Roll { roll, max });
        }
        let refused = || ApplyError::Refused {
            refusal: self.position.refusal(&self.variant, roll, mv),
            mv,
            roll,
        };
        if !self.moves(roll).contains(&mv) {
            return Err(refused());
        }
        let (info, next) = self
            .position
            .play_listed(&self.variant, roll, mv)
            .ok_or_else(refused)?;
        self.push(next);
        Ok(info)
    }

    /// Loses the turn: the other side moves and the ply goes up by one,
    /// whatever moves the side had (an extra roll earned on a rosette or by
    /// a capture included).
    ///
    /// # Errors
    ///
    /// [`ApplyError::GameOver`] once the game is over; nothing changes.
    pub fn forfeit(&mut self) -> Result<(), ApplyError> {
        if self.is_over() {
            return Err(ApplyError::GameOver);
        }
        self.push(self.position.forfeit(&self.variant));
        Ok(())
    }

    /// Takes back the last move or lost turn, restoring the position and
    /// the ply exactly, and gives the position it took back.
    ///
    /// # Errors
    ///
    /// [`NothingToUndo`] when there is nothing to take back.
    pub fn undo(&mut self) -> Result<Position, NothingToUndo> {
        let before = self.undo.pop().ok_or(NothingToUndo)?;
        let undone = std::mem::replace(&mut self.position, before);
        self.ply = self.ply.saturating_sub(1);
        Ok(undone)
    }

    /// How many moves and lost turns [`Board::undo`] can take back.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// Steps to `next`, one ply on. Only called while the game is on, so
    /// the ply is below [`PLY_CAP`](dice_core::PLY_CAP) and cannot overflow.
    fn push(&mut self, next: Position) {
        self.undo.push(self.position);
        self.position = next;
        self.ply = self.ply.saturating_add(1);
    }
}
