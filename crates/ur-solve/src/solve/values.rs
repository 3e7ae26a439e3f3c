//! The values being solved, shared by the sweeping threads.

use std::sync::atomic::{AtomicU64, Ordering};

use super::transitions::Code;

/// `len` slots for values, all holding `value`.
pub(super) fn slots(len: usize, value: f64) -> Vec<AtomicU64> {
    (0..len).map(|_| AtomicU64::new(value.to_bits())).collect()
}

/// The values the slots hold.
pub(super) fn numbers(slots: Vec<AtomicU64>) -> Vec<f64> {
    slots
        .into_iter()
        .map(|v| f64::from_bits(v.into_inner()))
        .collect()
}

/// Each state's chance that its mover wins, in index order: the bits of an
/// f64 in a relaxed atomic, a plain load or store on x86-64. Threads read
/// each other's latest values (see the module documentation of `solve`).
#[derive(Clone, Copy)]
pub(super) struct Values<'a>(&'a [AtomicU64]);

impl<'a> Values<'a> {
    /// The values in `slots`.
    pub(super) const fn new(slots: &'a [AtomicU64]) -> Values<'a> {
        Values(slots)
    }

    /// The value at an index (0.0 past the end, which no index of the
    /// solve reaches).
    #[inline(always)]
    pub(super) fn get(&self, index: usize) -> f64 {
        match self.0.get(index) {
            Some(v) => f64::from_bits(v.load(Ordering::Relaxed)),
            None => 0.0,
        }
    }

    /// Sets the value at an index.
    #[inline(always)]
    pub(super) fn set(&self, index: usize, value: f64) {
        if let Some(v) = self.0.get(index) {
            v.store(value.to_bits(), Ordering::Relaxed);
        }
    }

    /// A successor's value for the side that moved: one minus the stored
    /// value when the turn passes.
    #[inline(always)]
    pub(super) fn of(&self, code: Code) -> f64 {
        let v = self.get(code.index());
        if code.turn_passes() { 1.0 - v } else { v }
    }

    /// Asks the processor to bring a successor's value into the cache.
    #[inline(always)]
    pub(super) fn prefetch(&self, code: Code) {
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.0.get(code.index()) {
            // SAFETY: a prefetch is only a hint: it reads nothing into the
            // program and cannot fault; the pointer is to a live value.
            #[allow(unsafe_code, reason = "the prefetch intrinsic is unsafe to call")]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    v.as_ptr().cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = code;
    }
}
