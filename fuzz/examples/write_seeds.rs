//! Writes the seed corpora in `seeds/<target>/` (committed; rerun after changing an input format):
//! `cargo run --example write_seeds` in this folder (`fuzz/`), or `cargo run --example write_seeds -- TARGET...`
//! to rewrite only those targets' folders.
//!
//! - `bijou_decode`: the bytes of every test vector (`testdata/vectors`), valid and invalid;
//! - `bijou_slab`: per format, one slab of its valid vectors, and each invalid vector after a valid record, in
//!   the `SlabInput` layout; one with raw offsets;
//! - `json_encoder`, `ffi_flat`: a few fixed byte patterns (their inputs are `arbitrary` streams);
//! - `binary_rows`: the flat and the nested row Flink wrote (`rust/streamfusion-json/tests/data/flink_binary_row*.hex`),
//!   one to three of them, with and without the row-kind column, and each cut in half;
//! - `ipc_reader`: small Arrow IPC inputs, each in the file and in the stream format: flat columns of several
//!   types with nulls, a dictionary, a list and a struct, two batches, a schema with no batch;
//! - `csv_reader`: small CSV files with a header row: every type arrow-csv infers, empty fields (nulls),
//!   quoted fields (commas, doubled quotes, a line break), a header alone, a row of the wrong width;
//! - `json_decode`: small chunks of Kafka JSON messages in the target's layout (`fuzz_targets::json_decode::Case`):
//!   objects of every layout's fields, values each converter reads or refuses, null and empty messages, repeated
//!   and missing keys, array roots, other roots, malformed JSON, control characters and invalid UTF-8, a byte
//!   order mark, objects and arrays given to a string column; under each option set; and in the nested layouts
//!   arrays, maps and rows (empty, null, repeated keys, wrong shapes, three deep), temporal values in both
//!   timestamp standards (edge days, `24:00:00`, fractions), nested temporal values and bytes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, StringDictionaryBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray, StructArray,
    TimestampMillisecondArray,
};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use arrow_schema::{DataType, Field, Schema};

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `(format, bytes, valid)` of every vector.
fn vectors(root: &Path) -> Vec<(String, Vec<u8>, bool)> {
    let mut out = Vec::new();
    for (file, hex_column) in [("bijou.csv", 2), ("bijou-invalid.csv", 1)] {
        let text =
            std::fs::read_to_string(root.join("testdata/vectors").join(file)).expect("vectors");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cells: Vec<&str> = line.split(',').collect();
            let valid = file == "bijou.csv" || cells[2].starts_with("ok:");
            out.push((cells[0].to_owned(), hex(cells[hex_column]), valid));
        }
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).expect("seed file");
}

fn slab(flags: u8, records: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![flags, records.len() as u8];
    out.extend(records.iter().map(|r| r.len() as u8));
    for r in records {
        out.extend_from_slice(r);
    }
    out
}

fn flags(format: &str) -> u8 {
    match format {
        "bijou64" => 0,
        "bijou64s" => 1,
        "bijou32" => 2,
        _ => 3,
    }
}

/// A batch of the given columns, every field nullable.
fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(n, c)| (n, c, true)))
        .expect("seed batch")
}

/// `(name, batches)` of the IPC seeds; an empty list is a schema with no batch (the first batch's schema of
/// `flat`).
fn ipc_inputs() -> Vec<(&'static str, Vec<RecordBatch>)> {
    let flat = batch(vec![
        (
            "id",
            Arc::new(Int64Array::from(vec![Some(1), None, Some(-3)])),
        ),
        (
            "name",
            Arc::new(StringArray::from(vec![Some("a"), Some("é, \"q\""), None])),
        ),
        (
            "price",
            Arc::new(Float64Array::from(vec![Some(2.5), Some(f64::NAN), None])),
        ),
        (
            "ok",
            Arc::new(BooleanArray::from(vec![Some(true), None, Some(false)])),
        ),
        (
            "at",
            Arc::new(TimestampMillisecondArray::from(vec![
                Some(0),
                Some(1_700_000_000_000),
                None,
            ])),
        ),
    ]);
    let mut dictionary = StringDictionaryBuilder::<Int32Type>::new();
    dictionary.append_value("x");
    dictionary.append_null();
    dictionary.append_value("x");
    dictionary.append_value("y");
    let mut list = ListBuilder::new(Int32Builder::new());
    list.append_value([Some(1), None]);
    list.append_null();
    list.append_value([]);
    list.append_value([Some(4)]);
    let inner = Arc::new(Field::new("n", DataType::Int32, true));
    let nested = batch(vec![
        ("tag", Arc::new(dictionary.finish())),
        ("values", Arc::new(list.finish())),
        (
            "point",
            Arc::new(StructArray::from(vec![(
                inner,
                Arc::new(arrow_array::Int32Array::from(vec![
                    Some(1),
                    None,
                    Some(3),
                    Some(4),
                ])) as ArrayRef,
            )])),
        ),
    ]);
    let two = vec![flat.clone(), flat.slice(1, 2)];
    vec![
        ("flat", vec![flat]),
        ("nested", vec![nested]),
        ("two-batches", two),
        ("schema-only", vec![]),
    ]
}

