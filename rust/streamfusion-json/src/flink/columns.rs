//! Flink-mode column encoders: a [`Ty`] bound to one batch's array. Each writes the JSON of one non-null slot
//! straight into the slab; the enclosing row decides between `null` and omission.

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, FixedSizeBinaryArray, GenericBinaryArray,
    GenericListArray, GenericListViewArray, GenericStringArray, MapArray, OffsetSizeTrait,
    PrimitiveArray, StringViewArray,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{DataType, TimeUnit};
use base64::Engine as _;

use super::decimal::{write_decimal, DecimalStyle};
use super::float::{write_f32, write_f64};
use super::plan::{RowPlan, Ty, TypeOptions};
use super::temporal::{write_date, write_time, TimestampWriter};
use crate::error::{Error, Result};
use crate::escape::{column_needs_escaping, write_jackson_str, write_verbatim_str};
use crate::options::MapNullKeyMode;
use crate::out::{write_i64, Padded};

/// What every encoder bound to one batch shares: the options and the failure slot.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub(crate) o: &'a TypeOptions,
    pub(crate) failure: &'a Failure,
}

/// The first value of a batch that Flink's types cannot hold, recorded by the encoder that meets it while
/// writing. Values are checked only where Flink would convert them (never under a null parent, never in
/// unreferenced slots of a child array); the batch loop checks [`Failure::is_set`] after every row and fails
/// the batch naming that row.
#[derive(Debug, Default)]
pub(crate) struct Failure {
    set: std::cell::Cell<bool>,
    what: std::cell::RefCell<Option<(String, Failed)>>,
}

/// What [`Failure`] recorded.
#[derive(Debug)]
enum Failed {
    /// A value outside its Flink type.
    Value(String),
    /// A null map key under `map-null-key.mode` = FAIL.
    NullMapKey,
}

impl Failure {
    #[cold]
    fn record(&self, path: &str, what: Failed) {
        if !self.set.replace(true) {
            *self.what.borrow_mut() = Some((path.to_owned(), what));
        }
    }

    /// Whether a value failed since the batch started.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.set.get()
    }

    /// The error for the recorded failure, met while writing batch row `row`.
    pub(crate) fn error(&self, row: usize) -> Error {
        match self.what.borrow_mut().take() {
            Some((field, Failed::Value(message))) => Error::InvalidValue {
                field,
                row,
                message,
            },
            Some((field, Failed::NullMapKey)) => Error::NullMapKey { field, row },
            None => unreachable!("error() is called only after is_set()"),
        }
    }
}

/// Writes the JSON of one non-null slot.
pub(crate) trait Enc {
    fn write(&mut self, idx: usize, out: &mut Vec<u8>);

    /// The node slot `idx` becomes when Jackson converts it with `reuse`, the node already stored under the same
    /// map key (see [`Node`]); anything but a ROW is simply its text.
    fn node(&mut self, idx: usize, _reuse: Option<Node>) -> Node {
        let mut raw = Vec::new();
        self.write(idx, &mut raw);
        Node::Raw(raw)
    }

    /// Whether the values are ROWs (directly or through a dictionary), which repeated map keys merge.
    fn is_row(&self) -> bool {
        false
    }
}

/// An encoder plus the logical nulls of its array.
pub(crate) struct Col<'a> {
    nulls: Option<NullBuffer>,
    enc: Box<dyn Enc + 'a>,
}

impl Col<'_> {
    #[inline]
    pub(crate) fn is_null(&self, idx: usize) -> bool {
        self.nulls.as_ref().is_some_and(|n| n.is_null(idx))
    }

    /// Writes the non-null slot `idx`.
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        self.enc.write(idx, out);
    }

    /// Writes slot `idx`, `null` when it is null.
    #[inline]
    pub(crate) fn write_or_null(&mut self, idx: usize, out: &mut Vec<u8>) {
        if self.is_null(idx) {
            out.extend_from_slice(b"null");
        } else {
            self.enc.write(idx, out);
        }
    }

    /// [`Enc::node`] of slot `idx`; a null slot is a null node (which a later ROW replaces with a fresh one).
    fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        if self.is_null(idx) {
            Node::Raw(b"null".to_vec())
        } else {
            self.enc.node(idx, reuse)
        }
    }
}

