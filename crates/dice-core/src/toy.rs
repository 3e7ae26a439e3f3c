//! A toy race game: the smallest complete game ([`Rules`], [`Notation`],
//! [`ReadRules`] for its variant, a two-level [`Ladder`]), for examples and
//! tests of the framework, and a template for implementing a game.
//!
//! Each side has two pieces that start off the board at square 0 and race to
//! square `goal`, which they must reach by the exact roll. The roll is the
//! number of marked dice (three or four); a roll of 0 moves nothing. A piece
//! may not land on its side's other piece (except at the goal), and a piece
//! that lands on the bonus square (`goal / 2`) earns another throw. The side
//! with more marked dice in the throw-off moves first. Moves are written
//! `FROM-TO`, e.g. `0-3`.
//!
//! ```
//! use dice_core::toy::{Toy, ToyVariant};
//! use dice_core::{Game, Seed};
//!
//! let game: Game<Toy> = Game::seeded(Seed::new("toy")?, ToyVariant::default())?;
//! assert!(!game.legal().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{
    Chance, Coded, Cutoff, Faces, Ladder, MoveList, Notation, Opening, ReadRules, Rules,
    SearchOptions, Side, Status, Thought, Tie, VariantError, search,
};

/// The toy game's rules (a marker type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Toy {}

/// A toy rule set: the goal square and the number of dice. The default,
/// named `toy`, is goal 12 with three dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToyVariant {
    /// The square a piece must reach, 2 to 60.
    pub goal: u8,
    /// How many dice, 3 or 4.
    pub dice: u8,
}

impl Default for ToyVariant {
    fn default() -> ToyVariant {
        ToyVariant { goal: 12, dice: 3 }
    }
}

crate::rules_text! {
    /// Rules as a person writes them ([`read_rules`](crate::read_rules)): `toy`, or `goal=N`
    /// and `dice=D` in any order, either left out.
    ToyVariant
}

impl ToyVariant {
    /// The name records write: `toy` for the default rule set, else none.
    #[must_use]
    pub fn name(&self) -> Option<&'static str> {
        (*self == ToyVariant::default()).then_some("toy")
    }

    /// The fields spelled out, `goal=N dice=D`.
    #[must_use]
    pub fn spelled_out(&self) -> String {
        format!("goal={} dice={}", self.goal, self.dice)
    }

    /// A record's rules text: `toy`, or `goal=N dice=D` in that order.
    ///
    /// # Errors
    ///
    /// [`VariantError::NotSpelledOut`] for anything else, or the field's
    /// error for a value it does not take.
    pub fn from_rules_line(s: &str) -> Result<ToyVariant, VariantError> {
        if s == "toy" {
            return Ok(ToyVariant::default());
        }
        let spelled = s.split_once(' ').and_then(|(goal, dice)| {
            Some((goal.strip_prefix("goal=")?, dice.strip_prefix("dice=")?))
        });
        let Some((goal, dice)) = spelled else {
            return Err(VariantError::NotSpelledOut {
                text: s.to_owned(),
                spelling: "goal=N dice=D",
            });
        };
        ToyVariant::default()
            .with_field("goal", goal)?
            .with_field("dice", dice)
    }
}

/// Rules a person writes: `toy`, or `goal=N` and `dice=D` in any order.
impl ReadRules for ToyVariant {
    const FIELDS: &'static str = "goal, dice";

    fn named(name: &str) -> Result<ToyVariant, VariantError> {
        match name {
            "toy" => Ok(ToyVariant::default()),
            _ => Err(VariantError::UnknownName {
                name: name.to_owned(),
                names: "toy",
            }),
        }
    }

    fn with_field(self, field: &str, value: &str) -> Result<ToyVariant, VariantError> {
        // Numbers as a record writes them: no sign, no leading zero.
        let number = |field: &'static str, allowed: &'static str, range: RangeInclusive<u8>| {
            Some(value)
                .filter(|n| !n.starts_with('0') && !n.starts_with('+'))
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| range.contains(n))
                .ok_or_else(|| VariantError::BadValue {
                    field,
                    value: value.to_owned(),
                    allowed,
                })
        };
        match field {
            "goal" => Ok(ToyVariant {
                goal: number("goal", "2 to 60", 2..=60)?,
                ..self
            }),
            "dice" => Ok(ToyVariant {
                dice: number("dice", "3 or 4", 3..=4)?,
                ..self
            }),
            _ => Err(VariantError::UnknownField {
                field: field.to_owned(),
                fields: Self::FIELDS,
            }),
        }
    }
}

/// A toy position: where each side's two pieces stand, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToyPosition {
    /// Squares of light's and dark's pieces (0 = not yet on, goal = home).
    pub pieces: [[u8; 2]; 2],
    /// The side to move.
    pub side: Side,
}

