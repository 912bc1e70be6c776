//! Encoder options, named and defaulted as Flink's `json` format and Kafka SQL connector name them.
//!
//! | option | values | default | source |
//! |---|---|---|---|
//! | `mode` | `flink`, `plain` | `flink` | ours: Flink's `json` format or arrow-json's writer |
//! | `flink.version` | `1.19`, `1.20`, `2.0`, `2.1`, `2.2`, `2.3` | `2.2` | ours: behaviours that changed between releases |
//! | `float.java-digits` | `jdk19`, `jdk17` | `jdk19` | ours: the digits of the JDK that runs Flink (FLOAT, DOUBLE) |
//! | `timestamp-format.standard` | `SQL`, `ISO-8601` (case-sensitive) | `SQL` | Flink `JsonFormatOptions` |
//! | `map-null-key.mode` | `FAIL`, `DROP`, `LITERAL` (any case) | `FAIL` | Flink `JsonFormatOptions` |
//! | `map-null-key.literal` | any string | `null` | Flink `JsonFormatOptions` |
//! | `encode.decimal-as-plain-number` | `true`, `false` | `false` | Flink `JsonFormatOptions` |
//! | `encode.ignore-null-fields` | `true`, `false` | `false` | Flink `JsonFormatOptions` (1.20+) |
//! | `key.timestamp-format.standard` | as `timestamp-format.standard` | none | the key's own (`key.json.*`); unset: as the value's |
//! | `key.map-null-key.mode` | as `map-null-key.mode` | none | the key's own; unset: as the value's |
//! | `key.map-null-key.literal` | any string | none | the key's own; unset: as the value's |
//! | `key.encode.decimal-as-plain-number` | `true`, `false` | none | the key's own; unset: as the value's |
//! | `key.encode.ignore-null-fields` | `true`, `false` | none | the key's own; unset: as the value's |
//! | `key.fields` | `;`-separated column names | none | Flink `KafkaConnectorOptions` (unset: null keys) |
//! | `key.fields-prefix` | string | none | Flink `KafkaConnectorOptions` |
//! | `value.fields-include` | `ALL`, `EXCEPT_KEY` (any case) | `ALL` | Flink `KafkaConnectorOptions` |
//! | `changelog.row-kind-column` | column name | none | ours: upsert output, as Flink's upsert-kafka (unset: append-only) |
//! | `plain.explicit-nulls` | `true`, `false` | `false` | arrow-json `WriterBuilder::with_explicit_nulls` |
//!
//! [`OPTIONS`] declares each option once (name, default, meaning, in this order): [`EncoderOptions::from_pairs`]
//! lists it in its unknown-option error, and tests check that it agrees with the parser, with this table and
//! the one in `docs/json-format.md` (names, order, defaults), and with the JVM's
//! `org.streamfusion.kafka.EncoderOptions` (`EncoderOptionsTest` in `java/streamfusion-kafka`).
//!
//! The format options apply to both the key and the value row, as one `format = 'json'` does in Flink; the
//! `key.` ones ([`KeyFormat`]) set the key row's own, as Flink's `key.json.*` do beside `value.json.*`.
//!
//! Set them with the builder, or parse them from their names; both give the same options:
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Int64Array, RecordBatch, TimestampMillisecondArray};
//! use streamfusion_json::{EncoderOptions, JsonEncoder, TimestampStandard, ValueFieldsInclude};
//!
//! let options = EncoderOptions::default()
//!     .with_timestamp_standard(TimestampStandard::Iso8601)
//!     .with_key_fields(["k_id"])
//!     .with_key_fields_prefix("k_")
//!     .with_value_fields_include(ValueFieldsInclude::ExceptKey);
//! assert_eq!(
//!     options,
//!     EncoderOptions::from_pairs([
//!         ("timestamp-format.standard", "ISO-8601"),
//!         ("key.fields", "k_id"),
//!         ("key.fields-prefix", "k_"),
//!         ("value.fields-include", "EXCEPT_KEY"),
//!     ])?
//! );
//!
//! let batch = RecordBatch::try_from_iter([
//!     ("k_id", Arc::new(Int64Array::from(vec![7])) as _),
//!     ("at", Arc::new(TimestampMillisecondArray::from(vec![1_500])) as _),
//! ])?;
//! let records = JsonEncoder::new(options)?.encode(&batch)?;
//! assert_eq!(records.key(0), Some(&b"{\"id\":7}"[..]));
//! assert_eq!(records.value(0), Some(&b"{\"at\":\"1970-01-01T00:00:01.5\"}"[..]));
//!
//! // The setters do not check combinations; the encoder does, as Flink does.
//! let prefix_without_except_key = EncoderOptions::default().with_key_fields(["k_id"]).with_key_fields_prefix("k_");
//! assert!(JsonEncoder::new(prefix_without_except_key).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{Error, Result};

/// One encoder option as a user writes it: its name, its default and what it does. [`OPTIONS`] lists every
/// option [`EncoderOptions::from_pairs`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OptionSpec {
    /// The option's name as [`EncoderOptions::from_pairs`] takes it, e.g. `key.fields` (Flink's name where Flink
    /// has the option, without the `json.` / `key.json.` / `value.json.` prefixes).
    pub name: &'static str,
    /// The default as a user would write it (`SQL`, `false`), giving [`EncoderOptions::default`]'s value; or
    /// `none` for an option that is unset by default (an empty value unsets it too).
    pub default: &'static str,
    /// What the option does, in one line of Markdown (the meaning column of `docs/json-format.md`).
    pub meaning: &'static str,
}

impl OptionSpec {
    const fn new(name: &'static str, default: &'static str, meaning: &'static str) -> Self {
        Self {
            name,
            default,
            meaning,
        }
    }
}

