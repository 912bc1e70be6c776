//! The JSON decoder against Flink's own deserializer: every message of the hand-written decode corpus
//! (`tests/data/flink-decode/<case>.case`) decoded by `JsonDecoder`, compared row by row with what the real
//! Flink 2.2.1 `JsonParserRowDataDeserializationSchema` made of it (`<case>.rows`, written by
//! `scripts/flink-decode-goldens.sh`; the text format is `RowText` in `java/flink-parity` and
//! `docs/flink-parity.md`, "Decode goldens").
//!
//! Per message: the same rows (every field, nulls, null rows) or, where Flink throws, an [`Error::Decode`]. A message the
//! decoder reports as [`Error::NotExact`] makes no row; those are counted and their number is pinned, so that a
//! change in what is decoded natively shows here. Each case is also decoded as one chunk, which must give the
//! same rows as its messages one by one. Cases with a column type the decoder does not read yet are listed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type,
    Int8Type, Time32MillisecondType, TimestampNanosecondType,
};
use arrow_array::Array;
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use streamfusion_json::{DecodedBatch, DecoderOptions, Error, JsonDecoder};

/// Messages of the corpus the decoder leaves to Flink (`Error::NotExact`), pinned.
const EXPECTED_NOT_EXACT: usize = 25;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/flink-decode")
}

/// One `.case` file: its options and messages (`None`: a null message).
struct Case {
    options: Vec<(String, String)>,
    messages: Vec<Option<Vec<u8>>>,
}

fn read_case(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap();
    let mut case = Case {
        options: Vec::new(),
        messages: Vec::new(),
    };
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(option) = line.strip_prefix("option ") {
            let (k, v) = option.split_once('=').expect("option key=value");
            case.options.push((k.to_owned(), v.to_owned()));
        } else if line == "message" {
            case.messages.push(Some(Vec::new()));
        } else if let Some(message) = line.strip_prefix("message ") {
            case.messages.push(Some(message.as_bytes().to_vec()));
        } else if let Some(hex) = line.strip_prefix("hex ") {
            let digits: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
            case.messages.push(Some(
                (0..digits.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap())
                    .collect(),
            ));
        } else if line == "null" {
            case.messages.push(None);
        } else {
            assert!(
                line.starts_with("type "),
                "{}: unknown line {line:?}",
                path.display()
            );
        }
    }
    case
}

/// Flink's output for one message: its row lines, and whether it threw.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    rows: Vec<String>,
    error: Option<String>,
}

/// A `.rows` file: the row type (Flink's serializable string), then per message its lines; or `refused` and
/// Flink's message when its json format refuses the options.
fn read_rows(path: &Path) -> (String, Result<Vec<Expected>, String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let first = lines.next().expect("a type line");
    if let Some(refused) = first.strip_prefix("refused ") {
        return (String::new(), Err(refused.to_owned()));
    }
    let row_type = first.strip_prefix("type ").expect("type line").to_owned();
    let mut out: Vec<Expected> = Vec::new();
    for line in lines {
        if let Some(refused) = line.strip_prefix("refused ") {
            return (row_type, Err(refused.to_owned()));
        } else if let Some(index) = line.strip_prefix("= ") {
            assert_eq!(index.parse::<usize>().unwrap(), out.len());
            out.push(Expected::default());
        } else if let Some(error) = line.strip_prefix("error ") {
            out.last_mut().unwrap().error = Some(error.to_owned());
        } else {
            out.last_mut().unwrap().rows.push(line.to_owned());
        }
    }
    (row_type, Ok(out))
}

/// Flink's `LogicalType.asSerializableString()` of a row → an Arrow schema (the mapping of
/// `docs/json-format.md`); `None` when a column has a type the decoder does not read.
fn schema_of(row_type: &str) -> Option<Schema> {
    match arrow_type(row_type)? {
        DataType::Struct(fields) => Some(Schema::new(fields)),
        _ => None,
    }
}

