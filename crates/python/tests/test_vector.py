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


@pytest.mark.parametrize("game", ["ur", "senet"])
def test_a_batch_refuses_exactly_the_actions_its_masks_leave_out(game: str) -> None:
    batch = rvec.Batch(game, 3, seed=11)
    _, mask, _ = batch.reset()
    mask = mask.copy()
    before = [batch.game_at(i) for i in range(3)]
    legal = mask.argmax(axis=1).astype(np.int64)
    for action in [-1, *range(batch.action_count), 63, 64, 65, 2**33, 2**62]:
        actions = legal.copy()
        actions[1] = action
        allowed = 0 <= action < batch.action_count and bool(mask[1, action])
        if allowed:
            continue
        with pytest.raises(rg.RefusedError) as e:
            batch.step(actions)
        assert e.value.code == "bad_action" and "game 1" in e.value.message
        assert [batch.game_at(i) for i in range(3)] == before
    # Each legal action of slot 1 is taken, and plays what a single game does.
    for action in np.flatnonzero(mask[1]):
        again = rvec.Batch(game, 3, seed=11)
        actions = legal.copy()
        actions[1] = action
        again.step(actions)
        single = rg.Game(game, batch.rules, seed="11:1:0")
        single.play_action(int(action))
        assert again.game_at(1) == single


PRESETS = [(g["game"], p["name"]) for g in rg.catalogue()["games"] for p in g["named"]]


@pytest.mark.parametrize("game,rules", PRESETS)
def test_the_flat_lists_hold_each_game_s_legal_actions_under_every_preset(
    game: str, rules: str
) -> None:
    n = 5
    batch = rvec.Batch(game, n, rules, seed="lists")
    rng = np.random.default_rng(7)
    singles = [rg.Game(game, rules, seed=f"lists:{i}:0") for i in range(n)]
    episode = [0] * n
    obs, mask, _ = batch.reset()
    over = 0
    for _ in range(400):
        actions, starts, counts = batch.legal_actions()
        assert len(actions) >= int(starts[-1] + counts[-1])
        for i, single in enumerate(singles):
            listed = actions[starts[i] : starts[i] + counts[i]]
            assert list(listed) == single.legal_actions()
            assert list(listed) == list(np.flatnonzero(mask[i]))
            assert np.array_equal(obs[i], single.observation())
        # One uniform number a game picks from its list; a finished game's
        # count is 0, and any action does for it.
        picked = actions[starts + (rng.random(n) * counts).astype(np.int64)]
        obs, mask, _, term, _ = batch.step(picked)
        for i, single in enumerate(singles):
            if single.over:
                episode[i] += 1
                singles[i] = rg.Game(game, rules, seed=f"lists:{i}:{episode[i]}")
            else:
                single.play_action(int(picked[i]))
        over += int(term.sum())
    assert list(batch.episodes()) == episode
    assert over > 0, "some game ends, so that a new one starts in its slot"
    # Each slot's game replays from its actions, its earlier games' gone.
    assert [batch.game_at(i) for i in range(n)] == singles


def test_a_finished_game_takes_any_action_and_starts_the_next() -> None:
    batch = rvec.Ur(2, rules="finkel2p", seed=3)
    _, mask, _ = batch.reset()
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        _, mask, _, terminated, side = batch.step(random_actions(rng, mask))
        if terminated.any():
            break
    assert terminated.any(), "a two-piece game ends within 10,000 steps"
    over = int(np.flatnonzero(terminated)[0])
    assert side[over] == -1 and not mask[over].any()
    actions = random_actions(rng, mask)
    actions[over] = 99
    batch.step(actions)
    assert batch.episodes()[over] == 1
    assert batch.game_at(over) == rg.Game("ur", "finkel2p", seed=f"3:{over}:1")


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


def test_a_step_writes_over_the_arrays_of_the_last_and_a_refusal_keeps_them() -> None:
    batch = rvec.Ur(6, seed="views")
    _, mask, _ = batch.reset()
    actions = mask.argmax(axis=1).astype(np.int64)
    obs, mask, reward, term, side = batch.step(actions)
    kept = [a.copy() for a in (obs, mask, reward, term, side)]
    actions = mask.argmax(axis=1).astype(np.int64)
    later = batch.step(actions)
    for old, new, copy in zip((obs, mask, reward, term, side), later, kept):
        assert np.shares_memory(old, new), "one set of arrays, written in place"
        assert np.array_equal(old, new)
    assert not np.array_equal(kept[0], later[0]), "the copy kept the last step's numbers"
    for i in range(6):
        assert np.array_equal(batch.game_at(i).observation(), later[0][i])
    # Reshaping a view changes nothing the batch writes.
    later[0].shape = (6 * 66,)
    bad = later[1].argmax(axis=1).astype(np.int64)
    bad[0] = 99
    before = [a.copy() for a in batch.observe()]
    with pytest.raises(rg.RefusedError):
        batch.step(bad)
    assert all(np.array_equal(a, b) for a, b in zip(before, batch.observe()))
    # Actions strided in memory are read as well as contiguous ones.
    strided = np.repeat(later[1].argmax(axis=1).astype(np.int64), 2)[::2]
    assert batch.step(strided)[0].shape == (6, 66)
    assert all(batch.game_at(i).ply > 0 for i in range(6))
