//! API-level behaviour on bad input and structural invariants: unsupported types rejected at plan time with
//! the field and type named, schema mismatches, option typos, missing key fields, `EncodedRecords` offset
//! invariants, sliced batches, and random valid arrays that must never panic in either mode.

#[path = "support/corpus.rs"]
mod corpus;

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{
    DataType, Field, Fields, IntervalUnit, Schema, SchemaRef, UnionFields, UnionMode,
};
use streamfusion_json::{EncodedRecords, EncoderOptions, Error, JsonEncoder};

fn flink() -> JsonEncoder {
    JsonEncoder::new(EncoderOptions::default()).expect("default options")
}

fn plain() -> JsonEncoder {
    JsonEncoder::new(EncoderOptions::from_pairs([("mode", "plain")]).expect("plain"))
        .expect("plain encoder")
}

fn schema(fields: Vec<Field>) -> SchemaRef {
    Arc::new(Schema::new(fields))
}

fn string_map(key: DataType) -> DataType {
    let entries = Fields::from(vec![
        Field::new("key", key, false),
        Field::new("value", DataType::Utf8, true),
    ]);
    DataType::Map(
        Arc::new(Field::new("entries", DataType::Struct(entries), false)),
        false,
    )
}

/// The plan rejects `dt` (as field `bad`, or nested as `outer.bad`) with an error naming the field and type.
fn assert_rejected(dt: DataType) {
    let top = schema(vec![
        Field::new("ok", DataType::Int32, true),
        Field::new("bad", dt.clone(), true),
    ]);
    match flink().plan(&top) {
        Err(Error::UnsupportedType {
            field, data_type, ..
        }) => {
            assert_eq!(field, "bad");
            assert_eq!(data_type, dt);
        }
        other => panic!("{dt}: expected UnsupportedType, got {other:?}"),
    }
    let message = flink().plan(&top).unwrap_err().to_string();
    assert!(
        message.contains("bad") && message.contains(&dt.to_string()),
        "{message}"
    );
    let nested = schema(vec![Field::new(
        "outer",
        DataType::Struct(Fields::from(vec![Field::new("bad", dt.clone(), true)])),
        true,
    )]);
    match flink().plan(&nested) {
        Err(Error::UnsupportedType { field, .. }) => assert_eq!(field, "outer.bad"),
        other => panic!("nested {dt}: expected UnsupportedType, got {other:?}"),
    }
}

#[test]
fn unsupported_types_are_rejected_when_planning() {
    assert_rejected(string_map(DataType::Int32)); // map with non-string keys
    assert_rejected(DataType::Null);
    assert_rejected(DataType::UInt64);
    assert_rejected(DataType::Interval(IntervalUnit::MonthDayNano));
    let union = UnionFields::try_new(
        vec![0, 1],
        vec![
            Field::new("i", DataType::Int32, true),
            Field::new("s", DataType::Utf8, true),
        ],
    )
    .expect("union fields");
    assert_rejected(DataType::Union(union, UnionMode::Dense));
    // A non-string map key inside a list is found too.
    let in_list = schema(vec![Field::new(
        "l",
        DataType::List(Arc::new(Field::new(
            "item",
            string_map(DataType::Int64),
            true,
        ))),
        true,
    )]);
    assert!(matches!(
        flink().plan(&in_list),
        Err(Error::UnsupportedType { .. })
    ));
    // Plain mode: arrow-json rejects a Union and non-string map keys.
    let union_schema = schema(vec![Field::new(
        "u",
        DataType::Union(
            UnionFields::try_new(vec![0], vec![Field::new("i", DataType::Int32, true)])
                .expect("union"),
            UnionMode::Sparse,
        ),
        true,
    )]);
    assert!(plain().plan(&union_schema).is_err());
}

fn int_batch(name: &str, values: &[i32]) -> RecordBatch {
    RecordBatch::try_from_iter([(
        name,
        Arc::new(Int32Array::from(values.to_vec())) as ArrayRef,
    )])
    .expect("batch")
}

