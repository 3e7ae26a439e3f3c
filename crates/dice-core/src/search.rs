//! One expectiminimax for every game: chance nodes over the rules' rolls,
//! a node budget, iterative deepening, and what a bot says it thought.

use serde::Serialize;

use crate::{MoveList, Rules, Side, Status};

/// The value of a won position for the winner, before the depth left is
/// added (so that a sooner win scores more); the loser's is its negation.
pub const WIN: i64 = 1_000_000;

/// The deepest level a search goes to.
pub const DEPTH_MAX: u32 = 32;

/// What a search does at a node once its node budget is spent (in a level
/// past the first, which always finishes). The level is then thrown away
/// either way; the choice decides what is counted and visited, and so the
/// node counts a bot reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cutoff {
    /// The node is not visited: it is not counted and scores 0. (The Royal
    /// Game of Ur's reference, spec §17.)
    Skip,
    /// The node is visited and counted, and a node that would look further
    /// is scored by the evaluation instead. (Senet's ladder.)
    Evaluate,
}

/// Which of the root moves with the best value a search chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tie {
    /// The first in the rules' order.
    First,
    /// The last in the rules' order. (The Royal Game of Ur's reference.)
    Last,
}

/// How a search runs: how deep and how long, and the two points on which
/// the games' ladders differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// The deepest level, in plies (0 means [`DEPTH_MAX`]; more is capped at
    /// it).
    pub depth: u32,
    /// Nodes the search may visit; a level past the first that would visit
    /// more is cut short and thrown away, and no level starts once they are
    /// spent.
    pub budget: u64,
    /// What a node does once the budget is spent.
    pub cutoff: Cutoff,
    /// Which root move wins a tie.
    pub tie: Tie,
}

/// What a search found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct SearchInfo {
    /// The chosen move's index in the legal moves, `None` when there is no
    /// move (or the game is over).
    pub index: Option<usize>,
    /// Nodes visited, over all levels.
    pub nodes: u64,
    /// The deepest level that finished.
    pub depth: u32,
    /// The chosen move's value at that level.
    pub value: i64,
    /// Whether a level was cut short by the budget and thrown away.
    pub stopped: bool,
}

/// Expectiminimax for the side to move, which has rolled `roll`, with
/// `evaluate(position, side)` scoring a position for a side where the
/// search stops looking.
///
/// Iterative deepening over levels 1 to `options.depth`. In a level, each
/// root move is worth the value of the position after it, one ply less
/// deep, and the best wins (ties as `options.tie` says). A position's value
/// is ±([`WIN`] + the depth left) once someone has won (+ when it is the
/// root's side), 0 for a draw, `evaluate` at depth 0, and otherwise its
/// chance node: the weighted sum over [`Rules::chances`] of the best value
/// each roll allows, trunc-divided by the denominator. With a roll, the side
/// to move maximizes when it is the root's side and minimizes otherwise
/// (decided position by position, since a side may move twice running); a
/// roll with no move is the lost turn's value. Level 1 never stops on the
/// budget; a deeper level that spends it is thrown away (see [`Cutoff`]),
/// and the search ends after any level once the budget is spent, or after
/// level 1 when there is only one move.
///
/// The same question always gets the same answer.
///
/// ```
/// use dice_core::toy::{Toy, ToyVariant};
/// use dice_core::{Cutoff, Rules, SearchOptions, Side, Tie, search};
///
/// let v = ToyVariant::default();
/// let start = Toy::start(&v, Side::Light);
/// let options = SearchOptions { depth: 3, budget: 10_000, cutoff: Cutoff::Skip, tie: Tie::Last };
/// // Score a position by how far the side's pieces have come.
/// let progress = |p: &dice_core::toy::ToyPosition, side: Side| {
///     let [light, dark] = p.pieces.map(|pair| i64::from(pair[0]) + i64::from(pair[1]));
///     if side == Side::Light { light - dark } else { dark - light }
/// };
/// let info = search::<Toy>(&v, &start, 2, options, progress);
/// assert_eq!((info.index, info.depth, info.stopped), (Some(0), 1, false));
/// ```
pub fn search<R: Rules>(
    variant: &R::Variant,
    position: &R::Position,
    roll: u8,
    options: SearchOptions,
    evaluate: impl FnMut(&R::Position, Side) -> i64,
) -> SearchInfo {
    let mut info = SearchInfo::default();
    let mut moves = MoveList::new();
    R::legal(variant, position, roll, &mut moves);
    if moves.is_empty() {
        return info;
    }
    let top = if options.depth == 0 {
        DEPTH_MAX
    } else {
        options.depth.min(DEPTH_MAX)
    };
    let mut searcher = Searcher::<R, _> {
        variant,
        evaluate,
        root: R::side(position),
        nodes: 0,
        budget: options.budget,
        cutoff: options.cutoff,
        bounded: false,
        stopped: false,
    };
    for level in 1..=top {
        searcher.bounded = level > 1;
        searcher.stopped = false;
        let mut chosen = 0;
        let mut best = 0i64;
        for (k, &mv) in moves.iter().enumerate() {
            let (next, _) = R::apply(variant, position, roll, mv);
            let v = searcher.value(&next, i64::from(level) - 1);
            let better = match options.tie {
                Tie::First => v > best,
                Tie::Last => v >= best,
            };
            if k == 0 || better {
                chosen = k;
                best = v;
            }
        }
        if searcher.stopped {
            info.stopped = true;
            break;
        }
        info.index = Some(chosen);
        info.depth = level;
        info.value = best;
        if (level == 1 && moves.len() == 1) || searcher.nodes >= options.budget {
            break;
        }
    }
    info.nodes = searcher.nodes;
    info
}

