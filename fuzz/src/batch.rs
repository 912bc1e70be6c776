//! Arbitrary Arrow batches and encoder options for the JSON encoder target, built from the fuzzer's bytes with
//! `arbitrary`.
//!
//! Every type either mode of `streamfusion-json` plans (and a few it refuses: `UInt64`, `Null`,
//! `Interval(MonthDayNano)`, maps with non-string keys and decimals outside Flink's precision, so the
//! refusals are exercised too), nested up to [`MAX_DEPTH`] levels through lists, large lists, list views,
//! fixed-size lists, structs, maps and dictionaries; nulls at every level, values anywhere in their type's
//! range (timestamps past year 9999, times past midnight, decimals wider than their precision), arrays that
//! are slices of larger ones (a non-zero offset), and field names with characters JSON must escape.

use std::sync::Arc;

use arbitrary::{Arbitrary, Result, Unstructured};
use arrow_array::types::*;
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BinaryViewArray, BooleanArray,
    DictionaryArray, FixedSizeBinaryArray, FixedSizeListArray, Int8Array, LargeBinaryArray,
    LargeListArray, LargeListViewArray, LargeStringArray, ListArray, ListViewArray, MapArray,
    NullArray, PrimitiveArray, RecordBatch, RecordBatchOptions, StringArray, StringViewArray,
    StructArray,
};
use arrow_buffer::{
    i256, Buffer, IntervalDayTime, IntervalMonthDayNano, NullBuffer, OffsetBuffer, ScalarBuffer,
};
use arrow_schema::{DataType, Field, Fields, IntervalUnit, Schema, TimeUnit};
use streamfusion_json::{
    EncoderOptions, FlinkVersion, JavaFloatDigits, MapNullKeyMode, Mode, TimestampStandard,
    ValueFieldsInclude,
};

/// Nesting levels below a column (a list of structs of lists is 3).
pub const MAX_DEPTH: usize = 3;

/// Rows per batch, at most.
const MAX_ROWS: usize = 6;

/// Column and field names: plain, prefixed for `key.fields-prefix`, and ones with quotes, backslashes,
/// control and non-ASCII characters, empty and blank (which Flink refuses).
const NAMES: &[&str] = &[
    "a",
    "b",
    "c",
    "k_a",
    "k_b",
    "op",
    "q\"\\",
    "\u{1}\u{1f}",
    "\u{e9}\u{2028}\u{1F600}",
    "",
    " ",
];

/// Timezones of TIMESTAMP_LTZ columns (any zone makes one; plain mode's arrow-json parses it).
const ZONES: &[&str] = &[
    "+00:00",
    "UTC",
    "-08:00",
    "+05:30",
    "Europe/Paris",
    "not a zone",
];

/// One generated case: a batch, the options to encode it with, and the layout the options give, as the
/// target computes it independently of the encoder (for plain mode's comparison with arrow-json).
#[derive(Debug)]
pub struct Case {
    /// The batch.
    pub batch: RecordBatch,
    /// The encoder options (the mode among them).
    pub options: EncoderOptions,
    /// Key columns by index, in key order; `None` for null keys.
    pub key: Option<Vec<usize>>,
    /// Value columns by index, in schema order.
    pub value: Vec<usize>,
}

