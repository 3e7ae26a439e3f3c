"""The OpenSpiel-shaped `State`: explicit chance nodes with exact chances,
integer actions, and the same games `Game` plays."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction
from typing import List

import pytest

import race_games as rg


def exact(outcomes: List[tuple]) -> List[tuple]:
    return [(a, Fraction(p).limit_denominator(256)) for a, p in outcomes]


def test_ur_throws_are_four_binary_dice() -> None:
    state = rg.State("ur", "finkel")
    assert state.is_chance_node() and state.current_player() == -1
    # Who moves first is thrown for; the sides are alike, so half each.
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(0)
    assert state.is_chance_node()
    assert exact(state.chance_outcomes()) == [
        (0, Fraction(1, 16)),
        (1, Fraction(4, 16)),
        (2, Fraction(6, 16)),
        (3, Fraction(4, 16)),
        (4, Fraction(1, 16)),
    ]
    assert state.legal_actions() == [0, 1, 2, 3, 4]


def test_senet_opens_with_light_and_throws_four_sticks() -> None:
    state = rg.State("senet")
    assert state.is_chance_node()
    # No marked stick counts 5.
    assert exact(state.chance_outcomes()) == [
        (1, Fraction(4, 16)),
        (2, Fraction(6, 16)),
        (3, Fraction(4, 16)),
        (4, Fraction(1, 16)),
        (5, Fraction(1, 16)),
    ]
    state.apply_action(3)
    assert state.current_player() == 0


@pytest.mark.parametrize("game", ["ur", "senet"])
def test_chance_outcomes_match_the_dice(game: str) -> None:
    # The chances are those of the seeded dice over many throws.
    state = rg.State(game)
    if game == "ur":
        state.apply_action(0)
    want = dict(state.chance_outcomes())
    throws = rg.throws("chance check", 20_000, game=game)
    for roll, p in want.items():
        seen = sum(1 for _, r in throws if r == roll) / len(throws)
        assert abs(seen - p) < 0.02, (roll, seen, p)


@pytest.mark.parametrize("game,seed", [("ur", "s1"), ("ur", "s2"), ("senet", "s3")])
def test_a_state_plays_the_game_a_seeded_game_plays(game: str, seed: str) -> None:
    played = rg.Game(game, seed=seed)
    while not played.over:
        played.play(played.legal()[-1])
    state = rg.State(game)
    if state.is_chance_node() and state.chance_outcomes()[0][1] == 0.5:
        state.apply_action(0 if played.log[0].side == "light" else 1)
    for entry in played.log:
        assert state.is_chance_node()
        assert state.current_player() == -1
        state.apply_action(entry.roll)
        if entry.move is None:
            continue
        assert state.current_player() == (0 if entry.side == "light" else 1)
        actions = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(actions[entry.move])
    assert state.is_terminal() and state.current_player() == -4
    assert state.position == played.position
    winner = played.result.winner
    assert state.returns() == ([1.0, -1.0] if winner == "light" else [-1.0, 1.0])


def test_refused_actions_raise_and_change_nothing() -> None:
    state = rg.State("ur")
    with pytest.raises(rg.RefusedError) as e:
        state.apply_action(2)
    assert e.value.code == "bad_action"
    state.apply_action(0)
    with pytest.raises(rg.RefusedError):
        state.apply_action(9)
    state.apply_action(2)
    before = state.clone()
    with pytest.raises(rg.RefusedError):
        state.apply_action(14)
    assert state == before


def test_clones_copies_and_pickles_play_on_alone() -> None:
    state = rg.State("ur", "masters")
    state.apply_action(1)
    state.apply_action(3)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and str(twin) == str(state)
        twin.apply_action(twin.legal_actions()[0])
        assert twin != state


def test_observation_tensors_are_the_engines() -> None:
    game = rg.Game("ur", rolls=[2], first="light")
    state = rg.State("ur")
    state.apply_action(0)
    state.apply_action(2)
    assert list(state.observation_tensor()) == list(game.observation())
    assert list(state.observation_tensor(0)) == list(game.observation("light"))
    assert list(state.observation_tensor(1)) == list(game.observation("dark"))
    assert state.observation_len == len(game.observation())
    assert state.num_distinct_actions == game.action_count
    with pytest.raises(rg.RaceError) as e:
        state.observation_tensor(2)
    assert e.value.code == "player"
