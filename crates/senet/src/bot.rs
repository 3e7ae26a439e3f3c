//! The bot ladder: a rule of thumb, then the shared expectiminimax over the
//! sticks' chances.

use dice_core::{Cutoff, Ladder, SearchOptions, Side, Tie, search};

use crate::position::protected_mask;
use crate::{House, Move, MoveInfo, Place, Position, Senet, Variant};

/// The top level of the ladder; a bot asked for a level above it (up to
/// [`dice_core::LEVEL_ASKED_MAX`]) plays this one.
pub const LEVEL_TOP: u8 = 4;
/// Nodes a search may visit by default before it settles for a shallower
/// answer.
pub const BUDGET_DEFAULT: u64 = 200_000;

/// A player for either side at one level of the ladder (dice-core's
/// [`Bot`](dice_core::Bot) on Senet's [`Ladder`]):
///
/// * level 1: a rule of thumb on the throw in hand (bear off, else swap the
///   enemy piece furthest along, else move the piece furthest along);
/// * levels 2, 3, 4: dice-core's expectiminimax over the chances of the
///   sticks, looking 1, 2 and 3 throws ahead within a node budget (200,000
///   unless given); a node past the budget is scored by [`evaluate`]
///   instead of looking further, and ties go to the first move.
///
/// The same question always gets the same answer: no randomness, no clock.
///
/// ```
/// use dice_core::Seed;
/// use senet::{Bot, Game, Variant};
///
/// let mut game = Game::seeded(Seed::new("bot example")?, Variant::KENDALL)?;
/// let bot = Bot::new(Some(3), None)?;
/// let mv = bot.choose(&game).unwrap();
/// assert!(game.legal().contains(&mv));
/// game.play(mv)?;
/// assert_eq!(Bot::new(Some(9), None)?.level(), 4, "above the top plays the top");
/// assert_eq!(Bot::new(Some(100), None).unwrap_err().code(), "level");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type Bot = dice_core::Bot<Senet>;

/// What the bot thinks: dice-core's thought about a Senet move. Its value
/// is in sixteenths of a house, for the side to move.
pub type Thought = dice_core::Thought<Move>;

/// Senet's ladder: the rule of thumb, then searches one throw deeper a
/// level.
impl Ladder for Senet {
    const LEVEL_TOP: u8 = LEVEL_TOP;
    const BUDGET_DEFAULT: u64 = BUDGET_DEFAULT;

    fn think(
        level: u8,
        budget: u64,
        variant: &Variant,
        position: &Position,
        roll: u8,
    ) -> Option<Thought> {
        let moves = position.legal(variant, roll);
        if level == 1 {
            let index = thumb(position.move_infos(variant, roll));
            return Thought::unsearched(&moves, level, index);
        }
        if moves.len() == 1 {
            return Thought::unsearched(&moves, level, 0);
        }
        let options = SearchOptions {
            depth: u32::from(level) - 1,
            budget,
            cutoff: Cutoff::Evaluate,
            tie: Tie::First,
        };
        let info = search::<Senet>(variant, position, roll, options, |p, side| {
            evaluate(variant, p, side)
        });
        Thought::searched(&moves, level, &info)
    }
}

/// Level 1: bear off if possible, else the swap that sends back the enemy
/// piece furthest along, else move the piece furthest along; the last of
/// equals.
fn thumb(moves: impl Iterator<Item = MoveInfo>) -> usize {
    let mut best = 0;
    let mut best_score = i32::MIN;
    for (i, info) in moves.enumerate() {
        let score = if info.to() == Place::Off {
            1000
        } else if info.swap() {
            500 + i32::from(info.to().rank())
        } else {
            i32::from(info.from().number())
        };
        if score >= best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// What a piece borne off is worth, in houses of progress: past the last
/// house and then some, so that bearing off beats any move on the board.
const HOME_WORTH: i64 = 34;
/// What a protected piece (one that cannot be swapped) is worth, in
/// sixteenths of a house.
const PROTECTED_WORTH: i64 = 12;
/// What standing in the water costs, in sixteenths of a house.
const WATER_COST: i64 = 64;

/// A position's worth for `side`, in sixteenths of a house: progress along
/// the track (a piece home counts as 34 houses), protection, and the
/// danger of standing in the water.
#[must_use]
pub fn evaluate(variant: &Variant, position: &Position, side: Side) -> i64 {
    one_side(variant, position, side) - one_side(variant, position, side.other())
}

fn one_side(variant: &Variant, position: &Position, side: Side) -> i64 {
    let bits = position.bits(side);
    let mut progress = i64::from(position.home(side, variant)) * HOME_WORTH;
    let mut b = bits;
    while b != 0 {
        progress += i64::from(b.trailing_zeros()) + 1;
        b &= b - 1;
    }
    let protected = i64::from(protected_mask(bits, variant.protect).count_ones());
    let water = i64::from(position.at(House::WATER) == Some(side));
    16 * progress + PROTECTED_WORTH * protected - WATER_COST * water
}
