"""How fast the package plays: prints figures, asserts nothing.

    python crates/python/benches/speed.py [--seconds 3] [--peers [--gym-senet DIR]]

* batched: `race_games.vector.Ur(n, "finkel")` and `vector.Senet(n)`
  stepped with random legal actions drawn in numpy from the batch's flat
  lists of legal actions (see `RandomLegal`; a step is one move chosen,
  lost turns settled inside), in steps a second over all games;
* aec: the PettingZoo AEC loop (`agent_iter`, `last`, `step`) of one game
  with random legal actions, in steps a second;
* gym: `UrEnv` against the level-1 bot, in agent steps a second;
* state: the OpenSpiel-shaped `State` played to the end with random chance
  and player actions, in actions a second (chance and player alike).

With `--peers`, the same run then times the peers that are installed, each
a random legal move a turn with the dice thrown by the library's own means,
and prints each against ours as a ratio: RoyalUr-Python (`royalur` on
PyPI) under finkel, OpenSpiel's backgammon (`open_spiel`), and gym-senet's
Senet under kendall (not on PyPI: `--gym-senet` names a checkout of its
repository). A peer that cannot be imported is skipped with a message.

Each figure is given a second of wall-clock time and a second of the
process's CPU time (the two differ when other work shares the cores), and
the load average is printed before and after.

Run it with the package built in release mode (`maturin develop -r`).
"""

from __future__ import annotations

import os

# One core: numpy's BLAS runs no threads of its own.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import importlib
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

import race_games as rg
from race_games import gym as rgym
from race_games import pettingzoo as rpz
from race_games import vector as rvec


class Rate(NamedTuple):
    """Steps a second of wall-clock time and of the process's CPU time."""

    wall: float
    cpu: float


def timed(run: Callable[[], int], seconds: float) -> Rate:
    """Calls `run` (which returns the steps it made) until `seconds` pass."""
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        steps += run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Rate(steps / wall, steps / max(cpu, 1e-9))


class RandomLegal:
    """Uniformly random legal actions for a batch, drawn in numpy from its
    flat lists of legal actions (`Batch.legal_actions`) into buffers kept
    between calls: a draw `u` in [0, 1) a game picks the `floor(u * k)`-th
    of its `k` legal actions, one random number a game and no pass over
    the masks. A finished game's `k` is 0; any action does for it.
    """

    def __init__(self, n: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.out = np.empty(n, np.int64)
        self.draw = np.empty(n, np.float64)
        self.pick = np.empty(n, np.int64)

    def __call__(self, batch: rvec.Batch) -> npt.NDArray[np.int64]:
        actions, starts, counts = batch.legal_actions()
        self.rng.random(out=self.draw)
        np.multiply(self.draw, counts, out=self.draw)
        np.copyto(self.pick, self.draw, casting="unsafe")
        np.add(self.pick, starts, out=self.pick)
        actions.take(self.pick, out=self.out)
        return self.out


def batched(game: str, n: int, seconds: float, sample: bool = True) -> Rate:
    batch = rvec.Ur(n, "finkel", seed="bench") if game == "ur" else rvec.Senet(n, seed="bench")
    choose = RandomLegal(n, np.random.default_rng(0))
    batch.reset()
    first = np.zeros(n, np.int64)

    def run() -> int:
        if sample:
            actions = choose(batch)
        else:
            # The first legal action of each game: no draw at all.
            legal, starts, _ = batch.legal_actions()
            actions = legal.take(starts, out=first)
        batch.step(actions)
        return n

    return timed(run, seconds)


def aec(seconds: float) -> Rate:
    env = rpz.env(game="ur", rules="finkel")
    # Python's generator: a draw costs a tenth of a numpy one for a
    # single number, and the agent's choice should not be the figure.
    pick = random.Random(0).random
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
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(pick() * len(legal))]))
            steps += 1
        return steps

    return timed(run, seconds)


def gym_env(seconds: float) -> Rate:
    env = rgym.UrEnv(level=1)
    pick = random.Random(0).random
    seed = [0]

    def run() -> int:
        _, info = env.reset(seed=seed[0])
        seed[0] += 1
        steps, done = 0, False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(int(legal[int(pick() * len(legal))]))
            steps += 1
        return steps

    return timed(run, seconds)


def spiel_state(seconds: float) -> Rate:
    rng = random.Random(0)

    def run() -> int:
        state = rg.State("ur", "finkel")
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return timed(run, seconds)


# The peers: each returns (moves, games) a second, a move being one chosen
# by the player (a turn with no move is not counted), or None when the
# library is missing.

