//! `streamfusion-bench chart`: one PNG per producer comparison CSV.
//!
//! The picture has one row per distribution, in the order the CSV lists them. On the
//! left, throughput: the median msgs/s of every mode as a bar, grouped by compression,
//! with a whisker from the slowest to the fastest iteration. On the right, the average
//! payload bytes per mode (a property of the values and the encoding, so one bar per
//! mode). A mode keeps its colour everywhere; a run that was not verified is labelled
//! so. A Nexmark CSV (`benchmark` `nexmark-flink`, `perf/nexmark`) is drawn the same way
//! with one row per query: events/s of the job on the left, the harness JVM's CPU per
//! event on the right.
//!
//! Text is drawn with DejaVu Sans from the `dejavu` crate through plotters' `ab_glyph`
//! feature: no system font, fontconfig or freetype is needed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Once;

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;

use streamfusion_cli::progress::grouped;

use crate::Error;

/// Width of the picture in pixels.
const WIDTH: u32 = 1500;
/// Height of the title band.
const HEADER: u32 = 120;
/// Height of one distribution's row.
const ROW: u32 = 430;
/// The font family registered from the `dejavu` crate.
const FONT: &str = "sans-serif";

/// One row of a results CSV, the columns the chart needs.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartRow {
    /// Which comparison wrote the row (the `benchmark` column).
    pub benchmark: String,
    /// `long`, `bijou`, ..., `rust-bijou` (the `mode` column).
    pub mode: String,
    /// `compression.type`.
    pub compression: String,
    /// `sequential`, `uniform`, `boundary` or `mixed` (the `workload` column).
    pub distribution: String,
    /// Records per iteration.
    pub messages: u64,
    /// Measured iterations.
    pub iterations: u64,
    /// Median msgs/s, if measured.
    pub median: Option<f64>,
    /// Slowest iteration.
    pub min: Option<f64>,
    /// Fastest iteration.
    pub max: Option<f64>,
    /// Mean value bytes.
    pub avg_payload_bytes: Option<f64>,
    /// Process CPU per record, microseconds (the `cpu_us_per_record` column).
    pub cpu_us_per_record: Option<f64>,
    /// Read back and checked.
    pub verified: bool,
}

/// Reads a producer comparison CSV in the results schema (`perf/common/results-schema.csv`; header line
/// first, columns found by name, RFC 4180 quoting).
///
/// # Errors
/// [`Error::Io`] when it cannot be read, [`Error::Csv`] for a missing column, a row
/// with the wrong number of fields or a number that does not parse, or no rows.
pub fn read_results(path: &Path) -> Result<Vec<ChartRow>, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_results(&text, path)
}

fn parse_results(text: &str, path: &Path) -> Result<Vec<ChartRow>, Error> {
    let csv_error = |line: usize, reason: String| Error::Csv {
        path: path.to_owned(),
        line,
        reason,
    };
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let columns: Vec<String> = reader
        .headers()
        .map_err(|e| csv_error(1, e.to_string()))?
        .iter()
        .map(str::to_owned)
        .collect();
    if columns.iter().all(String::is_empty) {
        return Err(csv_error(0, "empty file".into()));
    }
    let index = |name: &str| {
        columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| csv_error(1, format!("no column {name}")))
    };
    let [benchmark, mode, compression, distribution, messages, iterations, median, min, max, avg, cpu, verified] =
        [
            "benchmark",
            "mode",
            "compression",
            "workload",
            "records",
            "iterations",
            "median_records_per_s",
            "min_records_per_s",
            "max_records_per_s",
            "value_bytes_per_record",
            "cpu_us_per_record",
            "verified",
        ]
        .map(index);
    let (benchmark, mode, compression, distribution, messages, iterations) = (
        benchmark?,
        mode?,
        compression?,
        distribution?,
        messages?,
        iterations?,
    );
    let (median, min, max, avg, cpu, verified) = (median?, min?, max?, avg?, cpu?, verified?);

    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            csv_error(line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let field = |at: usize| record.get(at).unwrap_or_default();
        let number = |at: usize| -> Result<Option<f64>, Error> {
            match field(at) {
                "" | "NaN" => Ok(None),
                text => text.parse().map(Some).map_err(|_| {
                    csv_error(line, format!("{}: '{text}' is not a number", columns[at]))
                }),
            }
        };
        let count = |at: usize| -> Result<u64, Error> {
            field(at).parse().map_err(|_| {
                csv_error(
                    line,
                    format!("{}: '{}' is not a count", columns[at], field(at)),
                )
            })
        };
        rows.push(ChartRow {
            benchmark: field(benchmark).to_owned(),
            mode: field(mode).to_owned(),
            compression: field(compression).to_owned(),
            distribution: field(distribution).to_owned(),
            messages: count(messages)?,
            iterations: count(iterations)?,
            median: number(median)?,
            min: number(min)?,
            max: number(max)?,
            avg_payload_bytes: number(avg)?,
            cpu_us_per_record: number(cpu)?,
            verified: field(verified).eq_ignore_ascii_case("true"),
        });
    }
    if rows.is_empty() {
        return Err(csv_error(0, "no result rows".into()));
    }
    Ok(rows)
}

