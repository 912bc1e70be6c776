//! The parity corpus, shared by `tests/flink_parity.rs`, `tests/plain_parity.rs`, `tests/errors.rs` and
//! `examples/parity_corpus.rs` (included with `#[path]`).
//!
//! Two parts:
//! - [`hand_written`]: one or more cases per output rule of Flink's `json` format (`docs/json-format.md`; the
//!   comments next to each case name the rule);
//! - [`random`]: a seeded random corpus (random schemas up to nesting depth 3, nulls at every level, every
//!   escape class, extreme values, random option combinations).
//!
//! Only Arrow types the golden harness (`java/flink-parity`) reads go into [`flink_corpus`]. Types only
//! arrow-json handles are in [`plain_only`]. No expected output lives here: the expected bytes always come
//! from the real Flink (goldens) or the real arrow-json writer.
#![allow(dead_code)]

use std::sync::Arc;

use arrow_array::types::{
    Date32Type, Date64Type, DurationMicrosecondType, DurationMillisecondType,
    DurationNanosecondType, DurationSecondType, Float32Type, Float64Type, Int16Type, Int32Type,
    Int64Type, Int8Type, IntervalDayTimeType, IntervalYearMonthType, Time32MillisecondType,
    Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType, UInt16Type, UInt32Type,
    UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, Decimal128Array,
    FixedSizeBinaryArray, FixedSizeListArray, Float16Array, LargeBinaryArray, LargeListArray,
    LargeStringArray, ListArray, MapArray, NullArray, PrimitiveArray, RecordBatch,
    RecordBatchOptions, StringArray, StructArray,
};
use arrow_buffer::{Buffer, IntervalDayTime, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields, IntervalUnit, Schema, TimeUnit};

/// One corpus case: a table (one or more batches of one schema) plus the format and layout options.
#[derive(Debug, Clone)]
pub struct Case {
    /// File-name-safe name (`[a-z0-9_]`).
    pub name: String,
    /// Flink-style option pairs (also the `.properties` content).
    pub options: Vec<(String, String)>,
    /// The rows, in order.
    pub batches: Vec<RecordBatch>,
}

impl Case {
    /// Total rows of the case.
    pub fn rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    /// The option value of `key`, if set.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Default seed of the random corpus (override with `PARITY_SEED`).
pub const DEFAULT_SEED: u64 = 0x5eed_f11c_2026_0001;

/// The seed from `PARITY_SEED` (decimal or `0x` hex), else [`DEFAULT_SEED`]. Printed, so a failure can be
/// replayed.
pub fn seed_from_env() -> u64 {
    let seed = match std::env::var("PARITY_SEED") {
        Ok(text) => {
            let t = text.trim();
            let parsed = match t.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => t.parse(),
            };
            parsed
                .unwrap_or_else(|_| panic!("PARITY_SEED={text:?} is not a u64 (decimal or 0x hex)"))
        }
        Err(_) => DEFAULT_SEED,
    };
    println!("parity corpus: PARITY_SEED={seed:#x}");
    seed
}

/// Number of random cases and rows per random case (40 x 256 = 10,240 random rows per run).
pub const RANDOM_CASES: usize = 40;
/// Rows per random case.
pub const RANDOM_ROWS: usize = 256;

/// Every case the golden harness can read: [`hand_written`] followed by [`random`].
pub fn flink_corpus(seed: u64) -> Vec<Case> {
    let mut cases = hand_written();
    cases.extend(random(seed, RANDOM_CASES, RANDOM_ROWS));
    cases
}

// ---------------------------------------------------------------------------------------------------------
// Small builders
// ---------------------------------------------------------------------------------------------------------

fn arc<A: Array + 'static>(a: A) -> ArrayRef {
    Arc::new(a)
}

fn opts(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn case(name: &str, options: &[(&str, &str)], batches: Vec<RecordBatch>) -> Case {
    Case {
        name: name.to_owned(),
        options: opts(options),
        batches,
    }
}

/// A batch of nullable columns.
pub fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(n, a)| (n, a, true)))
        .expect("valid corpus batch")
}