/// A small Jackson-like node tree, built only for the rare case Flink's reuse of nodes shows in the output:
/// a MAP with a repeated key whose values are ROWs, under `encode.ignore-null-fields`.
///
/// Flink's map converter calls the value converter with the node already stored under that key as `reuse`;
/// the ROW converter fills that `ObjectNode` in place and skips null fields, so fields of the earlier value
/// survive and fields new to the node are appended (`RowDataToJsonConverters.createRowConverter`). Maps and
/// arrays clear a reused node (`removeAll`), so only ROWs merge.
pub(crate) enum Node {
    /// Finished JSON text.
    Raw(Vec<u8>),
    /// An object: fields in node insertion order, each with the address of its plan entry (its identity) and
    /// its `,"name":` text.
    Object(Vec<(usize, Padded, Node)>),
}

impl Node {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Node::Raw(raw) => out.extend_from_slice(raw),
            Node::Object(fields) => {
                out.push(b'{');
                for (n, (_, name, node)) in fields.iter().enumerate() {
                    name.append(out, usize::from(n == 0));
                    node.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

/// A ROW bound to its field arrays (top-level columns or a struct's children).
pub(crate) struct RowEnc<'a> {
    /// `{"first":`, used when nulls are written (so the first field always opens the object).
    open: Option<&'a Padded>,
    fields: Vec<(&'a Padded, Col<'a>)>,
    ignore_nulls: bool,
}

impl<'a> RowEnc<'a> {
    /// Binds `plan` to `arrays` (same order as the plan's fields).
    pub(crate) fn bind(plan: &'a RowPlan, arrays: &[&'a ArrayRef], cx: Cx<'a>) -> Result<Self> {
        let fields = plan
            .fields
            .iter()
            .zip(arrays)
            .map(|(f, &a)| Ok((&f.name, bind(&f.path, &f.ty, a.as_ref(), cx)?)))
            .collect::<Result<_>>()?;
        Ok(Self {
            open: plan.fields.first().map(|f| &f.open),
            fields,
            ignore_nulls: cx.o.ignore_null_fields,
        })
    }

    /// Writes row `idx` as a JSON object in declared field order: null fields as `"f":null`, or omitted with
    /// `encode.ignore-null-fields`.
    #[inline]
    pub(crate) fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        match self.open {
            Some(open) if !self.ignore_nulls => {
                // Every field is written: `{"a":` then `,"b":` ..., no per-field bookkeeping.
                for (n, (name, col)) in self.fields.iter_mut().enumerate() {
                    if n == 0 { open } else { *name }.append(out, 0);
                    col.write_or_null(idx, out);
                }
            }
            _ => {
                out.push(b'{');
                let mut first = true;
                for (name, col) in &mut self.fields {
                    let null = col.is_null(idx);
                    if null && self.ignore_nulls {
                        continue;
                    }
                    name.append(out, usize::from(first));
                    first = false;
                    if null {
                        out.extend_from_slice(b"null");
                    } else {
                        col.write(idx, out);
                    }
                }
            }
        }
        out.push(b'}');
    }

    /// Row `idx` converted into `reuse` when that is an object (Flink's ROW converter with a reused node).
    fn merge(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        let mut fields = match reuse {
            Some(Node::Object(fields)) => fields,
            _ => Vec::new(),
        };
        for &mut (name, ref mut col) in &mut self.fields {
            if self.ignore_nulls && col.is_null(idx) {
                continue;
            }
            let id = name as *const Padded as usize;
            match fields.iter().position(|(n, _, _)| *n == id) {
                Some(p) => {
                    let previous = std::mem::replace(&mut fields[p].2, Node::Raw(Vec::new()));
                    fields[p].2 = col.node(idx, Some(previous));
                }
                None => fields.push((id, name.clone(), col.node(idx, None))),
            }
        }
        Node::Object(fields)
    }
}

impl Enc for RowEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        RowEnc::write(self, idx, out);
    }

    fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        self.merge(idx, reuse)
    }

    fn is_row(&self) -> bool {
        true
    }
}

/// A dictionary: slot `i` is the values' slot `keys[i]` (so dictionaries of ROWs merge like ROWs).
struct DictEnc<'a> {
    keys: Vec<usize>,
    values: Col<'a>,
}

impl Enc for DictEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        // Logical nulls (a null key or a key pointing at a null value) never reach here.
        self.values.write(self.keys[idx], out);
    }

    fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        self.values.node(self.keys[idx], reuse)
    }

    fn is_row(&self) -> bool {
        self.values.enc.is_row()
    }
}

