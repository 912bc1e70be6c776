//! Flink-mode column encoders, one module per type family. Each encoder is bound to one batch's array and
//! writes the JSON of one non-null slot straight into the slab; the enclosing row (or [`Col`]) decides between
//! `null` and omission. Each family's constructors pick the encoder for the array's physical layout.
//!
//! [`Col`]: super::bind::Col

pub(crate) mod nested;
pub(crate) mod scalar;
pub(crate) mod string;
pub(crate) mod temporal;

pub(crate) use nested::{Node, RowEnc};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, TimestampMillisecondType};
use arrow_array::Array;
use arrow_schema::{DataType, TimeUnit};

use crate::flink::temporal::{TimestampWriter, TS_WIDTH};
use crate::out::I64_WIDTH;

/// An encoder bound to one batch's array, behind the one dynamic call per value.
pub(crate) type BoxEnc<'a> = Box<dyn Enc + 'a>;

/// Writes the JSON of one non-null slot.
pub(crate) trait Enc {
    fn write(&mut self, idx: usize, out: &mut Vec<u8>);

    /// The node slot `idx` becomes when Jackson converts it with `reuse`, the node already stored under the same
    /// map key (see [`Node`]); anything but a ROW is simply its text.
    fn node(&mut self, idx: usize, _reuse: Option<Node>) -> Node {
        let mut raw = Vec::new();
        self.write(idx, &mut raw);
        Node::Raw(raw)
    }

    /// Whether the values are ROWs (directly or through a dictionary), which repeated map keys merge.
    fn is_row(&self) -> bool {
        false
    }
}

/// The encoder of a type whose JSON depends on the slot's value alone: `write(idx, out)`, typically a closure
/// over the typed array (one dynamic call per value, as for any encoder).
pub(crate) fn from_fn<'a>(write: impl Fn(usize, &mut Vec<u8>) + 'a) -> BoxEnc<'a> {
    Box::new(FromFn(write))
}

struct FromFn<F>(F);
impl<F: Fn(usize, &mut Vec<u8>)> Enc for FromFn<F> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        (self.0)(idx, out);
    }
}

/// How a field's non-null value is written: straight through the row's cursor for the common flat layouts, or
/// by the column's encoder.
pub(crate) enum Inline<'a> {
    /// BIGINT from Int64 (`Long.toString`).
    I64(&'a [i64]),
    /// INT from Int32.
    I32(&'a [i32]),
    /// A Utf8 column in which one scan found nothing to escape: the bytes between quotes.
    Verbatim {
        offsets: &'a [i32],
        values: &'a [u8],
    },
    /// TIMESTAMP(3) / TIMESTAMP_LTZ(3) from Timestamp(Millisecond): its own writer (and date cache).
    TimestampMillis {
        values: &'a [i64],
        ltz: bool,
        writer: TimestampWriter,
    },
    /// Any other type or layout: [`Col::write`](crate::flink::bind::Col::write).
    Other,
}

impl<'a> Inline<'a> {
    /// INT / BIGINT from Int32 / Int64 (the other integer layouts are [`Inline::Other`]).
    pub(crate) fn integer(array: &'a dyn Array) -> Self {
        match array.data_type() {
            DataType::Int64 => Inline::I64(array.as_primitive::<Int64Type>().values()),
            DataType::Int32 => Inline::I32(array.as_primitive::<Int32Type>().values()),
            _ => Inline::Other,
        }
    }

    /// TIMESTAMP / TIMESTAMP_LTZ from Timestamp(Millisecond), the unit Flink's `TimestampData` holds (the
    /// other units are [`Inline::Other`]).
    pub(crate) fn timestamp(array: &'a dyn Array, ltz: bool, separator: u8) -> Self {
        match array.data_type() {
            DataType::Timestamp(TimeUnit::Millisecond, _) => Inline::TimestampMillis {
                values: array.as_primitive::<TimestampMillisecondType>().values(),
                ltz,
                writer: TimestampWriter::new(separator, ltz),
            },
            _ => Inline::Other,
        }
    }

    /// The most bytes the value (or `null`) takes besides a verbatim string's own bytes.
    pub(crate) fn width(&self) -> usize {
        match self {
            Inline::I64(_) | Inline::I32(_) => I64_WIDTH,
            Inline::TimestampMillis { .. } => TS_WIDTH,
            // The quotes, or `null`.
            Inline::Verbatim { .. } => 4,
            Inline::Other => 0,
        }
    }
}
