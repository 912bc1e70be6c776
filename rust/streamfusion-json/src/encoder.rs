//! [`JsonEncoder`]: plans once per schema, then encodes whole batches into [`EncodedRecords`].

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::SchemaRef;

use crate::error::{Error, Result};
use crate::flink::bind::{Cx, Failure};
use crate::flink::encode::RowEnc;
use crate::flink::plan::{plan_row, RowPlan, TypeOptions};
use crate::layout::Layout;
use crate::options::{EncoderOptions, Mode};
use crate::plain::PlainPlan;
use crate::records::EncodedRecords;

/// Encodes Arrow record batches into Kafka key/value JSON records ([`EncodedRecords`]), byte-identical to Flink's
/// `json` format with the Kafka connector's layout ([`Mode::Flink`]) or to arrow-json's writer ([`Mode::Plain`]).
///
/// Create one per task with its options (parsed and checked once). The first batch's schema fixes the plan
/// (the field encoders, the key/value projections, which timestamps are TIMESTAMP_LTZ); every later batch must
/// have the same schema. Each row is written straight into the final slab and its offsets are recorded as it
/// ends: no per-row allocation, no intermediate JSON tree, no second pass.
///
/// Not `Sync`-shared: use one encoder per thread (it is `Send`).
#[derive(Debug)]
pub struct JsonEncoder {
    options: EncoderOptions,
    plan: Option<Plan>,
}

#[derive(Debug)]
struct Plan {
    schema: SchemaRef,
    layout: Layout,
    body: Body,
}

#[derive(Debug)]
enum Body {
    Flink {
        /// The value row's option values.
        types: TypeOptions,
        /// The key row's (the value row's, unless `key.` format options differ).
        key_types: TypeOptions,
        key: Option<RowPlan>,
        value: RowPlan,
    },
    Plain(PlainPlan),
}

impl JsonEncoder {
    /// An encoder with `options`; the plan is built from the first batch.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] for option combinations Flink rejects ([`EncoderOptions::validate`]).
    pub fn new(options: EncoderOptions) -> Result<Self> {
        options.validate()?;
        Ok(Self {
            options,
            plan: None,
        })
    }

    /// The options this encoder was created with.
    pub fn options(&self) -> &EncoderOptions {
        &self.options
    }

    /// The schema the plan was built for, once a batch has been encoded (or [`plan`](Self::plan) was called).
    pub fn schema(&self) -> Option<&SchemaRef> {
        self.plan.as_ref().map(|p| &p.schema)
    }

    /// Builds the plan for `schema` ahead of the first batch (to surface type and layout errors early).
    ///
    /// # Errors
    /// As [`encode`](Self::encode) for plan errors; [`Error::SchemaMismatch`] if a plan for another schema exists.
    pub fn plan(&mut self, schema: &SchemaRef) -> Result<()> {
        match &self.plan {
            Some(plan) => check_schema(&plan.schema, schema),
            None => {
                self.plan = Some(Plan::new(schema, &self.options)?);
                Ok(())
            }
        }
    }

    /// Encodes `batch` into new [`EncodedRecords`] (one record per row).
    ///
    /// # Errors
    /// - plan errors on the first batch: [`Error::InvalidLayout`], [`Error::UnsupportedType`] naming the field;
    /// - [`Error::SchemaMismatch`] naming the first differing field when `batch` has another schema than the plan;
    /// - [`Error::NullMapKey`] (`map-null-key.mode` = FAIL), [`Error::InvalidValue`] (a value Flink cannot hold,
    ///   an unknown row kind), [`Error::SlabTooLarge`] (a slab past 2 GiB).
    pub fn encode(&mut self, batch: &RecordBatch) -> Result<EncodedRecords> {
        let mut out = EncodedRecords::new();
        self.encode_into(batch, &mut out)?;
        Ok(out)
    }

    /// Like [`encode`](Self::encode), into `out`, which is cleared first and keeps its allocations. On error
    /// `out` is left empty (no partial batch).
    ///
    /// # Errors
    /// As [`encode`](Self::encode).
    pub fn encode_into(&mut self, batch: &RecordBatch, out: &mut EncodedRecords) -> Result<()> {
        out.clear();
        let result = self.append_into(batch, out, 0);
        if result.is_err() {
            out.clear();
        }
        result
    }

    /// Appends `batch`'s records to `out` (not cleared), as rows `first_row..` of a larger batch whose other
    /// rows are appended by other calls: errors name the rows by their index in that batch. On error `out`
    /// holds part of the batch, which the caller discards.
    pub(crate) fn append_into(
        &mut self,
        batch: &RecordBatch,
        out: &mut EncodedRecords,
        first_row: usize,
    ) -> Result<()> {
        self.plan(batch.schema_ref())?;
        let plan = self.plan.as_ref().expect("planned above");
        plan.encode(batch, out)
            .map_err(|e| e.of_row_in_batch(first_row))
    }
}

