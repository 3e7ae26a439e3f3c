//! See `race_fuzz::check` for what `ur_record` asserts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| race_fuzz::check("ur_record", data));
