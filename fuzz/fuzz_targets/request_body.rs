//! See `race_fuzz::check` for what `request_body` asserts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| race_fuzz::check("request_body", data));
