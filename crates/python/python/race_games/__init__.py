"""The Royal Game of Ur and Senet: exact, seeded engines for research.

``Game`` plays either game from a seed or a script of rolls; ``replay``
reads a record; ``Bot`` is the bot ladder or the perfect player over a
solved ``Table``. ``race_games.gym``, ``race_games.pettingzoo``,
``race_games.vector`` and ``race_games.openspiel`` give the same games in
the shapes those libraries use. Everything the package knows of the games
is the engine's.
"""

from ._data import (
    BotError,
    Entry,
    Outcome,
    PositionError,
    RaceError,
    RefusedError,
    ReplayError,
    RulesError,
    SeedError,
    SetupError,
    Thought,
)
from ._native import Bot, Game, Move, State, Table, catalogue, read_rules, replay, throws

__all__ = [
    "Bot",
    "BotError",
    "Entry",
    "Game",
    "Move",
    "Outcome",
    "PositionError",
    "RaceError",
    "RefusedError",
    "ReplayError",
    "RulesError",
    "SeedError",
    "SetupError",
    "State",
    "Table",
    "Thought",
    "catalogue",
    "read_rules",
    "replay",
    "throws",
]