/// Every option [`EncoderOptions::from_pairs`] accepts, declared once, in the order of the module docs' table
/// and `docs/json-format.md`. An unknown name is refused with an error listing these names in this order.
/// The JVM's `org.streamfusion.kafka.EncoderOptions.NAMES` must equal the names (checked by its
/// `EncoderOptionsTest` through the JNI library).
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec::new("mode", "flink", "which reference to match"),
    OptionSpec::new(
        "flink.version",
        "2.2",
        "the Flink release reproduced where releases differ (Flink versions, below)",
    ),
    OptionSpec::new(
        "float.java-digits",
        "jdk19",
        "FLOAT and DOUBLE digits of `Float`/`Double.toString` on JDK 19+ or on JDK 17 (Floats and the JDK, below)",
    ),
    OptionSpec::new(
        "timestamp-format.standard",
        "SQL",
        "`2024-01-02 03:04:05.5` vs `2024-01-02T03:04:05.5`",
    ),
    OptionSpec::new(
        "map-null-key.mode",
        "FAIL",
        "a null map key fails, is dropped, or becomes the literal",
    ),
    OptionSpec::new("map-null-key.literal", "null", "key text under `LITERAL`"),
    OptionSpec::new(
        "encode.decimal-as-plain-number",
        "false",
        "`100` instead of `1E+2`",
    ),
    OptionSpec::new(
        "encode.ignore-null-fields",
        "false",
        "omit null ROW fields (Flink 1.20+)",
    ),
    OptionSpec::new(
        "key.timestamp-format.standard",
        "none",
        "the key row's own `timestamp-format.standard`; none: the value's",
    ),
    OptionSpec::new(
        "key.map-null-key.mode",
        "none",
        "the key row's own `map-null-key.mode`; none: the value's",
    ),
    OptionSpec::new(
        "key.map-null-key.literal",
        "none",
        "the key row's own `map-null-key.literal`; none: the value's",
    ),
    OptionSpec::new(
        "key.encode.decimal-as-plain-number",
        "none",
        "the key row's own `encode.decimal-as-plain-number`; none: the value's",
    ),
    OptionSpec::new(
        "key.encode.ignore-null-fields",
        "none",
        "the key row's own `encode.ignore-null-fields`; none: the value's",
    ),
    OptionSpec::new(
        "key.fields",
        "none",
        "key row columns, in this order; none: null keys",
    ),
    OptionSpec::new(
        "key.fields-prefix",
        "none",
        "stripped from key field names; needs `EXCEPT_KEY`",
    ),
    OptionSpec::new(
        "value.fields-include",
        "ALL",
        "key columns in the value too, or not",
    ),
    OptionSpec::new(
        "changelog.row-kind-column",
        "none",
        "upsert output: the column of row kinds (Kafka layout and upserts, below)",
    ),
    OptionSpec::new(
        "plain.explicit-nulls",
        "false",
        "plain mode: write `null` fields instead of omitting them",
    ),
];

/// Which reference the bytes must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Byte-identical to Flink's `json` format (`JsonRowDataSerializationSchema`, Jackson inside).
    #[default]
    Flink,
    /// Byte-identical to arrow-json's writer (`LineDelimitedWriter` without the newline).
    Plain,
}

/// The Flink release whose `json` format behaviour is reproduced where releases differ
/// (docs/json-format.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum FlinkVersion {
    /// Flink 1.19: no `encode.ignore-null-fields`; decimals stripped of trailing zeros in plain mode too.
    V1_19,
    /// Flink 1.20: as 1.19, plus `encode.ignore-null-fields`.
    V1_20,
    /// Flink 2.0: plain-number decimals keep their declared scale (FLINK-33705).
    V2_0,
    /// Flink 2.1: as 2.0.
    V2_1,
    /// Flink 2.2 (default): as 2.0; TIME still drops its fraction.
    #[default]
    V2_2,
    /// Flink 2.3: TIME keeps its milliseconds (trimmed, `12:34:56.789`).
    V2_3,
}

impl FlinkVersion {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "1.19" => Self::V1_19,
            "1.20" => Self::V1_20,
            "2.0" => Self::V2_0,
            "2.1" => Self::V2_1,
            "2.2" => Self::V2_2,
            "2.3" => Self::V2_3,
            _ => return None,
        })
    }
}

/// `float.java-digits`: whose `Double.toString` / `Float.toString` digits FLOAT and DOUBLE are written with.
///
/// Flink's `json` format writes them with the JDK's own methods (through Jackson), and the digits changed in
/// JDK 19 (JDK-4511638); the layout (`0.001`, `1.0E7`, quoted `"NaN"`) did not. Pick the JDK of the Flink job
/// whose bytes must be matched; the JVM front ends pick the JVM they run on (docs/json-format.md, Floats and
/// the JDK).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JavaFloatDigits {
    /// `jdk19` (default): JDK 19 and later, the shortest decimal that rounds back (Raffaello Giulietti's
    /// algorithm), at least two digits; `2e23` is `2.0E23`.
    #[default]
    Jdk19,
    /// `jdk17`: JDK 18 and earlier, `FloatingDecimal`'s digits (verified against JDK 17), sometimes longer or
    /// with another last digit; `2e23` is `1.9999999999999998E23`, the float `3.2892086E10` is `3.28920863E10`.
    Jdk17,
}

impl JavaFloatDigits {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "jdk19" => Self::Jdk19,
            "jdk17" => Self::Jdk17,
            _ => return None,
        })
    }
}

/// `timestamp-format.standard`: how TIMESTAMP and TIMESTAMP_LTZ are written (DATE and TIME are the same under both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimestampStandard {
    /// `2024-01-02 03:04:05.5` (and `...05.5Z` for TIMESTAMP_LTZ).
    #[default]
    Sql,
    /// `2024-01-02T03:04:05.5` (and `...05.5Z` for TIMESTAMP_LTZ).
    Iso8601,
}

