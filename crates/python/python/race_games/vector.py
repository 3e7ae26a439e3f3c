"""Batched games: N games of one rule set stepped in Rust in one call.

``Ur(n, rules, seed)`` and ``Senet(n, rules, seed)`` are ``Batch``es:
``step(actions)`` takes one integer action per game (an int64 array) and
returns numpy arrays, row ``i`` for game ``i``: observations
``(n, observation_len)`` float32, action masks ``(n, action_count)``
bool, rewards ``(n,)`` float32 (+1 to the side whose move won), terminated
``(n,)`` bool and the side to move ``(n,)`` int8 (0 light, 1 dark, -1
over). Lost turns are settled inside a step, so every step is one move.
``legal_actions()`` gives every game's legal actions in one flat list,
``(actions, starts, counts)``: ``actions[starts + (u * counts).astype(int)]``
with ``u`` uniform in [0, 1) a game is a random legal action in each.

Slot ``i``'s ``k``-th game (from 0) is the game of seed text
``f"{seed}:{i}:{k}"``: ``race_games.Game(game, rules,
seed=f"{seed}:{i}:{k}")`` played with the slot's actions is the same game.
A game that ends is started again on the next ``step`` (Gymnasium's
``NEXT_STEP`` autoreset): that step ignores the slot's action and returns
the next game's first observation with reward 0.

``VectorEnv`` wraps a batch as a ``gymnasium.vector.VectorEnv`` for
self-play: one policy moves for whichever side is to move in each game,
``infos["action_mask"]`` and ``infos["side"]`` say what it may play and for
whom, and the reward is the mover's.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._native import Batch

__all__ = ["Batch", "Senet", "Ur", "VectorEnv"]

_Seed = Union[str, int]


class Ur(Batch):
    """``n`` games of the Royal Game of Ur (default rules finkel)."""

    def __new__(cls, n: int, rules: Optional[str] = None, seed: Optional[_Seed] = None) -> "Ur":
        return super().__new__(cls, "ur", n, rules, seed)


class Senet(Batch):
    """``n`` games of Senet (default rules kendall)."""

    def __new__(cls, n: int, rules: Optional[str] = None, seed: Optional[_Seed] = None) -> "Senet":
        return super().__new__(cls, "senet", n, rules, seed)


_Obs = npt.NDArray[np.float32]
_Act = npt.NDArray[np.int64]


class VectorEnv(gym.vector.VectorEnv[_Obs, _Act, npt.NDArray[Any]]):
    """A batch as Gymnasium's vector environment (``NEXT_STEP`` autoreset)."""

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self, game: str = "ur", num_envs: int = 1, rules: Optional[str] = None, seed: _Seed = 0
    ) -> None:
        self.batch = Batch(game, num_envs, rules, seed)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(
            0.0, 1.0, (self.batch.observation_len,), np.float32
        )
        self.single_action_space = spaces.Discrete(self.batch.action_count)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self,
        *,
        seed: Optional[Union[int, str]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[_Obs, Dict[str, Any]]:
        obs, mask, side = self.batch.reset(seed)
        return obs, {"action_mask": mask, "side": side}

    def step(
        self, actions: _Act
    ) -> Tuple[_Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], Dict[str, Any]]:
        obs, mask, rewards, terminated, side = self.batch.step(
            np.asarray(actions, dtype=np.int64)
        )
        truncated = np.zeros(self.num_envs, np.bool_)
        return obs, rewards, terminated, truncated, {"action_mask": mask, "side": side}
