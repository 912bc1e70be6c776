//! Plain mode: arrow-json's writer is the reference, so the rows are encoded by arrow-json itself
//! (`make_encoder` over the projected columns, as `Writer::write_batches` does), straight into the slabs.
//! Strings go through arrow-json's `EncoderFactory` hook to our SWAR escaper, which writes serde_json's bytes.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    new_empty_array, Array, ArrayRef, GenericStringArray, OffsetSizeTrait, RecordBatch,
    StringViewArray, StructArray,
};
use arrow_json::writer::{make_encoder, NullableEncoder};
use arrow_json::{Encoder, EncoderFactory, EncoderOptions as ArrowJsonOptions};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Fields, Schema};

use crate::escape::{column_needs_escaping, write_serde_str, write_verbatim_str};

use crate::error::{Error, Result};
use crate::layout::Layout;

/// The key and value projections as arrow-json roots, planned once per schema.
#[derive(Debug)]
pub(crate) struct PlainPlan {
    key: Option<FieldRef>,
    value: FieldRef,
    options: ArrowJsonOptions,
}

/// The root struct field of a projection (arrow-json's writer uses an unnamed, non-null struct root).
fn root(schema: &Schema, projection: &[(usize, String)]) -> FieldRef {
    let fields: Fields = projection
        .iter()
        .map(|(i, name)| Arc::new(schema.field(*i).clone().with_name(name)))
        .collect();
    Arc::new(Field::new_struct("", fields, false))
}

fn struct_of(root: &FieldRef, columns: Vec<ArrayRef>, rows: usize) -> Result<StructArray> {
    let DataType::Struct(fields) = root.data_type() else {
        unreachable!("roots are structs")
    };
    Ok(StructArray::try_new_with_length(
        fields.clone(),
        columns,
        None,
        rows,
    )?)
}

impl PlainPlan {
    /// Plans the projections and checks that arrow-json can encode every column type.
    ///
    /// # Errors
    /// [`Error::UnsupportedType`] naming the first column arrow-json rejects.
    pub(crate) fn new(schema: &Schema, layout: &Layout, explicit_nulls: bool) -> Result<Self> {
        let options = ArrowJsonOptions::default()
            .with_explicit_nulls(explicit_nulls)
            .with_encoder_factory(Arc::new(SwarStrings));
        for field in schema.fields() {
            let empty = new_empty_array(field.data_type());
            let rejected = make_encoder(field, empty.as_ref(), &options)
                .err()
                .map(|e| e.to_string())
                .or_else(|| {
                    has_null_dictionary(field.data_type()).then(|| {
                        "a dictionary of Null values: arrow-json's writer, the plain-mode reference, \
                         panics on its first non-null key (arrow-json 60.1 DictionaryEncoder over NullEncoder)"
                            .to_owned()
                    })
                });
            if let Some(reason) = rejected {
                return Err(Error::UnsupportedType {
                    field: field.name().clone(),
                    data_type: field.data_type().clone(),
                    mode: "plain-mode",
                    reason,
                });
            }
        }
        Ok(Self {
            key: layout.key.as_ref().map(|k| root(schema, k)),
            value: root(schema, &layout.value),
            options,
        })
    }

    /// Binds the projections to `batch`: (key encoder, value encoder) over owned struct arrays.
    pub(crate) fn bind(
        &self,
        batch: &RecordBatch,
        layout: &Layout,
    ) -> Result<(Option<StructArray>, StructArray)> {
        let project =
            |p: &[(usize, String)]| p.iter().map(|(i, _)| batch.column(*i).clone()).collect();
        let key = match (&self.key, &layout.key) {
            (Some(root), Some(k)) => Some(struct_of(root, project(k), batch.num_rows())?),
            _ => None,
        };
        Ok((
            key,
            struct_of(&self.value, project(&layout.value), batch.num_rows())?,
        ))
    }

    /// An arrow-json encoder over a bound projection.
    pub(crate) fn encoder<'a>(
        &'a self,
        key: bool,
        array: &'a StructArray,
    ) -> Result<NullableEncoder<'a>> {
        let root = if key {
            self.key.as_ref().expect("bound with a key")
        } else {
            &self.value
        };
        Ok(make_encoder(root, array as &dyn Array, &self.options)?)
    }
}

/// Whether `dt` holds a `Dictionary(_, Null)` at any nesting level. arrow-json encodes a dictionary through an
/// encoder of its values that it calls for every non-null key, without consulting the values' own nulls; over
/// Null values that encoder is `unreachable!()`, so its writer panics on such a column (found by the fuzzer).
fn has_null_dictionary(dt: &DataType) -> bool {
    match dt {
        DataType::Dictionary(_, values) => {
            values.as_ref() == &DataType::Null || has_null_dictionary(values)
        }
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::ListView(f)
        | DataType::LargeListView(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => has_null_dictionary(f.data_type()),
        DataType::RunEndEncoded(_, values) => has_null_dictionary(values.data_type()),
        DataType::Struct(fields) => fields.iter().any(|f| has_null_dictionary(f.data_type())),
        DataType::Union(fields, _) => fields
            .iter()
            .any(|(_, f)| has_null_dictionary(f.data_type())),
        _ => false,
    }
}

/// Routes Utf8, LargeUtf8 and Utf8View arrays (at any nesting level, map keys and dictionary values included) to
/// the SWAR escaper; every other type falls back to arrow-json's own encoder.
#[derive(Debug)]
struct SwarStrings;

impl EncoderFactory for SwarStrings {
    fn make_default_encoder<'a>(
        &self,
        _field: &'a FieldRef,
        array: &'a dyn Array,
        _options: &'a ArrowJsonOptions,
    ) -> Result<Option<NullableEncoder<'a>>, ArrowError> {
        let encoder: Box<dyn Encoder + 'a> = match array.data_type() {
            DataType::Utf8 => strings(array.as_string::<i32>()),
            DataType::LargeUtf8 => strings(array.as_string::<i64>()),
            DataType::Utf8View => Box::new(StringViews(array.as_string_view())),
            _ => return Ok(None),
        };
        Ok(Some(NullableEncoder::new(encoder, array.nulls().cloned())))
    }
}

/// Verbatim copies when one SWAR pass over the column's value bytes finds nothing serde_json would escape.
fn strings<'a, O: OffsetSizeTrait>(a: &'a GenericStringArray<O>) -> Box<dyn Encoder + 'a> {
    if column_needs_escaping::<false, O>(a) {
        Box::new(Strings(a))
    } else {
        Box::new(VerbatimStrings(a))
    }
}

struct VerbatimStrings<'a, O: OffsetSizeTrait>(&'a GenericStringArray<O>);
impl<O: OffsetSizeTrait> Encoder for VerbatimStrings<'_, O> {
    fn encode(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_verbatim_str(out, self.0.value(idx));
    }
}

struct Strings<'a, O: OffsetSizeTrait>(&'a GenericStringArray<O>);
impl<O: OffsetSizeTrait> Encoder for Strings<'_, O> {
    fn encode(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_serde_str(out, self.0.value(idx));
    }
}

struct StringViews<'a>(&'a StringViewArray);
impl Encoder for StringViews<'_> {
    fn encode(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_serde_str(out, self.0.value(idx));
    }
}
