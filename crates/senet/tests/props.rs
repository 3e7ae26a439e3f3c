//! Seeded self-play with the whole-state invariants checked after every step:
//! 2,000 games per rule set and piece count.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Seed, Side, Xorshift};
use senet::{Game, GameExt, Pieces, Place, Position, Variant};

/// What the log has borne off so far, read incrementally.
#[derive(Default)]
struct Tally {
    seen: usize,
    off: [usize; 2],
}

fn check(game: &Game, tally: &mut Tally) {
    let v = game.variant();
    let p = game.position();
    // the whole position: one piece a house, none off the board, nobody in
    // the water under kendall, the key laid out as the board says, ...
    assert_eq!(p.check(v), Ok(()), "{p}");
    // pieces conserved: on the board plus those the log bore off
    for e in &game.log()[tally.seen..] {
        if e.flags.ends == Some(Place::Off) {
            tally.off[e.side.index()] += 1;
        }
    }
    tally.seen = game.log().len();
    for side in Side::ALL {
        let off = tally.off[side.index()];
        assert_eq!(
            usize::from(p.on_board(side)) + off,
            usize::from(v.piece_count()),
            "{p}"
        );
        assert_eq!(usize::from(game.home(side)), off);
    }
    // the position string round-trips, and the key is a function of it
    let text = p.to_string();
    let back = Position::parse(&text).unwrap();
    assert_eq!(back, *p);
    assert_eq!(back.key(v), game.key());
    // between calls: over, or a throw with a legal move
    if !game.is_over() {
        assert!(!game.legal().is_empty());
        assert!(game.turn().is_some());
    }
}

fn run(variant: Variant, games: u64) {
    let mut rng = Xorshift::new(variant.piece_count().into());
    for n in 0..games {
        let seed = Seed::new(format!("{variant} {n}")).unwrap();
        let mut game = Game::seeded(seed, variant).unwrap();
        let mut tally = Tally::default();
        check(&game, &mut tally);
        let mut step = 0u32;
        while !game.is_over() {
            let legal = game.legal();
            let mv = legal[rng.below(legal.len())];
            // undo restores an equal game (on every step of the first 200 games,
            // then every 4th step)
            if n < 200 || step.is_multiple_of(4) {
                let before = game.clone();
                game.play(mv).unwrap();
                assert!(game.undo().is_ok());
                assert_eq!(game, before, "undo after {mv}");
            }
            game.play(mv).unwrap();
            check(&game, &mut tally);
            step += 1;
        }
        // the finished record replays identically: with its seed (every
        // throw derived again), and seedless, from its own rolls and sticks
        let record = game.to_record();
        let text = record.to_string();
        let again = Game::replay_text(&text, None).unwrap();
        assert_eq!(again, game, "{text}");
        assert_eq!(again.to_record().to_string(), text);
        let mut seedless = record.clone();
        seedless.seed = None;
        let again = Game::replay(&seedless, None).unwrap();
        assert_eq!(again.log(), game.log());
        assert_eq!(again.position(), game.position());
        assert_eq!(again.result(), game.result());
    }
}

#[test]
fn kendall_5() {
    run(Variant::KENDALL, 2000);
}

#[test]
fn kendall_7() {
    run(Variant::KENDALL.with_pieces(Pieces::Seven), 2000);
}

#[test]
fn skyruk_5() {
    run(Variant::SKYRUK, 2000);
}

#[test]
fn skyruk_7() {
    run(Variant::SKYRUK.with_pieces(Pieces::Seven), 2000);
}

/// Custom rules where a bound throw can be lost (spec §3 rule 6): the piece
/// on 26 stays there, bound again when its side's turn comes back, while
/// the other side plays.
#[test]
fn again_and_reborn_5() {
    run(Variant::SKYRUK.with_field("water", "reborn").unwrap(), 2000);
}