/// `map-null-key.mode`: what a null map key becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MapNullKeyMode {
    /// The batch fails with [`Error::NullMapKey`].
    #[default]
    Fail,
    /// The entry is skipped.
    Drop,
    /// The key is written as `map-null-key.literal`.
    Literal,
}

/// The key row's own json format settings, where they differ from the value row's: Flink's `key.json.*`
/// options beside `value.json.*` (a table with `key.format = 'json'` and `value.format = 'json'`). A `None`
/// field is the value row's setting ([`EncoderOptions`]'s). Set through [`EncoderOptions::with_key_format`] or
/// the `key.` names of [`EncoderOptions::from_pairs`] (`key.timestamp-format.standard`...).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct KeyFormat {
    /// `key.timestamp-format.standard`.
    pub timestamp_standard: Option<TimestampStandard>,
    /// `key.map-null-key.mode`.
    pub map_null_key_mode: Option<MapNullKeyMode>,
    /// `key.map-null-key.literal`.
    pub map_null_key_literal: Option<String>,
    /// `key.encode.decimal-as-plain-number`.
    pub decimal_as_plain_number: Option<bool>,
    /// `key.encode.ignore-null-fields`.
    pub ignore_null_fields: Option<bool>,
}

/// The names of Flink's `json` format options the encoder takes ([`FormatSetting`]), each also with a `key.`
/// prefix ([`KeyFormat`]).
const FORMAT_OPTIONS: [&str; 5] = [
    "timestamp-format.standard",
    "map-null-key.mode",
    "map-null-key.literal",
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
];

impl KeyFormat {
    fn set(&mut self, setting: FormatSetting) {
        match setting {
            FormatSetting::TimestampStandard(v) => self.timestamp_standard = Some(v),
            FormatSetting::MapNullKeyMode(v) => self.map_null_key_mode = Some(v),
            FormatSetting::MapNullKeyLiteral(v) => self.map_null_key_literal = Some(v),
            FormatSetting::DecimalAsPlainNumber(v) => self.decimal_as_plain_number = Some(v),
            FormatSetting::IgnoreNullFields(v) => self.ignore_null_fields = Some(v),
        }
    }

    /// Unsets the setting of [`FORMAT_OPTIONS`] name `name`.
    fn unset(&mut self, name: &str) {
        match name {
            "timestamp-format.standard" => self.timestamp_standard = None,
            "map-null-key.mode" => self.map_null_key_mode = None,
            "map-null-key.literal" => self.map_null_key_literal = None,
            "encode.decimal-as-plain-number" => self.decimal_as_plain_number = None,
            _ => self.ignore_null_fields = None,
        }
    }
}

/// One parsed setting of Flink's `json` format, for the value row (and the key's unless overridden) or for the
/// key row alone.
enum FormatSetting {
    TimestampStandard(TimestampStandard),
    MapNullKeyMode(MapNullKeyMode),
    MapNullKeyLiteral(String),
    DecimalAsPlainNumber(bool),
    IgnoreNullFields(bool),
}

impl FormatSetting {
    /// Parses `value` when `name` (without a `key.` prefix) is a json format option; `key` is the name as given,
    /// for errors. `Ok(None)`: not a format option.
    fn parse(name: &str, key: &str, value: &str) -> Result<Option<Self>> {
        Ok(Some(match name {
            // Flink validates against the exact strings (JsonFormatOptionsUtil).
            "timestamp-format.standard" => Self::TimestampStandard(match value {
                "SQL" => TimestampStandard::Sql,
                "ISO-8601" => TimestampStandard::Iso8601,
                _ => {
                    return Err(invalid(
                        key,
                        format!("`{value}` is not one of SQL, ISO-8601"),
                    ))
                }
            }),
            "map-null-key.mode" => {
                Self::MapNullKeyMode(match value.to_ascii_uppercase().as_str() {
                    "FAIL" => MapNullKeyMode::Fail,
                    "DROP" => MapNullKeyMode::Drop,
                    "LITERAL" => MapNullKeyMode::Literal,
                    _ => {
                        return Err(invalid(
                            key,
                            format!("`{value}` is not one of FAIL, DROP, LITERAL"),
                        ))
                    }
                })
            }
            "map-null-key.literal" => Self::MapNullKeyLiteral(value.to_owned()),
            "encode.decimal-as-plain-number" => Self::DecimalAsPlainNumber(parse_bool(key, value)?),
            "encode.ignore-null-fields" => Self::IgnoreNullFields(parse_bool(key, value)?),
            _ => return Ok(None),
        }))
    }
}

/// `value.fields-include`: which columns the value row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueFieldsInclude {
    /// Every column in schema order (key columns appear in key and value).
    #[default]
    All,
    /// Every column except the key columns, schema order kept.
    ExceptKey,
}

/// All options of a [`JsonEncoder`](crate::JsonEncoder), defaulted as Flink defaults them (see the module docs).
///
/// Build them with the `with_*` setters, or parse Flink-style names with [`EncoderOptions::from_pairs`]; read
/// them with the getters. The fields are private, so a new option is not a breaking change. The setters do
/// not check combinations: [`JsonEncoder::new`](crate::JsonEncoder::new) does ([`EncoderOptions::validate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncoderOptions {
    /// `mode`.
    mode: Mode,
    /// `flink.version`.
    flink_version: FlinkVersion,
    /// `float.java-digits`.
    float_digits: JavaFloatDigits,
    /// `timestamp-format.standard`.
    timestamp_standard: TimestampStandard,
    /// `map-null-key.mode`.
    map_null_key_mode: MapNullKeyMode,
    /// `map-null-key.literal`.
    map_null_key_literal: String,
    /// `encode.decimal-as-plain-number`.
    decimal_as_plain_number: bool,
    /// `encode.ignore-null-fields`.
    ignore_null_fields: bool,
    /// `key.timestamp-format.standard` ... `key.encode.ignore-null-fields`.
    key_format: KeyFormat,
    /// `key.fields`, in key order. Empty: records have a null key.
    key_fields: Vec<String>,
    /// `key.fields-prefix`, stripped from the key row's field names.
    key_fields_prefix: Option<String>,
    /// `value.fields-include`.
    value_fields_include: ValueFieldsInclude,
    /// `changelog.row-kind-column`.
    row_kind_column: Option<String>,
    /// `plain.explicit-nulls`.
    plain_explicit_nulls: bool,
}

