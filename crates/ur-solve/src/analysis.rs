//! Using a solved table: the value of each move, the best move, a perfect
//! bot, and move-by-move analysis of a played game.
//!
//! Every chance here is the chance that the side named wins, as a number
//! from 0 to 1.

use dice_core::{Game, LogEntry, MoveList, Rules, Side, Status};
use royal_ur::{Move, Position, Ur};
use serde::Serialize;

use crate::error::{AnalysisError, LookupError};
use crate::solve::WinChances;

/// A legal move and the mover's chance of winning after it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveValue {
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// The mover's chance of winning once it is made.
    pub win_chance: f64,
}

/// The mover's chance of winning after reaching `next` (in which `mover`
/// may or may not be the side to move).
fn chance_after<T: WinChances + ?Sized>(
    table: &T,
    next: &Position,
    mover: Side,
) -> Result<f64, LookupError> {
    let v = table.win_chance(next)?;
    Ok(if next.side() == mover { v } else { 1.0 - v })
}

/// The value of every legal move for `roll`, in the rules' order.
///
/// # Errors
///
/// [`LookupError`] when the position does not fit the table's rules.
pub fn move_values<T: WinChances + ?Sized>(
    table: &T,
    position: &Position,
    roll: u8,
) -> Result<Vec<MoveValue>, LookupError> {
    let variant = *table.variant();
    table.index().state(position)?;
    let mut moves = MoveList::new();
    Ur::legal(&variant, position, roll, &mut moves);
    let mover = position.side();
    moves
        .iter()
        .map(|&mv| {
            let (next, _) = Ur::apply(&variant, position, roll, mv);
            chance_after(table, &next, mover).map(|win_chance| MoveValue { mv, win_chance })
        })
        .collect()
}

/// The best legal move for `roll` (the first in the rules' order among
/// equals), or `None` when the roll allows no move. From a 2-byte table,
/// the move its choices name where its rounded values would choose
/// another ([`WinChances::chosen_move`]), so that it is the move the
/// exact values choose.
///
/// # Errors
///
/// [`LookupError`] when the position does not fit the table's rules.
pub fn best_move<T: WinChances + ?Sized>(
    table: &T,
    position: &Position,
    roll: u8,
) -> Result<Option<MoveValue>, LookupError> {
    let values = move_values(table, position, roll)?;
    best_of(table, position, roll, &values)
}

/// The best of a roll's move values (as [`best_move`]).
fn best_of<T: WinChances + ?Sized>(
    table: &T,
    position: &Position,
    roll: u8,
    values: &[MoveValue],
) -> Result<Option<MoveValue>, LookupError> {
    if values.len() > 1 {
        let index = table.index().rank_position(position)?;
        if let Some(mv) = table.chosen_move(index, roll).and_then(|k| values.get(k)) {
            return Ok(Some(*mv));
        }
    }
    Ok(values
        .iter()
        .copied()
        .fold(None, |best: Option<MoveValue>, mv| match best {
            Some(b) if b.win_chance >= mv.win_chance => Some(b),
            _ => Some(mv),
        }))
}

/// The mover's chance of winning once `roll` is thrown and played as well
/// as possible (the turn passes when it allows no move).
///
/// # Errors
///
/// [`LookupError`] when the position does not fit the table's rules.
pub fn roll_value<T: WinChances + ?Sized>(
    table: &T,
    position: &Position,
    roll: u8,
) -> Result<f64, LookupError> {
    if position.status(table.variant()) != Status::Ongoing {
        return table.win_chance(position);
    }
    match best_move(table, position, roll)? {
        Some(best) => Ok(best.win_chance),
        None => chance_after(table, &position.forfeit(table.variant()), position.side()),
    }
}

/// A bot that plays the best move of a solved table.
///
/// ```
/// use dice_core::Side;
/// use royal_ur::{Position, Variant};
/// use ur_solve::{solve, PerfectBot, SolveOptions};
///
/// let v = Variant::FINKEL.with_pieces(1)?;
/// let bot = PerfectBot::new(solve(&v, &SolveOptions::default(), |_| {})?);
/// let (mv, chance) = bot.think(&Position::start(&v, Side::Light), 4)?.expect("a move");
/// assert_eq!(mv.to_string(), "hand-a1");
/// assert!(chance > 0.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PerfectBot<T: WinChances> {
    table: T,
}

