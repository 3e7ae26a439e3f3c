//! Speed: complete random-move games through the seeded `Game` API on one
//! core. Prints figures; asserts nothing about time.
//!
//! `cargo run --release -p senet --example bench [games] [rules]`

#![allow(
    clippy::indexing_slicing,
    reason = "an example indexes what it has just made, such as a list of legal moves that is never empty while a game goes on"
)]

use std::time::Instant;

use dice_core::Seed;
use senet::{Game, Variant};

/// Nanoseconds this thread has run on a CPU (Linux), to separate the
/// engine's speed from the machine's load; `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(Ok(200_000), |a| a.parse())?;
    let variant: Variant = args.next().map_or(Ok(Variant::KENDALL), |a| a.parse())?;
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut plies = 0u64;
    let mut throws = 0u64;
    let start = Instant::now();
    let cpu_start = cpu_ns();
    for n in 0..games {
        let mut game = Game::seeded(Seed::new(n.to_le_bytes())?, variant)?;
        while !game.is_over() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let legal = game.legal();
            let mv = legal[(rng % legal.len() as u64) as usize];
            game.play(mv)?;
        }
        plies += u64::from(game.ply());
        throws += game.throws();
    }
    let secs = start.elapsed().as_secs_f64();
    println!("rules {variant}: {games} random games in {secs:.2} s");
    println!(
        "wall clock: {:.0} games/s, {:.0} throws/s",
        games as f64 / secs,
        throws as f64 / secs
    );
    if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
        let cpu = b.saturating_sub(a) as f64 / 1e9;
        println!(
            "CPU time:   {:.0} games/s, {:.0} throws/s ({cpu:.2} s on the CPU)",
            games as f64 / cpu,
            throws as f64 / cpu
        );
    }
    println!(
        "{:.1} plies and {:.1} throws a game",
        plies as f64 / games as f64,
        throws as f64 / games as f64
    );
    Ok(())
}
