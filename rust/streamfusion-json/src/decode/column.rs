//! The row type the decoder fills, read from an Arrow schema ([`Column`], [`RowShape`]); the values of one row
//! while it is read ([`Value`], Flink's `GenericRowData` and its nested data); and the Arrow builders the
//! finished rows go to ([`Builder`]).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Decimal128Builder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, Int8Builder, LargeBinaryBuilder,
};
use arrow_array::{
    make_array, Array, ArrayRef, LargeStringArray, ListArray, MapArray, StringArray, StructArray,
};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer};
use arrow_schema::{DataType, FieldRef, Fields, TimeUnit};

use super::row::RowSink;

/// A column's Flink type, as read from its Arrow type (the same mapping as the encoder's,
/// `docs/json-format.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Column {
    Boolean,
    Int8,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Decimal {
        precision: u8,
        scale: i8,
    },
    Utf8,
    LargeUtf8,
    Binary,
    LargeBinary,
    /// DATE into Date32 (days).
    Date32,
    /// TIME into Time32 (seconds, milliseconds) or Time64 (microseconds, nanoseconds).
    Time(TimeUnit),
    /// TIMESTAMP (`ltz` false: no time zone) or TIMESTAMP_LTZ (a time zone) into Timestamp.
    Timestamp {
        unit: TimeUnit,
        ltz: bool,
    },
    /// ARRAY into List.
    List(Box<Column>),
    /// MAP (and MULTISET, a map to INT counts: decoded the same) into Map with string keys.
    Map {
        key: Box<Column>,
        value: Box<Column>,
    },
    /// ROW into Struct.
    Row(Arc<RowShape>),
}

/// A ROW's fields: their columns, and their positions by name.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RowShape {
    pub(crate) columns: Vec<Column>,
    names: Vec<Box<[u8]>>,
    /// Per field, whether its name is ASCII without a quote or backslash (a key in the message that names it
    /// can then only be its bytes, unescaped).
    plain: Vec<bool>,
    index: HashMap<Box<[u8]>, usize>,
}

impl RowShape {
    /// The shape of `fields`; `Err` names the first field (dotted path) whose type is not read, and the type.
    /// Every field must be nullable: Flink's json format gives null for a missing or null field whatever the
    /// type's nullability.
    pub(crate) fn of(fields: &Fields) -> Result<RowShape, (String, DataType)> {
        let mut columns = Vec::with_capacity(fields.len());
        for field in fields {
            if !field.is_nullable() {
                return Err((field.name().clone(), field.data_type().clone()));
            }
            columns.push(
                Column::for_type(field.data_type())
                    .map_err(|(path, t)| (join_path(field.name(), &path), t))?,
            );
        }
        let names: Vec<Box<[u8]>> = fields.iter().map(|f| f.name().as_bytes().into()).collect();
        let index = names
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        let plain = names
            .iter()
            .map(|n| n.is_ascii() && !n.iter().any(|&b| b == b'"' || b == b'\\'))
            .collect();
        Ok(RowShape {
            columns,
            names,
            plain,
            index,
        })
    }

    /// The name of field `i` when it is ASCII without a quote or backslash; `None` otherwise or past the last field.
    pub(crate) fn plain_name(&self, i: usize) -> Option<&[u8]> {
        self.plain.get(i).copied()?.then(|| &*self.names[i])
    }

    /// The position of the field named `name` (UTF-8), trying `hint` first, then every name of a short row, then
    /// the index.
    pub(crate) fn find(&self, name: &[u8], hint: usize) -> Option<usize> {
        if self.names.get(hint).is_some_and(|n| **n == *name) {
            return Some(hint);
        }
        if self.names.len() <= 16 {
            return self.names.iter().position(|n| **n == *name);
        }
        self.index.get(name).copied()
    }

    /// Whether a DECIMAL is anywhere in the row, nested ones included (Flink's mapper then reads floating-point
    /// numbers as `BigDecimal`).
    pub(crate) fn has_decimal(&self) -> bool {
        self.columns.iter().any(Column::has_decimal)
    }
}

