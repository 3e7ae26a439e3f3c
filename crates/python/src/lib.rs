//! The native half of the Python package `race_games`: the one game layer
//! (`race-games`) bound with PyO3. Everything the package knows of the
//! games comes from there; this crate turns its values into Python's and
//! its errors into the package's exceptions (`race_games._data`).

mod bot;
mod game;
mod spiel;
mod vector;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString};
use race_games::{Kind, RaceGame};
use serde::Serialize;

/// The Python module of dataclasses and exceptions the native code builds.
static DATA: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// `race_games._data`, imported once.
fn data(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    DATA.get_or_try_init(py, || Ok(py.import("race_games._data")?.unbind()))
        .map(|m| m.bind(py))
}

/// An error of the package: the exception class `class` of `_data` with
/// the message, the code and any further fields.
pub(crate) struct Raise {
    class: &'static str,
    message: String,
    code: String,
    fields: Vec<(&'static str, Option<String>, Option<usize>)>,
}

impl Raise {
    pub(crate) fn new(class: &'static str, code: &str, message: impl Into<String>) -> Raise {
        Raise {
            class,
            message: message.into(),
            code: code.to_owned(),
            fields: Vec::new(),
        }
    }

    /// Adds a text field (`why`).
    pub(crate) fn text(mut self, name: &'static str, value: Option<&str>) -> Raise {
        self.fields.push((name, value.map(str::to_owned), None));
        self
    }

    /// Adds a number field (`line`, `ply`).
    pub(crate) fn number(mut self, name: &'static str, value: Option<usize>) -> Raise {
        self.fields.push((name, None, value));
        self
    }

    /// The Python exception.
    pub(crate) fn err(self, py: Python<'_>) -> PyErr {
        match self.build(py) {
            Ok(e) | Err(e) => e,
        }
    }

    fn build(self, py: Python<'_>) -> PyResult<PyErr> {
        let class = data(py)?.getattr(self.class)?;
        let kwargs = PyDict::new(py);
        for (name, text, number) in self.fields {
            match (text, number) {
                (Some(t), _) => kwargs.set_item(name, t)?,
                (None, Some(n)) => kwargs.set_item(name, n)?,
                (None, None) => kwargs.set_item(name, py.None())?,
            }
        }
        let value = class.call((self.message, self.code), Some(&kwargs))?;
        Ok(PyErr::from_value(value))
    }
}

/// A serde value as the Python value its JSON reads as.
pub(crate) fn to_py<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| Raise::new("RaceError", "internal", e.to_string()).err(py))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// One of `_data`'s dataclasses (`Thought`, `Entry`, `Outcome`) built from
/// a serde value's fields.
pub(crate) fn dataclass<'py>(
    py: Python<'py>,
    class: &str,
    value: &impl Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let fields = to_py(py, value)?;
    data(py)?.getattr("_build")?.call1((class, fields))
}

/// A game's name (`ur`, `royal-ur`, `senet`) as the game.
pub(crate) fn kind(py: Python<'_>, word: &str) -> PyResult<Kind> {
    word.parse::<Kind>()
        .map_err(|e| Raise::new("RulesError", e.code(), e.to_string()).err(py))
}

/// Rules text read as the command line reads it (`None`: the default).
pub(crate) fn rules<G: RaceGame>(py: Python<'_>, text: Option<&str>) -> PyResult<G::Variant> {
    race_games::read_rules::<G>(text)
        .map_err(|e| Raise::new("RulesError", e.code(), e.to_string()).err(py))
}

/// A seed given as text (its UTF-8 bytes) or bytes (as they are).
pub(crate) fn seed(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<dice_core::Seed> {
    let bytes: Vec<u8> = if let Ok(b) = value.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else if let Ok(s) = value.cast::<PyString>() {
        s.extract::<String>()?.into_bytes()
    } else {
        return Err(PyTypeError::new_err("a seed is text or bytes"));
    };
    dice_core::Seed::new(bytes).map_err(|e| Raise::new("SeedError", "seed", e.to_string()).err(py))
}

/// The dice of a seed: the faces and roll of each of its first `count`
/// throws under the rules of the game.
#[pyfunction]
#[pyo3(signature = (seed, count, game = "ur", rules = None))]
fn throws(
    py: Python<'_>,
    seed: &Bound<'_, PyAny>,
    count: u64,
    game: &str,
    rules: Option<&str>,
) -> PyResult<Vec<(String, u8)>> {
    const MAX: u64 = 1_000_000;
    if count > MAX {
        return Err(Raise::new(
            "RaceError",
            "count",
            format!("{count} throws is more than the {MAX} one call gives"),
        )
        .err(py));
    }
    let seed = self::seed(py, seed)?;
    race_games::for_kind!(kind(py, game)?, G => {
        let variant = self::rules::<G>(py, rules)?;
        let dice = <G as dice_core::Rules>::dice(&variant);
        Ok((0..count)
            .map(|n| {
                let faces = dice_core::Faces::thrown(&seed, n, dice);
                (faces.to_string(), <G as dice_core::Rules>::roll(&variant, faces))
            })
            .collect())
    })
}

/// Rules text as the record writes it: the name, or every field.
#[pyfunction]
#[pyo3(signature = (game = "ur", rules = None))]
fn read_rules(py: Python<'_>, game: &str, rules: Option<&str>) -> PyResult<String> {
    race_games::for_kind!(kind(py, game)?, G => Ok(self::rules::<G>(py, rules)?.to_string()))
}

/// Every game's rule sets, fields and bot levels.
#[pyfunction]
fn catalogue(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &race_games::catalogue(&race_games::Tables::default()))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(throws, m)?)?;
    m.add_function(wrap_pyfunction!(read_rules, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue, m)?)?;
    game::register(m)?;
    bot::register(m)?;
    spiel::register(m)?;
    vector::register(m)?;
    Ok(())
}