impl Case {
    /// A case from the fuzzer's bytes.
    ///
    /// # Errors
    /// Only `arbitrary`'s own (never for running out of bytes: short input gives small cases).
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let plain = u.arbitrary::<bool>()?;
        let rows = u.int_in_range(0..=MAX_ROWS)?;
        let columns = u.int_in_range(1..=4)?;
        let mut fields = Vec::with_capacity(columns + 1);
        let mut arrays = Vec::with_capacity(columns + 1);
        for _ in 0..columns {
            let name = *u.choose(NAMES)?;
            let data_type = data_type(u, 0)?;
            arrays.push(array(u, &data_type, rows, 0)?);
            fields.push(Field::new(name, data_type, true));
        }
        let mut options =
            EncoderOptions::default().with_mode(if plain { Mode::Plain } else { Mode::Flink });
        let key_count = u.int_in_range(0..=columns)?;
        let mut key = Vec::with_capacity(key_count);
        for _ in 0..key_count {
            key.push(u.int_in_range(0..=columns - 1)?);
        }
        let except_key = u.arbitrary::<bool>()?;
        if plain {
            options = options.with_plain_explicit_nulls(u.arbitrary()?);
        } else {
            options = flink_options(u, options)?;
            if u.ratio(1, 5)? && !key.is_empty() {
                // An upsert stream: a row-kind column, mostly valid kinds.
                let kinds = row_kinds(u, rows)?;
                fields.push(Field::new("_kind", kinds.data_type().clone(), true));
                arrays.push(kinds);
                options = options.with_row_kind_column("_kind");
            }
            if u.ratio(1, 4)? {
                options = options.with_key_fields_prefix("k_");
            }
        }
        let names: Vec<String> = key.iter().map(|&i| fields[i].name().clone()).collect();
        let schema = Arc::new(Schema::new(fields));
        // The layout as Flink's connector defines it: key fields by name (the first column of that name).
        let key: Vec<usize> = names
            .iter()
            .map(|n| schema.index_of(n).expect("a column's name"))
            .collect();
        let value = (0..columns)
            .filter(|i| !except_key || !key.contains(i))
            .collect();
        options = options
            .with_key_fields(names)
            .with_value_fields_include(if except_key {
                ValueFieldsInclude::ExceptKey
            } else {
                ValueFieldsInclude::All
            });
        let batch = RecordBatch::try_new_with_options(
            schema,
            arrays,
            &RecordBatchOptions::new().with_row_count(Some(rows)),
        )
        .expect("every column has the batch's rows");
        Ok(Self {
            batch,
            options,
            key: (!key.is_empty()).then_some(key),
            value,
        })
    }
}

fn flink_options(u: &mut Unstructured<'_>, o: EncoderOptions) -> Result<EncoderOptions> {
    let version = *u.choose(&[
        FlinkVersion::V1_19,
        FlinkVersion::V1_20,
        FlinkVersion::V2_0,
        FlinkVersion::V2_2,
        FlinkVersion::V2_3,
    ])?;
    let map_null_key = *u.choose(&[
        MapNullKeyMode::Fail,
        MapNullKeyMode::Drop,
        MapNullKeyMode::Literal,
    ])?;
    Ok(o.with_flink_version(version)
        .with_timestamp_standard(if u.arbitrary()? {
            TimestampStandard::Iso8601
        } else {
            TimestampStandard::Sql
        })
        .with_decimal_as_plain_number(u.arbitrary()?)
        .with_ignore_null_fields(version >= FlinkVersion::V1_20 && u.arbitrary()?)
        .with_map_null_key_mode(map_null_key)
        .with_map_null_key_literal(*u.choose(NAMES)?)
        .with_float_digits(if u.arbitrary()? {
            JavaFloatDigits::Jdk17
        } else {
            JavaFloatDigits::Jdk19
        }))
}

/// A Utf8 or Int8 row-kind column: mostly `+I -U +U -D` (0..=3), sometimes anything, sometimes null.
fn row_kinds(u: &mut Unstructured<'_>, rows: usize) -> Result<ArrayRef> {
    let nulls = nulls(u, rows)?;
    Ok(if u.arbitrary()? {
        let kinds = (0..rows)
            .map(|_| u.choose(&["+I", "-U", "+U", "-D", "+I", "x"]).copied())
            .collect::<Result<Vec<_>>>()?;
        Arc::new(StringArray::new(
            OffsetBuffer::from_lengths(kinds.iter().map(|k| k.len())),
            Buffer::from(kinds.concat().into_bytes()),
            nulls,
        ))
    } else {
        let kinds = (0..rows)
            .map(|_| Ok(u.arbitrary::<i8>()? % 5))
            .collect::<Result<Vec<_>>>()?;
        Arc::new(Int8Array::new(kinds.into(), nulls))
    })
}

