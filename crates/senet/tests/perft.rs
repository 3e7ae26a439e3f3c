//! Perft-style counts from the start, read from tests/data/perft.txt.
//!
//! Depth 1 is worked by hand (18 under both rule sets: rolls 1, 3 and 5
//! move any of light's five pieces, every landing being a lone enemy or an
//! empty house; roll 2 only the piece on 10 and roll 4 those on 8 and 10,
//! the others landing on their own side; with seven pieces 7+1+7+2+7 = 24). The deeper counts pin the tree and are cross-checked
//! here against a walk through the public `Game` API with scripted sticks.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Rules, Setup, Side};
use senet::{CHANCES, Game, Position, Senet, Variant, script};

fn cases() -> Vec<(Variant, Side, u32, u64)> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn counts_from_the_start() {
    let cases = cases();
    assert!(cases.len() >= 8);
    for (variant, first, depth, expected) in cases {
        let start = Position::start(&variant, first);
        assert_eq!(
            dice_core::walk::<Senet>(&variant, &start, depth),
            expected,
            "{variant} {first} depth {depth}"
        );
    }
}

/// The same count through `Game`: each branch is a game replayed from a
/// script of the rolls that lead to it (lost turns are taken by the game).
fn walk_games(variant: Variant, first: Side, path: &[(u8, Option<String>)], depth: u32) -> u64 {
    let rolls: Vec<u8> = path.iter().map(|(r, _)| *r).collect();
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for chance in CHANCES {
        let mut all = rolls.clone();
        all.push(chance.roll);
        let mut game = Game::new(Setup::new(script(&all), variant).with_first(first)).unwrap();
        for (_, mv) in path {
            if let Some(mv) = mv {
                game.play_text(mv).unwrap();
            }
        }
        if game.is_over()
            && game.roll().is_none()
            && Senet::status(&variant, game.position()) != dice_core::Status::Ongoing
        {
            total += 1;
            continue;
        }
        let legal: Vec<String> = game.legal().iter().map(ToString::to_string).collect();
        let mut next = path.to_vec();
        if legal.is_empty() {
            next.push((chance.roll, None));
            total += walk_games(variant, first, &next, depth - 1);
        } else {
            for mv in legal {
                let mut branch = next.clone();
                branch.push((chance.roll, Some(mv)));
                total += walk_games(variant, first, &branch, depth - 1);
            }
        }
    }
    total
}

#[test]
fn game_api_agrees_to_depth_2() {
    for variant in [Variant::KENDALL, Variant::SKYRUK] {
        let start = Position::start(&variant, Side::Light);
        assert_eq!(
            walk_games(variant, Side::Light, &[], 2),
            dice_core::walk::<Senet>(&variant, &start, 2),
            "{variant}"
        );
    }
    for (variant, by_hand) in [
        (Variant::KENDALL, 18),
        (Variant::SKYRUK, 18),
        (Variant::KENDALL.with_pieces(senet::Pieces::Seven), 24),
    ] {
        for first in [Side::Light, Side::Dark] {
            assert_eq!(
                dice_core::walk::<Senet>(&variant, &Position::start(&variant, first), 1),
                by_hand
            );
        }
    }
}