/// One Flink type (serializable string) → its Arrow type.
fn arrow_type(flink: &str) -> Option<DataType> {
    let ty = flink.trim();
    let ty = ty.strip_suffix(" NOT NULL").unwrap_or(ty);
    let inner = |prefix: &str| ty.strip_prefix(prefix).and_then(|t| t.strip_suffix('>'));
    Some(match ty {
        "BOOLEAN" => DataType::Boolean,
        "TINYINT" => DataType::Int8,
        "SMALLINT" => DataType::Int16,
        "INT" => DataType::Int32,
        "BIGINT" => DataType::Int64,
        "FLOAT" => DataType::Float32,
        "DOUBLE" => DataType::Float64,
        "DATE" => DataType::Date32,
        t if t.starts_with("TIME(") => DataType::Time32(TimeUnit::Millisecond),
        t if t.starts_with("TIMESTAMP(") && t.ends_with("WITH LOCAL TIME ZONE") => {
            DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
        }
        t if t.starts_with("TIMESTAMP(") => DataType::Timestamp(TimeUnit::Nanosecond, None),
        t if t.starts_with("VARCHAR(") || t.starts_with("CHAR(") => DataType::Utf8,
        t if t.starts_with("VARBINARY(") || t.starts_with("BINARY(") => DataType::Binary,
        t if t.starts_with("DECIMAL(") => {
            let args = t.strip_prefix("DECIMAL(")?.strip_suffix(')')?;
            let (p, s) = args.split_once(',')?;
            DataType::Decimal128(p.trim().parse().ok()?, s.trim().parse().ok()?)
        }
        _ if inner("ARRAY<").is_some() => DataType::List(Arc::new(Field::new(
            "element",
            arrow_type(inner("ARRAY<")?)?,
            true,
        ))),
        _ if inner("MULTISET<").is_some() => {
            map_type(arrow_type(inner("MULTISET<")?)?, DataType::Int32)
        }
        _ if inner("MAP<").is_some() => {
            let parts = split_top_level(inner("MAP<")?);
            map_type(arrow_type(parts.first()?)?, arrow_type(parts.get(1)?)?)
        }
        _ if inner("ROW<").is_some() => {
            let mut fields = Vec::new();
            for part in split_top_level(inner("ROW<")?) {
                let part = part.trim();
                let (name, rest) = if let Some(quoted) = part.strip_prefix('`') {
                    let end = quoted.find('`')?;
                    (quoted[..end].to_owned(), quoted[end + 1..].trim())
                } else {
                    let (n, r) = part.split_once(' ')?;
                    (n.to_owned(), r.trim())
                };
                fields.push(Field::new(name, arrow_type(rest)?, true));
            }
            DataType::Struct(fields.into())
        }
        _ => return None,
    })
}

