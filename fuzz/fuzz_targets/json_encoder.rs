//! The JSON encoder over arbitrary Arrow batches, both modes (`fuzz_targets::json::check`).
#![no_main]

use arbitrary::Unstructured;
use fuzz_targets::batch::Case;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(case) = Case::generate(&mut u) {
        fuzz_targets::json::check(&case);
    }
});
