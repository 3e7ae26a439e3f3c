//! `race_games.State`: a game as OpenSpiel sees one, a tree with explicit
//! chance nodes. The dice are not thrown: each throw is a chance node whose
//! outcomes are the rolls with their exact chances, and the caller picks
//! one; a roll that allows no move is settled at once (the turn is lost and
//! the next throw is a chance node again).
//!
//! Actions: at a player node the integer actions of the one game layer
//! (`race_games::move_for_action`); at a throw the roll itself; at the
//! opening throw-off of rules that have one, `0` for light moving first and
//! `1` for dark. Player 0 is light, player 1 is dark.

use dice_core::{Faces, MoveList, Opening, Side, Status};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use race_games::{Kind, RaceGame, move_for_action};
use royal_ur::Ur;
use senet::Senet;

use crate::{Raise, kind};

/// OpenSpiel's player id of a chance node.
const CHANCE: i64 = -1;
/// OpenSpiel's player id of a terminal node.
const TERMINAL: i64 = -4;

/// A node of the game tree.
#[derive(Clone, Debug, PartialEq)]
struct Node<G: RaceGame> {
    variant: G::Variant,
    position: G::Position,
    /// The roll in hand; `None` at a throw (or once over).
    roll: Option<u8>,
    /// Whether the sides are yet to throw for who moves first.
    opening: bool,
    /// Plies made: moves and lost turns (the ply cap counts them).
    ply: u32,
    /// The legal moves on the roll in hand.
    legal: MoveList<G::Move>,
}

/// Player 0 is light, any other dark.
fn side_of(player: usize) -> Side {
    Side::from_index(player)
}

impl<G: RaceGame> Node<G> {
    fn new(variant: G::Variant) -> Node<G> {
        let (first, opening) = match G::opening(&variant) {
            Opening::Fixed(side) => (side, false),
            Opening::ThrowOff => (Side::Light, true),
        };
        Node {
            position: G::start(&variant, first),
            variant,
            roll: None,
            opening,
            ply: 0,
            legal: MoveList::new(),
        }
    }

    fn status(&self) -> Status {
        G::status(&self.variant, &self.position).at_ply(self.ply)
    }

    fn is_terminal(&self) -> bool {
        self.status() != Status::Ongoing
    }

    fn is_chance(&self) -> bool {
        !self.is_terminal() && self.roll.is_none()
    }

    fn current_player(&self) -> i64 {
        if self.is_terminal() {
            TERMINAL
        } else if self.roll.is_none() {
            CHANCE
        } else {
            G::side(&self.position).index() as i64
        }
    }

