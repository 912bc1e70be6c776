//! The file readers of `streamfusion produce --input` (and `verify` / `encode --input`): an Arrow IPC or CSV
//! file read as a stream of Arrow [`RecordBatch`]es, never held whole in memory.
//!
//! * Arrow IPC: the file format (`ARROW1` magic, what `pyarrow.ipc.new_file` and Arrow Java's
//!   `ArrowFileWriter` write), read by arrow-ipc's [`FileReader`], or the stream format (`ArrowStreamWriter`),
//!   read by its [`StreamReader`]; told apart by the first six bytes. Both validate every batch they decode
//!   (arrow-ipc's default), and the types are whatever the file declares.
//! * CSV: a header row names the columns; arrow-csv's [`Format`] inference reads the whole input once and
//!   gives each column a type (`Int64`, `Float64`, `Boolean`, `Date32`, timestamps, otherwise `Utf8`; every
//!   column nullable, an empty field is null), with its `Format` defaults (comma, `"` quotes); a second pass
//!   reads the rows in batches of [`CSV_BATCH_ROWS`].
//!
//! The openers are generic over `R: Read + Seek` ([`open`], [`infer_csv_schema`]), so that the same code
//! reads a [`File`] ([`open_file`], [`infer_csv_schema_file`]) and an in-memory `Cursor<&[u8]>` (the
//! `ipc_reader` and `csv_reader` fuzz targets in `fuzz/`). The crate has no Kafka dependency for that reason:
//! `rdkafka-sys` does not build under `cargo fuzz`.
//!
//! Errors are one [`Error`], whose `Display` is the reason the `streamfusion` command prints after the file's
//! name.
//!
//! ```
//! use std::io::Cursor;
//! use streamfusion_input::{open, FileFormat};
//! let csv = Cursor::new(&b"id,name\n1,a\n2,\n"[..]);
//! let mut reader = open(csv, FileFormat::Csv, None)?;
//! assert_eq!(reader.schema().field(0).data_type(), &arrow_schema::DataType::Int64);
//! let batch = reader.next().expect("one batch")?;
//! assert_eq!(batch.num_rows(), 2);
//! assert_eq!(batch.column(1).null_count(), 1);
//! assert!(reader.next().is_none());
//! # Ok::<(), streamfusion_input::Error>(())
//! ```

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_csv::reader::{Format, ReaderBuilder};
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_schema::{ArrowError, SchemaRef};

/// The first bytes of an Arrow IPC file (file format, not stream format).
const IPC_FILE_MAGIC: &[u8; 6] = b"ARROW1";

/// Rows per batch read from a CSV input (the last batch may have fewer).
pub const CSV_BATCH_ROWS: usize = 8192;

/// The kind of an input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum FileFormat {
    /// Arrow IPC, file or stream format (told apart by the magic bytes).
    Ipc,
    /// CSV with a header row; column types inferred by arrow-csv.
    Csv,
}

impl FileFormat {
    /// The format named by a file's extension: `.arrow`, `.arrows`, `.ipc`, `.feather` are
    /// Arrow IPC, `.csv` is CSV (case-insensitive); `None` for anything else (no extension, or one that is
    /// not UTF-8, too).
    #[must_use]
    pub fn from_extension(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "arrow" | "arrows" | "ipc" | "feather" => Some(Self::Ipc),
            "csv" => Some(Self::Csv),
            _ => None,
        }
    }
}

