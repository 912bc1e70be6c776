//! bijou64 slab decode, differential against `bijoux` record by record (`fuzz_targets::bijou::SlabInput`).
#![no_main]

use fuzz_targets::bijou::{check_slab, SlabInput, Width};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = SlabInput::parse(data) else {
        return;
    };
    match input.width {
        Width::Long => check_slab::<i64>(&input),
        Width::Integer => check_slab::<i32>(&input),
    }
});
