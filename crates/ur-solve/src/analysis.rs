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
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideTotals {
    /// Throws the side made.
    pub turns: u32,
    /// Throws that allowed a choice of more than one move.
    pub choices: u32,
    /// Moves that were not the best (lost more than 1e-9).
    pub mistakes: u32,
    /// The chance lost by its moves, summed.
    pub lost: f64,
    /// The luck of its throws, summed.
    pub luck: f64,
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
    };
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
            lost: (roll_value - after).max(0.0),
        };
        let totals = match side {
            Side::Light => &mut out.light,
            Side::Dark => &mut out.dark,
        };
        totals.turns += 1;
        if values.len() > 1 {
            totals.choices += 1;
        }
        if turn.lost > 1e-9 {
            totals.mistakes += 1;
        }
        totals.lost += turn.lost;
        totals.luck += turn.luck;
        out.turns.push(turn);
        position = next;
    }
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
