//! Plays a seeded game of the toy race to the end and prints its record.
//!
//! `cargo run -p dice-core --example toy_game -- [SEED]`

use dice_core::toy::{Toy, ToyVariant};
use dice_core::{Game, Seed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "an example".to_owned());
    let mut game: Game<Toy> = Game::seeded(Seed::new(seed)?, ToyVariant::default())?;
    while let Some(&mv) = game.legal().last() {
        game.play(mv)?;
    }
    print!("{}", game.to_record());
    Ok(())
}
