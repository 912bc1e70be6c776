//! The Flink-mode plan: every Arrow type mapped once, per schema, to the Flink logical type whose JSON it must
//! reproduce (the mapping `RowDataToJsonConverters` applies), with field names pre-escaped.

use arrow_schema::{DataType, Field, IntervalUnit, TimeUnit};

use super::decimal::DecimalStyle;
use crate::error::{Error, Result};
use crate::escape::write_jackson_str;
use crate::options::{
    EncoderOptions, FlinkVersion, JavaFloatDigits, MapNullKeyMode, TimestampStandard,
};
use crate::out::Padded;

/// The Flink logical type a column is written as.
#[derive(Debug, Clone)]
pub(crate) enum Ty {
    /// BOOLEAN.
    Bool,
    /// TINYINT..BIGINT (and UInt8..UInt32, which widen losslessly).
    Int,
    /// FLOAT from Float16 (widened to f32), with the digits of that JDK's `Float.toString`.
    F16(JavaFloatDigits),
    /// FLOAT, with the digits of that JDK's `Float.toString`.
    F32(JavaFloatDigits),
    /// DOUBLE, with the digits of that JDK's `Double.toString`.
    F64(JavaFloatDigits),
    /// DECIMAL(p, s): precision and scale come from the array's type, the style from the options.
    Decimal,
    /// CHAR / VARCHAR / STRING.
    Str,
    /// BINARY / VARBINARY / BYTES: standard padded Base64.
    Binary,
    /// DATE from Date32 (days).
    Date32,
    /// DATE from Date64 (milliseconds, floored to the day).
    Date64,
    /// TIME from Time32/Time64; `fraction` prints the milliseconds (Flink 2.3+).
    Time { fraction: bool },
    /// TIMESTAMP (no zone) or TIMESTAMP_LTZ (`ltz`, printed as UTC with `Z`).
    Timestamp { unit: TimeUnit, ltz: bool },
    /// INTERVAL DAY TO SECOND from a Duration: total milliseconds (floored).
    Duration(TimeUnit),
    /// INTERVAL YEAR TO MONTH: total months.
    IntervalYearMonth,
    /// INTERVAL DAY TO SECOND from Interval(DayTime): total milliseconds.
    IntervalDayTime,
    /// ARRAY of the element type.
    List(Box<Ty>),
    /// ROW with these fields.
    Row(RowPlan),
    /// MAP<STRING, value>.
    Map(Box<Ty>),
    /// A dictionary-encoded column: written as its values.
    Dictionary(Box<Ty>),
}

/// A ROW: its fields in declared order, each with its `"name":` text already escaped.
#[derive(Debug, Clone)]
pub(crate) struct RowPlan {
    pub(crate) fields: Vec<FieldPlan>,
}

/// One ROW field.
#[derive(Debug, Clone)]
pub(crate) struct FieldPlan {
    /// Dotted path for errors.
    pub(crate) path: String,
    /// `,"name":` (Jackson-escaped); the first written field's comma becomes the object's `{`.
    pub(crate) name: Padded,
    pub(crate) ty: Ty,
}

/// Option values the type mapping needs.
#[derive(Debug, Clone)]
pub(crate) struct TypeOptions {
    pub(crate) decimal: DecimalStyle,
    pub(crate) time_fraction: bool,
    pub(crate) timestamp_separator: u8,
    pub(crate) ignore_null_fields: bool,
    pub(crate) map_null_key: MapNullKeyMode,
    pub(crate) map_null_key_literal: String,
    pub(crate) float_digits: JavaFloatDigits,
}

impl TypeOptions {
    pub(crate) fn new(o: &EncoderOptions) -> Self {
        let decimal = match (
            o.decimal_as_plain_number(),
            o.flink_version() >= FlinkVersion::V2_0,
        ) {
            (false, _) => DecimalStyle::Scientific,
            (true, false) => DecimalStyle::PlainStripped,
            (true, true) => DecimalStyle::PlainKeepScale,
        };
        Self {
            decimal,
            time_fraction: o.flink_version() >= FlinkVersion::V2_3,
            timestamp_separator: match o.timestamp_standard() {
                TimestampStandard::Sql => b' ',
                TimestampStandard::Iso8601 => b'T',
            },
            ignore_null_fields: o.ignore_null_fields(),
            map_null_key: o.map_null_key_mode(),
            map_null_key_literal: o.map_null_key_literal().to_owned(),
            float_digits: o.float_digits(),
        }
    }
}

fn unsupported(path: &str, data_type: &DataType, reason: &str) -> Error {
    Error::UnsupportedType {
        field: path.to_owned(),
        data_type: data_type.clone(),
        mode: "Flink-mode",
        reason: reason.to_owned(),
    }
}

/// The `,"name":` prefix of a field, escaped as Jackson escapes field names.
pub(crate) fn field_name(name: &str) -> Padded {
    let mut out = vec![b','];
    write_jackson_str(&mut out, name);
    out.push(b':');
    Padded::new(&out)
}