#[test]
fn another_schema_is_a_schema_mismatch_naming_the_field() {
    for mut encoder in [flink(), plain()] {
        let a = RecordBatch::try_from_iter([
            ("id", Arc::new(Int32Array::from(vec![1])) as ArrayRef),
            ("name", Arc::new(StringArray::from(vec!["a"])) as ArrayRef),
        ])
        .unwrap();
        let b = RecordBatch::try_from_iter([
            ("id", Arc::new(Int32Array::from(vec![1])) as ArrayRef),
            ("name", Arc::new(Int64Array::from(vec![1])) as ArrayRef),
        ])
        .unwrap();
        encoder.encode(&a).expect("first batch");
        match encoder.encode(&b) {
            Err(Error::SchemaMismatch { field, .. }) => assert_eq!(field, "name"),
            other => panic!("expected SchemaMismatch, got {other:?}"),
        }
        // Same types, other name.
        match encoder.encode(&int_batch("other", &[1])) {
            Err(Error::SchemaMismatch { .. }) => {}
            other => panic!("expected SchemaMismatch, got {other:?}"),
        }
        // The planned schema still works afterwards.
        assert_eq!(encoder.encode(&a).expect("same schema again").len(), 1);
    }
}

#[test]
fn option_typos_and_bad_values_are_rejected() {
    let bad: &[(&str, &str)] = &[
        ("key.field", "a"),
        ("timestamp-format", "SQL"),
        ("json.timestamp-format.standard", "SQL"),
        ("timestamp-format.standard", "sql"),
        ("timestamp-format.standard", "ISO8601"),
        ("map-null-key.mode", "KEEP"),
        ("encode.ignore-null-fields", "yes"),
        ("encode.decimal-as-plain-number", "1"),
        ("value.fields-include", "NONE"),
        ("flink.version", "3.0"),
        ("mode", "Plain"),
        ("plain.explicit-nulls", "on"),
    ];
    for (k, v) in bad {
        match EncoderOptions::from_pairs([(*k, *v)]) {
            Err(Error::InvalidOption { key, .. }) => assert_eq!(key, *k),
            other => panic!("{k}={v}: expected InvalidOption, got {other:?}"),
        }
    }
    // Combinations Flink rejects.
    assert!(
        EncoderOptions::from_pairs([("key.fields", "a"), ("key.fields-prefix", "k_")]).is_err()
    );
    assert!(EncoderOptions::from_pairs([
        ("flink.version", "1.19"),
        ("encode.ignore-null-fields", "true")
    ])
    .is_err());
    assert!(EncoderOptions::from_pairs([("changelog.row-kind-column", "op")]).is_err());
}

#[test]
fn a_missing_key_field_is_a_layout_error() {
    for mode in ["flink", "plain"] {
        let options =
            EncoderOptions::from_pairs([("mode", mode), ("key.fields", "id;nope")]).unwrap();
        let mut encoder = JsonEncoder::new(options).unwrap();
        match encoder.encode(&int_batch("id", &[1])) {
            Err(Error::InvalidLayout(message)) => assert!(message.contains("nope"), "{message}"),
            other => panic!("{mode}: expected InvalidLayout, got {other:?}"),
        }
        // A prefix the key field lacks.
        let options = EncoderOptions::from_pairs([
            ("mode", mode),
            ("key.fields", "id"),
            ("key.fields-prefix", "k_"),
            ("value.fields-include", "EXCEPT_KEY"),
        ])
        .unwrap();
        assert!(matches!(
            JsonEncoder::new(options)
                .unwrap()
                .encode(&int_batch("id", &[1])),
            Err(Error::InvalidLayout(_))
        ));
    }
}