impl Default for EncoderOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Flink,
            flink_version: FlinkVersion::default(),
            float_digits: JavaFloatDigits::Jdk19,
            timestamp_standard: TimestampStandard::Sql,
            map_null_key_mode: MapNullKeyMode::Fail,
            map_null_key_literal: "null".to_owned(),
            decimal_as_plain_number: false,
            ignore_null_fields: false,
            key_format: KeyFormat::default(),
            key_fields: Vec::new(),
            key_fields_prefix: None,
            value_fields_include: ValueFieldsInclude::All,
            row_kind_column: None,
            plain_explicit_nulls: false,
        }
    }
}

impl EncoderOptions {
    /// Sets `mode` (ours): which reference the bytes must match. Default [`Mode::Flink`].
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `flink.version` (ours): the Flink release whose behaviour is reproduced where releases differ.
    /// Default [`FlinkVersion::V2_2`].
    pub fn with_flink_version(mut self, version: FlinkVersion) -> Self {
        self.flink_version = version;
        self
    }

    /// Sets `float.java-digits` (ours): whose `Double.toString` / `Float.toString` digits FLOAT and DOUBLE get,
    /// JDK 19+ or JDK 17. Default [`JavaFloatDigits::Jdk19`]. Flink mode only (plain mode writes arrow-json's).
    pub fn with_float_digits(mut self, digits: JavaFloatDigits) -> Self {
        self.float_digits = digits;
        self
    }

    /// Sets Flink's `timestamp-format.standard`: how TIMESTAMP and TIMESTAMP_LTZ are written.
    /// Default [`TimestampStandard::Sql`].
    pub fn with_timestamp_standard(mut self, standard: TimestampStandard) -> Self {
        self.timestamp_standard = standard;
        self
    }

    /// Sets Flink's `map-null-key.mode`: what a null map key becomes. Default [`MapNullKeyMode::Fail`].
    pub fn with_map_null_key_mode(mut self, mode: MapNullKeyMode) -> Self {
        self.map_null_key_mode = mode;
        self
    }

    /// Sets Flink's `map-null-key.literal`: the key written for a null map key under
    /// [`MapNullKeyMode::Literal`]. Default `null`.
    pub fn with_map_null_key_literal(mut self, literal: impl Into<String>) -> Self {
        self.map_null_key_literal = literal.into();
        self
    }

    /// Sets Flink's `encode.decimal-as-plain-number`: DECIMAL as `100` rather than `1E+2`. Default `false`.
    pub fn with_decimal_as_plain_number(mut self, plain: bool) -> Self {
        self.decimal_as_plain_number = plain;
        self
    }

    /// Sets Flink's `encode.ignore-null-fields` (Flink 1.20+): null fields of a ROW are omitted instead of
    /// written as `null`. Default `false`.
    pub fn with_ignore_null_fields(mut self, ignore: bool) -> Self {
        self.ignore_null_fields = ignore;
        self
    }

    /// Sets the key row's own json format settings (`key.timestamp-format.standard`...), as Flink's
    /// `key.json.*` options set the key format's: each `None` field is the value row's setting. Default: all
    /// `None`, one format for both rows.
    pub fn with_key_format(mut self, key_format: KeyFormat) -> Self {
        self.key_format = key_format;
        self
    }

    /// Sets the Kafka connector's `key.fields`: the key row's columns, in key order, names as given
    /// ([`from_pairs`](Self::from_pairs) splits the option at `;` and trims). Default none: every key is null.
    pub fn with_key_fields<I>(mut self, names: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.key_fields = names.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the Kafka connector's `key.fields-prefix`, stripped from the key row's field names; it needs
    /// [`ValueFieldsInclude::ExceptKey`]. An empty prefix is none, the default.
    pub fn with_key_fields_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.key_fields_prefix = Some(prefix.into()).filter(|p| !p.is_empty());
        self
    }

    /// Sets the Kafka connector's `value.fields-include`: which columns the value row holds.
    /// Default [`ValueFieldsInclude::All`].
    pub fn with_value_fields_include(mut self, include: ValueFieldsInclude) -> Self {
        self.value_fields_include = include;
        self
    }

    /// Sets `changelog.row-kind-column` (ours, as Flink's upsert-kafka writes): a Utf8 column of Flink
    /// `RowKind` short strings (`+I`, `-U`, `+U`, `-D`) or an Int8 column of `RowKind.toByteValue()` (0..=3).
    /// When set, the output is an upsert stream: `-D` and `-U` rows become tombstones (null value, key kept);
    /// it needs `key.fields`. The column is part of neither key nor value. An empty name is none, the default
    /// (append-only).
    pub fn with_row_kind_column(mut self, column: impl Into<String>) -> Self {
        self.row_kind_column = Some(column.into()).filter(|c| !c.is_empty());
        self
    }

    /// Sets `plain.explicit-nulls` (plain mode only, arrow-json's `WriterBuilder::with_explicit_nulls`): write
    /// `null` for null fields instead of omitting them. Default `false`.
    pub fn with_plain_explicit_nulls(mut self, explicit: bool) -> Self {
        self.plain_explicit_nulls = explicit;
        self
    }