/// The colour of a mode: the `long` baselines grey/tan, the bijou modes blue/orange.
fn mode_color(mode: &str, index: usize) -> RGBColor {
    match mode {
        "long" => RGBColor(127, 127, 127),
        "bijou" => RGBColor(31, 119, 180),
        "bijou-java" => RGBColor(118, 172, 222),
        "bijou-zigzag" => RGBColor(148, 103, 189),
        "rust-long" => RGBColor(196, 156, 112),
        "rust-bijou" => RGBColor(230, 110, 20),
        _ => {
            const SPARE: [RGBColor; 4] = [
                RGBColor(44, 160, 44),
                RGBColor(214, 39, 40),
                RGBColor(23, 190, 207),
                RGBColor(188, 189, 34),
            ];
            SPARE[index % SPARE.len()]
        }
    }
}

/// `1234567` as `1.23M`, `45600` as `45.6k`.
fn short_rate(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.2}M", value / 1e6)
    } else if value >= 1e3 {
        format!("{:.1}k", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}

/// An axis tick: `1200000` as `1.2M`, `800000` as `800k`.
fn axis_rate(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.1}M", value / 1e6)
    } else if value >= 1e3 {
        format!("{:.0}k", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}

/// The distinct values of `key` over `rows`, in order of first appearance.
fn distinct<'a>(rows: &'a [ChartRow], key: impl Fn(&'a ChartRow) -> &'a str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for row in rows {
        let value = key(row);
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out
}

fn register_fonts() {
    static FONTS: Once = Once::new();
    FONTS.call_once(|| {
        // The DejaVu files are valid TrueType fonts; a failure would leave text out,
        // which the drawing calls then report.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// What the panels of a chart show: the producer comparisons' or a Nexmark run's measures.
struct Labels {
    /// The left panel's caption after `workload: `.
    rate: &'static str,
    /// The right panel's caption after `workload: `.
    side: &'static str,
    /// The right panel's value of a row.
    side_value: fn(&ChartRow) -> Option<f64>,
    /// The right panel's axis reaches at least this far.
    side_floor: f64,
    /// What one measured iteration is, for the subtitle.
    unit: &'static str,
}

impl Labels {
    fn of(rows: &[ChartRow]) -> Self {
        if rows.iter().all(|r| r.benchmark == "nexmark-flink") {
            Self {
                rate: "throughput (events/s, job net runtime)",
                side: "CPU per event (us, harness JVM)",
                side_value: |r| r.cpu_us_per_record,
                side_floor: 1.0,
                unit: "events per run",
            }
        } else {
            Self {
                rate: "throughput (msgs/s, one producer thread)",
                side: "average payload (bytes/value)",
                side_value: |r| r.avg_payload_bytes,
                side_floor: 8.0,
                unit: "records per iteration",
            }
        }
    }
}

/// Draws the chart of `rows` into the PNG `out`; `title` heads it.
///
/// # Errors
/// [`Error::Chart`] when drawing or writing the PNG fails.
pub fn draw(rows: &[ChartRow], title: &str, out: &Path) -> Result<(), Error> {
    register_fonts();
    let fail = |reason: String| Error::Chart {
        path: out.to_owned(),
        reason,
    };
    let distributions = distinct(rows, |r| &r.distribution);
    let modes = distinct(rows, |r| &r.mode);
    let compressions = distinct(rows, |r| &r.compression);
    let colors: HashMap<&str, RGBColor> = modes
        .iter()
        .enumerate()
        .map(|(i, m)| (*m, mode_color(m, i)))
        .collect();

    let labels = Labels::of(rows);
    let height = HEADER + ROW * distributions.len() as u32;
    let root = BitMapBackend::new(out, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
    let (header, body) = root.split_vertically(HEADER);
    draw_header(&header, rows, title, &labels, &modes, &colors).map_err(|e| fail(e.to_string()))?;
    for (area, distribution) in body
        .split_evenly((distributions.len(), 1))
        .iter()
        .zip(&distributions)
    {
        let (left, right) = area.split_horizontally(WIDTH * 64 / 100);
        let of_distribution: Vec<&ChartRow> = rows
            .iter()
            .filter(|r| r.distribution == *distribution)
            .collect();
        // The slots of this row: the modes it has (a Nexmark query has its two sinks), colours
        // kept from the whole chart.
        let row_modes: Vec<&str> = modes
            .iter()
            .copied()
            .filter(|m| of_distribution.iter().any(|r| r.mode == *m))
            .collect();
        draw_throughput(
            &left,
            &format!("{distribution}: {}", labels.rate),
            &of_distribution,
            &row_modes,
            &compressions,
            &colors,
        )
        .map_err(|e| fail(e.to_string()))?;
        draw_side(
            &right,
            &format!("{distribution}: {}", labels.side),
            &labels,
            &of_distribution,
            &row_modes,
            &colors,
        )
        .map_err(|e| fail(e.to_string()))?;
    }
    root.present().map_err(|e| fail(e.to_string()))?;
    Ok(())
}

/// A `0..n` axis of `n` equal slots whose ticks (and so labels) sit at the slot
/// centres `i + 0.5`: the category axis of the bar charts.
#[derive(Debug, Clone, Copy)]
struct Slots(usize);

impl Ranged for Slots {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let fraction = value / self.0.max(1) as f64;
        limit.0 + (f64::from(limit.1 - limit.0) * fraction).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            (0..self.0).map(|i| i as f64 + 0.5).collect()
        }
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0 as f64
    }
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type DrawResult = Result<(), Box<dyn std::error::Error + 'static>>;

fn draw_header(
    area: &Area<'_>,
    rows: &[ChartRow],
    title: &str,
    labels: &Labels,
    modes: &[&str],
    colors: &HashMap<&str, RGBColor>,
) -> DrawResult {
    let title_style = TextStyle::from((FONT, 26, FontStyle::Bold).into_font()).color(&BLACK);
    let text_style = TextStyle::from((FONT, 16).into_font()).color(&RGBColor(60, 60, 60));
    area.draw(&Text::new(title.to_owned(), (20, 14), title_style))?;
    let first = &rows[0];
    let checked = if rows.iter().all(|r| r.verified) {
        "every run read back and verified"
    } else {
        "runs marked NOT VERIFIED did not read back what they sent"
    };
    let subtitle = format!(
        "{} {}, median of {} iteration(s) after one warm-up; whiskers: slowest to \
         fastest iteration; {checked}.",
        grouped(first.messages as f64),
        labels.unit,
        first.iterations
    );
    area.draw(&Text::new(subtitle, (20, 50), text_style.clone()))?;
    let mut x = 20;
    for mode in modes {
        let color = colors[mode];
        area.draw(&Rectangle::new([(x, 84), (x + 18, 102)], color.filled()))?;
        area.draw(&Text::new(
            (*mode).to_owned(),
            (x + 26, 84),
            text_style.clone(),
        ))?;
        let (text_width, _) = area.estimate_text_size(mode, &text_style)?;
        x += 26 + text_width as i32 + 30;
    }
    Ok(())
}

fn draw_throughput(
    area: &Area<'_>,
    caption: &str,
    rows: &[&ChartRow],
    modes: &[&str],
    compressions: &[&str],
    colors: &HashMap<&str, RGBColor>,
) -> DrawResult {
    let top = rows
        .iter()
        .filter_map(|r| r.max.or(r.median))
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1.15;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20, FontStyle::Bold))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(Slots(compressions.len()), 0.0..top)?;
    let label_style = TextStyle::from((FONT, 15).into_font());
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(225, 225, 225))
        .x_label_style(TextStyle::from((FONT, 17).into_font()))
        .y_label_style(label_style.clone())
        .x_label_formatter(&|x| {
            let group = x.floor() as usize;
            compressions
                .get(group)
                .map(|c| format!("compression {c}"))
                .unwrap_or_default()
        })
        .y_label_formatter(&|y| axis_rate(*y))
        .draw()?;

    let pad = 0.08;
    let width = (1.0 - 2.0 * pad) / modes.len() as f64;
    let value_style = TextStyle::from((FONT, 13).into_font())
        .color(&RGBColor(40, 40, 40))
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    let warn_style = TextStyle::from((FONT, 13, FontStyle::Bold).into_font())
        .color(&RGBColor(200, 0, 0))
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    for (g, compression) in compressions.iter().enumerate() {
        for (m, mode) in modes.iter().enumerate() {
            let Some(row) = rows
                .iter()
                .find(|r| r.compression == *compression && r.mode == *mode)
            else {
                continue;
            };
            let x0 = g as f64 + pad + m as f64 * width;
            let (x1, xc) = (x0 + width * 0.9, x0 + width * 0.45);
            let color = colors[mode];
            if let Some(median) = row.median {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1, median)],
                    color.filled(),
                )))?;
                if let (Some(low), Some(high)) = (row.min, row.max) {
                    let cap = width * 0.15;
                    let whisker = ShapeStyle::from(&BLACK.mix(0.7)).stroke_width(1);
                    chart.draw_series([
                        PathElement::new(vec![(xc, low), (xc, high)], whisker),
                        PathElement::new(vec![(xc - cap, low), (xc + cap, low)], whisker),
                        PathElement::new(vec![(xc - cap, high), (xc + cap, high)], whisker),
                    ])?;
                }
                let at = row.max.unwrap_or(median).max(median);
                chart.draw_series(std::iter::once(
                    EmptyElement::at((xc, at))
                        + Text::new(short_rate(median), (0, -4), value_style.clone()),
                ))?;
            }
            if !row.verified {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((xc, 0.0))
                        + Text::new("NOT VERIFIED", (0, -8), warn_style.clone()),
                ))?;
            }
        }
    }
    Ok(())
}