/// Offsets and lengths as the JVM receives them: negative length = null, offsets monotone, the slab is the
/// concatenation of the present records.
fn check_invariants(records: &EncodedRecords, rows: usize) {
    assert_eq!(records.len(), rows);
    for (offsets, lengths, slab) in [
        (records.key_offsets(), records.key_lengths(), records.keys()),
        (
            records.value_offsets(),
            records.value_lengths(),
            records.values(),
        ),
    ] {
        assert_eq!(offsets.len(), rows);
        assert_eq!(lengths.len(), rows);
        let mut expected_offset = 0i64;
        for (&o, &l) in offsets.iter().zip(lengths) {
            assert!(l >= -1, "length {l}");
            assert_eq!(
                i64::from(o),
                expected_offset,
                "offsets are contiguous and monotone"
            );
            expected_offset += i64::from(l.max(0));
        }
        assert_eq!(
            expected_offset as usize,
            slab.len(),
            "slab length = sum of present lengths"
        );
    }
    for row in 0..rows {
        assert_eq!(records.key(row).is_none(), records.key_lengths()[row] < 0);
        assert_eq!(
            records.value(row).is_none(),
            records.value_lengths()[row] < 0
        );
    }
}

#[test]
fn encoded_records_offsets_and_lengths_hold_their_invariants() {
    let mut checked = 0;
    for case in corpus::hand_written()
        .iter()
        .filter(|c| c.name.starts_with("layout_") || c.name.starts_with("nested"))
    {
        for mode in ["flink", "plain"] {
            let mut pairs = case.options.clone();
            pairs.push(("mode".into(), mode.into()));
            let mut encoder = JsonEncoder::new(EncoderOptions::from_pairs(pairs).unwrap()).unwrap();
            let mut reused = EncodedRecords::new();
            for batch in &case.batches {
                let records = encoder
                    .encode(batch)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
                check_invariants(&records, batch.num_rows());
                encoder.encode_into(batch, &mut reused).unwrap();
                assert_eq!(reused, records, "encode_into after reuse equals encode");
                checked += 1;
            }
        }
    }
    assert!(checked >= 20);
    // Upsert: tombstones are null values with the key kept; no key: every key is null.
    let upsert = corpus::hand_written()
        .into_iter()
        .find(|c| c.name == "layout_upsert_all")
        .unwrap();
    let mut encoder =
        JsonEncoder::new(EncoderOptions::from_pairs(upsert.options.clone()).unwrap()).unwrap();
    let records = encoder.encode(&upsert.batches[0]).unwrap();
    assert_eq!(
        records.value_lengths().iter().filter(|l| **l < 0).count(),
        3,
        "-U, -D, -D"
    );
    assert!(records.key_lengths().iter().all(|l| *l >= 0));
    let no_key = corpus::hand_written()
        .into_iter()
        .find(|c| c.name == "layout_no_key")
        .unwrap();
    let records = flink().encode(&no_key.batches[0]).unwrap();
    assert!(records.key_lengths().iter().all(|l| *l == -1));
    assert!(records.keys().is_empty());
}

/// A fixed table of nested data built for rows `range` only (so no array is a slice of a larger one).
fn table(range: std::ops::Range<usize>) -> RecordBatch {
    use corpus::{list, map, strukt};
    let ids: Vec<Option<i64>> = range
        .clone()
        .map(|i| (i % 4 != 3).then_some(i as i64 * 7 - 20))
        .collect();
    let names: Vec<Option<String>> = range
        .clone()
        .map(|i| (i % 5 != 1).then(|| format!("n{i}\u{1}\u{1F600}\"")))
        .collect();
    let lengths: Vec<usize> = range.clone().map(|i| i % 3).collect();
    let total: usize = lengths.iter().sum();
    let elements: Vec<Option<i32>> = range
        .clone()
        .flat_map(|i| (0..i % 3).map(move |j| (j != 1).then_some((i * 10 + j) as i32)))
        .collect();
    let list_valid: Vec<bool> = range.clone().map(|i| i % 6 != 4).collect();
    let keys: Vec<String> = range
        .clone()
        .flat_map(|i| (0..i % 3).map(move |j| format!("k{}", (i + j) % 2)))
        .collect();
    let keys: Vec<Option<&str>> = keys.iter().map(|s| Some(s.as_str())).collect();
    let struct_valid: Vec<bool> = range.clone().map(|i| i % 7 != 2).collect();
    let elements = Arc::new(Int32Array::from(elements)) as ArrayRef;
    assert_eq!(elements.len(), total);
    RecordBatch::try_from_iter_with_nullable([
        ("id", Arc::new(Int64Array::from(ids)) as ArrayRef, true),
        (
            "name",
            Arc::new(StringArray::from(names.clone())) as ArrayRef,
            true,
        ),
        ("l", list(elements.clone(), &lengths, &list_valid), true),
        (
            "m",
            map(
                Arc::new(StringArray::from(keys)),
                elements,
                &lengths,
                &list_valid,
            ),
            true,
        ),
        (
            "s",
            strukt(
                vec![
                    (
                        "a",
                        Arc::new(Int64Array::from(
                            range.clone().map(|i| Some(i as i64)).collect::<Vec<_>>(),
                        )) as ArrayRef,
                    ),
                    ("b", Arc::new(StringArray::from(names)) as ArrayRef),
                ],
                &struct_valid,
            ),
            true,
        ),
    ])
    .expect("table")
}