/// Binds `ty` to `array`; values Flink's types cannot hold are reported to `cx.failure` when written.
pub(crate) fn bind<'a>(
    path: &str,
    ty: &'a Ty,
    array: &'a dyn Array,
    cx: Cx<'a>,
) -> Result<Col<'a>> {
    let nulls = array.logical_nulls();
    if let Ty::Row(plan) = ty {
        let s = array.as_struct();
        let children: Vec<&ArrayRef> = s.columns().iter().collect();
        return Ok(Col {
            nulls,
            enc: Box::new(RowEnc::bind(plan, &children, cx)?),
        });
    }
    if let Ty::Dictionary(value) = ty {
        let d = array.as_any_dictionary();
        // An empty dictionary can only have null keys (which are never read); arrow asserts on normalising it.
        let keys = if d.values().is_empty() {
            vec![0; d.keys().len()]
        } else {
            d.normalized_keys()
        };
        let values = bind(path, value, d.values().as_ref(), cx)?;
        return Ok(Col {
            nulls,
            enc: Box::new(DictEnc { keys, values }),
        });
    }
    let enc: Box<dyn Enc + 'a> = match ty {
        Ty::Bool => Box::new(BoolEnc(array.as_boolean())),
        Ty::Int => match array.data_type() {
            DataType::Int8 => int::<Int8Type>(array),
            DataType::Int16 => int::<Int16Type>(array),
            DataType::Int32 => int::<Int32Type>(array),
            DataType::Int64 => int::<Int64Type>(array),
            DataType::UInt8 => int::<UInt8Type>(array),
            DataType::UInt16 => int::<UInt16Type>(array),
            _ => int::<UInt32Type>(array),
        },
        Ty::F16 => Box::new(F16Enc(array.as_primitive())),
        Ty::F32 => Box::new(F32Enc(array.as_primitive())),
        Ty::F64 => Box::new(F64Enc(array.as_primitive())),
        Ty::Decimal => match array.data_type() {
            DataType::Decimal32(..) => Box::new(DecimalEnc::<Decimal32Type>::new(path, array, cx)),
            DataType::Decimal64(..) => Box::new(DecimalEnc::<Decimal64Type>::new(path, array, cx)),
            DataType::Decimal128(..) => {
                Box::new(DecimalEnc::<Decimal128Type>::new(path, array, cx))
            }
            DataType::Decimal256(..) => {
                Box::new(DecimalEnc::<Decimal256Type>::new(path, array, cx))
            }
            _ => unreachable!("planned as decimal"),
        },
        Ty::Str => match array.data_type() {
            DataType::Utf8 => string(array.as_string::<i32>()),
            DataType::LargeUtf8 => string(array.as_string::<i64>()),
            _ => Box::new(StrViewEnc(array.as_string_view())),
        },
        Ty::Binary => match array.data_type() {
            DataType::Binary => Box::new(BinEnc(array.as_binary::<i32>())),
            DataType::LargeBinary => Box::new(BinEnc(array.as_binary::<i64>())),
            DataType::BinaryView => Box::new(BinViewEnc(array.as_binary_view())),
            _ => Box::new(FixedBinEnc(array.as_fixed_size_binary())),
        },
        Ty::Date32 => Box::new(Date32Enc(array.as_primitive())),
        Ty::Date64 => Box::new(Date64Enc {
            values: array.as_primitive(),
            path: path.to_owned(),
            failure: cx.failure,
        }),
        Ty::Time { unit, fraction } => {
            let (path, fraction) = (path, *fraction);
            match (array.data_type(), unit) {
                (DataType::Time32(_), TimeUnit::Second) => {
                    time::<Time32SecondType>(path, array, fraction, cx, |v| i64::from(v) * 1000)
                }
                (DataType::Time32(_), _) => {
                    time::<Time32MillisecondType>(path, array, fraction, cx, i64::from)
                }
                (_, TimeUnit::Microsecond) => {
                    time::<Time64MicrosecondType>(path, array, fraction, cx, |v| {
                        v.div_euclid(1_000)
                    })
                }
                _ => time::<Time64NanosecondType>(path, array, fraction, cx, |v| {
                    v.div_euclid(1_000_000)
                }),
            }
        }
        Ty::Timestamp { unit, ltz } => {
            let w = TimestampWriter::new(cx.o.timestamp_separator, *ltz);
            let (path, failure, ltz) = (path.to_owned(), cx.failure, *ltz);
            match unit {
                TimeUnit::Second => Box::new(TsEnc {
                    values: array.as_primitive::<TimestampSecondType>(),
                    w,
                    unit: *unit,
                    ltz,
                    path,
                    failure,
                }),
                TimeUnit::Millisecond => Box::new(TsEnc {
                    values: array.as_primitive::<TimestampMillisecondType>(),
                    w,
                    unit: *unit,
                    ltz,
                    path,
                    failure,
                }),
                TimeUnit::Microsecond => Box::new(TsEnc {
                    values: array.as_primitive::<TimestampMicrosecondType>(),
                    w,
                    unit: *unit,
                    ltz,
                    path,
                    failure,
                }),
                TimeUnit::Nanosecond => Box::new(TsEnc {
                    values: array.as_primitive::<TimestampNanosecondType>(),
                    w,
                    unit: *unit,
                    ltz,
                    path,
                    failure,
                }),
            }
        }
        Ty::Duration(unit) => match unit {
            TimeUnit::Second => duration::<DurationSecondType>(path, array, *unit, cx),
            TimeUnit::Millisecond => duration::<DurationMillisecondType>(path, array, *unit, cx),
            TimeUnit::Microsecond => duration::<DurationMicrosecondType>(path, array, *unit, cx),
            TimeUnit::Nanosecond => duration::<DurationNanosecondType>(path, array, *unit, cx),
        },
        Ty::IntervalYearMonth => int::<IntervalYearMonthType>(array),
        Ty::IntervalDayTime => Box::new(DayTimeEnc(array.as_primitive())),
        Ty::List(element) => match array.data_type() {
            DataType::List(_) => Box::new(ListEnc::new(path, array.as_list::<i32>(), element, cx)?),
            DataType::LargeList(_) => {
                Box::new(ListEnc::new(path, array.as_list::<i64>(), element, cx)?)
            }
            DataType::ListView(_) => Box::new(ListViewEnc::new(
                path,
                array.as_list_view::<i32>(),
                element,
                cx,
            )?),
            DataType::LargeListView(_) => Box::new(ListViewEnc::new(
                path,
                array.as_list_view::<i64>(),
                element,
                cx,
            )?),
            _ => {
                let a = array.as_fixed_size_list();
                let size = a.value_length() as usize;
                let values = bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?;
                Box::new(FixedListEnc { values, size })
            }
        },
        Ty::Row(_) => unreachable!("bound above"),
        Ty::Map(value) => Box::new(MapEnc::new(path, array.as_map(), value, cx)?),
        Ty::Dictionary(_) => unreachable!("bound above"),
    };
    Ok(Col { nulls, enc })
}

