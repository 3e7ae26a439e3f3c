"""A random agent against the level-2 bot in Gymnasium's shape.

Trains nothing: it plays `--games` games of the Royal Game of Ur (finkel)
or Senet, choosing uniformly among the legal actions the environment's
`action_mask` gives, and prints how often it won.

    python crates/python/examples/random_vs_bot.py --games 200 --game ur
"""

from __future__ import annotations

import argparse
from typing import List, Optional

import numpy as np

from race_games.gym import RaceEnv


def win_rate(game: str, games: int, seed: int, level: int = 2) -> float:
    """The share of `games` a random agent wins against the bot at `level`."""
    env = RaceEnv(game, level=level)
    rng = np.random.default_rng(seed)
    wins = 0
    for n in range(games):
        _, info = env.reset(seed=seed + n)
        done = False
        reward = 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal))
            _, r, terminated, truncated, info = env.step(action)
            reward = float(r)
            done = terminated or truncated
        wins += reward > 0
    return wins / games


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ur", choices=["ur", "senet"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rate = win_rate(args.game, args.games, args.seed)
    print(f"random agent vs level-2 bot, {args.game}: won {rate:.1%} of {args.games} games")


if __name__ == "__main__":
    main()