/// One search's state: what it counts, and what it knows of the question.
struct Searcher<'a, R: Rules, E> {
    variant: &'a R::Variant,
    evaluate: E,
    root: Side,
    nodes: u64,
    budget: u64,
    cutoff: Cutoff,
    /// Whether this level may stop on the budget (every level past the first).
    bounded: bool,
    /// Whether this level has spent the budget.
    stopped: bool,
}

impl<R: Rules, E: FnMut(&R::Position, Side) -> i64> Searcher<'_, R, E> {
    /// Whether the budget is spent in a level that may stop on it; marks
    /// the level stopped when it is.
    fn spent(&mut self) -> bool {
        let spent = self.bounded && self.nodes >= self.budget;
        self.stopped |= spent;
        spent
    }

    /// The value of a position before its throw, `depth` plies deep.
    fn value(&mut self, position: &R::Position, depth: i64) -> i64 {
        if self.cutoff == Cutoff::Skip && self.spent() {
            return 0;
        }
        self.nodes += 1;
        match R::status(self.variant, position) {
            Status::Won(side) if side == self.root => return WIN + depth,
            Status::Won(_) => return -(WIN + depth),
            Status::Drawn => return 0,
            Status::Ongoing => {}
        }
        if depth <= 0 || (self.cutoff == Cutoff::Evaluate && self.spent()) {
            return (self.evaluate)(position, self.root);
        }
        let mut sum = 0i64;
        let mut denominator = 1i64;
        for chance in R::chances(self.variant) {
            sum += i64::from(chance.weight) * self.best(position, chance.roll, depth);
            denominator = i64::from(chance.denominator);
        }
        sum / denominator
    }

    /// The value of a position with `roll` in hand: the mover's best move,
    /// or the lost turn when the roll allows none.
    fn best(&mut self, position: &R::Position, roll: u8, depth: i64) -> i64 {
        let mut moves = MoveList::new();
        R::legal(self.variant, position, roll, &mut moves);
        if moves.is_empty() {
            let (next, _) = R::forfeit(self.variant, position, roll);
            return self.value(&next, depth - 1);
        }
        let maximize = R::side(position) == self.root;
        let mut best: Option<i64> = None;
        for &mv in moves.iter() {
            let (next, _) = R::apply(self.variant, position, roll, mv);
            let v = self.value(&next, depth - 1);
            best = Some(match best {
                Some(b) if (maximize && v <= b) || (!maximize && v >= b) => b,
                _ => v,
            });
        }
        best.unwrap_or(0)
    }
}

/// What a bot says it thought: the move, the level that chose it, the
/// move's index among the legal moves, and what the search found (nothing
/// for a bot that does not search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Thought<M> {
    /// The move to play.
    #[serde(rename = "move")]
    pub mv: M,
    /// The bot's level on its ladder.
    pub level: u8,
    /// The move's index among the legal moves.
    pub index: usize,
    /// The deepest level of the search that finished (0 without one).
    pub depth: u32,
    /// The move's value for the side to move (`None` without a search).
    pub value: Option<i64>,
    /// Nodes visited (0 without a search).
    pub nodes: u64,
    /// Whether a level was cut short by the budget.
    pub stopped: bool,
}

impl<M: Copy> Thought<M> {
    /// The thought of a bot that chose `moves[index]` without a search (a
    /// rule of thumb, or the only move); `None` when there is no such move.
    #[must_use]
    pub fn unsearched(moves: &[M], level: u8, index: usize) -> Option<Thought<M>> {
        Some(Thought {
            mv: *moves.get(index)?,
            level,
            index,
            depth: 0,
            value: None,
            nodes: 0,
            stopped: false,
        })
    }

    /// The thought of a bot whose [`search`] over `moves` found `info`;
    /// `None` when it chose no move.
    #[must_use]
    pub fn searched(moves: &[M], level: u8, info: &SearchInfo) -> Option<Thought<M>> {
        let index = info.index?;
        Some(Thought {
            mv: *moves.get(index)?,
            level,
            index,
            depth: info.depth,
            value: Some(info.value),
            nodes: info.nodes,
            stopped: info.stopped,
        })
    }
}
