//! The bot ladder: a rule of thumb, then expectimax over the sticks' chances.

use dice_core::{BotError, MoveList, Rules, Side, Status, bot_budget, bot_level};
use serde::Serialize;

use crate::position::protected_mask;
use crate::rules::{generate, make};
use crate::{CHANCES, Game, Move, MoveInfo, Place, Position, Senet, Variant};

/// The top level of the ladder; a bot asked for a level above it (up to
/// [`dice_core::LEVEL_ASKED_MAX`]) plays this one.
pub const LEVEL_TOP: u8 = 4;
/// Nodes a search may visit by default before it settles for a shallower
/// answer.
pub const BUDGET_DEFAULT: u64 = 200_000;
/// The value of a won game (plus the depth left, so sooner wins score more).
pub const WIN: i64 = 1_000_000;

/// A player for either side at one level of the ladder.
///
/// * level 1: a rule of thumb on the throw in hand (bear off, else swap the
///   enemy piece furthest along, else move the piece furthest along);
/// * levels 2, 3, 4: expectimax over the chances of the sticks looking 1, 2
///   and 3 throws ahead, within a node budget.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bot {
    level: u8,
    budget: u64,
}

/// What a bot thought: the move, the level that chose it, its index among
/// the legal moves, how deep the search finished, its value for the mover
/// (in sixteenths of a house) and the nodes visited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Thought {
    /// The move chosen.
    #[serde(rename = "move")]
    pub mv: Move,
    /// The level of the ladder that chose it (1..4).
    pub level: u8,
    /// Its index in the legal moves.
    pub index: usize,
    /// Throws looked ahead by the deepest finished search (0 for level 1).
    pub depth: u8,
    /// The chosen move's value for the side to move (0 for level 1).
    pub value: i64,
    /// Positions visited.
    pub nodes: u64,
}

impl Default for Bot {
    /// The top level, with the default budget.
    fn default() -> Bot {
        Bot {
            level: LEVEL_TOP,
            budget: BUDGET_DEFAULT,
        }
    }
}

impl Bot {
    /// A bot at `level` (1..99; above the top of the ladder plays the top;
    /// `None` is the top) with a node `budget` (1..2,000,000,000; `None` is
    /// 200,000).
    ///
    /// # Errors
    ///
    /// [`BotError::Level`] for level 0 or above 99, [`BotError::Budget`] for
    /// a budget of 0 or above 2,000,000,000.
    pub fn new(level: Option<u8>, budget: Option<u64>) -> Result<Bot, BotError> {
        Ok(Bot {
            level: bot_level(level, LEVEL_TOP)?,
            budget: bot_budget(budget, BUDGET_DEFAULT)?,
        })
    }

    /// The node budget.
    #[must_use]
    pub const fn budget(&self) -> u64 {
        self.budget
    }

    /// The level it plays (1..4).
    #[must_use]
    pub const fn level(&self) -> u8 {
        self.level
    }

    /// Throws looked ahead at this level (0 for the rule of thumb).
    #[must_use]
    pub const fn depth(&self) -> u8 {
        self.level - 1
    }

    /// The move for the game's throw in hand, or `None` when there is none.
    #[must_use]
    pub fn choose(&self, game: &Game) -> Option<Move> {
        self.think(game.variant(), game.position(), game.roll()?)
            .map(|t| t.mv)
    }

    /// The move for `roll` in a position, with what the bot thought, or
    /// `None` when the roll allows no move.
    #[must_use]
    pub fn think(&self, variant: &Variant, position: &Position, roll: u8) -> Option<Thought> {
        let mut moves = MoveList::new();
        generate(variant, position, roll, &mut moves);
        if moves.is_empty() {
            return None;
        }
        if self.level == 1 || moves.len() == 1 {
            let index = if self.level == 1 {
                thumb(position.move_infos(variant, roll))
            } else {
                0
            };
            return moves.get(index).map(|&mv| Thought {
                mv,
                level: self.level,
                index,
                depth: 0,
                value: 0,
                nodes: 0,
            });
        }
        let root = position.side();
        let mut search = Search {
            variant: *variant,
            root,
            nodes: 0,
            budget: self.budget,
            stopped: false,
        };
        let mut chosen: Option<Thought> = None;
        for depth in 1..=self.depth() {
            let mut best: Option<(usize, i64)> = None;
            for (i, &mv) in moves.iter().enumerate() {
                let (next, _) = make(variant, position, roll, mv);
                let v = search.value(&next, depth - 1);
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                }
            }
            // a search cut short by the budget is not trusted (depth 1 always finishes)
            if search.stopped && depth > 1 {
                break;
            }
            if let Some((index, value)) = best
                && let Some(&mv) = moves.get(index)
            {
                chosen = Some(Thought {
                    mv,
                    level: self.level,
                    index,
                    depth,
                    value,
                    nodes: search.nodes,
                });
            }
            search.stopped = false;
            if search.nodes >= search.budget {
                break;
            }
        }
        chosen.map(|t| Thought {
            nodes: search.nodes,
            ..t
        })
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

struct Search {
    variant: Variant,
    root: Side,
    nodes: u64,
    budget: u64,
    stopped: bool,
}

impl Search {
    /// The expected value of a position before its throw, `depth` throws deep.
    fn value(&mut self, position: &Position, depth: u8) -> i64 {
        self.nodes += 1;
        match Senet::status(&self.variant, position) {
            Status::Won(side) => {
                let v = WIN + i64::from(depth);
                return if side == self.root { v } else { -v };
            }
            Status::Drawn => return 0,
            _ => {}
        }
        if depth == 0 {
            return evaluate(&self.variant, position, self.root);
        }
        if self.nodes >= self.budget {
            self.stopped = true;
            return evaluate(&self.variant, position, self.root);
        }
        let mut total = 0i64;
        for chance in CHANCES {
            total += i64::from(chance.weight) * self.best(position, chance.roll, depth);
        }
        total / 16
    }

    /// The value of a position with `roll` in hand: the mover's best move.
    fn best(&mut self, position: &Position, roll: u8, depth: u8) -> i64 {
        let mut moves = MoveList::new();
        generate(&self.variant, position, roll, &mut moves);
        if moves.is_empty() {
            let (next, _) = Senet::forfeit(&self.variant, position, roll);
            return self.value(&next, depth - 1);
        }
        let maximise = position.side() == self.root;
        let mut best: Option<i64> = None;
        for &mv in moves.iter() {
            let (next, _) = make(&self.variant, position, roll, mv);
            let v = self.value(&next, depth - 1);
            best = Some(match best {
                None => v,
                Some(b) if maximise => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.unwrap_or(0)
    }
}

/// A position's worth for `side`, in sixteenths of a house: progress along
/// the track (a piece home counts as 34 houses), protection, and the
/// danger of standing in the water.
#[must_use]
pub fn evaluate(variant: &Variant, position: &Position, side: Side) -> i64 {
    one_side(variant, position, side) - one_side(variant, position, side.other())
}

fn one_side(variant: &Variant, position: &Position, side: Side) -> i64 {
    let bits = position.bits(side);
    let mut progress = i64::from(position.home(side, variant)) * 34;
    let mut b = bits;
    while b != 0 {
        progress += i64::from(b.trailing_zeros()) + 1;
        b &= b - 1;
    }
    let protected = i64::from(protected_mask(bits, variant.protect).count_ones());
    let water = i64::from(bits >> 26 & 1);
    16 * progress + 12 * protected - 64 * water
}
