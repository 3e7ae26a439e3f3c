"""The examples run and print what they compute."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT

EXAMPLES = ROOT / "crates" / "python" / "examples"
sys.path.insert(0, str(EXAMPLES))

import random_vs_bot  # noqa: E402


def test_random_play_against_the_level_2_bot_prints_its_win_rate() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "random_vs_bot.py"), "--games", "12", "--seed", "4"],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.fullmatch(
        r"random agent vs level-2 bot, ur: won (\d+\.\d)% of 12 games\n", done.stdout
    )
    assert found, done.stdout
    rate = random_vs_bot.win_rate("ur", 12, 4)
    assert float(found.group(1)) == round(100 * rate, 1)
    # The bot is better than chance against a random agent.
    assert random_vs_bot.win_rate("senet", 12, 4) < 0.5
