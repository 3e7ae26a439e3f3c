//! Prints perft-style counts from the start (the figures of tests/data/perft.txt).
//!
//! `cargo run --release -p senet --example walk -- [max depth]`

use dice_core::Side;
use senet::{Pieces, Position, Senet, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let max: u32 = std::env::args().nth(1).map_or(Ok(4), |a| a.parse())?;
    for variant in [
        Variant::KENDALL,
        Variant::SKYRUK,
        Variant::KENDALL.with_pieces(Pieces::Seven),
        Variant::SKYRUK.with_pieces(Pieces::Seven),
    ] {
        for first in [Side::Light, Side::Dark] {
            for depth in 1..=max {
                let count =
                    dice_core::walk::<Senet>(&variant, &Position::start(&variant, first), depth);
                println!("{variant}, {first}, {depth}, {count}");
            }
        }
    }
    Ok(())
}