/// A batch with no columns and `rows` rows.
fn empty_batch(rows: usize) -> RecordBatch {
    RecordBatch::try_new_with_options(
        Arc::new(Schema::empty()),
        vec![],
        &RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .expect("empty batch")
}

fn nulls(valid: &[bool]) -> Option<NullBuffer> {
    (!valid.iter().all(|v| *v)).then(|| NullBuffer::from(valid.to_vec()))
}

fn item(dt: &DataType) -> FieldRef {
    Arc::new(Field::new("item", dt.clone(), true))
}

/// `List<values>` with these per-row lengths and validity (null rows may have non-zero lengths).
pub fn list(values: ArrayRef, lengths: &[usize], valid: &[bool]) -> ArrayRef {
    let offsets = OffsetBuffer::<i32>::from_lengths(lengths.iter().copied());
    arc(ListArray::try_new(item(values.data_type()), offsets, values, nulls(valid)).expect("list"))
}

/// `LargeList<values>`.
pub fn large_list(values: ArrayRef, lengths: &[usize], valid: &[bool]) -> ArrayRef {
    let offsets = OffsetBuffer::<i64>::from_lengths(lengths.iter().copied());
    arc(
        LargeListArray::try_new(item(values.data_type()), offsets, values, nulls(valid))
            .expect("large list"),
    )
}

/// `FixedSizeList<values, size>`.
pub fn fixed_list(values: ArrayRef, size: i32, valid: &[bool]) -> ArrayRef {
    arc(
        FixedSizeListArray::try_new(item(values.data_type()), size, values, nulls(valid))
            .expect("fixed list"),
    )
}

/// A struct of nullable children.
pub fn strukt(children: Vec<(&str, ArrayRef)>, valid: &[bool]) -> ArrayRef {
    let fields: Fields = children
        .iter()
        .map(|(n, a)| Arc::new(Field::new(*n, a.data_type().clone(), true)))
        .collect();
    let arrays = children.into_iter().map(|(_, a)| a).collect();
    arc(
        StructArray::try_new_with_length(fields, arrays, nulls(valid), valid.len())
            .expect("struct"),
    )
}

/// `Map<Utf8, values>` (keys non-null, unordered), with per-row entry counts.
pub fn map(keys: ArrayRef, values: ArrayRef, lengths: &[usize], valid: &[bool]) -> ArrayRef {
    let fields = Fields::from(vec![
        Field::new("key", keys.data_type().clone(), false),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::try_new(fields, vec![keys, values], None).expect("map entries");
    let field = Arc::new(Field::new("entries", entries.data_type().clone(), false));
    let offsets = OffsetBuffer::<i32>::from_lengths(lengths.iter().copied());
    arc(MapArray::try_new(field, offsets, entries, nulls(valid), false).expect("map"))
}

fn prim<T: ArrowPrimitiveType>(values: Vec<Option<T::Native>>) -> ArrayRef {
    arc(values.into_iter().collect::<PrimitiveArray<T>>())
}

fn strs(values: &[Option<&str>]) -> ArrayRef {
    arc(StringArray::from(values.to_vec()))
}

fn large_strs(values: &[Option<&str>]) -> ArrayRef {
    arc(LargeStringArray::from(values.to_vec()))
}

fn i32s(values: &[Option<i32>]) -> ArrayRef {
    prim::<Int32Type>(values.to_vec())
}

fn f16_bits(bits: &[Option<u16>]) -> ArrayRef {
    let valid: Vec<bool> = bits.iter().map(Option::is_some).collect();
    let raw: Vec<u16> = bits.iter().map(|b| b.unwrap_or(0)).collect();
    let n = raw.len();
    arc(Float16Array::new(
        ScalarBuffer::new(Buffer::from_vec(raw), 0, n),
        nulls(&valid),
    ))
}

fn decimal(values: &[Option<i128>], p: u8, s: i8) -> ArrayRef {
    arc(Decimal128Array::from(values.to_vec())
        .with_precision_and_scale(p, s)
        .expect("decimal type"))
}

fn fixed_binary(values: &[Option<&[u8]>], size: i32) -> ArrayRef {
    arc(
        FixedSizeBinaryArray::try_from_sparse_iter_with_size(values.iter().copied(), size)
            .expect("fsb"),
    )
}

fn ts<T: ArrowPrimitiveType<Native = i64>>(values: Vec<Option<i64>>, tz: Option<&str>) -> ArrayRef {
    let a: PrimitiveArray<T> = values.into_iter().collect();
    let dt = DataType::Timestamp(unit_of(&a), tz.map(Arc::from));
    arc(a.with_data_type(dt))
}

fn unit_of<T: ArrowPrimitiveType>(a: &PrimitiveArray<T>) -> TimeUnit {
    match a.data_type() {
        DataType::Timestamp(u, _) => *u,
        other => panic!("not a timestamp: {other}"),
    }
}

/// Seconds since the epoch of midnight of `days` since the epoch.
const fn day_secs(days: i64) -> i64 {
    days * 86_400
}

/// An instant as (epoch seconds, nanos 0..1e9) in `unit`, floored; `None` when out of i64 range.
fn instant_in(unit: TimeUnit, secs: i64, nanos: u32) -> Option<i64> {
    let (scale, div) = match unit {
        TimeUnit::Second => (1i64, 1_000_000_000u32),
        TimeUnit::Millisecond => (1_000, 1_000_000),
        TimeUnit::Microsecond => (1_000_000, 1_000),
        TimeUnit::Nanosecond => (1_000_000_000, 1),
    };
    secs.checked_mul(scale)?.checked_add(i64::from(nanos / div))
}

// ---------------------------------------------------------------------------------------------------------
// Hand-written corpus
// ---------------------------------------------------------------------------------------------------------

/// Every hand-written case (all readable by the golden harness).
pub fn hand_written() -> Vec<Case> {
    let mut c = Vec::new();
    scalars(&mut c);
    floats(&mut c);
    strings(&mut c);
    decimals(&mut c);
    temporal(&mut c);
    intervals_and_binary(&mut c);
    nested(&mut c);
    nulls_cases(&mut c);
    layout(&mut c);
    errors(&mut c);
    lazy_checks(&mut c);
    c
}

/// Values Flink only checks where it converts them, and the ranges where its own arithmetic wraps.
fn lazy_checks(c: &mut Vec<Case>) {
    // TimestampData.toLocalDateTime() casts the day count to int: TIMESTAMP wraps beyond ~5.88M years from 1970
    // (second and millisecond units reach there); TIMESTAMP_LTZ goes through toInstant() and does not.
    let extremes = vec![
        Some(185_542_587_187_200_000),
        Some(i64::MAX),
        Some(i64::MIN),
        Some(-185_542_587_187_200_001),
        None,
    ];
    let seconds = vec![
        Some(i64::MAX / 1000),
        Some(i64::MIN / 1000),
        Some(i64::MAX / 10_000),
        Some(-(i64::MAX / 10_000)),
        None,
    ];
    c.push(case(
        "timestamp_day_wrap",
        &[],
        vec![batch(vec![
            ("ms", ts::<TimestampMillisecondType>(extremes.clone(), None)),
            (
                "ms_ltz",
                ts::<TimestampMillisecondType>(extremes, Some("+00:00")),
            ),
            ("s", ts::<TimestampSecondType>(seconds.clone(), None)),
            ("s_ltz", ts::<TimestampSecondType>(seconds, Some("UTC"))),
        ])],
    ));
    // A null parent (struct, list, map slot) hides child values Flink would reject: it never converts them.
    let bad_time = || prim::<Time32MillisecondType>(vec![Some(90_000_000), Some(1_000)]);
    let bad_seconds = || ts::<TimestampSecondType>(vec![Some(i64::MAX), Some(1)], None);
    c.push(case(
        "null_parents_hide_invalid_values",
        &[],
        vec![batch(vec![
            (
                "s",
                strukt(
                    vec![("t", bad_time()), ("ts", bad_seconds())],
                    &[false, true],
                ),
            ),
            ("l", list(bad_time(), &[1, 1], &[false, true])),
            ("f", fixed_list(bad_time(), 1, &[false, true])),
            (
                "m",
                map(
                    strs(&[Some("k"), Some("k")]),
                    bad_time(),
                    &[1, 1],
                    &[false, true],
                ),
            ),
        ])],
    ));
    // Invalid values that are reached fail the batch (the harness reports them as Flink would meet them).
    c.push(case(
        "err_time_in_list",
        &[],
        vec![batch(vec![(
            "l",
            list(
                prim::<Time32MillisecondType>(vec![Some(1_000), Some(2_000), Some(90_000_000)]),
                &[3],
                &[true],
            ),
        )])],
    ));
    c.push(case(
        "err_decimal_beyond_precision",
        &[],
        vec![batch(vec![("d", decimal(&[Some(1), Some(123_456)], 5, 2))])],
    ));
    c.push(case(
        "err_date64_beyond_int_days",
        &[],
        vec![batch(vec![(
            "d",
            prim::<Date64Type>(vec![Some(0), Some(i64::MAX)]),
        )])],
    ));
}

/// One column per supported scalar Arrow type (docs/json-format.md), rows: value, other value, null.
fn scalar_batch() -> RecordBatch {
    let us = 1_704_164_645_123_456i64; // 2024-01-02T03:04:05.123456
    batch(vec![
        (
            "bool",
            arc(BooleanArray::from(vec![Some(true), Some(false), None])),
        ),
        (
            "i8",
            prim::<Int8Type>(vec![Some(i8::MIN), Some(i8::MAX), None]),
        ),
        (
            "i16",
            prim::<Int16Type>(vec![Some(i16::MIN), Some(i16::MAX), None]),
        ),
        (
            "i32",
            prim::<Int32Type>(vec![Some(i32::MIN), Some(i32::MAX), None]),
        ),
        (
            "i64",
            prim::<Int64Type>(vec![Some(i64::MIN), Some(i64::MAX), None]),
        ),
        ("u8", prim::<UInt8Type>(vec![Some(0), Some(u8::MAX), None])),
        (
            "u16",
            prim::<UInt16Type>(vec![Some(0), Some(u16::MAX), None]),
        ),
        (
            "u32",
            prim::<UInt32Type>(vec![Some(0), Some(u32::MAX), None]),
        ),
        ("f16", f16_bits(&[Some(0x2e66), Some(0x7bff), None])),
        (
            "f32",
            prim::<Float32Type>(vec![Some(0.1), Some(1.0e10), None]),
        ),
        (
            "f64",
            prim::<Float64Type>(vec![Some(0.1 + 0.2), Some(1.0e7), None]),
        ),
        ("dec", decimal(&[Some(150), Some(-10000), None], 10, 2)),
        (
            "utf8",
            strs(&[Some("a\u{1}b"), Some("caf\u{e9} \u{1F600}"), None]),
        ),
        ("large_utf8", large_strs(&[Some("q\"q"), Some(""), None])),
        (
            "binary",
            arc(BinaryArray::from_opt_vec(vec![
                Some(&[0u8, 1][..]),
                Some(&[0xfb, 0xff, 0xbf][..]),
                None,
            ])),
        ),
        (
            "large_binary",
            arc(LargeBinaryArray::from_opt_vec(vec![
                Some(&[][..]),
                Some(&[0xff, 0xfe][..]),
                None,
            ])),
        ),
        (
            "fixed_binary",
            fixed_binary(&[Some(&[1, 2, 3]), Some(&[0xfb, 0xff, 0xbf]), None], 3),
        ),
        (
            "date32",
            prim::<Date32Type>(vec![Some(0), Some(19_724), None]),
        ),
        (
            "date64",
            prim::<Date64Type>(vec![Some(0), Some(1_704_164_645_123), None]),
        ),
        (
            "time32_s",
            prim::<Time32SecondType>(vec![Some(0), Some(45_296), None]),
        ),
        (
            "time32_ms",
            prim::<Time32MillisecondType>(vec![Some(45_296_789), Some(45_296_000), None]),
        ),
        (
            "time64_us",
            prim::<Time64MicrosecondType>(vec![Some(45_296_789_123), Some(1), None]),
        ),
        (
            "time64_ns",
            prim::<Time64NanosecondType>(vec![
                Some(45_296_789_123_456),
                Some(86_399_999_999_999),
                None,
            ]),
        ),
        (
            "ts_s",
            ts::<TimestampSecondType>(vec![Some(us / 1_000_000), Some(-1), None], None),
        ),
        (
            "ts_ms",
            ts::<TimestampMillisecondType>(vec![Some(us / 1000), Some(-1500), None], None),
        ),
        (
            "ts_us",
            ts::<TimestampMicrosecondType>(
                vec![Some(us), Some(us - 123_456 + 500_000), None],
                None,
            ),
        ),
        (
            "ts_ns",
            ts::<TimestampNanosecondType>(vec![Some(us * 1000 + 789), Some(-999_500), None], None),
        ),
        (
            "ltz_us",
            ts::<TimestampMicrosecondType>(vec![Some(us), Some(-1), None], Some("+00:00")),
        ),
        (
            "ltz_ms",
            ts::<TimestampMillisecondType>(vec![Some(us / 1000), Some(0), None], Some("+05:30")),
        ),
        (
            "dur_ms",
            prim::<DurationMillisecondType>(vec![Some(90_061_001), Some(-1), None]),
        ),
        (
            "iv_ym",
            prim::<IntervalYearMonthType>(vec![Some(14), Some(-1), None]),
        ),
        (
            "iv_dt",
            prim::<IntervalDayTimeType>(vec![
                Some(IntervalDayTime::new(1, 3_661_001)),
                Some(IntervalDayTime::new(-1, 1)),
                None,
            ]),
        ),
    ])
}

fn scalars(c: &mut Vec<Case>) {
    // Every scalar type in one batch (with nulls, binary, timestamps, times, dates, intervals), under each
    // encoder option on and off:
    c.push(case("scalars_default", &[], vec![scalar_batch()]));
    c.push(case(
        "scalars_iso8601",
        &[("timestamp-format.standard", "ISO-8601")],
        vec![scalar_batch()],
    ));
    c.push(case(
        "scalars_sql_explicit",
        &[("timestamp-format.standard", "SQL")],
        vec![scalar_batch()],
    ));
    c.push(case(
        "scalars_ignore_nulls",
        &[("encode.ignore-null-fields", "true")],
        vec![scalar_batch()],
    ));
    c.push(case(
        "scalars_ignore_nulls_off",
        &[("encode.ignore-null-fields", "false")],
        vec![scalar_batch()],
    ));
    c.push(case(
        "scalars_decimal_plain",
        &[("encode.decimal-as-plain-number", "true")],
        vec![scalar_batch()],
    ));
    c.push(case(
        "scalars_decimal_plain_off",
        &[("encode.decimal-as-plain-number", "false")],
        vec![scalar_batch()],
    ));
    // The map-null-key options: configuration parity only (valid Arrow maps have no null keys).
    let m = map(
        strs(&[Some("k"), Some("null")]),
        i32s(&[Some(1), Some(3)]),
        &[2],
        &[true],
    );
    let maps = || batch(vec![("m", m.clone())]);
    c.push(case(
        "map_null_key_drop",
        &[("map-null-key.mode", "DROP")],
        vec![maps()],
    ));
    c.push(case(
        "map_null_key_literal",
        &[
            ("map-null-key.mode", "literal"),
            ("map-null-key.literal", "N/A \"x\" \u{1F600}"),
        ],
        vec![maps()],
    ));
    c.push(case(
        "map_null_key_fail",
        &[("map-null-key.mode", "FAIL")],
        vec![maps()],
    ));
    // Several batches in one case: the plan is reused (one plan per schema).
    c.push(case(
        "scalars_three_batches",
        &[],
        vec![scalar_batch(), scalar_batch().slice(1, 2), scalar_batch()],
    ));
}

/// Doubles: the digit and layout rules of Flink's float printing, and their edge cases.
pub fn special_f64() -> Vec<f64> {
    let next_up = |x: f64| f64::from_bits(x.to_bits() + 1);
    let next_down = |x: f64| f64::from_bits(x.to_bits() - 1);
    vec![
        0.1,
        1.0e10,
        -0.0,
        0.0,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0e-4,
        1.0e7,
        9_999_999.0,
        0.001,
        9.99e-4,
        1.0e-7,
        100.0,
        1.0,
        -1.0,
        0.5,
        f64::from_bits(1),
        f64::from_bits(2),
        f64::from_bits(3),
        1.0e-323,
        f64::MIN_POSITIVE,
        next_down(f64::MIN_POSITIVE),
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        0.1 + 0.2,
        1.0e23,
        2.0e23,
        9.5e21,
        1.234_567_890_123_456_8e17,
        1.959_642_074_231_560_2e18,
        100_226_670.37,
        1.0e16,
        1.0e19,
        9.999_999e6,
        next_down(0.001),
        next_up(0.001),
        next_down(1.0e7),
        next_up(1.0e7),
        12_345.678,
        -1.5e-5,
        2.225_073_858_507_201_4e-308,
        4.35e-6,
        123_456_789.0,
        1.0e21,
        1.0e22,
        3.0e10,
        5.0e-324,
        9_007_199_254_740_993.0,
        -9.223_372_036_854_776e18,
        1.7976931348623157e308,
        299_792_458.0,
        6.02214076e23,
        1.602176634e-19,
    ]
}

/// Floats: the digit and layout rules of Flink's float printing, and their edge cases.
pub fn special_f32() -> Vec<f32> {
    let b = f32::from_bits;
    vec![
        0.1,
        1.0e10,
        -0.0,
        0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0e-4,
        1.0e7,
        9_999_999.0,
        0.001,
        9.99e-4,
        b(1),
        b(2),
        b(3),
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        b(0x4ceb_79a3),
        b(0x50df_8476),
        b(0x5bb1_a2bc),
        b(0x48af_8064),
        b(0xcd81_5202),
        3.0e10,
        1.0e24,
        1.0e25,
        1.0e17,
        1.0,
        -1.0,
        16_777_216.0,
        16_777_217.0,
        8_388_607.5,
        1.0e-3,
        b(0.001f32.to_bits() - 1),
        b(1.0e7f32.to_bits() - 1),
        b(1.0e7f32.to_bits() + 1),
        123_456.79,
        3.4028235e38,
        f32::from_bits(0x0080_0000), // 1.17549435E-38
        0.3,
    ]
}

fn floats(c: &mut Vec<Case>) {
    // Floats at the layout boundaries of Java's text (1e-3, 1e7), subnormals, MIN/MAX, -0.0, NaN/Inf.
    let f64s: Vec<Option<f64>> = special_f64().into_iter().map(Some).chain([None]).collect();
    c.push(case(
        "float64_layout",
        &[],
        vec![batch(vec![("v", prim::<Float64Type>(f64s.clone()))])],
    ));
    let f32s: Vec<Option<f32>> = special_f32().into_iter().map(Some).chain([None]).collect();
    c.push(case(
        "float32_layout",
        &[],
        vec![batch(vec![("v", prim::<Float32Type>(f32s))])],
    ));
    // Float16, written as Flink's FLOAT. Zeros, 1.0, 0.1, +-Inf, NaN, the smallest subnormal, MAX, the largest
    // subnormal, the smallest normal, a negative value.
    let h = [
        0x0000, 0x8000, 0x3c00, 0x2e66, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x7bff, 0x03ff, 0x0400,
        0xc100, 0x5640,
    ];
    let h: Vec<Option<u16>> = h.into_iter().map(Some).chain([None]).collect();
    c.push(case("float16", &[], vec![batch(vec![("v", f16_bits(&h))])]));
    // Floats inside nested types and JDK 17-sensitive doubles in [1e16, 1e19) (docs/json-format.md, floats).
    let big: Vec<Option<f64>> = (0..64)
        .map(|i| Some(1.0e16 * (1.0 + f64::from(i) * 0.137_931_7)))
        .collect();
    let n = big.len();
    let big = prim::<Float64Type>(big);
    c.push(case(
        "float_nested",
        &[],
        vec![batch(vec![
            ("l", list(big.clone(), &[n], &[true])),
            (
                "s",
                strukt(
                    vec![
                        ("d", prim::<Float64Type>(vec![Some(1.0e23)])),
                        ("f", prim::<Float32Type>(vec![Some(3.0e10)])),
                    ],
                    &[true],
                ),
            ),
        ])],
    ));
}

/// Strings that need every escape class (control characters, quote, backslash, C1 and other non-ASCII
/// characters, characters outside the BMP).
pub fn special_strings() -> Vec<String> {
    let mut v: Vec<String> = vec![
        "".into(),
        "plain ascii".into(),
        "a\u{1}b".into(),
        "\u{1f}\u{7f}".into(),
        "q\"q".into(),
        "b\\s".into(),
        "sl/ash".into(),
        "\u{8}\t\n\u{c}\r".into(),
        "\u{0}".into(),
        "caf\u{e9}".into(),
        "emoji\u{1F600}".into(),
        "ls\u{2028}ps\u{2029}".into(),
        "<>&'".into(),
        "\u{a0}\u{feff}\u{fffd}\u{ffff}\u{d7ff}\u{e000}".into(),
        "\u{10000}".into(),
        "\u{10FFFF}".into(),
        "\u{7ff}\u{800}".into(),
        "mixed \"\u{1F600}\\\u{1f}\u{b}\u{e}\u{f}\u{1a}".into(),
    ];
    v.extend((0x80u32..=0x9f).map(|c| char::from_u32(c).expect("C1").to_string()));
    v
}

fn strings(c: &mut Vec<Case>) {
    // All 128 ASCII code points, alone and between letters, then all together.
    let mut ascii: Vec<String> = (0u8..128).map(|b| char::from(b).to_string()).collect();
    ascii.extend((0u8..128).map(|b| format!("x{}y", char::from(b))));
    ascii.push((0u8..128).map(char::from).collect());
    let ascii: Vec<Option<&str>> = ascii.iter().map(|s| Some(s.as_str())).collect();
    c.push(case(
        "strings_ascii",
        &[],
        vec![batch(vec![("v", strs(&ascii))])],
    ));

    // U+0080-U+009F, U+2028/2029, U+FEFF, U+FFFF, emoji, U+10000, U+10FFFF, long strings.
    let mut uni = special_strings();
    uni.push("ab\u{1F600}".repeat(5000)); // 15,000 chars with 5,000 emoji
    uni.push("x".repeat(100_000) + "\u{1}");
    uni.push("\"".repeat(40_000));
    uni.push("y".repeat(65_537)); // a long value that needs no escaping
    uni.push("\u{10FFFF}\u{10000}".repeat(3000));
    uni.push("\u{e9}".repeat(20_000) + "\u{2028}");
    let mut uni: Vec<Option<&str>> = uni.iter().map(|s| Some(s.as_str())).collect();
    uni.push(None);
    c.push(case(
        "strings_unicode",
        &[],
        vec![batch(vec![("v", strs(&uni)), ("lv", large_strs(&uni))])],
    ));

    // Escapes in field names (top level and nested) and in map keys; rows of many fields.
    let names = [
        "zeta",
        "Alpha",
        "we\"ird\u{1}",
        "back\\slash",
        "emoji\u{1F600}",
        "ctl\u{1f}\u{7f}\u{b}",
        "sl/ash",
        "ls\u{2028}",
        "tab\tnl\n",
        "\u{10FFFF}",
        "c1\u{85}",
    ];
    let mut cols: Vec<(&str, ArrayRef)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (*n, i32s(&[Some(i as i32), None])))
        .collect();
    cols.push((
        "nested\u{1F600}",
        strukt(
            vec![
                ("in\"ner", i32s(&[Some(1), Some(2)])),
                ("\u{0}", strs(&[None, Some("x")])),
            ],
            &[true, true],
        ),
    ));
    let keys = special_strings();
    let k: Vec<Option<&str>> = keys.iter().map(|s| Some(s.as_str())).collect();
    let kn = k.len();
    cols.push((
        "map",
        map(strs(&k), i32s(&vec![Some(7); kn]), &[kn, 0], &[true, true]),
    ));
    c.push(case("names_escapes", &[], vec![batch(cols)]));
}

/// Decimals: one DECIMAL(p,s) column per entry (scales, trailing zeros, exponent forms), then values that broke
/// other JSON writers (the upstream issues named) and the p=38 extremes.
fn decimal_table_batch() -> RecordBatch {
    let p38 = 10i128.pow(38) - 1;
    let rows: Vec<(i128, u8, i8)> = vec![
        (150, 10, 2),                                                 // 1.50
        (0, 10, 2),                                                   // 0.00
        (100, 10, 0),                                                 // 100
        (10_000, 10, 2),                                              // 100.00
        (1200, 10, 0),                                                // 1200
        (1230, 10, 0),                                                // 1230
        (123, 10, 0),                                                 // 123
        (10, 2, 0),                                                   // 10
        (27, 20, 9),                                                  // 0.000000027
        (270, 20, 10),                                                // 0.0000000270
        (1, 10, 6),                                                   // 0.000001
        (1, 10, 7),                                                   // 0.0000001
        (-1_234_500, 12, 4),                                          // -123.4500
        (-50, 10, 2),                                                 // -0.50
        (10i128.pow(37), 38, 0),                                      // 1E+37
        (12_345_678_901_234_567_890_123_456_789_012_345_678, 38, 18), // 12345678901234567890.123456789012345678
        (10_000_000, 10, 6),                                          // 10.000000 (flink-cdc#527)
        (60_000, 10, 2),                     // 600.00 (jackson-databind#228)
        (p38, 38, 0),                        // max p=38
        (-p38, 38, 0),                       // min p=38
        (p38, 38, 38),                       // 0.999...9
        (-1, 38, 38),                        // -1E-38
        (1, 38, 37),                         // 1E-37
        (9, 1, 0),                           // DECIMAL(1,0)
        (-9, 1, 1),                          // -0.9
        (0, 38, 0),                          // 0
        (0, 5, 5),                           // 0.00000
        (1_000_000_000_000_000_000, 38, 10), // 100000000.0000000000
        (123_456_789_000, 20, 3),            // 123456789.000
        (-1, 20, 6),                         // -0.000001
        (1, 20, 8),                          // 1E-8
    ];
    let cols = rows
        .iter()
        .enumerate()
        .map(|(i, &(v, p, s))| (format!("d{i:02}_{p}_{s}"), decimal(&[Some(v), None], p, s)))
        .collect::<Vec<_>>();
    batch(cols.iter().map(|(n, a)| (n.as_str(), a.clone())).collect())
}

fn decimals(c: &mut Vec<Case>) {
    // Every entry of the decimal table. Plain off (default) and on; versions 1.20 / 2.x come from the
    // golden sets (flink-1.20-jdk25 vs flink-2.2/2.3).
    c.push(case("decimal_table", &[], vec![decimal_table_batch()]));
    c.push(case(
        "decimal_table_plain",
        &[("encode.decimal-as-plain-number", "true")],
        vec![decimal_table_batch()],
    ));
    // Decimals in nested types.
    let d = decimal(&[Some(100), None, Some(-50)], 10, 2);
    let b = || {
        batch(vec![
            ("l", list(d.clone(), &[3], &[true])),
            (
                "m",
                map(
                    strs(&[Some("a"), Some("b"), Some("c")]),
                    d.clone(),
                    &[3],
                    &[true],
                ),
            ),
        ])
    };
    c.push(case("decimal_nested", &[], vec![b()]));
    c.push(case(
        "decimal_nested_plain",
        &[("encode.decimal-as-plain-number", "true")],
        vec![b()],
    ));
}

/// Instants for the timestamp cases as (epoch seconds, nanos).
fn instants() -> Vec<(i64, u32)> {
    let t = 1_704_164_645; // 2024-01-02T03:04:05
    vec![
        (t, 123_456_789),
        (t, 123_456_000),
        (t, 123_000_000),
        (t, 500_000_000),
        (t, 120_000_000),
        (t, 100_000_000),
        (t, 100_000),
        (t, 1000),
        (t, 100),
        (t, 0),
        (0, 0),
        (-2, 500_000_000),       // millis -1500 -> 1969-12-31 23:59:58.5
        (-1, 999_000_000),       // millis -1
        (-1, 999_500_000),       // millis -1 + 500,000 ns -> 23:59:59.9995
        (-1, 999_000_500),       // millis -1 + 500 ns -> 23:59:59.9990005
        (day_secs(-719_528), 0), // 0000-01-01
        (day_secs(-719_529) + 86_399, 999_999_999), // -0001-12-31T23:59:59.999999999
        (day_secs(-719_893), 0), // -0001-01-01
        (day_secs(2_932_897), 0), // +10000-01-01
        (day_secs(2_932_896) + 86_399, 999_999_999), // 9999-12-31T23:59:59.999999999
        (-2_208_988_800, 250_000_000), // 1900-01-01T00:00:00.25
        (day_secs(-25_567) - 1, 0), // 1899-12-31T23:59:59
        (day_secs(-4_371_588), 0), // about -9999-01-01
        (day_secs(-719_162), 1), // 0001-01-01 + 1 ns
    ]
}

fn timestamp_batch() -> RecordBatch {
    let col = |unit: TimeUnit, tz: Option<&str>| -> ArrayRef {
        let v: Vec<Option<i64>> = instants()
            .into_iter()
            .map(|(s, n)| instant_in(unit, s, n))
            .chain([None])
            .collect();
        match unit {
            TimeUnit::Second => ts::<TimestampSecondType>(v, tz),
            TimeUnit::Millisecond => ts::<TimestampMillisecondType>(v, tz),
            TimeUnit::Microsecond => ts::<TimestampMicrosecondType>(v, tz),
            TimeUnit::Nanosecond => ts::<TimestampNanosecondType>(v, tz),
        }
    };
    let units = [
        TimeUnit::Second,
        TimeUnit::Millisecond,
        TimeUnit::Microsecond,
        TimeUnit::Nanosecond,
    ];
    let names = ["s", "ms", "us", "ns"];
    let mut cols: Vec<(String, ArrayRef)> = Vec::new();
    for (u, n) in units.iter().zip(names) {
        cols.push((format!("ts_{n}"), col(*u, None)));
        cols.push((format!("ltz_{n}_utc"), col(*u, Some("+00:00"))));
        cols.push((format!("ltz_{n}_ist"), col(*u, Some("+05:30"))));
        cols.push((format!("ltz_{n}_pst"), col(*u, Some("-08:00"))));
    }
    batch(cols.iter().map(|(n, a)| (n.as_str(), a.clone())).collect())
}

fn temporal(c: &mut Vec<Case>) {
    // TIMESTAMP / TIMESTAMP_LTZ, every unit, with and without zone, fractions, pre-epoch, years 0/-1/+10000;
    // both timestamp standards.
    c.push(case("timestamps_sql", &[], vec![timestamp_batch()]));
    c.push(case(
        "timestamps_iso8601",
        &[("timestamp-format.standard", "ISO-8601")],
        vec![timestamp_batch()],
    ));
    // A named zone (arrow-json needs chrono-tz for it; Flink ignores the zone).
    let us = 1_704_164_645_123_456i64;
    let named = || {
        batch(vec![
            (
                "utc",
                ts::<TimestampMicrosecondType>(vec![Some(us), None], Some("UTC")),
            ),
            (
                "paris",
                ts::<TimestampMillisecondType>(
                    vec![Some(us / 1000), Some(-1)],
                    Some("Europe/Paris"),
                ),
            ),
        ])
    };
    c.push(case("timestamps_named_zone", &[], vec![named()]));
    c.push(case(
        "timestamps_named_zone_iso",
        &[("timestamp-format.standard", "ISO-8601")],
        vec![named()],
    ));

    // DATE from Date32 and Date64, years 0, -1 and 10000 included.
    let days = [
        0i64, -1, 1, 19_724, -719_528, -719_529, -719_893, 2_932_896, 2_932_897, -25_567,
        -4_371_588, 11_016,
    ];
    let d32: Vec<Option<i32>> = days.iter().map(|d| Some(*d as i32)).chain([None]).collect();
    let d64: Vec<Option<i64>> = days
        .iter()
        .zip([
            0i64, 1, 86_399_999, 3_723_000, 0, 86_399_999, 5, 43_200_000, 0, 1, 0, 999,
        ])
        .map(|(d, ms)| Some(d * 86_400_000 + ms))
        .chain([Some(-1), Some(-86_400_001)])
        .chain([None])
        .collect();
    let mut d32 = d32;
    d32.extend([Some(-1), Some(-2)]);
    c.push(case(
        "dates",
        &[],
        vec![batch(vec![
            ("d32", prim::<Date32Type>(d32)),
            ("d64", prim::<Date64Type>(d64)),
        ])],
    ));
    // Dates far from the epoch (Flink's LocalDate range is wider than chrono's).
    c.push(case(
        "dates_far",
        &[],
        vec![batch(vec![(
            "d32",
            prim::<Date32Type>(vec![Some(i32::MAX), Some(i32::MIN), Some(100_000_000)]),
        )])],
    ));

    // TIME: every unit, fractions (Flink 2.2 drops them, 2.3 keeps millis).
    c.push(case(
        "times",
        &[],
        vec![batch(vec![
            (
                "t32_s",
                prim::<Time32SecondType>(vec![
                    Some(0),
                    Some(1),
                    Some(45_296),
                    Some(86_399),
                    Some(59),
                    None,
                ]),
            ),
            (
                "t32_ms",
                prim::<Time32MillisecondType>(vec![
                    Some(45_296_789),
                    Some(1),
                    Some(86_399_999),
                    Some(45_296_000),
                    Some(500),
                    None,
                ]),
            ),
            (
                "t64_us",
                prim::<Time64MicrosecondType>(vec![
                    Some(45_296_789_123),
                    Some(1),
                    Some(86_399_999_999),
                    Some(1000),
                    Some(45_296_100_000),
                    None,
                ]),
            ),
            (
                "t64_ns",
                prim::<Time64NanosecondType>(vec![
                    Some(45_296_789_123_456),
                    Some(1),
                    Some(86_399_999_999_999),
                    Some(1_000_000),
                    Some(45_296_120_000_000),
                    None,
                ]),
            ),
        ])],
    ));
    // Negative TIME values: what Flink does with them is whatever the goldens say (error or text).
    c.push(case(
        "times_negative",
        &[],
        vec![batch(vec![(
            "t",
            prim::<Time32MillisecondType>(vec![Some(-1)]),
        )])],
    ));
}

fn intervals_and_binary(c: &mut Vec<Case>) {
    // INTERVAL YEAR TO MONTH / DAY TO SECOND, Duration of every unit (floored to millis).
    let idt = |d, m| Some(IntervalDayTime::new(d, m));
    c.push(case(
        "intervals",
        &[],
        vec![batch(vec![
            (
                "ym",
                prim::<IntervalYearMonthType>(vec![
                    Some(14),
                    Some(-1),
                    Some(0),
                    Some(i32::MAX),
                    Some(i32::MIN),
                    None,
                ]),
            ),
            (
                "dt",
                prim::<IntervalDayTimeType>(vec![
                    idt(1, 3_661_001),
                    idt(-1, 0),
                    idt(0, -1),
                    idt(i32::MAX, i32::MAX),
                    idt(i32::MIN, i32::MIN),
                    None,
                ]),
            ),
            (
                "dur_s",
                prim::<DurationSecondType>(vec![
                    Some(90_061),
                    Some(-1),
                    Some(0),
                    Some(i64::MAX / 1000),
                    Some(i64::MIN / 1000),
                    None,
                ]),
            ),
            (
                "dur_ms",
                prim::<DurationMillisecondType>(vec![
                    Some(90_061_001),
                    Some(-1),
                    Some(0),
                    Some(i64::MAX),
                    Some(i64::MIN),
                    None,
                ]),
            ),
            (
                "dur_us",
                prim::<DurationMicrosecondType>(vec![
                    Some(90_061_001_001),
                    Some(-1),
                    Some(999),
                    Some(i64::MAX),
                    Some(i64::MIN),
                    None,
                ]),
            ),
            (
                "dur_ns",
                prim::<DurationNanosecondType>(vec![
                    Some(1),
                    Some(-1),
                    Some(1_000_000),
                    Some(i64::MAX),
                    Some(i64::MIN),
                    None,
                ]),
            ),
        ])],
    ));
    // BINARY: standard Base64 with padding, no line breaks.
    let all: Vec<u8> = (0..=255).collect();
    let zeros = vec![0u8; 60];
    let long = vec![0xfbu8; 10_000];
    let vals: Vec<Option<&[u8]>> = vec![
        Some(&[]),
        Some(&[0, 1]),
        Some(&[0xfb, 0xff, 0xbf]),
        Some(&zeros),
        Some(&all),
        Some(&[0xff]),
        Some(&[0xff, 0xff]),
        Some(&[0xff, 0xff, 0xff]),
        Some(&[0xff, 0xff, 0xff, 0xff]),
        Some(&long),
        None,
    ];
    let fixed: Vec<Option<&[u8]>> = vec![
        Some(&[0, 1, 2]),
        Some(&[0xfb, 0xff, 0xbf]),
        Some(&[0, 0, 0]),
        None,
    ];
    c.push(case(
        "binary",
        &[],
        vec![batch(vec![
            ("b", arc(BinaryArray::from_opt_vec(vals.clone()))),
            ("lb", arc(LargeBinaryArray::from_opt_vec(vals))),
        ])],
    ));
    c.push(case(
        "fixed_binary",
        &[],
        vec![batch(vec![("f", fixed_binary(&fixed, 3))])],
    ));
}

/// Nested types: nested rows in arrays, maps with duplicate keys and null values, empty map/array/row.
fn nested_batch() -> RecordBatch {
    // List<Int32>: [1,null,3], [], null (with hidden elements), [7].
    let l = list(
        i32s(&[Some(1), None, Some(3), Some(9), Some(7)]),
        &[3, 0, 1, 1],
        &[true, true, false, true],
    );
    // List<List<Utf8>>: [["x"],null], [], null, [[]]
    let inner = list(strs(&[Some("x")]), &[1, 0, 0], &[true, false, true]);
    let ll = list(inner, &[2, 0, 0, 1], &[true, true, false, true]);
    // List<Struct{q}>: [{"q":1},null], [{"q":null}], null, []
    let qs = strukt(
        vec![("q", i32s(&[Some(1), Some(5), None]))],
        &[true, false, true],
    );
    let lq = list(qs, &[2, 1, 0, 0], &[true, true, false, true]);
    // LargeList<Utf8>, FixedSizeList<Int64, 2>
    let lls = large_list(
        strs(&[Some("a"), None, Some("\u{1F600}")]),
        &[2, 0, 1, 0],
        &[true, true, true, false],
    );
    let fl = fixed_list(
        prim::<Int64Type>(vec![
            Some(1),
            None,
            Some(3),
            Some(4),
            Some(5),
            Some(6),
            None,
            None,
        ]),
        2,
        &[true, true, false, true],
    );
    // Map<Utf8, Int32>: {b:2,a:1,n:null,b:3} (duplicate b), {} (empty), null, {a:1,a:null}
    let mk = strs(&[
        Some("b"),
        Some("a"),
        Some("n"),
        Some("b"),
        Some("z"),
        Some("a"),
        Some("a"),
    ]);
    let mv = i32s(&[Some(2), Some(1), None, Some(3), Some(0), Some(1), None]);
    let m = map(mk, mv, &[4, 0, 1, 2], &[true, true, false, true]);
    // Map<Utf8, List<Int32>>, Map<Utf8, Struct>, Map<Utf8, Map<Utf8, Utf8>>
    let ml = map(
        strs(&[Some("l"), Some("e"), Some("n")]),
        list(i32s(&[Some(1), Some(2)]), &[2, 0, 0], &[true, true, false]),
        &[3, 0, 0, 0],
        &[true, true, true, false],
    );
    let ms = map(
        strs(&[Some("r"), Some("r")]),
        strukt(
            vec![
                ("x", i32s(&[Some(1), None])),
                ("y", strs(&[None, Some("y")])),
            ],
            &[true, true],
        ),
        &[0, 2, 0, 0],
        &[true, true, false, true],
    );
    let mm = map(
        strs(&[Some("outer"), Some("dup"), Some("dup")]),
        map(
            strs(&[Some("in"), Some("in")]),
            strs(&[Some("v1"), Some("v2")]),
            &[2, 0, 0],
            &[true, true, false],
        ),
        &[1, 2, 0, 0],
        &[true, true, true, true],
    );
    // Struct{z, a, m: Map, l: List}: {z:1,a:null,...}, null struct, ...
    let s = strukt(
        vec![
            ("z", i32s(&[Some(1), Some(2), None, Some(4)])),
            ("a", strs(&[None, Some("a"), None, Some("")])),
            (
                "m",
                map(
                    strs(&[Some("k")]),
                    i32s(&[None]),
                    &[1, 0, 0, 0],
                    &[true, true, false, true],
                ),
            ),
            (
                "l",
                list(i32s(&[]), &[0, 0, 0, 0], &[true, false, true, true]),
            ),
        ],
        &[true, true, false, true],
    );
    batch(vec![
        ("l", l),
        ("ll", ll),
        ("lq", lq),
        ("lls", lls),
        ("fl", fl),
        ("m", m),
        ("ml", ml),
        ("ms", ms),
        ("mm", mm),
        ("s", s),
    ])
}

/// Depth 3+: List<Struct{m: Map<Utf8, List<Struct{x, y}>>}>.
fn deep_batch() -> RecordBatch {
    let xy = strukt(
        vec![
            ("x", i32s(&[Some(1), None, Some(3)])),
            ("y", strs(&[Some("y\u{1}"), Some("\u{1F600}"), None])),
        ],
        &[true, true, false],
    );
    let lxy = list(xy, &[2, 1, 0], &[true, true, false]);
    let m = map(
        strs(&[Some("a"), Some("b"), Some("a")]),
        lxy,
        &[2, 1],
        &[true, true],
    );
    let s = strukt(vec![("m", m)], &[true, false]);
    let l = list(s, &[2, 0], &[true, true]);
    batch(vec![("deep", l)])
}

fn nested(c: &mut Vec<Case>) {
    // Nested types and their nulls (list null elements, empty {} and []).
    c.push(case("nested", &[], vec![nested_batch()]));
    c.push(case(
        "nested_ignore_nulls",
        &[("encode.ignore-null-fields", "true")],
        vec![nested_batch()],
    ));
    c.push(case("nested_deep", &[], vec![deep_batch()]));
    c.push(case(
        "nested_deep_ignore_nulls",
        &[("encode.ignore-null-fields", "true")],
        vec![deep_batch()],
    ));
    // A row type without fields is written {}.
    let empty = arc(StructArray::new_empty_fields(
        3,
        nulls(&[true, false, true]),
    ));
    c.push(case(
        "empty_row",
        &[],
        vec![batch(vec![
            ("e", empty),
            ("i", i32s(&[Some(1), Some(2), None])),
        ])],
    ));
}

fn nulls_batch() -> RecordBatch {
    // Nulls in a top-level field, a nested row's field, a nested row itself, an array element, a map value; a
    // row of all nulls.
    let inner = strukt(
        vec![("c", i32s(&[None, Some(1), None]))],
        &[true, true, false],
    );
    let s = strukt(
        vec![("a", i32s(&[None, Some(2), None])), ("b", inner)],
        &[true, true, false],
    );
    let l = list(
        i32s(&[None, Some(1), None]),
        &[1, 2, 0],
        &[true, true, false],
    );
    let m = map(
        strs(&[Some("k"), Some("j")]),
        i32s(&[None, Some(1)]),
        &[1, 1, 0],
        &[true, true, false],
    );
    let ls = list(
        strukt(vec![("q", i32s(&[None, Some(1)]))], &[true, false]),
        &[2, 0, 0],
        &[true, true, false],
    );
    batch(vec![
        ("top", i32s(&[None, Some(1), None])),
        ("s", s),
        ("l", l),
        ("m", m),
        ("ls", ls),
        ("str", strs(&[None, Some(""), None])),
    ])
}

fn nulls_cases(c: &mut Vec<Case>) {
    // Nulls at every level.
    c.push(case("nulls_default", &[], vec![nulls_batch()]));
    c.push(case(
        "nulls_ignore",
        &[("encode.ignore-null-fields", "true")],
        vec![nulls_batch()],
    ));
}

fn layout_batch() -> RecordBatch {
    batch(vec![
        ("a", i32s(&[Some(1), Some(2), None, Some(4)])),
        ("b", strs(&[Some("x"), None, None, Some("\u{1F600}")])),
        (
            "c",
            prim::<Float64Type>(vec![Some(1.5), Some(1.0e7), None, None]),
        ),
        (
            "d",
            list(i32s(&[Some(1)]), &[1, 0, 0, 0], &[true, true, false, true]),
        ),
    ])
}

fn upsert_batch(prefix: &str) -> RecordBatch {
    let id = format!("{prefix}id");
    let region = format!("{prefix}region");
    batch(vec![
        (
            "v",
            strs(&[Some("a"), Some("b"), Some("c"), Some("d"), Some("e"), None]),
        ),
        (
            "op",
            strs(&[
                Some("+I"),
                Some("-U"),
                Some("+U"),
                Some("-D"),
                Some("+I"),
                Some("-D"),
            ]),
        ),
        (
            id.as_str(),
            prim::<Int64Type>(vec![Some(1), Some(1), Some(1), Some(1), Some(2), None]),
        ),
        (
            region.as_str(),
            strs(&[Some("eu"), Some("eu"), Some("us"), Some("us"), None, None]),
        ),
    ])
}

fn layout(c: &mut Vec<Case>) {
    // No key (null key bytes).
    c.push(case("layout_no_key", &[], vec![layout_batch()]));
    // key.fields order differs from table order, ALL (key columns in both).
    c.push(case(
        "layout_key_order_all",
        &[("key.fields", "c;a")],
        vec![layout_batch()],
    ));
    c.push(case(
        "layout_key_order_all_explicit",
        &[("key.fields", "d;b;a"), ("value.fields-include", "ALL")],
        vec![layout_batch()],
    ));
    // EXCEPT_KEY.
    c.push(case(
        "layout_except_key",
        &[
            ("key.fields", "b;a"),
            ("value.fields-include", "EXCEPT_KEY"),
        ],
        vec![layout_batch()],
    ));
    // Prefix stripping with EXCEPT_KEY.
    let prefixed = || {
        batch(vec![
            ("k_id", i32s(&[Some(1), None])),
            ("name", strs(&[Some("n"), None])),
            ("k_region", strs(&[Some("eu"), Some("us")])),
            ("id", i32s(&[Some(9), Some(8)])),
        ])
    };
    c.push(case(
        "layout_prefix",
        &[
            ("key.fields", "k_region;k_id"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "EXCEPT_KEY"),
        ],
        vec![prefixed()],
    ));
    // Every column a key column with EXCEPT_KEY: the value is the empty row {}.
    c.push(case(
        "layout_value_empty",
        &[
            ("key.fields", "a;b;c;d"),
            ("value.fields-include", "EXCEPT_KEY"),
        ],
        vec![layout_batch()],
    ));
    // All-null key: still an object ({"a":null,"b":null}, or {} with ignore-null-fields), never a null key.
    let null_key = || {
        batch(vec![
            ("a", i32s(&[None, None])),
            ("b", strs(&[None, None])),
            ("v", i32s(&[Some(1), None])),
        ])
    };
    c.push(case(
        "layout_all_null_key",
        &[("key.fields", "a;b")],
        vec![null_key()],
    ));
    c.push(case(
        "layout_all_null_key_ignore",
        &[("key.fields", "a;b"), ("encode.ignore-null-fields", "true")],
        vec![null_key()],
    ));
    // Nested key columns.
    c.push(case(
        "layout_nested_key",
        &[("key.fields", "s;m")],
        vec![nested_key_batch()],
    ));
    // Upsert row kinds +I/-U/+U/-D with tombstones (key kept).
    c.push(case(
        "layout_upsert_all",
        &[("key.fields", "id"), ("changelog.row-kind-column", "op")],
        vec![upsert_batch("")],
    ));
    c.push(case(
        "layout_upsert_except_key",
        &[
            ("key.fields", "region;id"),
            ("value.fields-include", "EXCEPT_KEY"),
            ("changelog.row-kind-column", "op"),
        ],
        vec![upsert_batch(""), upsert_batch("")],
    ));
    c.push(case(
        "layout_upsert_prefix",
        &[
            ("key.fields", "k_id;k_region"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "EXCEPT_KEY"),
            ("changelog.row-kind-column", "op"),
            ("encode.ignore-null-fields", "true"),
        ],
        vec![upsert_batch("k_")],
    ));
}

fn nested_key_batch() -> RecordBatch {
    batch(vec![
        ("v", i32s(&[Some(1), Some(2)])),
        (
            "s",
            strukt(
                vec![
                    ("x", i32s(&[Some(1), None])),
                    ("y", strs(&[None, Some("y")])),
                ],
                &[true, false],
            ),
        ),
        (
            "m",
            map(
                strs(&[Some("k"), Some("k")]),
                i32s(&[Some(1), Some(2)]),
                &[2, 0],
                &[true, true],
            ),
        ),
    ])
}

fn errors(c: &mut Vec<Case>) {
    // Cases Flink rejects: the golden is an .error file and our encoder must fail too.
    // A column of the NULL type.
    c.push(case(
        "err_null_type",
        &[],
        vec![batch(vec![
            ("n", arc(NullArray::new(2))),
            ("i", i32s(&[Some(1), None])),
        ])],
    ));
    // A map with a non-string key.
    let m = map(
        i32s(&[Some(1), Some(2)]),
        strs(&[Some("a"), None]),
        &[2],
        &[true],
    );
    c.push(case("err_map_int_key", &[], vec![batch(vec![("m", m)])]));
    // Same, nested inside a list.
    let m2 = map(i32s(&[Some(1)]), strs(&[Some("a")]), &[1], &[true]);
    c.push(case(
        "err_map_int_key_nested",
        &[],
        vec![batch(vec![("l", list(m2, &[1], &[true]))])],
    ));
    // key.fields-prefix needs value.fields-include = EXCEPT_KEY.
    c.push(case(
        "err_prefix_with_all",
        &[("key.fields", "k_id"), ("key.fields-prefix", "k_")],
        vec![batch(vec![
            ("k_id", i32s(&[Some(1)])),
            ("v", i32s(&[Some(2)])),
        ])],
    ));
    // A key field must have the prefix.
    c.push(case(
        "err_prefix_missing",
        &[
            ("key.fields", "id"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "EXCEPT_KEY"),
        ],
        vec![batch(vec![
            ("id", i32s(&[Some(1)])),
            ("v", i32s(&[Some(2)])),
        ])],
    ));
    // Flink's RowType rejects whitespace-only field names (Java Character.isWhitespace: U+2028 counts).
    c.push(case(
        "err_whitespace_field_name",
        &[],
        vec![batch(vec![
            ("\u{2028}", i32s(&[Some(1)])),
            ("v", i32s(&[Some(2)])),
        ])],
    ));
    c.push(case(
        "err_blank_field_name",
        &[],
        vec![batch(vec![(" ", i32s(&[Some(1)]))])],
    ));
    // A key field that is not in the schema.
    c.push(case(
        "err_key_missing",
        &[("key.fields", "nope")],
        vec![batch(vec![("a", i32s(&[Some(1)]))])],
    ));
    // A timestamp in seconds whose milliseconds overflow 64 bits.
    c.push(case(
        "err_ts_seconds_overflow",
        &[],
        vec![batch(vec![(
            "t",
            ts::<TimestampSecondType>(vec![Some(i64::MAX / 10)], None),
        )])],
    ));
    // TIME outside one day.
    c.push(case(
        "err_time_out_of_day",
        &[],
        vec![batch(vec![(
            "t",
            prim::<Time32MillisecondType>(vec![Some(86_400_000)]),
        )])],
    ));
    c.push(case(
        "err_time_out_of_day_ns",
        &[],
        vec![batch(vec![(
            "t",
            prim::<Time64NanosecondType>(vec![Some(86_400_000_000_000)]),
        )])],
    ));
    // Unknown and null row kinds.
    let bad_kind = |kind: Option<&str>| {
        batch(vec![
            ("op", strs(&[Some("+I"), kind])),
            ("id", i32s(&[Some(1), Some(2)])),
        ])
    };
    c.push(case(
        "err_row_kind_unknown",
        &[("key.fields", "id"), ("changelog.row-kind-column", "op")],
        vec![bad_kind(Some("X"))],
    ));
    c.push(case(
        "err_row_kind_null",
        &[("key.fields", "id"), ("changelog.row-kind-column", "op")],
        vec![bad_kind(None)],
    ));
    // Invalid option values that Flink's own option validation rejects.
    c.push(case(
        "err_timestamp_standard_case",
        &[("timestamp-format.standard", "iso-8601")],
        vec![batch(vec![("a", i32s(&[Some(1)]))])],
    ));
    c.push(case(
        "err_map_null_key_mode",
        &[("map-null-key.mode", "KEEP")],
        vec![batch(vec![("a", i32s(&[Some(1)]))])],
    ));
}

// ---------------------------------------------------------------------------------------------------------
// Plain-only cases: types arrow-json writes but Flink mode rejects (not in the golden corpus).
// ---------------------------------------------------------------------------------------------------------

/// Cases only the plain-mode parity test uses (the golden harness cannot read them).
pub fn plain_only() -> Vec<Case> {
    use arrow_array::types::IntervalMonthDayNanoType;
    use arrow_array::{DictionaryArray, StringViewArray, UInt64Array};
    let dict = DictionaryArray::<Int32Type>::try_new(
        PrimitiveArray::<Int32Type>::from(vec![Some(0), Some(1), None, Some(0)]),
        strs(&[Some("a"), None]),
    )
    .expect("dictionary");
    vec![
        // UInt64 above i64::MAX.
        case(
            "plain_uint64",
            &[],
            vec![batch(vec![(
                "u",
                arc(UInt64Array::from(vec![Some(u64::MAX), Some(0), None])),
            )])],
        ),
        // A NULL column (arrow-json omits it / writes null).
        case(
            "plain_null",
            &[],
            vec![batch(vec![
                ("n", arc(NullArray::new(2))),
                ("i", i32s(&[Some(1), None])),
            ])],
        ),
        // Interval MonthDayNano.
        case(
            "plain_interval_mdn",
            &[],
            vec![batch(vec![(
                "iv",
                prim::<IntervalMonthDayNanoType>(vec![
                    Some(arrow_buffer::IntervalMonthDayNano::new(1, 2, 3)),
                    None,
                ]),
            )])],
        ),
        // A dictionary whose null rows point at a null value slot (valid keys).
        case(
            "plain_dictionary_null_value",
            &[],
            vec![batch(vec![("d", arc(dict))])],
        ),
        // Utf8View with every escape class.
        case(
            "plain_utf8_view",
            &[],
            vec![batch(vec![("v", {
                let s = special_strings();
                arc(StringViewArray::from_iter(
                    s.iter().map(|x| Some(x.as_str())).chain([None]),
                ))
            })])],
        ),
        // Map with a non-string key (arrow-json rejects it too).
        case(
            "plain_map_int_key",
            &[],
            vec![batch(vec![(
                "m",
                map(i32s(&[Some(1)]), strs(&[Some("a")]), &[1], &[true]),
            )])],
        ),
    ]
}

// ---------------------------------------------------------------------------------------------------------
// Seeded random corpus
// ---------------------------------------------------------------------------------------------------------

/// splitmix64: small, fast, good enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        let v = (u128::from(self.next_u64()) * span) >> 64;
        (lo as i128 + v as i128) as i64
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A random element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Random cases: `cases` cases of `rows` rows each, split into 1 to 3 batches.
pub fn random(seed: u64, cases: usize, rows: usize) -> Vec<Case> {
    let mut r = Rng::new(seed);
    (0..cases)
        .map(|i| random_case(&mut r, &format!("random_{i:03}"), rows))
        .collect()
}

/// One random case: schema, options, layout and rows.
pub fn random_case(r: &mut Rng, name: &str, rows: usize) -> Case {
    let ncols = 1 + r.below(6) as usize;
    let types: Vec<DataType> = (0..ncols).map(|_| random_type(r, 0)).collect();
    let mut options: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: &str| options.push((k.to_owned(), v.to_owned()));
    if r.chance(50) {
        set(
            "timestamp-format.standard",
            if r.chance(50) { "ISO-8601" } else { "SQL" },
        );
    }
    if r.chance(40) {
        set(
            "encode.ignore-null-fields",
            if r.chance(70) { "true" } else { "false" },
        );
    }
    if r.chance(50) {
        set(
            "encode.decimal-as-plain-number",
            if r.chance(70) { "true" } else { "false" },
        );
    }
    if r.chance(20) {
        let mode = *r.pick(&["FAIL", "DROP", "LITERAL", "drop", "Literal"]);
        set("map-null-key.mode", mode);
        if r.chance(50) {
            let lit = random_string(r, 4);
            set("map-null-key.literal", &lit);
        }
    }
    // Layout: 0 no key, 1 key ALL, 2 key EXCEPT_KEY, 3 prefix + EXCEPT_KEY, 4 upsert.
    let layout = r.below(5);
    let mut key_cols: Vec<usize> = Vec::new();
    if layout > 0 {
        let mut idx: Vec<usize> = (0..ncols).collect();
        // Shuffle, then take 1..=ncols columns: key order differs from table order.
        for i in (1..idx.len()).rev() {
            idx.swap(i, r.below(i as u64 + 1) as usize);
        }
        key_cols = idx[..1 + r.below(ncols as u64) as usize].to_vec();
    }
    let prefix = layout == 3 || (layout == 4 && r.chance(30));
    let names: Vec<String> = (0..ncols)
        .map(|i| {
            if key_cols.contains(&i) {
                if prefix {
                    format!("k_c{i}")
                } else {
                    format!("c{i}")
                }
            } else if r.chance(25) {
                format!("c{i}{}", random_name_suffix(r))
            } else {
                format!("c{i}")
            }
        })
        .collect();
    if layout > 0 {
        let k: Vec<&str> = key_cols.iter().map(|&i| names[i].as_str()).collect();
        set("key.fields", &k.join(";"));
    }
    if layout == 2 || prefix || (layout == 4 && r.chance(50)) {
        set("value.fields-include", "EXCEPT_KEY");
    } else if layout == 1 && r.chance(30) {
        set("value.fields-include", "ALL");
    }
    if prefix {
        set("key.fields-prefix", "k_");
    }
    let upsert = layout == 4;
    if upsert {
        set("changelog.row-kind-column", "op");
    }

    // Split rows into 1..=3 batches.
    let nb = 1 + r.below(3) as usize;
    let mut sizes = vec![rows / nb; nb];
    sizes[0] += rows % nb;
    let null_rate = *r.pick(&[0u64, 5, 20, 50]);
    let batches = sizes
        .into_iter()
        .map(|n| {
            let mut cols: Vec<(String, ArrayRef)> = Vec::new();
            if upsert {
                let kinds: Vec<Option<&str>> = (0..n)
                    .map(|_| Some(*r.pick(&["+I", "-U", "+U", "-D", "+I"])))
                    .collect();
                cols.push(("op".to_owned(), strs(&kinds)));
            }
            for (name, dt) in names.iter().zip(&types) {
                cols.push((name.clone(), random_array(r, dt, n, null_rate)));
            }
            batch(cols.iter().map(|(n, a)| (n.as_str(), a.clone())).collect())
        })
        .collect();
    Case {
        name: name.to_owned(),
        options,
        batches,
    }
}

fn random_name_suffix(r: &mut Rng) -> String {
    r.pick(&[
        "\"q",
        "\\",
        "\u{1}",
        "\u{1F600}",
        "\u{2028}",
        "\u{85}",
        "/",
        " sp",
        "\u{10FFFF}",
        "\u{1f}\u{7f}",
    ])
    .to_string()
}

/// A random Arrow type the golden harness reads, nested up to depth 3.
pub fn random_type(r: &mut Rng, depth: usize) -> DataType {
    if depth < 3 && r.chance(if depth == 0 { 40 } else { 30 }) {
        let child = |r: &mut Rng| random_type(r, depth + 1);
        return match r.below(6) {
            0 => DataType::List(item(&child(r))),
            1 => DataType::LargeList(item(&child(r))),
            2 => DataType::FixedSizeList(item(&child(r)), 1 + r.below(3) as i32),
            3 | 4 => {
                let n = 1 + r.below(3) as usize;
                let fields: Vec<Field> = (0..n)
                    .map(|i| {
                        let name = if r.chance(30) {
                            format!("f{i}{}", random_name_suffix(r))
                        } else {
                            format!("f{i}")
                        };
                        Field::new(name, child(r), true)
                    })
                    .collect();
                DataType::Struct(Fields::from(fields))
            }
            _ => {
                let entries = Fields::from(vec![
                    Field::new("key", DataType::Utf8, false),
                    Field::new("value", child(r), true),
                ]);
                DataType::Map(
                    Arc::new(Field::new("entries", DataType::Struct(entries), false)),
                    false,
                )
            }
        };
    }
    random_leaf(r)
}

fn random_leaf(r: &mut Rng) -> DataType {
    use DataType as D;
    let tz = |r: &mut Rng| -> Option<Arc<str>> {
        match r.below(5) {
            0 | 1 => None,
            2 => Some("+00:00".into()),
            3 => Some("+05:30".into()),
            _ => Some("-08:00".into()),
        }
    };
    let unit = |r: &mut Rng| {
        *r.pick(&[
            TimeUnit::Second,
            TimeUnit::Millisecond,
            TimeUnit::Microsecond,
            TimeUnit::Nanosecond,
        ])
    };
    match r.below(28) {
        0 => D::Boolean,
        1 => D::Int8,
        2 => D::Int16,
        3 => D::Int32,
        4 => D::Int64,
        5 => D::UInt8,
        6 => D::UInt16,
        7 => D::UInt32,
        8 => D::Float16,
        9 | 10 => D::Float32,
        11 | 12 => D::Float64,
        13 | 14 => {
            let p = 1 + r.below(38) as u8;
            let s = r.below(u64::from(p) + 1) as i8;
            D::Decimal128(p, s)
        }
        15 | 16 => D::Utf8,
        17 => D::LargeUtf8,
        18 => D::Binary,
        19 => D::LargeBinary,
        20 => D::FixedSizeBinary(1 + r.below(8) as i32),
        21 => D::Date32,
        22 => D::Date64,
        23 => {
            if r.chance(50) {
                D::Time32(*r.pick(&[TimeUnit::Second, TimeUnit::Millisecond]))
            } else {
                D::Time64(*r.pick(&[TimeUnit::Microsecond, TimeUnit::Nanosecond]))
            }
        }
        24 | 25 => D::Timestamp(unit(r), tz(r)),
        26 => D::Duration(unit(r)),
        _ => D::Interval(if r.chance(50) {
            IntervalUnit::YearMonth
        } else {
            IntervalUnit::DayTime
        }),
    }
}

fn validity(r: &mut Rng, len: usize, null_rate: u64) -> Vec<bool> {
    (0..len).map(|_| !r.chance(null_rate)).collect()
}

fn opt<T>(r: &mut Rng, null_rate: u64, f: impl FnOnce(&mut Rng) -> T) -> Option<T> {
    if r.chance(null_rate) {
        None
    } else {
        Some(f(r))
    }
}

fn prims<T: ArrowPrimitiveType>(
    r: &mut Rng,
    len: usize,
    null_rate: u64,
    mut f: impl FnMut(&mut Rng) -> T::Native,
) -> PrimitiveArray<T> {
    (0..len)
        .map(|_| opt(r, null_rate, &mut f))
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

/// An integer biased to the extremes of `lo..=hi`.
fn int_in(r: &mut Rng, lo: i64, hi: i64) -> i64 {
    match r.below(8) {
        0 => lo,
        1 => hi,
        2 => 0.clamp(lo, hi),
        3 => r.range(-2, 2).clamp(lo, hi),
        4 => r.range(lo.max(-1000), hi.min(1000)),
        _ => r.range(lo, hi),
    }
}

/// A random double: any bit pattern, the specials, Java-sensitive ranges, subnormals, "nice" decimals.
pub fn random_f64(r: &mut Rng) -> f64 {
    match r.below(9) {
        0 | 1 => f64::from_bits(r.next_u64()),
        2 => *r.pick(&special_f64()),
        3 => {
            // [1e16, 1e19): JDK <= 18 prints 18 digits for many of these.
            (1.0 + r.below(1 << 52) as f64 / (1u64 << 52) as f64 * 9.0)
                * 10f64.powi(16 + r.below(3) as i32)
        }
        4 => f64::from_bits(r.below(1 << 52)) * if r.chance(50) { -1.0 } else { 1.0 },
        5 => r.range(-1_000_000_000, 1_000_000_000) as f64 / 10f64.powi(r.below(12) as i32),
        6 => (r.below(1 << 53) as f64 / (1u64 << 53) as f64) * 10f64.powi(r.range(-30, 30) as i32),
        7 => {
            // Near the 1e-3 and 1e7 layout boundaries.
            let base: f64 = *r.pick(&[1.0e-3, 1.0e7, -1.0e-3, -1.0e7]);
            f64::from_bits(base.to_bits().wrapping_add_signed(r.range(-3, 3)))
        }
        _ => r.range(-100_000, 100_000) as f64,
    }
}

/// A random float, as [`random_f64`].
pub fn random_f32(r: &mut Rng) -> f32 {
    match r.below(8) {
        0 | 1 => f32::from_bits(r.next_u64() as u32),
        2 => *r.pick(&special_f32()),
        3 => {
            (1.0 + r.below(1 << 23) as f32 / (1u32 << 23) as f32 * 9.0)
                * 10f32.powi(7 + r.below(12) as i32)
        }
        4 => f32::from_bits(r.below(1 << 23) as u32) * if r.chance(50) { -1.0 } else { 1.0 },
        5 => r.range(-1_000_000, 1_000_000) as f32 / 10f32.powi(r.below(7) as i32),
        6 => {
            let base = *r.pick(&[1.0e-3f32, 1.0e7, -1.0e-3, -1.0e7]);
            f32::from_bits(base.to_bits().wrapping_add_signed(r.range(-3, 3) as i32))
        }
        _ => r.range(-100_000, 100_000) as f32 / 8.0,
    }
}

/// A random unscaled value with at most `p` digits: extremes, zero, powers of ten, trailing zeros, random.
fn random_decimal(r: &mut Rng, p: u8) -> i128 {
    let max = 10i128.pow(u32::from(p)) - 1;
    let sign = if r.chance(40) { -1 } else { 1 };
    sign * match r.below(6) {
        0 => max,
        1 => 0,
        2 => 10i128.pow(r.below(u64::from(p)) as u32),
        3 => {
            let digits = 1 + r.below(u64::from(p)) as u32;
            let mut v = 0i128;
            for _ in 0..digits {
                v = v * 10 + r.below(10) as i128;
            }
            v
        }
        4 => {
            let zeros = r.below(u64::from(p)) as u32;
            let head = 1 + r.below(99) as i128;
            head.checked_mul(10i128.pow(zeros)).unwrap_or(max).min(max)
        }
        _ => (r.below(1000) as i128).min(max),
    }
}

/// A random string from every escape class, occasionally long.
pub fn random_string(r: &mut Rng, max_pieces: u64) -> String {
    let mut s = String::new();
    let pieces = if r.chance(2) {
        200 + r.below(2000)
    } else {
        r.below(max_pieces + 1)
    };
    for _ in 0..pieces {
        match r.below(10) {
            0 => s.push(char::from(r.below(0x20) as u8)),
            1 => s.push(*r.pick(&[
                '"', '\\', '/', '\u{7f}', '<', '>', '&', '\'', '\u{8}', '\t', '\n', '\u{c}', '\r',
            ])),
            2 => s.push(char::from_u32(0x80 + r.below(0x20) as u32).expect("C1")),
            3 => s.push(*r.pick(&[
                '\u{2028}', '\u{2029}', '\u{feff}', '\u{ffff}', '\u{fffe}', '\u{a0}', '\u{e9}',
                '\u{d7ff}', '\u{e000}',
            ])),
            4 => {
                // Any BMP scalar value outside the surrogates.
                let c = loop {
                    if let Some(c) = char::from_u32(0x80 + r.below(0xff80) as u32) {
                        break c;
                    }
                };
                s.push(c);
            }
            5 => {
                s.push(char::from_u32(0x10000 + r.below(0x10_0000) as u32).expect("supplementary"))
            }
            6 => s.push(*r.pick(&['\u{1F600}', '\u{10000}', '\u{10FFFF}'])),
            _ => {
                let n = 1 + r.below(8);
                for _ in 0..n {
                    s.push(char::from(0x20 + r.below(0x5f) as u8));
                }
            }
        }
    }
    s
}

fn random_bytes(r: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| r.next_u64() as u8).collect()
}

/// Epoch seconds within years -9999..=9999.
fn random_epoch_secs(r: &mut Rng) -> i64 {
    const LO: i64 = -4_371_587 * 86_400; // about -9999-01-02
    const HI: i64 = 2_932_896 * 86_400 + 86_399; // 9999-12-31T23:59:59
    match r.below(6) {
        0 => *r.pick(&[LO, HI, 0, -1, 1, -62_167_219_200, 253_402_214_400]),
        1 => r.range(-3_000_000_000, 3_000_000_000),
        _ => r.range(LO, HI),
    }
}

/// Sub-second nanos with trailing-zero patterns (.5, .12, .000001, ...).
fn random_nanos(r: &mut Rng) -> u32 {
    let n = r.below(1_000_000_000) as u32;
    match r.below(5) {
        0 => 0,
        1 => n / 100_000_000 * 100_000_000,
        2 => n / 1_000_000 * 1_000_000,
        3 => n / 1000 * 1000,
        _ => n,
    }
}

/// A random array of `dt` (one the golden harness reads), `len` rows, nulls at about `null_rate` percent at
/// this level and below.
pub fn random_array(r: &mut Rng, dt: &DataType, len: usize, null_rate: u64) -> ArrayRef {
    use DataType as D;
    let nr = null_rate;
    match dt {
        D::Boolean => arc((0..len)
            .map(|_| opt(r, nr, |r| r.chance(50)))
            .collect::<BooleanArray>()),
        D::Int8 => arc(prims::<Int8Type>(r, len, nr, |r| {
            int_in(r, i8::MIN.into(), i8::MAX.into()) as i8
        })),
        D::Int16 => arc(prims::<Int16Type>(r, len, nr, |r| {
            int_in(r, i16::MIN.into(), i16::MAX.into()) as i16
        })),
        D::Int32 => arc(prims::<Int32Type>(r, len, nr, |r| {
            int_in(r, i32::MIN.into(), i32::MAX.into()) as i32
        })),
        D::Int64 => arc(prims::<Int64Type>(r, len, nr, |r| {
            int_in(r, i64::MIN, i64::MAX)
        })),
        D::UInt8 => arc(prims::<UInt8Type>(r, len, nr, |r| {
            int_in(r, 0, u8::MAX.into()) as u8
        })),
        D::UInt16 => arc(prims::<UInt16Type>(r, len, nr, |r| {
            int_in(r, 0, u16::MAX.into()) as u16
        })),
        D::UInt32 => arc(prims::<UInt32Type>(r, len, nr, |r| {
            int_in(r, 0, u32::MAX.into()) as u32
        })),
        D::Float16 => {
            let bits: Vec<Option<u16>> = (0..len)
                .map(|_| opt(r, nr, |r| r.next_u64() as u16))
                .collect();
            f16_bits(&bits)
        }
        D::Float32 => arc(prims::<Float32Type>(r, len, nr, random_f32)),
        D::Float64 => arc(prims::<Float64Type>(r, len, nr, random_f64)),
        D::Decimal128(p, s) => {
            let (p, s) = (*p, *s);
            let v: Vec<Option<i128>> = (0..len)
                .map(|_| opt(r, nr, |r| random_decimal(r, p)))
                .collect();
            decimal(&v, p, s)
        }
        D::Utf8 | D::LargeUtf8 => {
            let v: Vec<Option<String>> = (0..len)
                .map(|_| opt(r, nr, |r| random_string(r, 12)))
                .collect();
            let v: Vec<Option<&str>> = v.iter().map(Option::as_deref).collect();
            if matches!(dt, D::Utf8) {
                strs(&v)
            } else {
                large_strs(&v)
            }
        }
        D::Binary | D::LargeBinary => {
            let v: Vec<Option<Vec<u8>>> = (0..len)
                .map(|_| {
                    opt(r, nr, |r| {
                        let n = r.below(24) as usize;
                        random_bytes(r, n)
                    })
                })
                .collect();
            let v: Vec<Option<&[u8]>> = v.iter().map(Option::as_deref).collect();
            if matches!(dt, D::Binary) {
                arc(BinaryArray::from_opt_vec(v))
            } else {
                arc(LargeBinaryArray::from_opt_vec(v))
            }
        }
        D::FixedSizeBinary(n) => {
            let v: Vec<Option<Vec<u8>>> = (0..len)
                .map(|_| opt(r, nr, |r| random_bytes(r, *n as usize)))
                .collect();
            let v: Vec<Option<&[u8]>> = v.iter().map(Option::as_deref).collect();
            fixed_binary(&v, *n)
        }
        D::Date32 => arc(prims::<Date32Type>(r, len, nr, |r| {
            (random_epoch_secs(r).div_euclid(86_400)) as i32
        })),
        D::Date64 => arc(prims::<Date64Type>(r, len, nr, |r| {
            let ms = random_epoch_secs(r) * 1000;
            if r.chance(30) {
                ms + r.range(0, 999)
            } else {
                ms.div_euclid(86_400_000) * 86_400_000
            }
        })),
        D::Time32(TimeUnit::Second) => arc(prims::<Time32SecondType>(r, len, nr, |r| {
            int_in(r, 0, 86_399) as i32
        })),
        D::Time32(_) => arc(prims::<Time32MillisecondType>(r, len, nr, |r| {
            int_in(r, 0, 86_399_999) as i32
        })),
        D::Time64(TimeUnit::Microsecond) => arc(prims::<Time64MicrosecondType>(r, len, nr, |r| {
            int_in(r, 0, 86_399) * 1_000_000 + i64::from(random_nanos(r) / 1000)
        })),
        D::Time64(_) => arc(prims::<Time64NanosecondType>(r, len, nr, |r| {
            int_in(r, 0, 86_399) * 1_000_000_000 + i64::from(random_nanos(r))
        })),
        D::Timestamp(unit, tz) => {
            let unit = *unit;
            let v: Vec<Option<i64>> = (0..len)
                .map(|_| {
                    opt(r, nr, |r| loop {
                        let (s, n) = (random_epoch_secs(r), random_nanos(r));
                        if let Some(v) = instant_in(unit, s, n) {
                            break v;
                        }
                    })
                })
                .collect();
            let tz = tz.as_deref();
            match unit {
                TimeUnit::Second => ts::<TimestampSecondType>(v, tz),
                TimeUnit::Millisecond => ts::<TimestampMillisecondType>(v, tz),
                TimeUnit::Microsecond => ts::<TimestampMicrosecondType>(v, tz),
                TimeUnit::Nanosecond => ts::<TimestampNanosecondType>(v, tz),
            }
        }
        D::Duration(TimeUnit::Second) => arc(prims::<DurationSecondType>(r, len, nr, |r| {
            int_in(r, i64::MIN / 1000, i64::MAX / 1000)
        })),
        D::Duration(TimeUnit::Millisecond) => {
            arc(prims::<DurationMillisecondType>(r, len, nr, |r| {
                int_in(r, i64::MIN, i64::MAX)
            }))
        }
        D::Duration(TimeUnit::Microsecond) => {
            arc(prims::<DurationMicrosecondType>(r, len, nr, |r| {
                int_in(r, i64::MIN, i64::MAX)
            }))
        }
        D::Duration(TimeUnit::Nanosecond) => {
            arc(prims::<DurationNanosecondType>(r, len, nr, |r| {
                int_in(r, i64::MIN, i64::MAX)
            }))
        }
        D::Interval(IntervalUnit::YearMonth) => {
            arc(prims::<IntervalYearMonthType>(r, len, nr, |r| {
                int_in(r, i32::MIN.into(), i32::MAX.into()) as i32
            }))
        }
        D::Interval(_) => arc(prims::<IntervalDayTimeType>(r, len, nr, |r| {
            IntervalDayTime::new(
                int_in(r, i32::MIN.into(), i32::MAX.into()) as i32,
                int_in(r, i32::MIN.into(), i32::MAX.into()) as i32,
            )
        })),
        D::List(f) | D::LargeList(f) => {
            let valid = validity(r, len, nr);
            let lengths: Vec<usize> = valid
                .iter()
                .map(|v| {
                    if *v || r.chance(20) {
                        r.below(5) as usize
                    } else {
                        0
                    }
                })
                .collect();
            let total = lengths.iter().sum();
            let values = random_array(r, f.data_type(), total, nr);
            if matches!(dt, D::List(_)) {
                list(values, &lengths, &valid)
            } else {
                large_list(values, &lengths, &valid)
            }
        }
        D::FixedSizeList(f, n) => {
            let valid = validity(r, len, nr);
            let values = random_array(r, f.data_type(), len * *n as usize, nr);
            fixed_list(values, *n, &valid)
        }
        D::Struct(fields) => {
            let valid = validity(r, len, nr);
            let children: Vec<ArrayRef> = fields
                .iter()
                .map(|f| random_array(r, f.data_type(), len, nr))
                .collect();
            arc(
                StructArray::try_new_with_length(fields.clone(), children, nulls(&valid), len)
                    .expect("struct"),
            )
        }
        D::Map(entries, _) => {
            let D::Struct(kv) = entries.data_type() else {
                unreachable!("map entries are a struct")
            };
            let valid = validity(r, len, nr);
            let lengths: Vec<usize> = valid
                .iter()
                .map(|v| {
                    if *v || r.chance(20) {
                        r.below(5) as usize
                    } else {
                        0
                    }
                })
                .collect();
            let total: usize = lengths.iter().sum();
            // A small key pool makes duplicate keys in one map likely.
            let pool: Vec<String> = (0..3).map(|_| random_string(r, 3)).collect();
            let keys: Vec<String> = (0..total)
                .map(|_| {
                    if r.chance(60) {
                        r.pick(&pool).clone()
                    } else {
                        random_string(r, 6)
                    }
                })
                .collect();
            let keys: Vec<Option<&str>> = keys.iter().map(|s| Some(s.as_str())).collect();
            let values = random_array(r, kv[1].data_type(), total, nr);
            map(strs(&keys), values, &lengths, &valid)
        }
        other => panic!("random_array: {other} is not generated"),
    }
}

// ---------------------------------------------------------------------------------------------------------
// java.util.Properties text
// ---------------------------------------------------------------------------------------------------------

fn escape_properties(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{c}' => out.push_str("\\f"),
            '=' | ':' | '#' | '!' | ' ' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
        }
    }
}