/// Why an input could not be opened or read on. `Display` is the reason alone (no file name: the caller
/// knows it); for the Arrow variants it is the wording `streamfusion` prints, followed by arrow's own error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Opening, reading or seeking the input failed (the operating system's error; [`open_file`] opens the
    /// file, [`open`] reads an IPC input's first six bytes and seeks back to the start).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The input starts with the IPC file magic, but arrow-ipc's [`FileReader`] refused its footer or schema.
    #[error("not an Arrow IPC file: {0}")]
    NotIpcFile(ArrowError),
    /// The input does not start with the IPC file magic, and arrow-ipc's [`StreamReader`] refused its first
    /// message (no schema message, or not IPC at all).
    #[error("not an Arrow IPC file or stream: {0}")]
    NotIpc(ArrowError),
    /// arrow-csv's [`Format::infer_schema`] could not infer a schema (a row whose field count differs from
    /// the header's, bytes that are not UTF-8, a read error, ...).
    #[error("not CSV with a header row: {0}")]
    NotCsvWithHeader(ArrowError),
    /// arrow-csv's [`ReaderBuilder::build`] refused the schema.
    #[error("not CSV: {0}")]
    NotCsv(ArrowError),
    /// arrow panicked on the input instead of returning an error: arrow-ipc 60.1 slices a message body with a
    /// buffer offset and length taken from the message unchecked (`read_buffer`), so a malformed IPC input
    /// panics in arrow-buffer's `Buffer::slice_with_length` (docs/reliability.md, *Fuzzing*, finding 5). The
    /// panic is caught where this crate calls arrow ([`open`] and each [`BatchReader::next`]) and becomes this
    /// error, carrying the panic's message; the reader ends after it. The process's panic hook still runs
    /// (the default one prints the panic to stderr).
    #[error("malformed input (arrow panicked reading it: {0})")]
    Panicked(String),
    /// A batch could not be read: arrow-ipc refused a message or a batch that does not validate, or arrow-csv
    /// a row that does not parse as its inferred column type. The reason is arrow's error as it is.
    #[error("{0}")]
    Read(ArrowError),
}

/// The batches of one input, in order, and their schema. An [`Iterator`] of `Result<RecordBatch, Error>`
/// ([`Error::Read`]); every batch has the reader's [`schema`](Self::schema) (arrow-ipc's and arrow-csv's
/// readers give it to each batch).
#[derive(Debug)]
pub struct BatchReader<R: Read + Seek> {
    inner: Inner<R>,
    /// Set once arrow panicked: the reader's state is unknown, so it reads no further.
    panicked: bool,
}

#[derive(Debug)]
enum Inner<R: Read + Seek> {
    IpcFile(FileReader<BufReader<R>>),
    IpcStream(StreamReader<BufReader<R>>),
    Csv(Box<arrow_csv::Reader<R>>),
}

impl<R: Read + Seek> BatchReader<R> {
    /// The schema of every batch: the IPC input's own, or the CSV schema given to (or inferred by) [`open`].
    #[must_use]
    pub fn schema(&self) -> SchemaRef {
        match &self.inner {
            Inner::IpcFile(reader) => reader.schema(),
            Inner::IpcStream(reader) => reader.schema(),
            Inner::Csv(reader) => reader.schema(),
        }
    }
}

impl<R: Read + Seek> Iterator for BatchReader<R> {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.panicked {
            return None;
        }
        let next = guard(|| match &mut self.inner {
            Inner::IpcFile(reader) => reader.next(),
            Inner::IpcStream(reader) => reader.next(),
            Inner::Csv(reader) => reader.next(),
        });
        match next {
            Ok(next) => Some(next?.map_err(Error::Read)),
            Err(error) => {
                self.panicked = true;
                Some(Err(error))
            }
        }
    }
}

/// `f()`, or [`Error::Panicked`] when it panics: the boundary around every call into arrow-ipc and arrow-csv.
/// Unwind safety is asserted because nothing `f` may have left half-changed is used after a panic (a
/// panicked [`BatchReader`] reads no further; a panicked [`open`] returns no reader).
fn guard<T>(f: impl FnOnce() -> T) -> Result<T, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Error::Panicked(message)
    })
}

/// The CSV schema arrow-csv's [`Format::infer_schema`] infers from every row of `reader` (header row on,
/// `Format` defaults otherwise). Reads `reader` to its end.
///
/// # Errors
/// [`Error::NotCsvWithHeader`] when arrow-csv cannot infer one; [`Error::Panicked`] when it panics.
pub fn infer_csv_schema<R: Read>(reader: R) -> Result<SchemaRef, Error> {
    let (schema, _) = guard(|| {
        Format::default()
            .with_header(true)
            .infer_schema(BufReader::new(reader), None)
    })?
    .map_err(Error::NotCsvWithHeader)?;
    Ok(Arc::new(schema))
}

/// [`infer_csv_schema`] of the file at `path`.
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened; as [`infer_csv_schema`] otherwise.
pub fn infer_csv_schema_file(path: &Path) -> Result<SchemaRef, Error> {
    infer_csv_schema(File::open(path)?)
}

