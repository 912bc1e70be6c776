//! The binary-row handoff target's harness: Flink `BinaryRowData` bytes, as the JVM front end hands a batch
//! of rows over ([`Handoff::binary_rows`]), decoded under one of two schemas: [`flat_fields`], the row type
//! of a flat row Flink wrote, and [`nested_fields`], that of a row of nested columns Flink wrote (ARRAY, MAP,
//! MULTISET and ROW, nested in each other, with nulls at every level). The seeds are those two rows
//! (`rust/streamfusion-json/tests/data/flink_binary_row*.hex`), so the fuzzer mutates real layouts: null
//! bits, slots, offsets and sizes of variable-length parts, nested arrays' counts and null bits, maps' key
//! array sizes, inline strings.
//!
//! Input ([`Case::parse`]): byte 0 picks the schema (bit 0), whether a row-kind column follows the fields
//! (bit 1), the encoder's `map-null-key.mode` (bits 2 and 3: FAIL, DROP, LITERAL `null`, LITERAL `k`, a key
//! the seed's maps hold) and whether the schema's DECIMAL and TIMESTAMP(9) fields are read as BIGINT (bit 4:
//! a schema the direct writer of binary rows covers, with the first field as the key and the row-kind column,
//! if any, making tombstones); byte 1 the row count (1 to 4); the rest is the rows' bytes, cut into that many
//! rows of equal length (the last takes the remainder).
//!
//! [`check`] asserts that the import is an error naming what is wrong, or a batch of the schema's types whose
//! arrays pass Arrow's full validation (offsets in bounds, UTF-8, a map's non-null keys), and that the batch
//! encodes in Flink mode without a panic; then that the same rows through an [`Encoder`] with the case's
//! `map-null-key.mode` (which it applies to null map keys as it reads the maps) are records, one per row, or
//! an error naming what is wrong, and the same records or error whether the encoder writes the rows straight
//! from their bytes or through the Arrow import ([`Encoder::with_direct_rows`]). The rows are an owned buffer,
//! so AddressSanitizer reports any read outside it.

use std::sync::Arc;

use arrow_array::ffi::FFI_ArrowSchema;
use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
use streamfusion_json::ffi::{Encoder, Handoff};
use streamfusion_json::{EncoderOptions, JsonEncoder, MapNullKeyMode};

/// One batch: the schema's choice, the row-kind column, and the rows.
#[derive(Debug)]
pub struct Case {
    nested: bool,
    kind_column: bool,
    /// The schema's DECIMAL and TIMESTAMP(9) fields read as BIGINT ([`covered`]).
    covered: bool,
    /// `map-null-key.mode` and `map-null-key.literal` of the [`Encoder`] pass.
    null_keys: (MapNullKeyMode, &'static str),
    data: Vec<u8>,
    offsets: Vec<i32>,
}

impl Case {
    /// Cuts the fuzzer's bytes into a case (the layout in the module docs); `None` for fewer than two bytes.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let (&flags, rest) = bytes.split_first()?;
        let (&count, data) = rest.split_first()?;
        let rows = usize::from(count % 4) + 1;
        let each = data.len() / rows;
        let mut offsets: Vec<i32> = (0..rows).map(|i| (i * each) as i32).collect();
        offsets.push(data.len() as i32);
        Some(Self {
            nested: flags & 1 != 0,
            kind_column: flags & 2 != 0,
            covered: flags & 16 != 0,
            null_keys: [
                (MapNullKeyMode::Fail, "null"),
                (MapNullKeyMode::Drop, "null"),
                (MapNullKeyMode::Literal, "null"),
                (MapNullKeyMode::Literal, "k"),
            ][usize::from(flags >> 2 & 3)],
            data: data.to_vec(),
            offsets,
        })
    }
}

fn field(name: &str, data_type: DataType) -> Field {
    Field::new(name, data_type, true)
}

fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(field("element", item)))
}

fn map_of(key: DataType, value: DataType) -> DataType {
    let entries = Field::new(
        "entries",
        DataType::Struct(Fields::from(vec![
            Field::new("key", key, false),
            field("value", value),
        ])),
        false,
    );
    DataType::Map(Arc::new(entries), false)
}

fn struct_of(fields: Vec<Field>) -> DataType {
    DataType::Struct(Fields::from(fields))
}

/// The Arrow types the front end gives the flat row of `flink_binary_row.hex`: BIGINT, two STRINGs,
/// DECIMAL(10, 2), DECIMAL(38, 6), TIMESTAMP(3), TIMESTAMP(9), BOOLEAN, INT.
pub fn flat_fields() -> Vec<Field> {
    vec![
        field("id", DataType::Int64),
        field("short", DataType::Utf8),
        field("long", DataType::Utf8),
        field("dec10", DataType::Decimal128(10, 2)),
        field("dec38", DataType::Decimal128(38, 6)),
        field("ts3", DataType::Timestamp(TimeUnit::Millisecond, None)),
        field("ts9", DataType::Timestamp(TimeUnit::Nanosecond, None)),
        field("flag", DataType::Boolean),
        field("n", DataType::Int32),
    ]
}

