//! The bot ladder: greedy play, an integer evaluation, and the shared
//! budgeted iterative-deepening expectiminimax, all as the reference
//! computes them.

use dice_core::{BotError, Cutoff, Ladder, SearchInfo, SearchOptions, Side, Tie};
use serde::Serialize;

use crate::{Move, Path, Position, Ur, Variant};

/// The bot's default node budget.
pub const BUDGET_DEFAULT: u64 = 1_000_000;
/// The top level of both ladders.
pub const LEVEL_TOP: u8 = 4;

/// What the bot thinks: dice-core's thought about a Royal Game of Ur move.
pub type Thought = dice_core::Thought<Move>;

/// The weights of [`evaluate`], in sixteenths of a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Weights {
    /// Penalty for pieces the enemy could hit next roll.
    pub exposed: i64,
    /// Bonus for pieces held on shared rosettes.
    pub rosette: i64,
    /// Penalty for pieces still in hand (a bonus when negative).
    pub entry: i64,
    /// Bonus for pieces home, beyond the steps they have come.
    pub home: i64,
}

/// One level of a ladder: greedy, or a search to a depth with weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Rung {
    /// No look-ahead (see [`greedy`]).
    Greedy,
    /// Expectiminimax to this depth with these weights (see [`search`]).
    Search {
        /// Plies to look ahead.
        depth: u32,
        /// The evaluation weights.
        weights: Weights,
    },
}

/// The rung of `level` (1..4) on `path`'s ladder. The reference has two
/// ladders, one for each of its routes (bell's path, short, and masters',
/// long); aseb's path, whose shared lane both sides reach at the same
/// steps as on bell's, takes bell's weights (the two compared, and the
/// ladder's figures under blitz and aseb, in `docs/royal-ur-stats.md`).
///
/// Murray's and skiriuk's paths, which visit squares twice, have weights
/// of their own, {exposed 16, entry −96, home 512}: a piece in hand is
/// worth six steps and a piece home 32 steps more than its path. On these
/// paths a side's last squares are the other side's first, so a piece in
/// hand threatens the enemy's pieces nearest home, and a piece on the
/// last safe rosette is worth less than its steps while the enemy holds
/// pieces in hand. With masters' weights, which count neither, the search
/// parks its leading pieces on the safe rosettes and moves the others
/// round, where they are captured over and over: its games ran to
/// thousands of plies (figures in `docs/royal-ur-stats.md`).
///
/// | level | bell (finkel), aseb | masters | murray, skiriuk |
/// |---|---|---|---|
/// | 1 | greedy | greedy | greedy |
/// | 2 | depth 2, {exposed 16, rosette 16, entry 8} | depth 2, {exposed 16} | depth 2, {exposed 16, entry −96, home 512} |
/// | 3 | depth 3, same weights | depth 3, same weights | depth 3, same weights |
/// | 4 | depth 4, same weights | depth 4, same weights | depth 4, same weights |
///
/// # Errors
///
/// [`BotError::Level`] outside 1..4.
pub fn rung(level: u8, path: Path) -> Result<Rung, BotError> {
    let weights = match path {
        Path::Bell | Path::Aseb => Weights {
            exposed: 16,
            rosette: 16,
            entry: 8,
            home: 0,
        },
        Path::Masters => Weights {
            exposed: 16,
            rosette: 0,
            entry: 0,
            home: 0,
        },
        Path::Murray | Path::Skiriuk => Weights {
            exposed: 16,
            rosette: 0,
            entry: -96,
            home: 512,
        },
    };
    match level {
        1 => Ok(Rung::Greedy),
        2..=LEVEL_TOP => Ok(Rung::Search {
            depth: u32::from(level),
            weights,
        }),
        _ => Err(BotError::Level {
            level: u32::from(level),
            top: LEVEL_TOP,
        }),
    }
}

/// The index of the greedy move among `moves` (in the reference order): the
/// last capturing move if there is one, else the last move onto a rosette
/// (of the position's board), else the last move. `None` when there are
/// none.
#[must_use]
pub fn greedy(position: &Position, moves: &[Move]) -> Option<usize> {
    let last = |f: &dyn Fn(&Move) -> bool| moves.iter().rposition(f);
    let enemy = position.board_mask(position.side().other());
    let shape = position.shape();
    let lands = |m: &Move, mask: u32| match m.to() {
        crate::Place::Square(sq) => mask & (1 << sq.cell()) != 0,
        _ => false,
    };
    last(&|m| lands(m, enemy))
        .or_else(|| last(&|m| lands(m, shape.rosette_mask())))
        .or_else(|| moves.len().checked_sub(1))
}

/// The sixteenths of the chance of rolling exactly `d` (0 when it cannot be
/// rolled): finkel 1→4, 2→6, 3→4, 4→1; masters 1→6, 2→6, 3→2, 4→2.
fn chance16(variant: &Variant, d: u8) -> i64 {
    variant
        .chances()
        .iter()
        .find(|c| c.roll == d)
        .map_or(0, |c| i64::from(c.weight) * 16 / i64::from(c.denominator))
}

/// The sum of the steps set in a step mask.
fn step_sum(mut steps: u32) -> i64 {
    let mut sum = 0i64;
    while steps != 0 {
        sum += i64::from(steps.trailing_zeros());
        steps &= steps - 1;
    }
    sum
}