/// A reader of `input` from its current position, which must be its start, as `format`:
///
/// * [`FileFormat::Ipc`]: arrow-ipc's [`FileReader`] when the first six bytes are `ARROW1`, else its
///   [`StreamReader`] (buffered, no projection); `input` is sought back to the start after the magic is read.
/// * [`FileFormat::Csv`]: arrow-csv's reader with `csv_schema` (header row on, batches of
///   [`CSV_BATCH_ROWS`]); when `csv_schema` is `None` it is inferred first ([`infer_csv_schema`], a pass over
///   the whole input) and `input` sought back to the start. Pass the schema of an earlier open to read the
///   same input again with the same column types; an IPC input ignores it.
///
/// # Errors
/// [`Error::Io`] when seeking fails; [`Error::NotIpcFile`], [`Error::NotIpc`], [`Error::NotCsvWithHeader`],
/// [`Error::NotCsv`] when arrow refuses the input's start as the format; [`Error::Panicked`] when arrow panics
/// on it (an IPC file's dictionaries are read here).
pub fn open<R: Read + Seek>(
    mut input: R,
    format: FileFormat,
    csv_schema: Option<SchemaRef>,
) -> Result<BatchReader<R>, Error> {
    let inner = match format {
        FileFormat::Ipc => {
            let mut magic = [0_u8; 6];
            let is_file_format = input.read_exact(&mut magic).is_ok() && &magic == IPC_FILE_MAGIC;
            input.seek(SeekFrom::Start(0))?;
            if is_file_format {
                check_ipc_file_blocks(&mut input)?;
                Inner::IpcFile(
                    guard(|| FileReader::try_new_buffered(input, None))?
                        .map_err(Error::NotIpcFile)?,
                )
            } else {
                Inner::IpcStream(
                    guard(|| StreamReader::try_new_buffered(input, None))?
                        .map_err(Error::NotIpc)?,
                )
            }
        }
        FileFormat::Csv => {
            let schema = match csv_schema {
                Some(schema) => schema,
                None => {
                    let schema = infer_csv_schema(&mut input)?;
                    input.seek(SeekFrom::Start(0))?;
                    schema
                }
            };
            Inner::Csv(Box::new(
                ReaderBuilder::new(schema)
                    .with_header(true)
                    .with_batch_size(CSV_BATCH_ROWS)
                    .build(input)
                    .map_err(Error::NotCsv)?,
            ))
        }
    };
    Ok(BatchReader {
        inner,
        panicked: false,
    })
}

/// The bytes after an IPC file's footer: its length (`i32`, little-endian) and the magic.
const IPC_FILE_TRAILER: u64 = 4 + IPC_FILE_MAGIC.len() as u64;

/// Refuses an IPC file whose footer declares a block (a dictionary or a record batch: offset, metadata and
/// body length) that does not lie within the file's bytes before the footer, then seeks `input` back to the
/// start. arrow-ipc 60.1's `FileReader` allocates and zeroes a block's declared length before it reads it, so
/// a file of a few hundred bytes could make it reserve gigabytes (docs/reliability.md, *Fuzzing*, finding 7).
/// A trailer or footer arrow cannot parse is left to `FileReader`, which refuses it.
///
/// # Errors
/// [`Error::NotIpcFile`] naming the block; [`Error::Io`] when seeking or reading fails.
fn check_ipc_file_blocks<R: Read + Seek>(input: &mut R) -> Result<(), Error> {
    let length = input.seek(SeekFrom::End(0))?;
    let mut outside = None;
    if length >= IPC_FILE_TRAILER {
        input.seek(SeekFrom::Start(length - IPC_FILE_TRAILER))?;
        let mut footer_length = [0_u8; 4];
        input.read_exact(&mut footer_length)?;
        let footer_length = u64::try_from(i32::from_le_bytes(footer_length)).unwrap_or(u64::MAX);
        if let Some(data) = (length - IPC_FILE_TRAILER).checked_sub(footer_length) {
            input.seek(SeekFrom::Start(data))?;
            let mut footer = vec![0_u8; usize::try_from(footer_length).unwrap_or(usize::MAX)];
            input.read_exact(&mut footer)?;
            if let Ok(footer) = arrow_ipc::root_as_footer(&footer) {
                let blocks = footer.dictionaries().into_iter().flatten();
                outside = blocks
                    .chain(footer.recordBatches().into_iter().flatten())
                    .find(|block| {
                        let end = i128::from(block.offset())
                            + i128::from(block.metaDataLength())
                            + i128::from(block.bodyLength());
                        block.offset() < 0
                            || block.metaDataLength() < 0
                            || block.bodyLength() < 0
                            || end > i128::from(data)
                    })
                    .map(|block| {
                        format!(
                            "its footer declares a block at offset {} of {} + {} bytes, outside the {data} \
                             bytes before the footer",
                            block.offset(),
                            block.metaDataLength(),
                            block.bodyLength()
                        )
                    });
            }
        }
    }
    input.seek(SeekFrom::Start(0))?;
    match outside {
        Some(reason) => Err(Error::NotIpcFile(ArrowError::IpcError(reason))),
        None => Ok(()),
    }
}