    /// `mode`: which reference the bytes must match.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// `flink.version`: the Flink release reproduced where releases differ.
    pub fn flink_version(&self) -> FlinkVersion {
        self.flink_version
    }

    /// `float.java-digits`: the JDK whose FLOAT and DOUBLE digits are written.
    pub fn float_digits(&self) -> JavaFloatDigits {
        self.float_digits
    }

    /// `timestamp-format.standard`: how TIMESTAMP and TIMESTAMP_LTZ are written.
    pub fn timestamp_standard(&self) -> TimestampStandard {
        self.timestamp_standard
    }

    /// `map-null-key.mode`: what a null map key becomes.
    pub fn map_null_key_mode(&self) -> MapNullKeyMode {
        self.map_null_key_mode
    }

    /// `map-null-key.literal`: the key written for a null map key under [`MapNullKeyMode::Literal`].
    pub fn map_null_key_literal(&self) -> &str {
        &self.map_null_key_literal
    }

    /// `encode.decimal-as-plain-number`: whether DECIMAL is written as a plain number.
    pub fn decimal_as_plain_number(&self) -> bool {
        self.decimal_as_plain_number
    }

    /// `encode.ignore-null-fields`: whether null ROW fields are omitted.
    pub fn ignore_null_fields(&self) -> bool {
        self.ignore_null_fields
    }

    /// The key row's own json format settings (`None`: the value row's).
    pub fn key_format(&self) -> &KeyFormat {
        &self.key_format
    }

    /// The options the key row is written with: these, with the key row's own format settings
    /// ([`key_format`](Self::key_format)) in place of the value row's.
    pub fn key_row_options(&self) -> EncoderOptions {
        let k = &self.key_format;
        let mut o = self.clone();
        o.timestamp_standard = k.timestamp_standard.unwrap_or(self.timestamp_standard);
        o.map_null_key_mode = k.map_null_key_mode.unwrap_or(self.map_null_key_mode);
        o.map_null_key_literal = k
            .map_null_key_literal
            .clone()
            .unwrap_or_else(|| self.map_null_key_literal.clone());
        o.decimal_as_plain_number = k
            .decimal_as_plain_number
            .unwrap_or(self.decimal_as_plain_number);
        o.ignore_null_fields = k.ignore_null_fields.unwrap_or(self.ignore_null_fields);
        o
    }

    /// `key.fields`, in key order. Empty: records have a null key.
    pub fn key_fields(&self) -> &[String] {
        &self.key_fields
    }

    /// `key.fields-prefix`, stripped from the key row's field names; `None` when not set.
    pub fn key_fields_prefix(&self) -> Option<&str> {
        self.key_fields_prefix.as_deref()
    }

    /// `value.fields-include`: which columns the value row holds.
    pub fn value_fields_include(&self) -> ValueFieldsInclude {
        self.value_fields_include
    }

    /// `changelog.row-kind-column`: the column of row kinds that makes the output an upsert stream; `None`
    /// for append-only output.
    pub fn row_kind_column(&self) -> Option<&str> {
        self.row_kind_column.as_deref()
    }

    /// `plain.explicit-nulls`: whether plain mode writes `null` for null fields.
    pub fn plain_explicit_nulls(&self) -> bool {
        self.plain_explicit_nulls
    }
}

fn invalid(key: &str, message: impl Into<String>) -> Error {
    Error::InvalidOption {
        key: key.to_owned(),
        message: message.into(),
    }
}

/// The error for a name that is not in [`OPTIONS`]: `unknown option; known: ` and the names in table order.
fn unknown(key: &str) -> Error {
    let known: Vec<&str> = OPTIONS.iter().map(|option| option.name).collect();
    invalid(key, format!("unknown option; known: {}", known.join(", ")))
}

fn parse_bool(key: &str, value: &str) -> Result<bool> {
    // Flink's ConfigOption<Boolean> accepts true/false in any case.
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid(
            key,
            format!("`{value}` is not a boolean; use true or false"),
        )),
    }
}

