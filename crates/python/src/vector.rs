//! `race_games.Batch`: many games of one rule set stepped together in
//! Rust, one integer action each per call, with numpy arrays in and out
//! and Python's lock released while the games move.
//!
//! Slot `i`'s `k`-th game (counting from 0) is the seeded game of seed
//! text `"{seed}:{i}:{k}"`: `Game(game, rules, seed=f"{seed}:{i}:{k}")`
//! played with the same actions is the same game, throw for throw. A game
//! that ends is started again on the next call (Gymnasium's `NEXT_STEP`
//! autoreset): that call ignores the slot's action, returns the new game's
//! first observation with reward 0 and counts it as the slot's next game.

use dice_core::{Game, Lean, MOVES_MAX, Seed, Side};
use numpy::{PyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use race_games::{Kind, RaceGame, move_for_action};
use royal_ur::{CELLS, Ur};
use senet::Senet;

use crate::game::{PyGame, Wrap};
use crate::{Raise, kind};

/// One slot: its game (lean: no log, no undo), the actions played in it
/// (so that [`PyBatch::game_at`] can replay it as a full game) and which
/// game of the slot it is. A slot whose game is over starts its next game
/// on the next call.
#[derive(Clone, Debug)]
struct Slot<G: RaceGame> {
    game: Lean<G>,
    played: Played,
    episode: u64,
}

/// How many of a slot's latest actions it holds in place.
const RECENT: usize = 22;

/// The actions played in a slot's game, oldest first: the latest few in
/// the slot itself, the rest moved out `RECENT` at a time, so that a step
/// writes into the slot it is reading rather than into memory of its own.
#[derive(Clone, Debug, Default)]
struct Played {
    older: Vec<u8>,
    recent: [u8; RECENT],
    len: u8,
}

impl Played {
    fn push(&mut self, action: u8) {
        if usize::from(self.len) == RECENT {
            self.older.extend_from_slice(&self.recent);
            self.len = 0;
        }
        if let Some(x) = self.recent.get_mut(usize::from(self.len)) {
            *x = action;
            self.len += 1;
        }
    }

    fn clear(&mut self) {
        self.older.clear();
        self.len = 0;
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let recent = self.recent.iter().take(usize::from(self.len));
        self.older.iter().chain(recent).map(|&a| usize::from(a))
    }
}

/// The most actions a batch's rules may have: each slot's legal actions
/// are kept as the bits of a `u64`.
const ACTIONS_MAX: usize = 64;

/// The games of a batch.
#[derive(Clone, Debug)]
struct Games<G: Observe> {
    variant: G::Variant,
    seed: String,
    slots: Vec<Slot<G>>,
    /// Slot `i`'s legal actions as the last call left them, bit `a` for
    /// action `a` (none once its game is over): what a call checks its
    /// actions against before any game moves, without reading the games.
    legal: Vec<u64>,
    /// Slot `i`'s moves by action: nibble `r` is the place in the game's
    /// list of legal moves of the move of its `r`-th legal action (from
    /// the lowest), so that a step finds an action's move without
    /// working out the action of each legal move again.
    order: Vec<u64>,
    /// What [`Observe::observe_row`] reads under the batch's rules.
    table: G::Table,
}

/// How a batch writes a game's observation: exactly the numbers
/// [`RaceGame::observe`] writes, from a table of the rules made once and
/// the position's bits, one test of a bit a number (the game layer reads
/// each square or house in turn).
pub(crate) trait Observe: RaceGame {
    /// What the rules fix about the observation.
    type Table: Clone + std::fmt::Debug + Send;

    /// The table of these rules.
    fn table(variant: &Self::Variant) -> Self::Table;

    /// Writes the observation of `position` with `roll` in hand into
    /// `out`, a row of [`RaceGame::observation_len`] numbers.
    fn observe_row(
        table: &Self::Table,
        variant: &Self::Variant,
        position: &Self::Position,
        roll: Option<u8>,
        out: &mut [f32],
    );
}

/// The divisors of Senet's counts and roll.
#[derive(Clone, Debug)]
pub(crate) struct SenetTable {
    pieces: f32,
    top: f32,
}

/// Senet's observation written straight from each side's houses as bits
/// (bit `h - 1` for house `h`, cell `h - 1` of a plane).
impl Observe for Senet {
    type Table = SenetTable;

    fn table(variant: &senet::Variant) -> SenetTable {
        SenetTable {
            pieces: f32::from(variant.piece_count().max(1)),
            top: f32::from(<Senet as dice_core::Notation>::max_roll(variant)),
        }
    }

    fn observe_row(
        table: &SenetTable,
        variant: &senet::Variant,
        position: &senet::Position,
        roll: Option<u8>,
        out: &mut [f32],
    ) {
        let me = position.side();
        let masks = [position.bits(me), position.bits(me.other())];
        let numbers = [
            f32::from(position.home(me, variant)) / table.pieces,
            f32::from(position.home(me.other(), variant)) / table.pieces,
            f32::from(roll.unwrap_or(0)) / table.top,
            f32::from(u8::from(me == Side::Light)),
        ];
        // Thirty houses, each its bit in `BITS`.
        let houses = BITS.get(..usize::from(senet::HOUSES)).unwrap_or_default();
        write_row(out, houses, masks, numbers);
    }
}

/// What the Royal Game of Ur's observation needs of its rules: the bit of
/// each observation cell's square in a position's masks, in cell order,
/// and the divisors of the counts and the roll.
#[derive(Clone, Debug)]
pub(crate) struct UrTable {
    cells: [u32; CELLS],
    pieces: f32,
    top: f32,
}

/// The Royal Game of Ur's observation written straight from the
/// position's masks: each cell's number is a test of its square's bit,
/// which compiles to a few vector instructions for four cells at once.
impl Observe for Ur {
    type Table = UrTable;

    fn table(variant: &royal_ur::Variant) -> UrTable {
        UrTable {
            cells: variant.board().squares().map(|sq| 1 << sq.cell()),
            pieces: f32::from(variant.pieces().max(1)),
            top: f32::from(variant.max_roll().max(1)),
        }
    }

    fn observe_row(
        table: &UrTable,
        variant: &royal_ur::Variant,
        position: &royal_ur::Position,
        roll: Option<u8>,
        out: &mut [f32],
    ) {
        let me = position.side();
        let (mine, theirs) = (position.board_mask(me), position.board_mask(me.other()));
        let masks = [mine, theirs, position.second_visit_mask() & (mine | theirs)];
        let count = |n: u8| f32::from(n) / table.pieces;
        let other = me.other();
        let numbers = [
            count(position.hand(me)),
            count(position.home(me, variant)),
            count(position.hand(other)),
            count(position.home(other, variant)),
            f32::from(roll.unwrap_or(0)) / table.top,
            f32::from(u8::from(me == Side::Light)),
        ];
        write_row(out, &table.cells, masks, numbers);
    }
}

/// Writes an observation row: for each of `masks` a plane of one number a
/// cell, 1 where the mask has the cell's bit (`cells` in cell order), then
/// `numbers`.
fn write_row<const P: usize, const K: usize>(
    out: &mut [f32],
    cells: &[u32],
    masks: [u32; P],
    numbers: [f32; K],
) {
    let (planes, rest) = out.split_at_mut(out.len().min(P * cells.len()));
    for (plane, mask) in planes.chunks_exact_mut(cells.len().max(1)).zip(masks) {
        for (x, &bit) in plane.iter_mut().zip(cells) {
            *x = if mask & bit == 0 { 0.0 } else { 1.0 };
        }
    }
    for (x, value) in rest.iter_mut().zip(numbers) {
        *x = value;
    }
}

/// Why a batch could not be made or stepped.
type Failure = (&'static str, String);

/// The arrays one call fills, row `i` for slot `i`: the batch's buffers,
/// every number of them written by each call (of `legal`, the lists'
/// numbers).
struct Out<'a> {
    observations: &'a mut [f32],
    masks: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    sides: &'a mut [i8],
    /// Every slot's legal actions, ascending, one list after another.
    legal: &'a mut [i64],
    /// Where slot `i`'s list starts in `legal`.
    starts: &'a mut [i64],
    /// How long slot `i`'s list is (0 once its game is over).
    counts: &'a mut [i64],
}

/// The most legal actions a slot lists: one a legal move.
const LISTED_MAX: usize = MOVES_MAX;

/// Bit `a` of each `a` below 32: a mask written from a slot's bits by a
/// test of each, not a shift by each.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time; `a` runs below 32, the array's length"
)]
static BITS: [u32; 32] = {
    let mut bits = [0; 32];
    let mut a = 0;
    while a < 32 {
        bits[a] = 1 << a;
        a += 1;
    }
    bits
};

