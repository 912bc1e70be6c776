//! Arrow `RecordBatch` → Kafka records as JSON, in one pass per batch: one contiguous key slab, one contiguous
//! value slab, and per-row offsets and lengths ([`EncodedRecords`]).
//!
//! Two output modes ([`Mode`]):
//! - **Flink** (default): byte-identical to Apache Flink's `json` format (`JsonRowDataSerializationSchema`) with
//!   the Kafka SQL connector's key/value layout, including upsert tombstones. Options keep Flink's names.
//! - **Plain**: byte-identical to arrow-json's writer (each row is one `LineDelimitedWriter` line without its
//!   newline); encoding is delegated to arrow-json.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Int64Array, RecordBatch, StringArray};
//! use streamfusion_json::{EncoderOptions, JsonEncoder};
//!
//! let batch = RecordBatch::try_from_iter([
//!     ("id", Arc::new(Int64Array::from(vec![1, 2])) as _),
//!     ("name", Arc::new(StringArray::from(vec![Some("a\u{1}"), None])) as _),
//! ])?;
//! let options = EncoderOptions::from_pairs([("key.fields", "id")])?;
//! let mut encoder = JsonEncoder::new(options)?;
//! let records = encoder.encode(&batch)?;
//! assert_eq!(records.key(0), Some(&b"{\"id\":1}"[..]));
//! assert_eq!(records.value(0), Some(&b"{\"id\":1,\"name\":\"a\\u0001\"}"[..]));
//! assert_eq!(records.value(1), Some(&b"{\"id\":2,\"name\":null}"[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! With feature `ffi`, module `ffi` imports batches that another runtime hands over by address (Arrow C Data
//! Interface structs, or flat buffers), for front ends such as the JNI library.
//!
//! The exact rules, type by type, with the Flink and arrow-json outputs they were checked against, are in
//! `docs/json-format.md`.

mod binary_format;
mod decode;
mod encoder;
mod error;
mod escape;
#[cfg(feature = "ffi")]
pub mod ffi;
mod flink;
mod layout;
mod options;
mod out;
mod plain;
mod records;

pub use decode::{BinaryRows, DecodedBatch, DecoderOptions, JsonDecoder};
pub use encoder::JsonEncoder;
pub use error::{Error, Result};
pub use options::{
    EncoderOptions, FlinkVersion, JavaFloatDigits, KeyFormat, MapNullKeyMode, Mode, OptionSpec,
    TimestampStandard, ValueFieldsInclude, OPTIONS,
};
pub use records::EncodedRecords;
