"""PettingZoo's AEC shape: two learning agents, ``"light"`` and
``"dark"``, taking turns as the game gives them (a rosette or a throw of
Senet that throws again keeps the same agent selected).

``env(game="ur", rules=None)`` gives the environment. Each agent's
observation is a dict: ``"observation"``, the engine's numbers seen from
that agent's side (``docs/python.md``), and ``"action_mask"``, the legal
actions (int8, all zero for the agent not to move). Rewards are +1 for the
winner and -1 for the loser when the game ends, 0 before and for a draw at
the ply cap. An action that names no legal move loses at once (-1 to the
mover, +1 to the other, ``infos[agent]["illegal"]``).

``reset(seed=s)`` starts the game of seed text ``str(s)``; without a seed
the seed text is a number drawn from the environment's generator. Either
way ``infos[agent]["seed"]`` holds it, and ``race_games.Game(game, rules,
seed=...)`` with the same moves is the same game.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from ._data import RefusedError
from ._native import Game

__all__ = ["RaceAEC", "env"]

AGENTS = ["light", "dark"]

# The side to move (None once over), its observation and its action mask.
_Turn = Tuple[Optional[str], npt.NDArray[np.float32], npt.NDArray[np.int8]]


class RaceAEC(AECEnv):  # type: ignore[misc,unused-ignore]
    """A game of ``game`` under ``rules`` between two agents."""

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "race_games",
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str = "ur", rules: Optional[str] = None, render_mode: Optional[str] = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        probe = Game(game, rules, seed="probe")
        self.game = probe
        self.game_name = probe.game
        self.rules = probe.rules
        self.metadata = {**self.metadata, "name": f"race_games_{probe.game}"}
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        count = probe.action_count
        length = len(probe.observation())
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (length,), np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), np.int8),
                }
            )
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(count) for a in AGENTS}
        self._none = np.zeros(count, np.int8)
        # The generator of unseeded resets, made when first asked for: a
        # seeded reset only notes its seed (making one costs about a game).
        self._np_random: Optional[np.random.Generator] = None
        self._np_seed: Optional[int] = None
        self.seed_text = ""
        self._set_turn(probe.turn())

    @property
    def np_random(self) -> np.random.Generator:
        """The generator that draws the seed of a reset without one."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random(self._np_seed)
        return self._np_random

    @np_random.setter
    def np_random(self, generator: np.random.Generator) -> None:
        self._np_random = generator

    def _set_turn(self, turn: _Turn) -> None:
        # The mover's observation and mask come with each move, and its
        # observation dict is made once a turn.
        self._turn = turn
        self._mover: Dict[str, npt.NDArray[Any]] = {"observation": turn[1], "action_mask": turn[2]}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, npt.NDArray[Any]]:
        if agent == self._turn[0]:
            return self._mover
        return {"observation": self.game.observation(agent), "action_mask": self._none}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            if not isinstance(seed, int) or seed < 0:
                seeding.np_random(seed)  # refuses it as it always has
            self._np_random, self._np_seed = None, seed
            self.seed_text = str(seed)
        else:
            self.seed_text = str(int(self.np_random.integers(0, 2**63)))
        self.game = Game(self.game_name, self.rules, seed=self.seed_text)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {"seed": self.seed_text} for a in AGENTS}
        self._set_turn(self.game.turn())
        side = self._turn[0]
        assert side is not None, "a new game has a side to move"
        self.agent_selection = side

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        try:
            if action is None:
                raise RefusedError("no action", "bad_action")
            # One engine call a move: it plays, settles the turns lost
            # after it and gives the next side, observation and mask.
            self._set_turn(self.game.play_turn(int(action)))
        except RefusedError:
            self.game.resign(agent)
            self.infos[agent]["illegal"] = True
            self._set_turn(self.game.turn())
        side = self._turn[0]
        if side is not None:
            # Nothing to accumulate: every reward is 0 while the game goes on.
            self.agent_selection = side
            return
        result = self.game.result
        assert result is not None, "a game over has a result"
        for a in AGENTS:
            self.terminations[a] = True
            self.rewards[a] = 0.0 if result.winner is None else 1.0 if result.winner == a else -1.0
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return f"{self.game.position} roll {self.game.roll}"
        return None

    def close(self) -> None:
        pass

    def state(self) -> npt.NDArray[np.float32]:
        """The observation seen by the side to move."""
        return self.game.observation()


def env(game: str = "ur", rules: Optional[str] = None, render_mode: Optional[str] = None) -> RaceAEC:
    """The AEC environment of ``game`` under ``rules``."""
    return RaceAEC(game, rules, render_mode)