fn seed_of(seed: &str, slot: usize, episode: u64) -> Result<Seed, Failure> {
    Seed::new(format!("{seed}:{slot}:{episode}")).map_err(|e| ("seed", e.to_string()))
}

fn game_of<G: RaceGame>(
    variant: &G::Variant,
    seed: &str,
    slot: usize,
    episode: u64,
) -> Result<Lean<G>, Failure> {
    Lean::seeded(seed_of(seed, slot, episode)?, variant.clone())
        .map_err(|e| (e.code(), e.to_string()))
}

fn side_code(side: Option<Side>) -> i8 {
    side.map_or(-1, |s| s.index() as i8)
}

/// One slot's row of the arrays a call fills.
struct Row<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    side: &'a mut i8,
    /// The rest of the flat list of legal actions, this slot's first.
    legal: &'a mut [i64],
    start: &'a mut i64,
    count: &'a mut i64,
}

/// Writes `game`'s observation, action mask, side and list of legal
/// actions into its row (the list at `at`, the next slot's list after
/// it), and gives its legal actions as bits with their moves' places in
/// the game's list (see [`Games::order`]).
fn observe_one<G: Observe>(
    table: &G::Table,
    variant: &G::Variant,
    game: &Lean<G>,
    row: Row<'_>,
    at: &mut usize,
) -> (u64, u64) {
    let position = game.position();
    G::observe_row(table, variant, position, game.roll(), row.obs);
    *row.side = side_code(game.side());
    // Each action's move's place in the game's list of legal moves.
    let mut place_of = [0u8; ACTIONS_MAX];
    let mut bits = 0u64;
    for (place, &mv) in game.legal().iter().enumerate() {
        // Below the batch's action count, at most 64 (checked when made).
        let action = G::action(variant, position, mv);
        if let Some(p) = place_of.get_mut(action) {
            *p = place as u8;
        }
        bits |= 1 << action;
    }
    // Thirty-two actions at a time: a test of a 32-bit number's bit is
    // one vector instruction for four actions, of a 64-bit one several.
    let halves = [bits as u32, (bits >> 32) as u32];
    for (chunk, half) in row.mask.chunks_mut(32).zip(halves) {
        for (m, &bit) in chunk.iter_mut().zip(&BITS) {
            *m = half & bit != 0;
        }
    }
    // The legal actions from the lowest, the `r`-th's place at nibble `r`.
    *row.start = *at as i64;
    let (mut rest, mut order, mut rank) = (bits, 0u64, 0);
    for x in row.legal.iter_mut() {
        if rest == 0 {
            break;
        }
        let action = rest.trailing_zeros();
        *x = i64::from(action);
        let place = place_of.get(action as usize).copied().unwrap_or_default();
        order |= u64::from(place) << (4 * rank);
        rest &= rest - 1;
        rank += 1;
    }
    *row.count = rank;
    *at += rank as usize;
    (bits, order)
}

