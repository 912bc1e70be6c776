//! The binary-row JVM handoff importer over Flink rows the fuzzer mutates (`fuzz_targets::binary_rows`); run
//! under AddressSanitizer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = fuzz_targets::binary_rows::Case::parse(data) {
        fuzz_targets::binary_rows::check(case);
    }
});