    /// The chance of light winning the throw-off: each pair of throws is
    /// equally likely, and a tie is thrown again.
    fn light_first(&self) -> f64 {
        let dice = G::dice(&self.variant);
        let throws = 1u16 << dice;
        let (mut light, mut dark) = (0u32, 0u32);
        for l in 0..throws {
            for d in 0..throws {
                let (l, d) = (Faces::new(l as u8, dice), Faces::new(d as u8, dice));
                match G::throw_off(&self.variant, l, d) {
                    Some(Side::Light) => light += 1,
                    Some(Side::Dark) => dark += 1,
                    None => {}
                }
            }
        }
        f64::from(light) / f64::from((light + dark).max(1))
    }

    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        if !self.is_chance() {
            return Vec::new();
        }
        if self.opening {
            let light = self.light_first();
            return vec![(0, light), (1, 1.0 - light)];
        }
        G::chances(&self.variant)
            .iter()
            .map(|c| (usize::from(c.roll), c.probability()))
            .collect()
    }

    fn legal_actions(&self) -> Vec<usize> {
        if self.is_chance() {
            return self.chance_outcomes().into_iter().map(|(a, _)| a).collect();
        }
        if self.is_terminal() {
            return Vec::new();
        }
        let mut actions: Vec<usize> = self
            .legal
            .iter()
            .map(|&m| G::action(&self.variant, &self.position, m))
            .collect();
        actions.sort_unstable();
        actions
    }

    /// Plays `action`; on refusal nothing changes and the error says why.
    fn apply(&mut self, action: usize) -> Result<(), (&'static str, String)> {
        if self.is_terminal() {
            return Err(("game_over", "the game is over".to_owned()));
        }
        if self.opening {
            if action > 1 {
                return Err((
                    "bad_action",
                    format!("action {action} is no side: 0 is light first, 1 dark"),
                ));
            }
            self.position = G::start(&self.variant, side_of(action));
            self.opening = false;
            return Ok(());
        }
        let Some(roll) = self.roll else {
            let roll = u8::try_from(action)
                .ok()
                .filter(|&r| G::chances(&self.variant).iter().any(|c| c.roll == r))
                .ok_or_else(|| {
                    (
                        "bad_action",
                        format!("action {action} is no roll of these rules"),
                    )
                })?;
            G::legal(&self.variant, &self.position, roll, &mut self.legal);
            if self.legal.is_empty() {
                let (next, _) = G::forfeit(&self.variant, &self.position, roll);
                self.position = next;
                self.ply += 1;
            } else {
                self.roll = Some(roll);
            }
            return Ok(());
        };
        let mv = move_for_action::<G>(&self.variant, &self.position, &self.legal, action)
            .ok_or_else(|| {
                (
                    "bad_action",
                    format!(
                        "action {action} names no legal move (the legal actions are {:?})",
                        self.legal_actions()
                    ),
                )
            })?;
        let (next, _) = G::apply(&self.variant, &self.position, roll, mv);
        self.position = next;
        self.ply += 1;
        self.roll = None;
        self.legal.clear();
        Ok(())
    }

    fn action_text(&self, action: usize) -> String {
        if self.opening {
            return format!("{} first", side_of(action).as_str());
        }
        match self.roll {
            None => format!("roll {action}"),
            Some(_) => move_for_action::<G>(&self.variant, &self.position, &self.legal, action)
                .map_or_else(|| format!("action {action}"), |m| m.to_string()),
        }
    }

    fn returns(&self) -> [f64; 2] {
        match self.status() {
            Status::Won(side) => {
                let mut r = [-1.0; 2];
                if let Some(x) = r.get_mut(side.index()) {
                    *x = 1.0;
                }
                r
            }
            Status::Ongoing | Status::Drawn => [0.0; 2],
        }
    }

    /// The observation of the position seen from `player`'s side (the
    /// side to move or throw when `None`).
    fn observe(&self, player: Option<usize>) -> Vec<f32> {
        let mut out = vec![0.0; G::observation_len(&self.variant)];
        let seen = player.map_or(self.position, |p| G::with_side(&self.position, side_of(p)));
        G::observe(&self.variant, &seen, self.roll, &mut out);
        out
    }

    fn text(&self) -> String {
        let roll = self.roll.map_or_else(|| "-".to_owned(), |r| r.to_string());
        format!("{} roll {roll} ply {}", self.position, self.ply)
    }

    /// The node from what `state_of` gave.
    fn restore(py: Python<'_>, state: &Saved) -> PyResult<Node<G>> {
        let (_, rules, position, roll, opening, ply) = state;
        let bad = |why: String| Raise::new("SetupError", "state", why).err(py);
        let variant = crate::rules::<G>(py, Some(rules))?;
        let position = G::read_position(position, &variant).map_err(|e| bad(e.to_string()))?;
        let mut node = Node::new(variant);
        node.position = position;
        node.opening = *opening;
        node.ply = *ply;
        if let Some(roll) = *roll {
            G::legal(&node.variant, &node.position, roll, &mut node.legal);
            if node.legal.is_empty() {
                return Err(bad(format!("roll {roll} allows no move here")));
            }
            node.roll = Some(roll);
        }
        Ok(node)
    }

    fn saved(&self) -> Saved {
        (
            G::KIND.as_str().to_owned(),
            self.variant.to_string(),
            self.position.to_string(),
            self.roll,
            self.opening,
            self.ply,
        )
    }
}

/// A node of either game.
#[derive(Clone, Debug, PartialEq)]
enum Nodes {
    Ur(Node<Ur>),
    Senet(Node<Senet>),
}

/// What a pickled node is rebuilt from: game, rules, position text, roll,
/// whether the throw-off is to come, plies.
type Saved = (String, String, String, Option<u8>, bool, u32);

/// Runs `$body` with `$n` the node of either game.
macro_rules! on {
    ($value:expr, $n:ident => $body:expr) => {
        match $value {
            Nodes::Ur($n) => $body,
            Nodes::Senet($n) => $body,
        }
    };
}

/// A game as a tree with explicit chance nodes, as OpenSpiel plays one.
#[pyclass(module = "race_games._native", name = "State", eq)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PyState {
    node: Nodes,
}

#[pymethods]
impl PyState {
    /// The start of a game of `game` under `rules`: a chance node (the
    /// first throw, or the throw-off for who moves first).
    #[new]
    #[pyo3(signature = (game = "ur", rules = None))]
    fn new(py: Python<'_>, game: &str, rules: Option<&str>) -> PyResult<PyState> {
        let node = match kind(py, game)? {
            Kind::Ur => Nodes::Ur(Node::new(crate::rules::<Ur>(py, rules)?)),
            Kind::Senet => Nodes::Senet(Node::new(crate::rules::<Senet>(py, rules)?)),
        };
        Ok(PyState { node })
    }

