//! The framework driven by the toy game: settle, lost turns, extra throws,
//! undo, resignation, the ply cap, scripts, refusals.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::toy::{Toy, ToyMove, ToyPosition, ToyRefusal, ToyVariant};
use dice_core::{
    Dice, Ending, Game, GameOver, NewGameError, NothingToUndo, PLY_CAP, PlayError, ScriptRoll,
    Seed, Setup, Side, Status, Undone,
};

type ToyGame = Game<Toy>;

fn script(rolls: &[u8]) -> Dice {
    Dice::Script(rolls.iter().map(|&r| ScriptRoll::new(r)).collect())
}

fn scripted(rolls: &[u8]) -> ToyGame {
    Game::new(Setup::new(script(rolls), ToyVariant::default()).with_first(Side::Light)).unwrap()
}

fn mv(text: &str) -> ToyMove {
    text.parse().unwrap()
}

#[test]
fn lost_turns_are_logged_and_thrown_past() {
    let game = scripted(&[0, 0, 2]);
    assert_eq!(game.side(), Some(Side::Light));
    assert_eq!(game.roll(), Some(2));
    assert_eq!(game.legal(), &[mv("0-2")]);
    assert_eq!(game.ply(), 2);
    assert_eq!(game.throws(), 3);
    let lost = game.forfeits_since(0);
    assert_eq!(lost.len(), 2);
    assert_eq!(
        (lost[0].side, lost[0].throw, lost[0].roll, lost[0].ply),
        (Side::Light, 0, 0, 0)
    );
    assert_eq!(
        (lost[1].side, lost[1].throw, lost[1].roll, lost[1].ply),
        (Side::Dark, 1, 0, 1)
    );
    assert_eq!(game.forfeits_since(1).len(), 1);
    assert!(game.forfeits_since(2).is_empty());
}

#[test]
fn a_roll_that_allows_no_move_is_lost_too() {
    // Light on 11 and 12 (home), goal 12: a roll of 2 overshoots.
    let start = ToyPosition {
        pieces: [[11, 12], [0, 0]],
        side: Side::Light,
    };
    let setup = Setup::new(script(&[2, 3, 1]), ToyVariant::default()).with_position(start);
    let game: ToyGame = Game::new(setup).unwrap();
    assert_eq!(game.log().len(), 1);
    assert!(game.log()[0].is_forfeit());
    assert_eq!(game.side(), Some(Side::Dark));
    assert_eq!(game.roll(), Some(3));
}

#[test]
fn forfeits_before_the_first_move_cannot_be_undone() {
    let mut game = scripted(&[0, 0, 2]);
    let before = game.clone();
    assert_eq!(game.undo(), Err(NothingToUndo));
    assert_eq!(game, before);
}

#[test]
fn a_script_that_runs_out_leaves_no_roll() {
    let mut game = scripted(&[2]);
    game.play(mv("0-2")).unwrap();
    assert_eq!(game.roll(), None);
    assert!(game.legal().is_empty());
    assert!(!game.is_over());
    assert_eq!(game.side(), Some(Side::Dark));
    let before = game.clone();
    assert_eq!(game.play(mv("0-1")), Err(PlayError::NoRoll));
    assert_eq!(game.play_text("junk").unwrap_err().code(), "no_roll");
    assert_eq!(game, before);
}

#[test]
fn the_bonus_square_gives_another_throw() {
    let start = ToyPosition {
        pieces: [[3, 0], [0, 0]],
        side: Side::Light,
    };
    let setup = Setup::new(script(&[3, 1]), ToyVariant::default()).with_position(start);
    let mut game: ToyGame = Game::new(setup).unwrap();
    game.play(mv("3-6")).unwrap();
    assert!(game.log()[0].flags.bonus);
    assert_eq!(game.side(), Some(Side::Light));
    assert_eq!(game.roll(), Some(1));
}

#[test]
fn undo_takes_back_the_move_and_the_lost_turns_after_it() {
    let mut game = scripted(&[2, 0, 0, 1]);
    let before = game.clone();
    assert_eq!(game.play(mv("0-2")), Ok(mv("0-2")));
    let played = game.log()[0];
    assert_eq!(
        (played.ply, played.roll, played.mv),
        (0, 2, Some(mv("0-2")))
    );
    assert_eq!(game.ply(), 3);
    assert_eq!(game.side(), Some(Side::Dark));
    assert_eq!(game.forfeits_since(1).len(), 2);
    assert_eq!(
        game.undo(),
        Ok(Undone::Move {
            entry: played,
            forfeits: 2
        })
    );
    assert_eq!(game, before);
    assert_eq!((game.roll(), game.throws(), game.ply()), (Some(2), 1, 0));
    assert_eq!(game.undo(), Err(NothingToUndo));
    assert_eq!(game, before, "nothing to undo changes nothing");
}

