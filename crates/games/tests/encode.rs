//! The integer actions and observations: every legal move has its own
//! action, an action names its move again, and an observation is as long
//! as the rules say with every number from 0 to 1, over games of every
//! preset.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::Rules;
use dice_core::{Game, Seed};
use race_games::{RaceGame, action_mask, move_for_action};
use royal_ur::Ur;
use senet::Senet;

fn holds<G: RaceGame>() {
    for preset in G::PRESETS {
        let variant = preset.variant.clone();
        let mut game = Game::<G>::seeded(Seed::new(preset.name).unwrap(), variant.clone()).unwrap();
        let actions = G::action_count(&variant);
        let mut obs = vec![-1.0; G::observation_len(&variant)];
        let mut mask = vec![false; actions];
        let mut turn = 0usize;
        while !game.is_over() {
            let position = *game.position();
            G::observe(&variant, &position, game.roll(), &mut obs);
            assert!(
                obs.iter().all(|x| (0.0..=1.0).contains(x)),
                "{}: {obs:?}",
                preset.name
            );
            action_mask::<G>(&variant, &position, game.legal(), &mut mask);
            assert_eq!(
                mask.iter().filter(|&&m| m).count(),
                game.legal().len(),
                "{}",
                preset.name
            );
            for &mv in game.legal() {
                let action = G::action(&variant, &position, mv);
                assert!(action < actions, "{} {mv}", preset.name);
                assert_eq!(
                    move_for_action::<G>(&variant, &position, game.legal(), action),
                    Some(mv)
                );
            }
            let mv = game.legal()[turn % game.legal().len()];
            game.play(mv).unwrap();
            turn += 1;
        }
    }
}

#[test]
fn every_legal_move_has_an_action_of_its_own() {
    holds::<Ur>();
    holds::<Senet>();
}

#[test]
fn observations_are_seen_by_the_side_to_move() {
    let variant = royal_ur::Variant::FINKEL;
    let position = Ur::read_position("4xx2/3d4/3lxx2 d 6 0 6 0", &variant).unwrap();
    let mut obs = vec![0.0; Ur::observation_len(&variant)];
    Ur::observe(&variant, &position, Some(3), &mut obs);
    // Dark to move: its piece on d2 is the mover's, light's on d1 the other's.
    let d2 = royal_ur::BoardShape::Standard
        .cell("d2".parse().unwrap())
        .unwrap();
    let d1 = royal_ur::BoardShape::Standard
        .cell("d1".parse().unwrap())
        .unwrap();
    assert_eq!((obs[d2], obs[20 + d1]), (1.0, 1.0));
    assert_eq!(obs.iter().take(40).sum::<f32>(), 2.0);
    assert_eq!(
        (obs[60], obs[62], obs[64], obs[65]),
        (6.0 / 7.0, 6.0 / 7.0, 0.75, 0.0)
    );
    let senet = senet::Variant::KENDALL;
    let start = Senet::start(&senet, dice_core::Side::Light);
    let mut obs = vec![0.0; Senet::observation_len(&senet)];
    Senet::observe(&senet, &start, None, &mut obs);
    assert_eq!(obs.iter().take(30).sum::<f32>(), 5.0);
    assert_eq!(obs[63], 1.0);
}

/// Over a game of every Ur preset (murray's and skiriuk's paths among
/// them), each cell's three numbers say what the square holds, seen by
/// the side to move: its piece, the other side's, a second visit.
#[test]
fn ur_cell_planes_read_the_board_square_by_square() {
    for preset in Ur::PRESETS {
        let variant = preset.variant;
        let mut game = Game::<Ur>::seeded(Seed::new(preset.name).unwrap(), variant).unwrap();
        let mut obs = vec![-1.0; Ur::observation_len(&variant)];
        let mut turn = 0usize;
        while !game.is_over() {
            let position = *game.position();
            Ur::observe(&variant, &position, game.roll(), &mut obs);
            let me = position.side();
            for (cell, &sq) in variant.board().squares().iter().enumerate() {
                let held = position.at(sq);
                let expect = [
                    held == Some(me),
                    held == Some(me.other()),
                    held.is_some() && position.is_second_visit(sq),
                ];
                for (plane, want) in expect.into_iter().enumerate() {
                    assert_eq!(
                        obs[plane * 20 + cell],
                        f32::from(u8::from(want)),
                        "{} ply {} {sq} plane {plane}",
                        preset.name,
                        game.ply()
                    );
                }
            }
            let mv = game.legal()[turn % game.legal().len()];
            game.play(mv).unwrap();
            turn += 1;
        }
    }
}