struct BoolEnc<'a>(&'a arrow_array::BooleanArray);
impl Enc for BoolEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(if self.0.value(idx) { b"true" } else { b"false" });
    }
}

fn int<'a, T>(array: &'a dyn Array) -> Box<dyn Enc + 'a>
where
    T: ArrowPrimitiveType,
    T::Native: Into<i64>,
{
    Box::new(IntEnc(array.as_primitive::<T>()))
}

struct IntEnc<'a, T: ArrowPrimitiveType>(&'a PrimitiveArray<T>);
impl<T: ArrowPrimitiveType> Enc for IntEnc<'_, T>
where
    T::Native: Into<i64>,
{
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_i64(out, self.0.value(idx).into());
    }
}

/// INTERVAL DAY TO SECOND from Interval(DayTime): total milliseconds.
struct DayTimeEnc<'a>(&'a PrimitiveArray<IntervalDayTimeType>);
impl Enc for DayTimeEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let v = self.0.value(idx);
        write_i64(
            out,
            i64::from(v.days) * 86_400_000 + i64::from(v.milliseconds),
        );
    }
}

struct F16Enc<'a>(&'a PrimitiveArray<Float16Type>);
impl Enc for F16Enc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_f32(out, self.0.value(idx).to_f32());
    }
}

struct F32Enc<'a>(&'a PrimitiveArray<Float32Type>);
impl Enc for F32Enc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_f32(out, self.0.value(idx));
    }
}

struct F64Enc<'a>(&'a PrimitiveArray<Float64Type>);
impl Enc for F64Enc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_f64(out, self.0.value(idx));
    }
}