#[test]
fn resign_ends_the_game_and_undo_withdraws_it() {
    let mut game = scripted(&[2, 1]);
    let before = game.clone();
    let resigned = game.resign(None).unwrap();
    assert_eq!(
        (resigned.winner, resigned.how),
        (Some(Side::Dark), Ending::Resign)
    );
    assert!(game.is_over());
    assert_eq!((game.side(), game.roll(), game.faces()), (None, None, None));
    assert!(game.legal().is_empty());
    let result = game.result().unwrap();
    assert_eq!(result, resigned);
    assert_eq!(result.loser(), Some(Side::Light));
    let over = game.clone();
    assert_eq!(
        game.resign(Some(Side::Dark)),
        Err(GameOver),
        "a finished game cannot be resigned"
    );
    assert_eq!(game, over);
    assert_eq!(game.play(mv("0-2")), Err(PlayError::GameOver));
    assert_eq!(game.undo(), Ok(Undone::Resignation(Side::Light)));
    assert_eq!(game, before);
    assert!(game.resign(Some(Side::Dark)).is_ok());
    assert_eq!(game.result().unwrap().winner, Some(Side::Light));
}

#[test]
fn the_ply_cap_draws_the_game() {
    let game = scripted(&vec![0; PLY_CAP as usize + 5]);
    assert!(game.is_over());
    assert_eq!(game.status(), Status::Drawn);
    assert_eq!(game.ply(), PLY_CAP);
    let result = game.result().unwrap();
    assert_eq!(
        (result.winner, result.how, result.plies),
        (None, Ending::PlyCap, PLY_CAP)
    );
    assert!(result.is_draw());
    assert_eq!(
        game.throws(),
        u64::from(PLY_CAP),
        "no throw is made once the game is over"
    );
}

#[test]
fn a_winning_move_on_the_last_ply_still_wins() {
    let near = ToyPosition {
        pieces: [[0, 0], [11, 12]],
        side: Side::Light,
    };
    let mut rolls = vec![0; PLY_CAP as usize - 1];
    rolls.push(1);
    let setup = Setup::new(script(&rolls), ToyVariant::default()).with_position(near);
    let mut game: ToyGame = Game::new(setup).unwrap();
    assert_eq!(game.ply(), PLY_CAP - 1);
    assert_eq!(game.side(), Some(Side::Dark));
    game.play(mv("11-12")).unwrap();
    let result = game.result().unwrap();
    assert_eq!(
        (result.winner, result.how, result.plies),
        (Some(Side::Dark), Ending::Home, PLY_CAP)
    );
}