fn join_path(name: &str, rest: &str) -> String {
    if rest.is_empty() {
        name.to_owned()
    } else {
        format!("{name}{rest}")
    }
}

impl Column {
    /// The column for an Arrow type; `Err` with the path below it (`.field`, `[]`, `{}`) and the type that is not
    /// read. Map keys must be strings, as Flink's json format requires.
    pub(crate) fn for_type(data_type: &DataType) -> Result<Column, (String, DataType)> {
        let unread = || Err((String::new(), data_type.clone()));
        Ok(match data_type {
            DataType::Boolean => Column::Boolean,
            DataType::Int8 => Column::Int8,
            DataType::Int16 => Column::Int16,
            DataType::Int32 => Column::Int32,
            DataType::Int64 => Column::Int64,
            DataType::Float32 => Column::Float32,
            DataType::Float64 => Column::Float64,
            DataType::Decimal128(precision, scale)
                if *scale >= 0 && scale.unsigned_abs() <= *precision =>
            {
                Column::Decimal {
                    precision: *precision,
                    scale: *scale,
                }
            }
            DataType::Utf8 => Column::Utf8,
            DataType::LargeUtf8 => Column::LargeUtf8,
            DataType::Binary => Column::Binary,
            DataType::LargeBinary => Column::LargeBinary,
            DataType::Date32 => Column::Date32,
            DataType::Time32(unit @ (TimeUnit::Second | TimeUnit::Millisecond))
            | DataType::Time64(unit @ (TimeUnit::Microsecond | TimeUnit::Nanosecond)) => {
                Column::Time(*unit)
            }
            DataType::Timestamp(unit, tz) => Column::Timestamp {
                unit: *unit,
                ltz: tz.is_some(),
            },
            DataType::List(element) if element.is_nullable() => Column::List(Box::new(
                Column::for_type(element.data_type()).map_err(|(p, t)| (format!("[]{p}"), t))?,
            )),
            DataType::Map(entries, _) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    return unread();
                };
                if kv.len() != 2
                    || !matches!(kv[0].data_type(), DataType::Utf8 | DataType::LargeUtf8)
                    || !kv[1].is_nullable()
                {
                    return unread();
                }
                Column::Map {
                    key: Box::new(Column::for_type(kv[0].data_type())?),
                    value: Box::new(
                        Column::for_type(kv[1].data_type())
                            .map_err(|(p, t)| (format!("{{}}{p}"), t))?,
                    ),
                }
            }
            DataType::Struct(fields) => Column::Row(Arc::new(
                RowShape::of(fields).map_err(|(p, t)| (format!(".{p}"), t))?,
            )),
            _ => return unread(),
        })
    }

    fn has_decimal(&self) -> bool {
        match self {
            Column::Decimal { .. } => true,
            Column::List(element) => element.has_decimal(),
            Column::Map { key, value } => key.has_decimal() || value.has_decimal(),
            Column::Row(shape) => shape.has_decimal(),
            _ => false,
        }
    }
}

/// One value of the row being read: Flink's internal data, before it goes to a builder. Strings and bytes are
/// ranges of the row's scratch buffer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    F32(f32),
    F64(f64),
    Decimal(i128),
    Bytes(usize, usize),
    List(Vec<Value>),
    /// Entries in the order Flink's `HashMap` iterates them (`java_hash`); a repeated key keeps its place and
    /// takes the last value.
    Map(Vec<(Value, Value)>),
    Row(Vec<Value>),
}

/// Decoded rows as Arrow columns: one [`Builder`] per field, the row count and the null rows.
#[derive(Debug)]
pub(crate) struct ArrowRows {
    builders: Vec<Builder>,
    len: usize,
    null_rows: Vec<usize>,
}