impl<G: Observe> Games<G> {
    fn new(variant: G::Variant, n: usize, seed: String) -> Result<Games<G>, Failure> {
        let actions = G::action_count(&variant);
        if actions > ACTIONS_MAX {
            return Err((
                "rules",
                format!("a batch plays rules of at most {ACTIONS_MAX} actions, not {actions}"),
            ));
        }
        let slots = (0..n)
            .map(|i| {
                Ok(Slot {
                    game: game_of(&variant, &seed, i, 0)?,
                    played: Played::default(),
                    episode: 0,
                })
            })
            .collect::<Result<_, Failure>>()?;
        Ok(Games {
            table: G::table(&variant),
            variant,
            seed,
            slots,
            legal: vec![0; n],
            order: vec![0; n],
        })
    }

    fn obs_len(&self) -> usize {
        G::observation_len(&self.variant)
    }

    fn action_count(&self) -> usize {
        G::action_count(&self.variant)
    }

    /// How long the flat list of legal actions may grow: a list a slot,
    /// each at most a legal move an action.
    fn listed_len(&self) -> usize {
        self.slots.len() * LISTED_MAX.min(self.action_count())
    }

    /// Writes every slot's observation, mask, side and legal actions into
    /// `out`, and zero rewards and terminations.
    fn observe(&mut self, out: &mut Out<'_>) {
        out.rewards.fill(0.0);
        out.terminated.fill(false);
        let (obs_len, actions) = (self.obs_len(), self.action_count());
        let rows = out
            .observations
            .chunks_exact_mut(obs_len.max(1))
            .zip(out.masks.chunks_exact_mut(actions.max(1)))
            .zip(out.sides.iter_mut())
            .zip(out.starts.iter_mut().zip(out.counts.iter_mut()));
        let mut at = 0;
        for (((slot, legal), order), (((obs, mask), side), (start, count))) in self
            .slots
            .iter()
            .zip(&mut self.legal)
            .zip(&mut self.order)
            .zip(rows)
        {
            let row = Row {
                obs,
                mask,
                side,
                legal: out.legal.get_mut(at..).unwrap_or_default(),
                start,
                count,
            };
            (*legal, *order) = observe_one(&self.table, &self.variant, &slot.game, row, &mut at);
        }
    }

