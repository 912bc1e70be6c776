//! The handoffs without a foreign runtime: structs exported and buffers made in Rust, handed over by address as
//! a front end would. All of them run under Miri (`scripts/miri.sh`, with permissive provenance since the
//! addresses arrive as integers).

use std::sync::Arc;

use arrow_array::ffi::{to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};

use super::{Encoder, Handoff, FLAT_WORDS};
use crate::error::{Error, Result};
use crate::{EncodedRecords, EncoderOptions};

fn batch() -> RecordBatch {
    RecordBatch::try_from_iter([
        ("id", Arc::new(Int64Array::from(vec![1, 2])) as _),
        (
            "name",
            Arc::new(StringArray::from(vec![Some("a\"b"), None])) as _,
        ),
    ])
    .expect("batch")
}

fn encoder(pairs: &[(&str, &str)]) -> Encoder {
    Encoder::new(EncoderOptions::from_pairs(pairs.iter().copied()).expect("options"))
        .expect("encoder")
}

/// Exports `batch` as the JVM front end does: one heap `ArrowArray` per column, and its schema.
fn export(batch: &RecordBatch) -> (Vec<FFI_ArrowArray>, Box<FFI_ArrowSchema>) {
    let arrays = batch
        .columns()
        .iter()
        .map(|column| to_ffi(&column.to_data()).expect("export").0)
        .collect();
    let schema = FFI_ArrowSchema::try_from(batch.schema().as_ref()).expect("schema");
    (arrays, Box::new(schema))
}

fn address<T>(b: &mut T) -> usize {
    b as *mut T as usize
}

fn addresses(arrays: &mut [FFI_ArrowArray]) -> Vec<usize> {
    arrays.iter_mut().map(address).collect()
}

fn values(records: &EncodedRecords) -> Vec<Option<Vec<u8>>> {
    records.iter().map(|(_, v)| v.map(<[u8]>::to_vec)).collect()
}

fn encode_with(encoder: &mut Encoder, handoff: Handoff) -> Result<Vec<Option<Vec<u8>>>> {
    encoder.encode(handoff).map(values)
}

/// Encodes `batch` through the C Data Interface; its schema crosses too when `send_schema`.
fn encode_sending(
    encoder: &mut Encoder,
    batch: &RecordBatch,
    send_schema: bool,
) -> Result<Vec<Option<Vec<u8>>>> {
    let (mut arrays, mut schema) = export(batch);
    let schema_address = if send_schema {
        address(&mut *schema)
    } else {
        0
    };
    let rows = batch.num_rows() as i64;
    // SAFETY: freshly exported structs.
    let handoff = unsafe { Handoff::take_c_data(&addresses(&mut arrays), schema_address, rows) }?;
    encode_with(encoder, handoff)
}

fn encode(encoder: &mut Encoder, batch: &RecordBatch) -> Result<Vec<Option<Vec<u8>>>> {
    encode_sending(encoder, batch, true)
}