impl ArrowRows {
    /// Builders for rows of `fields`, which [`RowShape::of`] accepted.
    pub(crate) fn new(fields: &Fields) -> Self {
        ArrowRows {
            builders: fields.iter().map(|f| Builder::new(f.data_type())).collect(),
            len: 0,
            null_rows: Vec::new(),
        }
    }

    /// The rows (ascending) appended as null rows since the last [`finish`](Self::finish).
    pub(crate) fn null_rows(&self) -> &[usize] {
        &self.null_rows
    }

    /// The rows appended so far, as columns; starts afresh.
    pub(crate) fn finish(&mut self) -> Vec<ArrayRef> {
        self.len = 0;
        self.null_rows.clear();
        self.builders.iter_mut().map(Builder::finish).collect()
    }
}

impl RowSink for ArrowRows {
    fn push(&mut self, _shape: &RowShape, fields: Option<&[Value]>, scratch: &[u8]) {
        match fields {
            Some(fields) => {
                for (builder, value) in self.builders.iter_mut().zip(fields) {
                    builder.append(value, scratch);
                }
            }
            None => {
                for builder in &mut self.builders {
                    builder.append_null();
                }
                self.null_rows.push(self.len);
            }
        }
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }
}

/// The Arrow builder of one column, nested builders for nested columns.
#[derive(Debug)]
enum Builder {
    Boolean(BooleanBuilder),
    Int8(Int8Builder),
    Int16(Int16Builder),
    Int32(Int32Builder),
    Int64(Int64Builder),
    Float32(Float32Builder),
    Float64(Float64Builder),
    Decimal(Decimal128Builder, u8, i8),
    /// String bytes, checked as UTF-8 once, in bulk, when finished.
    Utf8(BinaryBuilder),
    LargeUtf8(LargeBinaryBuilder),
    Binary(BinaryBuilder),
    LargeBinary(LargeBinaryBuilder),
    /// Date32 and Time32 values (i32), given their type when finished.
    Int32As(Int32Builder, DataType),
    /// Time64 and Timestamp values (i64), given their type when finished.
    Int64As(Int64Builder, DataType),
    List {
        field: FieldRef,
        offsets: Vec<i32>,
        nulls: NullBufferBuilder,
        element: Box<Builder>,
    },
    Map {
        entries: FieldRef,
        ordered: bool,
        offsets: Vec<i32>,
        nulls: NullBufferBuilder,
        keys: Box<Builder>,
        values: Box<Builder>,
    },
    Struct {
        fields: Fields,
        nulls: NullBufferBuilder,
        children: Vec<Builder>,
    },
}