/// The position's value for `side` under `variant`, in sixteenths of a
/// step, integers only.
///
/// * progress = Σ steps of the side's pieces on the board (each at the
///   visit it is on) + home × (len+1); `v = 16 × (progress(side) −
///   progress(other))`;
/// * `v −= trunc(exposed × (exposure(side) − exposure(other)) / 16)`, where a
///   piece at own step `s` on a shared square, not on a safe rosette, adds
///   `min(16, Σ chance16(d)) × s` over the distances `d` = 1..(the highest
///   roll) from which an enemy piece (or the enemy's hand, for a square at
///   the enemy's step `d`) could hit it, counting each enemy step of the
///   square (two on the squares murray's and skiriuk's paths visit twice);
/// * `v += rosette × (held(side) − held(other))`, held = pieces on shared
///   rosettes;
/// * `v −= entry × (hand(side) − hand(other))`;
/// * `v += home × (home(side) − home(other))`.
///
/// Under the reference's rule sets (at most 4 a roll, no square visited
/// twice) and with `home` 0, as their ladders have it, this is the
/// reference's evaluation, term by term.
#[must_use]
pub fn evaluate(variant: &Variant, position: &Position, side: Side, weights: &Weights) -> i64 {
    let path = variant.path();
    let other = side.other();
    let len = i64::from(path.len());
    let progress = |s: Side| {
        step_sum(position.step_mask(s, path)) + i64::from(position.home(s, variant)) * (len + 1)
    };
    let mut v = 16 * (progress(side) - progress(other));
    if weights.exposed != 0 {
        let diff = exposure(position, side, variant) - exposure(position, other, variant);
        v -= weights.exposed * diff / 16;
    }
    if weights.rosette != 0 {
        let shared_rosettes = path.shared_mask() & position.shape().rosette_mask();
        let held = |s: Side| i64::from((position.board_mask(s) & shared_rosettes).count_ones());
        v += weights.rosette * (held(side) - held(other));
    }
    if weights.entry != 0 {
        v -= weights.entry * (i64::from(position.hand(side)) - i64::from(position.hand(other)));
    }
    if weights.home != 0 {
        let home = |s: Side| i64::from(position.home(s, variant));
        v += weights.home * (home(side) - home(other));
    }
    v
}

#[allow(
    clippy::indexing_slicing,
    reason = "hot path (every leaf of a search); `cell` comes from a board mask (squares \
              below 32, the length of `step` and `step2`)"
)]
fn exposure(position: &Position, side: Side, variant: &Variant) -> i64 {
    let path = variant.path();
    let mine = path.table(side);
    let theirs = path.table(side.other());
    let second = position.second_visit_mask();
    let enemy = position.step_mask(side.other(), path);
    let enemy_hand = position.hand(side.other()) > 0;
    let mut m = position.board_mask(side) & path.shared_mask();
    if variant.safe_rosettes() {
        m &= !position.shape().rosette_mask();
    }
    let reach = variant.max_roll();
    let mut sum = 0i64;
    while m != 0 {
        let cell = m.trailing_zeros() as usize & 31;
        m &= m - 1;
        let s = i64::from(if second & (1 << cell) != 0 {
            mine.step2[cell]
        } else {
            mine.step[cell]
        });
        let mut threat = 0i64;
        for es in [theirs.step[cell], theirs.step2[cell]] {
            if es == 0 {
                continue;
            }
            for d in 1..=reach {
                let from = i64::from(es) - i64::from(d);
                let counts = if from == 0 {
                    enemy_hand
                } else {
                    from >= 1 && enemy & (1 << (from & 31)) != 0
                };
                if counts {
                    threat += chance16(variant, d);
                }
            }
        }
        sum += threat.min(16) * s;
    }
    sum
}

/// The reference's expectiminimax (spec §17) for the side to move, which
/// has rolled `roll`: dice-core's [`search`](dice_core::search) with the
/// reference's choices (a node past the budget is not visited and scores 0;
/// ties go to the highest index), to `depth` (0 means 32, and 32 is the
/// most) within `budget` nodes, scoring positions with [`evaluate`] and
/// `weights`.
///
/// The same question always gets the same answer.
#[must_use]
pub fn search(
    variant: &Variant,
    position: &Position,
    roll: u8,
    depth: u32,
    budget: u64,
    weights: &Weights,
) -> SearchInfo {
    let options = SearchOptions {
        depth,
        budget,
        cutoff: Cutoff::Skip,
        tie: Tie::Last,
    };
    dice_core::search::<Ur>(variant, position, roll, options, |p, side| {
        evaluate(variant, p, side, weights)
    })
}

/// A player on the ladder of spec §17 (dice-core's [`Bot`](dice_core::Bot)
/// on the Royal Game of Ur's [`Ladder`]): level 1 is greedy, levels 2..4
/// search 2..4 plies with the path's weights ([`rung`]); the budget is
/// 1,000,000 nodes unless given.
///
/// ```
/// use dice_core::Side;
/// use royal_ur::{Bot, Position, Variant};
///
/// let bot = Bot::new(Some(4), None)?;
/// let pos = Position::start(&Variant::FINKEL, Side::Light);
/// let thought = bot.think(&Variant::FINKEL, &pos, 2).expect("a move");
/// assert_eq!(thought.mv.to_string(), "hand-c1");
/// assert_eq!(bot.think(&Variant::FINKEL, &pos, 2), Some(thought));
/// # Ok::<(), royal_ur::BotError>(())
/// ```
pub type Bot = dice_core::Bot<Ur>;

/// The ladder of spec §17: [`rung`] says what each level does.
impl Ladder for Ur {
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
        match rung(level, variant.path()).ok()? {
            Rung::Greedy => Thought::unsearched(&moves, level, greedy(position, &moves)?),
            Rung::Search { depth, weights } => {
                let info = search(variant, position, roll, depth, budget, &weights);
                Thought::searched(&moves, level, &info)
            }
        }
    }
}