/// Plans a ROW from `(output name, field)` pairs.
pub(crate) fn plan_row<'a>(
    parent: &str,
    fields: impl IntoIterator<Item = (&'a str, &'a Field)>,
    o: &TypeOptions,
) -> Result<RowPlan> {
    let mut seen = std::collections::HashSet::new();
    let fields = fields
        .into_iter()
        .map(|(name, field)| {
            let path = if parent.is_empty() { name.to_owned() } else { format!("{parent}.{name}") };
            if name.chars().all(java_is_whitespace) {
                // Flink's RowType validation (StringUtils.isNullOrWhitespaceOnly on every field name).
                return Err(Error::InvalidFieldName {
                    field: path,
                    reason: "Field names must contain at least one non-whitespace character (Flink RowType)".to_owned(),
                });
            }
            if !seen.insert(name) {
                // Flink's RowType validation: "Field names must be unique. Found duplicates: [a]".
                return Err(Error::InvalidFieldName {
                    field: path,
                    reason: "Field names must be unique (Flink RowType); the name appears twice".to_owned(),
                });
            }
            let path = if parent.is_empty() {
                name.to_owned()
            } else {
                format!("{parent}.{name}")
            };
            let ty = plan_type(&path, field.data_type(), o)?;
            Ok(FieldPlan {
                name: field_name(name),
                path,
                ty,
            })
        })
        .collect::<Result<_>>()?;
    Ok(RowPlan { fields })
}

/// Maps one Arrow type to the Flink type it is written as, or rejects it the way Flink's schema build does.
pub(crate) fn plan_type(path: &str, dt: &DataType, o: &TypeOptions) -> Result<Ty> {
    use DataType as D;
    Ok(match dt {
        D::Boolean => Ty::Bool,
        D::Int8 | D::Int16 | D::Int32 | D::Int64 | D::UInt8 | D::UInt16 | D::UInt32 => Ty::Int,
        D::UInt64 => {
            return Err(unsupported(
                path,
                dt,
                "Flink has no unsigned 64-bit type; cast to Int64 or Decimal128(20, 0)",
            ))
        }
        D::Float16 => Ty::F16(o.float_digits),
        D::Float32 => Ty::F32(o.float_digits),
        D::Float64 => Ty::F64(o.float_digits),
        D::Decimal32(p, s) | D::Decimal64(p, s) | D::Decimal128(p, s) | D::Decimal256(p, s) => {
            if *s < 0 || *s as u8 > *p || *p > 38 {
                return Err(unsupported(
                    path,
                    dt,
                    "Flink DECIMAL needs 1 <= precision <= 38 and 0 <= scale <= precision",
                ));
            }
            Ty::Decimal
        }
        D::Utf8 | D::LargeUtf8 | D::Utf8View => Ty::Str,
        D::Binary | D::LargeBinary | D::BinaryView | D::FixedSizeBinary(_) => Ty::Binary,
        D::Date32 => Ty::Date32,
        D::Date64 => Ty::Date64,
        D::Time32(_) | D::Time64(_) => Ty::Time {
            fraction: o.time_fraction,
        },
        D::Timestamp(unit, tz) => Ty::Timestamp {
            unit: *unit,
            ltz: tz.is_some(),
        },
        D::Duration(unit) => Ty::Duration(*unit),
        D::Interval(IntervalUnit::YearMonth) => Ty::IntervalYearMonth,
        D::Interval(IntervalUnit::DayTime) => Ty::IntervalDayTime,
        D::Interval(IntervalUnit::MonthDayNano) => {
            return Err(unsupported(
                path,
                dt,
                "Flink intervals are either YEAR TO MONTH or DAY TO SECOND, not both",
            ))
        }
        D::List(f)
        | D::LargeList(f)
        | D::ListView(f)
        | D::LargeListView(f)
        | D::FixedSizeList(f, _) => {
            Ty::List(Box::new(plan_type(&format!("{path}[]"), f.data_type(), o)?))
        }
        D::Struct(fields) => Ty::Row(plan_row(
            path,
            fields.iter().map(|f| (f.name().as_str(), f.as_ref())),
            o,
        )?),
        D::Map(entries, _) => {
            let D::Struct(kv) = entries.data_type() else {
                return Err(unsupported(
                    path,
                    dt,
                    "map entries must be a struct of key and value",
                ));
            };
            if kv.len() != 2 {
                return Err(unsupported(
                    path,
                    dt,
                    "map entries must be a struct of key and value",
                ));
            }
            if !matches!(kv[0].data_type(), D::Utf8 | D::LargeUtf8 | D::Utf8View) {
                return Err(unsupported(
                    path,
                    dt,
                    "JSON format doesn't support non-string as key type of map (Flink needs CHAR/VARCHAR keys)",
                ));
            }
            Ty::Map(Box::new(plan_type(
                &format!("{path}{{}}"),
                kv[1].data_type(),
                o,
            )?))
        }
        D::Dictionary(_, values) => Ty::Dictionary(Box::new(plan_type(path, values, o)?)),
        D::Null => {
            return Err(unsupported(
                path,
                dt,
                "Flink's NULL type has no field getter (RowData.createFieldGetter)",
            ))
        }
        _ => return Err(unsupported(path, dt, "no Flink SQL type maps to it")),
    })
}

/// `java.lang.Character.isWhitespace`: space, line and paragraph separators except the no-break spaces
/// U+00A0, U+2007, U+202F, plus U+0009..=U+000D and U+001C..=U+001F.
fn java_is_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | '\u{1c}'..='\u{20}'
            | '\u{1680}'
            | '\u{2000}'..='\u{2006}'
            | '\u{2008}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{205f}'
            | '\u{3000}'
    )
}