/// Decimal values as `i128`; `None` for a Decimal256 value beyond it (never within precision 38).
trait ToI128 {
    fn to_i128_checked(self) -> Option<i128>;
}
impl ToI128 for i32 {
    fn to_i128_checked(self) -> Option<i128> {
        Some(self.into())
    }
}
impl ToI128 for i64 {
    fn to_i128_checked(self) -> Option<i128> {
        Some(self.into())
    }
}
impl ToI128 for i128 {
    fn to_i128_checked(self) -> Option<i128> {
        Some(self)
    }
}
impl ToI128 for arrow_buffer::i256 {
    fn to_i128_checked(self) -> Option<i128> {
        self.to_i128()
    }
}

/// DECIMAL(p, s): `DecimalData` cannot hold a value with more than `p` digits (Flink's
/// `DecimalData.fromBigDecimal` returns null for it), so such a value fails the batch.
struct DecimalEnc<'a, T: ArrowPrimitiveType> {
    values: &'a PrimitiveArray<T>,
    scale: i8,
    /// 10^precision: every unscaled value must be below it in magnitude.
    limit: i128,
    style: DecimalStyle,
    path: String,
    failure: &'a Failure,
}
impl<'a, T: ArrowPrimitiveType> DecimalEnc<'a, T> {
    fn new(path: &str, array: &'a dyn Array, cx: Cx<'a>) -> Self {
        let (precision, scale) = match array.data_type() {
            DataType::Decimal32(p, s)
            | DataType::Decimal64(p, s)
            | DataType::Decimal128(p, s)
            | DataType::Decimal256(p, s) => (*p, *s),
            _ => unreachable!("planned as decimal"),
        };
        Self {
            values: array.as_primitive::<T>(),
            scale,
            limit: 10i128.pow(u32::from(precision)),
            style: cx.o.decimal,
            path: path.to_owned(),
            failure: cx.failure,
        }
    }
}
impl<T: ArrowPrimitiveType> Enc for DecimalEnc<'_, T>
where
    T::Native: ToI128,
{
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        match self.values.value(idx).to_i128_checked() {
            Some(v) if v.unsigned_abs() < self.limit.unsigned_abs() => {
                write_decimal(out, v, self.scale, self.style)
            }
            _ => self.failure.record(
                &self.path,
                Failed::Value(format!(
                    "unscaled decimal {:?} has more digits than its type's precision allows",
                    self.values.value(idx)
                )),
            ),
        }
    }
}

/// A string column: when one SWAR pass over its value bytes finds nothing to escape (the common case), every
/// value is copied verbatim; otherwise each value takes the escaping loop.
fn string<'a, O: OffsetSizeTrait>(a: &'a GenericStringArray<O>) -> Box<dyn Enc + 'a> {
    if column_needs_escaping::<true, O>(a) {
        Box::new(StrEnc(a))
    } else {
        Box::new(VerbatimStrEnc(a))
    }
}

struct VerbatimStrEnc<'a, O: OffsetSizeTrait>(&'a GenericStringArray<O>);
impl<O: OffsetSizeTrait> Enc for VerbatimStrEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_verbatim_str(out, self.0.value(idx));
    }
}

struct StrEnc<'a, O: OffsetSizeTrait>(&'a GenericStringArray<O>);
impl<O: OffsetSizeTrait> Enc for StrEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_jackson_str(out, self.0.value(idx));
    }
}

struct StrViewEnc<'a>(&'a StringViewArray);
impl Enc for StrViewEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_jackson_str(out, self.0.value(idx));
    }
}

/// Appends `bytes` as a quoted standard Base64 string with padding (Jackson's `writeBinary` default variant).
#[inline]
fn write_base64(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    let len = bytes.len().div_ceil(3) * 4;
    out.resize(start + len + 2, b'"');
    let written = base64::engine::general_purpose::STANDARD
        .encode_slice(bytes, &mut out[start + 1..start + 1 + len])
        .expect("the slice is sized by the Base64 length formula");
    debug_assert_eq!(written, len);
}

struct BinEnc<'a, O: OffsetSizeTrait>(&'a GenericBinaryArray<O>);
impl<O: OffsetSizeTrait> Enc for BinEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_base64(out, self.0.value(idx));
    }
}

struct BinViewEnc<'a>(&'a arrow_array::BinaryViewArray);
impl Enc for BinViewEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_base64(out, self.0.value(idx));
    }
}

struct FixedBinEnc<'a>(&'a FixedSizeBinaryArray);
impl Enc for FixedBinEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_base64(out, self.0.value(idx));
    }
}