fn ipc_file(schema: &Schema, batches: &[RecordBatch]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut writer = FileWriter::try_new(&mut out, schema).expect("IPC file writer");
    for b in batches {
        writer.write(b).expect("IPC file batch");
    }
    writer.finish().expect("IPC file footer");
    drop(writer);
    out
}

fn ipc_stream(schema: &Schema, batches: &[RecordBatch]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut writer = StreamWriter::try_new(&mut out, schema).expect("IPC stream writer");
    for b in batches {
        writer.write(b).expect("IPC stream batch");
    }
    writer.finish().expect("IPC stream end");
    drop(writer);
    out
}

/// `(name, text)` of the CSV seeds.
const CSV_INPUTS: &[(&str, &str)] = &[
    ("ints", "id,count\n1,10\n2,-20\n3,30\n"),
    ("floats", "x,y\n1.5,2\n-0.25,1e3\nNaN,inf\n"),
    ("bools", "flag\ntrue\nfalse\nTRUE\n"),
    (
        "dates",
        "day,at\n2024-01-31,2024-01-31T12:34:56\n1970-01-01,1970-01-01T00:00:00.123\n",
    ),
    (
        "timestamps",
        "s,us,ns\n2024-01-31T12:34:56Z,2024-01-31 12:34:56.123456,2024-01-31T12:34:56.123456789\n",
    ),
    ("nulls", "a,b,c\n1,,x\n,2.5,\n,,\n"),
    (
        "quoted",
        "id,note\n1,\"gift, wrapped\"\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n",
    ),
    ("mixed", "v\n1\n2.5\nx\n"),
    ("header-only", "a,b,c\n"),
    ("ragged", "a,b\n1,2\n3\n"),
    ("crlf", "id,name\r\n1,a\r\n2,b\r\n"),
];

/// `json_decode` option codes (the low two bits of a case's first byte).
const DEFAULTS: u8 = 0;
const IGNORE_PARSE_ERRORS: u8 = 1;
const FAIL_ON_MISSING_FIELD: u8 = 2;
/// `timestamp-format.standard` `ISO-8601` (bit 7 of a case's first byte; `SQL` without it).
const ISO_8601: u8 = 0x80;

/// A `json_decode` case's first byte: the options and the layout (`fuzz_targets::json_decode::schema`).
const fn case(options: u8, schema: u8) -> u8 {
    schema << 2 | options
}