fn unit(u: &mut Unstructured<'_>) -> Result<TimeUnit> {
    u.choose(&[
        TimeUnit::Second,
        TimeUnit::Millisecond,
        TimeUnit::Microsecond,
        TimeUnit::Nanosecond,
    ])
    .copied()
}

fn item(data_type: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", data_type, true))
}

/// A random type, nested below `depth` while `depth < MAX_DEPTH`.
pub fn data_type(u: &mut Unstructured<'_>, depth: usize) -> Result<DataType> {
    use DataType as D;
    if depth < MAX_DEPTH && u.ratio(1, 3)? {
        let child = |u: &mut Unstructured<'_>| data_type(u, depth + 1);
        return Ok(match u.int_in_range(0..=7)? {
            0 => D::List(item(child(u)?)),
            1 => D::LargeList(item(child(u)?)),
            2 => D::ListView(item(child(u)?)),
            3 => D::LargeListView(item(child(u)?)),
            4 => D::FixedSizeList(item(child(u)?), u.int_in_range(0..=3)?),
            5 => {
                let count = u.int_in_range(0..=3)?;
                let fields = (0..count)
                    .map(|_| Ok(Field::new(*u.choose(NAMES)?, child(u)?, true)))
                    .collect::<Result<Vec<_>>>()?;
                D::Struct(Fields::from(fields))
            }
            6 => {
                let key = u
                    .choose(&[D::Utf8, D::LargeUtf8, D::Utf8View, D::Int32])?
                    .clone();
                let entries = Fields::from(vec![
                    Field::new("key", key, false),
                    Field::new("value", child(u)?, true),
                ]);
                D::Map(
                    Arc::new(Field::new("entries", D::Struct(entries), false)),
                    false,
                )
            }
            _ => {
                let key = u
                    .choose(&[D::Int8, D::Int16, D::Int32, D::UInt8, D::UInt16])?
                    .clone();
                D::Dictionary(Box::new(key), Box::new(leaf(u)?))
            }
        });
    }
    leaf(u)
}

fn leaf(u: &mut Unstructured<'_>) -> Result<DataType> {
    use DataType as D;
    Ok(match u.int_in_range(0..=35)? {
        0 => D::Boolean,
        1 => D::Int8,
        2 => D::Int16,
        3 => D::Int32,
        4 => D::Int64,
        5 => D::UInt8,
        6 => D::UInt16,
        7 => D::UInt32,
        8 => D::UInt64,
        9 => D::Float16,
        10 => D::Float32,
        11 => D::Float64,
        12 => {
            let p = u.int_in_range(1..=9)?;
            D::Decimal32(p, u.int_in_range(-2..=p as i8)?)
        }
        13 => {
            let p = u.int_in_range(1..=18)?;
            D::Decimal64(p, u.int_in_range(-2..=p as i8)?)
        }
        14 | 15 => {
            let p = u.int_in_range(1..=38)?;
            D::Decimal128(p, u.int_in_range(-2..=p as i8)?)
        }
        16 => {
            let p = u.int_in_range(1..=76)?;
            D::Decimal256(p, u.int_in_range(-2..=p as i8)?)
        }
        17 | 18 => D::Utf8,
        19 => D::LargeUtf8,
        20 => D::Utf8View,
        21 => D::Binary,
        22 => D::LargeBinary,
        23 => D::BinaryView,
        24 => D::FixedSizeBinary(u.int_in_range(0..=4)?),
        25 => D::Date32,
        26 => D::Date64,
        27 => D::Time32(*u.choose(&[TimeUnit::Second, TimeUnit::Millisecond])?),
        28 => D::Time64(*u.choose(&[TimeUnit::Microsecond, TimeUnit::Nanosecond])?),
        29 | 30 => {
            let zone = if u.arbitrary()? {
                Some(Arc::from(*u.choose(ZONES)?))
            } else {
                None
            };
            D::Timestamp(unit(u)?, zone)
        }
        31 => D::Duration(unit(u)?),
        32 => D::Interval(IntervalUnit::YearMonth),
        33 => D::Interval(IntervalUnit::DayTime),
        34 => D::Interval(IntervalUnit::MonthDayNano),
        _ => D::Null,
    })
}

