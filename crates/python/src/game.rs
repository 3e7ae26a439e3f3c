//! `race_games.Game` and `race_games.Move`: a game of either kind, played
//! by move text, move object or integer action, with its log, record,
//! replay, undo, resignation, copies and pickling.

use dice_core::{Dice, Faces, Game, PlayError, Rules, ScriptRoll, Setup, Side};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use race_games::{
    AnyGame, AnyVariant, EntryView, GameView, Kind, RaceGame, ResultView, action_mask,
    move_for_action,
};
use royal_ur::Ur;
use senet::Senet;

use crate::{Raise, dataclass, kind, to_py};

/// What [`PyGame::turn`] gives: the side to move, its observation and
/// its action mask.
type Turn<'py> = (
    Option<&'static str>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<i8>>,
);

/// A game of either kind.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Played {
    Ur(Game<Ur>),
    Senet(Game<Senet>),
}

/// Runs `$body` with `$g` the game and `$G` its game type.
macro_rules! each {
    ($value:expr, $g:ident, $G:ident => $body:expr) => {
        match $value {
            Played::Ur($g) => {
                #[allow(dead_code)]
                type $G = royal_ur::Ur;
                $body
            }
            Played::Senet($g) => {
                #[allow(dead_code)]
                type $G = senet::Senet;
                $body
            }
        }
    };
}

/// A game a Python caller made or replayed, from the one layer's.
pub(crate) trait Wrap: RaceGame {
    fn wrap(game: Game<Self>) -> Played;
}

impl Wrap for Ur {
    fn wrap(game: Game<Ur>) -> Played {
        Played::Ur(game)
    }
}

impl Wrap for Senet {
    fn wrap(game: Game<Senet>) -> Played {
        Played::Senet(game)
    }
}

/// A refused move as the package's `RefusedError`.
fn refused<R: Rules>(py: Python<'_>, e: &PlayError<R>) -> PyErr {
    Raise::new("RefusedError", e.code(), e.message()).err(py)
}

/// A move text with its action and what it does.
#[pyclass(module = "race_games._native", name = "Move", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyMove {
    /// The move's text (`hand-d1`, `12-15`).
    #[pyo3(get)]
    text: String,
    /// The integer action that names it where it is legal.
    #[pyo3(get)]
    action: usize,
    /// What it does, in a few words each (`captures`, `swaps`).
    #[pyo3(get)]
    notes: Vec<String>,
}

#[pymethods]
impl PyMove {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Move({:?}, action={})", self.text, self.action)
    }
}

/// A move as text, from a `Move` or a `str`.
fn move_text(mv: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(m) = mv.cast::<PyMove>() {
        return Ok(m.get().text.clone());
    }
    mv.extract::<String>()
}

/// A game of the Royal Game of Ur or Senet.
#[pyclass(module = "race_games._native", name = "Game", eq)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PyGame {
    pub(crate) game: Played,
}

/// A roll of a script: its number, or its faces (`0101`).
#[derive(FromPyObject)]
enum RollArg {
    Roll(u8),
    Faces(String),
}

fn new_game<G: Wrap>(
    py: Python<'_>,
    rules: Option<&str>,
    seed: Option<&Bound<'_, PyAny>>,
    rolls: Option<Vec<RollArg>>,
    first: Option<&str>,
) -> PyResult<Played> {
    let variant = crate::rules::<G>(py, rules)?;
    let dice = match (seed, rolls) {
        (Some(_), Some(_)) => {
            return Err(
                Raise::new("SetupError", "setup", "give a seed or rolls, not both").err(py),
            );
        }
        (Some(seed), None) => Dice::Seeded(crate::seed(py, seed)?),
        (None, Some(rolls)) => Dice::Script(script::<G>(py, &variant, rolls)?),
        (None, None) => {
            return Err(Raise::new("SetupError", "setup", "a game needs a seed or rolls").err(py));
        }
    };
    let mut setup = Setup::<G>::new(dice, variant);
    if let Some(first) = first {
        let side: Side = first.parse().map_err(|e: dice_core::ParseSideError| {
            Raise::new("SetupError", "side", e.to_string()).err(py)
        })?;
        setup = setup.with_first(side);
    }
    let game =
        Game::new(setup).map_err(|e| Raise::new("SetupError", e.code(), e.to_string()).err(py))?;
    Ok(G::wrap(game))
}

