//! Each game behind [`RaceGame`](crate::RaceGame), one module a game.

pub mod senet;
pub mod ur;
