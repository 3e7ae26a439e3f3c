//! Which of the two reference ladders' evaluation weights plays a path
//! better: depth-3 searches, one with bell's weights {exposed 16, rosette
//! 16, entry 8} and one with masters' {exposed 16}, play each other. Every
//! seed is played twice, the weights swapping seats (same throws), and the
//! share of games won by bell's weights is printed with its 95% interval.
//!
//! ```text
//! cargo run --release -p royal-ur --example ur_weights -- GAMES RULES...
//! cargo run --release -p royal-ur --example ur_weights -- 2000 blitz aseb "path=murray" "path=skiriuk"
//! ```

#![allow(
    clippy::indexing_slicing,
    reason = "an example indexes what it has just made, such as a list of legal moves that is never empty while a game goes on"
)]

use std::error::Error;

use dice_core::{Seed, Side};
use royal_ur::{BUDGET_DEFAULT, Game, Path, Rung, Variant, Weights, rung, search};

/// The weights of the ladder's searches on `path`.
fn weights_of(path: Path) -> Result<Weights, Box<dyn Error>> {
    match rung(3, path)? {
        Rung::Search { weights, .. } => Ok(weights),
        _ => Err("level 3 searches".into()),
    }
}

/// The winner of one seeded game, light searching with `light` and dark
/// with `dark` (`None` for a draw at the ply cap).
fn play(
    variant: Variant,
    seed: &str,
    light: &Weights,
    dark: &Weights,
) -> Result<Option<Side>, Box<dyn Error>> {
    let mut game = Game::seeded(Seed::new(seed)?, variant)?;
    while !game.is_over() {
        let (Some(side), Some(roll)) = (game.side(), game.roll()) else {
            break;
        };
        let weights = if side == Side::Light { light } else { dark };
        let info = search(&variant, game.position(), roll, 3, BUDGET_DEFAULT, weights);
        let mv = game.legal()[info.index.ok_or("no move")?];
        game.play(mv)?;
    }
    Ok(game.result().and_then(|o| o.winner))
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().ok_or("GAMES RULES...")?.parse()?;
    let (bell, masters) = (weights_of(Path::Bell)?, weights_of(Path::Masters)?);
    for rules in args {
        let variant = Variant::parse_lenient(&rules)?;
        let (mut bell_wins, mut played) = (0u32, 0u32);
        for n in 0..games / 2 {
            let seed = format!("weights {n}");
            for (light, dark, bell_side) in [
                (&bell, &masters, Side::Light),
                (&masters, &bell, Side::Dark),
            ] {
                played += 1;
                if play(variant, &seed, light, dark)? == Some(bell_side) {
                    bell_wins += 1;
                }
            }
        }
        let p = f64::from(bell_wins) / f64::from(played);
        let half = 1.96 * (p * (1.0 - p) / f64::from(played)).sqrt();
        println!(
            "{rules}: bell's weights won {bell_wins} of {played} games against masters' ({:.1}% ±{:.1}%)",
            100.0 * p,
            100.0 * half
        );
    }
    Ok(())
}