    /// Checks that each slot's action names a legal move (any action for
    /// a slot whose game is over), so that a refused call changes nothing.
    fn check(&self, actions: &[i64]) -> Result<(), Failure> {
        if actions.len() != self.slots.len() {
            return Err((
                "actions",
                format!("{} actions for {} games", actions.len(), self.slots.len()),
            ));
        }
        for (i, (&legal, &action)) in self.legal.iter().zip(actions).enumerate() {
            let allowed = u32::try_from(action)
                .ok()
                .and_then(|a| legal.checked_shr(a))
                .is_some_and(|bits| bits & 1 == 1);
            if legal != 0 && !allowed {
                return Err((
                    "bad_action",
                    format!("game {i}: action {action} names no legal move"),
                ));
            }
        }
        Ok(())
    }

    /// Plays each slot's action (or starts its next game) and writes its
    /// row of `out`, one pass over the slots once every action is checked.
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Failure> {
        self.check(actions)?;
        let (obs_len, count) = (self.obs_len(), self.action_count());
        let rows = out
            .observations
            .chunks_exact_mut(obs_len.max(1))
            .zip(out.masks.chunks_exact_mut(count.max(1)))
            .zip(out.sides.iter_mut())
            .zip(out.rewards.iter_mut().zip(out.terminated.iter_mut()))
            .zip(out.starts.iter_mut().zip(out.counts.iter_mut()));
        let (variant, table) = (&self.variant, &self.table);
        let mut at = 0;
        for (i, ((((slot, legal), order), &action), row)) in self
            .slots
            .iter_mut()
            .zip(&mut self.legal)
            .zip(&mut self.order)
            .zip(actions)
            .zip(rows)
            .enumerate()
        {
            let ((((obs, mask), side), (reward, terminated)), (start, count)) = row;
            *reward = 0.0;
            *terminated = false;
            let g = &mut slot.game;
            if *legal == 0 {
                slot.episode += 1;
                *g = game_of(variant, &self.seed, i, slot.episode)?;
                slot.played.clear();
            } else {
                let mover = g.side();
                // The check found the action among the legal ones: its
                // rank among them names its move's place in the list.
                let mut below = *legal & ((1u64 << action) - 1);
                let mut rank = 0;
                while below != 0 {
                    below &= below - 1;
                    rank += 1;
                }
                let place = (*order >> (4 * rank)) & 0xf;
                if let Some(&mv) = g.legal().get(place as usize) {
                    g.play(mv);
                    slot.played.push(action as u8);
                }
                let status = g.status();
                if status.ending().is_some() {
                    *terminated = true;
                    *reward = match status.winner() {
                        None => 0.0,
                        Some(w) if Some(w) == mover => 1.0,
                        Some(_) => -1.0,
                    };
                }
            }
            let row = Row {
                obs,
                mask,
                side,
                legal: out.legal.get_mut(at..).unwrap_or_default(),
                start,
                count,
            };
            (*legal, *order) = observe_one(table, variant, g, row, &mut at);
        }
        Ok(())
    }

