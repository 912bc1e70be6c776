//! Readers for the shared test vectors (`testdata/vectors`, the vectors every implementation of the
//! format is checked against).
#![allow(dead_code)] // each test binary uses a part

use std::path::PathBuf;

/// The directory holding `bijou.csv` and `bijou-invalid.csv`.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors")
}

/// The data rows of a vectors CSV (comments and blank lines dropped), split on commas.
pub fn rows(file: &str) -> Vec<Vec<String>> {
    let path = vectors_dir().join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// Lower-case hex to bytes.
pub fn unhex(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd hex length: {hex}");
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}