fn draw_side(
    area: &Area<'_>,
    caption: &str,
    labels: &Labels,
    rows: &[&ChartRow],
    modes: &[&str],
    colors: &HashMap<&str, RGBColor>,
) -> DrawResult {
    // One value per mode: the payload does not depend on the compression (and a Nexmark
    // run has one compression).
    let values: Vec<(usize, &str, f64)> = modes
        .iter()
        .enumerate()
        .filter_map(|(i, mode)| {
            rows.iter()
                .filter(|r| r.mode == *mode)
                .find_map(|r| (labels.side_value)(r))
                .map(|b| (i, *mode, b))
        })
        .collect();
    let top = values.iter().map(|b| b.2).fold(labels.side_floor, f64::max) * 1.2;
    let count = modes.len() as f64;
    // Mode i is drawn at y = count - i - 0.5, so the first mode is at the top.
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20, FontStyle::Bold))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(110)
        .build_cartesian_2d(0.0..top, Slots(modes.len()))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(225, 225, 225))
        .x_label_style(TextStyle::from((FONT, 15).into_font()))
        .y_label_style(TextStyle::from((FONT, 16).into_font()))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            let i = (count - y).floor() as usize;
            modes.get(i).map(|m| (*m).to_owned()).unwrap_or_default()
        })
        .draw()?;
    let value_style = TextStyle::from((FONT, 14).into_font())
        .color(&RGBColor(40, 40, 40))
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, mode, value) in values {
        let y0 = count - i as f64 - 0.85;
        let y1 = count - i as f64 - 0.15;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(0.0, y0), (value, y1)],
            colors[mode].filled(),
        )))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((value, (y0 + y1) / 2.0))
                + Text::new(format!("{value:.3}"), (6, 0), value_style.clone()),
        ))?;
    }
    Ok(())
}