fn write_quoted_date(out: &mut Vec<u8>, days: i64) {
    out.push(b'"');
    write_date(out, days);
    out.push(b'"');
}

struct Date32Enc<'a>(&'a PrimitiveArray<Date32Type>);
impl Enc for Date32Enc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_quoted_date(out, self.0.value(idx).into());
    }
}

/// DATE from Date64: Flink's DATE is an `int` of days, so days beyond it fail the batch.
struct Date64Enc<'a> {
    values: &'a PrimitiveArray<Date64Type>,
    path: String,
    failure: &'a Failure,
}
impl Enc for Date64Enc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let days = self.values.value(idx).div_euclid(86_400_000);
        if i32::try_from(days).is_ok() {
            write_quoted_date(out, days);
        } else {
            self.failure.record(
                &self.path,
                Failed::Value(format!("DATE of {days} days overflows Flink's int days")),
            );
        }
    }
}

/// A TIME encoder over a Time32/Time64 array; `to_millis` gives Flink's TIME value (int milliseconds of day,
/// floored from finer units).
fn time<'a, T: ArrowPrimitiveType>(
    path: &str,
    array: &'a dyn Array,
    fraction: bool,
    cx: Cx<'a>,
    to_millis: fn(T::Native) -> i64,
) -> Box<dyn Enc + 'a> {
    Box::new(TimeEnc {
        values: array.as_primitive::<T>(),
        to_millis,
        fraction,
        path: path.to_owned(),
        failure: cx.failure,
    })
}

/// TIME: Flink <= 2.2 takes `LocalTime.ofSecondOfDay(millis / 1000)` (truncating division, so -999..=-1 ms is
/// `00:00:00`), Flink 2.3 `LocalTime.ofNanoOfDay(millis * 1_000_000)`; values outside fail the batch.
struct TimeEnc<'a, T: ArrowPrimitiveType> {
    values: &'a PrimitiveArray<T>,
    to_millis: fn(T::Native) -> i64,
    fraction: bool,
    path: String,
    failure: &'a Failure,
}
impl<T: ArrowPrimitiveType> Enc for TimeEnc<'_, T> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let ms = (self.to_millis)(self.values.value(idx));
        let valid = if self.fraction {
            (0..86_400_000).contains(&ms)
        } else {
            (0..86_400).contains(&(ms / 1000))
        };
        if !valid {
            return self.failure.record(
                &self.path,
                Failed::Value(format!("TIME of {ms} ms is outside one day")),
            );
        }
        let nanos = if self.fraction {
            (ms % 1000) as u32 * 1_000_000
        } else {
            0
        };
        out.push(b'"');
        write_time(out, (ms / 1000) as u32, nanos);
        out.push(b'"');
    }
}

/// TIMESTAMP and TIMESTAMP_LTZ. Flink holds both as `TimestampData` (epoch milliseconds as a `long` plus
/// nanoseconds of the millisecond). TIMESTAMP_LTZ prints `toInstant()` in UTC. TIMESTAMP prints
/// `toLocalDateTime()`, which casts the day count to `int`: beyond about 5.88 million years from 1970 it wraps,
/// and so does our text.
struct TsEnc<'a, T: ArrowPrimitiveType<Native = i64>> {
    values: &'a PrimitiveArray<T>,
    w: TimestampWriter,
    unit: TimeUnit,
    ltz: bool,
    path: String,
    failure: &'a Failure,
}
impl<T: ArrowPrimitiveType<Native = i64>> Enc for TsEnc<'_, T> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let v = self.values.value(idx);
        let (millis, nano_of_milli) = match self.unit {
            TimeUnit::Second => match v.checked_mul(1000) {
                Some(ms) => (ms, 0),
                None => {
                    return self.failure.record(
                        &self.path,
                        Failed::Value(format!("{v} s overflows Flink's millisecond timestamp")),
                    )
                }
            },
            TimeUnit::Millisecond => (v, 0),
            TimeUnit::Microsecond => (v.div_euclid(1_000), v.rem_euclid(1_000) as u32 * 1_000),
            TimeUnit::Nanosecond => (v.div_euclid(1_000_000), v.rem_euclid(1_000_000) as u32),
        };
        /// From here on `millis / DAY` no longer fits an `int`.
        const WRAP: u64 = 86_400_000 * (1 << 31);
        let (seconds, nanos) = if self.ltz || millis.unsigned_abs() < WRAP {
            // Within the int day range, Java's truncate-then-adjust equals floor division.
            (
                millis.div_euclid(1000),
                millis.rem_euclid(1000) as u32 * 1_000_000 + nano_of_milli,
            )
        } else {
            // TimestampData.toLocalDateTime(): `int date = (int) (millis / DAY); int time = (int) (millis % DAY);
            // if (time < 0) { --date; time += DAY; }`, all in Java's wrapping int arithmetic.
            let mut date = (millis / 86_400_000) as i32;
            let mut time = (millis % 86_400_000) as i32;
            if time < 0 {
                date = date.wrapping_sub(1);
                time += 86_400_000;
            }
            let seconds = i64::from(date) * 86_400 + i64::from(time / 1000);
            (seconds, (time % 1000) as u32 * 1_000_000 + nano_of_milli)
        };
        self.w.write(out, seconds, nanos);
    }
}