#[test]
fn sliced_batches_encode_like_the_same_rows_built_unsliced() {
    let full = table(0..40);
    for (offset, len) in [(0, 40), (3, 5), (7, 20), (39, 1), (10, 0)] {
        let sliced = full.slice(offset, len);
        let built = table(offset..offset + len);
        for options in [
            vec![],
            vec![
                ("key.fields", "s;id"),
                ("encode.ignore-null-fields", "true"),
            ],
            vec![("mode", "plain")],
            vec![
                ("mode", "plain"),
                ("key.fields", "name"),
                ("plain.explicit-nulls", "true"),
            ],
        ] {
            let encode = |batch: &RecordBatch| {
                JsonEncoder::new(EncoderOptions::from_pairs(options.clone()).unwrap())
                    .unwrap()
                    .encode(batch)
                    .unwrap()
            };
            let (a, b) = (encode(&sliced), encode(&built));
            assert_eq!(a.len(), len);
            check_invariants(&a, len);
            for row in 0..len {
                assert_eq!(
                    a.key(row),
                    b.key(row),
                    "slice {offset}+{len} {options:?} row {row} key"
                );
                assert_eq!(
                    a.value(row),
                    b.value(row),
                    "slice {offset}+{len} {options:?} row {row} value"
                );
            }
        }
    }
}

#[test]
fn sliced_random_batches_encode_like_their_ipc_copy() {
    // The IPC writer copies a slice into fresh, offset-0 buffers: an independently built equal batch.
    let mut r = corpus::Rng::new(0x51ce);
    for i in 0..30 {
        let case = corpus::random_case(&mut r, &format!("slice_{i}"), 64);
        let batch = &case.batches[0];
        let (offset, len) = (r.below(batch.num_rows() as u64) as usize, 0);
        let len = len.max(r.below((batch.num_rows() - offset) as u64 + 1) as usize);
        let sliced = batch.slice(offset, len);
        let mut buf = Vec::new();
        {
            let mut w =
                arrow_ipc::writer::StreamWriter::try_new(&mut buf, &sliced.schema()).unwrap();
            w.write(&sliced).unwrap();
            w.finish().unwrap();
        }
        let copy = arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(buf), None)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        for mode in ["flink", "plain"] {
            let mut pairs = case.options.clone();
            pairs.push(("mode".into(), mode.into()));
            let encode = |b: &RecordBatch| {
                JsonEncoder::new(EncoderOptions::from_pairs(pairs.clone()).unwrap())
                    .unwrap()
                    .encode(b)
            };
            match (encode(&sliced), encode(&copy)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{} {mode} slice {offset}+{len}", case.name),
                (Err(_), Err(_)) => {}
                (a, b) => panic!(
                    "{} {mode}: sliced {:?} vs copy {:?}",
                    case.name,
                    a.err(),
                    b.err()
                ),
            }
        }
    }
}

