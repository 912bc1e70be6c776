//! Golden Flink records on disk and our encoder's output in the same shape, shared by `tests/flink_parity.rs`
//! (the goldens `scripts/parity.sh` writes), `tests/flink_goldens.rs` (the pinned set checked in under
//! `tests/data/flink-goldens/`) and `tests/plain_parity.rs` (our side of the comparison with arrow-json). A golden set holds, per corpus case, `<case>.records` (the records Flink wrote:
//! per record a big-endian `i32` key length, the key, an `i32` value length, the value; a negative length is a
//! null) or `<case>.error` (Flink refused the case; its message).
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::Path;

use arrow_array::RecordBatch;
use streamfusion_json::{EncoderOptions, JsonEncoder};

/// One Kafka record: key and value, `None` for null.
pub type Record = (Option<Vec<u8>>, Option<Vec<u8>>);

/// What Flink did with a case.
pub enum Golden {
    /// The records it wrote.
    Records(Vec<Record>),
    /// Its error message (it refused the case).
    Error(String),
}

/// Parses a `<case>.records` file.
///
/// # Errors
/// A message naming the byte where the file is truncated.
pub fn read_records(bytes: &[u8]) -> Result<Vec<Record>, String> {
    fn part(bytes: &[u8], at: &mut usize) -> Result<Option<Vec<u8>>, String> {
        let len_bytes: [u8; 4] = bytes
            .get(*at..*at + 4)
            .ok_or_else(|| format!("truncated length at byte {at}"))?
            .try_into()
            .expect("4 bytes");
        *at += 4;
        let len = i32::from_be_bytes(len_bytes);
        if len < 0 {
            return Ok(None);
        }
        let data = bytes
            .get(*at..*at + len as usize)
            .ok_or_else(|| format!("truncated record at byte {at}"))?;
        *at += len as usize;
        Ok(Some(data.to_vec()))
    }
    let mut at = 0;
    let mut out = Vec::new();
    while at < bytes.len() {
        let key = part(bytes, &mut at)?;
        let value = part(bytes, &mut at)?;
        out.push((key, value));
    }
    Ok(out)
}

/// Reads case `name` of the golden set in `dir`: its records, or Flink's error.
///
/// # Errors
/// When neither file exists or the records are truncated.
pub fn read_golden(dir: &Path, name: &str) -> Result<Golden, String> {
    let records = dir.join(format!("{name}.records"));
    let error = dir.join(format!("{name}.error"));
    if let Ok(bytes) = std::fs::read(&records) {
        return read_records(&bytes)
            .map(Golden::Records)
            .map_err(|e| format!("{}: {e}", records.display()));
    }
    if let Ok(text) = std::fs::read_to_string(&error) {
        return Ok(Golden::Error(text.trim_end().to_owned()));
    }
    Err(format!(
        "neither {} nor {} exists",
        records.display(),
        error.display()
    ))
}

/// Encodes the batches with one encoder of `options` followed by `extra` (e.g. `flink.version`, or plain mode);
/// an error or a panic (reported as such) is an `Err`.
pub fn encode(
    options: &[(String, String)],
    extra: &[(&str, &str)],
    batches: &[RecordBatch],
) -> Result<Vec<Record>, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        encode_inner(options, extra, batches)
    }))
    .unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        Err(format!("PANIC in our encoder: {message}"))
    })
}

fn encode_inner(
    options: &[(String, String)],
    extra: &[(&str, &str)],
    batches: &[RecordBatch],
) -> Result<Vec<Record>, String> {
    let mut pairs = options.to_vec();
    pairs.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    let options = EncoderOptions::from_pairs(pairs).map_err(|e| e.to_string())?;
    let mut encoder = JsonEncoder::new(options).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for batch in batches {
        let records = encoder.encode(batch).map_err(|e| e.to_string())?;
        out.extend(
            records
                .iter()
                .map(|(k, v)| (k.map(<[u8]>::to_vec), v.map(<[u8]>::to_vec))),
        );
    }
    Ok(out)
}

/// Bytes for humans: printable ASCII as is, everything else `\xNN`.
pub fn show(bytes: Option<&[u8]>) -> String {
    let Some(bytes) = bytes else {
        return "<null>".to_owned();
    };
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('`');
    for &b in bytes.iter().take(600) {
        if (0x20..0x7f).contains(&b) {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\x{b:02x}");
        }
    }
    if bytes.len() > 600 {
        let _ = write!(s, "...({} bytes)", bytes.len());
    }
    s.push('`');
    s
}
