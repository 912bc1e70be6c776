//! BOOLEAN, the integer types (and INTERVAL YEAR TO MONTH, an `int` of months), FLOAT, DOUBLE and DECIMAL.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType, PrimitiveArray};
use arrow_schema::{DataType, IntervalUnit};

use super::{from_fn, BoxEnc, Enc};
use crate::flink::bind::{Cx, Failure};
use crate::flink::decimal::{write_decimal, DecimalStyle};
use crate::flink::float::{write_f32, write_f64};
use crate::flink::float_jdk17::{write_f32_jdk17, write_f64_jdk17};
use crate::options::JavaFloatDigits;
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

// FLOAT and DOUBLE: the JDK's digits are chosen here, once per column and batch, never per value.

/// FLOAT from Float16 (widened to f32), with `digits`' `Float.toString`.
pub(crate) fn float_from_f16<'a>(array: &'a dyn Array, digits: JavaFloatDigits) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float16Type>();
    match digits {
        JavaFloatDigits::Jdk19 => from_fn(move |idx, out| write_f32(out, a.value(idx).to_f32())),
        JavaFloatDigits::Jdk17 => {
            from_fn(move |idx, out| write_f32_jdk17(out, a.value(idx).to_f32()))
        }
    }
}

/// FLOAT, with `digits`' `Float.toString`.
pub(crate) fn float<'a>(array: &'a dyn Array, digits: JavaFloatDigits) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float32Type>();
    match digits {
        JavaFloatDigits::Jdk19 => from_fn(move |idx, out| write_f32(out, a.value(idx))),
        JavaFloatDigits::Jdk17 => from_fn(move |idx, out| write_f32_jdk17(out, a.value(idx))),
    }
}

/// DOUBLE, with `digits`' `Double.toString`.
pub(crate) fn double<'a>(array: &'a dyn Array, digits: JavaFloatDigits) -> BoxEnc<'a> {
    let a = array.as_primitive::<Float64Type>();
    match digits {
        JavaFloatDigits::Jdk19 => from_fn(move |idx, out| write_f64(out, a.value(idx))),
        JavaFloatDigits::Jdk17 => from_fn(move |idx, out| write_f64_jdk17(out, a.value(idx))),
    }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::types::Float64Type;
    use arrow_array::{ArrayRef, Float32Array, Float64Array, ListArray, RecordBatch};
    use arrow_schema::DataType;

    use crate::{EncoderOptions, JavaFloatDigits, JsonEncoder};

    /// `float.java-digits` reaches every FLOAT and DOUBLE column, nested ones too; the texts are those of
    /// `tests/data/java_float_to_string_jdk17.txt` and `..._jdk25.txt` (printed by the JDKs).
    #[test]
    fn float_digits_follow_the_option_in_every_column() {
        let batch = RecordBatch::try_from_iter([
            (
                "d",
                Arc::new(Float64Array::from(vec![2e23, 1.5])) as ArrayRef,
            ),
            (
                "f",
                Arc::new(Float32Array::from(vec![f32::from_bits(0x50f5_10ad), 0.1])),
            ),
            (
                "h",
                arrow_cast::cast(&Float32Array::from(vec![0.5, 65504.0]), &DataType::Float16)
                    .unwrap(),
            ),
            (
                "l",
                Arc::new(ListArray::from_iter_primitive::<Float64Type, _, _>([
                    Some([Some(9.5e21)]),
                    Some([Some(-0.0)]),
                ])),
            ),
        ])
        .unwrap();
        let encode = |options: EncoderOptions| {
            let records = JsonEncoder::new(options).unwrap().encode(&batch).unwrap();
            (0..2)
                .map(|row| String::from_utf8(records.value(row).unwrap().to_vec()).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            encode(EncoderOptions::default()),
            [
                r#"{"d":2.0E23,"f":3.2892086E10,"h":0.5,"l":[9.5E21]}"#,
                r#"{"d":1.5,"f":0.1,"h":65504.0,"l":[-0.0]}"#,
            ]
        );
        let jdk17 = EncoderOptions::default().with_float_digits(JavaFloatDigits::Jdk17);
        assert_eq!(
            EncoderOptions::from_pairs([("float.java-digits", "jdk17")]).unwrap(),
            jdk17
        );
        assert_eq!(
            encode(jdk17),
            [
                r#"{"d":1.9999999999999998E23,"f":3.28920863E10,"h":0.5,"l":[9.500000000000001E21]}"#,
                r#"{"d":1.5,"f":0.1,"h":65504.0,"l":[-0.0]}"#,
            ]
        );
    }
}