/// The rolls of a script, each checked against the rules.
fn script<G: RaceGame>(
    py: Python<'_>,
    variant: &G::Variant,
    rolls: Vec<RollArg>,
) -> PyResult<Vec<ScriptRoll>> {
    let (low, high) = (G::ROLL_MIN, G::max_roll(variant));
    rolls
        .into_iter()
        .map(|r| {
            let roll = match r {
                RollArg::Roll(roll) => ScriptRoll::new(roll),
                RollArg::Faces(text) => {
                    let faces: Faces = text.parse().map_err(|e: dice_core::ParseFacesError| {
                        Raise::new("SetupError", "faces", e.to_string()).err(py)
                    })?;
                    if faces.len() != G::dice(variant) {
                        return Err(Raise::new(
                            "SetupError",
                            "faces",
                            format!("{text:?} is not a throw of {} dice", G::dice(variant)),
                        )
                        .err(py));
                    }
                    ScriptRoll::with_faces(G::roll(variant, faces), faces)
                }
            };
            if (low..=high).contains(&roll.roll) {
                Ok(roll)
            } else {
                Err(Raise::new(
                    "SetupError",
                    "roll",
                    format!(
                        "{} is not a roll of these rules; rolls are {low} to {high}",
                        roll.roll
                    ),
                )
                .err(py))
            }
        })
        .collect()
}

/// The legal moves with their actions and notes.
fn legal_moves<G: RaceGame>(game: &Game<G>) -> Vec<PyMove> {
    let (variant, position) = (game.variant(), game.position());
    let Some(roll) = game.roll().filter(|_| !game.legal().is_empty()) else {
        return Vec::new();
    };
    G::legal_moves(variant, position, roll)
        .into_iter()
        .map(|m| PyMove {
            text: m.mv.to_string(),
            action: G::action(variant, position, m.mv),
            notes: m.notes,
        })
        .collect()
}

fn outcome<'py, G: RaceGame>(
    py: Python<'py>,
    game: &Game<G>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    #[derive(serde::Serialize)]
    struct Outcome {
        #[serde(flatten)]
        result: ResultView,
        plies: u32,
    }
    game.result()
        .map(|o| {
            let value = Outcome {
                result: ResultView {
                    winner: o.winner,
                    how: o.how,
                },
                plies: o.plies,
            };
            dataclass(py, "Outcome", &value)
        })
        .transpose()
}

fn entries<'py, G: RaceGame>(
    py: Python<'py>,
    game: &Game<G>,
    log: &[dice_core::LogEntry<G>],
) -> PyResult<Bound<'py, PyList>> {
    let items = log
        .iter()
        .map(|e| dataclass(py, "Entry", &EntryView::of(game.variant(), e)))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Everything a game is rebuilt from: its game, rules, dice, first side
/// (when it was named, not thrown for), moves and resignation.
type State = (
    String,
    String,
    Option<Vec<u8>>,
    Option<Vec<(u8, Option<String>)>>,
    Option<String>,
    Vec<String>,
    Option<String>,
);

fn state_of<G: RaceGame>(game: &Game<G>) -> State {
    let dice = game.dice();
    let resigned = game
        .result()
        .filter(|o| o.how == dice_core::Ending::Resign)
        .and_then(|o| o.winner)
        .map(|w| w.other().as_str().to_owned());
    (
        G::KIND.as_str().to_owned(),
        game.variant().to_string(),
        dice.seed().map(|s| s.as_bytes().to_vec()),
        dice.script().map(|s| {
            s.iter()
                .map(|r| (r.roll, r.faces.map(|f| f.to_string())))
                .collect()
        }),
        game.opening()
            .is_empty()
            .then(|| game.first().as_str().to_owned()),
        game.log()
            .iter()
            .filter_map(|e| e.mv.map(|m| m.to_string()))
            .collect(),
        resigned,
    )
}

