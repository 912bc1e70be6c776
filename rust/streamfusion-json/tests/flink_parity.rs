//! Flink parity against golden bytes written by the real Flink `JsonRowDataSerializationSchema`
//! (`scripts/flink-goldens.sh`, harness in `java/flink-parity`, contract in `docs/flink-parity.md`).
//!
//! Needs `STREAMFUSION_PARITY_CORPUS` (the corpus directory: `<case>.arrow` + `<case>.properties`, written by
//! `examples/parity_corpus.rs`) and `STREAMFUSION_PARITY_GOLDENS` (the harness's OUT-ROOT). `scripts/parity.sh`
//! sets both. Every case is encoded from the batches read back from its IPC file, with the options read back
//! from its `.properties` file, and compared byte for byte with the golden records; a case Flink rejects
//! (`<case>.error`) must make our encoder fail too. Each case is encoded again after casting its columns to
//! logically equal Arrow layouts the harness cannot read (views, large offsets, dictionaries, wider or
//! narrower decimals), which must give the same bytes.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/goldens.rs"]
mod goldens;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, DictionaryArray, Int32Array, RecordBatch, StringArray};
use arrow_cast::cast::{can_cast_types, cast_with_options, CastOptions};
use arrow_ipc::reader::FileReader;
use arrow_schema::{DataType, Field, Fields, Schema};
use goldens::{encode, read_golden, show, Golden, Record};

/// Mismatches printed in full per golden set (all are counted).
const MAX_REPORTED: usize = 30;

fn env_dir(var: &str) -> PathBuf {
    let value = std::env::var(var).unwrap_or_else(|_| {
        panic!("{var} is not set: run scripts/parity.sh (it writes the corpus and the Flink goldens and sets {var})")
    });
    let dir = PathBuf::from(&value);
    assert!(
        dir.is_dir(),
        "{var}={value} is not a directory: run scripts/parity.sh"
    );
    dir
}

/// A corpus case read back from disk.
struct Loaded {
    name: String,
    options: Vec<(String, String)>,
    batches: Vec<RecordBatch>,
}

fn load_corpus(dir: &Path) -> Vec<Loaded> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".arrow")
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(
        !names.is_empty(),
        "no <case>.arrow in {}: run scripts/parity.sh",
        dir.display()
    );
    names
        .into_iter()
        .map(|name| {
            let path = dir.join(format!("{name}.arrow"));
            let file =
                File::open(&path).unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
            let reader = FileReader::try_new(file, None)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let batches = reader
                .collect::<Result<Vec<_>, _>>()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let props = dir.join(format!("{name}.properties"));
            let options = match std::fs::read_to_string(&props) {
                Ok(text) => corpus::parse_properties(&text),
                Err(_) => Vec::new(),
            };
            Loaded {
                name,
                options,
                batches,
            }
        })
        .collect()
}

/// Collected results of one golden set.
#[derive(Default)]
struct Report {
    cases: usize,
    error_cases: usize,
    rows: usize,
    bytes: usize,
    variant_encodes: usize,
    mismatches: Vec<String>,
    mismatch_count: usize,
}

impl Report {
    fn mismatch(&mut self, text: String) {
        self.mismatch_count += 1;
        if self.mismatches.len() < MAX_REPORTED {
            self.mismatches.push(text);
        }
    }
}