Peer = Optional[Tuple[Rate, Rate]]


def games_timed(play: Callable[[], int], seconds: float) -> Tuple[Rate, Rate]:
    """Plays whole games with `play` (which returns its moves) for
    `seconds`: (moves, games) a second."""
    games, moves, start, cpu = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        moves += play()
        games += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Rate(moves / wall, moves / cpu), Rate(games / wall, games / cpu)


def missing(what: str, why: Exception) -> None:
    print(f"skipped {what}: {why}", file=sys.stderr)


def royalur(seconds: float) -> Peer:
    try:
        lib: Any = importlib.import_module("royalur")
    except ImportError as e:
        missing("RoyalUr-Python (pip install RoyalUr==0.0.6)", e)
        return None
    pick = random.Random(0).choice

    def play() -> int:
        game = lib.Game.create_finkel()
        moves = 0
        while not game.is_finished():
            if game.is_waiting_for_roll():
                game.roll_dice()
            else:
                game.make_move(pick(game.find_available_moves()))
                moves += 1
        return moves

    return games_timed(play, seconds)


def backgammon(seconds: float) -> Peer:
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError as e:
        missing("OpenSpiel's backgammon (pip install open_spiel==2.0.2)", e)
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(0)

    def play() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    return games_timed(play, seconds)


def gym_senet(seconds: float, checkout: Optional[Path]) -> Peer:
    if checkout is None:
        missing("gym-senet", FileNotFoundError("no --gym-senet checkout given"))
        return None
    path = checkout / "gym_senet" / "envs" / "senet.py"
    spec = importlib.util.spec_from_file_location("gym_senet_rules", path)
    if spec is None or spec.loader is None or not path.is_file():
        missing("gym-senet", FileNotFoundError(f"no {path}"))
        return None
    # Its rules module alone: the package's __init__ needs the old `gym`.
    lib: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lib)
    senet: Any = lib
    pick = random.Random(0).choice
    # Its dice are numpy's global generator.
    np.random.seed(0)

    def play() -> int:
        game = senet.SenetGame(rules="kendall")
        moves, done = 0, False
        while not done:
            legal = game.legal_moves(senet.Senet.throw_sticks())
            if legal != [senet.Senet.PASS_TURN]:
                moves += 1
            _, _, _, done, _ = game.apply_move(pick(legal))
        return moves

    return games_timed(play, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description="race_games speed figures")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--n", type=int, default=4096, help="games in the batch")
    parser.add_argument("--peers", action="store_true", help="time the installed peers too")
    parser.add_argument("--gym-senet", type=Path, help="a checkout of gym-senet, for --peers")
    args = parser.parse_args()
    s, n = args.seconds, args.n
    ours: Dict[str, Rate] = {}

    def load() -> str:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())

    print(f"{load()}; figures a second of wall-clock time and of CPU time")

    def show(key: str, what: str, rate: Rate, unit: str = "steps") -> None:
        ours[key] = rate
        print(f"{what:<56} {rate.wall:>12,.0f} {unit}/s {rate.cpu:>12,.0f} {unit}/CPU-s")

    show("ur", f"batched Ur finkel, n={n}, random legal actions", batched("ur", n, s))
    show("ur first", f"batched Ur finkel, n={n}, first legal action", batched("ur", n, s, False))
    show("senet", f"batched Senet kendall, n={n}, random legal actions", batched("senet", n, s))
    show("aec", "PettingZoo AEC loop, Ur finkel, random legal actions", aec(s))
    show("gym", "Gymnasium UrEnv vs level-1 bot, random legal actions", gym_env(s), "agent steps")
    show("state", "OpenSpiel-shaped State, Ur finkel, random play", spiel_state(s), "actions")
    if not args.peers:
        print(load())
        return
    peers: List[Tuple[str, Peer, List[str]]] = [
        ("RoyalUr-Python, finkel", royalur(s), ["ur", "aec"]),
        ("OpenSpiel backgammon", backgammon(s), ["ur", "state"]),
        ("gym-senet, kendall", gym_senet(s, args.gym_senet), ["senet"]),
    ]
    for name, figures, against in peers:
        if figures is None:
            continue
        moves, games = figures
        ratios = ", ".join(f"{key} {ours[key].cpu / moves.cpu:,.1f}x" for key in against)
        print(
            f"{name:<30} {moves.wall:>10,.0f} moves/s {moves.cpu:>10,.0f} moves/CPU-s"
            f" {games.cpu:>7,.1f} games/CPU-s   ours (CPU): {ratios}"
        )
    print(load())


if __name__ == "__main__":
    main()
