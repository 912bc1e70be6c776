//! DATE, TIME, TIMESTAMP / TIMESTAMP_LTZ and the INTERVAL DAY TO SECOND columns (Duration and Interval(DayTime)),
//! with the range checks of Flink's `int` and `long` representations; the text itself is
//! [`crate::flink::temporal`]'s.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrowPrimitiveType, PrimitiveArray};
use arrow_schema::{DataType, TimeUnit};

use super::{from_fn, BoxEnc, Enc};
use crate::flink::bind::{Cx, Failure};
use crate::flink::temporal::{write_date, write_time, TimestampWriter};
use crate::out::write_i64;

fn write_quoted_date(out: &mut Vec<u8>, days: i64) {
    out.push(b'"');
    write_date(out, days);
    out.push(b'"');
}

/// DATE from Date32 (days).
pub(crate) fn date32<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_primitive::<Date32Type>();
    from_fn(move |idx, out| write_quoted_date(out, a.value(idx).into()))
}

/// DATE from Date64 (milliseconds, floored to the day): Flink's DATE is an `int` of days, so days beyond it
/// fail the batch.
pub(crate) fn date64<'a>(path: &str, array: &'a dyn Array, cx: Cx<'a>) -> BoxEnc<'a> {
    let (a, path, failure) = (
        array.as_primitive::<Date64Type>(),
        path.to_owned(),
        cx.failure,
    );
    from_fn(move |idx, out| {
        let days = a.value(idx).div_euclid(86_400_000);
        if i32::try_from(days).is_ok() {
            write_quoted_date(out, days);
        } else {
            failure.value(
                &path,
                format!("DATE of {days} days overflows Flink's int days"),
            );
        }
    })
}

/// TIME from a Time32/Time64 array; `fraction` prints the milliseconds (Flink 2.3+).
pub(crate) fn time<'a>(path: &str, array: &'a dyn Array, fraction: bool, cx: Cx<'a>) -> BoxEnc<'a> {
    match array.data_type() {
        DataType::Time32(TimeUnit::Second) => {
            time_of::<Time32SecondType>(path, array, fraction, cx, |v| i64::from(v) * 1000)
        }
        DataType::Time32(_) => {
            time_of::<Time32MillisecondType>(path, array, fraction, cx, i64::from)
        }
        DataType::Time64(TimeUnit::Microsecond) => {
            time_of::<Time64MicrosecondType>(path, array, fraction, cx, |v| v.div_euclid(1_000))
        }
        _ => {
            time_of::<Time64NanosecondType>(path, array, fraction, cx, |v| v.div_euclid(1_000_000))
        }
    }
}

/// A TIME encoder over a Time32/Time64 array; `to_millis` gives Flink's TIME value (int milliseconds of day,
/// floored from finer units).
fn time_of<'a, T: ArrowPrimitiveType>(
    path: &str,
    array: &'a dyn Array,
    fraction: bool,
    cx: Cx<'a>,
    to_millis: fn(T::Native) -> i64,
) -> BoxEnc<'a> {
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
            return self
                .failure
                .value(&self.path, format!("TIME of {ms} ms is outside one day"));
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

/// TIMESTAMP (no zone) or TIMESTAMP_LTZ (`ltz`, printed as UTC with `Z`) from a Timestamp array of `unit`.
pub(crate) fn timestamp<'a>(
    path: &str,
    array: &'a dyn Array,
    unit: TimeUnit,
    ltz: bool,
    cx: Cx<'a>,
) -> BoxEnc<'a> {
    match unit {
        TimeUnit::Second => TsEnc::<TimestampSecondType>::boxed(path, array, ltz, cx),
        TimeUnit::Millisecond => TsEnc::<TimestampMillisecondType>::boxed(path, array, ltz, cx),
        TimeUnit::Microsecond => TsEnc::<TimestampMicrosecondType>::boxed(path, array, ltz, cx),
        TimeUnit::Nanosecond => TsEnc::<TimestampNanosecondType>::boxed(path, array, ltz, cx),
    }
}

