//! The game facade: dice, opening, refusals, undo, records, and a property
//! test over thousands of seeded games.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::Xorshift;
use dice_core::{Dice, Ending, NewGameError, PlayError, ScriptRoll, Seed, Setup, Side, Status};
use royal_ur::{
    Game, GameExt, Move, Position, Square, Ur, Variant, display_entry, game_from_position,
};

fn seed(text: &str) -> Seed {
    Seed::new(text).unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn the_opening_is_thrown_by_marked_counts_and_kept() {
    // Throws of "royalur pinned one": 1100 1101 0010 ... Light marks 2, dark
    // 3, so dark moves first after two throws, and throw 2 (0010) rolls 1.
    let game = Game::seeded(seed("royalur pinned one"), Variant::FINKEL).unwrap();
    assert_eq!(game.first(), Side::Dark);
    let opening: Vec<String> = game.opening().iter().map(ToString::to_string).collect();
    assert_eq!(opening, ["1100", "1101"]);
    assert_eq!(game.side(), Some(Side::Dark));
    assert_eq!(game.roll(), Some(1));
    assert_eq!(game.faces().map(|f| f.to_string()).as_deref(), Some("0010"));
    assert_eq!(game.throws(), 3);
    assert_eq!(
        game.legal().iter().map(Move::to_string).collect::<Vec<_>>(),
        ["hand-d3"]
    );
    assert!(game.to_record().to_string().contains("[opening 2]\n"));

    // Hex 5f1c9a: 1001 against 0000, light first; throw 2 is 1100, a roll of 2.
    let game = Game::seeded(Seed::from_hex("5f1c9a").unwrap(), Variant::FINKEL).unwrap();
    assert_eq!(game.first(), Side::Light);
    assert_eq!(game.roll(), Some(2));
    assert_eq!(
        game.legal().iter().map(Move::to_string).collect::<Vec<_>>(),
        ["hand-c1"]
    );

    // Three dice are the first three of four: 100 against 000 under masters.
    let game = Game::seeded(Seed::from_hex("5f1c9a").unwrap(), Variant::MASTERS).unwrap();
    assert_eq!(game.first(), Side::Light);
    assert_eq!(
        game.opening()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["100", "000"]
    );
    assert_eq!(game.roll(), Some(2));
}

#[test]
fn a_given_first_side_means_no_opening() {
    let setup = Setup::<Ur>::new(Dice::Seeded(seed("royalur pinned one")), Variant::FINKEL)
        .with_first(Side::Light);
    let game = Game::new(setup).unwrap();
    assert!(game.opening().is_empty());
    assert_eq!(game.first(), Side::Light);
    // Throw 0 is 1100, a roll of 2.
    assert_eq!(game.roll(), Some(2));
    assert!(!game.to_record().to_string().contains("[opening"));
}

#[test]
fn games_from_positions_and_scripts_refuse_bad_set_ups_with_typed_errors() {
    let dice = || Dice::Seeded(seed("p"));
    let err = game_from_position(dice(), Variant::FINKEL, "8/8/8 l 7 0 7 0", None).unwrap_err();
    assert_eq!(err.code(), "POS_GAP");
    let err =
        game_from_position(dice(), Variant::FINKEL, "4xx2/8/4xx2 l 5 0 5 0", None).unwrap_err();
    assert_eq!(err.code(), "inconsistent");
    let five = Variant::FINKEL.with_pieces(5).unwrap();
    let game = game_from_position(dice(), five, "4xx2/8/4xx2 d 5 0 5 0", None).unwrap();
    assert_eq!(game.first(), Side::Dark);
    let game =
        game_from_position(dice(), five, "4xx2/8/4xx2 d 5 0 5 0", Some(Side::Light)).unwrap();
    assert_eq!(game.first(), Side::Light);
    let script = Dice::Script(vec![ScriptRoll::new(3)]);
    let err = Game::new(Setup::new(script, Variant::FINKEL)).unwrap_err();
    assert_eq!(err, NewGameError::FirstNeeded);
}

#[test]
fn every_refusal_code_is_reached_through_the_game_and_changes_nothing() {
    let script = |rolls: &[u8]| Dice::Script(rolls.iter().map(|&r| ScriptRoll::new(r)).collect());
    // Light: c1 (2), a1 (4), b2 (6), four in hand; dark: c2, d2. Roll 3.
    let mut game = game_from_position(
        script(&[3]),
        Variant::FINKEL,
        "4xx2/1ldd4/l1l1xx2 l 4 0 5 0",
        None,
    )
    .unwrap();
    assert_eq!(game.roll(), Some(3));
    let cases = [
        ("hand-a2", "wrong_distance"),
        ("d1-c1", "no_piece"),
        ("c2-e2", "not_your_piece"),
        ("c1-a1", "wrong_distance"),
        ("b1-", "bad_move"),
        ("HAND", "bad_move"),
        ("", "bad_move"),
    ];
    for (text, code) in cases {
        let before = game.clone();
        let err = game.play_text(text).unwrap_err();
        assert_eq!(err.code(), code, "{text}");
        assert_eq!(game, before, "{text} changed the game");
    }
    // The script's only roll is used: no roll is left after the move.
    game.play_text("A1-C2").unwrap();
    let before = game.clone();
    assert_eq!(game.play_text("hand-d3").unwrap_err().code(), "no_roll");
    assert_eq!(game, before);
    // A roll of 2 allows nothing here: the game loses the turn by itself.
    let lost = game_from_position(
        script(&[2]),
        Variant::FINKEL,
        "4xx2/1ldd4/l1l1xx2 l 4 0 5 0",
        None,
    )
    .unwrap();
    assert_eq!(lost.log().len(), 1);
    assert_eq!(lost.forfeits_since(0).len(), 1);
    assert_eq!(lost.side(), Some(Side::Dark));
    // game_over after a resignation.
    let mut over = Game::seeded(seed("over"), Variant::FINKEL).unwrap();
    assert!(over.resign(None).is_ok());
    assert!(over.resign(None).is_err());
    let before = over.clone();
    assert_eq!(over.play_text("hand-a1").unwrap_err().code(), "game_over");
    assert_eq!(over, before);
}

#[test]
fn own_piece_safe_rosette_and_overshoot_through_the_game() {
    let script = |rolls: &[u8]| Dice::Script(rolls.iter().map(|&r| ScriptRoll::new(r)).collect());
    // Light on c1 (2), a1 (4), b2 (6), d1... roll 1 leaves hand-d1 legal.
    let mut game = game_from_position(
        script(&[1]),
        Variant::FINKEL,
        "4xx2/1ldd4/l1l1xx2 l 4 0 5 0",
        None,
    )
    .unwrap();
    assert_eq!(
        game.play_text("hand-d1")
            .map(|m| m.to_string())
            .ok()
            .as_deref(),
        Some("hand-d1")
    );
    // With roll 2 the board blocks everything; use a roll of 2 from a
    // position where light also has a free move.
    let pos = "4xx2/1ldd4/l1l2xx2 l 4 0 5 0";
    assert!(Position::parse(pos).is_err());
    let pos = "4xx2/1ldd4/l1llxx2 l 3 0 5 0";
    let mut game = game_from_position(script(&[2]), Variant::FINKEL, pos, None).unwrap();
    // d1 (1) -> b1 (3) is free.
    assert_eq!(
        game.legal().iter().map(Move::to_string).collect::<Vec<_>>(),
        ["d1-b1"]
    );
    for (text, code) in [
        ("c1-a1", "own_piece"),
        ("b2-d2", "safe_rosette"),
        ("a1-b2", "own_piece"),
    ] {
        let before = game.clone();
        assert_eq!(game.play_text(text).unwrap_err().code(), code, "{text}");
        assert_eq!(game, before);
    }
    let mut bear = game_from_position(
        script(&[3]),
        Variant::FINKEL,
        "4xx2/7l/4xxll l 0 4 7 0",
        None,
    )
    .unwrap();
    let before = bear.clone();
    assert_eq!(bear.play_text("g1-home").unwrap_err().code(), "overshoot");
    assert_eq!(bear.play_text("h1-home").unwrap_err().code(), "overshoot");
    assert_eq!(bear, before);
}

#[test]
fn the_game_answers_for_squares_hands_homes_and_display() {
    let mut game = Game::seeded(Seed::from_hex("5f1c9a").unwrap(), Variant::FINKEL).unwrap();
    assert_eq!(game.key().to_string(), "000000000000");
    assert_eq!(game.chances().len(), 5);
    game.play_text("hand-c1").unwrap();
    assert_eq!(game.at(sq("c1")), Some(Side::Light));
    assert_eq!(game.hand(Side::Light), 6);
    assert_eq!(game.home(Side::Dark), 0);
    assert_eq!(game.log_display()[0], "2: hand-c1");
    for entry in game.log() {
        let text = display_entry(entry);
        match entry.mv {
            None => assert_eq!(text, format!("{}: -", entry.roll)),
            Some(mv) => assert!(text.starts_with(&format!("{}: {mv}", entry.roll))),
        }
    }
}

/// Checks what must hold after every step of any game.
fn check(game: &Game) {
    let v = game.variant();
    let p = game.position();
    // The whole position: pieces conserved, one a square, each on its own
    // route, the key laid out as the board says.
    assert_eq!(p.check(v), Ok(()), "{p}");
    assert_eq!(Position::parse_for(&p.to_string(), v).as_ref(), Ok(p));
    if v.is_reference() {
        assert_eq!(Position::parse(&p.to_string()).as_ref(), Ok(p));
    }
    if game.is_over() {
        assert!(game.legal().is_empty());
        assert_eq!(game.roll(), None);
    } else {
        assert!(!game.legal().is_empty());
        assert_eq!(game.status(), Status::Ongoing);
    }
}

/// Plays `games` seeded games with random legal moves, checking the
/// invariants after every step, undo on a sample of steps, and that each
/// finished game's record replays to an identical game.
fn self_play(variant: Variant, games: u32) {
    let mut rng = Xorshift::new(u64::from(variant.pieces()) ^ u64::from(variant.dice()) << 8);
    for n in 0..games {
        let mut game = Game::seeded(Seed::new(format!("prop {n}")).unwrap(), variant).unwrap();
        check(&game);
        let mut step = 0;
        while !game.is_over() {
            let legal = game.legal();
            let mv = legal[rng.below(legal.len())];
            // Undo is checked on a sample of steps (each check clones the
            // whole game) and on every step of one game in fifty.
            let sample = n % 50 == 0 || step % 17 == 0;
            let before = sample.then(|| game.clone());
            game.play(mv).unwrap();
            if let Some(before) = before {
                let after = game.clone();
                assert!(game.undo().is_ok());
                assert_eq!(game, before, "undo after {mv}");
                game = after;
            }
            check(&game);
            step += 1;
        }
        let outcome = game.result().unwrap();
        // Random play on the paths that come back down the middle lane can
        // run to the ply cap; everywhere else a game ends with a win.
        if outcome.how == Ending::PlyCap && variant.path().revisits() {
            assert_eq!(game.ply(), dice_core::PLY_CAP);
        } else {
            assert_eq!(outcome.how, Ending::Home);
            assert_eq!(outcome.winner.map(|w| game.home(w)), Some(variant.pieces()));
        }
        let text = game.to_record().to_string();
        let again = Game::replay_text(&text, None).unwrap();
        assert_eq!(again, game, "{text}");
        assert_eq!(again.to_record().to_string(), text);
    }
}

#[test]
fn two_thousand_finkel_games_keep_every_invariant() {
    self_play(Variant::FINKEL, 2000);
}

#[test]
fn two_thousand_masters_games_keep_every_invariant() {
    self_play(Variant::MASTERS, 2000);
}

#[test]
fn two_thousand_long_route_safe_rosette_games_keep_every_invariant() {
    self_play(Variant::custom([("route", "long")]).unwrap(), 2000);
}

#[test]
fn two_thousand_three_piece_unsafe_games_keep_every_invariant() {
    self_play(
        Variant::custom([("pieces", "3"), ("safe_rosettes", "0")]).unwrap(),
        2000,
    );
}

#[test]
fn games_of_every_swept_rule_set_keep_every_invariant() {
    for variant in common::variants() {
        let games = if variant.path().revisits() { 20 } else { 200 };
        self_play(variant, games);
    }
}

#[test]
fn undo_takes_back_the_move_and_the_lost_turns_after_it() {
    let mut game = Game::seeded(seed("undo"), Variant::FINKEL).unwrap();
    assert!(game.undo().is_err(), "nothing to undo at the start");
    let start = game.clone();
    let mut plays = 0;
    while !game.is_over() && plays < 40 {
        let mv = *game.legal().last().unwrap();
        game.play(mv).unwrap();
        plays += 1;
    }
    for _ in 0..plays {
        assert!(game.undo().is_ok());
    }
    assert_eq!(game, start);
    // Resigning is taken back first.
    assert!(game.resign(Some(Side::Dark)).is_ok());
    assert_eq!(game.result().unwrap().winner, Some(Side::Light));
    assert!(game.undo().is_ok());
    assert_eq!(game, start);
}

#[test]
fn a_refused_move_of_any_kind_leaves_the_game_equal() {
    let mut game = Game::seeded(seed("refusals"), Variant::MASTERS).unwrap();
    let mut rng = Xorshift::new(5);
    for _ in 0..60 {
        if game.is_over() {
            break;
        }
        for a in common::places() {
            for b in common::places() {
                let Ok(mv) = Move::new(a, b) else { continue };
                if game.legal().contains(&mv) {
                    continue;
                }
                let before = game.clone();
                let err = game.play(mv).unwrap_err();
                assert!(matches!(err, PlayError::Refused { .. }), "{mv}: {err}");
                assert_ne!(err.code(), "bad_move", "{mv}");
                assert_eq!(game, before);
            }
        }
        let legal = game.legal();
        let mv = legal[rng.below(legal.len())];
        game.play(mv).unwrap();
    }
}