impl<T: WinChances> PerfectBot<T> {
    /// A bot playing from `table` (a [`Table`](crate::Table) read from a
    /// file or a [`Solution`](crate::Solution)).
    pub const fn new(table: T) -> PerfectBot<T> {
        PerfectBot { table }
    }

    /// The table.
    pub const fn table(&self) -> &T {
        &self.table
    }

    /// The best move for `roll` and the mover's chance of winning after
    /// it; `None` when the roll allows no move. Equal moves go to the first
    /// in the rules' order, so the same question always gets the same
    /// answer.
    ///
    /// # Errors
    ///
    /// [`LookupError`] when the position does not fit the table's rules.
    pub fn think(&self, position: &Position, roll: u8) -> Result<Option<(Move, f64)>, LookupError> {
        Ok(best_move(&self.table, position, roll)?.map(|b| (b.mv, b.win_chance)))
    }

    /// The move to play in a game: `None` when the game has no roll to
    /// play, is over, or is played under other rules.
    pub fn choose(&self, game: &Game<Ur>) -> Option<Move> {
        if game.variant() != self.table.variant() {
            return None;
        }
        let roll = game.roll()?;
        self.think(game.position(), roll)
            .ok()
            .flatten()
            .map(|(mv, _)| mv)
    }
}

/// The most a move may lose and still be the best (the table stores
/// values good to about 1e-7; equal moves differ by rounding only).
pub const BEST_AT_MOST: f64 = 1e-9;
/// A move that loses less than this (1 point of win chance) is good.
pub const GOOD_BELOW: f64 = 0.01;
/// A move that loses less than this (3 points) is an inaccuracy.
pub const INACCURACY_BELOW: f64 = 0.03;
/// A move that loses less than this (8 points) is a mistake; this much or
/// more is a blunder.
pub const MISTAKE_BELOW: f64 = 0.08;
/// How many plies [`GameAnalysis::key_moments`] names.
pub const KEY_MOMENTS: usize = 5;

/// A decision judged by the chance it lost: `lost ≤` [`BEST_AT_MOST`] is
/// best, below [`GOOD_BELOW`] good, below [`INACCURACY_BELOW`] an
/// inaccuracy, below [`MISTAKE_BELOW`] a mistake, and a blunder beyond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The best move (or one as good).
    Best,
    /// Lost less than 1 point of win chance.
    Good,
    /// Lost less than 3 points.
    Inaccuracy,
    /// Lost less than 8 points.
    Mistake,
    /// Lost 8 points or more.
    Blunder,
}

impl Grade {
    /// Every grade, from the best.
    pub const ALL: [Grade; 5] = [
        Grade::Best,
        Grade::Good,
        Grade::Inaccuracy,
        Grade::Mistake,
        Grade::Blunder,
    ];

    /// The grade's word, as JSON writes it: `best`, `good`, `inaccuracy`,
    /// `mistake` or `blunder`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }

    /// The grade of a move that lost `lost` (a chance from 0 to 1).
    ///
    /// ```
    /// use ur_solve::Grade;
    ///
    /// assert_eq!(Grade::of(0.0), Grade::Best);
    /// assert_eq!(Grade::of(0.005), Grade::Good);
    /// assert_eq!(Grade::of(0.03), Grade::Mistake);
    /// assert_eq!(Grade::of(0.2), Grade::Blunder);
    /// ```
    #[must_use]
    pub fn of(lost: f64) -> Grade {
        if lost <= BEST_AT_MOST {
            Grade::Best
        } else if lost < GOOD_BELOW {
            Grade::Good
        } else if lost < INACCURACY_BELOW {
            Grade::Inaccuracy
        } else if lost < MISTAKE_BELOW {
            Grade::Mistake
        } else {
            Grade::Blunder
        }
    }
}

