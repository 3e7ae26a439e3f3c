//! The race count: how far each side still has to go.

use serde::Serialize;

/// How far each side still has to go: the steps its pieces need, together,
/// to reach home (Ur) or to bear off (Senet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Race {
    /// Light's steps to go.
    pub light: u32,
    /// Dark's steps to go.
    pub dark: u32,
}