/// `results-20261129T195526.csv` -> `results-20261129T195526.png` (same folder).
#[must_use]
pub fn png_beside(csv: &Path) -> PathBuf {
    csv.with_extension("png")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::{results_header, ResultRow};

    /// Rows as the comparison writes them: the schema's header, the cells it fills.
    fn csv() -> String {
        let rows = [
            (
                "long",
                "none",
                "sequential",
                "2",
                "1042733",
                "1019517",
                "1065948",
                "8.000",
                "true",
                "-",
            ),
            (
                "bijou",
                "none",
                "sequential",
                "2",
                "871223",
                "789910",
                "952537",
                "2.985",
                "true",
                "NATIVE",
            ),
            (
                "rust-bijou",
                "zstd",
                "sequential",
                "2",
                "1500000",
                "1400000",
                "1600000",
                "2.985",
                "true",
                "RUST",
            ),
            (
                "rust-long",
                "zstd",
                "mixed",
                "0",
                "",
                "",
                "",
                "",
                "false",
                "RUST",
            ),
        ];
        let mut out = results_header() + "\n";
        for (
            mode,
            compression,
            workload,
            iterations,
            median,
            min,
            max,
            bytes,
            verified,
            implementation,
        ) in rows
        {
            let row = ResultRow::new()
                .text("benchmark", "bijou64-producer")
                .text("workload", workload)
                .text("mode", mode)
                .text("implementation", implementation)
                .text("compression", compression)
                .count("records", 50_000)
                .count("iterations", iterations.parse().unwrap())
                .number("median_records_per_s", median.parse().ok())
                .number("min_records_per_s", min.parse().ok())
                .number("max_records_per_s", max.parse().ok())
                .number("value_bytes_per_record", bytes.parse().ok())
                .flag("verified", verified == "true")
                .text(
                    "problem",
                    if verified == "true" {
                        ""
                    } else {
                        "no broker, \"x\""
                    },
                );
            out.push_str(&row.csv_line());
            out.push('\n');
        }
        out
    }

    #[test]
    fn reads_the_comparison_csv() {
        let rows = parse_results(&csv(), Path::new("r.csv")).unwrap();
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[1].mode, "bijou");
        assert_eq!(rows[1].median, Some(871_223.0));
        assert_eq!(rows[2].avg_payload_bytes, Some(2.985));
        assert!(!rows[3].verified);
        assert_eq!(rows[3].median, None);
    }

    #[test]
    fn refuses_a_csv_without_the_columns() {
        let error = parse_results("a,b\n1,2\n", Path::new("x.csv")).unwrap_err();
        assert!(error.to_string().contains("no column benchmark"), "{error}");
        let error =
            parse_results(&csv().replace("1042733", "fast"), Path::new("x.csv")).unwrap_err();
        assert!(error.to_string().contains("x.csv:2"), "{error}");
    }

    #[test]
    fn draws_a_png() {
        let rows = parse_results(&csv(), Path::new("r.csv")).unwrap();
        let out =
            std::env::temp_dir().join(format!("streamfusion-chart-{}.png", std::process::id()));
        draw(&rows, "test chart", &out).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
        std::fs::remove_file(&out).ok();
    }

    /// Rows as perf/nexmark writes them: one query, the stock sink and ours.
    fn nexmark_csv() -> String {
        let mut out = results_header();
        out.push('\n');
        for (mode, median, cpu) in [
            ("upsert-kafka", 91_234.5, 21.5),
            ("streamfusion-upsert-kafka", 110_000.0, 17.25),
        ] {
            let row = ResultRow::new()
                .text("benchmark", "nexmark-flink")
                .text("workload", "q19")
                .text("mode", mode)
                .text("compression", "none")
                .count("records", 2_000_000)
                .count("iterations", 3)
                .number("median_records_per_s", Some(median))
                .number("cpu_us_per_record", Some(cpu))
                .flag("verified", true);
            out.push_str(&row.csv_line());
            out.push('\n');
        }
        out
    }

    #[test]
    fn a_nexmark_csv_is_drawn_with_its_own_measures() {
        let rows = parse_results(&nexmark_csv(), Path::new("n.csv")).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].mode, "streamfusion-upsert-kafka");
        assert_eq!(rows[1].cpu_us_per_record, Some(17.25));
        assert_eq!(rows[1].avg_payload_bytes, None);
        let labels = Labels::of(&rows);
        assert_eq!(labels.rate, "throughput (events/s, job net runtime)");
        assert_eq!((labels.side_value)(&rows[0]), Some(21.5));
        let producer = parse_results(&csv(), Path::new("r.csv")).unwrap();
        let labels = Labels::of(&producer);
        assert_eq!(labels.side, "average payload (bytes/value)");
        assert_eq!((labels.side_value)(&producer[2]), Some(2.985));
        let out = std::env::temp_dir().join(format!(
            "streamfusion-chart-nexmark-{}.png",
            std::process::id()
        ));
        draw(&rows, "nexmark", &out).unwrap();
        assert_eq!(&std::fs::read(&out).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
        std::fs::remove_file(&out).ok();
    }

    #[test]
    fn short_rates() {
        assert_eq!(short_rate(1_234_567.0), "1.23M");
        assert_eq!(short_rate(45_600.0), "45.6k");
        assert_eq!(short_rate(12.0), "12");
    }
}
