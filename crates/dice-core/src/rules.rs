//! The `Rules` trait: what a race game must say so that [`Game`](crate::Game)
//! can play it, and nothing about dice, logs or records.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::mem::MaybeUninit;
use std::str::FromStr;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{Ending, Faces, PLY_CAP, Side};

/// How many moves a [`MoveList`] holds at most. Every game here has fewer
/// legal moves for one roll (the Royal Game of Ur and Senet at most 7).
pub const MOVES_MAX: usize = 16;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nobody has won yet.
    Ongoing,
    /// This side has won.
    Won(Side),
    /// Nobody won: the game ended drawn.
    Drawn,
}

impl Status {
    /// The side that has won, if one has.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Status::Won(side) => Some(side),
            Status::Ongoing | Status::Drawn => None,
        }
    }

    /// How a game in this status ended, a resignation aside (which only a
    /// game knows): `home` for a win, `ply_cap` for a draw, `None` while
    /// it is on.
    #[must_use]
    pub const fn ending(self) -> Option<Ending> {
        match self {
            Status::Ongoing => None,
            Status::Won(_) => Some(Ending::Home),
            Status::Drawn => Some(Ending::PlyCap),
        }
    }

    /// The rules' status after `ply` plies: a game nobody has won is drawn
    /// once it reaches [`PLY_CAP`] plies (a win on the last ply still wins).
    ///
    /// ```
    /// use dice_core::{PLY_CAP, Side, Status};
    ///
    /// assert_eq!(Status::Ongoing.at_ply(PLY_CAP - 1), Status::Ongoing);
    /// assert_eq!(Status::Ongoing.at_ply(PLY_CAP), Status::Drawn);
    /// assert_eq!(Status::Won(Side::Dark).at_ply(PLY_CAP), Status::Won(Side::Dark));
    /// ```
    #[must_use]
    pub const fn at_ply(self, ply: u32) -> Status {
        match self {
            Status::Ongoing if ply >= PLY_CAP => Status::Drawn,
            status => status,
        }
    }
}

/// One roll the dice can make, and how likely it is: `weight` of the
/// `denominator` equally likely throws make it. Both are 16-bit, so that
/// eight two-sided dice (256 equally likely throws) fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Chance {
    /// The roll.
    pub roll: u8,
    /// How many of the equally likely throws give it.
    pub weight: u16,
    /// How many equally likely throws there are.
    pub denominator: u16,
}

impl Chance {
    /// The chance as a fraction.
    #[must_use]
    pub fn probability(self) -> f64 {
        f64::from(self.weight) / f64::from(self.denominator)
    }
}

/// How the side that moves first is decided when the caller names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// This side moves first; nothing is thrown for it.
    Fixed(Side),
    /// The sides throw for it, light then dark, until
    /// [`Rules::throw_off`] names a side.
    ThrowOff,
}

/// A value that programs tell apart by a stable contract word: a refusal
/// ([`Rules::Refusal`]) or an error a person's input can cause.
pub trait Coded {
    /// The contract word, e.g. `wrong_distance`.
    fn code(&self) -> &'static str;
}

