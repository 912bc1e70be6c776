//! bijou64 strict decode (and prefix decode) of any bytes, differential against `bijoux`, in all four formats.
#![no_main]

use fuzz_targets::bijou::{check_record, Width, FORMATS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (width, mapping) in FORMATS {
        match width {
            Width::Long => check_record::<i64>(data, mapping),
            Width::Integer => check_record::<i32>(data, mapping),
        }
    }
});
