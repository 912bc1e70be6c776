//! Writes the seed corpora in `seeds/<target>/` (committed; rerun after changing an input format):
//! `cargo run --example write_seeds` in this folder (`fuzz/`).
//!
//! - `bijou_decode`: the bytes of every test vector (`testdata/vectors`), valid and invalid;
//! - `bijou_slab`: per format, one slab of its valid vectors, and each invalid vector after a valid record, in
//!   the `SlabInput` layout; one with raw offsets;
//! - `json_encoder`, `ffi_flat`: a few fixed byte patterns (their inputs are `arbitrary` streams);
//! - `ipc_reader`: small Arrow IPC inputs, each in the file and in the stream format: flat columns of several
//!   types with nulls, a dictionary, a list and a struct, two batches, a schema with no batch;
//! - `csv_reader`: small CSV files with a header row: every type arrow-csv infers, empty fields (nulls),
//!   quoted fields (commas, doubled quotes, a line break), a header alone, a row of the wrong width.

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

fn main() {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seeds = fuzz.join("seeds");
    let dir = |target: &str| {
        let d = seeds.join(target);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("seed folder");
        d
    };

    let vectors = vectors(fuzz.parent().expect("repository root"));
    let decode = dir("bijou_decode");
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

    let slabs = dir("bijou_slab");
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

    for target in ["json_encoder", "ffi_flat"] {
        let d = dir(target);
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

    let ipc = dir("ipc_reader");
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

    let csv = dir("csv_reader");
    for (name, text) in CSV_INPUTS {
        write(&csv, &format!("{name}.csv"), text.as_bytes());
    }
    println!("wrote the seeds under {}", seeds.display());
}