    /// Slot `i`'s game as a full game: its seed's game with its actions
    /// played again; `None` when there is no slot `i`.
    fn replayed(&self, i: usize) -> Option<Result<Game<G>, Failure>> {
        let slot = self.slots.get(i)?;
        let full = || -> Result<Game<G>, Failure> {
            let seed = seed_of(&self.seed, i, slot.episode)?;
            let mut game =
                Game::seeded(seed, self.variant.clone()).map_err(|e| (e.code(), e.to_string()))?;
            for action in slot.played.iter() {
                let mv = move_for_action::<G>(&self.variant, game.position(), game.legal(), action)
                    .ok_or((
                        "internal",
                        format!("slot {i}: action {action} names no move on replay"),
                    ))?;
                game.play(mv).map_err(|e| (e.code(), e.message()))?;
            }
            Ok(game)
        };
        Some(full())
    }

    fn reset(&mut self, seed: String) -> Result<(), Failure> {
        *self = Games::new(self.variant.clone(), self.slots.len(), seed)?;
        Ok(())
    }
}

/// A batch of either game.
#[derive(Clone, Debug)]
enum Batches {
    Ur(Games<Ur>),
    Senet(Games<Senet>),
}

/// Runs `$body` with `$b` the games of either kind and `$G` their type.
macro_rules! on {
    ($value:expr, $b:ident => $body:expr) => {
        match $value {
            Batches::Ur($b) => $body,
            Batches::Senet($b) => $body,
        }
    };
}

/// Many games of one rule set, stepped together, and the arrays their
/// calls fill: each call writes them in place and returns views of them,
/// so that a step allocates nothing for its answers.
#[pyclass(module = "race_games._native", name = "Batch", subclass)]
pub(crate) struct PyBatch {
    games: Batches,
    buffers: Buffers,
}

type Arrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// The batch's own arrays, never handed out themselves (only views of
/// them), so that nothing but the batch reshapes or locks them.
struct Buffers {
    observations: Py<PyArray2<f32>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    sides: Py<PyArray1<i8>>,
    legal: Py<PyArray1<i64>>,
    starts: Py<PyArray1<i64>>,
    counts: Py<PyArray1<i64>>,
}

fn failed(py: Python<'_>, (code, why): Failure) -> PyErr {
    let class = if code == "bad_action" || code == "actions" {
        "RefusedError"
    } else {
        "SetupError"
    };
    Raise::new(class, code, why).err(py)
}

fn internal(py: Python<'_>, why: impl ToString) -> PyErr {
    Raise::new("RaceError", "internal", why.to_string()).err(py)
}

/// A new view of `array`: the same numbers, its own shape and flags.
fn view<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    py: Python<'py>,
    array: &Py<PyArray<T, D>>,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    Ok(array.bind(py).call_method0("view")?.cast_into()?)
}

impl Buffers {
    fn new(py: Python<'_>, n: usize, obs: usize, actions: usize, listed: usize) -> Buffers {
        Buffers {
            legal: PyArray1::zeros(py, listed, false).unbind(),
            starts: PyArray1::zeros(py, n, false).unbind(),
            counts: PyArray1::zeros(py, n, false).unbind(),
            observations: PyArray2::zeros(py, [n, obs], false).unbind(),
            masks: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            sides: PyArray1::zeros(py, n, false).unbind(),
        }
    }

