//! Where `produce` and `verify` take their rows from: generated Nexmark bids
//! ([`crate::bids`]) or an Arrow IPC or CSV file.
//!
//! Both are addressed by row position, the source position `produce` commits with every
//! checkpoint: [`RowSource::encode_into`] encodes the rows from a position on, so a
//! restarted or replaying run continues after the last committed row, and `verify`
//! regenerates exactly the records `produce` wrote.
//!
//! A file is read as a stream of Arrow batches and never held whole in memory, by
//! [`streamfusion_input`]: Arrow IPC, file or stream format (told apart by the magic bytes; dictionary,
//! nested and every other type `streamfusion-json` encodes are accepted as they are), or CSV with a header
//! row, each column's type inferred by arrow-csv from the whole file (one extra pass).
//!
//! Rows are read in order, so row `n` of a file is the same on every run as long as the file does not change
//! (for CSV also its column types: a value appended to a file can change what arrow-csv infers, e.g. `7.5` in
//! an integer column, and then every record; produce a grown file under a new writer id). Going back to an
//! earlier position (a replay after an aborted transaction) reopens the file and skips
//! the rows before it. The records are Flink JSON ([`JsonEncoder`] in Flink mode) with the
//! given `key.fields`, as for the bids.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use streamfusion_input::BatchReader;
pub use streamfusion_input::FileFormat;
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};

use crate::bids::{BidOptions, BidSource};
use crate::Error;

/// How the rows become JSON: the `mode` option of `streamfusion-json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum JsonMode {
    /// Byte-identical to Apache Flink's `json` format with the Kafka connector's key/value layout.
    #[default]
    Flink,
    /// Byte-identical to arrow-json's line-delimited writer.
    Plain,
}

impl JsonMode {
    /// The value of the encoder's `mode` option.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            JsonMode::Flink => "flink",
            JsonMode::Plain => "plain",
        }
    }
}

/// What the rows are: the same input gives the same records on every run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// The first `events` Nexmark bids of [`BidOptions`].
    Bids {
        /// Generator and key options.
        options: BidOptions,
        /// Bids in all.
        events: u64,
    },
    /// Every row of a file.
    File {
        /// The file.
        path: PathBuf,
        /// How to read it.
        format: FileFormat,
        /// `key.fields` of the encoder: `;`-separated column names, empty for null keys.
        key_fields: String,
    },
}

impl Input {
    /// A file input whose format is `format`, or else the one its extension names.
    ///
    /// # Errors
    /// [`Error::Input`] when no format is given and the extension names none.
    pub fn file(
        path: PathBuf,
        format: Option<FileFormat>,
        key_fields: String,
    ) -> Result<Self, Error> {
        let format = format
            .or_else(|| FileFormat::from_extension(&path))
            .ok_or_else(|| Error::Input {
                path: path.clone(),
                reason: "unknown file type: name it .arrow, .arrows, .ipc, .feather or .csv, \
                         or pass --input-format ipc|csv"
                    .into(),
            })?;
        Ok(Self::File {
            path,
            format,
            key_fields,
        })
    }

    /// A short description for progress lines: `bids` or the file name.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Input::Bids { .. } => "bids".into(),
            Input::File { path, .. } => format!("rows of {}", path.display()),
        }
    }
}

/// Encodes the rows of an [`Input`] by position.
pub struct RowSource {
    rows: Rows,
}

enum Rows {
    Bids { source: Box<BidSource>, events: u64 },
    File(Box<FileRows>),
}

impl std::fmt::Debug for RowSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.rows {
            Rows::Bids { events, .. } => f
                .debug_struct("RowSource")
                .field("bids", events)
                .finish_non_exhaustive(),
            Rows::File(file) => f
                .debug_struct("RowSource")
                .field("path", &file.path)
                .field("schema", &file.schema)
                .finish_non_exhaustive(),
        }
    }
}

