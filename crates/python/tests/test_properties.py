"""Property tests: random play under every named rule set keeps the
engine's invariants, and batched games are single games replayed from
their seeds."""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import race_games as rg
from race_games import vector as rvec

PRESETS: List[Tuple[str, str]] = [
    (g["game"], p["name"]) for g in rg.catalogue()["games"] for p in g["named"]
]


def test_there_are_presets_of_both_games() -> None:
    assert {g for g, _ in PRESETS} == {"ur", "senet"} and len(PRESETS) >= 4


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.text(min_size=1, max_size=12),
    picks=st.lists(st.integers(0, 15), min_size=1, max_size=300),
)
def test_random_play_keeps_the_invariants(preset: Tuple[str, str], seed: str, picks: List[int]) -> None:
    game, rules = preset
    g = rg.Game(game, rules, seed=seed)
    state = rg.State(game, rules)
    assert state.rules == g.rules
    for n, pick in enumerate(picks):
        if g.over:
            break
        legal = g.legal()
        mask = g.action_mask()
        # The legal moves, their actions and the mask agree.
        assert legal and sorted(m.action for m in legal) == list(np.flatnonzero(mask))
        assert len({m.action for m in legal}) == len(legal)
        obs = g.observation()
        assert obs.dtype == np.float32 and ((obs >= 0) & (obs <= 1)).all()
        before = (g.ply, g.position)
        move = legal[pick % len(legal)]
        if n % 7 == 3:
            # Undo takes back exactly the move and the turns lost after it.
            g.play(move)
            assert g.undo() and (g.ply, g.position) == before
        g.play(move)
        assert g.ply > before[0]
    # A replay of the record is the same game.
    assert rg.replay(g.to_record()).view() == g.view()


@settings(max_examples=15, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    n=st.integers(1, 6),
    steps=st.integers(1, 250),
)
def test_batched_games_equal_single_games_from_their_seeds(
    preset: Tuple[str, str], seed: int, n: int, steps: int
) -> None:
    game, rules = preset
    batch = rvec.Batch(game, n, rules, seed)
    rng = np.random.default_rng(seed)
    obs, mask, side = batch.reset()
    singles = [rg.Game(game, rules, seed=f"{seed}:{i}:0") for i in range(n)]
    episode = [0] * n
    for _ in range(steps):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)
        obs, mask, reward, term, side = batch.step(actions)
        for i, single in enumerate(singles):
            if single.over:
                # The slot starts its next game.
                episode[i] += 1
                singles[i] = single = rg.Game(game, rules, seed=f"{seed}:{i}:{episode[i]}")
            else:
                single.play_action(int(actions[i]))
            assert np.array_equal(obs[i], single.observation())
            assert np.array_equal(mask[i], single.action_mask())
            assert bool(term[i]) == single.over
            want_side = {"light": 0, "dark": 1, None: -1}[single.side]
            assert side[i] == want_side
    assert list(batch.episodes()) == episode