#[cfg(feature = "ffi")]
impl JsonEncoder {
    /// Calls `f` with the Flink-mode plan of `schema`, for the writer of binary rows in module `ffi`: this
    /// encoder's plan when it has one for an equal schema, else one made for the call and not kept (an encoder
    /// plans when it encodes a batch: one whose import fails leaves it unplanned). `None` in plain mode, for a
    /// schema that cannot be planned or differs from the plan's (encoding a batch reports why).
    pub(crate) fn with_flink_plan<R>(
        &self,
        schema: &SchemaRef,
        f: impl FnOnce(&crate::ffi::FlinkPlan<'_>) -> R,
    ) -> Option<R> {
        let made;
        let plan = match &self.plan {
            Some(plan) => {
                check_schema(&plan.schema, schema).ok()?;
                plan
            }
            None => {
                made = Plan::new(schema, &self.options).ok()?;
                &made
            }
        };
        let Body::Flink {
            types,
            key_types,
            key,
            value,
        } = &plan.body
        else {
            return None;
        };
        let columns = |projection: &[(usize, String)]| projection.iter().map(|(i, _)| *i).collect();
        Some(f(&crate::ffi::FlinkPlan {
            schema: &plan.schema,
            key: key
                .as_ref()
                .zip(plan.layout.key.as_deref())
                .map(|(row, projection)| (columns(projection), row, key_types)),
            value: (columns(&plan.layout.value), value, types),
            row_kind: plan.layout.row_kind,
        }))
    }
}

/// Compares a batch's schema with the plan's and names the first differing field.
fn check_schema(planned: &SchemaRef, found: &SchemaRef) -> Result<()> {
    if std::sync::Arc::ptr_eq(planned, found) || planned.fields() == found.fields() {
        return Ok(());
    }
    let (p, f) = (planned.fields(), found.fields());
    for (a, b) in p.iter().zip(f.iter()) {
        if a != b {
            return Err(Error::SchemaMismatch {
                field: a.name().clone(),
                expected: format!("{a:?}"),
                found: format!("{b:?}"),
            });
        }
    }
    Err(Error::SchemaMismatch {
        field: "<field count>".to_owned(),
        expected: format!("{} fields", p.len()),
        found: format!("{} fields", f.len()),
    })
}

impl Plan {
    fn new(schema: &SchemaRef, o: &EncoderOptions) -> Result<Self> {
        let layout = Layout::new(schema, o)?;
        let body = match o.mode() {
            Mode::Flink => {
                let types = TypeOptions::new(o);
                let key_types = TypeOptions::new(&o.key_row_options());
                let row = |projection: &[(usize, String)], types: &TypeOptions| {
                    plan_row(
                        "",
                        projection
                            .iter()
                            .map(|(i, name)| (name.as_str(), schema.field(*i))),
                        types,
                    )
                };
                let key = layout
                    .key
                    .as_deref()
                    .map(|projection| row(projection, &key_types))
                    .transpose()?;
                let value = row(&layout.value, &types)?;
                Body::Flink {
                    key,
                    value,
                    types,
                    key_types,
                }
            }
            Mode::Plain => Body::Plain(PlainPlan::new(schema, &layout, o.plain_explicit_nulls())?),
        };
        Ok(Self {
            schema: schema.clone(),
            layout,
            body,
        })
    }

    fn encode(&self, batch: &RecordBatch, out: &mut EncodedRecords) -> Result<()> {
        let rows = batch.num_rows();
        let tombstones = self.layout.tombstones(batch)?;
        let is_tombstone = |row: usize| tombstones.as_ref().is_some_and(|t| t[row]);
        let footprint = |projection: &[(usize, String)]| -> usize {
            projection
                .iter()
                .map(|(i, name)| {
                    // The bytes this slice of the column covers (not its whole parent buffers).
                    let data = batch
                        .column(*i)
                        .to_data()
                        .get_slice_memory_size()
                        .unwrap_or(0);
                    data.saturating_add(rows.saturating_mul(name.len() + 4))
                })
                .fold(0, usize::saturating_add)
        };
        let keys = if self.layout.key.is_some() { rows } else { 0 };
        let values = rows
            - tombstones
                .as_ref()
                .map_or(0, |t| t.iter().filter(|&&t| t).count());
        out.reserve(
            rows,
            (keys, self.layout.key.as_deref().map_or(0, footprint)),
            (values, footprint(&self.layout.value)),
        )?;

        match &self.body {
            Body::Flink {
                types,
                key_types,
                key,
                value,
            } => {
                let columns = |projection: &[(usize, String)]| -> Vec<&ArrayRef> {
                    projection.iter().map(|(i, _)| batch.column(*i)).collect()
                };
                let failure = Failure::default();
                let cx = Cx {
                    o: types,
                    failure: &failure,
                };
                let key_cx = Cx {
                    o: key_types,
                    failure: &failure,
                };
                let mut key_enc = match (key, &self.layout.key) {
                    (Some(plan), Some(projection)) => {
                        Some(RowEnc::bind(plan, &columns(projection), key_cx)?)
                    }
                    _ => None,
                };
                let mut value_enc = RowEnc::bind(value, &columns(&self.layout.value), cx)?;
                for row in 0..rows {
                    out.write_row(
                        key_enc
                            .as_mut()
                            .map(|k| move |slab: &mut Vec<u8>| k.write(row, slab)),
                        (!is_tombstone(row))
                            .then_some(|slab: &mut Vec<u8>| value_enc.write(row, slab)),
                    )?;
                    if failure.is_set() {
                        return Err(failure.error(row));
                    }
                }
            }
            Body::Plain(plain) => {
                let (key_array, value_array) = plain.bind(batch, &self.layout)?;
                let mut key_enc = key_array
                    .as_ref()
                    .map(|k| plain.encoder(true, k))
                    .transpose()?;
                let mut value_enc = plain.encoder(false, &value_array)?;
                for row in 0..rows {
                    out.write_row(
                        key_enc
                            .as_mut()
                            .map(|k| move |slab: &mut Vec<u8>| k.encode(row, slab)),
                        (!is_tombstone(row))
                            .then_some(|slab: &mut Vec<u8>| value_enc.encode(row, slab)),
                    )?;
                }
            }
        }
        Ok(())
    }
}
