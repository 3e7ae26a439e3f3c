//! See `race_fuzz::check` for what `seed_hex` asserts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| race_fuzz::check("seed_hex", data));
