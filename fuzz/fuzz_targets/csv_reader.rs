//! The `produce --input` CSV reader (schema inference, then the rows) over any bytes
//! (`fuzz_targets::input::check_csv`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_targets::input::check_csv(data));