/// One ply of a game, judged by the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurnAnalysis {
    /// The ply (0 for the first).
    pub ply: u32,
    /// The side that threw.
    pub side: Side,
    /// The roll.
    pub roll: u8,
    /// The move played; `None` when the roll allowed none.
    #[serde(rename = "move")]
    pub mv: Option<Move>,
    /// The side's chance of winning before the throw.
    pub before: f64,
    /// The side's chance of winning after the throw, played as well as
    /// possible (the value of the roll).
    pub roll_value: f64,
    /// The luck of the roll: its value minus the chance before the throw.
    pub luck: f64,
    /// The best move (`None` when the roll allowed none).
    pub best: Option<Move>,
    /// The side's chance of winning after the move played (or the lost
    /// turn).
    pub after: f64,
    /// The chance lost by the move played: the roll's value minus
    /// `after` (0 for the best move and for a lost turn).
    pub lost: f64,
    /// Whether the throw allowed more than one move.
    pub choice: bool,
    /// The move's grade by `lost` ([`Grade::of`]); `None` when the throw
    /// allowed no choice.
    pub grade: Option<Grade>,
    /// The swing of the ply: `after - before`, the side's chance after its
    /// move less its chance before its throw (the luck of the throw less
    /// the chance lost).
    pub swing: f64,
}

/// How many decisions with a choice got each grade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GradeCounts {
    /// Best moves.
    pub best: u32,
    /// Good moves.
    pub good: u32,
    /// Inaccuracies.
    pub inaccuracy: u32,
    /// Mistakes.
    pub mistake: u32,
    /// Blunders.
    pub blunder: u32,
}

impl GradeCounts {
    /// The count of one grade.
    #[must_use]
    pub const fn of(&self, grade: Grade) -> u32 {
        match grade {
            Grade::Best => self.best,
            Grade::Good => self.good,
            Grade::Inaccuracy => self.inaccuracy,
            Grade::Mistake => self.mistake,
            Grade::Blunder => self.blunder,
        }
    }

    fn count(&mut self, grade: Grade) {
        let n = match grade {
            Grade::Best => &mut self.best,
            Grade::Good => &mut self.good,
            Grade::Inaccuracy => &mut self.inaccuracy,
            Grade::Mistake => &mut self.mistake,
            Grade::Blunder => &mut self.blunder,
        };
        *n += 1;
    }
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideTotals {
    /// Throws the side made.
    pub turns: u32,
    /// Throws that allowed a choice of more than one move.
    pub choices: u32,
    /// Moves that were not the best (lost more than [`BEST_AT_MOST`]).
    pub mistakes: u32,
    /// The chance lost by its moves, summed.
    pub lost: f64,
    /// The luck of its throws, summed.
    pub luck: f64,
    /// Its decisions with a choice, counted by grade.
    pub grades: GradeCounts,
    /// The mean chance lost per decision with a choice (`lost /
    /// choices`); `None` without a choice.
    pub mean_lost: Option<f64>,
    /// Accuracy from 0 to 100: `100 × (1 - mean_lost)`, so 100 for a
    /// side that always chose the best; `None` without a choice.
    pub accuracy: Option<f64>,
    /// The side's result: its chance after the last ply (1 for a win, 0
    /// for a loss once the game is over; the table's chance before then,
    /// and at the start for a game without plies).
    pub result: f64,
    /// The result less the luck of its own throws plus the luck of the
    /// other side's: `result - luck + other.luck`, what the side would
    /// have scored with luck taken out (as GNU Backgammon reports it).
    /// It equals the side's chance at the start less the chance it lost
    /// plus the chance the other side lost.
    pub luck_adjusted: f64,
}

/// A whole game judged by the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// Every ply, in order.
    pub turns: Vec<TurnAnalysis>,
    /// Light's totals.
    pub light: SideTotals,
    /// Dark's totals.
    pub dark: SideTotals,
    /// The key moments: the plies of the [`KEY_MOMENTS`] largest swings
    /// (`|after - before|` of the mover, [`TurnAnalysis::swing`]), largest
    /// first, the earlier ply first among equals.
    pub key_moments: Vec<u32>,
}

