//! BOOLEAN, the integer types (and INTERVAL YEAR TO MONTH, an `int` of months), FLOAT, DOUBLE and DECIMAL.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType, PrimitiveArray};
use arrow_schema::{DataType, IntervalUnit};

use super::{from_fn, BoxEnc, Enc};
use crate::flink::bind::{Cx, Failure};
use crate::flink::decimal::{write_decimal, DecimalStyle};
use crate::flink::float::{write_f32, write_f64};
use crate::out::write_i64;

/// BOOLEAN.
pub(crate) fn boolean<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_boolean();
    from_fn(move |idx, out| out.extend_from_slice(if a.value(idx) { b"true" } else { b"false" }))
}

/// TINYINT..BIGINT from Int8..Int64 and UInt8..UInt32 (widened losslessly), and INTERVAL YEAR TO MONTH from
/// Interval(YearMonth): the value as a JSON integer.
pub(crate) fn integer<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    match array.data_type() {
        DataType::Int8 => int::<Int8Type>(array),
        DataType::Int16 => int::<Int16Type>(array),
        DataType::Int32 => int::<Int32Type>(array),
        DataType::Int64 => int::<Int64Type>(array),
        DataType::UInt8 => int::<UInt8Type>(array),
        DataType::UInt16 => int::<UInt16Type>(array),
        DataType::Interval(IntervalUnit::YearMonth) => int::<IntervalYearMonthType>(array),
        _ => int::<UInt32Type>(array),
    }
}

fn int<'a, T>(array: &'a dyn Array) -> BoxEnc<'a>
where
    T: ArrowPrimitiveType,
    T::Native: Into<i64>,
{
    let a = array.as_primitive::<T>();
    from_fn(move |idx, out| write_i64(out, a.value(idx).into()))
}

/// FLOAT from Float16 (widened to f32).
pub(crate) fn float_from_f16<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float16Type>();
    from_fn(move |idx, out| write_f32(out, a.value(idx).to_f32()))
}

/// FLOAT.
pub(crate) fn float<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float32Type>();
    from_fn(move |idx, out| write_f32(out, a.value(idx)))
}

/// DOUBLE.
pub(crate) fn double<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float64Type>();
    from_fn(move |idx, out| write_f64(out, a.value(idx)))
}

/// DECIMAL(p, s) from Decimal32..Decimal256; precision and scale come from the array's type, the style from
/// the options.
pub(crate) fn decimal<'a>(path: &str, array: &'a dyn Array, cx: Cx<'a>) -> BoxEnc<'a> {
    match *array.data_type() {
        DataType::Decimal32(p, s) => DecimalEnc::<Decimal32Type>::boxed(path, array, p, s, cx),
        DataType::Decimal64(p, s) => DecimalEnc::<Decimal64Type>::boxed(path, array, p, s, cx),
        DataType::Decimal128(p, s) => DecimalEnc::<Decimal128Type>::boxed(path, array, p, s, cx),
        DataType::Decimal256(p, s) => DecimalEnc::<Decimal256Type>::boxed(path, array, p, s, cx),
        _ => unreachable!("planned as decimal"),
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
impl<'a, T: ArrowPrimitiveType> DecimalEnc<'a, T>
where
    T::Native: ToI128,
{
    fn boxed(path: &str, array: &'a dyn Array, precision: u8, scale: i8, cx: Cx<'a>) -> BoxEnc<'a> {
        Box::new(Self {
            values: array.as_primitive::<T>(),
            scale,
            limit: 10i128.pow(u32::from(precision)),
            style: cx.o.decimal,
            path: path.to_owned(),
            failure: cx.failure,
        })
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
            _ => self.failure.value(
                &self.path,
                format!(
                    "unscaled decimal {:?} has more digits than its type's precision allows",
                    self.values.value(idx)
                ),
            ),
        }
    }
}