/// `(name, first byte, null-message bits, messages)` of the `json_decode` seeds. Layouts: 0 `a` BIGINT, `b`
/// BOOLEAN, `s` STRING; 1 `a`..`d` TINYINT, SMALLINT, INT, BIGINT; 2 `a` FLOAT, `b` DOUBLE, `s` STRING; 3 `a`
/// DECIMAL(10,2), `b` DECIMAL(38,0), `c` DECIMAL(5,5), `s` STRING; 4 `s` STRING, `b` BYTES, `a` INT; 5 `a`
/// BOOLEAN, `b` BIGINT, `c` DOUBLE, `d` DECIMAL(18,3), `s` STRING, `x` BYTES; 6 `s` STRING; 7 `a` ARRAY<INT>,
/// `s` STRING; 8 `m` MAP<STRING, BIGINT>, `r` ROW<`x` INT, `y` STRING>; 9 `r` ROW<`a` ARRAY<ROW<`b` BIGINT,
/// `c` DECIMAL(10,2)>>, `d` MAP<STRING, ARRAY<DOUBLE>>>; 10 `d` DATE, `t` TIME(3), `ts` TIMESTAMP(9), `lt`
/// TIMESTAMP_LTZ(9); 11 `l` ARRAY<ARRAY<STRING>>, `m` MAP<STRING, ROW<`t` TIMESTAMP_LTZ(9), `d` DATE>>, `n`
/// MULTISET<STRING>, `b` ARRAY<BYTES>.
#[allow(clippy::type_complexity)]
const JSON_DECODE_INPUTS: &[(&str, u8, u8, &[&[u8]])] = &[
    ("object", case(DEFAULTS, 0), 0, &[br#"{"a":1,"b":true,"s":"x"}"#]),
    (
        "three-objects",
        case(DEFAULTS, 0),
        0,
        &[
            br#"{"a":-9223372036854775808,"b":false,"s":"\u00e9\ud83d\ude00"}"#,
            br#"{"s":"a\u0001\n","a":" 42 ","b":"TRUE","z":[1,{"q":null}]}"#,
            b"{}",
        ],
    ),
    (
        "null-and-empty-messages",
        case(DEFAULTS, 0),
        0b010,
        &[br#"{"a":1}"#, b"", b"", br#"{"b":"yes"}"#],
    ),
    ("repeated-keys", case(DEFAULTS, 0), 0, &[br#"{"a":1,"a":2,"b":true,"s":"x"}"#]),
    (
        "missing-field",
        case(FAIL_ON_MISSING_FIELD, 0),
        0,
        &[br#"{"a":1,"b":true,"s":"x"}"#, br#"{"a":1,"s":null}"#],
    ),
    (
        "integers",
        case(DEFAULTS, 1),
        0,
        &[
            br#"{"a":127,"b":-32768,"c":2147483647,"d":"-9223372036854775808"}"#,
            br#"{"a":-0,"b":1.9,"c":"+7","d":9223372036854775807}"#,
        ],
    ),
    (
        "integers-out-of-range",
        case(IGNORE_PARSE_ERRORS, 1),
        0,
        &[
            br#"{"a":128,"b":"x","c":1e3,"d":"12"}"#,
            br#"{"d":92233720368547758070,"c":"0x10"}"#,
            br#"{"a":1"#,
        ],
    ),
    (
        "floats",
        case(DEFAULTS, 2),
        0,
        &[
            br#"{"a":3.4028235e38,"b":-0.0,"s":1e400}"#,
            br#"{"a":"NaN","b":"-Infinity","s":1.0}"#,
            br#"{"a":1e-46,"b":" 2.5d ","s":-1E-400}"#,
        ],
    ),
    (
        "decimals",
        case(DEFAULTS, 3),
        0,
        &[
            br#"{"a":12345678.99,"b":"99999999999999999999999999999999999999","c":0.12345,"s":{"x":1.0,"y":[2.50]}}"#,
            br#"{"a":"-1.005","b":1E+2,"c":"0.000001","s":1.50}"#,
        ],
    ),
    (
        "decimals-overflow",
        case(IGNORE_PARSE_ERRORS, 3),
        0,
        &[br#"{"a":123456789.123,"b":1e39,"c":1}"#, br#"{"a":"1e-400","b":true}"#],
    ),
    (
        "bytes",
        case(DEFAULTS, 4),
        0,
        &[
            br#"{"s":"text","b":"AAEC/w==","a":7}"#,
            br#"{"b":"QUJD","s":12,"a":null}"#,
        ],
    ),
    (
        "bytes-not-base64",
        case(IGNORE_PARSE_ERRORS, 4),
        0,
        &[br#"{"b":"not base64!","a":"x"}"#, br#"{"b":"QUJ","s":false}"#],
    ),
    (
        "containers-to-a-string",
        case(DEFAULTS, 6),
        0,
        &[
            br#"{"s":{"k":[1,2.5,true,null,"v\"\\"]}}"#,
            br#"{"s":[{"a":{}},[]]}"#,
            br#"{"s":[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]}"#,
        ],
    ),
    (
        "array-root",
        case(DEFAULTS, 0),
        0,
        &[br#"[{"a":1},{"a":2,"s":"y"},null]"#, b"[]"],
    ),
    (
        "array-root-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 5),
        0,
        &[br#"[{"a":true},3,{"b":"x"},{"c":1.5}]"#, br#"[{"b":1},"#],
    ),
    (
        "malformed",
        case(DEFAULTS, 0),
        0,
        &[br#"{"a":1,"#, br#"{"a":}"#, br#"{"a":1}}"#],
    ),
    (
        "malformed-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 5),
        0,
        &[
            br#"{"a":tru}"#,
            br#"{"s":"unterminated"#,
            br#"{"b":1}garbage"#,
            br#"{"b":01,"c":.5,"d":+1}"#,
        ],
    ),
    (
        "nonstandard-json",
        case(IGNORE_PARSE_ERRORS, 0),
        0,
        &[
            b"{'a':1}",
            b"{a:1}",
            br#"{"a":NaN,"s":Infinity}"#,
            br#"/* c */{"a":1}"#,
            br#"{"a":1,}"#,
        ],
    ),
    (
        "control-characters",
        case(DEFAULTS, 0),
        0,
        &[
            b"\n{\t\"a\"\r:\n1 , \"s\":\"\\u0000\\t\\\\\\/\"}\n",
            b"{\"s\":\"a\x01b\"}",
            b"{\"s\":\"\x7f\xc2\x80\"}",
        ],
    ),
    (
        "encodings",
        case(IGNORE_PARSE_ERRORS, 6),
        0,
        &[
            b"\xef\xbb\xbf{\"s\":\"bom\"}",
            b"{\"s\":\"\xc3\x28\"}",
            b"{\"s\":\"\xed\xa0\x80\"}",
            b"{\x00\"s\":1}",
        ],
    ),
    (
        "other-roots",
        case(DEFAULTS, 0),
        0,
        &[b"null", b"1", br#""x""#, b"true", b"  "],
    ),
    (
        "every-type",
        case(DEFAULTS, 5),
        0,
        &[
            br#"{"a":true,"b":12,"c":1.25,"d":-0.0005,"s":"x","x":"AA=="}"#,
            br#"{"a":"yes","b":" 12 ","c":"1e3","d":"9.9995","s":null,"x":null}"#,
        ],
    ),
    (
        "eight-messages",
        case(DEFAULTS, 0),
        0b1010_0100,
        &[
            br#"{"a":1}"#,
            br#"{"b":true}"#,
            b"",
            br#"{"s":"3"}"#,
            b"",
            b"",
            br#"[{"a":5},{"a":6}]"#,
            b"",
        ],
    ),
    (
        "nested-list",
        case(DEFAULTS, 7),
        0,
        &[
            br#"{"a":[1,null,"3",-2147483648],"s":"x"}"#,
            br#"{"a":[],"s":[1,[2]]}"#,
            br#"{"a":null,"s":{"a":[1]}}"#,
            b"{}",
        ],
    ),
    (
        "nested-list-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 7),
        0,
        &[
            br#"{"a":[1,"x",2147483648,1.5],"s":"y"}"#,
            br#"{"a":{"k":1},"s":"z"}"#,
            br#"{"a":"[1]"}"#,
            br#"{"a":[[1],2]}"#,
            br#"{"a":[1,}"#,
        ],
    ),
    (
        "map-and-row",
        case(DEFAULTS, 8),
        0b0100,
        &[
            br#"{"m":{"k":1,"j":"2","k":3,"":null},"r":{"x":1,"y":"z","q":[0]}}"#,
            br#"{"m":{},"r":null}"#,
            b"",
            br#"{"r":{"y":{"n":[1,{"o":2}]},"x":"7"},"m":null}"#,
            br#"[{"m":{"a":-9223372036854775808}},{"r":{}}]"#,
        ],
    ),
    (
        "map-and-row-missing",
        case(FAIL_ON_MISSING_FIELD, 8),
        0,
        &[
            br#"{"m":{"a":1},"r":{"x":1,"y":"z"}}"#,
            br#"{"m":{"a":1},"r":{"x":1}}"#,
        ],
    ),
    (
        "map-and-row-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 8),
        0,
        &[
            br#"{"m":{"a":"x","b":2},"r":{"x":true,"y":"ok"}}"#,
            br#"{"m":[1,2],"r":"row"}"#,
            br#"{"m":{"a":1,"b"},"r":{"x":1}}"#,
            br#"{"r":{"x":1,"x":2,"y":3,"y":4}}"#,
        ],
    ),
    (
        "deep",
        case(DEFAULTS, 9),
        0,
        &[
            br#"{"r":{"a":[{"b":1,"c":1.25},null,{"c":"-0.5"},{}],"d":{"k":[1.5,null,"NaN"],"e":[],"n":null}}}"#,
            br#"{"r":{"d":{"k":[-0.0,1e308]},"a":[]}}"#,
            br#"{"r":null}"#,
        ],
    ),
    (
        "deep-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 9),
        0,
        &[
            br#"{"r":{"a":[{"b":"x","c":123456789.123}],"d":{"k":[true]}}}"#,
            br#"{"r":{"a":{"b":1},"d":[]}}"#,
            br#"{"r":[1]}"#,
            br#"{"r":{"d":{"k":[1.0}}}"#,
            br#"{"r":{"a":[{"b":1,"c":1e-400}],"d":{"k":"1.0"}}}"#,
        ],
    ),
    (
        "temporal",
        case(DEFAULTS, 10),
        0,
        &[
            br#"{"d":"2024-02-29","t":"12:34:56.789","ts":"2024-01-02 03:04:05.123456789","lt":"2024-01-02 03:04:05Z"}"#,
            br#"{"d":"+10000-01-01","t":"24:00:00","ts":"2024-02-30 24:00:00","lt":"1969-12-31 23:59:59.999999999Z"}"#,
            br#"{"lt":"2024-01-02 03:04:05.5Z","ts":"1970-01-01 00:00:00.000000001","d":null,"t":"00:00:59.999"}"#,
        ],
    ),
    (
        "temporal-iso-8601",
        case(IGNORE_PARSE_ERRORS, 10) | ISO_8601,
        0,
        &[
            br#"{"d":"2024-01-02","t":"23:59:59","ts":"2024-01-02T03:04:05.5","lt":"2024-01-02T03:04Z"}"#,
            br#"{"ts":"2024-01-02t03:04","lt":"2024-01-02T03:04:05.123456789Z"}"#,
            br#"{"ts":"2024-02-30T00:00:00","lt":"2024-01-02T24:00:00Z"}"#,
            br#"{"ts":"2024-01-02 03:04:05","lt":"2024-01-02 03:04:05Z"}"#,
        ],
    ),
    (
        "temporal-ignore-errors",
        case(IGNORE_PARSE_ERRORS, 10),
        0,
        &[
            br#"{"d":"2024-13-01","t":"25:00:00","ts":"2024-01-02","lt":"2024-01-02 03:04:05"}"#,
            br#"{"d":20240101,"t":1,"ts":true,"lt":null}"#,
            br#"{"d":"-0000-01-01","t":" 12:00:00","ts":"2024-01-02 03:04:05.1234567891"}"#,
            br#"{"d":"-0001-12-31","t":"00:00","ts":"2024-01-02T03:04:05","lt":"2024-01-02 03:04:05"}"#,
        ],
    ),
    (
        "nested-temporal-and-bytes",
        case(DEFAULTS, 11),
        0,
        &[
            br#"{"l":[["a","b"],null,[],[null,"\u00e9"]],"m":{"x":{"t":"2024-01-02 03:04:05Z","d":"2024-01-02"},"y":null},"n":{"a":2,"b":1},"b":["AAEC","",null]}"#,
            br#"{"l":[[1,true,{"k":1}]],"m":{"z":{}},"n":{},"b":[]}"#,
            br#"{"m":{"w":{"t":"2024-01-02 03:04:05.000000001Z","d":"2024-02-29"}},"b":["QUJD"]}"#,
        ],
    ),
];

/// A `json_decode` input: the two header bytes, then the messages cut by the separator byte (`0xFF`).
fn json_chunk(first: u8, nulls: u8, messages: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![first, nulls];
    for (i, message) in messages.iter().enumerate() {
        if i > 0 {
            out.push(0xff);
        }
        out.extend_from_slice(message);
    }
    out
}

fn main() {
    // With target names as arguments, only their folders are rewritten.
    let only: Vec<String> = std::env::args().skip(1).collect();
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seeds = fuzz.join("seeds");
    let dir = |target: &str| {
        if !only.is_empty() && !only.iter().any(|t| t == target) {
            return None;
        }
        let d = seeds.join(target);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("seed folder");
        Some(d)
    };

    let vectors = vectors(fuzz.parent().expect("repository root"));
    if let Some(decode) = dir("bijou_decode") {
        let mut seen = std::collections::BTreeSet::new();
        for (_, bytes, _) in &vectors {
            if seen.insert(bytes.clone()) {
                let name = if bytes.is_empty() {
                    "empty".to_owned()
                } else {
                    format!("{bytes:02x?}")
                };
                write(&decode, &name.replace([' ', ',', '[', ']'], ""), bytes);
            }
        }
    }

    if let Some(slabs) = dir("bijou_slab") {
        for format in ["bijou64", "bijou64s", "bijou32", "bijou32s"] {
            let valid: Vec<&[u8]> = vectors
                .iter()
                .filter(|(f, _, v)| f == format && *v)
                .map(|(_, b, _)| b.as_slice())
                .take(255)
                .collect();
            write(
                &slabs,
                &format!("{format}-valid"),
                &slab(flags(format), &valid),
            );
            for (i, (_, bytes, _)) in vectors
                .iter()
                .filter(|(f, _, v)| f == format && !*v)
                .enumerate()
            {
                write(
                    &slabs,
                    &format!("{format}-invalid-{i}"),
                    &slab(flags(format), &[&[0x2a], bytes]),
                );
            }
        }
        let mut raw = vec![4, 3];
        for offset in [0u32, 1, 3] {
            raw.extend_from_slice(&offset.to_le_bytes());
        }
        raw.extend_from_slice(&[0x2a, 0xf8, 0x34]);
        write(&slabs, "raw-offsets", &raw);
    }

    for target in ["json_encoder", "ffi_flat"] {
        let Some(d) = dir(target) else { continue };
        write(&d, "zeros", &[0; 64]);
        write(&d, "ones", &[0xff; 64]);
        write(&d, "counter", &(0..=255u8).collect::<Vec<_>>());
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let noise: Vec<u8> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        write(&d, "noise", &noise);
    }

    if let Some(ipc) = dir("ipc_reader") {
        for (name, batches) in ipc_inputs() {
            let schema = match batches.first() {
                Some(b) => b.schema(),
                None => ipc_inputs()[0].1[0].schema(),
            };
            write(&ipc, &format!("{name}.arrow"), &ipc_file(&schema, &batches));
            write(
                &ipc,
                &format!("{name}.arrows"),
                &ipc_stream(&schema, &batches),
            );
        }
    }

    if let Some(csv) = dir("csv_reader") {
        for (name, text) in CSV_INPUTS {
            write(&csv, &format!("{name}.csv"), text.as_bytes());
        }
    }

    if let Some(json) = dir("json_decode") {
        for (name, flags, nulls, messages) in JSON_DECODE_INPUTS {
            write(&json, name, &json_chunk(*flags, *nulls, messages));
        }
    }
    if let Some(d) = dir("binary_rows") {
        // `fuzz_targets::binary_rows::Case`: schema, row-kind and covered-schema flags, row count, rows of equal
        // length.
        let data = fuzz.join("../rust/streamfusion-json/tests/data");
        let read = |name: &str| {
            hex(std::fs::read_to_string(data.join(name))
                .expect("a row written by Flink")
                .trim_end())
        };
        for (name, nested, row) in [
            ("flat", 0u8, read("flink_binary_row.hex")),
            ("nested", 1, read("flink_binary_row_nested.hex")),
        ] {
            for rows in 1..=3u8 {
                for kind in [0u8, 2] {
                    // Bit 4: the schema the direct writer covers (DECIMAL and TIMESTAMP(9) read as BIGINT).
                    for (covered, suffix) in [(0u8, ""), (16, "-covered")] {
                        let mut bytes = vec![nested | kind | covered, rows - 1];
                        for _ in 0..rows {
                            bytes.extend_from_slice(&row);
                        }
                        write(
                            &d,
                            &format!("{name}-{rows}-rows-kind{kind}{suffix}"),
                            &bytes,
                        );
                    }
                }
            }
            let mut cut = vec![nested, 0];
            cut.extend_from_slice(&row[..row.len() / 2]);
            write(&d, &format!("{name}-cut"), &cut);
        }
    }
    println!("wrote the seeds under {}", seeds.display());
}
