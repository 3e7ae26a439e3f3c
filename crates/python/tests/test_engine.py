"""The engine API: records replayed as `race replay --json` replays them,
the dice's known answers, refusal codes, the bot's thoughts on the spec's
questions, the solved table, copies and pickles."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import pytest

import race_games as rg
from conftest import ROOT, fixtures

RECORDS = fixtures("royal-ur") + fixtures("senet")
BROKEN = fixtures("royal-ur", broken=True) + fixtures("senet", broken=True)


def test_there_are_fixtures_to_replay() -> None:
    assert len(RECORDS) > 100 and len(BROKEN) > 25


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_record_replays_to_what_race_replay_gives(path: Path, race: Any) -> None:
    want = race("replay", str(path), "--json")
    assert want.pop("ok") is True
    game = rg.replay(path.read_text())
    assert game.view() == want
    again = rg.replay(game.to_record())
    assert again.view() == want


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_broken_record_is_refused_as_race_replay_refuses_it(path: Path, race: Any) -> None:
    # One is a good record of other rules: it is refused read as masters.
    rules = ["--rules", "masters"] if path.stem == "as-masters" else []
    reply = race("replay", str(path), "--json", *rules)
    assert reply["ok"] is False
    want = reply["error"]
    with pytest.raises(rg.ReplayError) as caught:
        rg.replay(path.read_text(), rules=rules[1] if rules else None)
    e = caught.value
    assert (e.code, e.why, e.line, e.ply) == (
        want["code"],
        want["why"],
        want["line"],
        want["ply"],
    )
    # The command line adds a word on its --game option to one message.
    assert want["message"].startswith(e.message)


# The dice's known answers (docs/dice.md): four dice, throws 0, 1, 2 ...
DICE = [
    ("royalur pinned one", "1100 1101 0010 1010 0100 1010 0110 1001"),
    (bytes.fromhex("5f1c9a"), "1001 0000 1100 1111 1100 0111"),
    ("senet example", "1111 1011 0001 0111 0000 1101 0010 0101"),
]


@pytest.mark.parametrize("seed,faces", DICE)
def test_the_dice_give_their_known_answers(seed: Any, faces: str) -> None:
    want = faces.split()
    got = rg.throws(seed, len(want))
    assert [f for f, _ in got] == want
    # Finkel counts the marked dice, a throw of none is 0; Senet's 0 is 5.
    assert [r for _, r in got] == [f.count("1") for f in want]
    senet = rg.throws(seed, len(want), game="senet")
    assert [r for _, r in senet] == [f.count("1") or 5 for f in want]


def test_text_seeds_are_their_utf8_bytes() -> None:
    a = rg.Game("ur", seed="sé")
    b = rg.Game("ur", seed="sé".encode())
    assert a == b and a.to_record() == b.to_record()
    with pytest.raises(rg.SeedError) as e:
        rg.Game("ur", seed="")
    assert e.value.code == "seed"


def unchanged(game: rg.Game) -> Dict[str, Any]:
    return {"view": game.view(), "log": game.log, "legal": game.legal()}


def test_refusals_carry_the_engines_code_and_change_nothing() -> None:
    game = rg.Game("ur", seed="refusals")
    before = unchanged(game)
    for text, code in [("z9-z9", "bad_move"), ("a1-b1", "no_piece")]:
        with pytest.raises(rg.RefusedError) as e:
            game.play(text)
        assert e.value.code == code
        assert unchanged(game) == before
    # A well-formed move the roll does not allow: the rules' own code.
    legal = game.legal_texts()
    wrong = next(m for m in ["hand-a1", "hand-b1", "hand-c1", "hand-d1"] if m not in legal)
    with pytest.raises(rg.RefusedError) as e:
        game.play(wrong)
    assert e.value.code == "wrong_distance"
    with pytest.raises(rg.RefusedError) as e:
        game.play_action(game.action_count)
    assert e.value.code == "bad_action"
    assert unchanged(game) == before
    assert game.undo() is False
    game.resign()
    with pytest.raises(rg.RefusedError) as e:
        game.play(legal[0])
    assert e.value.code == "game_over"
    with pytest.raises(rg.RefusedError) as e:
        game.resign()
    assert e.value.code == "game_over"
    assert game.undo() is True
    assert unchanged(game) == before


def test_rules_games_and_dice_are_checked() -> None:
    with pytest.raises(rg.RulesError) as e:
        rg.Game("chess", seed="s")
    assert e.value.code == "unknown_game"
    with pytest.raises(rg.RulesError) as e:
        rg.Game("ur", "kendall", seed="s")
    assert e.value.code == "unknown_name"
    with pytest.raises(rg.SetupError) as s:
        rg.Game("ur")
    assert s.value.code == "setup"
    with pytest.raises(rg.SetupError) as s:
        rg.Game("ur", rolls=[2, 9], first="light")
    assert s.value.code == "roll"
    with pytest.raises(rg.SetupError) as s:
        rg.Game("ur", rolls=[2])
    assert s.value.code == "first_needed"
    with pytest.raises(rg.SetupError) as s:
        rg.Game("ur", rolls=["011"], first="light")
    assert s.value.code == "faces"
    assert rg.read_rules("ur", "pieces=5 route=long") == rg.Game("ur", "pieces=5 route=long", seed="s").rules
    assert [g["game"] for g in rg.catalogue()["games"]] == ["ur", "senet"]


def test_a_game_from_rolls_plays_them_and_then_has_no_roll() -> None:
    game = rg.Game("ur", rolls=[2, "1010", 0, 3], first="light")
    assert (game.side, game.roll) == ("light", 2)
    game.play("hand-c1")
    assert (game.side, game.roll, game.faces) == ("dark", 2, "1010")
    game.play(game.legal()[0])
    # Light's 0 is a lost turn; dark throws the 3.
    assert [e.move for e in game.forfeits_since(0)] == [None]
    assert (game.side, game.roll) == ("dark", 3)
    game.play(game.legal()[0])
    assert game.roll is None and game.legal() == [] and not game.over
    with pytest.raises(rg.RefusedError) as e:
        game.play("hand-c1")
    assert e.value.code == "no_roll"
    again = rg.replay(game.to_record())
    assert [e.move for e in again.log] == [e.move for e in game.log]


def test_moves_are_text_objects_or_actions() -> None:
    game = rg.Game("senet", seed="moves")
    for _ in range(30):
        if game.over:
            break
        moves = game.legal()
        assert [m.text for m in moves] == game.legal_texts()
        assert [m.action for m in moves] == game.legal_actions()
        assert list(game.action_mask().nonzero()[0]) == sorted(game.legal_actions())
        assert game.observation().shape == (64,)
        mv = moves[-1]
        twin = game.copy()
        assert twin.play(mv.text) == mv
        twin2 = game.copy()
        twin2.play_action(mv.action)
        assert game.play(mv) == mv
        assert twin == game == twin2


def test_undo_goes_back_to_the_last_choice_lost_turns_and_all() -> None:
    game = rg.Game("ur", seed="undo")
    seen = [game.view()]
    while not game.over and game.ply < 60:
        game.play(game.legal()[0])
        seen.append(game.view())
    while game.undo():
        seen.pop()
        assert game.view() == seen[-1]
    assert len(seen) == 1


def test_copies_and_pickles_play_on_alike() -> None:
    for game in [
        rg.Game("ur", "masters", seed=b"\x00\xffpickle"),
        rg.Game("senet", "skyruk", seed="pickle", first="dark"),
        rg.Game("ur", rolls=[1, 2, 3, 4, 0, 1, 2], first="dark"),
    ]:
        for _ in range(3):
            if game.legal():
                game.play(game.legal()[0])
        for twin in [game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))]:
            assert twin == game
            if twin.legal():
                twin.play(twin.legal()[-1])
                assert twin != game
        game.resign("light")
        back = pickle.loads(pickle.dumps(game))
        assert back == game and back.result == game.result
        assert back.result is not None and back.result.winner == "dark"


def questions() -> List[Any]:
    text = (ROOT / "crates" / "games" / "tests" / "data" / "questions.txt").read_text()
    cases = []
    for case in filter(None, text.split("? ")):
        lines = case.splitlines()
        game, rules, position, roll = lines[0].split("|")
        bots = {
            int(line.split()[1]): json.loads(line.split(" ", 2)[2])
            for line in lines
            if line.startswith("bot ")
        }
        moves = json.loads(next(l for l in lines if l.startswith("moves "))[6:])
        cases.append((game, rules or None, position, int(roll), moves, bots))
    return cases


QUESTIONS = questions()


def test_the_questions_are_there() -> None:
    assert len(QUESTIONS) == 10


@pytest.mark.parametrize("game,rules,position,roll,moves,bots", QUESTIONS)
def test_the_bot_thinks_as_race_bot_does(
    game: str, rules: Optional[str], position: str, roll: int, moves: Any, bots: Any
) -> None:
    start = position or rg.Game(game, rules, rolls=[roll], first="light").position
    for level, want in bots.items():
        bot = rg.Bot(level, game=game, rules=rules)
        thought = bot.think_at(start, roll)
        assert thought is not None
        want = dict(want)
        assert want.pop("ok") is True
        got = {k: v for k, v in vars(thought).items() if v is not None or k in want}
        assert got == want
    assert rg.Bot(2, game=game, rules=rules).think_at(start, roll) == rg.Bot(2, game=game, rules=rules).think_at(start, roll)


def test_a_bot_refuses_what_it_cannot_do() -> None:
    with pytest.raises(rg.BotError) as e:
        rg.Bot("perfect")
    assert e.value.code == "no_table"
    with pytest.raises(rg.BotError) as e:
        rg.Bot("perfect", game="senet")
    assert e.value.code == "no_perfect"
    with pytest.raises(rg.BotError) as e:
        rg.Bot("05")
    assert e.value.code == "level"
    with pytest.raises(rg.BotError) as e:
        rg.Bot(2).choose(rg.Game("senet", seed="s"))
    assert e.value.code == "wrong_game"
    with pytest.raises(rg.PositionError) as p:
        rg.Bot(2).think_at("nonsense", 2)
    assert p.value.code.startswith("POS_")
    with pytest.raises(rg.PositionError) as p:
        rg.Bot(2).think_at(rg.Game("ur", seed="s").position, 9)
    assert p.value.code == "roll"
    assert rg.Bot(9).level == "4" and rg.Bot("top", game="senet").level == "4"


def test_the_two_piece_finkel_table_gives_its_value(finkel2p_table: Path) -> None:
    table = rg.Table(finkel2p_table)
    game = rg.Game("ur", table.rules, seed="table", first="light")
    start = rg.Game("ur", table.rules, rolls=[1], first="light").position
    assert round(table.win_chance(start) * 100, 10) == 51.8572907497
    bot = rg.Bot("perfect", table=table)
    assert bot.level == "perfect"
    while not game.over:
        mv = bot.choose(game)
        assert mv is not None
        best = table.best(game.position, game.roll or 0)
        assert best is not None and best.move == mv.text and best.level == "perfect"
        game.play(mv)
    analysis = table.analyse(game)
    assert len(analysis["turns"]) == game.ply
    assert analysis["light"]["mistakes"] == 0 == analysis["dark"]["mistakes"]
    assert table.analyse(game.to_record()) == analysis
    with pytest.raises(rg.BotError) as e:
        table.analyse(rg.Game("ur", seed="other rules"))
    assert e.value.code == "no_table"
    with pytest.raises(rg.BotError) as e:
        rg.Table(finkel2p_table.parent / "none.table")
    assert e.value.code


@pytest.mark.parametrize("game", ["ur", "senet"])
def test_play_turn_is_play_action_then_the_turn(game: str) -> None:
    one, other = rg.Game(game, seed="turns"), rg.Game(game, seed="turns")
    while not one.over:
        side, obs, mask = one.turn()
        assert side == one.side and mask.dtype == np.int8
        assert np.array_equal(obs, one.observation()) and np.array_equal(mask, one.action_mask())
        with pytest.raises(rg.RefusedError) as e:
            one.play_turn(99)
        assert e.value.code == "bad_action" and one == other
        action = one.legal_actions()[-1]
        other.play_action(action)
        side, obs, mask = one.play_turn(action)
        assert one == other and side == other.side
        assert np.array_equal(obs, other.observation())
        assert np.array_equal(mask, other.action_mask().astype(np.int8))
    assert side is None and not mask.any()
    with pytest.raises(rg.RefusedError) as e:
        one.play_turn(0)
    assert e.value.code == "game_over"