#[test]
fn refused_moves_change_nothing_and_say_why() {
    let mut game = scripted(&[2, 1]);
    let before = game.clone();
    let cases = [
        ("0-3", "wrong_distance"),
        ("5-7", "no_piece"),
        ("x", "bad_move"),
        ("", "bad_move"),
        ("0--2", "bad_move"),
    ];
    for (text, code) in cases {
        let err = game.play_text(text).unwrap_err();
        assert_eq!(err.code(), code, "{text}");
        assert_eq!(game, before, "{text}");
    }
    match game.play(mv("0-3")) {
        Err(PlayError::Refused {
            refusal,
            mv: refused,
            roll,
        }) => {
            assert_eq!(
                (refusal, refused, roll),
                (ToyRefusal::WrongDistance, mv("0-3"), 2)
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(game, before);
}

#[test]
fn own_piece_and_overshoot_are_refused() {
    let start = ToyPosition {
        pieces: [[9, 11], [0, 0]],
        side: Side::Light,
    };
    let setup = Setup::new(script(&[2]), ToyVariant::default()).with_position(start);
    let mut game: ToyGame = Game::new(setup).unwrap();
    assert_eq!(
        game.legal(),
        &[] as &[ToyMove],
        "9-11 lands on its own piece, 11 overshoots"
    );
    // The roll of 2 allowed nothing, so it was lost: the script is spent.
    assert_eq!(game.roll(), None);
    let setup = Setup::new(script(&[2]), ToyVariant::default()).with_position(ToyPosition {
        pieces: [[8, 10], [0, 0]],
        side: Side::Light,
    });
    game = Game::new(setup).unwrap();
    assert_eq!(game.legal(), &[mv("10-12")]);
    assert_eq!(game.play(mv("8-10")).unwrap_err().code(), "own_piece");
    let setup = Setup::new(script(&[3]), ToyVariant::default()).with_position(ToyPosition {
        pieces: [[11, 0], [0, 0]],
        side: Side::Light,
    });
    game = Game::new(setup).unwrap();
    assert_eq!(game.play(mv("11-14")).unwrap_err().code(), "overshoot");
}

#[test]
fn new_game_errors_are_typed() {
    let no_first = Game::<Toy>::new(Setup::new(script(&[1]), ToyVariant::default()));
    assert_eq!(no_first.unwrap_err(), NewGameError::FirstNeeded);
    let bad = ToyPosition {
        pieces: [[13, 0], [0, 0]],
        side: Side::Light,
    };
    let err = Game::<Toy>::new(Setup::new(script(&[1]), ToyVariant::default()).with_position(bad))
        .unwrap_err();
    assert_eq!(err.code(), "inconsistent");
}

#[test]
fn a_seeded_game_throws_off_for_the_first_move() {
    let seed = Seed::new("royalur pinned one").unwrap();
    // Three dice: throws 0 and 1 are 110 and 110 (a tie), 2 and 3 are 001 and 101.
    let game: ToyGame = Game::seeded(seed.clone(), ToyVariant::default()).unwrap();
    assert_eq!(game.opening().len(), 4);
    let faces: Vec<String> = game.opening().iter().map(ToString::to_string).collect();
    assert_eq!(faces, ["110", "110", "001", "101"]);
    assert_eq!(game.first(), Side::Dark);
    assert!(game.throws() >= 5);
    assert_eq!(game.log().first().map_or(game.throws() - 1, |e| e.throw), 4);
    // Naming the first side skips the throw-off.
    let told: ToyGame =
        Game::new(Setup::new(Dice::Seeded(seed), ToyVariant::default()).with_first(Side::Light))
            .unwrap();
    assert!(told.opening().is_empty());
    assert_eq!(told.first(), Side::Light);
}

#[test]
fn a_position_keeps_its_side_unless_first_is_named() {
    let start = ToyPosition {
        pieces: [[1, 0], [0, 0]],
        side: Side::Dark,
    };
    let own: ToyGame =
        Game::new(Setup::new(script(&[1]), ToyVariant::default()).with_position(start)).unwrap();
    assert_eq!(own.first(), Side::Dark);
    let told: ToyGame = Game::new(
        Setup::new(script(&[1]), ToyVariant::default())
            .with_position(start)
            .with_first(Side::Light),
    )
    .unwrap();
    assert_eq!(told.side(), Some(Side::Light));
}

#[test]
fn log_entries_serialize_to_json_and_back() {
    let mut game: ToyGame =
        Game::seeded(Seed::new("json").unwrap(), ToyVariant::default()).unwrap();
    while game.log().len() < 6 && !game.is_over() {
        let first = game.legal()[0];
        game.play(first).unwrap();
    }
    let json = serde_json::to_string(game.log()).unwrap();
    let back: Vec<dice_core::LogEntry<Toy>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game.log());
    assert!(json.contains("\"move\""));
}

#[test]
fn a_game_set_up_from_a_position_keeps_it_as_its_start() {
    let near = ToyPosition {
        pieces: [[9, 3], [4, 0]],
        side: Side::Dark,
    };
    let setup = Setup::new(script(&[1, 2, 3, 1, 2]), ToyVariant::default()).with_position(near);
    let mut game: ToyGame = Game::new(setup).unwrap();
    assert_eq!(game.start(), &near);
    assert_ne!(
        game.start(),
        &<Toy as dice_core::Rules>::start(game.variant(), game.first())
    );
    while game.roll().is_some() && !game.is_over() {
        let mv = game.legal()[0];
        game.play(mv).unwrap();
    }
    assert!(game.ply() > 2, "{}", game.ply());
    // The walk starts where the game did and ends where it is, each ply's
    // position after it the next one's before.
    let plies: Vec<_> = game.plies().collect();
    assert_eq!(plies.len(), game.log().len());
    assert_eq!(plies[0].before, near);
    for (pair, entry) in plies.windows(2).zip(game.log()) {
        assert_eq!(pair[0].after, pair[1].before);
        assert_eq!(pair[0].entry, entry);
    }
    assert_eq!(&plies[plies.len() - 1].after, game.position());
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(game.position_at(i), Some(&ply.before));
    }
    assert_eq!(game.position_at(plies.len()), Some(game.position()));
    assert_eq!(game.position_at(plies.len() + 1), None);
}

#[test]
fn the_walk_from_a_ply_is_the_rest_of_the_walk_and_undo_shortens_it() {
    let mut game: ToyGame =
        Game::seeded(Seed::new("walk").unwrap(), ToyVariant::default()).unwrap();
    for _ in 0..12 {
        if game.is_over() {
            break;
        }
        let mv = game.legal()[game.legal().len() - 1];
        game.play(mv).unwrap();
    }
    let all: Vec<_> = game.plies().collect();
    // Every position of the walk is what the rules make of the one before.
    let mut at = *game.start();
    for ply in &all {
        assert_eq!(ply.before, at);
        at = match ply.entry.mv {
            Some(mv) => <Toy as dice_core::Rules>::apply(game.variant(), &at, ply.entry.roll, mv).0,
            None => <Toy as dice_core::Rules>::forfeit(game.variant(), &at, ply.entry.roll).0,
        };
        assert_eq!(ply.after, at);
    }
    for from in [0, 1, all.len() / 2, all.len(), all.len() + 3] {
        let rest: Vec<_> = game.plies_from(from).collect();
        assert_eq!(rest, all.iter().skip(from).copied().collect::<Vec<_>>());
        assert_eq!(game.plies_from(from).len(), all.len().saturating_sub(from));
    }
    game.undo().unwrap();
    assert_eq!(game.plies().count(), game.log().len());
    assert_eq!(
        game.plies().last().map(|p| p.after).as_ref(),
        game.log().last().map(|_| game.position())
    );
}
