"""The values and exceptions the native engine hands to Python.

Each dataclass mirrors a JSON shape of the command line (``race replay
--json``, ``race bot --json``); the native code builds them, and nothing
here knows the games.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Dict, Optional, Union


class RaceError(ValueError):
    """What the engine refused, with its code (``bad_move``, ``roll`` ...)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(f"{message} ({code})")
        self.message = message
        self.code = code


class RulesError(RaceError):
    """Rules text (or a game's name) that the game does not read."""


class SeedError(RaceError):
    """A seed that is no seed (an empty one)."""


class SetupError(RaceError):
    """A game that cannot be set up: no dice, a bad roll in a script, a side."""


class PositionError(RaceError):
    """Position text that is no position of the rules, or a roll out of range."""


class RefusedError(RaceError):
    """A move (or a resignation) the game refused; the game is unchanged."""


class ReplayError(RaceError):
    """A record that could not be replayed: the check (``why``), the record's
    line (0 for the text as a whole) and the ply where it went wrong."""

    def __init__(
        self,
        message: str,
        code: str,
        why: Optional[str] = None,
        line: Optional[int] = None,
        ply: Optional[int] = None,
    ) -> None:
        super().__init__(message, code)
        self.why = why
        self.line = line
        self.ply = ply


class BotError(RaceError):
    """A bot or table that cannot be had: ``no_table``, ``level``, a table
    file's own code."""


@dataclass(frozen=True)
class Thought:
    """What a bot plays and what it found (``race bot --json``)."""

    move: str
    level: Union[int, str]
    index: Optional[int]
    value: Union[int, float, None]
    depth: Optional[int] = None
    nodes: Optional[int] = None
    stopped: Optional[int] = None


@dataclass(frozen=True)
class Entry:
    """One ply of a game's log: the throw, the move (``None`` for a lost
    turn) and what it did."""

    ply: int
    side: str
    roll: int
    faces: Optional[str]
    move: Optional[str]
    again: bool
    capture: bool
    rosette: bool
    swap: bool
    water: bool
    home: bool
    ends: Optional[str]


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (``None`` for a draw), how (``home``,
    ``resign``, ``cap``) and after how many plies."""

    winner: Optional[str]
    how: str
    plies: int


_CLASSES = {"Thought": Thought, "Entry": Entry, "Outcome": Outcome}


def _build(name: str, values: Dict[str, Any]) -> Any:
    cls = _CLASSES[name]
    known = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in values.items() if k in known})
