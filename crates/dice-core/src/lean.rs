//! `Lean<R>`: a seeded game kept to what playing on needs, for programs
//! that play many games and never look back.

use crate::dice::{Thrower, Thrown};
use crate::game::throw_off;
use crate::{Dice, MoveList, NewGameError, Opening, Rules, Seed, Side, Status};

/// A seeded game without a log, an undo stack or a record: its position,
/// its dice, the roll in hand with its legal moves, and its ply count.
///
/// It plays exactly as [`Game::seeded`](crate::Game::seeded) does with
/// the same seed and moves: the same opening, throws, lost turns (settled
/// inside, as the game settles them), positions, plies and result. What
/// it leaves out is what a game remembers of the past.
///
/// ```
/// use dice_core::{Game, Lean, Seed};
/// # use dice_core::toy::{Toy, ToyVariant};
///
/// let seed = Seed::new("lean")?;
/// let mut lean: Lean<Toy> = Lean::seeded(seed.clone(), ToyVariant::default())?;
/// let mut game: Game<Toy> = Game::seeded(seed, ToyVariant::default())?;
/// while lean.status() == dice_core::Status::Ongoing {
///     let mv = lean.legal()[0];
///     assert!(lean.play(mv));
///     game.play(mv)?;
///     assert_eq!((lean.position(), lean.ply()), (game.position(), game.ply()));
/// }
/// assert_eq!(lean.status(), game.status());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Lean<R: Rules> {
    variant: R::Variant,
    thrower: Thrower,
    dice_count: u8,
    position: R::Position,
    ply: u32,
    throws: u64,
    roll: Option<u8>,
    legal: MoveList<R::Move>,
}

impl<R: Rules> Lean<R> {
    /// The game of this seed under these rules, its first side and first
    /// roll settled as [`Game::seeded`](crate::Game::seeded) settles them.
    ///
    /// # Errors
    ///
    /// [`NewGameError::OpeningTied`] for a throw-off that never ends.
    pub fn seeded(seed: Seed, variant: R::Variant) -> Result<Lean<R>, NewGameError> {
        let mut thrower = Thrower::new(Dice::Seeded(seed));
        let dice_count = R::dice(&variant);
        let mut opening = Vec::new();
        let first: Side = match R::opening(&variant) {
            Opening::Fixed(side) => side,
            Opening::ThrowOff => throw_off::<R>(&variant, &mut thrower, dice_count, &mut opening)?,
        };
        let mut lean = Lean {
            position: R::start(&variant, first),
            variant,
            thrower,
            dice_count,
            ply: 0,
            throws: opening.len() as u64,
            roll: None,
            legal: MoveList::new(),
        };
        lean.settle();
        Ok(lean)
    }

    /// Throws until the game is over or the side to move has a choice.
    fn settle(&mut self) {
        self.roll = None;
        self.legal.clear();
        while self.status() == Status::Ongoing {
            let Some(Thrown::Faces(faces)) = self.thrower.throw(self.throws, 0, self.dice_count)
            else {
                return;
            };
            let roll = R::roll(&self.variant, faces);
            self.throws += 1;
            R::legal(&self.variant, &self.position, roll, &mut self.legal);
            if !self.legal.is_empty() {
                self.roll = Some(roll);
                return;
            }
            self.position = R::forfeit(&self.variant, &self.position, roll).0;
            self.ply += 1;
        }
    }

    /// Plays `mv` when it is legal, then throws for the next turn, losing
    /// any turns that roll allows no move for; says whether it played.
    /// A move that is not legal (or a game that is over) changes nothing.
    pub fn play(&mut self, mv: R::Move) -> bool {
        let Some(roll) = self.roll else {
            return false;
        };
        if !self.legal.contains(&mv) {
            return false;
        }
        self.position = R::apply(&self.variant, &self.position, roll, mv).0;
        self.ply += 1;
        self.settle();
        true
    }

    /// The rule set.
    #[must_use]
    pub fn variant(&self) -> &R::Variant {
        &self.variant
    }

    /// The position now.
    #[must_use]
    pub fn position(&self) -> &R::Position {
        &self.position
    }

    /// The roll in hand; `None` once the game is over.
    #[must_use]
    pub fn roll(&self) -> Option<u8> {
        self.roll
    }

    /// The legal moves for the roll in hand (none once the game is over).
    #[must_use]
    pub fn legal(&self) -> &[R::Move] {
        &self.legal
    }

    /// The side to move; `None` once the game is over.
    #[must_use]
    pub fn side(&self) -> Option<Side> {
        self.roll.map(|_| R::side(&self.position))
    }

    /// Plies played: moves and lost turns.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Where the game stands: a win, the ply cap, or ongoing.
    #[must_use]
    pub fn status(&self) -> Status {
        R::status(&self.variant, &self.position).at_ply(self.ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::toy::{Toy, ToyVariant};

    /// Lean games and full games of many seeds, played with moves chosen
    /// by a throw-away counter, agree on everything a lean game shows.
    #[test]
    fn lean_games_play_as_full_games() {
        for i in 0..200u32 {
            let seed = Seed::new(format!("lean {i}")).unwrap();
            let variant = ToyVariant::default();
            let mut lean: Lean<Toy> = Lean::seeded(seed.clone(), variant).unwrap();
            let mut game: Game<Toy> = Game::seeded(seed, variant).unwrap();
            let mut pick = i as usize;
            let mut last = None;
            loop {
                assert_eq!(lean.position(), game.position());
                assert_eq!(lean.ply(), game.ply());
                assert_eq!(lean.roll(), game.roll());
                assert_eq!(lean.side(), game.side());
                assert_eq!(lean.legal(), game.legal());
                assert_eq!(lean.status(), game.status());
                if game.is_over() {
                    break;
                }
                pick = pick.wrapping_mul(31).wrapping_add(7);
                let mv = game.legal()[pick % game.legal().len()];
                assert!(lean.play(mv));
                last = Some(mv);
                game.play(mv).unwrap();
            }
            let (before, ply) = (*lean.position(), lean.ply());
            assert!(!lean.play(last.unwrap()), "a finished game plays nothing");
            assert_eq!((*lean.position(), lean.ply()), (before, ply));
        }
    }
}
