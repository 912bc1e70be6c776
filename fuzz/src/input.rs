//! The `produce --input` targets: the fuzzer's bytes as an Arrow IPC or CSV file, read by the CLI's own
//! [`RowSource`] exactly as `streamfusion produce --input FILE` reads it (format detection, CSV schema
//! inference, batch reading, positions, the Flink-mode encoder).
//!
//! [`check`] asserts: no panic; an unreadable file is an error that names it; a readable one gives rows in
//! chunks of at most the asked size, each record's value is JSON, and going back to row 0 (a replay reopens
//! the file) gives the same first records again.

use std::path::PathBuf;

use streamfusion_cli::source::{FileFormat, Input, RowSource};
use streamfusion_json::EncodedRecords;

/// Rows asked for per call: small, so batches are split and resumed inside.
const CHUNK: usize = 5;

/// Calls per input, at most (a file may declare far more rows than it is worth reading here).
const MAX_CALLS: u64 = 64;

/// The file the bytes are written to: one per process, in memory where `/dev/shm` exists.
fn path(format: FileFormat) -> PathBuf {
    let dir = PathBuf::from("/dev/shm");
    let dir = if dir.is_dir() {
        dir
    } else {
        std::env::temp_dir()
    };
    let extension = match format {
        FileFormat::Ipc => "arrow",
        FileFormat::Csv => "csv",
    };
    dir.join(format!(
        "streamfusion-fuzz-{}.{extension}",
        std::process::id()
    ))
}

fn records(source: &mut RowSource, position: u64, out: &mut EncodedRecords) -> Option<usize> {
    match source.encode_into(position, CHUNK, out) {
        Ok(rows) => {
            assert!(rows <= CHUNK, "{rows} rows for a chunk of {CHUNK}");
            assert_eq!(rows, out.len());
            Some(rows)
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
            None
        }
    }
}

/// Reads `data` as a file of `format`; panics when a check fails.
pub fn check(data: &[u8], format: FileFormat) {
    let path = path(format);
    std::fs::write(&path, data).expect("write the input file");
    let input = Input::file(path.clone(), Some(format), String::new()).expect("format given");
    read(&input);
    let _ = std::fs::remove_file(&path);
}

fn read(input: &Input) {
    let mut source = match RowSource::open(input) {
        Ok(source) => source,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    let mut out = EncodedRecords::new();
    let mut first: Option<Vec<Option<Vec<u8>>>> = None;
    let mut position = 0;
    for _ in 0..MAX_CALLS {
        let Some(rows) = records(&mut source, position, &mut out) else {
            return;
        };
        if rows == 0 {
            break;
        }
        for (key, value) in out.iter() {
            assert!(key.is_none(), "no key fields, yet a key");
            let value = value.expect("no row kinds, yet a tombstone");
            serde_json::from_slice::<serde_json::Value>(value)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(value)));
        }
        if first.is_none() {
            first = Some(out.iter().map(|(_, v)| v.map(<[u8]>::to_vec)).collect());
        }
        position += rows as u64;
    }
    if let Some(first) = first {
        // A replay from row 0 reopens the file and must give the same records.
        let rows = records(&mut source, 0, &mut out).expect("the file read before reads again");
        let again: Vec<Option<Vec<u8>>> = out.iter().map(|(_, v)| v.map(<[u8]>::to_vec)).collect();
        assert_eq!(rows, first.len());
        assert_eq!(again, first, "the replay from row 0 differs");
    }
}