    /// Runs `write` on the arrays with Python's lock released.
    fn fill<R: Send>(
        &self,
        py: Python<'_>,
        write: impl FnOnce(&mut Out<'_>) -> R + Send,
    ) -> PyResult<R> {
        let mut observations = self
            .observations
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut masks = self
            .masks
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut rewards = self
            .rewards
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut terminated = self
            .terminated
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut sides = self
            .sides
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut legal = self
            .legal
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut starts = self
            .starts
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut counts = self
            .counts
            .bind(py)
            .try_readwrite()
            .map_err(|e| internal(py, e))?;
        let mut out = Out {
            observations: observations.as_slice_mut().map_err(|e| internal(py, e))?,
            masks: masks.as_slice_mut().map_err(|e| internal(py, e))?,
            rewards: rewards.as_slice_mut().map_err(|e| internal(py, e))?,
            terminated: terminated.as_slice_mut().map_err(|e| internal(py, e))?,
            sides: sides.as_slice_mut().map_err(|e| internal(py, e))?,
            legal: legal.as_slice_mut().map_err(|e| internal(py, e))?,
            starts: starts.as_slice_mut().map_err(|e| internal(py, e))?,
            counts: counts.as_slice_mut().map_err(|e| internal(py, e))?,
        };
        Ok(py.detach(|| write(&mut out)))
    }

    fn views<'py>(&self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        Ok((
            view(py, &self.observations)?,
            view(py, &self.masks)?,
            view(py, &self.rewards)?,
            view(py, &self.terminated)?,
            view(py, &self.sides)?,
        ))
    }
}

/// A seed as text: text as it is, a number in decimal.
#[derive(FromPyObject)]
enum SeedArg {
    Text(String),
    Number(u64),
}

impl SeedArg {
    fn text(self) -> String {
        match self {
            SeedArg::Text(t) => t,
            SeedArg::Number(n) => n.to_string(),
        }
    }
}

#[pymethods]
impl PyBatch {
    /// `n` games of `game` under `rules`; slot `i`'s `k`-th game is the
    /// game of seed text `f"{seed}:{i}:{k}"` (`seed` 0 when not given).
    #[new]
    #[pyo3(signature = (game, n, rules = None, seed = None))]
    fn new(
        py: Python<'_>,
        game: &str,
        n: usize,
        rules: Option<&str>,
        seed: Option<SeedArg>,
    ) -> PyResult<PyBatch> {
        const MAX: usize = 1 << 20;
        if n == 0 || n > MAX {
            return Err(Raise::new(
                "SetupError",
                "count",
                format!("a batch holds 1 to {MAX} games, not {n}"),
            )
            .err(py));
        }
        let seed = seed.map_or_else(|| "0".to_owned(), SeedArg::text);
        let games = match kind(py, game)? {
            Kind::Ur => Games::new(crate::rules::<Ur>(py, rules)?, n, seed).map(Batches::Ur),
            Kind::Senet => {
                Games::new(crate::rules::<Senet>(py, rules)?, n, seed).map(Batches::Senet)
            }
        }
        .map_err(|f| failed(py, f))?;
        let buffers =
            on!(&games, b => Buffers::new(py, n, b.obs_len(), b.action_count(), b.listed_len()));
        let mut batch = PyBatch { games, buffers };
        batch.observe(py)?;
        Ok(batch)
    }

    /// How many games it steps.
    fn __len__(&self) -> usize {
        on!(&self.games, b => b.slots.len())
    }