impl ToyPosition {
    /// The squares of `side`'s two pieces.
    fn pieces_of(&self, side: Side) -> [u8; 2] {
        let [light, dark] = self.pieces;
        match side {
            Side::Light => light,
            Side::Dark => dark,
        }
    }

    /// The squares of `side`'s two pieces, to move one.
    fn pieces_of_mut(&mut self, side: Side) -> &mut [u8; 2] {
        let [light, dark] = &mut self.pieces;
        match side {
            Side::Light => light,
            Side::Dark => dark,
        }
    }
}

/// Light's squares, dark's squares and the side to move, e.g. `0,3/5,12 l`.
impl fmt::Display for ToyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [[l0, l1], [d0, d1]] = self.pieces;
        write!(f, "{l0},{l1}/{d0},{d1} {}", self.side.letter())
    }
}

/// A toy move: from one square to another, written `FROM-TO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ToyMove {
    /// Where the piece starts.
    pub from: u8,
    /// Where it lands.
    pub to: u8,
}

impl fmt::Display for ToyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Text that is not `FROM-TO` with two numbers 0 to 255.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a toy move is FROM-TO, not {0:?}")]
pub struct ParseToyMoveError(pub String);

impl FromStr for ToyMove {
    type Err = ParseToyMoveError;

    fn from_str(s: &str) -> Result<ToyMove, ParseToyMoveError> {
        let err = || ParseToyMoveError(s.to_owned());
        let (from, to) = crate::split_move(s).ok_or_else(err)?;
        let square = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u8>().ok())
                .flatten()
        };
        Ok(ToyMove {
            from: square(from).ok_or_else(err)?,
            to: square(to).ok_or_else(err)?,
        })
    }
}

crate::serde_via_text!(ToyMove);

/// Why a toy position cannot occur: a piece stands past the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("a piece stands past the goal")]
pub struct ToyInconsistency;

impl Coded for ToyInconsistency {
    fn code(&self) -> &'static str {
        "past_goal"
    }
}

/// Why a toy move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToyRefusal {
    /// No piece of the side to move stands on `from`.
    NoPiece,
    /// `to` is not `from` plus the roll.
    WrongDistance,
    /// The move would pass the goal.
    Overshoot,
    /// The side's other piece stands on `to`.
    OwnPiece,
}

impl Coded for ToyRefusal {
    fn code(&self) -> &'static str {
        match self {
            ToyRefusal::NoPiece => "no_piece",
            ToyRefusal::WrongDistance => "wrong_distance",
            ToyRefusal::Overshoot => "overshoot",
            ToyRefusal::OwnPiece => "own_piece",
        }
    }
}

impl fmt::Display for ToyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ToyRefusal::NoPiece => "no piece of the side to move stands there",
            ToyRefusal::WrongDistance => "the move is not the roll long",
            ToyRefusal::Overshoot => "the goal needs the exact roll",
            ToyRefusal::OwnPiece => "the side's other piece stands there",
        })
    }
}

/// What a toy log entry says: whether the move earned another throw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToyFlags {
    /// The piece landed on the bonus square.
    pub bonus: bool,
}

impl ToyVariant {
    fn bonus(self) -> u8 {
        self.goal / 2
    }
}

impl Rules for Toy {
    const GAME: &'static str = "toy";
    type Variant = ToyVariant;
    type Position = ToyPosition;
    type Move = ToyMove;
    type MoveError = ParseToyMoveError;
    type Refusal = ToyRefusal;
    type Flags = ToyFlags;
    type Inconsistency = ToyInconsistency;

    fn dice(variant: &ToyVariant) -> u8 {
        variant.dice
    }

    fn roll(_: &ToyVariant, faces: Faces) -> u8 {
        faces.marked()
    }