/// Compares `ours` with `golden`, row by row; `label` names the case (and variant).
fn compare_records(report: &mut Report, label: &str, golden: &[Record], ours: &[Record]) {
    if golden.len() != ours.len() {
        report.mismatch(format!(
            "{label}: golden has {} records, ours {}",
            golden.len(),
            ours.len()
        ));
    }
    for (row, (g, o)) in golden.iter().zip(ours).enumerate() {
        for (what, gb, ob) in [("key", &g.0, &o.0), ("value", &g.1, &o.1)] {
            if gb != ob {
                report.mismatch(format!(
                    "{label} row {row} {what}:\n    golden {}\n    ours   {}",
                    show(gb.as_deref()),
                    show(ob.as_deref())
                ));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Logically equal Arrow layouts
// ---------------------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
enum Variant {
    Utf8View,
    LargeUtf8,
    Dictionary,
    DictionaryNullValues,
    BinaryView,
    ListView,
    LargeList,
    Decimal256,
    Decimal64,
    Decimal32,
}

const VARIANTS: [Variant; 10] = [
    Variant::Utf8View,
    Variant::LargeUtf8,
    Variant::Dictionary,
    Variant::DictionaryNullValues,
    Variant::BinaryView,
    Variant::ListView,
    Variant::LargeList,
    Variant::Decimal256,
    Variant::Decimal64,
    Variant::Decimal32,
];

/// `dt` with every type the variant touches replaced (map keys are left alone: Flink needs string keys and
/// our plan accepts Utf8/LargeUtf8/Utf8View keys only).
fn transform(dt: &DataType, v: Variant) -> DataType {
    use DataType as D;
    let field = |f: &Arc<Field>| {
        Arc::new(
            f.as_ref()
                .clone()
                .with_data_type(transform(f.data_type(), v)),
        )
    };
    match (dt, v) {
        (D::Utf8, Variant::Utf8View) => D::Utf8View,
        (D::Utf8, Variant::LargeUtf8) => D::LargeUtf8,
        (D::Utf8, Variant::Dictionary) => D::Dictionary(Box::new(D::Int32), Box::new(D::Utf8)),
        (D::Binary, Variant::BinaryView) => D::BinaryView,
        (D::List(f), Variant::ListView) => D::ListView(field(f)),
        (D::List(f), Variant::LargeList) => D::LargeList(field(f)),
        (D::Decimal128(p, s), Variant::Decimal256) => D::Decimal256(*p, *s),
        (D::Decimal128(p, s), Variant::Decimal64) if *p <= 18 => D::Decimal64(*p, *s),
        (D::Decimal128(p, s), Variant::Decimal32) if *p <= 9 => D::Decimal32(*p, *s),
        (D::List(f), _) => D::List(field(f)),
        (D::LargeList(f), _) => D::LargeList(field(f)),
        (D::FixedSizeList(f, n), _) => D::FixedSizeList(field(f), *n),
        (D::Struct(fields), _) => D::Struct(fields.iter().map(field).collect::<Fields>()),
        (D::Map(entries, sorted), _) => {
            let D::Struct(kv) = entries.data_type() else {
                return dt.clone();
            };
            let kv: Fields = vec![kv[0].clone(), field(&kv[1])].into();
            D::Map(
                Arc::new(entries.as_ref().clone().with_data_type(D::Struct(kv))),
                *sorted,
            )
        }
        _ => dt.clone(),
    }
}

/// A dictionary over a Utf8 column whose null rows point at a null *value* slot (valid keys).
fn dictionary_with_null_values(column: &ArrayRef) -> Option<ArrayRef> {
    let strings = column.as_string_opt::<i32>()?;
    if strings.null_count() == 0 {
        return None;
    }
    let mut index: BTreeMap<&str, i32> = BTreeMap::new();
    let mut values: Vec<Option<&str>> = Vec::new();
    let mut keys = Vec::with_capacity(strings.len());
    for s in strings.iter() {
        let key = match s {
            Some(s) => *index.entry(s).or_insert_with(|| {
                values.push(Some(s));
                values.len() as i32 - 1
            }),
            None => -1,
        };
        keys.push(key);
    }
    let null_slot = values.len() as i32;
    values.push(None);
    let keys: Int32Array = keys
        .into_iter()
        .map(|k| Some(if k < 0 { null_slot } else { k }))
        .collect();
    let dict = DictionaryArray::try_new(keys, Arc::new(StringArray::from(values))).ok()?;
    Some(Arc::new(dict))
}

/// The batches with every column cast to the variant's layout; `None` when nothing changes. The row-kind
/// column is left alone; a column the cast cannot take keeps its layout.
fn variant_batches(
    batches: &[RecordBatch],
    v: Variant,
    row_kind: Option<&str>,
) -> Option<Vec<RecordBatch>> {
    let options = CastOptions {
        safe: false,
        ..Default::default()
    };
    let schema = batches.first()?.schema();
    let convert = |i: usize, column: &ArrayRef| -> Option<ArrayRef> {
        let field = schema.field(i);
        if Some(field.name().as_str()) == row_kind {
            return None;
        }
        if let Variant::DictionaryNullValues = v {
            return dictionary_with_null_values(column);
        }
        let target = transform(field.data_type(), v);
        if &target == field.data_type() || !can_cast_types(field.data_type(), &target) {
            return None;
        }
        cast_with_options(column, &target, &options).ok()
    };
    // The first batch decides each column's layout; every later batch must convert the same way.
    let first: Vec<Option<ArrayRef>> = batches[0]
        .columns()
        .iter()
        .enumerate()
        .map(|(i, c)| convert(i, c))
        .collect();
    if first.iter().all(Option::is_none) {
        return None;
    }
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .zip(&first)
        .map(|(f, n)| match n {
            Some(n) => f.as_ref().clone().with_data_type(n.data_type().clone()),
            None => f.as_ref().clone(),
        })
        .collect();
    let new_schema = Arc::new(Schema::new(fields));
    let mut out = Vec::with_capacity(batches.len());
    for (b, batch) in batches.iter().enumerate() {
        let mut columns = Vec::with_capacity(batch.num_columns());
        for (i, column) in batch.columns().iter().enumerate() {
            let wanted = new_schema.field(i).data_type();
            let new = if b == 0 {
                first[i].clone()
            } else if wanted != column.data_type() {
                convert(i, column)
            } else {
                None
            };
            match new {
                Some(n) if n.data_type() == wanted => columns.push(n),
                None if column.data_type() == wanted => columns.push(column.clone()),
                _ => return None,
            }
        }
        out.push(RecordBatch::try_new(new_schema.clone(), columns).ok()?);
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------------------
// The golden sets
// ---------------------------------------------------------------------------------------------------------

fn golden_dir(set: &str, expected_version: &str) -> PathBuf {
    let root = env_dir("STREAMFUSION_PARITY_GOLDENS");
    let dir = root.join(set);
    assert!(
        dir.is_dir(),
        "golden set {} is missing: run scripts/parity.sh",
        dir.display()
    );
    let env = std::fs::read_to_string(dir.join("ENV")).unwrap_or_default();
    let flink = env
        .lines()
        .find_map(|l| l.strip_prefix("flink.version="))
        .unwrap_or("?");
    let java = env
        .lines()
        .find_map(|l| l.strip_prefix("java.version="))
        .unwrap_or("?");
    assert!(
        flink.starts_with(expected_version),
        "{}: ENV says flink.version={flink}, expected {expected_version}.x",
        dir.display()
    );
    println!("golden set {set}: Flink {flink}, Java {java}");
    dir
}

/// Compares every case (and every layout variant) with one golden set, byte for byte, encoding with the
/// `flink.version` of the set and the `float.java-digits` of the JDK that wrote it (`jdk19` or `jdk17`).
fn check_set(set: &str, flink_version: &str, float_digits: &str) {
    let pairs = [
        ("flink.version", flink_version),
        ("float.java-digits", float_digits),
    ];
    let corpus = load_corpus(&env_dir("STREAMFUSION_PARITY_CORPUS"));
    let dir = golden_dir(set, flink_version);
    let mut report = Report::default();
    for case in &corpus {
        report.cases += 1;
        let golden = match read_golden(&dir, &case.name) {
            Ok(g) => g,
            Err(e) => {
                report.mismatch(format!("{}: {e}", case.name));
                continue;
            }
        };
        let ours = encode(&case.options, &pairs, &case.batches);
        match (&golden, &ours) {
            (Golden::Error(g), Err(o)) => {
                report.error_cases += 1;
                println!("  {}: both fail\n    flink: {g}\n    ours:  {o}", case.name);
            }
            (Golden::Error(g), Ok(_)) => report.mismatch(format!(
                "{}: Flink fails ({g}) but our encoder succeeds",
                case.name
            )),
            (Golden::Records(_), Err(o)) => report.mismatch(format!(
                "{}: Flink encodes the case but our encoder fails: {o}",
                case.name
            )),
            (Golden::Records(g), Ok(o)) => {
                report.rows += g.len();
                report.bytes += g
                    .iter()
                    .map(|(k, v)| k.as_ref().map_or(0, Vec::len) + v.as_ref().map_or(0, Vec::len))
                    .sum::<usize>();
                compare_records(&mut report, &case.name, g, o);
            }
        }
        if let Golden::Records(g) = &golden {
            let row_kind = case
                .options
                .iter()
                .rev()
                .find(|(k, _)| k == "changelog.row-kind-column")
                .map(|(_, v)| v.as_str());
            for v in VARIANTS {
                let Some(batches) = variant_batches(&case.batches, v, row_kind) else {
                    continue;
                };
                report.variant_encodes += 1;
                let label = format!("{} [{v:?}]", case.name);
                match encode(&case.options, &pairs, &batches) {
                    Ok(o) => compare_records(&mut report, &label, g, &o),
                    Err(e) => report.mismatch(format!(
                        "{label}: our encoder fails on the {v:?} layout: {e}"
                    )),
                }
            }
        }
    }
    println!(
        "golden set {set}: {} cases ({} expected errors), {} rows, {} golden bytes compared, {} re-encodes in other \
         layouts; {} mismatches",
        report.cases, report.error_cases, report.rows, report.bytes, report.variant_encodes, report.mismatch_count
    );
    for m in &report.mismatches {
        println!("MISMATCH {m}");
    }
    assert_eq!(
        report.mismatch_count,
        0,
        "{set}: {} mismatches (first {} printed above)",
        report.mismatch_count,
        report.mismatches.len()
    );
}

#[test]
#[ignore = "needs goldens: run scripts/parity.sh"]
fn flink_2_2_jdk25() {
    check_set("flink-2.2-jdk25", "2.2", "jdk19");
}

#[test]
#[ignore = "needs goldens: run scripts/parity.sh"]
fn flink_1_20_jdk25() {
    check_set("flink-1.20-jdk25", "1.20", "jdk19");
}

#[test]
#[ignore = "needs goldens: run scripts/parity.sh"]
fn flink_2_3_jdk25() {
    check_set("flink-2.3-jdk25", "2.3", "jdk19");
}

#[test]
#[ignore = "needs goldens: run scripts/parity.sh"]
fn flink_2_2_jdk17() {
    check_set("flink-2.2-jdk17", "2.2", "jdk17");
}

// ---------------------------------------------------------------------------------------------------------
// JDK 19+ digits against Flink on JDK 17: only FLOAT/DOUBLE digits may differ (how many do is what
// docs/json-format.md quotes; `flink_2_2_jdk17` above checks the `jdk17` digits byte for byte)
// ---------------------------------------------------------------------------------------------------------

/// One JSON token as bytes; strings keep their quotes and escapes.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Number(&'a [u8]),
    Other(&'a [u8]),
}

fn tokens(json: &[u8]) -> Option<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < json.len() {
        let start = i;
        match json[i] {
            b'"' => {
                i += 1;
                while i < json.len() && json[i] != b'"' {
                    i += if json[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(Token::Other(json.get(start..i)?));
            }
            b'-' | b'0'..=b'9' => {
                while i < json.len()
                    && matches!(json[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                out.push(Token::Number(&json[start..i]));
            }
            b't' | b'f' | b'n' => {
                while i < json.len() && json[i].is_ascii_alphabetic() {
                    i += 1;
                }
                out.push(Token::Other(&json[start..i]));
            }
            _ => {
                i += 1;
                out.push(Token::Other(&json[start..i]));
            }
        }
    }
    Some(out)
}

/// Same float value, whatever the digits (`f32_allowed`: a FLOAT column exists, so equal as f32 counts).
fn same_float(a: &[u8], b: &[u8], f32_allowed: bool) -> bool {
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return false;
    };
    // Java float text always has a '.' (or is an exponent form with one); integers and decimals of other
    // types never differ by JDK.
    if !(a.contains('.') && b.contains('.')) {
        return false;
    }
    let f64_equal = matches!((a.parse::<f64>(), b.parse::<f64>()), (Ok(x), Ok(y)) if x == y);
    let f32_equal =
        f32_allowed && matches!((a.parse::<f32>(), b.parse::<f32>()), (Ok(x), Ok(y)) if x == y);
    f64_equal || f32_equal
}

/// `Ok(n)`: the two documents are identical except for `n` numbers that denote the same float value;
/// `Err`: a difference of any other kind.
fn float_only_difference(golden: &[u8], ours: &[u8], f32_allowed: bool) -> Result<usize, String> {
    let (Some(g), Some(o)) = (tokens(golden), tokens(ours)) else {
        return Err("unbalanced string".into());
    };
    if g.len() != o.len() {
        return Err(format!("{} vs {} JSON tokens", g.len(), o.len()));
    }
    let mut n = 0;
    for (a, b) in g.iter().zip(&o) {
        match (a, b) {
            _ if a == b => {}
            (Token::Number(x), Token::Number(y)) if same_float(x, y, f32_allowed) => n += 1,
            _ => return Err("a non-float token differs".into()),
        }
    }
    Ok(n)
}

fn has_float(dt: &DataType) -> (bool, bool) {
    use DataType as D;
    match dt {
        D::Float16 | D::Float32 => (true, true),
        D::Float64 => (true, false),
        D::List(f)
        | D::LargeList(f)
        | D::FixedSizeList(f, _)
        | D::ListView(f)
        | D::LargeListView(f) => has_float(f.data_type()),
        D::Map(f, _) => has_float(f.data_type()),
        D::Struct(fields) => fields
            .iter()
            .map(|f| has_float(f.data_type()))
            .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1)),
        D::Dictionary(_, v) => has_float(v),
        _ => (false, false),
    }
}

/// Float-only comparison of two record lists; adds to `stats` and returns non-float differences.
fn float_tolerant(
    label: &str,
    golden: &[Record],
    other: &[Record],
    floats: (bool, bool),
    stats: &mut (usize, usize, Vec<String>),
) -> Vec<String> {
    let mut hard = Vec::new();
    if golden.len() != other.len() {
        hard.push(format!(
            "{label}: {} vs {} records",
            golden.len(),
            other.len()
        ));
    }
    for (row, (g, o)) in golden.iter().zip(other).enumerate() {
        let mut record_differs = false;
        for (what, gb, ob) in [("key", &g.0, &o.0), ("value", &g.1, &o.1)] {
            if gb == ob {
                continue;
            }
            let result = match (gb, ob) {
                (Some(x), Some(y)) if floats.0 => float_only_difference(x, y, floats.1),
                (Some(_), Some(_)) => Err("the case has no FLOAT/DOUBLE column".into()),
                _ => Err("null vs present".into()),
            };
            match result {
                Ok(n) => {
                    record_differs = true;
                    stats.1 += n;
                    if stats.2.len() < 8 {
                        stats.2.push(format!(
                            "{label} row {row} {what}:\n    jdk17 {}\n    other {}",
                            show(gb.as_deref()),
                            show(ob.as_deref())
                        ));
                    }
                }
                Err(why) => hard.push(format!(
                    "{label} row {row} {what} ({why}):\n    jdk17 {}\n    other {}",
                    show(gb.as_deref()),
                    show(ob.as_deref())
                )),
            }
        }
        stats.0 += usize::from(record_differs);
    }
    hard
}

#[test]
#[ignore = "needs goldens: run scripts/parity.sh"]
fn flink_2_2_jdk17_floats_only() {
    let corpus = load_corpus(&env_dir("STREAMFUSION_PARITY_CORPUS"));
    let dir = golden_dir("flink-2.2-jdk17", "2.2");
    let jdk25 = golden_dir("flink-2.2-jdk25", "2.2");
    let (mut cases, mut rows, mut bytes) = (0usize, 0usize, 0usize);
    // (records that differ, float values that differ, examples): ours vs JDK 17, and JDK 25 Flink vs JDK 17.
    let mut ours_stats = (0, 0, Vec::new());
    let mut jdk_stats = (0, 0, Vec::new());
    let mut hard: Vec<String> = Vec::new();
    for case in &corpus {
        cases += 1;
        let golden = match read_golden(&dir, &case.name) {
            Ok(g) => g,
            Err(e) => {
                hard.push(format!("{}: {e}", case.name));
                continue;
            }
        };
        let floats = case
            .batches
            .first()
            .map(|b| {
                b.schema()
                    .fields()
                    .iter()
                    .map(|f| has_float(f.data_type()))
                    .fold((false, false), |a, b| (a.0 || b.0, a.1 || b.1))
            })
            .unwrap_or((false, false));
        let ours = encode(&case.options, &[("flink.version", "2.2")], &case.batches);
        match (&golden, ours) {
            (Golden::Error(_), Err(_)) => {}
            (Golden::Error(g), Ok(_)) => hard.push(format!(
                "{}: Flink fails ({g}) but our encoder succeeds",
                case.name
            )),
            (Golden::Records(_), Err(o)) => {
                hard.push(format!("{}: our encoder fails: {o}", case.name))
            }
            (Golden::Records(g), Ok(o)) => {
                rows += g.len();
                bytes += g
                    .iter()
                    .map(|(k, v)| k.as_ref().map_or(0, Vec::len) + v.as_ref().map_or(0, Vec::len))
                    .sum::<usize>();
                hard.extend(float_tolerant(
                    &format!("{} (ours)", case.name),
                    g,
                    &o,
                    floats,
                    &mut ours_stats,
                ));
                if let Ok(Golden::Records(j25)) = read_golden(&jdk25, &case.name) {
                    hard.extend(float_tolerant(
                        &format!("{} (Flink on JDK 25)", case.name),
                        g,
                        &j25,
                        floats,
                        &mut jdk_stats,
                    ));
                }
            }
        }
    }
    println!(
        "golden set flink-2.2-jdk17: {cases} cases, {rows} rows, {bytes} golden bytes compared"
    );
    println!(
        "  ours (JDK 19+ digits) vs Flink on JDK 17: {} records differ, {} float values differ (float-only)",
        ours_stats.0, ours_stats.1
    );
    for e in &ours_stats.2 {
        println!("  example {e}");
    }
    println!(
        "  Flink on JDK 25 vs Flink on JDK 17: {} records differ, {} float values differ (float-only)",
        jdk_stats.0, jdk_stats.1
    );
    for e in jdk_stats.2.iter().take(3) {
        println!("  example {e}");
    }
    for h in hard.iter().take(MAX_REPORTED) {
        println!("NON-FLOAT DIFFERENCE {h}");
    }
    assert!(
        hard.is_empty(),
        "flink-2.2-jdk17: {} differences that are not FLOAT/DOUBLE digits",
        hard.len()
    );
}

#[test]
fn float_only_difference_detects_non_float_changes() {
    // The JDK 17 check itself must be able to fail.
    assert_eq!(
        float_only_difference(br#"{"v":1.23456792E8}"#, br#"{"v":1.2345679E8}"#, true),
        Ok(1)
    );
    assert!(
        float_only_difference(br#"{"v":1.23456792E8}"#, br#"{"v":1.2345679E8}"#, false).is_err()
    );
    assert_eq!(
        float_only_difference(br#"{"v":1.9999999999999998E23}"#, br#"{"v":2.0E23}"#, false),
        Ok(1)
    );
    assert!(float_only_difference(br#"{"v":15}"#, br#"{"v":1.5E1}"#, false).is_err());
    assert!(float_only_difference(br#"{"v":"a"}"#, br#"{"v":"b"}"#, false).is_err());
    assert!(float_only_difference(br#"{"v":1.0,"w":2}"#, br#"{"v":1.0}"#, false).is_err());
    assert!(float_only_difference(br#"{"v":1E+2}"#, br#"{"v":100}"#, false).is_err());
}
