"""Both games as OpenSpiel Python games.

``register()`` (when ``pyspiel`` imports) registers ``python_royal_ur``
and ``python_senet``; ``pyspiel.load_game("python_royal_ur")`` then plays
the Royal Game of Ur under its default rules (finkel), and
``pyspiel.load_game("python_royal_ur", {"rules": "masters"})`` under
others. Each state wraps a native ``race_games.State``: chance nodes are
the throws, with each roll's exact chance (the roll is the chance action;
at a throw-off for who moves first, 0 is light first and 1 dark), player
0 is light and player 1 dark, and a player's actions are the engine's
integer actions (see ``docs/python.md``). Returns are +1 and -1 once won,
0 for a game drawn at the ply cap.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ._native import State

__all__ = ["GAMES", "register"]

#: The short names ``register`` gives each game (and the engine's name).
GAMES: Dict[str, str] = {"python_royal_ur": "ur", "python_senet": "senet"}

#: The most plies a game has before it is drawn (the engine's ply cap).
PLY_CAP = 15_000


def register() -> List[str]:
    """Registers both games with OpenSpiel; returns their short names.

    Raises ``ImportError`` naming the package when ``pyspiel`` (PyPI
    ``open_spiel``) is not installed.
    """
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:  # pragma: no cover - depends on the platform
        raise ImportError(
            "race_games.openspiel needs pyspiel: pip install open_spiel"
        ) from e
    for short, game in GAMES.items():
        _register(pyspiel, short, game)
    return list(GAMES)


def _register(pyspiel: Any, short: str, game: str) -> None:
    probe = State(game)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"{probe.game} (race_games)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rules": probe.rules},
    )

    class RaceState(pyspiel.State):  # type: ignore[misc,unused-ignore]
        """A node of the game tree, over the native ``State``."""

        def __init__(self, spiel_game: Any, native: Optional[State] = None) -> None:
            super().__init__(spiel_game)
            self.native = native if native is not None else State(game, spiel_game.rules)

        def current_player(self) -> int:
            player = self.native.current_player()
            if player == -1:
                return int(pyspiel.PlayerId.CHANCE)
            if player == -4:
                return int(pyspiel.PlayerId.TERMINAL)
            return player

        def _legal_actions(self, player: int) -> List[int]:
            return self.native.legal_actions()

        def chance_outcomes(self) -> List[Tuple[int, float]]:
            return self.native.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.native.apply_action(action)

        def _action_to_string(self, player: int, action: int) -> str:
            return self.native.action_to_string(action)

        def is_terminal(self) -> bool:
            return self.native.is_terminal()

        def returns(self) -> List[float]:
            return list(self.native.returns())

        def __str__(self) -> str:
            return str(self.native)

    class Observer:
        """The engine's observation, seen from the player's side."""

        def __init__(self, length: int) -> None:
            self.tensor = np.zeros(length, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: Any, player: int) -> None:
            self.tensor[:] = state.native.observation_tensor(player)

        def string_from(self, state: Any, player: int) -> str:
            return f"player {player}: {state.native}"

    class RaceGame(pyspiel.Game):  # type: ignore[misc,unused-ignore]
        """The game under the rules of the parameter ``rules``."""

        def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
            params = dict(params or {})
            rules = str(params.get("rules", probe.rules))
            native = State(game, rules)
            self.rules = native.rules
            info = pyspiel.GameInfo(
                num_distinct_actions=native.num_distinct_actions,
                max_chance_outcomes=native.max_chance_outcomes,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                # Every ply is a decision or a throw (a throw-off first).
                max_game_length=2 * PLY_CAP + 1,
            )
            self.observation_len = native.observation_len
            super().__init__(game_type, info, {"rules": self.rules})

        def new_initial_state(self) -> RaceState:
            return RaceState(self)

        def make_py_observer(
            self, iig_obs_type: Any = None, params: Any = None
        ) -> Observer:
            return Observer(self.observation_len)

    RaceState.__name__ = RaceState.__qualname__ = f"{short}_State"
    RaceGame.__name__ = RaceGame.__qualname__ = f"{short}_Game"
    pyspiel.register_game(game_type, RaceGame)