impl EncoderOptions {
    /// Parses options from `(name, value)` pairs, e.g. a Flink table's `WITH (...)` clause or a Java `Map`.
    /// Later pairs override earlier ones; options not given keep their defaults (see the module docs).
    ///
    /// # Errors
    /// [`Error::InvalidOption`] for an unknown name (a typo must not be silently ignored; the message lists the
    /// names of [`OPTIONS`]) or a value outside the accepted set, and for combinations Flink rejects:
    /// `key.fields-prefix` without `value.fields-include=EXCEPT_KEY`, `encode.ignore-null-fields` on Flink 1.19,
    /// a row-kind column without `key.fields`.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self> {
        let mut o = Self::default();
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            if let Some(setting) = FormatSetting::parse(key, key, value)? {
                o = match setting {
                    FormatSetting::TimestampStandard(v) => o.with_timestamp_standard(v),
                    FormatSetting::MapNullKeyMode(v) => o.with_map_null_key_mode(v),
                    FormatSetting::MapNullKeyLiteral(v) => o.with_map_null_key_literal(v),
                    FormatSetting::DecimalAsPlainNumber(v) => o.with_decimal_as_plain_number(v),
                    FormatSetting::IgnoreNullFields(v) => o.with_ignore_null_fields(v),
                };
                continue;
            }
            if let Some(name) = key
                .strip_prefix("key.")
                .filter(|name| FORMAT_OPTIONS.contains(name))
            {
                // An empty value unsets the key's own setting (the value's applies), as for the other options
                // that are unset by default.
                if value.is_empty() {
                    o.key_format.unset(name);
                } else if let Some(setting) = FormatSetting::parse(name, key, value)? {
                    o.key_format.set(setting);
                }
                continue;
            }
            o = match key {
                "mode" => o.with_mode(match value {
                    "flink" => Mode::Flink,
                    "plain" => Mode::Plain,
                    _ => {
                        return Err(invalid(
                            key,
                            format!("`{value}` is not one of flink, plain"),
                        ))
                    }
                }),
                "flink.version" => {
                    o.with_flink_version(FlinkVersion::parse(value).ok_or_else(|| {
                        invalid(
                            key,
                            format!("`{value}` is not one of 1.19, 1.20, 2.0, 2.1, 2.2, 2.3"),
                        )
                    })?)
                }
                "float.java-digits" => {
                    o.with_float_digits(JavaFloatDigits::parse(value).ok_or_else(|| {
                        invalid(key, format!("`{value}` is not one of jdk19, jdk17"))
                    })?)
                }
                "key.fields" => {
                    o.with_key_fields(value.split(';').map(str::trim).filter(|s| !s.is_empty()))
                }
                "key.fields-prefix" => o.with_key_fields_prefix(value),
                "value.fields-include" => {
                    o.with_value_fields_include(match value.to_ascii_uppercase().as_str() {
                        "ALL" => ValueFieldsInclude::All,
                        "EXCEPT_KEY" => ValueFieldsInclude::ExceptKey,
                        _ => {
                            return Err(invalid(
                                key,
                                format!("`{value}` is not one of ALL, EXCEPT_KEY"),
                            ))
                        }
                    })
                }
                "changelog.row-kind-column" => o.with_row_kind_column(value),
                "plain.explicit-nulls" => o.with_plain_explicit_nulls(parse_bool(key, value)?),
                // A name of OPTIONS that reaches this arm is a bug: every_option_parses_with_its_default fails.
                _ => return Err(unknown(key)),
            };
        }
        o.validate()?;
        Ok(o)
    }

    /// Checks the combinations Flink rejects (see [`EncoderOptions::from_pairs`]).
    ///
    /// # Errors
    /// [`Error::InvalidOption`] naming the option at fault.
    pub fn validate(&self) -> Result<()> {
        if self.key_fields_prefix.is_some()
            && self.value_fields_include != ValueFieldsInclude::ExceptKey
        {
            // KafkaConnectorOptionsUtil.validateKeyFormat: a prefix needs EXCEPT_KEY.
            return Err(invalid(
                "key.fields-prefix",
                "needs value.fields-include = EXCEPT_KEY (as in Flink's Kafka connector)",
            ));
        }
        if self.ignore_null_fields
            && self.mode == Mode::Flink
            && self.flink_version < FlinkVersion::V1_20
        {
            return Err(invalid(
                "encode.ignore-null-fields",
                "exists since Flink 1.20 (FLINK-16627)",
            ));
        }
        if self.key_format.ignore_null_fields == Some(true)
            && self.mode == Mode::Flink
            && self.flink_version < FlinkVersion::V1_20
        {
            return Err(invalid(
                "key.encode.ignore-null-fields",
                "exists since Flink 1.20 (FLINK-16627)",
            ));
        }
        if self.row_kind_column.is_some() && self.key_fields.is_empty() {
            return Err(invalid(
                "changelog.row-kind-column",
                "upsert output needs key.fields (upsert-kafka keys every record by its primary key)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_flink() {
        let o = EncoderOptions::from_pairs(std::iter::empty::<(&str, &str)>()).unwrap();
        assert_eq!(o, EncoderOptions::default());
        assert_eq!(o.map_null_key_literal, "null");
        assert_eq!(o.flink_version, FlinkVersion::V2_2);
    }

    #[test]
    fn key_format_options_override_the_value_rows_for_the_key_only() {
        let o = EncoderOptions::from_pairs([
            ("timestamp-format.standard", "SQL"),
            ("key.timestamp-format.standard", "ISO-8601"),
            ("key.map-null-key.mode", "literal"),
            ("key.map-null-key.literal", "k-null"),
            ("key.encode.decimal-as-plain-number", "TRUE"),
            ("key.encode.ignore-null-fields", "true"),
        ])
        .unwrap();
        assert_eq!(o.timestamp_standard(), TimestampStandard::Sql);
        assert!(!o.decimal_as_plain_number() && !o.ignore_null_fields());
        let key = o.key_row_options();
        assert_eq!(key.timestamp_standard(), TimestampStandard::Iso8601);
        assert_eq!(key.map_null_key_mode(), MapNullKeyMode::Literal);
        assert_eq!(key.map_null_key_literal(), "k-null");
        assert!(key.decimal_as_plain_number() && key.ignore_null_fields());

        // Unset (or never set): the value row's, whatever it is set to.
        let o = EncoderOptions::from_pairs([
            ("key.timestamp-format.standard", "ISO-8601"),
            ("key.timestamp-format.standard", ""),
            ("timestamp-format.standard", "ISO-8601"),
            ("map-null-key.literal", "v-null"),
        ])
        .unwrap();
        assert_eq!(o.key_format(), &KeyFormat::default());
        assert_eq!(o.key_row_options(), o);

        // The key's values are checked as the value's, and named with their prefix.
        let error = |pairs: &[(&str, &str)]| {
            EncoderOptions::from_pairs(pairs.iter().copied())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error(&[("key.timestamp-format.standard", "iso-8601")]),
            "option `key.timestamp-format.standard`: `iso-8601` is not one of SQL, ISO-8601"
        );
        assert!(error(&[("key.encode.ignore-null-fields", "yes")])
            .starts_with("option `key.encode.ignore-null-fields`"));
        assert!(error(&[("key.fields.x", "a")]).contains("unknown option"));
        assert!(error(&[
            ("flink.version", "1.19"),
            ("key.encode.ignore-null-fields", "true")
        ])
        .contains("exists since Flink 1.20"));
    }

    #[test]
    fn the_key_row_is_written_with_its_own_format_options() {
        use arrow_array::{Decimal128Array, Int64Array, RecordBatch, TimestampMillisecondArray};
        use std::sync::Arc;
        let batch = RecordBatch::try_from_iter([
            ("id", Arc::new(Int64Array::from(vec![Some(7), None])) as _),
            (
                "at",
                Arc::new(TimestampMillisecondArray::from(vec![1_500, 2_000])) as _,
            ),
            (
                "price",
                Arc::new(
                    Decimal128Array::from(vec![100, 250])
                        .with_precision_and_scale(10, 0)
                        .unwrap(),
                ) as _,
            ),
        ])
        .unwrap();
        let options = EncoderOptions::from_pairs([
            ("key.fields", "id;at;price"),
            ("key.timestamp-format.standard", "ISO-8601"),
            ("key.encode.decimal-as-plain-number", "true"),
            ("key.encode.ignore-null-fields", "true"),
        ])
        .unwrap();
        let records = crate::JsonEncoder::new(options)
            .unwrap()
            .encode(&batch)
            .unwrap();
        // Flink's json format: ISO-8601 `T`, plain decimals and no null fields in the key; SQL timestamps,
        // Jackson's scientific decimals and nulls in the value.
        assert_eq!(
            records.key(0),
            Some(&br#"{"id":7,"at":"1970-01-01T00:00:01.5","price":100}"#[..])
        );
        assert_eq!(
            records.key(1),
            Some(&br#"{"at":"1970-01-01T00:00:02","price":250}"#[..])
        );
        assert_eq!(
            records.value(0),
            Some(&br#"{"id":7,"at":"1970-01-01 00:00:01.5","price":1E+2}"#[..])
        );
        assert_eq!(
            records.value(1),
            Some(&br#"{"id":null,"at":"1970-01-01 00:00:02","price":2.5E+2}"#[..])
        );
    }

    #[test]
    fn parses_every_option() {
        let o = EncoderOptions::from_pairs([
            ("timestamp-format.standard", "ISO-8601"),
            ("map-null-key.mode", "literal"),
            ("map-null-key.literal", "N/A"),
            ("encode.decimal-as-plain-number", "TRUE"),
            ("encode.ignore-null-fields", "true"),
            ("key.fields", "k_b; k_a"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "except_key"),
            ("changelog.row-kind-column", "op"),
            ("flink.version", "2.3"),
            ("float.java-digits", "jdk17"),
        ])
        .unwrap();
        assert_eq!(o.timestamp_standard, TimestampStandard::Iso8601);
        assert_eq!(o.map_null_key_mode, MapNullKeyMode::Literal);
        assert_eq!(o.map_null_key_literal, "N/A");
        assert!(o.decimal_as_plain_number && o.ignore_null_fields);
        assert_eq!(o.key_fields, ["k_b", "k_a"]);
        assert_eq!(o.key_fields_prefix.as_deref(), Some("k_"));
        assert_eq!(o.value_fields_include, ValueFieldsInclude::ExceptKey);
        assert_eq!(o.row_kind_column.as_deref(), Some("op"));
        assert_eq!(o.flink_version, FlinkVersion::V2_3);
        assert_eq!(o.float_digits, JavaFloatDigits::Jdk17);
    }

    #[test]
    fn builder_sets_what_from_pairs_parses() {
        let built = EncoderOptions::default()
            .with_mode(Mode::Plain)
            .with_flink_version(FlinkVersion::V1_20)
            .with_float_digits(JavaFloatDigits::Jdk17)
            .with_timestamp_standard(TimestampStandard::Iso8601)
            .with_map_null_key_mode(MapNullKeyMode::Literal)
            .with_map_null_key_literal("N/A")
            .with_decimal_as_plain_number(true)
            .with_ignore_null_fields(true)
            .with_key_fields(["k_b", "k_a"])
            .with_key_fields_prefix("k_")
            .with_value_fields_include(ValueFieldsInclude::ExceptKey)
            .with_row_kind_column("op")
            .with_plain_explicit_nulls(true);
        let parsed = EncoderOptions::from_pairs([
            ("mode", "plain"),
            ("flink.version", "1.20"),
            ("float.java-digits", "jdk17"),
            ("timestamp-format.standard", "ISO-8601"),
            ("map-null-key.mode", "LITERAL"),
            ("map-null-key.literal", "N/A"),
            ("encode.decimal-as-plain-number", "true"),
            ("encode.ignore-null-fields", "true"),
            ("key.fields", "k_b;k_a"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "EXCEPT_KEY"),
            ("changelog.row-kind-column", "op"),
            ("plain.explicit-nulls", "true"),
        ])
        .unwrap();
        assert_eq!(built, parsed);
        assert_eq!(built.mode(), Mode::Plain);
        assert_eq!(built.flink_version(), FlinkVersion::V1_20);
        assert_eq!(built.float_digits(), JavaFloatDigits::Jdk17);
        assert_eq!(built.timestamp_standard(), TimestampStandard::Iso8601);
        assert_eq!(built.map_null_key_mode(), MapNullKeyMode::Literal);
        assert_eq!(built.map_null_key_literal(), "N/A");
        assert!(built.decimal_as_plain_number() && built.ignore_null_fields());
        assert_eq!(built.key_fields(), ["k_b", "k_a"]);
        assert_eq!(built.key_fields_prefix(), Some("k_"));
        assert_eq!(built.value_fields_include(), ValueFieldsInclude::ExceptKey);
        assert_eq!(built.row_kind_column(), Some("op"));
        assert!(built.plain_explicit_nulls());
    }

    #[test]
    fn empty_prefix_and_row_kind_column_are_unset() {
        let o = EncoderOptions::default()
            .with_key_fields_prefix("k_")
            .with_key_fields_prefix("")
            .with_row_kind_column("op")
            .with_row_kind_column("");
        assert_eq!(o, EncoderOptions::default());
        assert_eq!((o.key_fields_prefix(), o.row_kind_column()), (None, None));
    }

    /// The value that gives an option its default: the table's text, or empty for `none` (unset).
    fn default_value(option: &OptionSpec) -> &'static str {
        if option.default == "none" {
            ""
        } else {
            option.default
        }
    }

    #[test]
    fn every_option_parses_with_its_default() {
        for option in OPTIONS {
            let parsed = EncoderOptions::from_pairs([(option.name, default_value(option))]);
            assert_eq!(
                parsed.as_ref().ok(),
                Some(&EncoderOptions::default()),
                "{} = `{}`: {parsed:?}",
                option.name,
                default_value(option)
            );
        }
        let all = EncoderOptions::from_pairs(OPTIONS.iter().map(|o| (o.name, default_value(o))));
        assert_eq!(all.ok(), Some(EncoderOptions::default()));
        let mut names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), OPTIONS.len(), "a name is declared twice");
    }

    #[test]
    fn unknown_names_are_refused_listing_exactly_the_table() {
        let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        for typo in [
            "key.field",
            "json.timestamp-format.standard",
            "",
            "MODE",
            "changelog.mode",
        ] {
            let error = EncoderOptions::from_pairs([(typo, "x")]).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "option `{typo}`: unknown option; known: {}",
                    names.join(", ")
                )
            );
        }
        // The text the Rust and Java tests and docs were written against.
        assert_eq!(
            names.join(", "),
            "mode, flink.version, float.java-digits, timestamp-format.standard, map-null-key.mode, map-null-key.literal, \
             encode.decimal-as-plain-number, encode.ignore-null-fields, key.timestamp-format.standard, \
             key.map-null-key.mode, key.map-null-key.literal, key.encode.decimal-as-plain-number, \
             key.encode.ignore-null-fields, key.fields, key.fields-prefix, value.fields-include, \
             changelog.row-kind-column, plain.explicit-nulls"
        );
    }

    /// The rows of the first Markdown table under `heading` in `text` (header and separator skipped), each as
    /// its cells trimmed.
    fn table_rows<'a>(text: &'a str, heading: &str, path: &str) -> Vec<Vec<&'a str>> {
        let start = text
            .find(heading)
            .unwrap_or_else(|| panic!("{path}: no `{heading}`"));
        text[start..]
            .lines()
            .skip_while(|line| !line.trim_start_matches("//! ").starts_with('|'))
            .map(|line| line.trim_start_matches("//!").trim())
            .take_while(|line| line.starts_with('|'))
            .skip(2)
            .map(|line| line.trim_matches('|').split(" | ").map(str::trim).collect())
            .collect()
    }

    /// A default cell as [`OptionSpec::default`] writes it: `` `text` ``, or `none`.
    fn default_cell(option: &OptionSpec) -> String {
        if option.default == "none" {
            "none".to_owned()
        } else {
            format!("`{}`", option.default)
        }
    }

    /// Checks that `rows` (option, values, default, meaning-or-source) list exactly [`OPTIONS`]' names in order
    /// with their defaults, and their meanings when `meanings`; the message shows the rows expected.
    fn check_table(rows: &[Vec<&str>], meanings: bool, path: &str) {
        let expected: Vec<String> = OPTIONS
            .iter()
            .map(|o| {
                let meaning = if meanings { o.meaning } else { "..." };
                format!("| `{}` | ... | {} | {meaning} |", o.name, default_cell(o))
            })
            .collect();
        let found: Vec<String> = rows
            .iter()
            .map(|cells| {
                let meaning = if meanings {
                    cells.get(3).copied().unwrap_or("")
                } else {
                    "..."
                };
                format!(
                    "| {} | ... | {} | {meaning} |",
                    cells.first().copied().unwrap_or(""),
                    cells.get(2).copied().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(
            found,
            expected,
            "{path}: its options table disagrees with OPTIONS; expected rows (values column elided):\n{}",
            expected.join("\n")
        );
    }

    #[test]
    fn the_docs_options_table_lists_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/json-format.md");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rows = table_rows(&text, "\n## Options\n", path);
        assert_eq!(
            rows.first().map(|r| r.len()),
            Some(4),
            "{path}: option | values | default | meaning"
        );
        check_table(&rows, true, path);
    }

    #[test]
    fn the_module_docs_table_lists_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/options.rs");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let rows = table_rows(&text, "//! | option | values | default | source |", path);
        check_table(&rows, false, path);
    }

    #[test]
    fn rejects_typos_and_bad_values_naming_the_option() {
        let err = |pairs: &[(&str, &str)]| {
            EncoderOptions::from_pairs(pairs.iter().copied())
                .unwrap_err()
                .to_string()
        };
        assert!(err(&[("timestamp-format.standrd", "SQL")])
            .starts_with("option `timestamp-format.standrd`: unknown option"));
        assert!(err(&[("timestamp-format.standard", "sql")])
            .contains("`sql` is not one of SQL, ISO-8601"));
        assert!(err(&[("encode.ignore-null-fields", "yes")]).contains("not a boolean"));
        assert!(err(&[("key.fields", "a"), ("key.fields-prefix", "k_")]).contains("EXCEPT_KEY"));
        assert!(err(&[
            ("flink.version", "1.19"),
            ("encode.ignore-null-fields", "true")
        ])
        .contains("1.20"));
        assert!(err(&[("changelog.row-kind-column", "op")]).contains("key.fields"));
        assert!(err(&[("flink.version", "1.18")]).contains("not one of 1.19"));
        assert!(err(&[("float.java-digits", "17")]).contains("`17` is not one of jdk19, jdk17"));
    }
}
