//! The Kafka record layout of Flink's Kafka SQL connector (`DynamicKafkaRecordSerializationSchema`): which columns
//! form the key row and the value row, under which names, and which rows are upsert tombstones.

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema};

use crate::error::{Error, Result};
use crate::options::{EncoderOptions, ValueFieldsInclude};

/// Column projections, resolved once per schema.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Key row: `(column index, output name)` in `key.fields` order, names with `key.fields-prefix` stripped.
    /// `None`: no key format, every key is null.
    pub(crate) key: Option<Vec<(usize, String)>>,
    /// Value row: `(column index, name)` in schema order.
    pub(crate) value: Vec<(usize, String)>,
    /// The row-kind column (upsert output), if configured.
    pub(crate) row_kind: Option<usize>,
}

impl Layout {
    /// Resolves the options against `schema`.
    ///
    /// # Errors
    /// [`Error::InvalidLayout`] when a named column is missing, a key field lacks the prefix, or the row-kind
    /// column has a type other than Utf8/LargeUtf8/Utf8View/Int8.
    pub(crate) fn new(schema: &Schema, o: &EncoderOptions) -> Result<Self> {
        let find = |name: &str, option: &str| {
            schema.index_of(name).map_err(|_| {
                let columns: Vec<&str> =
                    schema.fields().iter().map(|f| f.name().as_str()).collect();
                Error::InvalidLayout(format!(
                    "{option} names `{name}`, which is not a column (columns: {columns:?})"
                ))
            })
        };
        let row_kind = match o.row_kind_column() {
            Some(name) => {
                let i = find(name, "changelog.row-kind-column")?;
                let dt = schema.field(i).data_type();
                if !matches!(
                    dt,
                    DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View | DataType::Int8
                ) {
                    return Err(Error::InvalidLayout(format!(
                        "changelog.row-kind-column `{name}` is {dt}; use Utf8 (+I, -U, +U, -D) or Int8 (0 to 3)"
                    )));
                }
                Some(i)
            }
            None => None,
        };
        let key = if o.key_fields().is_empty() {
            None
        } else {
            let mut key = Vec::with_capacity(o.key_fields().len());
            for name in o.key_fields() {
                let i = find(name, "key.fields")?;
                if Some(i) == row_kind {
                    return Err(Error::InvalidLayout(format!(
                        "`{name}` is the row-kind column; it cannot be a key field"
                    )));
                }
                let out = match o.key_fields_prefix() {
                    // KafkaConnectorOptionsUtil.createKeyFormatProjection's message.
                    Some(prefix) => name.strip_prefix(prefix).ok_or_else(|| {
                        Error::InvalidLayout(format!(
                            "All fields in 'key.fields' must be prefixed with '{prefix}' when option \
                             'key.fields-prefix' is set but field '{name}' is not prefixed."
                        ))
                    })?,
                    None => name.as_str(),
                };
                key.push((i, out.to_owned()));
            }
            Some(key)
        };
        let is_key = |i: usize| key.as_ref().is_some_and(|k| k.iter().any(|&(c, _)| c == i));
        let value = schema
            .fields()
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != row_kind)
            .filter(|&(i, _)| o.value_fields_include() == ValueFieldsInclude::All || !is_key(i))
            .map(|(i, f)| (i, f.name().clone()))
            .collect();
        Ok(Self {
            key,
            value,
            row_kind,
        })
    }

    /// Per row, whether the value is a tombstone: Flink's upsert-kafka writes DELETE and UPDATE_BEFORE as a null
    /// value with the key kept (`DynamicKafkaRecordSerializationSchema`), INSERT and UPDATE_AFTER as the row.
    /// `None` without a row-kind column (append-only: every row has a value).
    ///
    /// # Errors
    /// [`Error::InvalidValue`] for a null or unknown row kind.
    pub(crate) fn tombstones(&self, batch: &RecordBatch) -> Result<Option<Vec<bool>>> {
        let Some(i) = self.row_kind else {
            return Ok(None);
        };
        let column = batch.column(i);
        let name = batch.schema_ref().field(i).name().clone();
        let bad = |row: usize, what: String| Error::InvalidValue {
            field: name.clone(),
            row,
            message: format!("row kind {what} is not one of +I, -U, +U, -D (or 0 to 3)"),
        };
        let mut out = Vec::with_capacity(column.len());
        for row in 0..column.len() {
            if column.is_null(row) {
                return Err(bad(row, "null".to_owned()));
            }
            let tombstone = match column.data_type() {
                DataType::Int8 => match column
                    .as_primitive::<arrow_array::types::Int8Type>()
                    .value(row)
                {
                    0 | 2 => false,
                    1 | 3 => true,
                    v => return Err(bad(row, v.to_string())),
                },
                dt => {
                    let kind = match dt {
                        DataType::Utf8 => column.as_string::<i32>().value(row),
                        DataType::LargeUtf8 => column.as_string::<i64>().value(row),
                        _ => column.as_string_view().value(row),
                    };
                    match kind {
                        "+I" | "+U" => false,
                        "-U" | "-D" => true,
                        _ => return Err(bad(row, format!("`{kind}`"))),
                    }
                }
            };
            out.push(tombstone);
        }
        Ok(Some(out))
    }
}