/// The rules of a race game, as pure functions.
///
/// Everything here is deterministic and allocation-free: no I/O, no clock,
/// no randomness. [`Game`](crate::Game) adds the dice, the settle loop, the
/// log, undo, resignation, the ply cap and records on top; how a game is
/// written in a record is its [`Notation`](crate::Notation).
///
/// Implementors are usually uninhabited marker types
/// (`#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)] enum Ur {}`); the
/// derives let games, logs and records derive theirs.
pub trait Rules: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The game's name in JSON and messages, e.g. `royal-ur`.
    const GAME: &'static str;

    /// A rule set. `Display` gives its record text (a name when it has one,
    /// otherwise its fields), which [`Notation::read_rules_line`](crate::Notation::read_rules_line)
    /// reads back strictly; `FromStr` reads rules as a person writes them
    /// (see [`ReadRules`](crate::ReadRules)), which takes that text too.
    type Variant: Clone
        + Eq
        + Debug
        + Display
        + FromStr<Err: std::error::Error + Clone + Eq + Send + Sync + 'static>
        + Send
        + Sync
        + 'static;

    /// A position: a small value holding the board, the side to move and any
    /// turn state. It holds no ply and no dice. `Display` gives its text.
    type Position: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// A move as the wire names it (e.g. `a2-d2`). Equality is the identity
    /// of the wire text: two moves are equal when their texts are.
    type Move: Copy
        + Eq
        + Hash
        + Debug
        + Display
        + FromStr<Err = Self::MoveError>
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;

    /// Why a text is not a move at all.
    type MoveError: std::error::Error + Clone + Eq + Send + Sync + 'static;

    /// Why a well-formed move is not legal here, with its contract word.
    type Refusal: Coded + Copy + Eq + Debug + Display + Send + Sync + 'static;

    /// Why a position cannot arise under a rule set, with its contract word
    /// (see [`Rules::check_position`]).
    type Inconsistency: Coded + std::error::Error + Clone + Eq + Send + Sync + 'static;

    /// What a log entry says beyond the move (e.g. whether it captured).
    type Flags: Copy + Eq + Debug + Default + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// How many dice (or sticks) one throw uses.
    fn dice(variant: &Self::Variant) -> u8;

    /// Reads a move's text under `variant` (records and play by text use
    /// it). The default is the move's [`FromStr`]; a game whose rule sets
    /// name different places (boards of another shape) reads them here.
    ///
    /// # Errors
    ///
    /// The game's [`Rules::MoveError`] for text that is not a move.
    fn parse_move(variant: &Self::Variant, text: &str) -> Result<Self::Move, Self::MoveError> {
        let _ = variant;
        text.parse()
    }

    /// What a throw with these faces is worth.
    fn roll(variant: &Self::Variant, faces: Faces) -> u8;

    /// Every roll the dice can make, each once, in ascending order, with its
    /// chance.
    fn chances(variant: &Self::Variant) -> &'static [Chance];

    /// How the first side is decided when none is named.
    fn opening(variant: &Self::Variant) -> Opening;

    /// For [`Opening::ThrowOff`]: who wins a pair of throws (light's, then
    /// dark's), or `None` for a tie that is thrown again.
    fn throw_off(variant: &Self::Variant, light: Faces, dark: Faces) -> Option<Side> {
        let _ = (variant, light, dark);
        None
    }

    /// The start position with `first` to move.
    fn start(variant: &Self::Variant, first: Side) -> Self::Position;

    /// The side to move in a position.
    fn side(position: &Self::Position) -> Side;

    /// The same position with another side to move.
    fn with_side(position: &Self::Position, side: Side) -> Self::Position;

    /// Whether the position could arise under these rules (the right number
    /// of pieces, and so on), and if not, why. A game refuses to start from
    /// one that cannot.
    ///
    /// # Errors
    ///
    /// The game's [`Rules::Inconsistency`]: the first problem found.
    fn check_position(
        variant: &Self::Variant,
        position: &Self::Position,
    ) -> Result<(), Self::Inconsistency>;

    /// The legal moves for `roll`, in the game's defined order, written into
    /// `out` (which is cleared first). No moves when the game is won.
    fn legal(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
        out: &mut MoveList<Self::Move>,
    );

    /// The position after a move `legal` listed, and its flags. Behaviour for
    /// any other move is unspecified but never a panic.
    fn apply(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
        mv: Self::Move,
    ) -> (Self::Position, Self::Flags);

    /// The position after a roll that allowed no move, and its flags.
    fn forfeit(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
    ) -> (Self::Position, Self::Flags);

    /// Whether someone has won (the ply cap is the game's business).
    fn status(variant: &Self::Variant, position: &Self::Position) -> Status;

    /// Why `mv` is not legal for `roll` here. [`Game`](crate::Game) asks only
    /// about moves `legal` does not list; a game whose reasons can all be
    /// told apart should still return a documented catch-all (such as
    /// `bad_move`) rather than panic for any other move.
    fn refusal(
        variant: &Self::Variant,
        position: &Self::Position,
        roll: u8,
        mv: Self::Move,
    ) -> Self::Refusal;
}

/// A fixed-capacity list of moves, filled by [`Rules::legal`] without
/// allocating.
///
/// The list holds up to [`MOVES_MAX`] moves in place; its free slots are
/// left unwritten, so a move type needs no placeholder value.
///
/// ```
/// use dice_core::MoveList;
///
/// let mut list = MoveList::<u8>::new();
/// assert!(list.push(3));
/// assert_eq!(list.as_slice(), &[3]);
/// list.clear();
/// assert!(list.is_empty());
/// ```
pub struct MoveList<M: Copy> {
    /// Slots `..len` are written; the rest may not be.
    moves: [MaybeUninit<M>; MOVES_MAX],
    len: usize,
}

impl<M: Copy> MoveList<M> {
    /// An empty list.
    #[must_use]
    pub const fn new() -> MoveList<M> {
        MoveList {
            moves: [MaybeUninit::uninit(); MOVES_MAX],
            len: 0,
        }
    }