impl GameAnalysis {
    /// The totals of one side.
    #[must_use]
    pub const fn totals(&self, side: Side) -> &SideTotals {
        match side {
            Side::Light => &self.light,
            Side::Dark => &self.dark,
        }
    }

    /// Fills in what the totals derive from the plies once all are in:
    /// means, accuracy, results and key moments; `start` is the chance of
    /// `first`, the side to move at the start.
    fn conclude(&mut self, first: Side, start: f64) {
        let light_result = match self.turns.last() {
            Some(t) => light_of(t.side, t.after),
            None => light_of(first, start),
        };
        for (side, result) in [
            (Side::Light, light_result),
            (Side::Dark, 1.0 - light_result),
        ] {
            let other_luck = self.totals(side.other()).luck;
            let t = match side {
                Side::Light => &mut self.light,
                Side::Dark => &mut self.dark,
            };
            t.mean_lost = (t.choices > 0).then(|| t.lost / f64::from(t.choices));
            t.accuracy = t.mean_lost.map(|m| 100.0 * (1.0 - m));
            t.result = result;
            t.luck_adjusted = result - t.luck + other_luck;
        }
        let mut order: Vec<&TurnAnalysis> = self.turns.iter().collect();
        order.sort_by(|a, b| {
            b.swing
                .abs()
                .total_cmp(&a.swing.abs())
                .then(a.ply.cmp(&b.ply))
        });
        self.key_moments = order.iter().take(KEY_MOMENTS).map(|t| t.ply).collect();
    }
}

/// Light's chance when `side` has `chance`.
fn light_of(side: Side, chance: f64) -> f64 {
    match side {
        Side::Light => chance,
        Side::Dark => 1.0 - chance,
    }
}

/// Judges every ply of a log played from `start`.
///
/// # Errors
///
/// [`AnalysisError::Illegal`] when a logged move is not legal where it was
/// played, [`AnalysisError::Lookup`] when a position does not fit the
/// table's rules.
pub fn analyse_log<T: WinChances + ?Sized>(
    table: &T,
    start: Position,
    log: &[LogEntry<Ur>],
) -> Result<GameAnalysis, AnalysisError> {
    let variant = *table.variant();
    let mut position = start;
    let mut out = GameAnalysis {
        turns: Vec::with_capacity(log.len()),
        light: SideTotals::default(),
        dark: SideTotals::default(),
        key_moments: Vec::new(),
    };
    let first = start.side();
    let start_chance = table.win_chance(&start)?;
    for entry in log {
        let side = position.side();
        let before = table.win_chance(&position)?;
        let values = move_values(table, &position, entry.roll)?;
        let best = best_of(table, &position, entry.roll, &values)?;
        let illegal = || AnalysisError::Illegal {
            ply: entry.ply,
            mv: entry.mv.map_or_else(|| "-".to_owned(), |m| m.to_string()),
            roll: entry.roll,
            position: position.to_string(),
        };
        let (next, after) = match entry.mv {
            Some(mv) => {
                let played = values.iter().find(|v| v.mv == mv).ok_or_else(illegal)?;
                (
                    Ur::apply(&variant, &position, entry.roll, mv).0,
                    played.win_chance,
                )
            }
            None => {
                if !values.is_empty() {
                    return Err(illegal());
                }
                let next = position.forfeit(&variant);
                let v = chance_after(table, &next, side)?;
                (next, v)
            }
        };
        let roll_value = best.map_or(after, |b| b.win_chance);
        let lost = (roll_value - after).max(0.0);
        let choice = values.len() > 1;
        let turn = TurnAnalysis {
            ply: entry.ply,
            side,
            roll: entry.roll,
            mv: entry.mv,
            before,
            roll_value,
            luck: roll_value - before,
            best: best.map(|b| b.mv),
            after,
            lost,
            choice,
            grade: choice.then(|| Grade::of(lost)),
            swing: after - before,
        };
        let totals = match side {
            Side::Light => &mut out.light,
            Side::Dark => &mut out.dark,
        };
        totals.turns += 1;
        if let Some(grade) = turn.grade {
            totals.choices += 1;
            totals.grades.count(grade);
        }
        if turn.lost > BEST_AT_MOST {
            totals.mistakes += 1;
        }
        totals.lost += turn.lost;
        totals.luck += turn.luck;
        out.turns.push(turn);
        position = next;
    }
    out.conclude(first, start_chance);
    Ok(out)
}

