//! The flat JVM handoff importer over real allocations with fuzzed counts, capacities, offsets and contents
//! (`fuzz_targets::flat`); run under AddressSanitizer.
#![no_main]

use arbitrary::Unstructured;
use fuzz_targets::flat::FlatBatch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(batch) = FlatBatch::generate(&mut u) {
        fuzz_targets::flat::check(batch);
    }
});
