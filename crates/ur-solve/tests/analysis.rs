//! Move values, the perfect bot and game analysis on small solved sets.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Dice, Game, Rules, Seed, Setup, Side};
use royal_ur::{Position, Ur, Variant};
use ur_solve::{
    PerfectBot, SolveOptions, WinChances, analyse_game, best_move, move_values, roll_value, solve,
};

fn two() -> ur_solve::Solution {
    solve(
        &Variant::FINKEL.with_pieces(2).unwrap(),
        &SolveOptions::default(),
        |_| {},
    )
    .unwrap()
}

#[test]
fn the_value_before_the_roll_is_the_mean_of_the_roll_values() {
    let sol = two();
    let v = *sol.variant();
    let pos = Position::parse("4xx2/2l2d2/4xx2 l 1 0 1 0").unwrap();
    let before = sol.win_chance(&pos).unwrap();
    let mean: f64 = v
        .chances()
        .iter()
        .map(|c| {
            f64::from(c.weight) / f64::from(c.denominator) * roll_value(&sol, &pos, c.roll).unwrap()
        })
        .sum();
    assert!((before - mean).abs() < 1e-8, "{before} {mean}");
    let values = move_values(&sol, &pos, 2).unwrap();
    assert!(values.len() >= 2);
    let best = best_move(&sol, &pos, 2).unwrap().unwrap();
    assert!(values.iter().all(|m| m.win_chance <= best.win_chance));
    assert!(best_move(&sol, &pos, 0).unwrap().is_none());
}

type Pick<'a> = &'a dyn Fn(&Game<Ur>) -> royal_ur::Move;

fn play(bots: [Pick<'_>; 2], seed: &str) -> Game<Ur> {
    let v = Variant::FINKEL.with_pieces(2).unwrap();
    let mut game = Game::<Ur>::new(Setup::new(
        Dice::Seeded(Seed::new(seed.as_bytes()).unwrap()),
        v,
    ))
    .unwrap();
    while !game.is_over() {
        let side = game.side().unwrap();
        let mv = bots[side.index()](&game);
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn a_perfect_game_loses_nothing_and_a_careless_one_does() {
    let bot = PerfectBot::new(two());
    let perfect = |g: &Game<Ur>| bot.choose(g).unwrap();
    // Always the last legal move: often not the best.
    let careless = |g: &Game<Ur>| *g.legal().last().unwrap();
    let mut lost_by_careless = 0.0;
    for seed in ["a", "b", "c", "d", "e", "f"] {
        let game = play([&perfect, &careless], seed);
        let report = analyse_game(bot.table(), &game).unwrap();
        assert_eq!(report.turns.len(), game.log().len());
        assert!(report.light.lost.abs() < 1e-12);
        assert_eq!(report.light.mistakes, 0);
        lost_by_careless += report.dark.lost;
        for t in &report.turns {
            assert!((t.luck - (t.roll_value - t.before)).abs() < 1e-15);
            assert!(t.lost >= 0.0 && t.after <= t.roll_value + 1e-12);
        }
        // The last turn wins: the winner's chance after it is 1.
        let last = report.turns.last().unwrap();
        assert!((last.after - 1.0).abs() < 1e-12);
    }
    assert!(lost_by_careless > 0.0);
}

#[test]
fn analysis_refuses_another_rule_set() {
    let sol = two();
    let game = Game::<Ur>::new(
        Setup::new(Dice::Seeded(Seed::new(b"x").unwrap()), Variant::FINKEL).with_first(Side::Light),
    )
    .unwrap();
    assert_eq!(analyse_game(&sol, &game).unwrap_err().code(), "wrong_rules");
    let bot = PerfectBot::new(sol);
    assert_eq!(bot.choose(&game), None);
    let wrong = Position::start(&Variant::FINKEL, Side::Light);
    assert_eq!(bot.think(&wrong, 2).unwrap_err().code(), "inconsistent");
    let _ = Ur::start(&Variant::FINKEL, Side::Light);
}

#[test]
fn a_game_set_up_from_a_position_is_judged_from_it() {
    let bot = PerfectBot::new(two());
    let v = *bot.table().variant();
    let from = Position::parse("4xx2/2l2d2/4xx2 l 1 0 1 0").unwrap();
    let setup = Setup::new(Dice::Seeded(Seed::new(b"from").unwrap()), v).with_position(from);
    let mut game = Game::<Ur>::new(setup).unwrap();
    while !game.is_over() {
        let mv = bot.choose(&game).unwrap();
        game.play(mv).unwrap();
    }
    let report = analyse_game(bot.table(), &game).unwrap();
    assert_eq!(report.turns.len(), game.log().len());
    // The first ply is judged in the position the game started from.
    assert_eq!(
        report.turns[0].before,
        bot.table().win_chance(&from).unwrap()
    );
    assert_eq!(report.light.mistakes + report.dark.mistakes, 0);
}