/// Judges every ply of a game (a game or a replayed record) from the
/// position it started in.
///
/// # Errors
///
/// [`AnalysisError::WrongRules`] when the game is played under other rules
/// than the table's, otherwise as [`analyse_log`].
pub fn analyse_game<T: WinChances + ?Sized>(
    table: &T,
    game: &Game<Ur>,
) -> Result<GameAnalysis, AnalysisError> {
    if game.variant() != table.variant() {
        return Err(AnalysisError::WrongRules {
            game: game.variant().spelled_out(),
            table: table.variant().spelled_out(),
        });
    }
    analyse_log(table, *game.start(), game.log())
}

#[cfg(test)]
mod tests {
    use dice_core::{Dice, Seed, Setup};
    use royal_ur::Variant;

    use super::*;
    use crate::{Solution, SolveOptions, solve};

    #[test]
    fn grades_follow_the_documented_thresholds() {
        let cases = [
            (0.0, Grade::Best),
            (1e-9, Grade::Best),
            (2e-9, Grade::Good),
            (0.0099, Grade::Good),
            (0.01, Grade::Inaccuracy),
            (0.0299, Grade::Inaccuracy),
            (0.03, Grade::Mistake),
            (0.0799, Grade::Mistake),
            (0.08, Grade::Blunder),
            (1.0, Grade::Blunder),
        ];
        for (lost, grade) in cases {
            assert_eq!(Grade::of(lost), grade, "{lost}");
        }
        for grade in Grade::ALL {
            assert_eq!(serde_json::to_value(grade).unwrap(), grade.word());
        }
    }

    fn finkel(pieces: u8) -> (Variant, Solution) {
        let v = Variant::FINKEL.with_pieces(pieces).unwrap();
        let sol = solve(&v, &SolveOptions::default(), |_| {}).unwrap();
        (v, sol)
    }

    /// The mover's chance after each legal move, straight from the table's
    /// values of the positions the moves reach.
    fn values_by_hand(sol: &Solution, v: &Variant, p: &Position, roll: u8) -> Vec<(Move, f64)> {
        let mut moves = MoveList::new();
        Ur::legal(v, p, roll, &mut moves);
        moves
            .iter()
            .map(|&mv| {
                let next = Ur::apply(v, p, roll, mv).0;
                let w = sol.win_chance(&next).unwrap();
                (mv, if next.side() == p.side() { w } else { 1.0 - w })
            })
            .collect()
    }

    /// A game played by hand: light takes the first legal move, dark the
    /// worst by the table, so that every grade has a chance to show.
    fn careless_game(sol: &Solution, v: &Variant, seed: &str) -> Game<Ur> {
        let dice = Dice::Seeded(Seed::new(seed.as_bytes()).unwrap());
        let mut game = Game::<Ur>::new(Setup::new(dice, *v)).unwrap();
        while !game.is_over() {
            let roll = game.roll().unwrap();
            let values = values_by_hand(sol, v, game.position(), roll);
            let mv = match game.side().unwrap() {
                Side::Light => values[0].0,
                Side::Dark => values.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0,
            };
            game.play(mv).unwrap();
        }
        game
    }

