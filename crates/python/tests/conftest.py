"""Shared fixtures: the checkout's root and the `race` command the Rust
build made, whose answers the package must give too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[3]


def race_command() -> Path:
    """`race` from RACE_BIN, the target folder or PATH."""
    given = os.environ.get("RACE_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("debug", "release"):
        candidate = target / profile / "race"
        if candidate.exists():
            return candidate
    found = shutil.which("race")
    if found:
        return Path(found)
    raise RuntimeError(
        "no `race` command: build it with `cargo build -p race` or set RACE_BIN"
    )


@pytest.fixture(scope="session")
def race() -> Any:
    command = race_command()

    def run(*args: str) -> Dict[str, Any]:
        done = subprocess.run(
            [str(command), *args], capture_output=True, text=True, check=False
        )
        out = done.stdout.strip() or done.stderr.strip()
        value: Dict[str, Any] = json.loads(out.splitlines()[-1])
        return value

    return run


def fixtures(game: str, broken: bool = False) -> List[Path]:
    folder = ROOT / "fixtures" / game
    if broken:
        folder = folder / "broken"
    return sorted(folder.glob("*.txt"))


@pytest.fixture(scope="session")
def finkel2p_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2-piece finkel table, solved by `race solve` (a fraction of a
    second)."""
    path = tmp_path_factory.mktemp("tables") / "finkel2p.table"
    subprocess.run(
        [str(race_command()), "solve", "finkel2p", "--f64", "--out", str(path)],
        check=True,
        capture_output=True,
    )
    return path