fn map_type(key: DataType, value: DataType) -> DataType {
    let entries = Field::new(
        "entries",
        DataType::Struct(
            vec![
                Field::new("key", key, false),
                Field::new("value", value, true),
            ]
            .into(),
        ),
        false,
    );
    DataType::Map(Arc::new(entries), false)
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut quoted) = (0i32, 0usize, false);
    for (i, c) in s.char_indices() {
        match c {
            '`' => quoted = !quoted,
            '<' | '(' if !quoted => depth += 1,
            '>' | ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Bytes as `RowText` escapes them: 0x20..0x7e except `"` and `\` as is, every other byte `\xHH`.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if (0x20..=0x7e).contains(&b) && b != b'"' && b != b'\\' {
            out.push(b as char);
        } else {
            write!(out, "\\x{b:02x}").unwrap();
        }
    }
    out
}

/// `BigDecimal.toPlainString()` of `unscaled` × 10^-`scale`.
fn plain_decimal(unscaled: i128, scale: i8) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let sign = if unscaled < 0 { "-" } else { "" };
    let scale = scale as usize;
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    format!("{sign}{int}.{frac}")
}

/// Each row of a decoded chunk in `RowText`'s format (`null` for a null row).
fn row_lines(decoded: &DecodedBatch) -> Vec<String> {
    let batch = decoded.batch();
    (0..batch.num_rows())
        .map(|r| {
            if decoded.null_rows().contains(&r) {
                return "null".to_owned();
            }
            let fields: Vec<String> = batch
                .columns()
                .iter()
                .map(|c| value_text(c.as_ref(), r))
                .collect();
            format!("+I({})", fields.join(","))
        })
        .collect()
}

/// One value in `RowText`'s format.
fn value_text(c: &dyn Array, r: usize) -> String {
    if c.is_null(r) {
        return "null".to_owned();
    }
    match c.data_type() {
        DataType::Boolean => c.as_boolean().value(r).to_string(),
        DataType::Int8 => c.as_primitive::<Int8Type>().value(r).to_string(),
        DataType::Int16 => c.as_primitive::<Int16Type>().value(r).to_string(),
        DataType::Int32 => c.as_primitive::<Int32Type>().value(r).to_string(),
        DataType::Int64 => c.as_primitive::<Int64Type>().value(r).to_string(),
        DataType::Float32 => format!(
            "f{:08x}",
            c.as_primitive::<Float32Type>().value(r).to_bits()
        ),
        DataType::Float64 => format!(
            "d{:016x}",
            c.as_primitive::<Float64Type>().value(r).to_bits()
        ),
        DataType::Decimal128(_, s) => {
            plain_decimal(c.as_primitive::<Decimal128Type>().value(r), *s)
        }
        DataType::Utf8 => format!("\"{}\"", escape(c.as_string::<i32>().value(r).as_bytes())),
        DataType::Binary => {
            let hex: String = c
                .as_binary::<i32>()
                .value(r)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            format!("x'{hex}'")
        }
        DataType::Date32 => c.as_primitive::<Date32Type>().value(r).to_string(),
        DataType::Time32(_) => c
            .as_primitive::<Time32MillisecondType>()
            .value(r)
            .to_string(),
        DataType::Timestamp(..) => {
            let v = c.as_primitive::<TimestampNanosecondType>().value(r);
            format!(
                "ts({},{})",
                v.div_euclid(1_000_000),
                v.rem_euclid(1_000_000)
            )
        }
        DataType::List(_) => {
            let items = c.as_list::<i32>().value(r);
            let texts: Vec<String> = (0..items.len())
                .map(|i| value_text(items.as_ref(), i))
                .collect();
            format!("[{}]", texts.join(","))
        }
        DataType::Map(..) => {
            let entries = c.as_map().value(r);
            let mut texts: Vec<String> = (0..entries.len())
                .map(|i| {
                    format!(
                        "{}={}",
                        value_text(entries.column(0).as_ref(), i),
                        value_text(entries.column(1).as_ref(), i)
                    )
                })
                .collect();
            texts.sort();
            format!("{{{}}}", texts.join(","))
        }
        DataType::Struct(_) => {
            let row = c.as_struct();
            let texts: Vec<String> = row
                .columns()
                .iter()
                .map(|f| value_text(f.as_ref(), r))
                .collect();
            format!("({})", texts.join(","))
        }
        other => unreachable!("{other} is not read"),
    }
}

#[test]
fn every_message_as_flink_decodes_it() {
    check_corpus(false);
}

/// The same with the fast path left out: each message the fast path takes must come out the same from the
/// exact walk alone, and the other way round.
#[test]
fn every_message_as_flink_decodes_it_on_the_exact_walk_alone() {
    check_corpus(true);
}

fn check_corpus(exact_walk_only: bool) {
    let mut names: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "case"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "the corpus has {} cases", names.len());
    let (mut compared, mut not_exact, mut failures) = (0usize, Vec::new(), Vec::new());
    let mut unread_cases = Vec::new();
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let case = read_case(path);
        let (row_type, expected) = read_rows(&path.with_extension("rows"));
        let options =
            DecoderOptions::from_pairs(case.options.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let expected = match (expected, options) {
            (Err(_), Err(Error::InvalidOption { .. })) => continue, // refused by Flink and by us
            (Err(flink), ours) => {
                panic!("{name}: Flink refuses the options ({flink}), we say {ours:?}")
            }
            (Ok(_), Err(e)) => panic!("{name}: Flink accepts the options, we refuse them: {e}"),
            (Ok(expected), Ok(options)) => {
                (expected, options.with_exact_walk_only(exact_walk_only))
            }
        };
        let (expected, options) = expected;
        assert_eq!(
            expected.len(),
            case.messages.len(),
            "{name}: one block per message"
        );
        let Some(schema) = schema_of(&row_type) else {
            unread_cases.push(format!("{name} ({row_type})"));
            continue;
        };
        let mut decoder = JsonDecoder::new(Arc::new(schema), options).unwrap();
        let mut all_rows = Vec::new();
        let mut chunk_exact = true;
        for (i, (message, flink)) in case.messages.iter().zip(&expected).enumerate() {
            let ours = decoder.decode([message.as_deref()]);
            let what = format!(
                "{name} message {i} {:?}",
                message.as_deref().map(String::from_utf8_lossy)
            );
            match ours {
                Err(Error::NotExact { reason, .. }) => {
                    not_exact.push(format!("{what}: {reason}"));
                    chunk_exact = false;
                }
                Err(Error::Decode { reason, .. }) => {
                    compared += 1;
                    chunk_exact = false;
                    // Flink throws too (the rows an array root collected before are lost with the job).
                    if flink.error.is_none() {
                        failures.push(format!(
                            "{what}: Flink gives {:?}, we fail: {reason}",
                            flink.rows
                        ));
                    }
                }
                Err(e) => panic!("{what}: {e}"),
                Ok(decoded) => {
                    compared += 1;
                    let rows = row_lines(&decoded);
                    if flink.error.is_some() || rows != flink.rows {
                        failures.push(format!("{what}: Flink gives {flink:?}, we give {rows:?}"));
                    }
                    all_rows.extend(rows);
                }
            }
        }
        if chunk_exact {
            let chunk = decoder
                .decode(case.messages.iter().map(|m| m.as_deref()))
                .unwrap();
            assert_eq!(
                row_lines(&chunk),
                all_rows,
                "{name}: one chunk gives the rows of its messages"
            );
        }
    }
    println!(
        "compared {compared} messages; not decoded natively: {}",
        not_exact.len()
    );
    for line in &not_exact {
        println!("  not exact: {line}");
    }
    println!(
        "cases with a column type the decoder does not read yet: {}",
        unread_cases.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} messages differ from Flink:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        not_exact.len(),
        EXPECTED_NOT_EXACT,
        "messages left to Flink changed"
    );
    assert!(compared >= 200, "compared only {compared} messages");
}
