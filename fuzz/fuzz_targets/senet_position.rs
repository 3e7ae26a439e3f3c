//! See `race_fuzz::check` for what `senet_position` asserts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| race_fuzz::check("senet_position", data));