/// The options as `java.util.Properties` text (ASCII, every special character escaped).
pub fn properties_text(options: &[(String, String)]) -> String {
    let mut out = String::from("# streamfusion-json parity corpus case options\n");
    for (k, v) in options {
        escape_properties(&mut out, k);
        out.push('=');
        escape_properties(&mut out, v);
        out.push('\n');
    }
    out
}

/// Parses `java.util.Properties` text as [`properties_text`] writes it (and simple hand-written files:
/// `#`/`!` comments, `=`/`:` separators, backslash escapes, `\uXXXX` with surrogate pairs). Keeps order.
pub fn parse_properties(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let mut key = Vec::<u16>::new();
        let mut value = Vec::<u16>::new();
        let mut in_key = true;
        let mut chars = line.chars().peekable();
        let mut skipping_sep = false;
        while let Some(c) = chars.next() {
            let target = if in_key { &mut key } else { &mut value };
            if skipping_sep {
                if c == ' ' || c == '\t' {
                    continue;
                }
                skipping_sep = false;
            }
            match c {
                '\\' => {
                    let e = chars.next().unwrap_or('\\');
                    let ch = match e {
                        'n' => '\n',
                        'r' => '\r',
                        't' => '\t',
                        'f' => '\u{c}',
                        'u' => {
                            let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                            let unit = u16::from_str_radix(&hex, 16).expect("\\u escape");
                            target.push(unit);
                            continue;
                        }
                        other => other,
                    };
                    let mut b = [0u16; 2];
                    target.extend_from_slice(ch.encode_utf16(&mut b));
                }
                '=' | ':' if in_key => {
                    in_key = false;
                    skipping_sep = true;
                }
                ' ' | '\t' if in_key => {
                    in_key = false;
                    skipping_sep = true;
                    // A following '=' or ':' is the separator too.
                    while let Some(&n) = chars.peek() {
                        if n == ' ' || n == '\t' {
                            chars.next();
                        } else {
                            if n == '=' || n == ':' {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                other => {
                    let mut b = [0u16; 2];
                    target.extend_from_slice(other.encode_utf16(&mut b));
                }
            }
        }
        out.push((
            String::from_utf16(&key).expect("utf-16 key"),
            String::from_utf16(&value).expect("utf-16 value"),
        ));
    }
    out
}

/// The schema of a case's batches.
pub fn schema_of(case: &Case) -> Arc<Schema> {
    case.batches[0].schema()
}
