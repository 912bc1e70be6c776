//! The JSON decoder over a chunk of 1 to 8 Kafka messages cut from any bytes, with fuzzed options and one of a
//! few schemas: the chunk at once against its messages one by one (`fuzz_targets::json_decode::check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_targets::json_decode::check(data));
