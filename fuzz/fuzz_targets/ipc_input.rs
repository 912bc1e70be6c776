//! The bytes as an Arrow IPC file (file or stream format) for `streamfusion produce --input`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use streamfusion_cli::source::FileFormat;

fuzz_target!(|data: &[u8]| fuzz_targets::input::check(data, FileFormat::Ipc));
