//! The one error type of this crate.

use arrow_schema::{ArrowError, DataType};

/// Everything that can go wrong while configuring the encoder or the decoder, planning a schema, encoding a
/// batch or decoding a chunk of messages.
///
/// Option and plan errors are raised before any byte is written; a failed [`encode`](crate::JsonEncoder::encode)
/// leaves no partial rows behind in the [`EncodedRecords`](crate::EncodedRecords) it was given (they are cleared).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An option has an unknown name or an invalid value (names and values follow Flink's `json` format
    /// and Kafka connector options, see [`EncoderOptions`](crate::EncoderOptions)).
    #[error("option `{key}`: {message}")]
    InvalidOption {
        /// The option name as given.
        key: String,
        /// What is wrong and what is accepted.
        message: String,
    },
    /// The key/value layout does not fit the schema (a `key.fields` entry that is not a column, a prefix that
    /// a key field lacks, a missing or mistyped row-kind column).
    #[error("layout: {0}")]
    InvalidLayout(String),
    /// Field names Flink's `RowType` rejects: blank (only whitespace, as `Character.isWhitespace` defines it) or
    /// repeated within one ROW ("Field names must be unique").
    #[error("field `{field}`: {reason}")]
    InvalidFieldName {
        /// Dotted path of the field.
        field: String,
        /// Flink's rule that it breaks.
        reason: String,
    },
    /// A column (or a type nested inside it) has no JSON encoding in the selected mode, matching the types
    /// Flink's `JsonRowDataSerializationSchema` rejects (e.g. a map with non-string keys, the Null type).
    #[error("field `{field}`: {data_type} is not supported by the {mode} JSON encoder: {reason}")]
    UnsupportedType {
        /// Dotted path of the field (`outer.inner`); list elements and map values add `[]` and `{}`.
        field: String,
        /// The offending Arrow type.
        data_type: DataType,
        /// `Flink-mode` or `plain-mode`.
        mode: &'static str,
        /// Why it is rejected.
        reason: String,
    },
    /// A batch's schema differs from the schema the encoder planned for (its first batch).
    #[error("schema mismatch at field `{field}`: the plan was built for {expected}, the batch has {found}")]
    SchemaMismatch {
        /// The first differing top-level field (by position); `<field count>` when only the number differs.
        field: String,
        /// What the plan expects at that position.
        expected: String,
        /// What the batch has.
        found: String,
    },
    /// A null map key with `map-null-key.mode` = `FAIL`: Flink's message
    /// (`RowDataToJsonConverters.createMapConverter`) after the map's path and row. Met in Flink's binary rows
    /// (an Arrow map's keys cannot be null).
    #[error(
        "field `{field}`, row {row}: JSON format doesn't support to serialize map data with null keys. You \
         can drop null key entries or encode null in literals by specifying map-null-key.mode option."
    )]
    NullMapKey {
        /// Dotted path of the map field.
        field: String,
        /// Row of the batch.
        row: usize,
    },
    /// A value that Flink's types cannot hold (e.g. a TIME outside one day, a timestamp in seconds whose
    /// milliseconds overflow 64 bits, an unknown row kind).
    #[error("field `{field}`, row {row}: {message}")]
    InvalidValue {
        /// Dotted path of the field.
        field: String,
        /// Row of the batch.
        row: usize,
        /// What is wrong.
        message: String,
    },
    /// A slab would exceed the 2 GiB that `i32` offsets (and a JVM `byte[]`) can address.
    #[error("the {slab} slab would reach {bytes} bytes, above the 2^31 - 1 that i32 offsets address; encode or decode smaller batches")]
    SlabTooLarge {
        /// `key` or `value` (encoding), `binary row` (decoding).
        slab: &'static str,
        /// Size it would have reached.
        bytes: usize,
    },
    /// A message Flink's `json` deserializer fails on ([`JsonDecoder`](crate::JsonDecoder) without
    /// `ignore-parse-errors`): Flink's job fails with `Failed to deserialize JSON '<message>'.`
    #[error("message {message} of the chunk: {reason}")]
    Decode {
        /// Index of the message in the chunk.
        message: usize,
        /// Flink's message and what was found wrong.
        reason: String,
    },
    /// A message whose rows [`JsonDecoder`](crate::JsonDecoder) does not reproduce exactly, so it makes none:
    /// a root that is an array, non-ASCII digits in a numeric string, a hexadecimal floating-point string, a
    /// base64 string in another spelling than the canonical padded one, a floating-point number or a repeated
    /// key inside an object or array given to a string column, malformed JSON inside such a value under
    /// `ignore-parse-errors`. Decode that message with Flink's own deserializer.
    #[error("message {message} of the chunk is not decoded natively: {reason}")]
    NotExact {
        /// Index of the message in the chunk.
        message: usize,
        /// Which case it is.
        reason: String,
    },
    /// An error from arrow-json (plain mode) or from Arrow itself.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
    /// Memory handed over through [`ffi`](crate::ffi) does not describe a batch of the schema: a null or
    /// already released C Data Interface struct, a negative row count, a column count or length that does not
    /// fit the schema, a first batch without its schema, a flat buffer too small for its values, at a null
    /// address or with offsets that decrease or leave their data. A bug in the front end or a corrupt vector;
    /// nothing was read outside the memory described, and the structs were released.
    #[cfg(feature = "ffi")]
    #[error("{0}")]
    InvalidHandoff(String),
    /// Arrow rejected a schema or column imported through [`ffi`](crate::ffi) (the C Data Interface import
    /// checks the buffer count and layout against the type).
    #[cfg(feature = "ffi")]
    #[error("Arrow C Data Interface import: {0}")]
    ArrowImport(ArrowError),
}

impl Error {
    /// A stable upper-case name of the error class (`INVALID_OPTION`, `INVALID_LAYOUT`, `INVALID_FIELD_NAME`,
    /// `UNSUPPORTED_TYPE`, `SCHEMA_MISMATCH`, `NULL_MAP_KEY`, `INVALID_VALUE`, `SLAB_TOO_LARGE`, `DECODE`,
    /// `NOT_EXACT`, `ARROW`, and with
    /// feature `ffi` `INVALID_HANDOFF`, `ARROW_IMPORT`), for bindings that map errors to their own types (the
    /// JVM's `StreamFusionException.Kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::InvalidOption { .. } => "INVALID_OPTION",
            Error::InvalidLayout(_) => "INVALID_LAYOUT",
            Error::InvalidFieldName { .. } => "INVALID_FIELD_NAME",
            Error::UnsupportedType { .. } => "UNSUPPORTED_TYPE",
            Error::SchemaMismatch { .. } => "SCHEMA_MISMATCH",
            Error::NullMapKey { .. } => "NULL_MAP_KEY",
            Error::InvalidValue { .. } => "INVALID_VALUE",
            Error::SlabTooLarge { .. } => "SLAB_TOO_LARGE",
            Error::Decode { .. } => "DECODE",
            Error::NotExact { .. } => "NOT_EXACT",
            Error::Arrow(_) => "ARROW",
            #[cfg(feature = "ffi")]
            Error::InvalidHandoff(_) => "INVALID_HANDOFF",
            #[cfg(feature = "ffi")]
            Error::ArrowImport(_) => "ARROW_IMPORT",
        }
    }

    /// This error of a run of rows that starts at row `first` of its batch, with its row (if it names one)
    /// counted from the start of the batch.
    pub(crate) fn of_row_in_batch(mut self, first: usize) -> Self {
        if let Error::NullMapKey { row, .. } | Error::InvalidValue { row, .. } = &mut self {
            *row += first;
        }
        self
    }
}

/// Result with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
