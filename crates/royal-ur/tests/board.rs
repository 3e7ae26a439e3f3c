//! The dice-less board: construction, refusals, the end of the game, undo,
//! and seeded games replayed on a board step by step.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, variants};
use dice_core::{Ending, PLY_CAP, Seed, Side, Status};
use royal_ur::{ApplyError, Board, Game, Move, NewBoardError, Position, Refusal, Variant};

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn board(variant: Variant, text: &str, ply: u32) -> Board {
    Board::new(variant, pos(text), None, ply).unwrap()
}

fn texts(board: &Board, roll: u8) -> Vec<String> {
    board.moves(roll).iter().map(Move::to_string).collect()
}

#[test]
fn construction_checks_the_pieces_and_takes_side_and_ply() {
    let five = Variant::FINKEL.with_pieces(5).unwrap();
    let b = Board::new(five, pos("4xx2/8/4xx2 l 5 0 5 0"), Some(Side::Dark), 40).unwrap();
    assert_eq!((b.side(), b.ply(), b.depth()), (Side::Dark, 40, 0));
    assert_eq!(b.position().to_string(), "4xx2/8/4xx2 d 5 0 5 0");
    assert_eq!(b.key().to_string(), "400000000000");
    assert_eq!(b.variant(), &five);
    let b = Board::new(five, pos("4xx2/8/4xx2 d 5 0 5 0"), None, 0).unwrap();
    assert_eq!(b.side(), Side::Dark);
    assert_eq!(b, Board::start(five, Side::Dark));

    // Seven pieces are wanted; a position with five, or with counts that do
    // not add up, is refused with the position and the count.
    for text in ["4xx2/8/4xx2 l 5 0 5 0", "llllxxll/lll5/4xx2 l 7 7 7 7"] {
        let err = Board::new(Variant::FINKEL, pos(text), Some(Side::Dark), 0).unwrap_err();
        let shown = pos(text).with_side(Side::Dark);
        assert_eq!(
            err,
            NewBoardError::Inconsistent {
                position: shown,
                pieces: 7
            }
        );
        assert_eq!(err.code(), "inconsistent");
        assert_eq!(
            err.to_string(),
            format!("the position {shown} does not hold 7 pieces a side, one to a square")
        );
    }

    // Hands, homes and who stands where are the position's.
    let b = board(Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 0);
    assert_eq!((b.hand(Side::Light), b.hand(Side::Dark)), (4, 5));
    assert_eq!((b.home(Side::Light), b.home(Side::Dark)), (0, 0));
}

#[test]
fn moves_follow_the_position_and_stop_at_the_end() {
    let b = board(Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 0);
    assert_eq!(texts(&b, 3), ["hand-b1", "c1-a2", "a1-c2", "b2-e2"]);
    assert_eq!(texts(&b, 2), Vec::<String>::new());
    assert!(b.moves(0).is_empty() && b.moves(5).is_empty());
    // Won: light has seven home.
    let won = board(Variant::FINKEL, "4xx2/7d/4xx2 d 0 7 6 0", 3);
    assert_eq!(won.status(), Status::Won(Side::Light));
    assert_eq!(
        (won.winner(), won.how()),
        (Some(Side::Light), Some(Ending::Home))
    );
    assert!(won.is_over() && won.moves(1).is_empty());
    // The same position one piece short of home is on, until the ply cap.
    let text = "4xx2/7d/4xx2 d 1 6 6 0";
    let on = board(Variant::FINKEL, text, PLY_CAP - 1);
    assert_eq!(
        (on.status(), on.winner(), on.how()),
        (Status::Ongoing, None, None)
    );
    assert_eq!(texts(&on, 1), ["hand-d3", "h2-h3"]);
    let capped = board(Variant::FINKEL, text, PLY_CAP);
    assert_eq!((capped.status(), capped.winner()), (Status::Drawn, None));
    assert_eq!(capped.how(), Some(Ending::PlyCap));
    assert!(capped.is_over() && capped.moves(1).is_empty());
}

#[test]
fn apply_refuses_with_the_reason_and_changes_nothing() {
    let mut b = board(Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 7);
    let cases = [
        (3, "hand-a2", "wrong_distance"),
        (3, "d1-c1", "no_piece"),
        (3, "c2-e2", "not_your_piece"),
        (3, "c1-a1", "wrong_distance"),
        (2, "c1-a1", "own_piece"),
        (2, "b2-d2", "safe_rosette"),
        (0, "hand-d1", "wrong_distance"),
        (0, "c1-c1", "own_piece"),
        (5, "hand-a2", "bad_roll"),
        (200, "c1-a1", "bad_roll"),
    ];
    for (roll, text, code) in cases {
        let before = b.clone();
        let err = b.apply(roll, mv(text)).unwrap_err();
        assert_eq!(err.code(), code, "{text} for {roll}");
        assert_eq!(b, before, "{text} for {roll} changed the board");
    }
    assert_eq!(
        b.apply(2, mv("b2-d2")).unwrap_err(),
        ApplyError::Refused {
            refusal: Refusal::SafeRosette,
            mv: mv("b2-d2"),
            roll: 2
        }
    );
    assert_eq!(
        b.apply(9, mv("b2-d2")),
        Err(ApplyError::Roll { roll: 9, max: 4 })
    );
    let mut bear = board(Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 0);
    assert_eq!(
        bear.apply(3, mv("g1-home")).unwrap_err().code(),
        "overshoot"
    );
    // Over: a won game and a capped one refuse moves and lost turns.
    for mut over in [
        board(Variant::FINKEL, "4xx2/7d/4xx2 d 0 7 6 0", 0),
        board(Variant::FINKEL, "4xx2/7d/4xx2 d 1 6 6 0", PLY_CAP),
    ] {
        let before = over.clone();
        assert_eq!(over.apply(1, mv("h2-h3")), Err(ApplyError::GameOver));
        assert!(over.forfeit().is_err());
        assert_eq!(over, before);
    }
}