fn restore_as<G: Wrap>(py: Python<'_>, state: State) -> PyResult<Played> {
    let (_, rules, seed, script, first, moves, resigned) = state;
    let variant = crate::rules::<G>(py, Some(&rules))?;
    let bad = |why: String| Raise::new("SetupError", "state", why).err(py);
    let dice = match (seed, script) {
        (Some(seed), _) => {
            Dice::Seeded(dice_core::Seed::new(seed).map_err(|e| bad(e.to_string()))?)
        }
        (None, Some(script)) => Dice::Script(
            script
                .into_iter()
                .map(|(roll, faces)| match faces {
                    Some(f) => f
                        .parse()
                        .map(|f| ScriptRoll::with_faces(roll, f))
                        .map_err(|e: dice_core::ParseFacesError| bad(e.to_string())),
                    None => Ok(ScriptRoll::new(roll)),
                })
                .collect::<PyResult<_>>()?,
        ),
        (None, None) => return Err(bad("no dice".to_owned())),
    };
    let mut setup = Setup::<G>::new(dice, variant);
    if let Some(first) = first {
        setup = setup.with_first(
            first
                .parse()
                .map_err(|e: dice_core::ParseSideError| bad(e.to_string()))?,
        );
    }
    let mut game = Game::new(setup).map_err(|e| bad(e.to_string()))?;
    for mv in moves {
        game.play_text(&mv).map_err(|e| bad(e.to_string()))?;
    }
    if let Some(side) = resigned {
        let side: Side = side
            .parse()
            .map_err(|e: dice_core::ParseSideError| bad(e.to_string()))?;
        game.resign(Some(side)).map_err(|e| bad(e.to_string()))?;
    }
    Ok(G::wrap(game))
}

/// Rebuilds a pickled game.
#[pyfunction]
fn _restore(py: Python<'_>, state: State) -> PyResult<PyGame> {
    let game = race_games::for_kind!(kind(py, &state.0)?, G => restore_as::<G>(py, state)?);
    Ok(PyGame { game })
}