/// INTERVAL DAY TO SECOND from a Duration: total milliseconds (floored); seconds whose milliseconds overflow
/// a `long` fail the batch.
fn duration<'a, T: ArrowPrimitiveType<Native = i64>>(
    path: &str,
    array: &'a dyn Array,
    unit: TimeUnit,
    cx: Cx<'a>,
) -> Box<dyn Enc + 'a> {
    Box::new(DurationEnc {
        values: array.as_primitive::<T>(),
        unit,
        path: path.to_owned(),
        failure: cx.failure,
    })
}

struct DurationEnc<'a, T: ArrowPrimitiveType<Native = i64>> {
    values: &'a PrimitiveArray<T>,
    unit: TimeUnit,
    path: String,
    failure: &'a Failure,
}
impl<T: ArrowPrimitiveType<Native = i64>> Enc for DurationEnc<'_, T> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let v = self.values.value(idx);
        let millis = match self.unit {
            TimeUnit::Second => v.checked_mul(1000),
            TimeUnit::Millisecond => Some(v),
            TimeUnit::Microsecond => Some(v.div_euclid(1_000)),
            TimeUnit::Nanosecond => Some(v.div_euclid(1_000_000)),
        };
        match millis {
            Some(ms) => write_i64(out, ms),
            None => self.failure.record(
                &self.path,
                Failed::Value(format!("{v} s overflows Flink's millisecond interval")),
            ),
        }
    }
}

/// Writes `[e0,e1,...]` for the element range, null elements as `null` (even with ignore-null-fields).
#[inline]
fn write_elements(values: &mut Col<'_>, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (n, j) in range.enumerate() {
        if n > 0 {
            out.push(b',');
        }
        values.write_or_null(j, out);
    }
    out.push(b']');
}

struct ListEnc<'a, O: OffsetSizeTrait> {
    offsets: &'a [O],
    values: Col<'a>,
}
impl<'a, O: OffsetSizeTrait> ListEnc<'a, O> {
    fn new(path: &str, a: &'a GenericListArray<O>, element: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        Ok(Self {
            offsets: a.value_offsets(),
            values: bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?,
        })
    }
}
impl<O: OffsetSizeTrait> Enc for ListEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let range = self.offsets[idx].as_usize()..self.offsets[idx + 1].as_usize();
        write_elements(&mut self.values, range, out);
    }
}

struct ListViewEnc<'a, O: OffsetSizeTrait> {
    offsets: &'a [O],
    sizes: &'a [O],
    values: Col<'a>,
}
impl<'a, O: OffsetSizeTrait> ListViewEnc<'a, O> {
    fn new(
        path: &str,
        a: &'a GenericListViewArray<O>,
        element: &'a Ty,
        cx: Cx<'a>,
    ) -> Result<Self> {
        Ok(Self {
            offsets: a.value_offsets(),
            sizes: a.value_sizes(),
            values: bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?,
        })
    }
}
impl<O: OffsetSizeTrait> Enc for ListViewEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let start = self.offsets[idx].as_usize();
        write_elements(
            &mut self.values,
            start..start + self.sizes[idx].as_usize(),
            out,
        );
    }
}

struct FixedListEnc<'a> {
    values: Col<'a>,
    size: usize,
}
impl Enc for FixedListEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_elements(
            &mut self.values,
            idx * self.size..(idx + 1) * self.size,
            out,
        );
    }
}