impl Builder {
    /// The builder of `data_type`, which [`Column::for_type`] accepted.
    fn new(data_type: &DataType) -> Builder {
        match data_type {
            DataType::Boolean => Builder::Boolean(BooleanBuilder::new()),
            DataType::Int8 => Builder::Int8(Int8Builder::new()),
            DataType::Int16 => Builder::Int16(Int16Builder::new()),
            DataType::Int32 => Builder::Int32(Int32Builder::new()),
            DataType::Int64 => Builder::Int64(Int64Builder::new()),
            DataType::Float32 => Builder::Float32(Float32Builder::new()),
            DataType::Float64 => Builder::Float64(Float64Builder::new()),
            DataType::Decimal128(p, s) => Builder::Decimal(Decimal128Builder::new(), *p, *s),
            DataType::Utf8 => Builder::Utf8(BinaryBuilder::new()),
            DataType::LargeUtf8 => Builder::LargeUtf8(LargeBinaryBuilder::new()),
            DataType::Binary => Builder::Binary(BinaryBuilder::new()),
            DataType::LargeBinary => Builder::LargeBinary(LargeBinaryBuilder::new()),
            DataType::Date32 | DataType::Time32(_) => {
                Builder::Int32As(Int32Builder::new(), data_type.clone())
            }
            DataType::Time64(_) | DataType::Timestamp(..) => {
                Builder::Int64As(Int64Builder::new(), data_type.clone())
            }
            DataType::List(field) => Builder::List {
                field: Arc::clone(field),
                offsets: vec![0],
                nulls: NullBufferBuilder::new(0),
                element: Box::new(Builder::new(field.data_type())),
            },
            DataType::Map(entries, ordered) => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("checked by Column::for_type")
                };
                Builder::Map {
                    entries: Arc::clone(entries),
                    ordered: *ordered,
                    offsets: vec![0],
                    nulls: NullBufferBuilder::new(0),
                    keys: Box::new(Builder::new(kv[0].data_type())),
                    values: Box::new(Builder::new(kv[1].data_type())),
                }
            }
            DataType::Struct(fields) => Builder::Struct {
                fields: fields.clone(),
                nulls: NullBufferBuilder::new(0),
                children: fields.iter().map(|f| Builder::new(f.data_type())).collect(),
            },
            other => unreachable!("{other} is refused by Column::for_type"),
        }
    }

    /// Appends `value` (made for this builder's column), taking strings and bytes from `scratch`.
    fn append(&mut self, value: &Value, scratch: &[u8]) {
        match (self, value) {
            (b, Value::Null) => b.append_null(),
            (Builder::Boolean(b), Value::Bool(v)) => b.append_value(*v),
            (Builder::Int8(b), Value::Int(v)) => b.append_value(*v as i8),
            (Builder::Int16(b), Value::Int(v)) => b.append_value(*v as i16),
            (Builder::Int32(b) | Builder::Int32As(b, _), Value::Int(v)) => {
                b.append_value(*v as i32)
            }
            (Builder::Int64(b) | Builder::Int64As(b, _), Value::Int(v)) => b.append_value(*v),
            (Builder::Float32(b), Value::F32(v)) => b.append_value(*v),
            (Builder::Float64(b), Value::F64(v)) => b.append_value(*v),
            (Builder::Decimal(b, ..), Value::Decimal(v)) => b.append_value(*v),
            (Builder::Utf8(b), Value::Bytes(s, e)) => b.append_value(&scratch[*s..*e]),
            (Builder::LargeUtf8(b), Value::Bytes(s, e)) => b.append_value(&scratch[*s..*e]),
            (Builder::Binary(b), Value::Bytes(s, e)) => b.append_value(&scratch[*s..*e]),
            (Builder::LargeBinary(b), Value::Bytes(s, e)) => b.append_value(&scratch[*s..*e]),
            (
                Builder::List {
                    offsets,
                    nulls,
                    element,
                    ..
                },
                Value::List(items),
            ) => {
                for item in items {
                    element.append(item, scratch);
                }
                push_offset(offsets, items.len());
                nulls.append_non_null();
            }
            (
                Builder::Map {
                    offsets,
                    nulls,
                    keys,
                    values,
                    ..
                },
                Value::Map(entries),
            ) => {
                for (k, v) in entries {
                    keys.append(k, scratch);
                    values.append(v, scratch);
                }
                push_offset(offsets, entries.len());
                nulls.append_non_null();
            }
            (
                Builder::Struct {
                    nulls, children, ..
                },
                Value::Row(fields),
            ) => {
                for (child, v) in children.iter_mut().zip(fields) {
                    child.append(v, scratch);
                }
                nulls.append_non_null();
            }
            (_, value) => unreachable!("a {value:?} is never made for this column"),
        }
    }

    fn append_null(&mut self) {
        match self {
            Builder::Boolean(b) => b.append_null(),
            Builder::Int8(b) => b.append_null(),
            Builder::Int16(b) => b.append_null(),
            Builder::Int32(b) | Builder::Int32As(b, _) => b.append_null(),
            Builder::Int64(b) | Builder::Int64As(b, _) => b.append_null(),
            Builder::Float32(b) => b.append_null(),
            Builder::Float64(b) => b.append_null(),
            Builder::Decimal(b, ..) => b.append_null(),
            Builder::Utf8(b) => b.append_null(),
            Builder::LargeUtf8(b) => b.append_null(),
            Builder::Binary(b) => b.append_null(),
            Builder::LargeBinary(b) => b.append_null(),
            Builder::List { offsets, nulls, .. } | Builder::Map { offsets, nulls, .. } => {
                push_offset(offsets, 0);
                nulls.append_null();
            }
            Builder::Struct {
                nulls, children, ..
            } => {
                for child in children {
                    child.append_null();
                }
                nulls.append_null();
            }
        }
    }

    /// The values appended so far as an array; the builder starts afresh.
    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Boolean(b) => Arc::new(b.finish()),
            Builder::Int8(b) => Arc::new(b.finish()),
            Builder::Int16(b) => Arc::new(b.finish()),
            Builder::Int32(b) => Arc::new(b.finish()),
            Builder::Int64(b) => Arc::new(b.finish()),
            Builder::Float32(b) => Arc::new(b.finish()),
            Builder::Float64(b) => Arc::new(b.finish()),
            Builder::Decimal(b, precision, scale) => Arc::new(
                b.finish()
                    .with_precision_and_scale(*precision, *scale)
                    .expect("checked by Column::for_type"),
            ),
            Builder::Utf8(b) => {
                let (offsets, values, nulls) = b.finish().into_parts();
                Arc::new(
                    StringArray::try_new(offsets, values, nulls)
                        .expect("Flink's UTF-8 is valid UTF-8"),
                )
            }
            Builder::LargeUtf8(b) => {
                let (offsets, values, nulls) = b.finish().into_parts();
                Arc::new(
                    LargeStringArray::try_new(offsets, values, nulls)
                        .expect("Flink's UTF-8 is valid UTF-8"),
                )
            }
            Builder::Binary(b) => Arc::new(b.finish()),
            Builder::LargeBinary(b) => Arc::new(b.finish()),
            Builder::Int32As(b, data_type) => retyped(&b.finish(), data_type),
            Builder::Int64As(b, data_type) => retyped(&b.finish(), data_type),
            Builder::List {
                field,
                offsets,
                nulls,
                element,
            } => Arc::new(
                ListArray::try_new(
                    Arc::clone(field),
                    OffsetBuffer::new(std::mem::replace(offsets, vec![0]).into()),
                    element.finish(),
                    nulls.finish(),
                )
                .expect("offsets and nulls built together"),
            ),
            Builder::Map {
                entries,
                ordered,
                offsets,
                nulls,
                keys,
                values,
            } => {
                let DataType::Struct(kv) = entries.data_type() else {
                    unreachable!("checked by Column::for_type")
                };
                let pairs =
                    StructArray::try_new(kv.clone(), vec![keys.finish(), values.finish()], None)
                        .expect("keys and values built together");
                Arc::new(
                    MapArray::try_new(
                        Arc::clone(entries),
                        OffsetBuffer::new(std::mem::replace(offsets, vec![0]).into()),
                        pairs,
                        nulls.finish(),
                        *ordered,
                    )
                    .expect("offsets and nulls built together"),
                )
            }
            Builder::Struct {
                fields,
                nulls,
                children,
            } => Arc::new(
                StructArray::try_new(
                    fields.clone(),
                    children.iter_mut().map(Builder::finish).collect(),
                    nulls.finish(),
                )
                .expect("children and nulls built together"),
            ),
        }
    }
}

fn push_offset(offsets: &mut Vec<i32>, len: usize) {
    let last = *offsets.last().expect("starts with 0");
    offsets.push(last + i32::try_from(len).expect("a list of fewer than 2^31 values"));
}

/// The same values (i32 or i64) as another type of that width (Date32, Time32, Time64, Timestamp).
fn retyped(array: &dyn Array, data_type: &DataType) -> ArrayRef {
    let data = array
        .to_data()
        .into_builder()
        .data_type(data_type.clone())
        .build()
        .expect("the same layout");
    make_array(data)
}