#[test]
fn round_trip_through_the_c_data_interface() {
    let mut encoder = encoder(&[("key.fields", "id")]);
    let values = encode(&mut encoder, &batch()).expect("encode");
    assert_eq!(
        values,
        vec![
            Some(br#"{"id":1,"name":"a\"b"}"#.to_vec()),
            Some(br#"{"id":2,"name":null}"#.to_vec())
        ]
    );
    // The scratch and the schema that crossed are reused: a second batch without schema, same bytes.
    assert_eq!(
        encode_sending(&mut encoder, &batch(), false).expect("again"),
        values
    );
}

#[test]
fn the_first_batch_must_send_its_schema_and_columns_must_fit_it() {
    let mut encoder = encoder(&[]);
    let first = encode_sending(&mut encoder, &batch(), false).expect_err("no schema yet");
    assert!(
        first.to_string().contains("no schema has crossed"),
        "{first}"
    );
    encode(&mut encoder, &batch()).expect("with schema");
    // One column short of the held schema.
    let (mut arrays, _schema) = export(&batch());
    let mut short = addresses(&mut arrays);
    short.pop();
    // SAFETY: freshly exported structs (the last one stays Rust's and is dropped with `arrays`).
    let handoff = unsafe { Handoff::take_c_data(&short, 0, 2) }.expect("live");
    let count = encode_with(&mut encoder, handoff).expect_err("column count");
    assert!(
        count
            .to_string()
            .contains("1 exported columns for a schema of 2 fields"),
        "{count}"
    );
    // A row count other than the columns' length.
    let (mut arrays, _schema) = export(&batch());
    // SAFETY: freshly exported structs.
    let handoff = unsafe { Handoff::take_c_data(&addresses(&mut arrays), 0, 3) }.expect("live");
    let rows = encode_with(&mut encoder, handoff).expect_err("row count");
    assert!(
        rows.to_string()
            .contains("has 2 values but the root has 3 rows"),
        "{rows}"
    );
}

#[test]
fn take_c_data_leaves_released_structs_and_rejects_them_next_time() {
    let (mut arrays, mut schema) = export(&batch());
    let (a, s) = (addresses(&mut arrays), address(&mut *schema));
    // SAFETY: freshly exported structs.
    let taken = unsafe { Handoff::take_c_data(&a, s, 2) }.expect("live");
    assert!(
        arrays.iter().all(|a| a.is_released()),
        "the caller's structs are left released"
    );
    drop(taken);
    // SAFETY: the structs are still valid memory, now released.
    let again = unsafe { Handoff::take_c_data(&a, s, 2) }.expect_err("released");
    assert!(again.to_string().contains("already released"), "{again}");
    // SAFETY: zero addresses are rejected without a read.
    let null = unsafe { Handoff::take_c_data(&[0], 0, 0) }.expect_err("null");
    assert!(null.to_string().contains("null address"), "{null}");
}

#[test]
fn one_dead_struct_still_releases_the_others() {
    let (mut arrays, mut schema) = export(&batch());
    let mut a = addresses(&mut arrays);
    a.insert(1, 0);
    // SAFETY: fresh structs and one zero address.
    let error =
        unsafe { Handoff::take_c_data(&a, address(&mut *schema), 2) }.expect_err("null column");
    assert!(matches!(error, Error::InvalidHandoff(_)), "{error}");
    assert!(error.to_string().contains("column 1"), "{error}");
    assert!(
        arrays.iter().all(|a| a.is_released()),
        "the live arrays were taken and released"
    );
    // SAFETY: the schema struct is valid memory; it was taken, so it is released now.
    let schema_after =
        unsafe { Handoff::take_c_data(&[], address(&mut *schema), 0) }.expect_err("released");
    assert!(
        schema_after.to_string().contains("already released"),
        "{schema_after}"
    );
    // A negative row count is rejected after the structs are taken.
    let (mut arrays, _schema) = export(&batch());
    // SAFETY: freshly exported structs.
    let negative =
        unsafe { Handoff::take_c_data(&addresses(&mut arrays), 0, -1) }.expect_err("rows");
    assert!(negative.to_string().contains("negative"), "{negative}");
    assert!(arrays.iter().all(|a| a.is_released()));
}

/// The flat handoff's words for `batch`'s columns, as the JVM front end writes them: value count, then
/// address and capacity of the validity bitmap and of the layout's buffers. Columns without nulls get an
/// all-valid bitmap (Arrow Java vectors always have one); the bitmaps are kept alive in `bitmaps`.
fn flat_words(batch: &RecordBatch, bitmaps: &mut Vec<Buffer>) -> Vec<i64> {
    let mut words = Vec::new();
    for column in batch.columns() {
        let data = column.to_data();
        let bitmap = match data.nulls() {
            Some(nulls) => nulls.buffer().clone(),
            None => Buffer::from_vec(vec![0xffu8; data.len().div_ceil(8)]),
        };
        bitmaps.push(bitmap.clone());
        words.push(data.len() as i64);
        words.push(bitmap.as_ptr() as usize as i64);
        words.push(bitmap.len() as i64);
        for b in 0..2 {
            let (address, len) = data.buffers().get(b).map_or((0, 0), |buf| {
                (buf.as_ptr() as usize as i64, buf.len() as i64)
            });
            words.push(address);
            words.push(len);
        }
    }
    words
}

fn encode_flat(
    encoder: &mut Encoder,
    batch: &RecordBatch,
    words: Vec<i64>,
    send_schema: bool,
) -> Result<Vec<Option<Vec<u8>>>> {
    let mut schema = FFI_ArrowSchema::try_from(batch.schema().as_ref()).expect("schema");
    let schema_address = if send_schema { address(&mut schema) } else { 0 };
    // SAFETY: the words describe `batch`'s buffers (and bitmaps kept by the caller), alive meanwhile.
    let handoff = unsafe { Handoff::take_flat(words, schema_address, batch.num_rows() as i64) }?;
    encode_with(encoder, handoff)
}

fn flat_batch() -> RecordBatch {
    use arrow_array::{BooleanArray, LargeStringArray, TimestampMillisecondArray};
    RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from(vec![Some(1), None, Some(3)])) as ArrayRef,
        ),
        (
            "name",
            Arc::new(StringArray::from(vec![Some("a\"b"), Some(""), None])) as _,
        ),
        (
            "ok",
            Arc::new(BooleanArray::from(vec![true, false, true])) as _,
        ),
        (
            "big",
            Arc::new(LargeStringArray::from(vec!["x", "yy", "é"])) as _,
        ),
        (
            "ts",
            Arc::new(TimestampMillisecondArray::from(vec![
                0,
                1_795_910_400_001,
                -1,
            ])) as _,
        ),
    ])
    .expect("batch")
}