#[test]
fn apply_plays_captures_rosettes_and_homes_and_passes_the_turn_right() {
    let mut b = board(Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 10);
    // Capture on c2: dark's piece goes back to its hand; dark moves next.
    let info = b.apply(3, mv("a1-c2")).unwrap();
    assert_eq!(info.trace(), "4>7x");
    assert_eq!(b.position().to_string(), "4xx2/1lld4/2l1xx2 d 4 0 6 0");
    assert_eq!((b.ply(), b.depth()), (11, 1));
    // Dark's rosette d2 is step 8: from the hand with 4 it is a3 (a rosette),
    // so dark moves again.
    let info = b.apply(4, mv("hand-a3")).unwrap();
    assert_eq!((info.trace(), info.side()), ("0>4*".to_owned(), Side::Dark));
    assert_eq!(b.side(), Side::Dark);
    // A lost turn passes even after a rosette.
    assert!(b.forfeit().is_ok());
    assert_eq!((b.side(), b.ply(), b.depth()), (Side::Light, 13, 3));
    // Undo goes back one ply at a time to the start, exactly.
    assert!(b.undo().is_ok());
    assert_eq!((b.side(), b.ply()), (Side::Dark, 12));
    assert!(b.undo().is_ok() && b.undo().is_ok());
    assert_eq!(
        b,
        board(Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 10)
    );
    assert!(b.undo().is_err());

    // Bearing off the last piece wins, on the capping ply too.
    // Light: g1 (14) and six home; dark: all seven in hand.
    let last = pos("4xx2/8/4xxl1 l 0 6 7 0");
    let mut b = Board::new(Variant::FINKEL, last, None, PLY_CAP - 1).unwrap();
    let info = b.apply(1, mv("g1-home")).unwrap();
    assert!(info.home() && !info.rosette());
    assert_eq!(
        (b.status(), b.how(), b.ply()),
        (Status::Won(Side::Light), Some(Ending::Home), PLY_CAP)
    );
    assert!(b.undo().is_ok());
    assert_eq!(b.status(), Status::Ongoing);
    // A lost turn onto the cap draws, and undo takes the draw back.
    assert!(b.forfeit().is_ok());
    assert_eq!((b.status(), b.how()), (Status::Drawn, Some(Ending::PlyCap)));
    assert!(b.undo().is_ok() && !b.is_over());
}

/// Plays `games` seeded games with random legal moves and replays each on a
/// board from the log: the board's moves are the game's, each move's
/// details agree with the log's flags, the board equals the game after
/// every play, and undo walks back through every earlier position.
fn replay_on_a_board(variant: Variant, games: u32) {
    let mut rng = Xorshift::new(0x5eed ^ u64::from(variant.pieces()));
    for n in 0..games {
        let mut game = Game::seeded(Seed::new(format!("board {n}")).unwrap(), variant).unwrap();
        let mut b = Board::start(variant, game.first());
        let mut history = vec![(*b.position(), b.ply())];
        let mut done = 0;
        loop {
            for entry in game.log().get(done..).unwrap() {
                assert_eq!((entry.ply, entry.side), (b.ply(), b.side()));
                match entry.mv {
                    Some(m) => {
                        assert!(b.moves(entry.roll).contains(&m));
                        let info = b.apply(entry.roll, m).unwrap();
                        assert_eq!(info.flags(), entry.flags, "{m} in game {n}");
                        assert_eq!((info.side(), info.roll()), (entry.side, entry.roll));
                    }
                    None => {
                        assert!(b.moves(entry.roll).is_empty(), "game {n} lost a turn");
                        assert!(b.forfeit().is_ok());
                    }
                }
                history.push((*b.position(), b.ply()));
            }
            done = game.log().len();
            assert_eq!((b.position(), b.ply()), (game.position(), game.ply()));
            assert_eq!(b.status(), game.status());
            assert_eq!(b.depth(), done);
            let Some(roll) = game.roll() else { break };
            assert_eq!(b.moves(roll).as_slice(), game.legal(), "game {n}");
            for m in game.legal() {
                assert_eq!(
                    b.position().move_info(&variant, roll, *m).map(|i| i.mv()),
                    Some(*m)
                );
            }
            let legal = game.legal();
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
        assert!(b.is_over() && game.is_over());
        assert_eq!(b.winner(), game.result().and_then(|r| r.winner));
        assert_eq!(history.len(), b.depth() + 1);
        while let Some(&(p, ply)) = history.last() {
            assert_eq!((*b.position(), b.ply()), (p, ply), "game {n}, undo");
            history.pop();
            assert_eq!(b.undo().is_ok(), !history.is_empty());
        }
        assert_eq!(b, Board::start(variant, game.first()));
    }
}

#[test]
fn seeded_games_replay_on_a_board_and_undo_to_the_start() {
    for variant in variants() {
        replay_on_a_board(variant, 150);
    }
}
