//! ARRAY (List, LargeList, ListView, LargeListView, FixedSizeList), ROW (a struct or the top-level columns),
//! MAP<STRING, V> and dictionary-encoded columns: the encoders that hold the [`Col`]s of child arrays.

use std::collections::HashMap;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, GenericStringArray, MapArray, OffsetSizeTrait, StringViewArray,
};
use arrow_schema::DataType;

use super::temporal::seconds_of;
use super::{BoxEnc, Enc, Inline};
use crate::error::Result;
use crate::escape::write_jackson_str;
use crate::flink::bind::{bind, Col, Cx, Failure};
use crate::flink::plan::{RowPlan, Ty};
use crate::options::MapNullKeyMode;
use crate::out::{put_i64, Padded, CHUNK};

/// A small Jackson-like node tree, built only for the rare case Flink's reuse of nodes shows in the output:
/// a MAP with a repeated key whose values are ROWs, under `encode.ignore-null-fields`.
///
/// Flink's map converter calls the value converter with the node already stored under that key as `reuse`;
/// the ROW converter fills that `ObjectNode` in place and skips null fields, so fields of the earlier value
/// survive and fields new to the node are appended (`RowDataToJsonConverters.createRowConverter`). Maps and
/// arrays clear a reused node (`removeAll`), so only ROWs merge.
pub(crate) enum Node {
    /// Finished JSON text.
    Raw(Vec<u8>),
    /// An object: fields in node insertion order, each with the address of its plan entry (its identity) and
    /// its `,"name":` text.
    Object(Vec<(usize, Padded, Node)>),
}

impl Node {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Node::Raw(raw) => out.extend_from_slice(raw),
            Node::Object(fields) => {
                out.push(b'{');
                for (n, (_, name, node)) in fields.iter().enumerate() {
                    name.append(out, usize::from(n == 0));
                    node.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

/// A ROW bound to its field arrays (top-level columns or a struct's children).
///
/// A row is written in one reservation: its bound (every inline field's name and widest text, plus the
/// row's string lengths) is reserved once, and the inline fields (see [`Inline`]) are written through one
/// cursor with no per-append capacity check and no dynamic call; any other field is written by its column's
/// encoder into the `Vec`, after which the bound is reserved again. Every field is written as `,"name":value`;
/// the first byte of the row then becomes `{`, so no per-field bookkeeping decides where commas go.
pub(crate) struct RowEnc<'a> {
    fields: Vec<Field<'a>>,
    /// Bytes every row may need for its inline fields besides their strings' own bytes, braces included.
    fixed: usize,
    /// Per slot of the arrays: the bytes of its verbatim strings (empty when the row has none), summed column
    /// at a time when the row is bound.
    string_bytes: Vec<usize>,
    ignore_nulls: bool,
}

/// One field of a bound ROW.
struct Field<'a> {
    /// `,"name":` (Jackson-escaped), padded for chunked copies.
    name: &'a Padded,
    col: Col<'a>,
}

/// A null field's value.
const NULL: &[u8; 4] = b"null";

impl<'a> RowEnc<'a> {
    /// Binds `plan` to `arrays` (same order as the plan's fields).
    pub(crate) fn bind(plan: &'a RowPlan, arrays: &[&'a ArrayRef], cx: Cx<'a>) -> Result<Self> {
        let fields: Vec<Field<'a>> = plan
            .fields
            .iter()
            .zip(arrays)
            .map(|(f, &a)| {
                Ok(Field {
                    name: &f.name,
                    col: bind(&f.path, &f.ty, a.as_ref(), cx)?,
                })
            })
            .collect::<Result<_>>()?;
        let fixed = fields
            .iter()
            .filter(|f| !matches!(f.col.inline, Inline::Other))
            .map(|f| f.name.len() + f.col.inline.width())
            .sum::<usize>()
            + 2;
        let mut string_bytes = Vec::new();
        for f in &fields {
            if let Inline::Verbatim { offsets, .. } = f.col.inline {
                string_bytes.resize(offsets.len() - 1, 0);
                for (sum, pair) in string_bytes.iter_mut().zip(offsets.windows(2)) {
                    *sum += (pair[1] - pair[0]) as usize;
                }
            }
        }
        Ok(Self {
            fields,
            fixed,
            string_bytes,
            ignore_nulls: cx.o.ignore_null_fields,
        })
    }

