//! The statistics in docs/senet-stats.md: random-vs-random games and the
//! bot ladder in self-play. Prints Markdown tables.
//!
//! ```text
//! cargo run --release -p senet --example stats -- random 20000
//! cargo run --release -p senet --example stats -- ladder 2000 kendall
//! ```

#![allow(
    clippy::indexing_slicing,
    reason = "an example indexes what it has just made, such as a list of legal moves that is never empty while a game goes on"
)]

use dice_core::{Seed, Side, Xorshift};
use senet::{Bot, Game, Pieces, Variant};

fn random(games: u64) -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "| rules | pieces | games | first side (light) wins | draws | throws a game | plies a game |"
    );
    println!("|---|---|---|---|---|---|---|");
    for base in [Variant::KENDALL, Variant::SKYRUK] {
        for pieces in [Pieces::Five, Pieces::Seven] {
            let variant = base.with_pieces(pieces);
            let mut rng = Xorshift::new(1);
            let (mut first, mut draws, mut throws, mut plies) = (0u64, 0u64, 0u64, 0u64);
            for n in 0..games {
                let seed = Seed::new(format!("random {} {n}", variant.spelled_out()))?;
                let mut game = Game::seeded(seed, variant)?;
                while !game.is_over() {
                    let legal = game.legal();
                    let mv = legal[rng.below(legal.len())];
                    game.play(mv)?;
                }
                match game.result().and_then(|r| r.winner) {
                    Some(Side::Light) => first += 1,
                    Some(Side::Dark) => {}
                    _ => draws += 1,
                }
                throws += game.throws();
                plies += u64::from(game.ply());
            }
            let g = games as f64;
            println!(
                "| {} | {} | {games} | {:.2}% | {draws} | {:.1} | {:.1} |",
                base,
                pieces.count(),
                100.0 * first as f64 / g,
                throws as f64 / g,
                plies as f64 / g
            );
        }
    }
    Ok(())
}

fn ladder(games: u64, variant: Variant) -> Result<(), Box<dyn std::error::Error>> {
    println!("| rules | pairing | games | higher level wins | win rate | ±95% | draws |");
    println!("|---|---|---|---|---|---|---|");
    for lo in 1..=3u8 {
        let hi = lo + 1;
        let (low, high) = (Bot::new(Some(lo), None)?, Bot::new(Some(hi), None)?);
        let (mut wins, mut draws) = (0u64, 0u64);
        for n in 0..games {
            let seed = Seed::new(format!("ladder {variant} {lo}v{hi} {}", n / 2))?;
            let mut game = Game::seeded(seed, variant)?;
            // the same throws twice, once with the higher level on each side
            let high_side = if n.is_multiple_of(2) {
                Side::Light
            } else {
                Side::Dark
            };
            while let Some(side) = game.side() {
                let bot = if side == high_side { high } else { low };
                let Some(mv) = bot.choose(&game) else { break };
                game.play(mv)?;
            }
            match game.result().and_then(|r| r.winner) {
                Some(w) if w == high_side => wins += 1,
                Some(_) => {}
                None => draws += 1,
            }
        }
        let p = wins as f64 / games as f64;
        let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
        println!(
            "| {variant} | {hi} vs {lo} | {games} | {wins} | {:.1}% | {:.1}% | {draws} |",
            100.0 * p,
            100.0 * half
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("random", String::as_str);
    let games: u64 = args.get(1).map_or(Ok(20_000), |a| a.parse())?;
    match what {
        "random" => random(games),
        "ladder" => ladder(
            games,
            args.get(2).map_or(Ok(Variant::KENDALL), |a| a.parse())?,
        ),
        other => Err(format!("no such statistics as {other:?}: random or ladder").into()),
    }
}