/// A validity bitmap for `len` slots, or none (no nulls) a third of the time.
fn nulls(u: &mut Unstructured<'_>, len: usize) -> Result<Option<NullBuffer>> {
    if u.ratio(1, 3)? {
        return Ok(None);
    }
    let valid = (0..len)
        .map(|_| u.arbitrary::<bool>())
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(NullBuffer::from(valid)))
}

fn natives<N: for<'a> Arbitrary<'a>>(u: &mut Unstructured<'_>, len: usize) -> Result<Vec<N>> {
    (0..len).map(|_| u.arbitrary()).collect()
}

fn primitive<T: ArrowPrimitiveType>(
    u: &mut Unstructured<'_>,
    len: usize,
) -> Result<PrimitiveArray<T>>
where
    T::Native: for<'a> Arbitrary<'a>,
{
    let values = natives::<T::Native>(u, len)?;
    Ok(PrimitiveArray::new(values.into(), nulls(u, len)?))
}

fn arc(array: impl Array + 'static) -> ArrayRef {
    Arc::new(array)
}

/// Strings: arbitrary UTF-8, sometimes one of a few that need escaping.
fn strings(u: &mut Unstructured<'_>, len: usize) -> Result<Vec<String>> {
    (0..len)
        .map(|_| {
            Ok(if u.ratio(1, 4)? {
                (*u.choose(&[
                    "\"\\/",
                    "\u{0}\u{7f}\u{85}",
                    "\u{2028}\u{2029}",
                    "\u{FEFF}\u{10FFFF}",
                    "+I",
                ])?)
                .to_owned()
            } else {
                u.arbitrary::<String>()?
            })
        })
        .collect()
}

fn bytes(u: &mut Unstructured<'_>, len: usize) -> Result<Vec<Vec<u8>>> {
    (0..len).map(|_| u.arbitrary::<Vec<u8>>()).collect()
}

/// Offsets of `len` lists of 0..=3 entries each.
fn lengths(u: &mut Unstructured<'_>, len: usize) -> Result<Vec<usize>> {
    (0..len).map(|_| u.int_in_range(0..=3)).collect()
}

/// An array of `data_type` and `len` slots, a slice of a longer one a quarter of the time.
pub fn array(
    u: &mut Unstructured<'_>,
    data_type: &DataType,
    len: usize,
    depth: usize,
) -> Result<ArrayRef> {
    let (front, back) = if u.ratio(1, 4)? {
        (u.int_in_range(0..=2)?, u.int_in_range(0..=1)?)
    } else {
        (0, 0)
    };
    let whole = unsliced(u, data_type, front + len + back, depth)?;
    Ok(whole.slice(front, len))
}

