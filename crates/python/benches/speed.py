"""How fast the package plays: prints figures, asserts nothing.

    python crates/python/benches/speed.py [--seconds 3]

* batched: `race_games.vector.Ur(n, "finkel")` stepped with random legal
  actions drawn in numpy from the action masks (a step is one move chosen,
  lost turns settled inside), in steps a second over all games;
* aec: the PettingZoo AEC loop (`agent_iter`, `last`, `step`) of one game
  with random legal actions, in steps a second;
* gym: `UrEnv` against the level-1 bot, in agent steps a second;
* state: the OpenSpiel-shaped `State` played to the end with random chance
  and player actions, in actions a second (chance and player alike).

Run it with the package built in release mode (`maturin develop -r`).
"""

from __future__ import annotations

import argparse
import time
from typing import Callable, Tuple

import numpy as np

import race_games as rg
from race_games import gym as rgym
from race_games import pettingzoo as rpz
from race_games import vector as rvec


def timed(run: Callable[[], int], seconds: float) -> Tuple[int, float]:
    """Calls `run` (which returns the steps it made) until `seconds` pass."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run()
    return steps, time.perf_counter() - start


def batched(n: int, seconds: float, sample: bool = True) -> float:
    batch = rvec.Ur(n, "finkel", seed="bench")
    rng = np.random.default_rng(0)
    _, mask, _ = batch.reset()
    state = {"mask": mask}
    first = np.zeros(n, np.int64)

    def run() -> int:
        m = state["mask"]
        if sample:
            actions = (rng.random(m.shape, np.float32) * m).argmax(axis=1)
        else:
            # The first legal action: no sampling cost.
            actions = m.argmax(axis=1, out=first)
        _, state["mask"], _, _, _ = batch.step(actions.astype(np.int64, copy=False))
        return n

    steps, took = timed(run, seconds)
    return steps / took


def aec(seconds: float) -> float:
    env = rpz.env(game="ur", rules="finkel")
    rng = np.random.default_rng(0)
    seed = [0]

    def run() -> int:
        env.reset(seed=seed[0])
        seed[0] += 1
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        return steps

    steps, took = timed(run, seconds)
    return steps / took


def gym_env(seconds: float) -> float:
    env = rgym.UrEnv(level=1)
    rng = np.random.default_rng(0)
    seed = [0]

    def run() -> int:
        _, info = env.reset(seed=seed[0])
        seed[0] += 1
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        return steps

    steps, took = timed(run, seconds)
    return steps / took


def spiel_state(seconds: float) -> float:
    rng = np.random.default_rng(0)

    def run() -> int:
        state = rg.State("ur", "finkel")
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps

    steps, took = timed(run, seconds)
    return steps / took


def main() -> None:
    parser = argparse.ArgumentParser(description="race_games speed figures")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--n", type=int, default=4096, help="games in the batch")
    args = parser.parse_args()
    s = args.seconds
    print(f"batched Ur finkel, n={args.n}, random legal actions: {batched(args.n, s):,.0f} steps/s")
    print(f"batched Ur finkel, n={args.n}, first legal action:   {batched(args.n, s, False):,.0f} steps/s")
    print(f"PettingZoo AEC loop, Ur finkel, random legal actions: {aec(s):,.0f} steps/s")
    print(f"Gymnasium UrEnv vs level-1 bot, random legal actions: {gym_env(s):,.0f} agent steps/s")
    print(f"OpenSpiel-shaped State, Ur finkel, random play:       {spiel_state(s):,.0f} actions/s")


if __name__ == "__main__":
    main()