/// Replays a record.
#[pyfunction]
#[pyo3(signature = (text, game = None, rules = None))]
pub(crate) fn replay(
    py: Python<'_>,
    text: &str,
    game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<PyGame> {
    let replay_error = |e: race_games::ReplayRefusal| {
        Raise::new("ReplayError", e.code, e.message)
            .text("why", e.why)
            .number("line", Some(e.line))
            .number("ply", e.ply)
            .err(py)
    };
    let kind = match game {
        Some(word) => kind(py, word)?,
        None => Kind::of_record(text).map_err(replay_error)?,
    };
    let variant = rules
        .map(|r| AnyVariant::read(kind, Some(r)))
        .transpose()
        .map_err(|e| Raise::new("RulesError", e.code(), e.to_string()).err(py))?;
    let game = match AnyGame::replay(text, kind, variant.as_ref()).map_err(replay_error)? {
        AnyGame::Ur(g) => Played::Ur(g),
        AnyGame::Senet(g) => Played::Senet(g),
        _ => {
            return Err(Raise::new(
                "RulesError",
                "unknown_game",
                "a game this package does not know",
            )
            .err(py));
        }
    };
    Ok(PyGame { game })
}

impl PyGame {
    /// The legal move with this text, with its action and notes.
    pub(crate) fn legal_move(&self, text: &str) -> Option<PyMove> {
        self.legal().into_iter().find(|m| m.text == text)
    }
}

#[pymethods]
impl PyGame {
    /// A new game: `game` is `ur` or `senet`, `rules` as the command line
    /// reads them; the dice are a `seed` (text or bytes) or a script of
    /// `rolls` (numbers or faces), with the `first` side named or thrown for.
    #[new]
    #[pyo3(signature = (game = "ur", rules = None, *, seed = None, rolls = None, first = None))]
    fn new(
        py: Python<'_>,
        game: &str,
        rules: Option<&str>,
        seed: Option<&Bound<'_, PyAny>>,
        rolls: Option<Vec<RollArg>>,
        first: Option<&str>,
    ) -> PyResult<PyGame> {
        let game = race_games::for_kind!(kind(py, game)?, G => new_game::<G>(py, rules, seed, rolls, first)?);
        Ok(PyGame { game })
    }

    /// Replays a record (see `race_games.replay`).
    #[staticmethod]
    #[pyo3(signature = (text, game = None, rules = None))]
    fn replay(
        py: Python<'_>,
        text: &str,
        game: Option<&str>,
        rules: Option<&str>,
    ) -> PyResult<PyGame> {
        replay(py, text, game, rules)
    }

    /// `ur` or `senet`.
    #[getter]
    fn game(&self) -> &'static str {
        each!(&self.game, _g, G => G::KIND.as_str())
    }

    /// The rule set as the record writes it.
    #[getter]
    fn rules(&self) -> String {
        each!(&self.game, g, G => g.variant().to_string())
    }

    /// Plies played: moves and lost turns.
    #[getter]
    fn ply(&self) -> u32 {
        each!(&self.game, g, G => g.ply())
    }

    /// Throws made, the opening's and the one in hand included.
    #[getter]
    fn throws(&self) -> u64 {
        each!(&self.game, g, G => g.throws())
    }

    /// The side to move (`light`, `dark`); `None` once over.
    #[getter]
    fn side(&self) -> Option<&'static str> {
        each!(&self.game, g, G => g.side().map(Side::as_str))
    }

    /// The roll in hand; `None` once over or when a script has run out.
    #[getter]
    fn roll(&self) -> Option<u8> {
        each!(&self.game, g, G => g.roll())
    }

    /// The faces of the throw in hand (`0101`), when known.
    #[getter]
    fn faces(&self) -> Option<String> {
        each!(&self.game, g, G => g.faces().map(|f| f.to_string()))
    }

    /// The position text.
    #[getter]
    fn position(&self) -> String {
        each!(&self.game, g, G => g.position().to_string())
    }

    /// The position key.
    #[getter]
    fn key(&self) -> String {
        each!(&self.game, g, G => G::key_text(g.variant(), g.position()))
    }

    /// Whether the game is over.
    #[getter]
    fn over(&self) -> bool {
        each!(&self.game, g, G => g.is_over())
    }

    /// How it ended, once over.
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        each!(&self.game, g, G => outcome(py, g))
    }

    /// Every ply so far.
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        each!(&self.game, g, G => entries(py, g, g.log()))
    }

    /// The turns lost to the roll at or after ply `ply`.
    fn forfeits_since<'py>(&self, py: Python<'py>, ply: u32) -> PyResult<Bound<'py, PyList>> {
        each!(&self.game, g, G => entries(py, g, &g.forfeits_since(ply)))
    }

    /// The legal moves, in the rules' order.
    fn legal(&self) -> Vec<PyMove> {
        each!(&self.game, g, G => legal_moves(g))
    }

    /// The legal moves' texts, in the rules' order.
    fn legal_texts(&self) -> Vec<String> {
        each!(&self.game, g, G => g.legal().iter().map(ToString::to_string).collect())
    }

    /// The legal moves' integer actions, in the rules' order.
    fn legal_actions(&self) -> Vec<usize> {
        each!(&self.game, g, G => g.legal().iter().map(|&m| G::action(g.variant(), g.position(), m)).collect())
    }

    /// How many integer actions the rules have.
    #[getter]
    fn action_count(&self) -> usize {
        each!(&self.game, g, G => G::action_count(g.variant()))
    }

    /// Which actions are legal, as booleans.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        each!(&self.game, g, G => {
            let mut mask = vec![false; G::action_count(g.variant())];
            action_mask::<G>(g.variant(), g.position(), g.legal(), &mut mask);
            PyArray1::from_vec(py, mask)
        })
    }

    /// The observation of the position and roll, seen from `side`'s side
    /// (`light`, `dark`; the side to move when `None`).
    #[pyo3(signature = (side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let side = side
            .map(str::parse::<Side>)
            .transpose()
            .map_err(|e| Raise::new("RaceError", "side", e.to_string()).err(py))?;
        Ok(each!(&self.game, g, G => {
            let mut obs = vec![0.0; G::observation_len(g.variant())];
            let seen = side.map_or(*g.position(), |s| G::with_side(g.position(), s));
            G::observe(g.variant(), &seen, g.roll(), &mut obs);
            PyArray1::from_vec(py, obs)
        }))
    }

    /// Plays a move given as text or a `Move`; returns it.
    fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let text = move_text(mv)?;
        each!(&mut self.game, g, G => {
            if g.is_over() {
                return Err(refused::<G>(py, &PlayError::GameOver));
            }
            let found = match G::parse_move(g.variant(), &text) {
                Ok(m) => legal_moves(g).into_iter().find(|l| l.text == m.to_string()),
                Err(_) => None,
            };
            g.play_text(&text).map_err(|e| refused(py, &e))?;
            found.ok_or_else(|| Raise::new("RaceError", "internal", "a played move was not legal").err(py))
        })
    }

    /// Plays the legal move an integer action names.
    fn play_action(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
        each!(&mut self.game, g, G => {
            let mv = move_for_action::<G>(g.variant(), g.position(), g.legal(), action);
            match mv {
                Some(mv) => g.play(mv).map(|_| ()).map_err(|e| refused(py, &e)),
                None if g.is_over() => Err(refused::<G>(py, &PlayError::GameOver)),
                None => Err(Raise::new(
                    "RefusedError",
                    "bad_action",
                    format!("action {action} names no legal move (the legal actions are {:?})",
                        g.legal().iter().map(|&m| G::action(g.variant(), g.position(), m)).collect::<Vec<_>>()),
                )
                .err(py)),
            }
        })
    }

    /// The turn as an agent sees it, in one call: the side to move, the
    /// observation it sees and its action mask as int8; once over `None`,
    /// what `observation()` gives and an all-zero mask.
    fn turn<'py>(&self, py: Python<'py>) -> Turn<'py> {
        each!(&self.game, g, G => {
            let variant = g.variant();
            let mut obs = vec![0.0; G::observation_len(variant)];
            G::observe(variant, g.position(), g.roll(), &mut obs);
            let mut mask = vec![false; G::action_count(variant)];
            action_mask::<G>(variant, g.position(), g.legal(), &mut mask);
            let mask: Vec<i8> = mask.into_iter().map(i8::from).collect();
            (
                g.side().map(Side::as_str),
                PyArray1::from_vec(py, obs),
                PyArray1::from_vec(py, mask),
            )
        })
    }

    /// Plays `action` as `play_action` does (lost turns settled after
    /// it) and returns the `turn()` that follows, in one call.
    fn play_turn<'py>(&mut self, py: Python<'py>, action: usize) -> PyResult<Turn<'py>> {
        self.play_action(py, action)?;
        Ok(self.turn(py))
    }

    /// Takes back the last move (and the turns lost after it) or a
    /// resignation; false when there is nothing to take back.
    fn undo(&mut self) -> bool {
        each!(&mut self.game, g, G => g.undo().is_ok())
    }

    /// Resigns for `side` (the side to move when `None`); returns the
    /// result.
    #[pyo3(signature = (side = None))]
    fn resign<'py>(&mut self, py: Python<'py>, side: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let side = side
            .map(str::parse::<Side>)
            .transpose()
            .map_err(|e| Raise::new("RefusedError", "side", e.to_string()).err(py))?;
        each!(&mut self.game, g, G => {
            g.resign(side).map_err(|e| Raise::new("RefusedError", e.code(), e.to_string()).err(py))?;
            outcome(py, g)?.ok_or_else(|| Raise::new("RaceError", "internal", "no result").err(py))
        })
    }

    /// The record text; with `reveal` false it carries no seed.
    #[pyo3(signature = (reveal = true))]
    fn to_record(&self, reveal: bool) -> String {
        let state = self.game.clone();
        let any = match state {
            Played::Ur(g) => AnyGame::Ur(g),
            Played::Senet(g) => AnyGame::Senet(g),
        };
        any.record(reveal)
    }

    /// The game as `race replay --json` gives it (without `ok`).
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        each!(&self.game, g, G => to_py(py, &GameView::of(g)))
    }

    /// A copy that plays on alone.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = py.import("race_games._native")?.getattr("_restore")?;
        let state = each!(&self.game, g, G => state_of(g));
        PyTuple::new(
            py,
            [
                restore,
                PyTuple::new(py, [state.into_pyobject(py)?])?.into_any(),
            ],
        )
    }

    fn __repr__(&self) -> String {
        each!(&self.game, g, G => format!(
            "Game({:?}, rules={:?}, ply={}, position={:?})",
            G::KIND.as_str(),
            g.variant().to_string(),
            g.ply(),
            g.position().to_string()
        ))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyMove>()?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    Ok(())
}
