"""Gymnasium environments: one agent against a bot of the ladder, or the
perfect player where a solved table is given.

``UrEnv`` and ``SenetEnv`` take the rules (any the command line takes),
the bot's ``level`` (``1`` to the top of the ladder, ``"top"``,
``"perfect"`` with ``table``, whose rules are the game's when ``rules`` is
not given) and the agent's ``side`` (``"light"`` or
``"dark"``). Actions are ``Discrete(action_count)``, the engine's integer
actions; ``info["action_mask"]`` marks the legal ones (int8). The
observation is the engine's, a ``Box(0, 1, (observation_len,), float32)``
seen by the agent (``docs/python.md`` lists each number). The bot moves
inside ``reset`` and ``step`` until the agent is to move or the game is
over. The reward is +1 for a win and -1 for a loss at the end, 0 for a
draw (the ply cap) and for every move before. An action that names no
legal move loses the game at once (reward -1, ``info["illegal"]``).

Every game is seeded: ``reset(seed=s)`` reseeds the environment's
generator, and each game's seed text is a number drawn from it
(``info["seed"]``), so the same seed gives the same game and
``race_games.Game(game, rules, seed=info["seed"])`` replays it.
"""

from __future__ import annotations

from os import PathLike
from typing import Any, Dict, Optional, SupportsFloat, Tuple, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ._native import Bot, Game, Table

__all__ = ["RaceEnv", "SenetEnv", "UrEnv"]

_Obs = npt.NDArray[np.float32]


class RaceEnv(gym.Env[_Obs, np.int64]):
    """One agent against a bot in a game of ``game`` under ``rules``."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        rules: Optional[str] = None,
        level: Union[int, str] = 2,
        table: Union[str, "PathLike[str]", Table, None] = None,
        side: str = "light",
        render_mode: Optional[str] = None,
    ) -> None:
        if side not in ("light", "dark"):
            raise ValueError(f"side is light or dark, not {side!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        solved = table if isinstance(table, Table) or table is None else Table(table)
        if rules is None and solved is not None:
            rules = solved.rules
        self.bot = Bot(level, game=game, rules=rules, table=solved)
        probe = Game(game, rules, seed="probe")
        self.game_name = probe.game
        self.rules = probe.rules
        self.side = side
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(probe.action_count)
        length = len(probe.observation())
        self.observation_space = spaces.Box(0.0, 1.0, (length,), np.float32)
        self.game: Game = probe
        self.seed_text = ""

    def _bot_moves(self) -> None:
        while not self.game.over and self.game.side != self.side:
            move = self.bot.choose(self.game)
            assert move is not None, "a game on has a roll in hand"
            self.game.play(move)

    def _observe(self) -> _Obs:
        return self.game.observation()

    def _info(self, illegal: bool = False) -> Dict[str, Any]:
        info: Dict[str, Any] = {
            "action_mask": self.game.action_mask().view(np.int8),
            "seed": self.seed_text,
            "ply": self.game.ply,
        }
        if illegal:
            info["illegal"] = True
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[_Obs, Dict[str, Any]]:
        super().reset(seed=seed)
        self.seed_text = str(int(self.np_random.integers(0, 2**63)))
        self.game = Game(self.game_name, self.rules, seed=self.seed_text)
        self._bot_moves()
        return self._observe(), self._info()

    def _reward(self) -> float:
        result = self.game.result
        if result is None or result.winner is None:
            return 0.0
        return 1.0 if result.winner == self.side else -1.0

    def step(
        self, action: Any
    ) -> Tuple[_Obs, SupportsFloat, bool, bool, Dict[str, Any]]:
        if self.game.over:
            raise RuntimeError("the game is over: call reset()")
        if int(action) not in self.game.legal_actions():
            self.game.resign(self.side)
            return self._observe(), -1.0, True, False, self._info(illegal=True)
        self.game.play_action(int(action))
        self._bot_moves()
        return self._observe(), self._reward(), self.game.over, False, self._info()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return f"{self.game.position} roll {self.game.roll}"
        return None


class UrEnv(RaceEnv):
    """The Royal Game of Ur (default rules finkel) against a bot."""

    def __init__(
        self,
        rules: Optional[str] = None,
        level: Union[int, str] = 2,
        table: Union[str, "PathLike[str]", Table, None] = None,
        side: str = "light",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__("ur", rules, level, table, side, render_mode)


class SenetEnv(RaceEnv):
    """Senet (default rules kendall) against a bot."""

    def __init__(
        self,
        rules: Optional[str] = None,
        level: Union[int, str] = 2,
        side: str = "light",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__("senet", rules, level, None, side, render_mode)