#[test]
fn random_valid_arrays_never_panic() {
    // Any outcome but a panic is fine here; parity is checked elsewhere.
    let mut r = corpus::Rng::new(corpus::DEFAULT_SEED ^ 0xf022);
    let mut encoded = 0;
    for i in 0..150 {
        let rows = 1 + r.below(40) as usize;
        let case = corpus::random_case(&mut r, &format!("fuzz_{i}"), rows);
        for mode in ["flink", "plain"] {
            for extra in [
                vec![],
                vec![("encode.ignore-null-fields", "true")],
                vec![("plain.explicit-nulls", "true")],
            ] {
                let mut pairs = case.options.clone();
                pairs.push(("mode".into(), mode.into()));
                pairs.extend(extra.iter().map(|(k, v)| ((*k).into(), (*v).into())));
                let Ok(options) = EncoderOptions::from_pairs(pairs) else {
                    continue;
                };
                let mut encoder = JsonEncoder::new(options).unwrap();
                for batch in &case.batches {
                    if let Ok(records) = encoder.encode(batch) {
                        check_invariants(&records, batch.num_rows());
                        encoded += 1;
                    }
                    // Slices at random offsets too.
                    let offset = r.below(batch.num_rows() as u64 + 1) as usize;
                    let _ = encoder.encode(&batch.slice(offset, batch.num_rows() - offset));
                }
            }
        }
    }
    assert!(encoded > 500, "only {encoded} batches encoded");
}

/// Top-level Utf8/Binary columns cast to dictionary and view layouts (arrow-cast), nested layouts kept.
fn other_layouts(batch: &RecordBatch) -> Vec<RecordBatch> {
    let targets = |dt: &DataType| -> Vec<DataType> {
        match dt {
            DataType::Utf8 => vec![
                DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
                DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
                DataType::Utf8View,
            ],
            DataType::Binary => vec![DataType::BinaryView],
            _ => vec![],
        }
    };
    let mut out = Vec::new();
    for layout in 0..3 {
        let mut changed = false;
        let columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| match targets(c.data_type()).get(layout) {
                Some(t) => match arrow_cast::cast(c, t) {
                    Ok(n) => {
                        changed = true;
                        n
                    }
                    Err(_) => c.clone(),
                },
                None => c.clone(),
            })
            .collect();
        if changed {
            let fields: Vec<Field> = batch
                .schema()
                .fields()
                .iter()
                .zip(&columns)
                .map(|(f, c)| f.as_ref().clone().with_data_type(c.data_type().clone()))
                .collect();
            out.push(RecordBatch::try_new(schema(fields), columns).expect("cast batch"));
        }
    }
    out
}

#[test]
fn random_dictionary_and_view_layouts_never_panic() {
    let mut r = corpus::Rng::new(corpus::DEFAULT_SEED ^ 0xd1c7);
    for i in 0..100 {
        let rows = 1 + r.below(40) as usize;
        let case = corpus::random_case(&mut r, &format!("fuzz_layout_{i}"), rows);
        for batch in case.batches.iter().flat_map(other_layouts) {
            for mode in ["flink", "plain"] {
                let mut pairs = case.options.clone();
                pairs.push(("mode".into(), mode.into()));
                let Ok(options) = EncoderOptions::from_pairs(pairs) else {
                    continue;
                };
                if let Ok(records) = JsonEncoder::new(options).unwrap().encode(&batch) {
                    check_invariants(&records, batch.num_rows());
                }
            }
        }
    }
}

#[test]
fn dictionary_without_values_does_not_panic() {
    // An all-null Utf8 column cast to a dictionary has no values at all (arrow-cast output); valid Arrow.
    let column: ArrayRef = Arc::new(StringArray::from(vec![None::<&str>, None]));
    let dict = arrow_cast::cast(
        &column,
        &DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    )
    .unwrap();
    let batch = RecordBatch::try_from_iter([("d", dict)]).unwrap();
    let mut panicking = Vec::new();
    for mode in ["flink", "plain"] {
        let options = EncoderOptions::from_pairs([("mode", mode)]).unwrap();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            JsonEncoder::new(options)
                .unwrap()
                .encode(&batch)
                .map(|r| r.len())
        }));
        if result.is_err() {
            panicking.push(mode);
        }
    }
    assert!(
        panicking.is_empty(),
        "{panicking:?} mode(s) panic on a dictionary with no values"
    );
}