/// [`open`] of the file at `path`.
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened; as [`open`] otherwise.
pub fn open_file(
    path: &Path,
    format: FileFormat,
    csv_schema: Option<SchemaRef>,
) -> Result<BatchReader<File>, Error> {
    open(File::open(path)?, format, csv_schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    use arrow_array::{ArrayRef, Int64Array, StringArray};
    use arrow_ipc::writer::{FileWriter, StreamWriter};
    use arrow_schema::{DataType, Field, Schema};

    fn batches() -> Vec<RecordBatch> {
        let schema = Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("name", DataType::Utf8, true),
        ]));
        let batch = |ids: Vec<i64>, names: Vec<Option<&str>>| {
            let columns: Vec<ArrayRef> = vec![
                Arc::new(Int64Array::from(ids)),
                Arc::new(StringArray::from(names)),
            ];
            RecordBatch::try_new(schema.clone(), columns).unwrap()
        };
        vec![
            batch(vec![1, 2], vec![Some("a"), None]),
            batch(vec![3], vec![Some("c")]),
        ]
    }

    fn read_all<R: Read + Seek>(reader: BatchReader<R>) -> Vec<RecordBatch> {
        reader.collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn ipc_file_and_stream_are_told_apart_by_the_magic() {
        let batches = batches();
        let mut file = Vec::new();
        let mut writer = FileWriter::try_new(&mut file, &batches[0].schema()).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        let mut stream = Vec::new();
        let mut writer = StreamWriter::try_new(&mut stream, &batches[0].schema()).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        assert!(file.starts_with(IPC_FILE_MAGIC) && !stream.starts_with(IPC_FILE_MAGIC));
        for bytes in [&file, &stream] {
            let reader = open(Cursor::new(bytes.as_slice()), FileFormat::Ipc, None).unwrap();
            assert_eq!(reader.schema(), batches[0].schema());
            assert_eq!(read_all(reader), batches);
        }
        // The magic, then not a file: the file reader's refusal.
        let error = open(Cursor::new(&b"ARROW1\0\0junk"[..]), FileFormat::Ipc, None).unwrap_err();
        assert!(matches!(error, Error::NotIpcFile(_)), "{error}");
        assert!(
            error.to_string().starts_with("not an Arrow IPC file: "),
            "{error}"
        );
        for bytes in [&b""[..], b"ARR", b"id\n1\n"] {
            let error = open(Cursor::new(bytes), FileFormat::Ipc, None).unwrap_err();
            assert!(matches!(error, Error::NotIpc(_)), "{error}");
            assert!(
                error
                    .to_string()
                    .starts_with("not an Arrow IPC file or stream: "),
                "{error}"
            );
        }
    }

    #[test]
    fn csv_is_inferred_then_read_in_batches_of_csv_batch_rows() {
        let mut text = String::from("id,name,price,ok\n");
        for i in 0..CSV_BATCH_ROWS + 3 {
            text.push_str(&format!("{i},\"n, {i}\",{i}.5,{}\n", i % 2 == 0));
        }
        text.push_str(",,,\n");
        let reader = open(Cursor::new(text.as_bytes()), FileFormat::Csv, None).unwrap();
        let schema = reader.schema();
        let types: Vec<&DataType> = schema.fields().iter().map(|f| f.data_type()).collect();
        assert_eq!(
            types,
            [
                &DataType::Int64,
                &DataType::Utf8,
                &DataType::Float64,
                &DataType::Boolean
            ]
        );
        assert!(schema.fields().iter().all(|f| f.is_nullable()));
        let batches = read_all(reader);
        let rows: Vec<usize> = batches.iter().map(RecordBatch::num_rows).collect();
        assert_eq!(rows, [CSV_BATCH_ROWS, 4]);
        let last = &batches[1];
        assert_eq!(last.column(0).null_count(), 1);
        let names = last
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(names.value(0), format!("n, {CSV_BATCH_ROWS}"));

        // The same schema passed in again reads the same batches (no second inference).
        let again = open(Cursor::new(text.as_bytes()), FileFormat::Csv, Some(schema)).unwrap();
        assert_eq!(read_all(again), batches);
    }

    #[test]
    fn csv_errors_name_what_arrow_csv_refused() {
        let error = open(Cursor::new(&b"a,b\n1,2\n3\n"[..]), FileFormat::Csv, None).unwrap_err();
        assert!(matches!(error, Error::NotCsvWithHeader(_)), "{error}");
        assert!(
            error.to_string().starts_with("not CSV with a header row: "),
            "{error}"
        );
        // A value that does not parse as the given column type fails its batch.
        let schema = Arc::new(Schema::new(vec![Field::new("a", DataType::Int64, true)]));
        let mut reader = open(Cursor::new(&b"a\nx\n"[..]), FileFormat::Csv, Some(schema)).unwrap();
        let error = reader.next().unwrap().unwrap_err();
        assert!(matches!(error, Error::Read(_)), "{error}");
    }

    /// Finding 5 of the `ipc_reader` fuzz target: a stream whose record batch has a buffer offset past its
    /// body. arrow-ipc 60.1 panics slicing the body; the reader returns `Panicked` once, then ends.
    #[test]
    fn an_arrow_panic_on_a_malformed_ipc_stream_is_an_error_and_ends_the_reader() {
        let bytes = include_bytes!(
            "../../../fuzz/findings/ipc_reader/crash-8cf7f17a67108d5e609e6b9d2a024fba08ea4fde"
        );
        let mut reader = open(Cursor::new(&bytes[..]), FileFormat::Ipc, None).unwrap();
        let outcome: Vec<Result<RecordBatch, Error>> = reader.by_ref().collect();
        let Some(Err(error)) = outcome.last() else {
            panic!("no error: {outcome:?}");
        };
        assert!(matches!(error, Error::Panicked(_)), "{error}");
        assert!(
            error
                .to_string()
                .starts_with("malformed input (arrow panicked reading it: "),
            "{error}"
        );
        assert!(reader.next().is_none());
    }

    #[test]
    fn an_ipc_footer_block_past_the_data_is_refused_before_arrow_allocates_it() {
        // Findings 6 (a block of about 6 TB) and 7 (a dictionary block of gigabytes) of the ipc_reader target.
        for bytes in [
            &include_bytes!(
                "../../../fuzz/findings/ipc_reader/crash-feb5168e58c5745ec4bf93506b9f55afef1d6d89"
            )[..],
            &include_bytes!(
                "../../../fuzz/findings/ipc_reader/timeout-a4317abf7d0dc5a9e45ef2e594f63b8144fb460a"
            )[..],
        ] {
            let error = open(Cursor::new(bytes), FileFormat::Ipc, None).unwrap_err();
            let text = error.to_string();
            assert!(matches!(error, Error::NotIpcFile(_)), "{text}");
            assert!(
                text.starts_with(
                    "not an Arrow IPC file: Ipc error: its footer declares a block at offset "
                ),
                "{text}"
            );
        }
        // A valid file's blocks all lie before its footer.
        let mut file = Vec::new();
        let mut writer = FileWriter::try_new(&mut file, &batches()[0].schema()).unwrap();
        for batch in batches() {
            writer.write(&batch).unwrap();
        }
        writer.finish().unwrap();
        drop(writer);
        let read = read_all(open(Cursor::new(&file[..]), FileFormat::Ipc, None).unwrap());
        assert_eq!(read, batches());
    }

    #[test]
    fn paths_are_opened_and_formats_named_by_extension() {
        assert_eq!(
            FileFormat::from_extension(Path::new("a/b.FEATHER")),
            Some(FileFormat::Ipc)
        );
        assert_eq!(
            FileFormat::from_extension(Path::new("rows.csv")),
            Some(FileFormat::Csv)
        );
        assert_eq!(FileFormat::from_extension(Path::new("rows.txt")), None);
        assert_eq!(FileFormat::from_extension(Path::new("arrow")), None);
        let missing = Path::new("/nonexistent/streamfusion-input/rows.csv");
        assert!(matches!(
            open_file(missing, FileFormat::Csv, None),
            Err(Error::Io(_))
        ));
        assert!(matches!(infer_csv_schema_file(missing), Err(Error::Io(_))));
    }
}
