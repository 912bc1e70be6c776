//! The `produce --input` Arrow IPC reader (file and stream format) over any bytes
//! (`fuzz_targets::input::check_ipc`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_targets::input::check_ipc(data));