    /// The game's name (`royal-ur`, `senet`).
    #[getter]
    fn game(&self) -> &'static str {
        match self.games {
            Batches::Ur(_) => Kind::Ur.as_str(),
            Batches::Senet(_) => Kind::Senet.as_str(),
        }
    }

    /// The rules as the record writes them.
    #[getter]
    fn rules(&self) -> String {
        on!(&self.games, b => b.variant.to_string())
    }

    /// The seed text slot seeds are made from.
    #[getter]
    fn seed(&self) -> String {
        on!(&self.games, b => b.seed.clone())
    }

    /// How many numbers an observation has.
    #[getter]
    fn observation_len(&self) -> usize {
        on!(&self.games, b => b.obs_len())
    }

    /// How many integer actions there are.
    #[getter]
    fn action_count(&self) -> usize {
        on!(&self.games, b => b.action_count())
    }

    /// Which game of its slot each slot plays (0 for the first).
    fn episodes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let e = on!(&self.games, b => b.slots.iter().map(|s| s.episode).collect());
        PyArray1::from_vec(py, e)
    }

    /// A copy of slot `i`'s game, as a `Game`.
    fn game_at(&self, py: Python<'_>, i: usize) -> PyResult<PyGame> {
        let game =
            on!(&self.games, b => b.replayed(i).map(|g| g.map(Wrap::wrap))).ok_or_else(|| {
                Raise::new(
                    "RaceError",
                    "index",
                    format!("no game {i} in a batch of {}", self.len()),
                )
                .err(py)
            })?;
        Ok(PyGame {
            game: game.map_err(|f| failed(py, f))?,
        })
    }

    /// Starts every slot's first game again, from `seed` when given;
    /// returns (observations, action masks, sides to move).
    #[pyo3(signature = (seed = None))]
    #[allow(clippy::type_complexity, reason = "the three arrays a reset gives")]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<SeedArg>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray1<i8>>,
    )> {
        let seed = seed.map_or_else(|| self.seed(), SeedArg::text);
        on!(&mut self.games, b => b.reset(seed)).map_err(|f| failed(py, f))?;
        let (obs, mask, _, _, side) = self.observe(py)?;
        Ok((obs, mask, side))
    }

    /// (observations, action masks, rewards, terminated, sides to move) as
    /// they stand, rewards and terminations zero; views of the batch's
    /// arrays, as `step` gives.
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        let games = &mut self.games;
        self.buffers
            .fill(py, |out| on!(games, b => b.observe(out)))?;
        self.buffers.views(py)
    }

    /// Every game's legal actions as the last call left them, in one flat
    /// list: `(actions, starts, counts)`, int64 arrays, game `i`'s legal
    /// actions being `actions[starts[i]:starts[i] + counts[i]]`, ascending
    /// (`counts[i]` 0 once its game is over). `actions` is as long as the
    /// lists can grow, and the numbers after the last list mean nothing.
    /// So `actions[starts + floor(u * counts)]`, `u` uniform in [0, 1),
    /// is a uniformly random legal action in every game, one number
    /// drawn a game.
    ///
    /// Views of the batch's own arrays, written over in place by the next
    /// `step`, `reset` or `observe`, as `step`'s are.
    #[allow(clippy::type_complexity, reason = "the three arrays of the lists")]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
    )> {
        let b = &self.buffers;
        Ok((
            view(py, &b.legal)?,
            view(py, &b.starts)?,
            view(py, &b.counts)?,
        ))
    }

    /// Plays one action in each game (ignored in a game that ended on the
    /// last call: it starts the slot's next game). Returns observations
    /// `(n, observation_len)` float32, action masks `(n, action_count)`
    /// bool, rewards `(n,)` float32 (+1 to the side that won with the move,
    /// 0 for a draw or a game on), terminated `(n,)` bool and the side to
    /// move `(n,)` int8 (0 light, 1 dark, -1 over). An action that names no
    /// legal move raises `RefusedError`, no game moves and the arrays keep
    /// their numbers.
    ///
    /// The arrays are views of the batch's own, which the next `step`,
    /// `reset` or `observe` writes over in place: copy what is kept.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Arrays<'py>> {
        let owned;
        let actions = match actions.as_slice() {
            Ok(contiguous) => contiguous,
            Err(_) => {
                owned = actions.as_array().to_vec();
                &owned[..]
            }
        };
        let games = &mut self.games;
        self.buffers
            .fill(py, |out| on!(games, b => b.step(actions, out)))?
            .map_err(|f| failed(py, f))?;
        self.buffers.views(py)
    }
}

impl PyBatch {
    fn len(&self) -> usize {
        self.__len__()
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBatch>()
}