    /// Writes row `idx` as a JSON object in declared field order: null fields as `"f":null`, or omitted with
    /// `encode.ignore-null-fields`.
    #[inline]
    pub(crate) fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let bound = self.fixed + self.string_bytes.get(idx).copied().unwrap_or(0);
        let start = out.len();
        out.reserve(bound + CHUNK);
        let mut at = start;
        for f in &mut self.fields {
            let base = out.as_mut_ptr();
            // SAFETY (each inline write): since the last reservation, at `at`, `bound + CHUNK` bytes are writable,
            // and `bound` covers the names and widest texts of every inline field of the row, so of all those not
            // yet written; a name's chunked copy writes fewer than `CHUNK` bytes past its length. Everything up to
            // the new `at` is initialised, so the `set_len`s expose only written bytes.
            if f.col.is_null(idx) {
                if !self.ignore_nulls {
                    if matches!(f.col.inline, Inline::Other) {
                        unsafe { out.set_len(at) };
                        f.name.append(out, 0);
                        out.extend_from_slice(NULL);
                        out.reserve(bound + CHUNK);
                        at = out.len();
                    } else {
                        unsafe {
                            at += f.name.put(base.add(at));
                            std::ptr::copy_nonoverlapping(NULL.as_ptr(), base.add(at), NULL.len());
                        }
                        at += NULL.len();
                    }
                }
                continue;
            }
            match &mut f.col.inline {
                Inline::I64(values) => unsafe {
                    at += f.name.put(base.add(at));
                    at += put_i64(base.add(at), values[idx]);
                },
                Inline::I32(values) => unsafe {
                    at += f.name.put(base.add(at));
                    at += put_i64(base.add(at), values[idx].into());
                },
                Inline::Verbatim { offsets, values } => {
                    let text = &values[offsets[idx] as usize..offsets[idx + 1] as usize];
                    unsafe {
                        at += f.name.put(base.add(at));
                        *base.add(at) = b'"';
                        std::ptr::copy_nonoverlapping(text.as_ptr(), base.add(at + 1), text.len());
                        *base.add(at + 1 + text.len()) = b'"';
                    }
                    at += text.len() + 2;
                }
                Inline::TimestampMillis {
                    values,
                    ltz,
                    writer,
                } => {
                    let (seconds, nanos) = seconds_of(values[idx], 0, *ltz);
                    unsafe {
                        at += f.name.put(base.add(at));
                        at += writer.put(base.add(at), seconds, nanos);
                    }
                }
                Inline::Other => {
                    unsafe { out.set_len(at) };
                    f.name.append(out, 0);
                    f.col.write(idx, out);
                    out.reserve(bound + CHUNK);
                    at = out.len();
                }
            }
        }
        // SAFETY: as above; the bound's two bytes for the braces leave room for `}` and for `{` when no field was
        // written (else `{` replaces the first field's comma, at `start < at`).
        unsafe {
            let base = out.as_mut_ptr();
            if at == start {
                at += 1;
            }
            *base.add(start) = b'{';
            *base.add(at) = b'}';
            out.set_len(at + 1);
        }
    }

    /// Row `idx` converted into `reuse` when that is an object (Flink's ROW converter with a reused node).
    fn merge(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        let mut fields = match reuse {
            Some(Node::Object(fields)) => fields,
            _ => Vec::new(),
        };
        for Field { name, col, .. } in &mut self.fields {
            let name: &Padded = name;
            if self.ignore_nulls && col.is_null(idx) {
                continue;
            }
            let id = name as *const Padded as usize;
            match fields.iter().position(|(n, _, _)| *n == id) {
                Some(p) => {
                    let previous = std::mem::replace(&mut fields[p].2, Node::Raw(Vec::new()));
                    fields[p].2 = col.node(idx, Some(previous));
                }
                None => fields.push((id, name.clone(), col.node(idx, None))),
            }
        }
        Node::Object(fields)
    }
}