    fn chances(variant: &ToyVariant) -> &'static [Chance] {
        const fn c(roll: u8, weight: u16, denominator: u16) -> Chance {
            Chance {
                roll,
                weight,
                denominator,
            }
        }
        const THREE: [Chance; 4] = [c(0, 1, 8), c(1, 3, 8), c(2, 3, 8), c(3, 1, 8)];
        const FOUR: [Chance; 5] = [
            c(0, 1, 16),
            c(1, 4, 16),
            c(2, 6, 16),
            c(3, 4, 16),
            c(4, 1, 16),
        ];
        if variant.dice == 3 { &THREE } else { &FOUR }
    }

    fn opening(_: &ToyVariant) -> Opening {
        Opening::ThrowOff
    }

    fn throw_off(_: &ToyVariant, light: Faces, dark: Faces) -> Option<Side> {
        crate::more_marked(light, dark)
    }

    fn start(_: &ToyVariant, first: Side) -> ToyPosition {
        ToyPosition {
            pieces: [[0; 2]; 2],
            side: first,
        }
    }

    fn side(position: &ToyPosition) -> Side {
        position.side
    }

    fn with_side(position: &ToyPosition, side: Side) -> ToyPosition {
        ToyPosition { side, ..*position }
    }

    fn check_position(
        variant: &ToyVariant,
        position: &ToyPosition,
    ) -> Result<(), ToyInconsistency> {
        if position.pieces.iter().flatten().all(|&p| p <= variant.goal) {
            Ok(())
        } else {
            Err(ToyInconsistency)
        }
    }

    fn legal(variant: &ToyVariant, position: &ToyPosition, roll: u8, out: &mut MoveList<ToyMove>) {
        out.clear();
        if roll == 0 || Toy::status(variant, position) != Status::Ongoing {
            return;
        }
        let mine = position.pieces_of(position.side);
        let mut froms = mine;
        froms.sort_unstable();
        let [first, _] = froms;
        for (i, &from) in froms.iter().enumerate() {
            let to = u16::from(from) + u16::from(roll);
            let duplicate = i == 1 && first == from;
            if from == variant.goal || duplicate || to > u16::from(variant.goal) {
                continue;
            }
            let to = to as u8;
            if to != variant.goal && mine.contains(&to) {
                continue;
            }
            out.push(ToyMove { from, to });
        }
    }

    fn apply(
        variant: &ToyVariant,
        position: &ToyPosition,
        _roll: u8,
        mv: ToyMove,
    ) -> (ToyPosition, ToyFlags) {
        let mut next = *position;
        let mine = next.pieces_of_mut(position.side);
        if let Some(piece) = mine.iter_mut().find(|p| **p == mv.from) {
            *piece = mv.to;
        }
        let bonus = mv.to == variant.bonus();
        if !bonus {
            next.side = position.side.other();
        }
        (next, ToyFlags { bonus })
    }

    fn forfeit(_: &ToyVariant, position: &ToyPosition, _roll: u8) -> (ToyPosition, ToyFlags) {
        (
            ToyPosition {
                side: position.side.other(),
                ..*position
            },
            ToyFlags::default(),
        )
    }

    fn status(variant: &ToyVariant, position: &ToyPosition) -> Status {
        for side in Side::ALL {
            if position.pieces_of(side).iter().all(|&p| p == variant.goal) {
                return Status::Won(side);
            }
        }
        Status::Ongoing
    }

    fn refusal(variant: &ToyVariant, position: &ToyPosition, roll: u8, mv: ToyMove) -> ToyRefusal {
        let mine = position.pieces_of(position.side);
        if mv.from == variant.goal || !mine.contains(&mv.from) {
            ToyRefusal::NoPiece
        } else if u16::from(mv.from) + u16::from(roll) > u16::from(variant.goal) {
            ToyRefusal::Overshoot
        } else if u16::from(mv.to) != u16::from(mv.from) + u16::from(roll) {
            ToyRefusal::WrongDistance
        } else {
            ToyRefusal::OwnPiece
        }
    }
}

/// The toy's ladder: level 1 plays the move of the piece furthest along,
/// level 2 searches two plies ahead, counting how far each side has come.
impl Ladder for Toy {
    const LEVEL_TOP: u8 = 2;
    const BUDGET_DEFAULT: u64 = 10_000;

    fn think(
        level: u8,
        budget: u64,
        variant: &ToyVariant,
        position: &ToyPosition,
        roll: u8,
    ) -> Option<Thought<ToyMove>> {
        let mut moves = MoveList::new();
        Toy::legal(variant, position, roll, &mut moves);
        if level == 1 {
            return Thought::unsearched(&moves, level, moves.len().checked_sub(1)?);
        }
        let options = SearchOptions {
            depth: 2,
            budget,
            cutoff: Cutoff::Skip,
            tie: Tie::First,
        };
        let progress = |p: &ToyPosition, side: Side| {
            let [mine, theirs] = [side, side.other()].map(|s| {
                let [a, b] = p.pieces_of(s);
                i64::from(a) + i64::from(b)
            });
            mine - theirs
        };
        let info = search::<Toy>(variant, position, roll, options, progress);
        Thought::searched(&moves, level, &info)
    }
}

impl Notation for Toy {
    type Extra = ();

    fn max_roll(_: &ToyVariant) -> u8 {
        4
    }

    fn faces_len(_: &ToyVariant) -> std::ops::RangeInclusive<usize> {
        3..=4
    }

    fn next_in_record(
        variant: &ToyVariant,
        side: Side,
        _roll: u8,
        mv: Option<ToyMove>,
    ) -> Option<Side> {
        Some(match mv {
            Some(mv) if mv.to == variant.bonus() => side,
            _ => side.other(),
        })
    }

    fn spelled_out(variant: &ToyVariant) -> String {
        format!("goal={} dice={}", variant.goal, variant.dice)
    }

    fn read_rules_line(text: &str) -> Result<ToyVariant, VariantError> {
        ToyVariant::from_rules_line(text)
    }
}
