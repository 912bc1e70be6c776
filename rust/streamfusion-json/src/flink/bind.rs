//! Per batch: each planned [`Ty`] bound to its array as a [`Col`], an encoder plus the array's logical nulls.
//!
//! The plan is made once per schema ([`super::plan`]); binding happens once per batch and picks, per column, the
//! encoder of its type family ([`super::encode`]) for the array's physical layout. Every encoder of one batch
//! shares a [`Cx`]: the options and one [`Failure`] cell, where a value Flink cannot hold is recorded while
//! writing, so the per-value loop checks no `Result`.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_buffer::NullBuffer;

use super::encode::nested::{self, DictEnc, MapEnc, Node, RowEnc};
use super::encode::{scalar, string, temporal, BoxEnc, Inline};
use super::plan::{Ty, TypeOptions};
use crate::error::{Error, Result};

/// What every encoder bound to one batch shares: the options and the failure slot.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub(crate) o: &'a TypeOptions,
    pub(crate) failure: &'a Failure,
}

/// The first value of a batch that Flink's types cannot hold, recorded by the encoder that meets it while
/// writing. Values are checked only where Flink would convert them (never under a null parent, never in
/// unreferenced slots of a child array); the batch loop checks [`Failure::is_set`] after every row and fails
/// the batch naming that row.
#[derive(Debug, Default)]
pub(crate) struct Failure {
    set: std::cell::Cell<bool>,
    what: std::cell::RefCell<Option<(String, Failed)>>,
}

/// What [`Failure`] recorded.
#[derive(Debug)]
enum Failed {
    /// A value outside its Flink type.
    Value(String),
    /// A null map key under `map-null-key.mode` = FAIL.
    NullMapKey,
}

impl Failure {
    /// Records a value at `path` outside its Flink type, described by `message`.
    #[cold]
    pub(crate) fn value(&self, path: &str, message: String) {
        self.record(path, Failed::Value(message));
    }

    /// Records a null map key at `path` under `map-null-key.mode` = FAIL.
    #[cold]
    pub(crate) fn null_map_key(&self, path: &str) {
        self.record(path, Failed::NullMapKey);
    }

    /// Records the failure at `path` unless one is recorded already (the first one names the batch's error).
    #[cold]
    fn record(&self, path: &str, what: Failed) {
        if !self.set.replace(true) {
            *self.what.borrow_mut() = Some((path.to_owned(), what));
        }
    }

    /// Whether a value failed since the batch started.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.set.get()
    }

    /// The error for the recorded failure, met while writing batch row `row`.
    pub(crate) fn error(&self, row: usize) -> Error {
        match self.what.borrow_mut().take() {
            Some((field, Failed::Value(message))) => Error::InvalidValue {
                field,
                row,
                message,
            },
            Some((field, Failed::NullMapKey)) => Error::NullMapKey { field, row },
            None => unreachable!("error() is called only after is_set()"),
        }
    }
}

/// An encoder plus the logical nulls of its array: the one place nullability is decided, so each encoder
/// writes non-null slots only.
pub(crate) struct Col<'a> {
    nulls: Option<NullBuffer>,
    enc: BoxEnc<'a>,
    /// How a [`RowEnc`] writes the column's values itself, when their layout allows.
    pub(crate) inline: Inline<'a>,
}

impl Col<'_> {
    #[inline]
    pub(crate) fn is_null(&self, idx: usize) -> bool {
        self.nulls.as_ref().is_some_and(|n| n.is_null(idx))
    }

    /// Writes the non-null slot `idx`.
    #[inline]
    pub(crate) fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        self.enc.write(idx, out);
    }

    /// Writes slot `idx`, `null` when it is null.
    #[inline]
    pub(crate) fn write_or_null(&mut self, idx: usize, out: &mut Vec<u8>) {
        if self.is_null(idx) {
            out.extend_from_slice(b"null");
        } else {
            self.enc.write(idx, out);
        }
    }

    /// [`Enc::node`] of slot `idx`; a null slot is a null node (which a later ROW replaces with a fresh one).
    pub(crate) fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        if self.is_null(idx) {
            Node::Raw(b"null".to_vec())
        } else {
            self.enc.node(idx, reuse)
        }
    }

    /// [`Enc::is_row`] of the encoder.
    pub(crate) fn is_row(&self) -> bool {
        self.enc.is_row()
    }
}

/// Binds `ty` to `array`; values Flink's types cannot hold are reported to `cx.failure` when written.
pub(crate) fn bind<'a>(
    path: &str,
    ty: &'a Ty,
    array: &'a dyn Array,
    cx: Cx<'a>,
) -> Result<Col<'a>> {
    // A null buffer without nulls (common after a filter or a projection) is no nulls: no per-slot test.
    let nulls = array.logical_nulls().filter(|n| n.null_count() > 0);
    let mut inline = Inline::Other;
    let enc: BoxEnc<'a> = match ty {
        Ty::Bool => scalar::boolean(array),
        Ty::Int => {
            inline = Inline::integer(array);
            scalar::integer(array)
        }
        Ty::IntervalYearMonth => scalar::integer(array),
        Ty::F16(digits) => scalar::float_from_f16(array, *digits),
        Ty::F32(digits) => scalar::float(array, *digits),
        Ty::F64(digits) => scalar::double(array, *digits),
        Ty::Decimal => scalar::decimal(path, array, cx),
        Ty::Str => {
            let (enc, verbatim) = string::string(array);
            inline = verbatim;
            enc
        }
        Ty::Binary => string::binary(array),
        Ty::Date32 => temporal::date32(array),
        Ty::Date64 => temporal::date64(path, array, cx),
        Ty::Time { fraction } => temporal::time(path, array, *fraction, cx),
        Ty::Timestamp { unit, ltz } => {
            inline = Inline::timestamp(array, *ltz, cx.o.timestamp_separator);
            temporal::timestamp(path, array, *unit, *ltz, cx)
        }
        Ty::Duration(unit) => temporal::duration(path, array, *unit, cx),
        Ty::IntervalDayTime => temporal::interval_day_time(array),
        Ty::List(element) => nested::list(path, array, element, cx)?,
        Ty::Row(plan) => {
            let children: Vec<&ArrayRef> = array.as_struct().columns().iter().collect();
            Box::new(RowEnc::bind(plan, &children, cx)?)
        }
        Ty::Map(value) => Box::new(MapEnc::new(path, array.as_map(), value, cx)?),
        Ty::Dictionary(value) => Box::new(DictEnc::new(path, array, value, cx)?),
    };
    Ok(Col { nulls, enc, inline })
}