impl RowSource {
    /// Opens `input`: for a file, reads its schema (for CSV, infers it from the whole file)
    /// and plans the encoder for it.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened; [`Error::Input`] when it is not Arrow
    /// IPC or CSV as its format says; [`Error::Encode`] when the key fields are not
    /// columns or a column's type cannot be encoded.
    pub fn open(input: &Input) -> Result<Self, Error> {
        Self::open_as(input, JsonMode::Flink)
    }

    /// [`open`](Self::open), encoding the rows in `mode` instead of Flink's `json` format.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    pub fn open_as(input: &Input, mode: JsonMode) -> Result<Self, Error> {
        let rows = match input {
            Input::Bids { options, events } => Rows::Bids {
                source: Box::new(BidSource::with_mode(options, mode)?),
                events: *events,
            },
            Input::File {
                path,
                format,
                key_fields,
            } => Rows::File(Box::new(FileRows::open(path, *format, key_fields, mode)?)),
        };
        Ok(Self { rows })
    }

    /// Rows in all when known before reading (bids), `None` for a file.
    #[must_use]
    pub fn total(&self) -> Option<u64> {
        match &self.rows {
            Rows::Bids { events, .. } => Some(*events),
            Rows::File(_) => None,
        }
    }

    /// Encodes the rows `position .. position + n` into `out` (cleared first), where `n`
    /// is at most `max_rows` and less only at the end of the input; returns `n`, 0 once
    /// `position` is the end.
    ///
    /// # Errors
    /// [`Error::Input`] when a file cannot be read on or has fewer than `position` rows;
    /// [`Error::Encode`] when the encoder refuses a batch.
    pub fn encode_into(
        &mut self,
        position: u64,
        max_rows: usize,
        out: &mut EncodedRecords,
    ) -> Result<usize, Error> {
        debug_assert!(max_rows > 0, "a batch of 0 rows would read as the end");
        match &mut self.rows {
            Rows::Bids { source, events } => {
                let rows = events.saturating_sub(position).min(max_rows as u64) as usize;
                if rows == 0 {
                    out.clear();
                } else {
                    source.encode_into(position, rows, out)?;
                }
                Ok(rows)
            }
            Rows::File(file) => file.encode_into(position, max_rows, out),
        }
    }
}

/// A file read as Arrow batches from a row position on.
struct FileRows {
    path: PathBuf,
    format: FileFormat,
    schema: SchemaRef,
    encoder: JsonEncoder,
    reader: BatchReader<File>,
    /// The part of the last batch read that is not encoded yet.
    pending: Option<RecordBatch>,
    /// The row position of `pending`'s first row, or of the next batch when none pends.
    next_row: u64,
}

impl FileRows {
    fn open(
        path: &Path,
        format: FileFormat,
        key_fields: &str,
        mode: JsonMode,
    ) -> Result<Self, Error> {
        let reader = streamfusion_input::open_file(path, format, None)
            .map_err(|error| input_error(path, error))?;
        let schema = reader.schema();
        let options =
            EncoderOptions::from_pairs([("mode", mode.name()), ("key.fields", key_fields)])?;
        let mut encoder = JsonEncoder::new(options)?;
        encoder.plan(&schema)?;
        Ok(Self {
            path: path.to_owned(),
            format,
            schema,
            encoder,
            reader,
            pending: None,
            next_row: 0,
        })
    }