    /// Adds a move; returns false (and drops it) when the list is full,
    /// which no rule set here can reach.
    #[inline]
    pub fn push(&mut self, mv: M) -> bool {
        match self.moves.get_mut(self.len) {
            Some(slot) => {
                slot.write(mv);
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Adds a move when `keep` holds, without a branch on `keep` (the move
    /// is written either way and counted only when kept): quicker for move
    /// generators whose conditions a processor cannot predict. Returns
    /// false when a kept move was dropped because the list is full.
    ///
    /// ```
    /// use dice_core::MoveList;
    ///
    /// let mut list = MoveList::new();
    /// list.push_if(1u8, false);
    /// list.push_if(2u8, true);
    /// assert_eq!(list.as_slice(), &[2]);
    /// ```
    #[inline]
    pub fn push_if(&mut self, mv: M, keep: bool) -> bool {
        match self.moves.get_mut(self.len) {
            Some(slot) => {
                slot.write(mv);
                self.len += usize::from(keep);
                true
            }
            None => !keep,
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves, in order.
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        let written = self.moves.get(..self.len).unwrap_or(&[]);
        #[allow(
            unsafe_code,
            reason = "reads the written slots as moves; the proof follows"
        )]
        // SAFETY: `len` grows only in `push` and `push_if`, and only by one
        // right after the slot at the old `len` was written; nothing else
        // writes or un-writes a slot. So every slot of `written` holds a
        // move, and `MaybeUninit<M>` has the size, alignment and layout of
        // `M`, so the slots can be read as a slice of moves.
        unsafe {
            std::slice::from_raw_parts(written.as_ptr().cast::<M>(), written.len())
        }
    }

    /// How many moves there are.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<M: Copy> Clone for MoveList<M> {
    fn clone(&self) -> MoveList<M> {
        *self
    }
}

impl<M: Copy> Copy for MoveList<M> {}

impl<M: Copy + Debug> Debug for MoveList<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Lists are equal when they hold the same moves in the same order.
impl<M: Copy + PartialEq> PartialEq for MoveList<M> {
    fn eq(&self, other: &MoveList<M>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<M: Copy + Eq> Eq for MoveList<M> {}

impl<M: Copy + Hash> Hash for MoveList<M> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> MoveList<M> {
        MoveList::new()
    }
}

impl<M: Copy> std::ops::Deref for MoveList<M> {
    type Target = [M];

    #[inline]
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

/// The two places a move's text names, `FROM-TO`: the text before and
/// after its one `-`, or `None` when it has not exactly one. (Both games
/// and the toy write moves so; what a place is, is each game's.)
///
/// ```
/// use dice_core::split_move;
///
/// assert_eq!(split_move("a2-d2"), Some(("a2", "d2")));
/// assert_eq!(split_move("28-off"), Some(("28", "off")));
/// assert_eq!(split_move("1-2-3"), None);
/// assert_eq!(split_move("b1"), None);
/// ```
#[must_use]
pub fn split_move(text: &str) -> Option<(&str, &str)> {
    let (from, to) = text.split_once('-')?;
    (!to.contains('-')).then_some((from, to))
}

/// Counts the leaves of the game tree `depth` plies deep from `position`:
/// every roll in [`Rules::chances`] once (whatever its weight), every move it
/// allows; a roll with no move is one lost-turn branch. Depth 0, or a game
/// already won, counts 1. (The ply cap is not applied.)
///
/// ```
/// use dice_core::toy::{Toy, ToyVariant};
/// use dice_core::{Rules, Side, walk};
///
/// let start = Toy::start(&ToyVariant::default(), Side::Light);
/// // Rolls 0..3: a lost turn, then one entering move for each of 1, 2, 3.
/// assert_eq!(walk::<Toy>(&ToyVariant::default(), &start, 1), 4);
/// ```
#[must_use]
pub fn walk<R: Rules>(variant: &R::Variant, position: &R::Position, depth: u32) -> u64 {
    if depth == 0 || R::status(variant, position) != Status::Ongoing {
        return 1;
    }
    let mut total = 0;
    for_each_successor::<R>(variant, position, |next| {
        total += walk::<R>(variant, next, depth - 1);
    });
    total
}

/// The branches of [`walk`] one ply on from `position`, in its order: for
/// every roll in [`Rules::chances`], the position after each move it
/// allows, or after the lost turn when it allows none. None when the game
/// is won. A front end can walk them one by one to show its progress.
///
/// ```
/// use dice_core::toy::{Toy, ToyVariant};
/// use dice_core::{Rules, Side, successors, walk};
///
/// let v = ToyVariant::default();
/// let start = Toy::start(&v, Side::Light);
/// let next = successors::<Toy>(&v, &start);
/// assert_eq!(next.len(), 4);
/// let leaves: u64 = next.iter().map(|p| walk::<Toy>(&v, p, 2)).sum();
/// assert_eq!(leaves, walk::<Toy>(&v, &start, 3));
/// ```
#[must_use]
pub fn successors<R: Rules>(variant: &R::Variant, position: &R::Position) -> Vec<R::Position> {
    let mut out = Vec::new();
    if R::status(variant, position) == Status::Ongoing {
        for_each_successor::<R>(variant, position, |next| out.push(*next));
    }
    out
}

/// Calls `f` with each branch of [`walk`] one ply on (the game is ongoing).
fn for_each_successor<R: Rules>(
    variant: &R::Variant,
    position: &R::Position,
    mut f: impl FnMut(&R::Position),
) {
    let mut moves = MoveList::new();
    for chance in R::chances(variant) {
        R::legal(variant, position, chance.roll, &mut moves);
        if moves.is_empty() {
            let (next, _) = R::forfeit(variant, position, chance.roll);
            f(&next);
        }
        for &mv in moves.iter() {
            let (next, _) = R::apply(variant, position, chance.roll, mv);
            f(&next);
        }
    }
}
