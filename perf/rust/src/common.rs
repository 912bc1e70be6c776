//! The definitions every producer comparison shares with the Java tools, read from the files of
//! `perf/common` (compiled in): the producer settings (`producer.properties`) and the results schema
//! (`results-schema.csv`), which `perf/kafka` and `perf/streamfusion` read from their classpath. Nothing here
//! restates them: a change to either file changes every tool alike.
//!
//! ```
//! use streamfusion_bench::common::{producer_settings, ResultRow, RESULT_COLUMNS};
//! assert_eq!(producer_settings()[0], ("batch.size".to_owned(), "524288".to_owned()));
//! let row = ResultRow::new().text("mode", "rust-bijou").number("value_bytes_per_record", Some(2.98512));
//! assert_eq!(row.get("value_bytes_per_record"), "2.985");
//! assert_eq!(row.csv_line().split(',').count(), RESULT_COLUMNS.len());
//! ```

use std::collections::HashMap;
use std::sync::LazyLock;

const PRODUCER_PROPERTIES: &str = include_str!("../../common/producer.properties");
const RESULTS_SCHEMA: &str = include_str!("../../common/results-schema.csv");

/// The producer settings of every comparison (`perf/common/producer.properties`), in the file's order;
/// `compression.type` is added per run.
///
/// # Panics
/// Never at run time for the file compiled in: a malformed file fails this crate's tests.
#[must_use]
pub fn producer_settings() -> &'static [(String, String)] {
    static SETTINGS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
        parse_properties(PRODUCER_PROPERTIES).expect("perf/common/producer.properties")
    });
    &SETTINGS
}

/// `key=value` pairs joined by spaces, for headers.
#[must_use]
pub fn settings_line(settings: &[(impl AsRef<str>, impl AsRef<str>)]) -> String {
    settings
        .iter()
        .map(|(k, v)| format!("{}={}", k.as_ref(), v.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses `key=value` lines (blank lines and `#` comments skipped, spaces trimmed), as the Java side's
/// `ProducerSettings` does.
///
/// # Errors
/// A line without `=` or with an empty key, or a key set twice: the message names the line.
pub fn parse_properties(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut settings: Vec<(String, String)> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Ok((key, value)) = kafka_util::args::parse_property(line) else {
            return Err(format!(
                "producer.properties:{}: expected key=value, got '{line}'",
                number + 1
            ));
        };
        if settings.iter().any(|(k, _)| *k == key) {
            return Err(format!(
                "producer.properties:{}: {key} is set twice",
                number + 1
            ));
        }
        settings.push((key, value));
    }
    Ok(settings)
}

/// What a results column holds (`perf/common/results-schema.csv`'s `kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text.
    Text,
    /// A whole number.
    Count,
    /// A decimal number with the column's decimals.
    Number,
    /// `true` or `false`.
    Bool,
}

/// One column of the results schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The header name, snake case.
    pub name: String,
    /// What it holds.
    pub kind: Kind,
    /// Decimals of a [`Kind::Number`] (0 otherwise).
    pub decimals: usize,
    /// What it means, with its unit.
    pub description: String,
}

/// Every column of the results schema, in the CSV's order.
pub static RESULT_COLUMNS: LazyLock<Vec<Column>> =
    LazyLock::new(|| parse_schema(RESULTS_SCHEMA).expect("perf/common/results-schema.csv"));

/// The results CSV header line (no line break).
#[must_use]
pub fn results_header() -> String {
    RESULT_COLUMNS
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses the schema: a header `column,kind,decimals,description`, then one column per record.
///
/// # Errors
/// A malformed record, an unknown kind or a column given twice, naming the record.
pub fn parse_schema(text: &str) -> Result<Vec<Column>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut columns: Vec<Column> = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let at = i + 2;
        let record = record.map_err(|e| format!("results-schema.csv:{at}: {e}"))?;
        let field = |n: usize| record.get(n).unwrap_or_default().to_owned();
        let kind = match field(1).as_str() {
            "text" => Kind::Text,
            "count" => Kind::Count,
            "number" => Kind::Number,
            "bool" => Kind::Bool,
            other => return Err(format!("results-schema.csv:{at}: unknown kind '{other}'")),
        };
        let decimals = match field(2).as_str() {
            "" => 0,
            d => d
                .parse()
                .map_err(|_| format!("results-schema.csv:{at}: decimals '{d}'"))?,
        };
        let name = field(0);
        if columns.iter().any(|c| c.name == name) {
            return Err(format!("results-schema.csv:{at}: {name} given twice"));
        }
        columns.push(Column {
            name,
            kind,
            decimals,
            description: field(3),
        });
    }
    Ok(columns)
}