fn decimal<T: DecimalType>(u: &mut Unstructured<'_>, len: usize, p: u8, s: i8) -> Result<ArrayRef>
where
    T::Native: for<'a> Arbitrary<'a>,
{
    let array = primitive::<T>(u, len)?;
    Ok(arc(array
        .with_precision_and_scale(p, s)
        .expect("precision and scale in range")))
}

fn unsliced(
    u: &mut Unstructured<'_>,
    data_type: &DataType,
    len: usize,
    depth: usize,
) -> Result<ArrayRef> {
    use DataType as D;
    Ok(match data_type {
        D::Boolean => {
            let values = natives::<bool>(u, len)?;
            arc(BooleanArray::new(values.into(), nulls(u, len)?))
        }
        D::Int8 => arc(primitive::<Int8Type>(u, len)?),
        D::Int16 => arc(primitive::<Int16Type>(u, len)?),
        D::Int32 => arc(primitive::<Int32Type>(u, len)?),
        D::Int64 => arc(primitive::<Int64Type>(u, len)?),
        D::UInt8 => arc(primitive::<UInt8Type>(u, len)?),
        D::UInt16 => arc(primitive::<UInt16Type>(u, len)?),
        D::UInt32 => arc(primitive::<UInt32Type>(u, len)?),
        D::UInt64 => arc(primitive::<UInt64Type>(u, len)?),
        D::Float16 => {
            let bits = natives::<u16>(u, len)?;
            let values: Vec<half::f16> = bits.into_iter().map(half::f16::from_bits).collect();
            arc(PrimitiveArray::<Float16Type>::new(
                values.into(),
                nulls(u, len)?,
            ))
        }
        D::Float32 => arc(primitive::<Float32Type>(u, len)?),
        D::Float64 => arc(primitive::<Float64Type>(u, len)?),
        D::Decimal32(p, s) => decimal::<Decimal32Type>(u, len, *p, *s)?,
        D::Decimal64(p, s) => decimal::<Decimal64Type>(u, len, *p, *s)?,
        D::Decimal128(p, s) => decimal::<Decimal128Type>(u, len, *p, *s)?,
        D::Decimal256(p, s) => {
            let values = (0..len)
                .map(|_| Ok(i256::from_parts(u.arbitrary()?, u.arbitrary()?)))
                .collect::<Result<Vec<_>>>()?;
            let array = PrimitiveArray::<Decimal256Type>::new(values.into(), nulls(u, len)?);
            arc(array
                .with_precision_and_scale(*p, *s)
                .expect("precision and scale in range"))
        }
        D::Utf8 | D::LargeUtf8 | D::Utf8View => {
            let values = strings(u, len)?;
            let nulls = nulls(u, len)?;
            let offsets = || values.iter().map(String::len);
            let data = Buffer::from(values.concat().into_bytes());
            match data_type {
                D::Utf8 => arc(StringArray::new(
                    OffsetBuffer::from_lengths(offsets()),
                    data,
                    nulls,
                )),
                D::LargeUtf8 => arc(LargeStringArray::new(
                    OffsetBuffer::from_lengths(offsets()),
                    data,
                    nulls,
                )),
                _ => {
                    let valid = |i: usize| nulls.as_ref().is_none_or(|n| n.is_valid(i));
                    arc(values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| valid(i).then_some(v.as_str()))
                        .collect::<StringViewArray>())
                }
            }
        }
        D::Binary | D::LargeBinary | D::BinaryView => {
            let values = bytes(u, len)?;
            let nulls = nulls(u, len)?;
            let offsets = || values.iter().map(Vec::len);
            let data = Buffer::from(values.concat());
            match data_type {
                D::Binary => arc(BinaryArray::new(
                    OffsetBuffer::from_lengths(offsets()),
                    data,
                    nulls,
                )),
                D::LargeBinary => arc(LargeBinaryArray::new(
                    OffsetBuffer::from_lengths(offsets()),
                    data,
                    nulls,
                )),
                _ => {
                    let valid = |i: usize| nulls.as_ref().is_none_or(|n| n.is_valid(i));
                    arc(values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| valid(i).then_some(v.as_slice()))
                        .collect::<BinaryViewArray>())
                }
            }
        }
        D::FixedSizeBinary(width) => {
            let width_bytes = usize::try_from(*width).expect("generated non-negative");
            let mut data = vec![0u8; width_bytes * len];
            u.fill_buffer(&mut data)?;
            arc(FixedSizeBinaryArray::try_new_with_len(
                *width,
                Buffer::from(data),
                nulls(u, len)?,
                len,
            )
            .expect("width times length bytes"))
        }
        D::Date32 => arc(primitive::<Date32Type>(u, len)?),
        D::Date64 => arc(primitive::<Date64Type>(u, len)?),
        D::Time32(TimeUnit::Second) => arc(primitive::<Time32SecondType>(u, len)?),
        D::Time32(_) => arc(primitive::<Time32MillisecondType>(u, len)?),
        D::Time64(TimeUnit::Microsecond) => arc(primitive::<Time64MicrosecondType>(u, len)?),
        D::Time64(_) => arc(primitive::<Time64NanosecondType>(u, len)?),
        D::Timestamp(unit, zone) => {
            let zone = zone.clone();
            match unit {
                TimeUnit::Second => {
                    arc(primitive::<TimestampSecondType>(u, len)?.with_timezone_opt(zone))
                }
                TimeUnit::Millisecond => {
                    arc(primitive::<TimestampMillisecondType>(u, len)?.with_timezone_opt(zone))
                }
                TimeUnit::Microsecond => {
                    arc(primitive::<TimestampMicrosecondType>(u, len)?.with_timezone_opt(zone))
                }
                TimeUnit::Nanosecond => {
                    arc(primitive::<TimestampNanosecondType>(u, len)?.with_timezone_opt(zone))
                }
            }
        }
        D::Duration(TimeUnit::Second) => arc(primitive::<DurationSecondType>(u, len)?),
        D::Duration(TimeUnit::Millisecond) => arc(primitive::<DurationMillisecondType>(u, len)?),
        D::Duration(TimeUnit::Microsecond) => arc(primitive::<DurationMicrosecondType>(u, len)?),
        D::Duration(TimeUnit::Nanosecond) => arc(primitive::<DurationNanosecondType>(u, len)?),
        D::Interval(IntervalUnit::YearMonth) => arc(primitive::<IntervalYearMonthType>(u, len)?),
        D::Interval(IntervalUnit::DayTime) => {
            let values = (0..len)
                .map(|_| Ok(IntervalDayTime::new(u.arbitrary()?, u.arbitrary()?)))
                .collect::<Result<Vec<_>>>()?;
            arc(PrimitiveArray::<IntervalDayTimeType>::new(
                values.into(),
                nulls(u, len)?,
            ))
        }
        D::Interval(IntervalUnit::MonthDayNano) => {
            let values = (0..len)
                .map(|_| {
                    Ok(IntervalMonthDayNano::new(
                        u.arbitrary()?,
                        u.arbitrary()?,
                        u.arbitrary()?,
                    ))
                })
                .collect::<Result<Vec<_>>>()?;
            arc(PrimitiveArray::<IntervalMonthDayNanoType>::new(
                values.into(),
                nulls(u, len)?,
            ))
        }
        D::List(field) | D::LargeList(field) => {
            let lengths = lengths(u, len)?;
            let values = array(u, field.data_type(), lengths.iter().sum(), depth + 1)?;
            let nulls = nulls(u, len)?;
            if matches!(data_type, D::List(_)) {
                arc(ListArray::new(
                    field.clone(),
                    OffsetBuffer::from_lengths(lengths),
                    values,
                    nulls,
                ))
            } else {
                arc(LargeListArray::new(
                    field.clone(),
                    OffsetBuffer::from_lengths(lengths),
                    values,
                    nulls,
                ))
            }
        }
        D::ListView(field) | D::LargeListView(field) => {
            // Views may overlap and leave gaps: each one starts anywhere in the child.
            let child_len = u.int_in_range(0..=len * 2)?;
            let values = array(u, field.data_type(), child_len, depth + 1)?;
            let mut offsets = Vec::with_capacity(len);
            let mut sizes = Vec::with_capacity(len);
            for _ in 0..len {
                let offset = u.int_in_range(0..=child_len)?;
                offsets.push(offset);
                sizes.push(u.int_in_range(0..=child_len - offset)?);
            }
            let nulls = nulls(u, len)?;
            if matches!(data_type, D::ListView(_)) {
                let cast = |v: Vec<usize>| {
                    ScalarBuffer::from(v.into_iter().map(|x| x as i32).collect::<Vec<_>>())
                };
                arc(ListViewArray::new(
                    field.clone(),
                    cast(offsets),
                    cast(sizes),
                    values,
                    nulls,
                ))
            } else {
                let cast = |v: Vec<usize>| {
                    ScalarBuffer::from(v.into_iter().map(|x| x as i64).collect::<Vec<_>>())
                };
                arc(LargeListViewArray::new(
                    field.clone(),
                    cast(offsets),
                    cast(sizes),
                    values,
                    nulls,
                ))
            }
        }
        D::FixedSizeList(field, size) => {
            let size_usize = usize::try_from(*size).expect("generated non-negative");
            let values = array(u, field.data_type(), len * size_usize, depth + 1)?;
            arc(FixedSizeListArray::try_new_with_length(
                field.clone(),
                *size,
                values,
                nulls(u, len)?,
                len,
            )
            .expect("size times length values"))
        }
        D::Struct(fields) => {
            let children = fields
                .iter()
                .map(|f| array(u, f.data_type(), len, depth + 1))
                .collect::<Result<Vec<_>>>()?;
            arc(
                StructArray::try_new_with_length(fields.clone(), children, nulls(u, len)?, len)
                    .expect("children of the struct's length"),
            )
        }
        D::Map(entries, _) => {
            let D::Struct(kv) = entries.data_type() else {
                unreachable!("generated map entries are a struct")
            };
            let lengths = lengths(u, len)?;
            let total = lengths.iter().sum();
            let keys = {
                // Keys are never null (arrow's MapArray requires it); a small pool makes duplicates likely.
                let names = (0..total)
                    .map(|_| u.choose(NAMES).copied())
                    .collect::<Result<Vec<_>>>()?;
                let lengths = || names.iter().map(|n| n.len());
                let data = Buffer::from(names.concat().into_bytes());
                match kv[0].data_type() {
                    D::Utf8 => arc(StringArray::new(
                        OffsetBuffer::from_lengths(lengths()),
                        data,
                        None,
                    )),
                    D::LargeUtf8 => arc(LargeStringArray::new(
                        OffsetBuffer::from_lengths(lengths()),
                        data,
                        None,
                    )),
                    D::Utf8View => arc(names.iter().map(|n| Some(*n)).collect::<StringViewArray>()),
                    _ => arc(PrimitiveArray::<Int32Type>::new(
                        natives::<i32>(u, total)?.into(),
                        None,
                    )),
                }
            };
            let values = array(u, kv[1].data_type(), total, depth + 1)?;
            let entries_array =
                StructArray::try_new_with_length(kv.clone(), vec![keys, values], None, total)
                    .expect("entries");
            arc(MapArray::try_new(
                entries.clone(),
                OffsetBuffer::from_lengths(lengths),
                entries_array,
                nulls(u, len)?,
                false,
            )
            .expect("map"))
        }
        D::Dictionary(key, values_type) => {
            let dictionary_len = u.int_in_range(0..=4)?;
            let values = array(u, values_type, dictionary_len, depth + 1)?;
            macro_rules! dictionary {
                ($k:ty) => {{
                    let raw = natives::<u8>(u, len)?;
                    let keys: Vec<<$k as ArrowPrimitiveType>::Native> = raw
                        .iter()
                        .map(|&r| (usize::from(r) % dictionary_len.max(1)) as _)
                        .collect();
                    // With no values every key must be null.
                    let validity = if dictionary_len == 0 {
                        Some(NullBuffer::new_null(len))
                    } else {
                        nulls(u, len)?
                    };
                    arc(DictionaryArray::<$k>::try_new(
                        PrimitiveArray::new(keys.into(), validity),
                        values,
                    )
                    .expect("keys within the dictionary"))
                }};
            }
            match key.as_ref() {
                D::Int8 => dictionary!(Int8Type),
                D::Int16 => dictionary!(Int16Type),
                D::Int32 => dictionary!(Int32Type),
                D::UInt8 => dictionary!(UInt8Type),
                _ => dictionary!(UInt16Type),
            }
        }
        D::Null => arc(NullArray::new(len)),
        other => unreachable!("{other} is not generated"),
    })
}
