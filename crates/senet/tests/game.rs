//! The Game-level API: turns, seats, lost turns, refusals, undo, records.

use dice_core::{Dice, Ending, Faces, ScriptRoll, Seed, Setup, Side};
use senet::{Game, GameExt, House, Position, Seat, Variant, script};

const K: Variant = Variant::KENDALL;
const S: Variant = Variant::SKYRUK;

#[test]
fn known_sticks_from_the_shared_seed() {
    // dice.md: "senet example" gives 1111 1011 0001 0111 0000 ...
    let game = Game::seeded(Seed::new("senet example").unwrap(), K).unwrap();
    assert_eq!(game.faces().unwrap().to_string(), "1111");
    assert_eq!(game.marked(), Some(4));
    assert_eq!(game.roll(), Some(4));
    let turn = game.turn().unwrap();
    assert_eq!(
        (turn.side, turn.segment, turn.bound, turn.extra),
        (Side::Light, 1, None, true)
    );
    assert_eq!(game.rules_revision(), 1);
    let rolls: Vec<(u8, u16)> = game.chances().iter().map(|c| (c.roll, c.weight)).collect();
    assert_eq!(rolls, [(1, 4), (2, 6), (3, 4), (4, 1), (5, 1)]);
}

#[test]
fn a_roll_of_five_is_a_throw_of_none() {
    let seed = Seed::new("senet example").unwrap();
    let faces: Vec<String> = (0..8)
        .map(|n| Faces::thrown(&seed, n, 4).to_string())
        .collect();
    assert_eq!(
        faces,
        [
            "1111", "1011", "0001", "0111", "0000", "1101", "0010", "0101"
        ]
    );
    let mut game = Game::seeded(seed, K).unwrap();
    // throws 0..3 are rolls 4, 3, 1, 3; throw 4 (0000) is a roll of 5
    let mut rolls = vec![game.roll().unwrap()];
    while game.throws() < 5 {
        let mv = game.legal()[0];
        game.play(mv).unwrap();
        rolls.push(game.roll().unwrap());
    }
    assert_eq!(rolls, [4, 3, 1, 3, 5]);
    assert_eq!(game.marked(), Some(0));
}

#[test]
fn turns_segments_and_sides() {
    // light: 4 (again), 3 (pass); dark: 2 (pass); light: 1
    let mut game = Game::new(Setup::new(script(&[4, 3, 2, 1]), K)).unwrap();
    assert_eq!(game.turn().unwrap().segment, 1);
    game.play_text("10-14").unwrap();
    let t = game.turn().unwrap();
    assert_eq!((t.side, t.segment, t.extra), (Side::Light, 2, false));
    game.play_text("8-11").unwrap();
    let t = game.turn().unwrap();
    assert_eq!((t.side, t.segment), (Side::Dark, 1));
    game.play_text("9-11").unwrap();
    assert_eq!(game.turn().unwrap().side, Side::Light);
    assert!(game.log()[0].flags.again && !game.log()[1].flags.again);
    // dark swapped light's 11 back to 9
    assert_eq!(game.at(House::new(9).unwrap()), Some(Side::Light));
    assert!(game.log()[2].flags.swap);
}

#[test]
fn dark_first() {
    let game = Game::new(Setup::new(script(&[3]), K).with_first(Side::Dark)).unwrap();
    assert_eq!(game.side(), Some(Side::Dark));
    assert_eq!(
        game.position().to_string(),
        "dldldldldl/........../.......... d"
    );
    assert_eq!(
        game.to_record().to_string().lines().nth(1),
        Some("[first dark]")
    );
}

#[test]
fn skyruk_water_stays_on_five_and_the_lost_turn_throws_again() {
    // light's only piece stands in the water; a 5 gives it nothing: a lost
    // turn, and 5 keeps the sticks, so light throws again: a 4 bears it off
    let p = Position::parse("d........./........../......l... l").unwrap();
    let mut game = Game::new(Setup::new(script(&[5, 4]), S).with_position(p)).unwrap();
    assert_eq!(game.log().len(), 1);
    assert!(game.log()[0].mv.is_none() && game.log()[0].flags.again);
    assert_eq!(game.forfeits_since(0).len(), 1);
    assert_eq!(game.turn().unwrap().segment, 2);
    assert_eq!(
        game.legal()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["27-off"]
    );
    game.play_text("27-off").unwrap();
    let result = game.result().unwrap();
    assert_eq!(
        (result.winner, result.how),
        (Some(Side::Light), Ending::Home)
    );
    // a lost turn on a 2 passes the sticks: 28 leaves only on a 3
    let p = Position::parse("d........./........../.......l.. l").unwrap();
    let game = Game::new(Setup::new(script(&[2, 1]), S).with_position(p)).unwrap();
    assert_eq!(game.log().len(), 1);
    assert!(!game.log()[0].flags.again);
    assert_eq!(game.side(), Some(Side::Dark));
}