/// One results row: cells set by column name, every other cell empty. Setting a column the schema does not
/// have, or with the wrong kind, is a programming error and panics (every writer is covered by a test).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultRow {
    cells: HashMap<&'static str, String>,
}

impl ResultRow {
    /// An empty row.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn put(mut self, name: &'static str, kind: Kind, cell: String) -> Self {
        let column = column(name);
        assert_eq!(
            column.kind, kind,
            "results column {name} holds {:?}",
            column.kind
        );
        self.cells.insert(name, cell);
        self
    }

    /// Sets a text column.
    #[must_use]
    pub fn text(self, name: &'static str, text: &str) -> Self {
        self.put(name, Kind::Text, text.to_owned())
    }

    /// Sets a count column.
    #[must_use]
    pub fn count(self, name: &'static str, count: u64) -> Self {
        self.put(name, Kind::Count, count.to_string())
    }

    /// Sets a number column with its decimals; `None` (or NaN) leaves it empty.
    #[must_use]
    pub fn number(self, name: &'static str, value: Option<f64>) -> Self {
        let decimals = column(name).decimals;
        let cell = value
            .filter(|v| !v.is_nan())
            .map_or_else(String::new, |v| format!("{v:.decimals$}"));
        self.put(name, Kind::Number, cell)
    }

    /// Sets a bool column.
    #[must_use]
    pub fn flag(self, name: &'static str, value: bool) -> Self {
        self.put(name, Kind::Bool, value.to_string())
    }

    /// The cell of a column as it will be written; empty when unset.
    #[must_use]
    pub fn get(&self, name: &str) -> &str {
        self.cells.get(name).map_or("", String::as_str)
    }

    /// The CSV line (no line break), every column in the schema's order, quoted as RFC 4180 needs.
    #[must_use]
    pub fn csv_line(&self) -> String {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        let cells = RESULT_COLUMNS.iter().map(|c| self.get(&c.name));
        // Writing to a Vec cannot fail.
        let _ = writer.write_record(cells);
        let bytes = writer.into_inner().unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .trim_end_matches('\n')
            .to_owned()
    }
}

fn column(name: &str) -> &'static Column {
    RESULT_COLUMNS
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("the results schema has no column {name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_parse() {
        let settings = producer_settings();
        assert_eq!(
            settings_line(settings),
            "batch.size=524288 linger.ms=20 acks=all enable.idempotence=true"
        );
        assert_eq!(RESULT_COLUMNS.len(), 50);
        assert!(results_header().starts_with("benchmark,workload,mode,implementation,compression,"));
        assert!(results_header().ends_with(",verdict,source_cpu_share,operators_cpu_share,producer_cpu_share,checkpoints_cpu_share,jvm_cpu_share,planning_cpu_share,other_cpu_share,problem"));
    }

    #[test]
    fn malformed_properties_are_refused() {
        assert_eq!(
            parse_properties("# c\n\n a = 1 2 \n"),
            Ok(vec![("a".to_owned(), "1 2".to_owned())])
        );
        assert!(parse_properties("novalue\n").unwrap_err().contains(":1:"));
        assert!(parse_properties("a=1\na=2\n")
            .unwrap_err()
            .contains("set twice"));
        assert!(
            parse_schema("column,kind,decimals,description\nx,float,,y\n")
                .unwrap_err()
                .contains("unknown kind 'float'")
        );
    }

    #[test]
    fn a_row_formats_and_quotes() {
        let row = ResultRow::new()
            .text("benchmark", "json-sink")
            .count("records", 50_000)
            .number("median_records_per_s", Some(1_100_000.4))
            .number("ratio_vs_baseline", None)
            .flag("verified", false)
            .text("problem", "3 missing, \"2\" duplicated");
        let line = row.csv_line();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        assert_eq!(record.len(), RESULT_COLUMNS.len());
        assert_eq!(&record[0], "json-sink");
        assert_eq!(row.get("median_records_per_s"), "1100000");
        assert_eq!(row.get("ratio_vs_baseline"), "");
        assert_eq!(
            &record[RESULT_COLUMNS.len() - 1],
            "3 missing, \"2\" duplicated"
        );
        let verified = RESULT_COLUMNS
            .iter()
            .position(|c| c.name == "verified")
            .unwrap();
        assert_eq!(&record[verified], "false");
        assert!(
            line.ends_with(",\"3 missing, \"\"2\"\" duplicated\""),
            "quoted as RFC 4180 says: {line}"
        );
    }

    #[test]
    #[should_panic(expected = "no column median_msgs_per_s")]
    fn an_unknown_column_is_a_bug() {
        let _ = ResultRow::new().number("median_msgs_per_s", Some(1.0));
    }

    #[test]
    #[should_panic(expected = "holds Count")]
    fn a_wrong_kind_is_a_bug() {
        let _ = ResultRow::new().text("records", "x");
    }
}