impl Enc for RowEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        RowEnc::write(self, idx, out);
    }

    fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        self.merge(idx, reuse)
    }

    fn is_row(&self) -> bool {
        true
    }
}

/// A dictionary: slot `i` is the values' slot `keys[i]` (so dictionaries of ROWs merge like ROWs).
pub(crate) struct DictEnc<'a> {
    keys: Vec<usize>,
    values: Col<'a>,
}

impl<'a> DictEnc<'a> {
    /// Binds a dictionary-encoded `array` whose values are planned as `value`.
    pub(crate) fn new(path: &str, array: &'a dyn Array, value: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        let d = array.as_any_dictionary();
        // An empty dictionary can only have null keys (which are never read); arrow asserts on normalising it.
        let keys = if d.values().is_empty() {
            vec![0; d.keys().len()]
        } else {
            d.normalized_keys()
        };
        let values = bind(path, value, d.values().as_ref(), cx)?;
        Ok(Self { keys, values })
    }
}

impl Enc for DictEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        // Logical nulls (a null key or a key pointing at a null value) never reach here.
        self.values.write(self.keys[idx], out);
    }

    fn node(&mut self, idx: usize, reuse: Option<Node>) -> Node {
        self.values.node(self.keys[idx], reuse)
    }

    fn is_row(&self) -> bool {
        self.values.is_row()
    }
}

/// ARRAY of `element`, from any list layout.
pub(crate) fn list<'a>(
    path: &str,
    array: &'a dyn Array,
    element: &'a Ty,
    cx: Cx<'a>,
) -> Result<BoxEnc<'a>> {
    Ok(match array.data_type() {
        DataType::List(_) => Box::new(ListEnc::<i32>::new(path, array, element, cx)?),
        DataType::LargeList(_) => Box::new(ListEnc::<i64>::new(path, array, element, cx)?),
        DataType::ListView(_) => Box::new(ListViewEnc::<i32>::new(path, array, element, cx)?),
        DataType::LargeListView(_) => Box::new(ListViewEnc::<i64>::new(path, array, element, cx)?),
        _ => {
            let a = array.as_fixed_size_list();
            let size = a.value_length() as usize;
            let values = bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?;
            Box::new(FixedListEnc { values, size })
        }
    })
}

/// Writes `[e0,e1,...]` for the element range, null elements as `null` (even with ignore-null-fields).
#[inline]
fn write_elements(values: &mut Col<'_>, range: std::ops::Range<usize>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (n, j) in range.enumerate() {
        if n > 0 {
            out.push(b',');
        }
        values.write_or_null(j, out);
    }
    out.push(b']');
}

struct ListEnc<'a, O: OffsetSizeTrait> {
    offsets: &'a [O],
    values: Col<'a>,
}
impl<'a, O: OffsetSizeTrait> ListEnc<'a, O> {
    fn new(path: &str, array: &'a dyn Array, element: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        let a = array.as_list::<O>();
        Ok(Self {
            offsets: a.value_offsets(),
            values: bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?,
        })
    }
}
impl<O: OffsetSizeTrait> Enc for ListEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let range = self.offsets[idx].as_usize()..self.offsets[idx + 1].as_usize();
        write_elements(&mut self.values, range, out);
    }
}

struct ListViewEnc<'a, O: OffsetSizeTrait> {
    offsets: &'a [O],
    sizes: &'a [O],
    values: Col<'a>,
}
impl<'a, O: OffsetSizeTrait> ListViewEnc<'a, O> {
    fn new(path: &str, array: &'a dyn Array, element: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        let a = array.as_list_view::<O>();
        Ok(Self {
            offsets: a.value_offsets(),
            sizes: a.value_sizes(),
            values: bind(&format!("{path}[]"), element, a.values().as_ref(), cx)?,
        })
    }
}
impl<O: OffsetSizeTrait> Enc for ListViewEnc<'_, O> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let start = self.offsets[idx].as_usize();
        write_elements(
            &mut self.values,
            start..start + self.sizes[idx].as_usize(),
            out,
        );
    }
}

