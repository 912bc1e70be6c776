//! `streamfusion encode`: the records `produce` would write, as JSON lines on stdout or in a file, without a
//! broker.
//!
//! The rows (generated Nexmark bids, or an Arrow IPC / CSV file: [`crate::source`]) are encoded exactly as
//! `produce` encodes them, in Flink mode (Apache Flink's `json` format with the Kafka connector's key/value
//! layout) or in plain mode (arrow-json's line-delimited writer). Each record becomes one line: its value, or,
//! with `keys`, `KEY<TAB>VALUE` in the form `streamfusion consume --print` prints, so the two can be
//! compared with `diff`. A null key or a null value (a tombstone) is written as `null`.

use std::io::Write;

use streamfusion_json::EncodedRecords;

use crate::source::{Input, JsonMode, RowSource};
use crate::Error;

/// Rows encoded per batch.
const BATCH_ROWS: usize = 8192;

/// What `encode` reads and how it writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The rows and their key fields.
    pub input: Input,
    /// Flink or plain JSON.
    pub mode: JsonMode,
    /// Write `KEY<TAB>VALUE` lines instead of values only.
    pub keys: bool,
}

/// What `encode` wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EncodeSummary {
    /// Records written.
    pub records: u64,
    /// Key and value bytes of those records (without separators and newlines).
    pub bytes: u64,
}

/// Encodes every row of `options.input` and writes one line per record to `out`.
///
/// # Errors
/// [`Error::Encode`] for bad key fields or a column that cannot be encoded; [`Error::Io`] or
/// [`Error::Input`] for an input file that cannot be read; the `std::io::Error` of `out` is returned as
/// [`Error::Io`] with the path `<output>`.
pub fn run(options: &EncodeOptions, out: &mut impl Write) -> Result<EncodeSummary, Error> {
    let mut source = RowSource::open_as(&options.input, options.mode)?;
    let mut records = EncodedRecords::new();
    let mut summary = EncodeSummary::default();
    loop {
        let rows = source.encode_into(summary.records, BATCH_ROWS, &mut records)?;
        if rows == 0 {
            break;
        }
        for (key, value) in records.iter() {
            write_record(out, options.keys, key, value).map_err(output_error)?;
            summary.bytes += (key.map_or(0, <[u8]>::len) + value.map_or(0, <[u8]>::len)) as u64;
        }
        summary.records += rows as u64;
    }
    out.flush().map_err(output_error)?;
    Ok(summary)
}

fn output_error(source: std::io::Error) -> Error {
    Error::Io {
        path: "<output>".into(),
        source,
    }
}

/// One line: the value, or `KEY<TAB>VALUE` with `keys`; `null` for an absent key or value.
pub(crate) fn write_record(
    out: &mut impl Write,
    keys: bool,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> std::io::Result<()> {
    if keys {
        out.write_all(key.unwrap_or(b"null"))?;
        out.write_all(b"\t")?;
    }
    out.write_all(value.unwrap_or(b"null"))?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bids::{BidOptions, DEFAULT_BASE_TIME_MS};

    fn bids(events: u64) -> Input {
        Input::Bids {
            options: BidOptions {
                base_time_ms: DEFAULT_BASE_TIME_MS,
                key_fields: "auction".into(),
            },
            events,
        }
    }

    fn encode(mode: JsonMode, keys: bool, input: Input) -> (EncodeSummary, String) {
        let mut out = Vec::new();
        let options = EncodeOptions { input, mode, keys };
        let summary = run(&options, &mut out).expect("encode");
        (summary, String::from_utf8(out).expect("UTF-8"))
    }

    #[test]
    fn one_line_per_record_with_keys_like_consume_print() {
        let (summary, text) = encode(JsonMode::Flink, true, bids(10_000));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(summary.records, 10_000);
        assert_eq!(lines.len(), 10_000, "one line per record");
        for line in &lines {
            let (key, value) = line.split_once('\t').expect("KEY<TAB>VALUE");
            assert!(key.starts_with("{\"auction\":"), "key {key}");
            assert!(value.starts_with("{\"auction\":"), "value {value}");
        }
        let bytes: usize = lines.iter().map(|l| l.len() - 1).sum();
        assert_eq!(summary.bytes, bytes as u64, "bytes exclude the separators");
    }

    #[test]
    fn values_only_without_keys() {
        let (_, with_keys) = encode(JsonMode::Flink, true, bids(100));
        let (_, values) = encode(JsonMode::Flink, false, bids(100));
        let expected: Vec<&str> = with_keys
            .lines()
            .map(|l| l.split_once('\t').unwrap().1)
            .collect();
        assert_eq!(values.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn null_keys_and_values_print_as_null() {
        let mut out = Vec::new();
        write_record(&mut out, true, None, Some(b"{}")).unwrap();
        write_record(&mut out, true, Some(b"{\"k\":1}"), None).unwrap();
        write_record(&mut out, false, Some(b"{\"k\":1}"), None).unwrap();
        assert_eq!(out, b"null\t{}\n{\"k\":1}\tnull\nnull\n");
    }

    #[test]
    fn plain_mode_writes_arrow_json_timestamps() {
        // Flink's SQL timestamp format has a space, arrow-json's writer an ISO-8601 `T`.
        let (_, flink) = encode(JsonMode::Flink, false, bids(1));
        let (_, plain) = encode(JsonMode::Plain, false, bids(1));
        assert!(
            flink.contains("\"dateTime\":\"2026-01-01 00:00:00"),
            "{flink}"
        );
        assert!(
            plain.contains("\"dateTime\":\"2026-01-01T00:00:00"),
            "{plain}"
        );
    }
}
