//! Plain-mode parity: every corpus case (hand-written + seeded random, `PARITY_SEED`) and the plain-only
//! cases, encoded with `mode=plain` (and `plain.explicit-nulls=true`), must equal the real arrow-json 60.1
//! `LineDelimitedWriter` output over the same rows: the value projection's lines (split on `\n`; a JSON line
//! never holds a raw newline) and, for keys, the writer over the key projection (prefix stripped from the
//! names). Tombstones and null keys follow the Kafka layout. A case the writer rejects must make our encoder
//! fail too.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/goldens.rs"]
mod goldens;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch, RecordBatchOptions};
use arrow_json::writer::LineDelimited;
use arrow_json::WriterBuilder;
use arrow_schema::{Field, Schema};
use corpus::Case;
use goldens::{encode, show, Record};

/// arrow-json's lines for `batch` projected to `(column index, output name)`.
fn writer_lines(
    batch: &RecordBatch,
    projection: &[(usize, String)],
    explicit_nulls: bool,
) -> Result<Vec<Vec<u8>>, String> {
    let fields: Vec<Field> = projection
        .iter()
        .map(|(i, n)| batch.schema().field(*i).clone().with_name(n))
        .collect();
    let columns = projection
        .iter()
        .map(|(i, _)| batch.column(*i).clone())
        .collect();
    let projected = RecordBatch::try_new_with_options(
        Arc::new(Schema::new(fields)),
        columns,
        &RecordBatchOptions::new().with_row_count(Some(batch.num_rows())),
    )
    .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    {
        let mut writer = WriterBuilder::new()
            .with_explicit_nulls(explicit_nulls)
            .build::<_, LineDelimited>(&mut buf);
        writer.write(&projected).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    let mut lines: Vec<Vec<u8>> = buf.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
    // LineDelimited ends every row with '\n': the split leaves one empty tail.
    assert_eq!(
        lines.pop(),
        Some(Vec::new()),
        "the writer output ends with a newline"
    );
    if batch.num_rows() == 0 {
        lines.clear();
    }
    assert_eq!(lines.len(), batch.num_rows(), "one line per row");
    Ok(lines)
}

/// The Kafka layout of the options (docs/json-format.md), computed here from the spec.
struct Projections {
    key: Option<Vec<(usize, String)>>,
    value: Vec<(usize, String)>,
    row_kind: Option<usize>,
}

fn projections(case: &Case, schema: &Schema) -> Option<Projections> {
    let key_fields: Vec<String> = case
        .option("key.fields")
        .map(|k| {
            k.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let prefix = case.option("key.fields-prefix").unwrap_or("");
    let except_key = case
        .option("value.fields-include")
        .is_some_and(|v| v.eq_ignore_ascii_case("EXCEPT_KEY"));
    if !prefix.is_empty() && !except_key {
        return None; // Flink refuses key.fields-prefix without value.fields-include = EXCEPT_KEY
    }
    let row_kind = match case.option("changelog.row-kind-column") {
        Some(c) => Some(schema.index_of(c).ok()?),
        None => None,
    };
    let mut key = Vec::new();
    for k in &key_fields {
        let i = schema.index_of(k).ok()?;
        key.push((i, k.strip_prefix(prefix)?.to_owned()));
    }
    let value = (0..schema.fields().len())
        .filter(|i| Some(*i) != row_kind)
        .filter(|i| !except_key || !key.iter().any(|(k, _)| k == i))
        .map(|i| (i, schema.field(i).name().clone()))
        .collect();
    Some(Projections {
        key: (!key_fields.is_empty()).then_some(key),
        value,
        row_kind,
    })
}

/// The reference records of a case: `Err` when arrow-json (or the layout) rejects it.
fn reference(case: &Case, explicit_nulls: bool) -> Result<Vec<Record>, String> {
    let schema = case.batches[0].schema();
    let p = projections(case, &schema).ok_or("the layout does not fit the schema")?;
    let mut out = Vec::new();
    for batch in &case.batches {
        let values = writer_lines(batch, &p.value, explicit_nulls)?;
        let keys = match &p.key {
            Some(k) => Some(writer_lines(batch, k, explicit_nulls)?),
            None => None,
        };
        for (row, value) in values.into_iter().enumerate() {
            let tombstone = match p.row_kind {
                Some(i) => {
                    let column = batch.column(i);
                    if column.is_null(row) {
                        return Err("null row kind".into());
                    }
                    match column.as_string::<i32>().value(row) {
                        "+I" | "+U" => false,
                        "-U" | "-D" => true,
                        other => return Err(format!("unknown row kind {other}")),
                    }
                }
                None => false,
            };
            let key = keys.as_ref().map(|k| k[row].clone());
            out.push((key, (!tombstone).then_some(value)));
        }
    }
    Ok(out)
}

fn ours(case: &Case, explicit_nulls: bool) -> Result<Vec<Record>, String> {
    let explicit_nulls = explicit_nulls.to_string();
    let extra = [
        ("mode", "plain"),
        ("plain.explicit-nulls", explicit_nulls.as_str()),
    ];
    encode(&case.options, &extra, &case.batches)
}

/// Options that only the Flink option validation rejects; plain mode has no such rule, so these cases are
/// skipped for plain parity (their options are invalid for Flink's format, not for arrow-json).
fn flink_only_invalid(case: &Case) -> bool {
    case.name.starts_with("err_timestamp_standard")
        || case.name.starts_with("err_map_null_key_mode")
}

#[test]
fn plain_mode_matches_arrow_json_writer() {
    let seed = corpus::seed_from_env();
    let mut cases = corpus::flink_corpus(seed);
    cases.extend(corpus::plain_only());
    let (mut compared_cases, mut rows, mut bytes, mut both_fail) = (0usize, 0usize, 0usize, 0usize);
    let mut mismatches: Vec<String> = Vec::new();
    let mut count = 0usize;
    for case in &cases {
        if flink_only_invalid(case) {
            continue;
        }
        for explicit in [false, true] {
            compared_cases += 1;
            let label = format!("{} (explicit_nulls={explicit})", case.name);
            match (reference(case, explicit), ours(case, explicit)) {
                (Err(_), Err(_)) => both_fail += 1,
                (Err(r), Ok(_)) => {
                    count += 1;
                    mismatches.push(format!(
                        "{label}: arrow-json rejects it ({r}) but our plain encoder succeeds"
                    ));
                }
                (Ok(_), Err(o)) => {
                    count += 1;
                    mismatches.push(format!(
                        "{label}: arrow-json writes it but our plain encoder fails: {o}"
                    ));
                }
                (Ok(r), Ok(o)) => {
                    if r.len() != o.len() {
                        count += 1;
                        mismatches.push(format!(
                            "{label}: {} reference records, {} ours",
                            r.len(),
                            o.len()
                        ));
                    }
                    for (row, (a, b)) in r.iter().zip(&o).enumerate() {
                        rows += 1;
                        bytes +=
                            a.0.as_ref().map_or(0, Vec::len) + a.1.as_ref().map_or(0, Vec::len);
                        for (what, x, y) in [("key", &a.0, &b.0), ("value", &a.1, &b.1)] {
                            if x != y {
                                count += 1;
                                if mismatches.len() < 30 {
                                    mismatches.push(format!(
                                        "{label} row {row} {what}:\n    arrow-json {}\n    ours       {}",
                                        show(x.as_deref()),
                                        show(y.as_deref())
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!(
        "plain parity: {compared_cases} case runs ({both_fail} rejected by both), {rows} rows, {bytes} reference bytes; \
         {count} mismatches"
    );
    for m in &mismatches {
        println!("MISMATCH {m}");
    }
    assert_eq!(
        count, 0,
        "plain mode differs from arrow-json's writer (see above)"
    );
    assert!(
        rows >= 20_000,
        "the corpus must compare at least 10,000 rows per mode, got {rows} in total"
    );
}