#[test]
fn skyruk_bound_throw_in_a_game() {
    // 25-26 on a 2 keeps the sticks; the next throw is bound to 26
    let p = Position::parse("d...l...../........../....l..... l").unwrap();
    let mut game = Game::new(Setup::new(script(&[2, 3, 2]), S).with_position(p)).unwrap();
    assert_eq!(
        game.legal()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["5-7", "25-26"]
    );
    game.play_text("25-26").unwrap();
    let t = game.turn().unwrap();
    assert_eq!(
        (t.side, t.segment, t.bound),
        (Side::Light, 2, Some(House::HAPPINESS))
    );
    assert_eq!(game.key().bits() >> 61 & 1, 1);
    assert_eq!(game.play_text("5-8").unwrap_err().code(), "bound");
    game.play_text("26-29").unwrap();
    assert_eq!(game.side(), Some(Side::Dark));
    // the record's side check knows that reaching 26 keeps the sticks
    let record = game.to_record().to_string();
    assert!(
        record.contains("1. l 2: 25-26\n2. l 3: 26-29\n"),
        "{record}"
    );
}

#[test]
fn seats() {
    let setup = Setup::new(Dice::Seeded(Seed::new("seats").unwrap()), K).with_extra(Seat::P2);
    let mut game = Game::new(setup).unwrap();
    assert_eq!(game.side_of(Seat::P1), Side::Dark);
    assert_eq!(game.side_of(Seat::P2), Side::Light);
    assert_eq!(game.seat_of(Side::Light), Seat::P2);
    let mv = game.legal()[0];
    game.play(mv).unwrap();
    let text = game.to_record().to_string();
    assert!(text.contains("\n[light p2]\n"), "{text}");
    let again = Game::replay_text(&text, None).unwrap();
    assert_eq!(again.extra(), &Seat::P2);
    let plain = Game::seeded(Seed::new("seats").unwrap(), K).unwrap();
    assert_eq!(plain.side_of(Seat::P1), Side::Light);
    assert!(!plain.to_record().to_string().contains("[light"));
}

#[test]
fn refusals_change_nothing() {
    let mut game = Game::new(Setup::new(script(&[3, 2]), K)).unwrap();
    let before = game.clone();
    for (text, code) in [
        ("", "bad_move"),
        ("10", "bad_move"),
        ("10-x", "bad_move"),
        ("12-15", "no_piece"),
        ("9-12", "not_your_piece"),
        ("10-12", "wrong_distance"),
        ("8-5", "backward_not_allowed"),
    ] {
        assert_eq!(game.play_text(text).unwrap_err().code(), code, "{text}");
        assert_eq!(game, before);
    }
    // no roll once the script has run out
    game.play_text("10-13").unwrap();
    game.play_text("9-11").unwrap();
    assert_eq!(game.roll(), None);
    assert_eq!(game.play_text("2-3").unwrap_err().code(), "no_roll");
    // game over
    game.resign(None).unwrap();
    assert_eq!(game.play_text("2-3").unwrap_err().code(), "game_over");
}

#[test]
fn houses_outside_the_board_are_refused() {
    let game = Game::seeded(Seed::new("x").unwrap(), K).unwrap();
    for n in [0, 31, 255] {
        assert_eq!(House::new(n), None);
        assert_eq!(n.to_string().parse::<House>().unwrap_err().code(), "house");
    }
    let first = House::new(1).unwrap();
    assert_eq!(game.at(first), Some(Side::Dark));
    assert!(!game.protected(first) && !game.in_blockade(first));
    assert_eq!(game.home(Side::Light), 0);
}