    fn encode_into(
        &mut self,
        position: u64,
        max_rows: usize,
        out: &mut EncodedRecords,
    ) -> Result<usize, Error> {
        if position < self.next_row {
            self.reader =
                streamfusion_input::open_file(&self.path, self.format, Some(self.schema.clone()))
                    .map_err(|error| input_error(&self.path, error))?;
            self.pending = None;
            self.next_row = 0;
        }
        // Skip to `position`, then take at most `max_rows` rows of the batch there.
        let batch = loop {
            let batch = match self.pending.take() {
                Some(batch) => batch,
                None => match self.reader.next() {
                    Some(Ok(batch)) => batch,
                    Some(Err(error)) => return Err(input_error(&self.path, error)),
                    None if self.next_row < position => {
                        return Err(self.error(format!(
                            "has {} rows, but the run resumes at row {position} \
                             (committed by a run over another input with the same writer id?)",
                            self.next_row
                        )))
                    }
                    None => {
                        out.clear();
                        return Ok(0);
                    }
                },
            };
            let skip = position.saturating_sub(self.next_row);
            if skip >= batch.num_rows() as u64 {
                self.next_row += batch.num_rows() as u64;
                continue;
            }
            self.next_row = position;
            break batch.slice(skip as usize, batch.num_rows() - skip as usize);
        };
        let rows = batch.num_rows().min(max_rows);
        if rows < batch.num_rows() {
            self.pending = Some(batch.slice(rows, batch.num_rows() - rows));
        }
        self.next_row += rows as u64;
        self.encoder.encode_into(&batch.slice(0, rows), out)?;
        Ok(rows)
    }

    fn error(&self, reason: String) -> Error {
        Error::Input {
            path: self.path.clone(),
            reason,
        }
    }
}