struct FixedListEnc<'a> {
    values: Col<'a>,
    size: usize,
}
impl Enc for FixedListEnc<'_> {
    #[inline]
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        write_elements(
            &mut self.values,
            idx * self.size..(idx + 1) * self.size,
            out,
        );
    }
}

/// String keys of a map, whatever their string layout.
enum Keys<'a> {
    Utf8(&'a GenericStringArray<i32>),
    Large(&'a GenericStringArray<i64>),
    View(&'a StringViewArray),
}
/// MAP<STRING, V> as Flink writes it: entries in data order into a `LinkedHashMap`-backed `ObjectNode`, so a
/// repeated key keeps its first position and takes its last value; null values are `null`; a null key fails,
/// is dropped or becomes `map-null-key.literal`.
pub(crate) struct MapEnc<'a> {
    offsets: &'a [i32],
    keys: Keys<'a>,
    values: Col<'a>,
    null_key: MapNullKeyMode,
    literal: &'a str,
    path: String,
    failure: &'a Failure,
    /// Per row scratch: (key, index of the value that wins).
    entries: Vec<(&'a str, usize)>,
    index: HashMap<&'a str, usize>,
    /// Repeated keys merge their ROW values (ignore-null-fields with ROW values, see [`Node`]).
    merge_rows: bool,
}

/// Maps with more entries than this dedupe through a hash map instead of a linear scan.
const LINEAR_DEDUPE_MAX: usize = 16;

impl<'a> MapEnc<'a> {
    /// Binds `a`, whose values are planned as `value`.
    pub(crate) fn new(path: &str, a: &'a MapArray, value: &'a Ty, cx: Cx<'a>) -> Result<Self> {
        let keys = match a.keys().data_type() {
            DataType::Utf8 => Keys::Utf8(a.keys().as_string::<i32>()),
            DataType::LargeUtf8 => Keys::Large(a.keys().as_string::<i64>()),
            _ => Keys::View(a.keys().as_string_view()),
        };
        let values = bind(&format!("{path}{{}}"), value, a.values().as_ref(), cx)?;
        Ok(Self {
            offsets: a.value_offsets(),
            keys,
            merge_rows: cx.o.ignore_null_fields && values.is_row(),
            values,
            null_key: cx.o.map_null_key,
            path: path.to_owned(),
            failure: cx.failure,
            literal: &cx.o.map_null_key_literal,
            entries: Vec::new(),
            index: HashMap::new(),
        })
    }
}

impl<'a> Enc for MapEnc<'a> {
    fn write(&mut self, idx: usize, out: &mut Vec<u8>) {
        let range = self.offsets[idx] as usize..self.offsets[idx + 1] as usize;
        self.entries.clear();
        self.index.clear();
        let linear = range.len() <= LINEAR_DEDUPE_MAX;
        let mut repeated = false;
        for j in range.clone() {
            let Some(key) = self.key(j) else { continue };
            let existing = if linear {
                self.entries.iter().position(|(k, _)| *k == key)
            } else {
                self.index.get(key).copied()
            };
            match existing {
                Some(p) => {
                    self.entries[p].1 = j;
                    repeated = true;
                }
                None => {
                    if !linear {
                        self.index.insert(key, self.entries.len());
                    }
                    self.entries.push((key, j));
                }
            }
        }
        let merge = repeated && self.merge_rows;
        out.push(b'{');
        for n in 0..self.entries.len() {
            let (key, last) = self.entries[n];
            if n > 0 {
                out.push(b',');
            }
            write_jackson_str(out, key);
            out.push(b':');
            if merge {
                // Every value under this key, in order, converted into the node the previous one left.
                let mut node = None;
                for j in range.clone() {
                    if self.key(j) == Some(key) {
                        node = Some(self.values.node(j, node.take()));
                    }
                }
                node.expect("the key occurs in the range").write(out);
            } else {
                self.values.write_or_null(last, out);
            }
        }
        out.push(b'}');
    }
}

impl<'a> MapEnc<'a> {
    /// The JSON key of entry `j`: its string, the literal for a null key under LITERAL, `None` to drop it (DROP,
    /// and FAIL after recording the failure).
    #[inline]
    fn key(&self, j: usize) -> Option<&'a str> {
        match (self.keys.get(j), self.null_key) {
            (Some(k), _) => Some(k),
            (None, MapNullKeyMode::Literal) => Some(self.literal),
            (None, MapNullKeyMode::Drop) => None,
            (None, MapNullKeyMode::Fail) => {
                self.failure.null_map_key(&self.path);
                None
            }
        }
    }
}

impl<'a> Keys<'a> {
    /// Key `j`, `None` when null.
    #[inline]
    fn get(&self, j: usize) -> Option<&'a str> {
        match *self {
            Keys::Utf8(a) => a.is_valid(j).then(|| a.value(j)),
            Keys::Large(a) => a.is_valid(j).then(|| a.value(j)),
            Keys::View(a) => a.is_valid(j).then(|| a.value(j)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray, StructArray,
        TimestampMillisecondArray,
    };
    use arrow_schema::{DataType, Field};

    use crate::{EncoderOptions, JsonEncoder};

    /// Small enough for Miri (`scripts/miri.sh`): every path of the row writer's cursor (each inline kind,
    /// null and not, an encoder field between inline ones, a nested ROW, a row with every field omitted), with
    /// and without `encode.ignore-null-fields`. The expected texts follow Flink's format (the parity suite pins
    /// the same paths against the real Flink serializer).
    #[test]
    fn miri_row_writer_paths() {
        let inner = StructArray::from(vec![(
            Arc::new(Field::new("k", DataType::Int64, true)),
            Arc::new(Int64Array::from(vec![Some(1), None, None])) as ArrayRef,
        )]);
        let batch = RecordBatch::try_from_iter_with_nullable([
            (
                "a",
                Arc::new(Int64Array::from(vec![Some(-12), None, None])) as ArrayRef,
                true,
            ),
            (
                "b",
                Arc::new(Int32Array::from(vec![Some(7), None, None])),
                true,
            ),
            (
                "s",
                Arc::new(StringArray::from(vec![Some("plain"), None, None])),
                true,
            ),
            (
                "e",
                Arc::new(StringArray::from(vec![Some("q\"t"), Some("x"), None])),
                true,
            ),
            (
                "f",
                Arc::new(Float64Array::from(vec![Some(1.5), None, None])),
                true,
            ),
            (
                "t",
                Arc::new(TimestampMillisecondArray::from(vec![
                    Some(1_500),
                    None,
                    None,
                ])),
                true,
            ),
            ("r", Arc::new(inner), false),
        ])
        .unwrap();
        let encode = |ignore: &str| {
            let options =
                EncoderOptions::from_pairs([("encode.ignore-null-fields", ignore)]).unwrap();
            let records = JsonEncoder::new(options).unwrap().encode(&batch).unwrap();
            (0..3)
                .map(|row| String::from_utf8(records.value(row).unwrap().to_vec()).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            encode("false"),
            [
                r#"{"a":-12,"b":7,"s":"plain","e":"q\"t","f":1.5,"t":"1970-01-01 00:00:01.5","r":{"k":1}}"#,
                r#"{"a":null,"b":null,"s":null,"e":"x","f":null,"t":null,"r":{"k":null}}"#,
                r#"{"a":null,"b":null,"s":null,"e":null,"f":null,"t":null,"r":{"k":null}}"#,
            ]
        );
        assert_eq!(
            encode("true"),
            [
                r#"{"a":-12,"b":7,"s":"plain","e":"q\"t","f":1.5,"t":"1970-01-01 00:00:01.5","r":{"k":1}}"#,
                r#"{"e":"x","r":{}}"#,
                r#"{"r":{}}"#,
            ]
        );
    }
}