    /// The game's name (`royal-ur`, `senet`).
    #[getter]
    fn game(&self) -> &'static str {
        match self.node {
            Nodes::Ur(_) => Kind::Ur.as_str(),
            Nodes::Senet(_) => Kind::Senet.as_str(),
        }
    }

    /// The rules as the record writes them.
    #[getter]
    fn rules(&self) -> String {
        on!(&self.node, n => n.variant.to_string())
    }

    /// The position text.
    #[getter]
    fn position(&self) -> String {
        on!(&self.node, n => n.position.to_string())
    }

    /// The roll in hand; `None` at a chance node or once over.
    #[getter]
    fn roll(&self) -> Option<u8> {
        on!(&self.node, n => n.roll)
    }

    /// Plies made (moves and lost turns).
    #[getter]
    fn ply(&self) -> u32 {
        on!(&self.node, n => n.ply)
    }

    /// How many integer actions a player has (`num_distinct_actions`).
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        on!(&self.node, n => action_count(n))
    }

    /// One more than the highest chance action (`max_chance_outcomes`).
    #[getter]
    fn max_chance_outcomes(&self) -> usize {
        on!(&self.node, n => chance_count(n))
    }

    /// How many numbers an observation has.
    #[getter]
    fn observation_len(&self) -> usize {
        on!(&self.node, n => observation_len(n))
    }

    /// Whether the dice (or the throw-off) decide next.
    fn is_chance_node(&self) -> bool {
        on!(&self.node, n => n.is_chance())
    }

    /// Whether the game is over (won, or drawn at the ply cap).
    fn is_terminal(&self) -> bool {
        on!(&self.node, n => n.is_terminal())
    }

    /// 0 (light) or 1 (dark) to move, -1 at a chance node, -4 once over.
    fn current_player(&self) -> i64 {
        on!(&self.node, n => n.current_player())
    }

    /// At a chance node, each outcome's action with its exact chance.
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        on!(&self.node, n => n.chance_outcomes())
    }

    /// The actions allowed here, ascending (the chance outcomes at a
    /// chance node).
    fn legal_actions(&self) -> Vec<usize> {
        on!(&self.node, n => n.legal_actions())
    }

    /// Takes an action; a refused one raises `RefusedError` and changes
    /// nothing.
    fn apply_action(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
        on!(&mut self.node, n => n.apply(action))
            .map_err(|(code, why)| Raise::new("RefusedError", code, why).err(py))
    }

    /// What an action does here, in words (a move's text, `roll 3`).
    fn action_to_string(&self, action: usize) -> String {
        on!(&self.node, n => n.action_text(action))
    }

    /// Each player's return: +1 for the winner and -1 for the loser once
    /// won, 0 otherwise.
    fn returns(&self) -> [f64; 2] {
        on!(&self.node, n => n.returns())
    }

    /// The observation of the position and roll seen from `player`'s side
    /// (when `None`, the side to move or to throw).
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        if let Some(p) = player.filter(|&p| p > 1) {
            return Err(Raise::new(
                "RaceError",
                "player",
                format!("player {p} is no player: 0 is light, 1 dark"),
            )
            .err(py));
        }
        Ok(PyArray1::from_vec(
            py,
            on!(&self.node, n => n.observe(player)),
        ))
    }

    /// A copy that plays on alone.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = py.import("race_games._native")?.getattr("_restore_state")?;
        let saved = on!(&self.node, n => n.saved());
        PyTuple::new(
            py,
            [
                restore,
                PyTuple::new(py, [saved.into_pyobject(py)?])?.into_any(),
            ],
        )
    }

    fn __str__(&self) -> String {
        on!(&self.node, n => n.text())
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, {:?})", self.game(), self.__str__())
    }
}

fn action_count<G: RaceGame>(n: &Node<G>) -> usize {
    G::action_count(&n.variant)
}

fn chance_count<G: RaceGame>(n: &Node<G>) -> usize {
    usize::from(G::max_roll(&n.variant)).max(1) + 1
}

fn observation_len<G: RaceGame>(n: &Node<G>) -> usize {
    G::observation_len(&n.variant)
}

/// A pickled `State` rebuilt.
#[pyfunction]
fn _restore_state(py: Python<'_>, state: Saved) -> PyResult<PyState> {
    let node = match kind(py, &state.0)? {
        Kind::Ur => Nodes::Ur(Node::restore(py, &state)?),
        Kind::Senet => Nodes::Senet(Node::restore(py, &state)?),
    };
    Ok(PyState { node })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    Ok(())
}