/// The command's error for `path` failing as `error` says: [`Error::Io`] for the operating system's error,
/// otherwise [`Error::Input`] with the reader's reason.
fn input_error(path: &Path, error: streamfusion_input::Error) -> Error {
    match error {
        streamfusion_input::Error::Io(source) => Error::Io {
            path: path.to_owned(),
            source,
        },
        error => Error::Input {
            path: path.to_owned(),
            reason: error.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bids::DEFAULT_BASE_TIME_MS;
    use arrow_array::{ArrayRef, Float64Array, Int64Array, StringArray};
    use arrow_ipc::writer::{FileWriter, StreamWriter};
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;

    /// A file under the temporary folder, deleted when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str) -> Self {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            Self(std::env::temp_dir().join(format!(
                "streamfusion-source-{}-{nanos}-{name}",
                std::process::id()
            )))
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn bid_options() -> BidOptions {
        BidOptions {
            base_time_ms: DEFAULT_BASE_TIME_MS,
            key_fields: "auction".into(),
        }
    }

    /// Bids 0..10 written as two batches of 6 and 4 rows.
    fn bid_batches() -> Vec<RecordBatch> {
        let source = BidSource::new(&bid_options()).unwrap();
        vec![source.batch(0, 6).unwrap(), source.batch(6, 4).unwrap()]
    }

    fn records_at(source: &mut RowSource, position: u64, max_rows: usize) -> Vec<String> {
        let mut out = EncodedRecords::new();
        let rows = source.encode_into(position, max_rows, &mut out).unwrap();
        assert_eq!(rows, out.len());
        out.iter()
            .map(|(key, value)| {
                let text = |b: Option<&[u8]>| b.map(|b| String::from_utf8(b.to_vec()).unwrap());
                format!("{:?}\t{:?}", text(key), text(value))
            })
            .collect()
    }

    /// Reads, resumes mid-batch, goes back (reopening the file) and reaches the end, and
    /// compares every record with the bids source's record at the same position.
    fn check_positions(input: &Input) {
        let mut bids = RowSource::open(&Input::Bids {
            options: bid_options(),
            events: 10,
        })
        .unwrap();
        let mut file = RowSource::open(input).unwrap();
        assert_eq!(file.total(), None);
        let expected = records_at(&mut bids, 0, 10);
        assert_eq!(expected.len(), 10);
        // Batches are never merged: 4 of the first batch, then its last 2.
        assert_eq!(records_at(&mut file, 0, 4), expected[0..4]);
        assert_eq!(records_at(&mut file, 4, 4), expected[4..6]);
        // Resume inside the second batch, skipping a row.
        assert_eq!(records_at(&mut file, 7, 100), expected[7..10]);
        assert!(records_at(&mut file, 10, 100).is_empty());
        // A replay from an earlier position reopens the file.
        assert_eq!(records_at(&mut file, 2, 3), expected[2..5]);
        assert_eq!(records_at(&mut file, 5, 1), expected[5..6]);
        // Past the end: the file does not have the committed rows.
        let mut out = EncodedRecords::new();
        let error = file.encode_into(11, 4, &mut out).unwrap_err();
        assert!(
            matches!(&error, Error::Input { reason, .. } if reason.starts_with("has 10 rows, but the run resumes at row 11")),
            "{error}"
        );
    }

    #[test]
    fn ipc_file_rows_are_read_by_position() {
        let path = TempFile::new("bids.arrow");
        let batches = bid_batches();
        let mut writer =
            FileWriter::try_new(File::create(&path.0).unwrap(), &batches[0].schema()).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        writer.finish().unwrap();
        check_positions(&Input::file(path.0.clone(), None, "auction".into()).unwrap());
    }

    #[test]
    fn ipc_stream_rows_are_read_by_position() {
        let path = TempFile::new("bids.arrows");
        let batches = bid_batches();
        let mut writer =
            StreamWriter::try_new(File::create(&path.0).unwrap(), &batches[0].schema()).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        writer.finish().unwrap();
        check_positions(&Input::file(path.0.clone(), None, "auction".into()).unwrap());
    }

    #[test]
    fn csv_columns_take_the_types_arrow_csv_infers() {
        let path = TempFile::new("rows.csv");
        std::fs::write(&path.0, "id,name,price\n1,a,2.5\n2,,3\n3,\"c, d\",-1e3\n").unwrap();
        let mut file =
            RowSource::open(&Input::file(path.0.clone(), None, "id".into()).unwrap()).unwrap();
        // The same rows built by hand: Int64, Utf8 (empty is null), Float64, all nullable.
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, true),
            Field::new("name", DataType::Utf8, true),
            Field::new("price", DataType::Float64, true),
        ]));
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(vec![1, 2, 3])),
            Arc::new(StringArray::from(vec![Some("a"), None, Some("c, d")])),
            Arc::new(Float64Array::from(vec![2.5, 3.0, -1000.0])),
        ];
        let batch = RecordBatch::try_new(schema, columns).unwrap();
        let options =
            EncoderOptions::from_pairs([("mode", "flink"), ("key.fields", "id")]).unwrap();
        let mut expected = EncodedRecords::new();
        JsonEncoder::new(options)
            .unwrap()
            .encode_into(&batch, &mut expected)
            .unwrap();
        let mut got = EncodedRecords::new();
        assert_eq!(file.encode_into(0, 10, &mut got).unwrap(), 3);
        assert_eq!(got.keys(), expected.keys());
        assert_eq!(got.values(), expected.values());
        assert_eq!(file.encode_into(3, 10, &mut got).unwrap(), 0);
    }

    #[test]
    fn bad_inputs_are_refused_with_the_file_named() {
        let unknown = Input::file("rows.txt".into(), None, String::new()).unwrap_err();
        assert!(unknown.to_string().contains("--input-format"), "{unknown}");

        let path = TempFile::new("not-arrow.arrow");
        std::fs::write(&path.0, "id\n1\n").unwrap();
        let error = RowSource::open(&Input::file(path.0.clone(), None, String::new()).unwrap())
            .unwrap_err();
        assert!(matches!(error, Error::Input { .. }), "{error}");
        assert!(error.to_string().contains("not an Arrow IPC"), "{error}");

        let missing = TempFile::new("missing.csv");
        let error = RowSource::open(&Input::file(missing.0.clone(), None, String::new()).unwrap())
            .unwrap_err();
        assert!(matches!(error, Error::Io { .. }), "{error}");

        let path = TempFile::new("rows.csv");
        std::fs::write(&path.0, "id\n1\n").unwrap();
        let error = RowSource::open(&Input::file(path.0.clone(), None, "nope".into()).unwrap())
            .unwrap_err();
        assert!(matches!(error, Error::Encode(_)), "{error}");
    }
}
