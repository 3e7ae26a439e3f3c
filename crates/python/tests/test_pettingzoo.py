"""The PettingZoo AEC environment: PettingZoo's own api and seed tests,
and the rewards at the end."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import pytest
from gymnasium.utils import seeding
from pettingzoo.test import api_test, seed_test

from race_games import pettingzoo as rpz


@pytest.mark.parametrize("game,rules", [("ur", None), ("ur", "blitz"), ("senet", None)])
def test_the_aec_env_passes_pettingzoo_api_and_seed_tests(game: str, rules: Any) -> None:
    api_test(rpz.env(game=game, rules=rules), num_cycles=200)
    seed_test(lambda: rpz.env(game=game, rules=rules), num_cycles=200)


def test_the_aec_env_rewards_the_winner_at_the_end() -> None:
    env = rpz.env()
    env.reset(seed=3)
    totals: Dict[str, float] = {"light": 0.0, "dark": 0.0}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += float(reward)
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].any()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    winner = env.game.result.winner
    assert totals == {winner: 1.0, ("dark" if winner == "light" else "light"): -1.0}


def test_an_illegal_aec_action_loses_for_the_mover() -> None:
    env = rpz.env()
    env.reset(seed=5)
    mover = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.infos[mover]["illegal"] is True
    assert all(env.terminations.values())
    other = "dark" if mover == "light" else "light"
    assert (env.rewards[mover], env.rewards[other]) == (-1.0, 1.0)


def test_a_reset_without_seed_draws_from_the_generator_the_last_seed_made() -> None:
    env = rpz.env()
    env.reset(seed=5)
    assert env.infos["light"]["seed"] == "5"
    want = seeding.np_random(5)[0]
    for _ in range(3):
        env.reset()
        assert env.infos["light"]["seed"] == str(int(want.integers(0, 2**63)))
    # A generator set by hand is the one drawn from.
    env.np_random = np.random.default_rng(9)
    env.reset()
    assert env.infos["dark"]["seed"] == str(int(np.random.default_rng(9).integers(0, 2**63)))
    with pytest.raises(Exception, match="(?i)seed"):
        env.reset(seed=-1)