    #[test]
    fn a_game_judged_ply_by_ply_matches_the_table_read_by_hand() {
        for pieces in [2, 3] {
            let (v, sol) = finkel(pieces);
            let mut seen = GradeCounts::default();
            for seed in ["grade-a", "grade-b", "grade-c"] {
                let game = careless_game(&sol, &v, seed);
                let report = analyse_game(&sol, &game).unwrap();
                assert_eq!(report.turns.len(), game.log().len());

                let mut position = *game.start();
                let start = sol.win_chance(&position).unwrap();
                let mut counts = [GradeCounts::default(); 2];
                let mut lost = [0.0_f64; 2];
                let mut luck = [0.0_f64; 2];
                let mut choices = [0_u32; 2];
                for (t, entry) in report.turns.iter().zip(game.log()) {
                    let s = t.side.index();
                    let values = values_by_hand(&sol, &v, &position, entry.roll);
                    let before = sol.win_chance(&position).unwrap();
                    let (after, top) = match entry.mv {
                        Some(mv) => {
                            let top = values.iter().map(|x| x.1).fold(f64::MIN, f64::max);
                            let played = values.iter().find(|x| x.0 == mv).unwrap().1;
                            (played, top)
                        }
                        None => {
                            let next = position.forfeit(&v);
                            let w = sol.win_chance(&next).unwrap();
                            let w = if next.side() == position.side() {
                                w
                            } else {
                                1.0 - w
                            };
                            (w, w)
                        }
                    };
                    assert!((t.before - before).abs() < 1e-12, "ply {}", t.ply);
                    assert!((t.after - after).abs() < 1e-12, "ply {}", t.ply);
                    assert!((t.swing - (after - before)).abs() < 1e-12);
                    let gone = top - after;
                    assert!((t.lost - gone).abs() < 1e-12, "ply {}", t.ply);
                    assert_eq!(t.choice, values.len() > 1);
                    let grade = if gone <= 1e-9 {
                        "best"
                    } else if gone < 0.01 {
                        "good"
                    } else if gone < 0.03 {
                        "inaccuracy"
                    } else if gone < 0.08 {
                        "mistake"
                    } else {
                        "blunder"
                    };
                    if values.len() > 1 {
                        assert_eq!(
                            serde_json::to_value(t.grade).unwrap(),
                            serde_json::json!(grade),
                            "ply {} lost {gone}",
                            t.ply
                        );
                        counts[s].count(t.grade.unwrap());
                        seen.count(t.grade.unwrap());
                        choices[s] += 1;
                    } else {
                        assert_eq!(t.grade, None);
                    }
                    lost[s] += gone;
                    luck[s] += top - before;
                    position = match entry.mv {
                        Some(mv) => Ur::apply(&v, &position, entry.roll, mv).0,
                        None => position.forfeit(&v),
                    };
                }

                let winner = game.result().unwrap().winner.unwrap();
                for side in [Side::Light, Side::Dark] {
                    let s = side.index();
                    let o = side.other().index();
                    let totals = report.totals(side);
                    assert_eq!(totals.grades, counts[s]);
                    assert_eq!(totals.choices, choices[s]);
                    let mean = lost[s] / f64::from(choices[s]);
                    assert!((totals.mean_lost.unwrap() - mean).abs() < 1e-12);
                    assert!((totals.accuracy.unwrap() - 100.0 * (1.0 - mean)).abs() < 1e-9);
                    assert!((totals.luck - luck[s]).abs() < 1e-9);
                    let result = if side == winner { 1.0 } else { 0.0 };
                    assert!((totals.result - result).abs() < 1e-9, "{}", totals.result);
                    // Luck taken out leaves the start and the chance each lost.
                    let own_start = if side == game.start().side() {
                        start
                    } else {
                        1.0 - start
                    };
                    let skill = own_start - lost[s] + lost[o];
                    assert!(
                        (totals.luck_adjusted - skill).abs() < 1e-6,
                        "{side}: {} against {skill}",
                        totals.luck_adjusted
                    );
                }

                let mut swings: Vec<(f64, u32)> = report
                    .turns
                    .iter()
                    .map(|t| (t.swing.abs(), t.ply))
                    .collect();
                swings.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                let key: Vec<u32> = swings.iter().take(5).map(|x| x.1).collect();
                assert_eq!(report.key_moments, key);
                assert_eq!(report.key_moments.len(), 5.min(report.turns.len()));
            }
            // Light's first moves and dark's worst give more than one grade.
            assert!(
                seen.best > 0 && seen.blunder > 0,
                "{pieces} pieces: {seen:?}"
            );
        }
    }
}
