"""The batched games: single games replayed from their seeds, refusals,
and the Gymnasium vector environment over them."""

from __future__ import annotations

from typing import List

import numpy as np
import pytest

import race_games as rg
from race_games import vector as rvec


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("game", ["ur", "senet"])
def test_batched_games_are_single_games_replayed_from_their_seeds(game: str) -> None:
    batch = rvec.Batch(game, 8, None, "batch")
    rng = np.random.default_rng(0)
    obs, mask, side = batch.reset()
    moves: List[List[int]] = [[] for _ in range(8)]
    ended = np.zeros(8, bool)
    for _ in range(400):
        actions = random_actions(rng, mask)
        for i in range(8):
            if not ended[i]:
                moves[i].append(int(actions[i]))
        obs, mask, reward, term, side = batch.step(actions)
        assert (reward[~term] == 0).all() and (reward[term] == 1).all()
        ended |= term
    assert ended.any(), "some game ended"
    for i in range(8):
        single = rg.Game(game, seed=f"batch:{i}:0")
        for a in moves[i]:
            single.play_action(a)
        if not ended[i]:
            assert single == batch.game_at(i)
            assert np.array_equal(single.observation(), obs[i])
            assert np.array_equal(single.action_mask(), mask[i])
        else:
            assert single.over
    # An ended game's slot starts its next game on the next step.
    episodes = batch.episodes()
    assert (episodes[ended] >= 1).all() and (episodes[~ended] == 0).all()


def test_a_bad_batch_action_moves_no_game() -> None:
    batch = rvec.Ur(4, seed=5)
    obs, mask, side = batch.reset()
    before = [batch.game_at(i) for i in range(4)]
    actions = mask.argmax(axis=1).astype(np.int64)
    actions[2] = 99
    with pytest.raises(rg.RefusedError) as e:
        batch.step(actions)
    assert e.value.code == "bad_action" and "game 2" in e.value.message
    assert [batch.game_at(i) for i in range(4)] == before
    with pytest.raises(rg.RefusedError):
        batch.step(actions[:3])
    with pytest.raises(rg.SetupError):
        rvec.Ur(0)


def test_the_vector_env_is_a_gymnasium_vector_env() -> None:
    env = rvec.VectorEnv("ur", 4, seed="v")
    obs, info = env.reset()
    assert obs.shape == (4, 66) and env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    for _ in range(300):
        actions = random_actions(rng, info["action_mask"])
        obs, reward, term, trunc, info = env.step(actions)
        assert obs.dtype == np.float32 and reward.shape == (4,) and not trunc.any()
        assert ((info["side"] == -1) == term).all()
