"""OpenSpiel's own checks on both games, registered as Python games.

scripts/test runs this file on its own after installing `open_spiel`
from PyPI; where that wheel cannot install the file is skipped."""

from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the open_spiel package from PyPI")

from race_games import openspiel  # noqa: E402

openspiel.register()


@pytest.mark.parametrize(
    "name,params",
    [("python_royal_ur", {}), ("python_royal_ur", {"rules": "masters"}), ("python_senet", {})],
)
def test_openspiels_random_simulation_test_passes(name: str, params: dict) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_a_loaded_game_plays_its_rules_with_exact_chances() -> None:
    game = pyspiel.load_game("python_royal_ur", {"rules": "masters"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(0)
    # Three binary dice, a throw of nothing counting 4: 3/8, 3/8, 1/8, 1/8.
    assert dict(state.chance_outcomes()) == {1: 3 / 8, 2: 3 / 8, 3: 1 / 8, 4: 1 / 8}
    state.apply_action(2)
    assert state.current_player() == 0
    child = state.clone()
    child.apply_action(child.legal_actions()[0])
    assert child.is_chance_node() or child.current_player() == 0
    assert str(state) != str(child)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