#[test]
fn undo_and_resign() {
    let mut game = Game::new(Setup::new(script(&[3, 2, 4]), K)).unwrap();
    let start = game.clone();
    game.play_text("10-13").unwrap();
    assert!(game.resign(Some(Side::Dark)).is_ok());
    assert_eq!(game.result().unwrap().winner, Some(Side::Light));
    assert!(game.undo().is_ok(), "undo takes the resignation back first");
    assert!(!game.is_over());
    assert!(game.undo().is_ok());
    assert_eq!(game, start);
    assert!(game.undo().is_err());
}

#[test]
fn a_seedless_record_replays_and_stops_with_no_roll() {
    let text = "[rules kendall]\n[first light]\n1. l 3 1110: 10-13\n2. d 2: 9-11\n";
    let game = Game::replay_text(text, None).unwrap();
    assert_eq!(game.roll(), None);
    assert_eq!(game.to_record().to_string(), text);
    // under another rule set by override
    let sky = Game::replay_text(text, Some(S)).unwrap();
    assert_eq!(sky.variant(), &S);
}

#[test]
fn a_scripted_game_keeps_its_sticks() {
    let rolls = vec![ScriptRoll::with_faces(5, "0000".parse().unwrap())];
    let game = Game::new(Setup::new(Dice::Script(rolls), K)).unwrap();
    assert_eq!(game.marked(), Some(0));
    assert_eq!(game.roll(), Some(5));
}

#[test]
fn inconsistent_positions_are_refused() {
    // dark on 26 with light to move under skyruk: accepted as text, not consistent
    let p = Position::parse("d........./........../.....d.... l").unwrap();
    assert_eq!(p.check(&S).unwrap_err().code(), "on26");
    let err = Game::new(Setup::new(script(&[1]), S).with_position(p)).unwrap_err();
    assert_eq!(err.code(), "inconsistent");
}

#[test]
fn the_ply_cap_draws() {
    // light's only piece on 28 leaves on a 3, dark's on 29 on a 2: a run of
    // 4s is lost turn after lost turn, each keeping the sticks
    let p = Position::parse("........../........../.......ld. l").unwrap();
    let game = Game::new(Setup::new(script(&[4; 15_100]), K).with_position(p)).unwrap();
    let result = game.result().unwrap();
    assert_eq!(
        (result.winner, result.how, result.plies),
        (None, Ending::PlyCap, dice_core::PLY_CAP)
    );
    assert!(
        game.log()
            .iter()
            .all(|e| e.mv.is_none() && e.side == Side::Light)
    );
}

#[test]
fn bots_answer_the_same_question_the_same_way() {
    use senet::Bot;
    let seed = Seed::new("bot determinism").unwrap();
    for level in 1..=4 {
        let bot = Bot::new(Some(level), None).unwrap();
        let mut game = Game::seeded(seed.clone(), S).unwrap();
        for _ in 0..40 {
            if game.is_over() {
                break;
            }
            let a = bot
                .think(game.variant(), game.position(), game.roll().unwrap())
                .unwrap();
            let b = bot
                .think(game.variant(), game.position(), game.roll().unwrap())
                .unwrap();
            assert_eq!(a, b);
            assert_eq!(game.legal()[a.index], a.mv);
            assert!(a.depth < u32::from(bot.level()));
            game.play(a.mv).unwrap();
        }
    }
    // a tiny budget still answers, from a shallower search
    let game = Game::seeded(seed, K).unwrap();
    let t = Bot::new(Some(4), Some(1))
        .unwrap()
        .think(game.variant(), game.position(), game.roll().unwrap())
        .unwrap();
    assert!(game.legal().contains(&t.mv));
    assert_eq!(t.depth, 1);
}

#[test]
fn a_bot_above_the_top_plays_the_top() {
    use senet::{Bot, LEVEL_TOP};
    let game = Game::seeded(Seed::new("above the top").unwrap(), S).unwrap();
    let top = Bot::new(Some(LEVEL_TOP), None).unwrap();
    for level in [5, 9, 99] {
        let bot = Bot::new(Some(level), None).unwrap();
        assert_eq!(bot.level(), LEVEL_TOP);
        assert_eq!(bot, top);
        let thought = bot
            .think(game.variant(), game.position(), game.roll().unwrap())
            .unwrap();
        assert_eq!(thought.level, LEVEL_TOP);
    }
    for level in [0, 100, 255] {
        assert_eq!(
            Bot::new(Some(level), None).unwrap_err().code(),
            "level",
            "{level}"
        );
    }
}
