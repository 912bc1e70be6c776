//! Encoder options, named and defaulted as Flink's `json` format and Kafka SQL connector name them.
//!
//! | option | values | default | source |
//! |---|---|---|---|
//! | `mode` | `flink`, `plain` | `flink` | ours: Flink's `json` format or arrow-json's writer |
//! | `flink.version` | `1.19`, `1.20`, `2.0`, `2.1`, `2.2`, `2.3` | `2.2` | ours: behaviours that changed between releases |
//! | `timestamp-format.standard` | `SQL`, `ISO-8601` (case-sensitive) | `SQL` | Flink `JsonFormatOptions` |
//! | `map-null-key.mode` | `FAIL`, `DROP`, `LITERAL` (any case) | `FAIL` | Flink `JsonFormatOptions` |
//! | `map-null-key.literal` | any string | `null` | Flink `JsonFormatOptions` |
//! | `encode.decimal-as-plain-number` | `true`, `false` | `false` | Flink `JsonFormatOptions` |
//! | `encode.ignore-null-fields` | `true`, `false` | `false` | Flink `JsonFormatOptions` (1.20+) |
//! | `key.fields` | `;`-separated column names | empty = null key | Flink `KafkaConnectorOptions` |
//! | `key.fields-prefix` | string | none | Flink `KafkaConnectorOptions` |
//! | `value.fields-include` | `ALL`, `EXCEPT_KEY` (any case) | `ALL` | Flink `KafkaConnectorOptions` |
//! | `changelog.row-kind-column` | column name | none (append-only) | ours: upsert output as Flink's upsert-kafka writes it |
//! | `plain.explicit-nulls` | `true`, `false` | `false` | arrow-json `WriterBuilder::with_explicit_nulls` |
//!
//! Format options apply to both the key and the value row (Flink lets `key.json.*` and `value.json.*` differ;
//! one encoder here uses one set).

use crate::error::{Error, Result};

/// Which reference the bytes must match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Mode {
    /// Byte-identical to Flink's `json` format (`JsonRowDataSerializationSchema`, Jackson inside).
    #[default]
    Flink,
    /// Byte-identical to arrow-json's writer (`LineDelimitedWriter` without the newline).
    Plain,
}

/// The Flink release whose `json` format behaviour is reproduced where releases differ
/// (json-parity.md sections 2.5 and 2.6).
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

/// `value.fields-include`: which columns the value row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueFieldsInclude {
    /// Every column in schema order (key columns appear in key and value).
    #[default]
    All,
    /// Every column except the key columns, schema order kept.
    ExceptKey,
}

/// All options of a [`JsonEncoder`](crate::JsonEncoder). Parse them from Flink-style names with
/// [`EncoderOptions::from_pairs`], or set the fields directly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncoderOptions {
    /// `mode`.
    pub mode: Mode,
    /// `flink.version`.
    pub flink_version: FlinkVersion,
    /// `timestamp-format.standard`.
    pub timestamp_standard: TimestampStandard,
    /// `map-null-key.mode`.
    pub map_null_key_mode: MapNullKeyMode,
    /// `map-null-key.literal`.
    pub map_null_key_literal: String,
    /// `encode.decimal-as-plain-number`.
    pub decimal_as_plain_number: bool,
    /// `encode.ignore-null-fields`.
    pub ignore_null_fields: bool,
    /// `key.fields`, in key order. Empty: records have a null key.
    pub key_fields: Vec<String>,
    /// `key.fields-prefix`, stripped from the key row's field names.
    pub key_fields_prefix: Option<String>,
    /// `value.fields-include`.
    pub value_fields_include: ValueFieldsInclude,
    /// `changelog.row-kind-column`: a Utf8 column of Flink `RowKind` short strings (`+I`, `-U`, `+U`, `-D`) or
    /// an Int8 column of `RowKind.toByteValue()` (0..=3). When set, the output is an upsert stream as Flink's
    /// upsert-kafka writes it: `-D` and `-U` rows become tombstones (null value, key kept). The column is part
    /// of neither key nor value.
    pub row_kind_column: Option<String>,
    /// `plain.explicit-nulls` (plain mode only): write `null` for null fields instead of omitting them.
    pub plain_explicit_nulls: bool,
}

