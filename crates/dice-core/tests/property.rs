//! A thousand seeded toy games: after every move, undo then the same move
//! again gives an equal game, and every record replays to an identical game.

use dice_core::toy::{Toy, ToyVariant};
use dice_core::{Game, Record, Seed, Side, Xorshift};

#[test]
fn a_thousand_games_undo_and_replay_exactly() {
    let variants = [ToyVariant::default(), ToyVariant { goal: 9, dice: 4 }];
    let mut lost = 0;
    let mut resigned = 0;
    for i in 0..1_000u64 {
        let variant = variants[(i % 2) as usize];
        let seed = Seed::new(i.to_le_bytes()).unwrap();
        let mut game: Game<Toy> = Game::seeded(seed, variant).unwrap();
        let mut chooser = Xorshift::new(i);
        while !game.is_over() {
            if i % 50 == 7 && game.ply() > 10 {
                let side = if chooser.below(2) == 0 {
                    Side::Light
                } else {
                    Side::Dark
                };
                assert!(game.resign(Some(side)).is_ok());
                resigned += 1;
                break;
            }
            let legal = game.legal();
            assert!(!legal.is_empty(), "a game that is on always has a move");
            let mv = legal[chooser.below(legal.len())];
            let before = game.clone();
            game.play(mv).unwrap();
            let after = game.clone();
            assert!(game.undo().is_ok());
            assert_eq!(game, before, "game {i}: undo restores the game");
            game.play(mv).unwrap();
            assert_eq!(
                game, after,
                "game {i}: the same move again gives the same game"
            );
        }
        lost += game.forfeits_since(0).len();
        let text = game.to_record().to_string();
        let record: Record<Toy> = Record::parse(&text).unwrap();
        assert_eq!(
            record.to_string(),
            text,
            "game {i}: the text reads back byte for byte"
        );
        let again = Game::replay(&record, None).unwrap();
        assert_eq!(again, game, "game {i}: the record replays to the same game");
        assert_eq!(again.throws(), game.throws());
        assert_eq!(again.to_record().to_string(), text);
    }
    assert!(
        lost > 1_000,
        "lost turns are common in the toy game: {lost}"
    );
    assert_eq!(resigned, 20);
}
