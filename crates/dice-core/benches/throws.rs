//! Prints how fast seeded throws are made on this machine.
//!
//! `cargo bench -p dice-core --bench throws`

use std::hint::black_box;
use std::time::Instant;

use dice_core::toy::{Toy, ToyVariant};
use dice_core::{Game, Seed, throw_bits};

fn main() {
    let seed = Seed::new("throughput").unwrap_or_else(|_| unreachable!());
    let count = 5_000_000u64;
    let started = Instant::now();
    let mut acc = 0u8;
    for n in 0..count {
        acc ^= throw_bits(black_box(&seed), n);
    }
    let secs = started.elapsed().as_secs_f64();
    black_box(acc);
    println!(
        "throw_bits (hashing the seed each time): {:.1} M throws/s",
        count as f64 / secs / 1e6
    );

    let games = 20_000u64;
    let started = Instant::now();
    let mut throws = 0;
    for g in 0..games {
        let Ok(seed) = Seed::new(g.to_le_bytes()) else {
            continue;
        };
        let Ok(mut game) = Game::<Toy>::seeded(seed, ToyVariant::default()) else {
            continue;
        };
        while let Some(&mv) = game.legal().last() {
            if game.play(mv).is_err() {
                break;
            }
        }
        throws += game.throws();
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "toy games through Game: {:.0} games/s, {:.1} M throws/s",
        games as f64 / secs,
        throws as f64 / secs / 1e6
    );
}
