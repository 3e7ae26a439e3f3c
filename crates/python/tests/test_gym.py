"""The Gymnasium environments: Gymnasium's own checker, seeds, refusals."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, List

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import race_games as rg
from race_games import gym as rgym


@pytest.mark.parametrize("make", [lambda: rgym.UrEnv(), lambda: rgym.SenetEnv(side="dark"), lambda: rgym.UrEnv("masters", level=1)])
def test_the_gymnasium_envs_pass_check_env(make: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(make(), skip_render_check=True)


def test_a_gymnasium_seed_gives_the_same_game() -> None:
    def play(seed: int) -> List[str]:
        env = rgym.UrEnv(level=1)
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            obs, reward, done, _, info = env.step(action)
        assert reward in (1.0, -1.0)
        replayed = rg.Game("ur", seed=info["seed"])
        for e in env.game.log:
            if e.move is not None:
                replayed.play(e.move)
        assert replayed == env.game
        return [str(e) for e in env.game.log]

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_an_illegal_gymnasium_action_loses() -> None:
    env = rgym.UrEnv()
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)


def test_the_perfect_player_plays_from_a_table(finkel2p_table: Path) -> None:
    env = rgym.UrEnv(level="perfect", table=finkel2p_table)
    assert env.rules == rg.Table(finkel2p_table).rules and env.bot.level == "perfect"
    check_env(env, skip_render_check=True)
    # The perfect player wins most games against the first legal move.
    wins = 0
    for seed in range(20):
        _, info = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            action = int(np.flatnonzero(info["action_mask"])[0])
            _, r, done, _, info = env.step(action)
            reward = float(r)
        wins += reward < 0
    assert wins >= 12