#[test]
fn a_batch_whose_smallest_records_pass_a_slab_fails_before_allocating() {
    // No columns, 2^31 rows declared: every value would be at least `{}`, so 2^32 bytes. Before the fix the
    // encoder reserved per-row offsets for all 2^31 rows first (16 GiB) and aborted (docs/reliability.md, Fuzzing,
    // finding 2).
    let rows = 1usize << 31;
    let batch = RecordBatch::try_new_with_options(
        schema(vec![]),
        vec![],
        &arrow_array::RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .unwrap();
    for mut encoder in [flink(), plain()] {
        match encoder.encode(&batch) {
            Err(Error::SlabTooLarge { slab, bytes }) => {
                assert_eq!((slab, bytes), ("value", 2 * rows));
            }
            other => panic!("expected SlabTooLarge, got {other:?}"),
        }
    }
    // A few rows of the same shape encode as empty objects.
    let small = RecordBatch::try_new_with_options(
        schema(vec![]),
        vec![],
        &arrow_array::RecordBatchOptions::new().with_row_count(Some(3)),
    )
    .unwrap();
    let records = flink().encode(&small).unwrap();
    let values: Vec<_> = records.iter().map(|(_, v)| v.unwrap().to_vec()).collect();
    assert_eq!(values, vec![b"{}".to_vec(); 3]);
}

#[test]
fn plain_mode_refuses_a_dictionary_of_null_values_which_arrow_json_cannot_write() {
    let dict_type = DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Null));
    let dict: ArrayRef = Arc::new(arrow_array::DictionaryArray::new(
        arrow_array::Int8Array::from(vec![Some(0), None]),
        Arc::new(arrow_array::NullArray::new(1)),
    ));
    let batch = RecordBatch::try_from_iter([("d", dict.clone())]).unwrap();
    // The reference itself: arrow-json's writer panics on this batch (docs/reliability.md, Fuzzing, finding 3). When
    // it stops panicking, plain mode can follow it and this refusal can go.
    let reference = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut buf = Vec::new();
        let mut writer = arrow_json::LineDelimitedWriter::new(&mut buf);
        writer.write(&batch).and_then(|()| writer.finish())
    }));
    assert!(
        reference.is_err(),
        "arrow-json now writes a dictionary of Null values: {reference:?}"
    );
    match plain().encode(&batch) {
        Err(Error::UnsupportedType { field, reason, .. }) => {
            assert_eq!(field, "d");
            assert!(reason.contains("dictionary of Null values"), "{reason}");
        }
        other => panic!("expected UnsupportedType, got {other:?}"),
    }
    // Nested in a list and as a struct field: found when planning too.
    let nested = [
        DataType::List(Arc::new(Field::new("item", dict_type.clone(), true))),
        DataType::Struct(Fields::from(vec![Field::new("x", dict_type, true)])),
    ];
    for dt in &nested {
        let s = schema(vec![Field::new("n", dt.clone(), true)]);
        assert!(
            matches!(plain().plan(&s), Err(Error::UnsupportedType { ref field, .. }) if field == "n"),
            "{dt}"
        );
    }
    // A map of strings and a dictionary of strings are still planned.
    let fine = schema(vec![
        Field::new("m", string_map(DataType::Utf8), true),
        Field::new_dictionary("s", DataType::Int8, DataType::Utf8, true),
    ]);
    plain().plan(&fine).expect("no dictionary of Null values");
    // Flink mode has no mapping for Null at all: an error too, never a panic.
    assert!(flink().encode(&batch).is_err());
}