/// The epoch seconds and nanoseconds of the second that Flink prints for a `TimestampData` of `millis` and
/// `nano_of_milli`: TIMESTAMP_LTZ (`ltz`) through `toInstant()`, TIMESTAMP through `toLocalDateTime()`, which
/// wraps the day count beyond `int` (see [`TsEnc`]).
#[inline]
pub(crate) fn seconds_of(millis: i64, nano_of_milli: u32, ltz: bool) -> (i64, u32) {
    /// From here on `millis / DAY` no longer fits an `int`.
    const WRAP: u64 = 86_400_000 * (1 << 31);
    if ltz || millis.unsigned_abs() < WRAP {
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
    }
}

/// TIMESTAMP and TIMESTAMP_LTZ. Flink holds both as `TimestampData` (epoch milliseconds as a `long` plus
/// nanoseconds of the millisecond). TIMESTAMP_LTZ prints `toInstant()` in UTC. TIMESTAMP prints
/// `toLocalDateTime()`, which casts the day count to `int`: beyond about 5.88 million years from 1970 it wraps,
/// and so does our text. The unit is the type's `T::UNIT`, so each unit's conversion is compiled on its own.
struct TsEnc<'a, T: ArrowTimestampType> {
    values: &'a PrimitiveArray<T>,
    w: TimestampWriter,
    ltz: bool,
    path: String,
    failure: &'a Failure,
}
impl<'a, T: ArrowTimestampType> TsEnc<'a, T> {
    fn boxed(path: &str, array: &'a dyn Array, ltz: bool, cx: Cx<'a>) -> BoxEnc<'a> {
        Box::new(Self {
            values: array.as_primitive::<T>(),
            w: TimestampWriter::new(cx.o.timestamp_separator, ltz),
            ltz,
            path: path.to_owned(),
            failure: cx.failure,
        })
    }
}
impl<T: ArrowTimestampType> Enc for TsEnc<'_, T> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let v = self.values.value(idx);
        let (millis, nano_of_milli) = match T::UNIT {
            TimeUnit::Second => match v.checked_mul(1000) {
                Some(ms) => (ms, 0),
                None => {
                    return self.failure.value(
                        &self.path,
                        format!("{v} s overflows Flink's millisecond timestamp"),
                    )
                }
            },
            TimeUnit::Millisecond => (v, 0),
            TimeUnit::Microsecond => (v.div_euclid(1_000), v.rem_euclid(1_000) as u32 * 1_000),
            TimeUnit::Nanosecond => (v.div_euclid(1_000_000), v.rem_euclid(1_000_000) as u32),
        };
        let (seconds, nanos) = seconds_of(millis, nano_of_milli, self.ltz);
        self.w.write(out, seconds, nanos);
    }
}

/// INTERVAL DAY TO SECOND from a Duration: total milliseconds (floored); seconds whose milliseconds overflow
/// a `long` fail the batch.
pub(crate) fn duration<'a>(
    path: &str,
    array: &'a dyn Array,
    unit: TimeUnit,
    cx: Cx<'a>,
) -> BoxEnc<'a> {
    match unit {
        TimeUnit::Second => duration_of::<DurationSecondType>(path, array, unit, cx),
        TimeUnit::Millisecond => duration_of::<DurationMillisecondType>(path, array, unit, cx),
        TimeUnit::Microsecond => duration_of::<DurationMicrosecondType>(path, array, unit, cx),
        TimeUnit::Nanosecond => duration_of::<DurationNanosecondType>(path, array, unit, cx),
    }
}

fn duration_of<'a, T: ArrowPrimitiveType<Native = i64>>(
    path: &str,
    array: &'a dyn Array,
    unit: TimeUnit,
    cx: Cx<'a>,
) -> BoxEnc<'a> {
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
            None => self.failure.value(
                &self.path,
                format!("{v} s overflows Flink's millisecond interval"),
            ),
        }
    }
}

/// INTERVAL DAY TO SECOND from Interval(DayTime): total milliseconds.
pub(crate) fn interval_day_time<'a>(array: &'a dyn Array) -> BoxEnc<'a> {
    let a = array.as_primitive::<IntervalDayTimeType>();
    from_fn(move |idx, out| {
        let v = a.value(idx);
        write_i64(
            out,
            i64::from(v.days) * 86_400_000 + i64::from(v.milliseconds),
        );
    })
}