/// The Arrow types the front end gives the nested row of `flink_binary_row_nested.hex`.
pub fn nested_fields() -> Vec<Field> {
    vec![
        field("ints", list_of(DataType::Int32)),
        field("tags", list_of(DataType::Utf8)),
        field("attrs", map_of(DataType::Utf8, DataType::Int64)),
        field(
            "point",
            struct_of(vec![
                field("x", DataType::Float64),
                field("label", DataType::Utf8),
                field("ts", DataType::Timestamp(TimeUnit::Nanosecond, None)),
            ]),
        ),
        field("bag", map_of(DataType::Utf8, DataType::Int32)),
        field(
            "rows",
            list_of(struct_of(vec![field("a", DataType::Int32)])),
        ),
        field("lists", map_of(DataType::Utf8, list_of(DataType::Int64))),
        field("flags", list_of(DataType::Boolean)),
        field("shorts", list_of(DataType::Int16)),
        field("decs", list_of(DataType::Decimal128(38, 2))),
        field("empty", list_of(DataType::Int32)),
        field("none", struct_of(vec![field("y", DataType::Int32)])),
    ]
}

/// `field` with every DECIMAL and TIMESTAMP(9) in it (at any depth) read as BIGINT: types the direct writer
/// of binary rows covers, so that it reads the seeds' layouts (a slot or element read as a `long` whatever it
/// holds, as Flink's `getLong` would).
fn covered(field: &Field) -> Field {
    let data_type = match field.data_type() {
        DataType::Decimal128(..) | DataType::Timestamp(TimeUnit::Nanosecond, _) => DataType::Int64,
        DataType::List(item) => DataType::List(Arc::new(covered(item))),
        DataType::Map(entries, sorted) => DataType::Map(Arc::new(covered(entries)), *sorted),
        DataType::Struct(fields) => {
            DataType::Struct(fields.iter().map(|f| covered(f)).collect::<Fields>())
        }
        other => other.clone(),
    };
    field.clone().with_data_type(data_type)
}

/// Imports the case's rows and checks the outcome (module docs).
pub fn check(case: Case) {
    let mut fields = if case.nested {
        nested_fields()
    } else {
        flat_fields()
    };
    if case.covered {
        fields = fields.iter().map(covered).collect();
    }
    let arity = fields.len() as i32;
    if case.kind_column {
        fields.push(field("kind", DataType::Int8));
    }
    let schema = Schema::new(fields);
    let rows = case.offsets.len() as i64 - 1;
    let handoff = |data: Vec<u8>, offsets: Vec<i32>| {
        let mut exported = FFI_ArrowSchema::try_from(&schema).expect("an exportable schema");
        // SAFETY: `exported` is a fresh export that outlives the call (the schema is imported from it there);
        // the rows are owned values.
        unsafe {
            Handoff::binary_rows(
                data,
                offsets,
                arity,
                &mut exported as *mut FFI_ArrowSchema as usize,
                rows,
            )
        }
        .expect("a valid handoff: a schema, a non-negative arity and row count")
    };
    let (mode, literal) = case.null_keys;
    let mut options = EncoderOptions::default()
        .with_map_null_key_mode(mode)
        .with_map_null_key_literal(literal);
    if case.covered {
        // A key row, and row kinds as tombstones: the direct writer's key writer and its reading of deleted
        // rows (whose values it checks without writing them).
        options = options.with_key_fields([schema.field(0).name().as_str()]);
        if case.kind_column {
            options = options.with_row_kind_column("kind");
        }
    }
    // The same rows written straight from their bytes where the direct writer covers the schema, and
    // through the Arrow import alone: the same records, or the same error.
    let encode = |direct: bool| {
        let mut encoder = Encoder::new(options.clone())
            .expect("Flink mode")
            .with_direct_rows(direct);
        encoder
            .encode(handoff(case.data.clone(), case.offsets.clone()))
            .map(|records| {
                records
                    .iter()
                    .map(|(k, v)| (k.map(<[u8]>::to_vec), v.map(<[u8]>::to_vec)))
                    .collect::<Vec<_>>()
            })
            .map_err(|error| error.to_string())
    };
    let direct = encode(true);
    assert_eq!(
        direct,
        encode(false),
        "the direct writer and the Arrow import disagree"
    );
    match direct {
        Ok(records) => assert_eq!(records.len() as i64, rows),
        Err(error) => assert_names_its_place(&error),
    }
    let batch = match handoff(case.data, case.offsets).import(&mut None) {
        Ok(batch) => batch,
        Err(error) => {
            assert_names_its_place(&error.to_string());
            return;
        }
    };
    assert_eq!(batch.num_rows() as i64, rows);
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        assert_eq!(column.data_type(), field.data_type());
        column
            .to_data()
            .validate_full()
            .unwrap_or_else(|e| panic!("column {}: imported an invalid array: {e}", field.name()));
    }
    let mut encoder = JsonEncoder::new(EncoderOptions::default()).expect("Flink mode, the default");
    // A value Flink's json format refuses (a null map key: MapNullKeyMode FAIL) is an error; any is fine here.
    let _ = encoder.encode(&batch);
}

/// Asserts that an import or encoder error names the row or offset at fault.
fn assert_names_its_place(text: &str) {
    assert!(
        text.contains("row") || text.contains("offset"),
        "an error that names no row or offset: {text}"
    );
}