#[test]
fn the_flat_handoff_gives_the_c_data_interface_bytes() {
    let batch = flat_batch();
    let mut encoder = encoder(&[("key.fields", "id")]);
    let expected = encode(&mut encoder, &batch).expect("through the C Data Interface");
    let mut bitmaps = Vec::new();
    let words = flat_words(&batch, &mut bitmaps);
    assert_eq!(
        encode_flat(&mut encoder, &batch, words.clone(), false).expect("flat"),
        expected
    );
    assert_eq!(
        encode_flat(&mut encoder, &batch, words, true).expect("flat, schema"),
        expected
    );
    assert_eq!(
        expected[0].as_deref(),
        Some(&br#"{"id":1,"name":"a\"b","ok":true,"big":"x","ts":"1970-01-01 00:00:00"}"#[..])
    );
}

#[test]
fn a_misaligned_buffer_is_copied_not_misread() {
    let batch =
        RecordBatch::try_from_iter([("id", Arc::new(Int64Array::from(vec![7, -8])) as ArrayRef)])
            .expect("batch");
    let mut encoder = encoder(&[]);
    // The values one byte into a buffer: not aligned for i64.
    let mut bytes = [0u8; 17];
    bytes[1..9].copy_from_slice(&7i64.to_le_bytes());
    bytes[9..17].copy_from_slice(&(-8i64).to_le_bytes());
    let bitmap = [0b11u8];
    let words = vec![
        2,
        bitmap.as_ptr() as usize as i64,
        1,
        bytes[1..].as_ptr() as usize as i64,
        16,
        0,
        0,
    ];
    let values = encode_flat(&mut encoder, &batch, words, true).expect("flat");
    assert_eq!(values[1].as_deref(), Some(&br#"{"id":-8}"#[..]));
}

#[test]
fn buffers_longer_than_their_values_by_a_part_of_a_value_are_read_as_their_values() {
    // Capacities one byte past what the values need (not a multiple of the offset or value width), as a
    // corrupt or padded vector may declare: the values are read, nothing past them (a panic before the fix,
    // found by the `ffi_flat` fuzz target).
    let batch = flat_batch();
    let mut encoder = encoder(&[]);
    let expected = encode(&mut encoder, &batch).expect("through the C Data Interface");
    let mut padded: Vec<Vec<u8>> = Vec::new();
    let mut bitmaps = Vec::new();
    let mut words = flat_words(&batch, &mut bitmaps);
    for column in 0..batch.num_columns() {
        let at = column * FLAT_WORDS + 3;
        if words[at] != 0 {
            let len = usize::try_from(words[at + 1]).expect("capacity");
            // SAFETY: the words describe `batch`'s buffers, alive meanwhile, each `len` bytes long.
            let bytes = unsafe { std::slice::from_raw_parts(words[at] as usize as *const u8, len) };
            let mut copy = bytes.to_vec();
            copy.push(0x5a);
            words[at] = copy.as_ptr() as usize as i64;
            words[at + 1] = copy.len() as i64;
            padded.push(copy);
        }
    }
    assert_eq!(
        encode_flat(&mut encoder, &batch, words, false).expect("flat"),
        expected
    );
}

#[test]
fn flat_buffers_that_do_not_fit_their_values_are_rejected() {
    let batch = flat_batch();
    let mut encoder = encoder(&[]);
    encode(&mut encoder, &batch).expect("the schema crosses");
    let mut bitmaps = Vec::new();
    let words = flat_words(&batch, &mut bitmaps);
    let mut fails = |edit: &dyn Fn(&mut Vec<i64>), expected: &str| {
        let mut w = words.clone();
        edit(&mut w);
        let error = encode_flat(&mut encoder, &batch, w, false).expect_err(expected);
        assert!(matches!(error, Error::InvalidHandoff(_)), "{error}");
        assert!(
            error.to_string().contains(expected),
            "{error} lacks {expected}"
        );
    };
    // Column 0 (Int64): data capacity one value short; validity capacity 0.
    fails(
        &|w| w[4] = 16,
        "`id`: its data buffer holds 16 bytes, 24 are needed",
    );
    fails(
        &|w| w[2] = 0,
        "`id`: its validity buffer holds 0 bytes, 1 are needed",
    );
    // Column 1 (Utf8): offsets capacity short; data capacity below the last offset.
    fails(
        &|w| w[FLAT_WORDS + 4] = 12,
        "`name`: its offsets buffer holds 12 bytes, 16 are needed",
    );
    fails(
        &|w| w[FLAT_WORDS + 6] = 2,
        "`name`: offset 1 is negative, decreasing or beyond the 2 data bytes",
    );
    // A value count other than the row count, a null data address, a partial column, a short schema.
    fails(&|w| w[0] = 2, "`id` has 2 values but the root has 3 rows");
    fails(&|w| w[3] = 0, "a buffer of 24 bytes at a null address");
    fails(
        &|w| w.truncate(FLAT_WORDS * 2 + 1),
        "do not describe whole columns",
    );
    fails(
        &|w| w.truncate(FLAT_WORDS * 2),
        "2 exported columns for a schema of 5 fields",
    );
}

#[test]
fn decreasing_offsets_are_rejected_before_any_value_is_read() {
    let batch = RecordBatch::try_from_iter([(
        "s",
        Arc::new(StringArray::from(vec!["ab", "c"])) as ArrayRef,
    )])
    .expect("batch");
    let mut encoder = encoder(&[]);
    let offsets: [i32; 3] = [0, 2, 1];
    let data = b"abc";
    let bitmap = [0b11u8];
    let words = vec![
        2,
        bitmap.as_ptr() as usize as i64,
        1,
        offsets.as_ptr() as usize as i64,
        12,
        data.as_ptr() as usize as i64,
        3,
    ];
    let error = encode_flat(&mut encoder, &batch, words, true).expect_err("decreasing");
    assert!(
        error
            .to_string()
            .contains("offset 2 is negative, decreasing"),
        "{error}"
    );
}

#[test]
fn nested_types_cannot_cross_flat() {
    use arrow_array::types::Int64Type;
    use arrow_array::ListArray;
    let list = ListArray::from_iter_primitive::<Int64Type, _, _>([Some(vec![Some(1)])]);
    let batch = RecordBatch::try_from_iter([("l", Arc::new(list) as ArrayRef)]).expect("batch");
    let mut encoder = encoder(&[]);
    let bitmap = [1u8];
    let words = vec![1, bitmap.as_ptr() as usize as i64, 1, 0, 0, 0, 0];
    let error = encode_flat(&mut encoder, &batch, words, true).expect_err("nested");
    assert!(error.to_string().contains("cannot cross flat"), "{error}");
}

/// Flat words for one Utf8 column over `offsets` and `data`, all valid.
fn utf8_words(offsets: &[i32], data: &[u8], bitmap: &[u8]) -> Vec<i64> {
    vec![
        (offsets.len() - 1) as i64,
        bitmap.as_ptr() as usize as i64,
        bitmap.len() as i64,
        offsets.as_ptr() as usize as i64,
        std::mem::size_of_val(offsets) as i64,
        data.as_ptr() as usize as i64,
        data.len() as i64,
    ]
}

#[test]
fn strings_that_are_not_utf8_are_invalid_values_naming_field_and_row() {
    let batch = RecordBatch::try_from_iter_with_nullable([(
        "s",
        Arc::new(StringArray::from(vec!["ok", "x", "é"])) as ArrayRef,
        true,
    )])
    .expect("batch");
    let mut encoder = encoder(&[]);
    let all = [0b111u8];
    // Row 1 holds 0xff, which starts no UTF-8 sequence.
    let data = b"ok\xffabc\xc3\xa9";
    let error = encode_flat(
        &mut encoder,
        &batch,
        utf8_words(&[0, 2, 6, 8], data, &all),
        true,
    )
    .expect_err("0xff");
    assert!(
        matches!(&error, Error::InvalidValue { field, row: 1, .. } if field == "s"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("not valid UTF-8 (byte 0 of 4, 0xff)"),
        "{error}"
    );
    // A value boundary inside a character: each half is invalid although the whole range is valid.
    let data = "oké".as_bytes();
    let error = encode_flat(
        &mut encoder,
        &batch,
        utf8_words(&[0, 2, 3, 4], data, &all),
        false,
    )
    .expect_err("split character");
    assert!(error.to_string().contains("row 1"), "{error}");
    // Invalid bytes in a null slot are never read, as in Flink.
    let data = b"ok\xff\xc3\xa9";
    let values = encode_flat(
        &mut encoder,
        &batch,
        utf8_words(&[0, 2, 3, 5], data, &[0b101]),
        false,
    )
    .expect("null slot");
    assert_eq!(values[1].as_deref(), Some(&br#"{"s":null}"#[..]));
    assert_eq!(values[2].as_deref(), Some("{\"s\":\"é\"}".as_bytes()));
}

#[test]
fn nested_strings_are_checked_too() {
    use arrow_array::StructArray;
    use arrow_buffer::OffsetBuffer;
    // SAFETY: deliberately invalid UTF-8, which the check below must catch before anything reads it.
    let bad = unsafe {
        StringArray::new_unchecked(
            OffsetBuffer::new(vec![0, 1, 2].into()),
            Buffer::from_vec(b"a\xfe".to_vec()),
            None,
        )
    };
    let inner = StructArray::from(vec![(
        Arc::new(Field::new("x", DataType::Utf8, true)),
        Arc::new(bad) as ArrayRef,
    )]);
    let batch = RecordBatch::try_from_iter([("s", Arc::new(inner) as ArrayRef)]).expect("batch");
    let mut encoder = encoder(&[]);
    let error = encode(&mut encoder, &batch).expect_err("nested 0xfe");
    assert!(error.to_string().contains("field `s.x`, row 1"), "{error}");
}

#[test]
fn a_failed_batch_leaves_the_encoder_usable() {
    let mut encoder = encoder(&[]);
    let expected = encode(&mut encoder, &batch()).expect("first batch plans");
    let other = RecordBatch::try_from_iter([("id", Arc::new(StringArray::from(vec!["x"])) as _)])
        .expect("batch");
    let mismatch = encode(&mut encoder, &other).expect_err("schema mismatch");
    assert!(
        matches!(mismatch, Error::SchemaMismatch { .. }),
        "{mismatch}"
    );
    // The schema that crossed with the failed batch is held now: send the first one again.
    assert_eq!(encode(&mut encoder, &batch()).expect("usable"), expected);
}