impl Default for EncoderOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Flink,
            flink_version: FlinkVersion::default(),
            timestamp_standard: TimestampStandard::Sql,
            map_null_key_mode: MapNullKeyMode::Fail,
            map_null_key_literal: "null".to_owned(),
            decimal_as_plain_number: false,
            ignore_null_fields: false,
            key_fields: Vec::new(),
            key_fields_prefix: None,
            value_fields_include: ValueFieldsInclude::All,
            row_kind_column: None,
            plain_explicit_nulls: false,
        }
    }
}

fn invalid(key: &str, message: impl Into<String>) -> Error {
    Error::InvalidOption {
        key: key.to_owned(),
        message: message.into(),
    }
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
    /// [`Error::InvalidOption`] for an unknown name (a typo must not be silently ignored) or a value outside the
    /// accepted set, and for combinations Flink rejects: `key.fields-prefix` without
    /// `value.fields-include=EXCEPT_KEY`, `encode.ignore-null-fields` on Flink 1.19, a row-kind column without
    /// `key.fields`.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self> {
        let mut o = Self::default();
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            match key {
                "mode" => {
                    o.mode = match value {
                        "flink" => Mode::Flink,
                        "plain" => Mode::Plain,
                        _ => return Err(invalid(key, format!("`{value}` is not one of flink, plain"))),
                    }
                }
                "flink.version" => {
                    o.flink_version = FlinkVersion::parse(value).ok_or_else(|| {
                        invalid(key, format!("`{value}` is not one of 1.19, 1.20, 2.0, 2.1, 2.2, 2.3"))
                    })?
                }
                "timestamp-format.standard" => {
                    // Flink validates against the exact strings (JsonFormatOptionsUtil).
                    o.timestamp_standard = match value {
                        "SQL" => TimestampStandard::Sql,
                        "ISO-8601" => TimestampStandard::Iso8601,
                        _ => return Err(invalid(key, format!("`{value}` is not one of SQL, ISO-8601"))),
                    }
                }
                "map-null-key.mode" => {
                    o.map_null_key_mode = match value.to_ascii_uppercase().as_str() {
                        "FAIL" => MapNullKeyMode::Fail,
                        "DROP" => MapNullKeyMode::Drop,
                        "LITERAL" => MapNullKeyMode::Literal,
                        _ => return Err(invalid(key, format!("`{value}` is not one of FAIL, DROP, LITERAL"))),
                    }
                }
                "map-null-key.literal" => o.map_null_key_literal = value.to_owned(),
                "encode.decimal-as-plain-number" => o.decimal_as_plain_number = parse_bool(key, value)?,
                "encode.ignore-null-fields" => o.ignore_null_fields = parse_bool(key, value)?,
                "key.fields" => {
                    o.key_fields = value.split(';').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
                }
                "key.fields-prefix" => o.key_fields_prefix = Some(value.to_owned()).filter(|p| !p.is_empty()),
                "value.fields-include" => {
                    o.value_fields_include = match value.to_ascii_uppercase().as_str() {
                        "ALL" => ValueFieldsInclude::All,
                        "EXCEPT_KEY" => ValueFieldsInclude::ExceptKey,
                        _ => return Err(invalid(key, format!("`{value}` is not one of ALL, EXCEPT_KEY"))),
                    }
                }
                "changelog.row-kind-column" => o.row_kind_column = Some(value.to_owned()).filter(|c| !c.is_empty()),
                "plain.explicit-nulls" => o.plain_explicit_nulls = parse_bool(key, value)?,
                _ => {
                    return Err(invalid(
                        key,
                        "unknown option; known: mode, flink.version, timestamp-format.standard, map-null-key.mode, \
                         map-null-key.literal, encode.decimal-as-plain-number, encode.ignore-null-fields, key.fields, \
                         key.fields-prefix, value.fields-include, changelog.row-kind-column, plain.explicit-nulls",
                    ))
                }
            }
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
    }
}
