//! How far the ladder's searches are from perfect play: perfect players
//! play seeded games from a solved table (seeds `loss 0`, `loss 1`, ...),
//! and at every throw with more than one move the ladder's search (its
//! level-2 weights for the table's path) chooses at each depth too. Prints,
//! per depth, the share of those throws where it chose the perfect move
//! and the mean win chance it gave up a throw (the perfect move's value
//! minus its move's). Also counts the throws where a capture is among the
//! moves, and how often perfect play and the depth-2 search capture there.
//!
//! ```text
//! race solve "path=murray pieces=3" --out murray3.tbl
//! cargo run --release -p ur-solve --example ladder_loss -- murray3.tbl GAMES [DEPTH...]
//! ```

use std::error::Error;
use std::path::Path;

use dice_core::Seed;
use royal_ur::{BUDGET_DEFAULT, Game, Place, Rung, rung, search};
use ur_solve::{Table, WinChances, best_move, move_values};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "TABLE GAMES [DEPTH...]";
    let table = Table::open(Path::new(&args.next().ok_or(usage)?))?;
    let games: u32 = args.next().ok_or(usage)?.parse()?;
    let mut depths: Vec<u32> = args.map(|a| a.parse()).collect::<Result<_, _>>()?;
    if depths.is_empty() {
        depths = vec![1, 2, 3, 4];
    }
    let variant = *table.variant();
    let Rung::Search { weights, .. } = rung(2, variant.path())? else {
        return Err("level 2 searches".into());
    };
    let mut agreed = vec![0u32; depths.len()];
    let mut lost = vec![0f64; depths.len()];
    let mut throws = 0u32;
    // Throws with a capture among several moves; perfect play's captures;
    // the depth-2 search's.
    let mut captures = [0u32; 3];
    for n in 0..games {
        let mut game = Game::seeded(Seed::new(format!("loss {n}"))?, variant)?;
        while let (false, Some(roll)) = (game.is_over(), game.roll()) {
            let position = *game.position();
            let best = best_move(&table, &position, roll)?.ok_or("no move")?;
            let values = move_values(&table, &position, roll)?;
            let captures_at = |k: usize| {
                values.get(k).is_some_and(|v| match v.mv.to() {
                    Place::Square(square) => position.at(square) == Some(position.side().other()),
                    Place::Hand | Place::Home => false,
                })
            };
            if values.len() > 1 && (0..values.len()).any(captures_at) {
                let perfect = values.iter().position(|v| v.mv == best.mv);
                let info = search(&variant, &position, roll, 2, BUDGET_DEFAULT, &weights);
                captures[0] += 1;
                captures[1] += u32::from(perfect.is_some_and(captures_at));
                captures[2] += u32::from(info.index.is_some_and(captures_at));
            }
            if values.len() > 1 {
                throws += 1;
                for (k, &depth) in depths.iter().enumerate() {
                    let info = search(&variant, &position, roll, depth, BUDGET_DEFAULT, &weights);
                    let index = info.index.ok_or("the search chose no move")?;
                    let chosen = values.get(index).ok_or("the search chose past the moves")?;
                    if let (Some(a), Some(l)) = (agreed.get_mut(k), lost.get_mut(k)) {
                        *a += u32::from(chosen.mv == best.mv);
                        *l += best.win_chance - chosen.win_chance;
                    }
                }
            }
            game.play(best.mv)?;
        }
    }
    println!("{variant}: {games} games, {throws} throws with a choice");
    for ((depth, a), l) in depths.iter().zip(&agreed).zip(&lost) {
        println!(
            "depth {depth}: the perfect move {:.1}% of throws, {:.5} of a win given up a throw",
            100.0 * f64::from(*a) / f64::from(throws),
            l / f64::from(throws)
        );
    }
    let [offered, perfect, searched] = captures.map(f64::from);
    println!(
        "a capture among the moves on {offered} throws: perfect play captured on {:.1}% of them, \
         the depth-2 search on {:.1}%",
        100.0 * perfect / offered,
        100.0 * searched / offered
    );
    Ok(())
}