/// String keys of a map, whatever their string layout.
enum Keys<'a> {
    Utf8(&'a GenericStringArray<i32>),
    Large(&'a GenericStringArray<i64>),
    View(&'a StringViewArray),
}
/// MAP<STRING, V> as Flink writes it: entries in data order into a `LinkedHashMap`-backed `ObjectNode`, so a
/// repeated key keeps its first position and takes its last value; null values are `null`; a null key fails,
/// is dropped or becomes `map-null-key.literal`.
struct MapEnc<'a> {
    offsets: &'a [i32],
    keys: Keys<'a>,
    values: Col<'a>,
    null_key: MapNullKeyMode,
    literal: &'a str,
    path: String,
    failure: &'a Failure,
    /// Per row scratch: (key, index of the value that wins).
    entries: Vec<(&'a str, usize)>,
    index: HashMap<&'a str, usize>,
    /// Repeated keys merge their ROW values (ignore-null-fields with ROW values, see [`Node`]).
    merge_rows: bool,
}

/// Maps with more entries than this dedupe through a hash map instead of a linear scan.
const LINEAR_DEDUPE_MAX: usize = 16;

impl<'a> MapEnc<'a> {
    fn new(path: &str, a: &'a MapArray, value: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        let keys = match a.keys().data_type() {
            DataType::Utf8 => Keys::Utf8(a.keys().as_string::<i32>()),
            DataType::LargeUtf8 => Keys::Large(a.keys().as_string::<i64>()),
            _ => Keys::View(a.keys().as_string_view()),
        };
        let values = bind(&format!("{path}{{}}"), value, a.values().as_ref(), cx)?;
        Ok(Self {
            offsets: a.value_offsets(),
            keys,
            merge_rows: cx.o.ignore_null_fields && values.enc.is_row(),
            values,
            null_key: cx.o.map_null_key,
            path: path.to_owned(),
            failure: cx.failure,
            literal: &cx.o.map_null_key_literal,
            entries: Vec::new(),
            index: HashMap::new(),
        })
    }
}

impl<'a> Enc for MapEnc<'a> {
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let range = self.offsets[idx] as usize..self.offsets[idx + 1] as usize;
        self.entries.clear();
        self.index.clear();
        let linear = range.len() <= LINEAR_DEDUPE_MAX;
        let mut repeated = false;
        for j in range.clone() {
            let Some(key) = self.key(j) else { continue };
            let existing = if linear {
                self.entries.iter().position(|(k, _)| *k == key)
            } else {
                self.index.get(key).copied()
            };
            match existing {
                Some(p) => {
                    self.entries[p].1 = j;
                    repeated = true;
                }
                None => {
                    if !linear {
                        self.index.insert(key, self.entries.len());
                    }
                    self.entries.push((key, j));
                }
            }
        }
        let merge = repeated && self.merge_rows;
        out.push(b'{');
        for n in 0..self.entries.len() {
            let (key, last) = self.entries[n];
            if n > 0 {
                out.push(b',');
            }
            write_jackson_str(out, key);
            out.push(b':');
            if merge {
                // Every value under this key, in order, converted into the node the previous one left.
                let mut node = None;
                for j in range.clone() {
                    if self.key(j) == Some(key) {
                        node = Some(self.values.node(j, node.take()));
                    }
                }
                node.expect("the key occurs in the range").write(out);
            } else {
                self.values.write_or_null(last, out);
            }
        }
        out.push(b'}');
    }
}

impl<'a> MapEnc<'a> {
    /// The JSON key of entry `j`: its string, the literal for a null key under LITERAL, `None` to drop it (DROP,
    /// and FAIL after recording the failure).
    #[inline]
    fn key(&self, j: usize) -> Option<&'a str> {
        match (self.keys.get(j), self.null_key) {
            (Some(k), _) => Some(k),
            (None, MapNullKeyMode::Literal) => Some(self.literal),
            (None, MapNullKeyMode::Drop) => None,
            (None, MapNullKeyMode::Fail) => {
                self.failure.record(&self.path, Failed::NullMapKey);
                None
            }
        }
    }
}

impl<'a> Keys<'a> {
    /// Key `j`, `None` when null.
    #[inline]
    fn get(&self, j: usize) -> Option<&'a str> {
        match *self {
            Keys::Utf8(a) => a.is_valid(j).then(|| a.value(j)),
            Keys::Large(a) => a.is_valid(j).then(|| a.value(j)),
            Keys::View(a) => a.is_valid(j).then(|| a.value(j)),
        }
    }
}
