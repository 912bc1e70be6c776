//! Entry points of `org.streamfusion.kafka.NativeJsonEncoder` (module `java/streamfusion-kafka`).
//!
//! The model: a Java encoder owns one native [`JsonEncoder`] through a `long` handle with an explicit
//! `open` / `encode` / `close` lifecycle. Handles live in a process-wide registry keyed by ids from a
//! counter that never repeats, so a closed, never-opened or forged handle is looked up, not dereferenced:
//! it throws `IllegalStateException` instead of being undefined behaviour. Each registered encoder sits
//! behind its own mutex together with the one [`EncodedRecords`] it reuses across batches, so concurrent
//! `encode` calls on one handle are serialised (safe, one at a time) and calls on different handles run in
//! parallel.
//!
//! One batch crosses per call, in one of two ways. The schema crosses through the Arrow C Data Interface
//! (`Data.exportSchema`) only when it is not the one that crossed last; the handle keeps it.
//! - `encodeFlat`, when every column has a flat type (primitives, booleans, decimals, temporals, (large)
//!   strings and binaries; no children, no dictionary): Java passes, per column, the value count and the
//!   address and capacity of each buffer, holding a reference on every buffer until the call returns. The
//!   buffers are read in place, after checking that each is large enough for its values and that offsets
//!   stay inside their data, so a corrupt vector is an error, not a read outside its memory.
//! - `encode`, for everything else: Java exports each column (`Data.exportVector`, one `ArrowArray` per
//!   column); this module moves every struct out of Java's memory first thing (leaving released, empty
//!   structs behind) and imports the columns without copying, with the types of the schema it holds.
//!
//! Either way the batch is encoded and dropped (which runs Java's release callbacks for exported columns)
//! before the six result arrays are copied into fresh JVM arrays. Nothing native points at JVM memory after
//! the call, and the JVM never sees a view of the reused scratch. `docs/jni.md` has the full ownership and
//! exception rules.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use jni::objects::{JClass, JLongArray, JObject, JObjectArray, JString};
use jni::sys::{jint, jlong, jobjectArray};
use jni::JNIEnv;
use std::ptr::NonNull;
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};

use crate::error::{non_null, throwing, JniError};

/// An encoder handle as the JVM holds it: a registry id, never a pointer. Ids start at 1 and are never
/// reused, so 0 is never a valid handle (the Java side uses it for "closed").
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Handle(jlong);

impl From<jlong> for Handle {
    fn from(id: jlong) -> Self {
        Self(id)
    }
}

impl From<Handle> for jlong {
    fn from(handle: Handle) -> Self {
        handle.0
    }
}

/// What one handle owns: the encoder (options and plan), the records scratch reused by every batch, and the
/// schema of the last batch whose schema crossed (reused by the batches that send none).
#[derive(Debug)]
struct EncoderState {
    encoder: JsonEncoder,
    records: EncodedRecords,
    schema: Option<SchemaRef>,
}

type Shared = Arc<Mutex<EncoderState>>;

static NEXT_ID: AtomicI64 = AtomicI64::new(1);
static REGISTRY: LazyLock<Mutex<HashMap<Handle, Shared>>> = LazyLock::new(Mutex::default);

/// The registry, whatever an earlier panic did: every operation on the map completes or leaves it as it
/// was, so a poisoned lock still guards a consistent map.
fn registry() -> MutexGuard<'static, HashMap<Handle, Shared>> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Parses `pairs` once, creates an encoder and registers it.
fn open_encoder(pairs: Vec<(String, String)>) -> Result<Handle, JniError> {
    let encoder = JsonEncoder::new(EncoderOptions::from_pairs(pairs)?)?;
    let handle = Handle(NEXT_ID.fetch_add(1, Ordering::Relaxed));
    let state = EncoderState {
        encoder,
        records: EncodedRecords::new(),
        schema: None,
    };
    registry().insert(handle, Arc::new(Mutex::new(state)));
    Ok(handle)
}

/// The encoder behind `handle`; a closed or unknown handle is an error. The returned `Arc` keeps the
/// encoder alive for the caller even if another thread closes the handle meanwhile.
fn lookup(handle: Handle) -> Result<Shared, JniError> {
    registry().get(&handle).cloned().ok_or_else(|| {
        JniError::IllegalState(format!(
            "StreamFusion encoder handle {} is closed or was never opened",
            handle.0
        ))
    })
}

/// Removes `handle` from the registry; the encoder is dropped once no `encode` in flight still uses it.
fn close_encoder(handle: Handle) -> Result<(), JniError> {
    match registry().remove(&handle) {
        Some(_) => Ok(()),
        None => Err(JniError::IllegalState(format!(
            "StreamFusion encoder handle {} is already closed or was never opened",
            handle.0
        ))),
    }
}

/// Imports `exported` with the encoder behind `handle`, encodes it into the handle's reused records and hands
/// them to `f` while the handle's lock is held (so `f` sees this batch's records, not a concurrent caller's).
fn encode_with<R>(
    handle: Handle,
    exported: Exported,
    f: impl FnOnce(&EncodedRecords) -> Result<R, JniError>,
) -> Result<R, JniError> {
    let shared = lookup(handle)?;
    let mut state = shared.lock().map_err(|_| {
        JniError::IllegalState(format!(
            "StreamFusion encoder handle {} is unusable: an earlier call panicked inside it; close it",
            handle.0
        ))
    })?;
    let EncoderState {
        encoder,
        records,
        schema,
    } = &mut *state;
    let batch = import_batch(schema, exported)?;
    let result = encoder.encode_into(&batch, records);
    // The imported Arrow data is released (Java's release callbacks run) before any JVM array is made.
    drop(batch);
    if result.is_err() {
        // A failed batch may have grown the scratch to the slab limit (2 GiB): give that memory back
        // rather than keep it for the handle's lifetime.
        *records = EncodedRecords::new();
    }
    result?;
    f(records)
}

/// The leading fields of the C Data Interface's `ArrowSchema` up to `release`, to check it before moving it.
#[repr(C)]
struct SchemaHead {
    format: *const c_void,
    name: *const c_void,
    metadata: *const c_void,
    flags: i64,
    n_children: i64,
    children: *mut c_void,
    dictionary: *mut c_void,
    release: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// The leading fields of the C Data Interface's `ArrowArray` up to `release`.
#[repr(C)]
struct ArrayHead {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut c_void,
    children: *mut c_void,
    dictionary: *mut c_void,
    release: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// One batch as it crossed: its columns, the exported schema when it changed, the row count.
#[derive(Debug)]
struct Exported {
    columns: Columns,
    schema: Option<FFI_ArrowSchema>,
    rows: usize,
}

/// How the columns of one batch crossed.
#[derive(Debug)]
enum Columns {
    /// One exported C Data Interface array per column (any type).
    Ffi(Vec<FFI_ArrowArray>),
    /// The flat handoff: per column [`FLAT_WORDS`] words describing the JVM buffers (flat types only).
    Flat(Vec<jlong>),
}

/// Words per column of the flat handoff: value count, then address and capacity (bytes) of the validity
/// buffer, of the first and of the second buffer of the type's layout (0, 0 when it has none).
const FLAT_WORDS: usize = 7;

/// The owner of a [`Buffer`] over JVM memory: Java holds a reference on each buffer for the whole call and
/// frees nothing before it returns, so dropping this frees nothing either.
#[derive(Debug)]
struct JvmMemory;

/// The buffer layout of a flat type: what the two buffers after the validity bitmap are.
enum FlatLayout {
    /// Values of this many bytes each (integers, floats, decimals, dates, times, timestamps, intervals,
    /// fixed-size binary).
    Fixed(usize),
    /// Bit-packed booleans.
    Bits,
    /// `i32` offsets, then the bytes (Utf8, Binary).
    Offsets32,
    /// `i64` offsets, then the bytes (LargeUtf8, LargeBinary).
    Offsets64,
}

fn flat_layout(data_type: &DataType) -> Option<FlatLayout> {
    use DataType::*;
    Some(match data_type {
        Boolean => FlatLayout::Bits,
        Utf8 | Binary => FlatLayout::Offsets32,
        LargeUtf8 | LargeBinary => FlatLayout::Offsets64,
        FixedSizeBinary(width) => FlatLayout::Fixed(usize::try_from(*width).ok()?),
        _ => FlatLayout::Fixed(data_type.primitive_width()?),
    })
}

/// A [`Buffer`] over `capacity` bytes of JVM memory at `address` (a dangling empty buffer for capacity 0).
///
/// # Safety
/// `address` must point to `capacity` readable bytes that stay valid and unchanged until the returned
/// buffer (and every array made from it) is dropped.
unsafe fn jvm_buffer(address: jlong, capacity: jlong) -> Result<Buffer, JniError> {
    let len = usize::try_from(capacity).map_err(|_| {
        JniError::IllegalArgument(format!("buffer capacity {capacity} is negative"))
    })?;
    match NonNull::new(address as usize as *mut u8) {
        // SAFETY: the caller guarantees `len` readable bytes at `ptr` for the buffer's lifetime.
        Some(ptr) => Ok(unsafe { Buffer::from_custom_allocation(ptr, len, Arc::new(JvmMemory)) }),
        None if len == 0 => Ok(Buffer::from_vec(Vec::<u8>::new())),
        None => Err(JniError::IllegalArgument(format!(
            "a buffer of {len} bytes at a null address"
        ))),
    }
}

fn too_small(field: &Field, what: &str, have: usize, need: usize) -> JniError {
    JniError::IllegalArgument(format!(
        "column `{}`: its {what} buffer holds {have} bytes, {need} are needed",
        field.name()
    ))
}

/// Checks that `offsets` (the first `len + 1` of them) start at or above 0, never decrease and end within
/// `data_len`: what makes every value's slice of the data buffer lie inside it.
fn check_offsets<O: Copy + TryInto<usize>>(
    field: &Field,
    offsets: &[O],
    data_len: usize,
) -> Result<(), JniError> {
    let mut previous = 0usize;
    for (i, offset) in offsets.iter().enumerate() {
        let offset = (*offset)
            .try_into()
            .ok()
            .filter(|&o| o >= previous || i == 0);
        match offset {
            Some(o) if o <= data_len => previous = o,
            _ => {
                return Err(JniError::IllegalArgument(format!(
                    "column `{}`: offset {i} is negative, decreasing or beyond the {data_len} data bytes",
                    field.name()
                )))
            }
        }
    }
    Ok(())
}

/// Reads `bytes` as `T`s (it is aligned: [`ArrayData::align_buffers`] ran).
fn typed<T: arrow_buffer::ArrowNativeType>(buffer: &Buffer, len: usize) -> &[T] {
    &buffer.typed_data::<T>()[..len]
}

/// One column of the flat handoff as [`ArrayData`] over the JVM's buffers (no copy unless a buffer is
/// misaligned for its type, in which case Arrow copies it). Every buffer is checked to be large enough for
/// `len` values of the type, and variable-width offsets to stay inside their data, so a corrupt vector is an
/// error, never a read outside its memory.
///
/// # Safety
/// Each non-zero address in `words` must point to at least its capacity of readable bytes that stay valid
/// and unchanged until the returned data is dropped.
unsafe fn import_flat_column(
    field: &Field,
    words: &[jlong],
    rows: usize,
) -> Result<ArrayData, JniError> {
    let data_type = field.data_type();
    let layout = flat_layout(data_type).ok_or_else(|| {
        JniError::IllegalArgument(format!(
            "column `{}` of type {data_type} cannot cross flat; export it through the C Data Interface",
            field.name()
        ))
    })?;
    let len = usize::try_from(words[0])
        .ok()
        .filter(|&len| len == rows)
        .ok_or_else(|| {
            JniError::IllegalArgument(format!(
                "column `{}` has {} values but the root has {rows} rows",
                field.name(),
                words[0]
            ))
        })?;
    // SAFETY (all three): the caller guarantees each address is readable for its capacity meanwhile.
    let validity = unsafe { jvm_buffer(words[1], words[2]) }?;
    let first = unsafe { jvm_buffer(words[3], words[4]) }?;
    let second = unsafe { jvm_buffer(words[5], words[6]) }?;
    let bitmap = len.div_ceil(8);
    if validity.len() < bitmap {
        return Err(too_small(field, "validity", validity.len(), bitmap));
    }
    let buffers = match layout {
        FlatLayout::Fixed(width) => {
            let need = len * width;
            if first.len() < need {
                return Err(too_small(field, "data", first.len(), need));
            }
            vec![first]
        }
        FlatLayout::Bits => {
            if first.len() < bitmap {
                return Err(too_small(field, "data", first.len(), bitmap));
            }
            vec![first]
        }
        FlatLayout::Offsets32 | FlatLayout::Offsets64 => {
            let width = if matches!(layout, FlatLayout::Offsets32) {
                4
            } else {
                8
            };
            let need = (len + 1) * width;
            if first.len() < need {
                return Err(too_small(field, "offsets", first.len(), need));
            }
            vec![first, second]
        }
    };
    let nulls = NullBuffer::new(BooleanBuffer::new(validity, 0, len));
    // SAFETY: the buffers hold `len` values of `data_type`'s layout (checked above); the offsets are checked
    // against the data below, before any value is read.
    let data = unsafe {
        ArrayData::builder(data_type.clone())
            .len(len)
            .nulls(Some(nulls).filter(|n| n.null_count() > 0))
            .buffers(buffers)
            .align_buffers(true)
            .build_unchecked()
    };
    match layout {
        FlatLayout::Offsets32 => check_offsets(
            field,
            typed::<i32>(&data.buffers()[0], len + 1),
            data.buffers()[1].len(),
        )?,
        FlatLayout::Offsets64 => check_offsets(
            field,
            typed::<i64>(&data.buffers()[0], len + 1),
            data.buffers()[1].len(),
        )?,
        FlatLayout::Fixed(_) | FlatLayout::Bits => {}
    }
    Ok(data)
}

/// Moves the exported structs out of the caller's memory (the caller's structs are left released), so that
/// from here on each is released exactly once, by Rust, on every path. A schema address of 0 means "the
/// schema that crossed last". A zero array address, or a struct that is already released, is an error;
/// every other struct is still taken and released.
///
/// # Safety
/// Each non-zero address must point to a properly aligned, initialised C Data Interface struct of its kind
/// (`ArrowArray` for `array_addresses`, `ArrowSchema` for `schema_address`) that the caller may hand over
/// (an export not yet consumed).
unsafe fn take_exported(
    array_addresses: &[jlong],
    schema_address: jlong,
    rows: jint,
) -> Result<Exported, JniError> {
    // SAFETY: forwarded from the caller.
    let schema = unsafe { take_schema(schema_address) };
    let mut columns = Vec::with_capacity(array_addresses.len());
    let mut dead = None;
    for (column, &address) in array_addresses.iter().enumerate() {
        let ptr = address as usize as *mut FFI_ArrowArray;
        // SAFETY: the caller guarantees a non-null pointer refers to an initialised struct of the C layout
        // that `ArrayHead` mirrors field by field up to `release`; reading it does not move it.
        let live = !ptr.is_null() && unsafe { (*ptr.cast::<ArrayHead>()).release.is_some() };
        if live {
            // SAFETY: a live struct is valid for reads and writes (caller's guarantee); `from_raw` moves it
            // out and leaves an empty released struct behind, so Java's later release is a no-op.
            columns.push(unsafe { FFI_ArrowArray::from_raw(ptr) });
        } else if dead.is_none() {
            dead = Some(format!(
                "the ArrowArray of column {column} at {address:#x} is {}",
                liveness(ptr.is_null(), live)
            ));
        }
    }
    let schema = schema?;
    if let Some(dead) = dead {
        return Err(JniError::IllegalArgument(format!(
            "the exported Arrow structs must be live: {dead}"
        )));
    }
    Ok(Exported {
        columns: Columns::Ffi(columns),
        schema,
        rows: row_count(rows)?,
    })
}

fn row_count(rows: jint) -> Result<usize, JniError> {
    usize::try_from(rows)
        .map_err(|_| JniError::IllegalArgument(format!("row count {rows} is negative")))
}

/// Moves the exported schema out of the caller's memory (0: none crossed). A released struct is an error.
///
/// # Safety
/// A non-zero address must point to an initialised `ArrowSchema` the caller may hand over.
unsafe fn take_schema(schema_address: jlong) -> Result<Option<FFI_ArrowSchema>, JniError> {
    let schema_ptr = schema_address as usize as *mut FFI_ArrowSchema;
    if schema_ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller guarantees an initialised struct of the layout `SchemaHead` mirrors up to `release`.
    let live = unsafe { (*schema_ptr.cast::<SchemaHead>()).release.is_some() };
    if !live {
        return Err(JniError::IllegalArgument(format!(
            "the exported Arrow structs must be live: the ArrowSchema at {schema_address:#x} is {}",
            liveness(false, live)
        )));
    }
    // SAFETY: a live struct, moved out; an empty released struct is left behind.
    Ok(Some(unsafe { FFI_ArrowSchema::from_raw(schema_ptr) }))
}

fn liveness(null: bool, live: bool) -> &'static str {
    match (null, live) {
        (true, _) => "a null address",
        (false, true) => "live",
        (false, false) => "already released",
    }
}

/// Imports the columns of `exported` as a [`RecordBatch`], without copying their buffers (the batch owns
/// the exported arrays, and dropping it runs their release callbacks; flat columns borrow the JVM's buffers
/// for the call). A schema that crossed replaces `held` (the root's own metadata kept); without one, `held`
/// gives the columns' types.
fn import_batch(held: &mut Option<SchemaRef>, exported: Exported) -> Result<RecordBatch, JniError> {
    let Exported {
        columns,
        schema,
        rows,
    } = exported;
    if let Some(schema) = schema {
        *held = None;
        *held = Some(Arc::new(
            Schema::try_from(&schema).map_err(JniError::ArrowImport)?,
        ));
    }
    let schema = held.clone().ok_or_else(|| {
        JniError::IllegalArgument(
            "no schema has crossed for this handle yet: the first batch must export its schema"
                .to_owned(),
        )
    })?;
    let fields = schema.fields();
    let count = match &columns {
        Columns::Ffi(arrays) => arrays.len(),
        Columns::Flat(words) => words.len() / FLAT_WORDS,
    };
    if fields.len() != count {
        return Err(JniError::IllegalArgument(format!(
            "{count} exported columns for a schema of {} fields",
            fields.len()
        )));
    }
    let arrays = match columns {
        Columns::Ffi(arrays) => import_ffi_columns(fields, arrays, rows)?,
        Columns::Flat(words) => fields
            .iter()
            .zip(words.chunks_exact(FLAT_WORDS))
            .map(|(field, words)| {
                // SAFETY: `Columns::Flat` is only made by `take_flat`, whose caller guarantees the buffers
                // stay readable for the whole JNI call, which outlives this batch.
                unsafe { import_flat_column(field, words, rows) }.map(make_array)
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    for (field, array) in fields.iter().zip(&arrays) {
        check_utf8(field.name(), &array.to_data())?;
    }
    RecordBatch::try_new_with_options(
        schema,
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(rows)),
    )
    .map_err(JniError::ArrowImport)
}

/// Checks that every non-null string value of `data` (and of its children, dictionaries included) is valid
/// UTF-8. Arrow's Utf8 types promise it and the encoder relies on it, but Arrow Java's vectors take any
/// bytes (Flink's `StringData.fromBytes` too), so it is checked once here, where the data enters Rust: one
/// pass over the bytes (ASCII runs a word at a time), an error naming the field and row otherwise.
fn check_utf8(path: &str, data: &ArrayData) -> Result<(), JniError> {
    match data.data_type() {
        DataType::Utf8 => check_utf8_values::<i32>(path, data)?,
        DataType::LargeUtf8 => check_utf8_values::<i64>(path, data)?,
        _ => {}
    }
    let names: Vec<String> = match data.data_type() {
        DataType::Struct(fields) => fields
            .iter()
            .map(|f| format!("{path}.{}", f.name()))
            .collect(),
        _ => vec![path.to_owned(); data.child_data().len()],
    };
    for (child, name) in data.child_data().iter().zip(&names) {
        check_utf8(name, child)?;
    }
    Ok(())
}

fn check_utf8_values<O: arrow_buffer::ArrowNativeType + TryInto<usize>>(
    path: &str,
    data: &ArrayData,
) -> Result<(), JniError> {
    let offsets = &data.buffer::<O>(0)[data.offset()..=data.offset() + data.len()];
    let offset = |o: &O| -> usize { (*o).try_into().ok().unwrap_or(usize::MAX) };
    let bytes = data.buffers()[1].as_slice();
    let (start, end) = (offset(&offsets[0]), offset(&offsets[data.len()]));
    // The fast path: the whole range is valid and every value starts on a character boundary.
    let whole = bytes.get(start..end).map(std::str::from_utf8);
    let boundaries = || {
        offsets.iter().all(|o| {
            bytes
                .get(offset(o))
                .is_none_or(|&b| !(0x80..0xC0).contains(&b))
        })
    };
    if matches!(whole, Some(Ok(_))) && boundaries() {
        return Ok(());
    }
    // Else value by value, null slots skipped (Flink never reads them).
    for row in 0..data.len() {
        if data.is_null(row) {
            continue;
        }
        let problem = match bytes.get(offset(&offsets[row])..offset(&offsets[row + 1])) {
            None => Some("its offsets lie outside the data".to_owned()),
            Some(value) => std::str::from_utf8(value).err().map(|e| {
                let at = e.valid_up_to();
                format!(
                    "the string is not valid UTF-8 (byte {at} of {}, 0x{:02x}); Flink would write U+FFFD \
                     in its place, Arrow's Utf8 type does not allow it",
                    value.len(),
                    value[at]
                )
            }),
        };
        if let Some(message) = problem {
            return Err(JniError::StreamFusion(
                streamfusion_json::Error::InvalidValue {
                    field: path.to_owned(),
                    row,
                    message,
                },
            ));
        }
    }
    Ok(())
}

/// The exported arrays as Arrow arrays of their fields' types, each `rows` long.
fn import_ffi_columns(
    fields: &Fields,
    columns: Vec<FFI_ArrowArray>,
    rows: usize,
) -> Result<Vec<ArrayRef>, JniError> {
    fields
        .iter()
        .zip(columns)
        .map(|(field, column)| {
            // SAFETY: `column` was moved out of an export of a vector whose field is `field` (the schema
            // that crossed with it or before it, for the same root); `from_ffi_and_data_type` checks the
            // buffer count and layout against the type.
            let data = unsafe { from_ffi_and_data_type(column, field.data_type().clone()) }
                .map_err(JniError::ArrowImport)?;
            if data.len() != rows {
                return Err(JniError::IllegalArgument(format!(
                    "column `{}` has {} values but the root has {rows} rows",
                    field.name(),
                    data.len()
                )));
            }
            Ok(make_array(data))
        })
        .collect()
}

/// The flat handoff of one batch: `words` describes each column's JVM buffers ([`FLAT_WORDS`] per column),
/// the schema crosses as in [`take_exported`] (0: the one held).
///
/// # Safety
/// Every non-zero buffer address in `words` must point to at least its capacity of readable bytes that stay
/// valid and unchanged until the JNI call that made this returns; a non-zero `schema_address` as in
/// [`take_exported`].
unsafe fn take_flat(
    words: Vec<jlong>,
    schema_address: jlong,
    rows: jint,
) -> Result<Exported, JniError> {
    // SAFETY: forwarded from the caller.
    let schema = unsafe { take_schema(schema_address) }?;
    if !words.len().is_multiple_of(FLAT_WORDS) {
        return Err(JniError::IllegalArgument(format!(
            "{} words do not describe whole columns of {FLAT_WORDS}",
            words.len()
        )));
    }
    Ok(Exported {
        columns: Columns::Flat(words),
        schema,
        rows: row_count(rows)?,
    })
}

/// Reads a `String[]`, rejecting a null array or element (`name` names the argument).
fn read_strings(
    env: &mut JNIEnv<'_>,
    array: &JObjectArray<'_>,
    name: &'static str,
) -> Result<Vec<String>, JniError> {
    non_null(array, name)?;
    let len = env.get_array_length(array)?;
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len {
        let element = JString::from(env.get_object_array_element(array, i)?);
        if element.is_null() {
            return Err(JniError::NullArgument(name));
        }
        out.push(env.get_string(&element)?.into());
        env.delete_local_ref(element)?;
    }
    Ok(out)
}

/// The six result arrays as fresh JVM arrays in an `Object[6]`: `byte[] keys, byte[] values,
/// int[] keyOffsets, int[] keyLengths, int[] valueOffsets, int[] valueLengths`.
fn to_java<'local>(
    env: &mut JNIEnv<'local>,
    records: &EncodedRecords,
) -> Result<JObjectArray<'local>, JniError> {
    let out = env.new_object_array(6, "java/lang/Object", JObject::null())?;
    let keys = env.byte_array_from_slice(records.keys())?;
    env.set_object_array_element(&out, 0, keys)?;
    let values = env.byte_array_from_slice(records.values())?;
    env.set_object_array_element(&out, 1, values)?;
    let ints = [
        records.key_offsets(),
        records.key_lengths(),
        records.value_offsets(),
        records.value_lengths(),
    ];
    for (slot, ints) in (2..).zip(ints) {
        let array = env.new_int_array(ints.len() as jint)?;
        env.set_int_array_region(&array, 0, ints)?;
        env.set_object_array_element(&out, slot, array)?;
    }
    Ok(out)
}

/// The body of `encode` and `encodeFlat`: reads the `long[]` argument `name`, makes the batch's handoff
/// with `take`, reports a closed handle before the data is looked at, encodes and returns the six result
/// arrays (see [`to_java`]).
fn encode_batch<'local>(
    env: &mut JNIEnv<'local>,
    handle: jlong,
    words: &JLongArray<'local>,
    name: &'static str,
    take: impl FnOnce(Vec<jlong>) -> Result<Exported, JniError>,
) -> Result<Option<jobjectArray>, JniError> {
    non_null(words, name)?;
    let mut values = vec![0; env.get_array_length(words)? as usize];
    env.get_long_array_region(words, 0, &mut values)?;
    let exported = take(values)?;
    let handle = Handle::from(handle);
    lookup(handle)?;
    let out = encode_with(handle, exported, |records| to_java(env, records))?;
    Ok(Some(out.into_raw()))
}

/// `private static native long open(String[] optionKeys, String[] optionValues)`: parses the options once
/// and returns a new handle. Throws `IllegalArgumentException` for an unknown option, a bad value or
/// arrays of different lengths; `NullPointerException` for a null array or element.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_open<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    option_keys: JObjectArray<'local>,
    option_values: JObjectArray<'local>,
) -> jlong {
    throwing(&mut env, |env| {
        let keys = read_strings(env, &option_keys, "optionKeys")?;
        let values = read_strings(env, &option_values, "optionValues")?;
        if keys.len() != values.len() {
            return Err(JniError::IllegalArgument(format!(
                "{} option keys but {} option values",
                keys.len(),
                values.len()
            )));
        }
        Ok(open_encoder(keys.into_iter().zip(values).collect())?.into())
    })
}

/// `private static native Object[] encode(long handle, long[] arrowArrayAddresses, long arrowSchemaAddress,
/// int rowCount)`: encodes one exported batch (one `ArrowArray` per column; the `ArrowSchema` of the root, or
/// 0 when it is the one that crossed last for this handle); returns the six arrays (see [`to_java`]). The
/// structs are consumed (released before this returns), even when it throws. Throws `IllegalStateException`
/// for a closed handle, `IllegalArgumentException` for a null or released struct, a column count or length
/// that does not fit the schema, or a first batch without schema, and
/// `org.streamfusion.kafka.StreamFusionException` for encoder and import errors.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_encode<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    arrow_array_addresses: JLongArray<'local>,
    arrow_schema_address: jlong,
    row_count: jint,
) -> jobjectArray {
    throwing(&mut env, |env| {
        encode_batch(
            env,
            handle,
            &arrow_array_addresses,
            "arrowArrayAddresses",
            |addresses| {
                // SAFETY: the addresses come from `ArrowArray.memoryAddress()` / `ArrowSchema.memoryAddress()`
                // of structs the Java caller just filled with `Data.exportVector` / `Data.exportSchema` and
                // hands over.
                unsafe { take_exported(&addresses, arrow_schema_address, row_count) }
            },
        )
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `private static native Object[] encodeFlat(long handle, long[] columnWords, long arrowSchemaAddress,
/// int rowCount)`: the flat handoff of one batch whose columns all have flat types (no children, no
/// dictionary): per column [`FLAT_WORDS`] words (value count; address and capacity of the validity buffer and
/// of the layout's one or two buffers), read in place, checked to be large enough and (for offsets) to stay
/// inside their data. The schema crosses as for `encode`. Returns the six arrays; throws as `encode` does,
/// `IllegalArgumentException` for a buffer too small or offsets out of their data.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_encodeFlat<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    column_words: JLongArray<'local>,
    arrow_schema_address: jlong,
    row_count: jint,
) -> jobjectArray {
    throwing(&mut env, |env| {
        encode_batch(env, handle, &column_words, "columnWords", |words| {
            // SAFETY: the words are `ArrowBuf.memoryAddress()` / `capacity()` of the root's buffers, each
            // of which the Java caller holds a reference on until this call returns; the schema address as
            // for `encode`.
            unsafe { take_flat(words, arrow_schema_address, row_count) }
        })
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `private static native void close(long handle)`: unregisters the handle (an `encode` still running on
/// it finishes first and then frees the encoder). Throws `IllegalStateException` when the handle is
/// already closed or was never opened; the Java class only calls it once.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_close<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    throwing(&mut env, |_| close_encoder(Handle::from(handle)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::ffi::to_ffi;
    use arrow_array::{Array, Int64Array, StringArray};

    fn batch() -> RecordBatch {
        RecordBatch::try_from_iter([
            ("id", Arc::new(Int64Array::from(vec![1, 2])) as _),
            (
                "name",
                Arc::new(StringArray::from(vec![Some("a\"b"), None])) as _,
            ),
        ])
        .expect("batch")
    }

    /// Exports `batch` as `NativeJsonEncoder` does: one heap `ArrowArray` per column, and its schema.
    fn export(batch: &RecordBatch) -> (Vec<FFI_ArrowArray>, Box<FFI_ArrowSchema>) {
        let arrays = batch
            .columns()
            .iter()
            .map(|column| to_ffi(&column.to_data()).expect("export").0)
            .collect();
        let schema = FFI_ArrowSchema::try_from(batch.schema().as_ref()).expect("schema");
        (arrays, Box::new(schema))
    }

    fn address<T>(b: &mut T) -> jlong {
        b as *mut T as usize as jlong
    }

    fn addresses(arrays: &mut [FFI_ArrowArray]) -> Vec<jlong> {
        arrays.iter_mut().map(address).collect()
    }

    fn values(records: &EncodedRecords) -> Result<Vec<Option<Vec<u8>>>, JniError> {
        Ok(records.iter().map(|(_, v)| v.map(<[u8]>::to_vec)).collect())
    }

    /// Encodes `batch` through the crossing; its schema crosses too when `send_schema`.
    fn encode_sending(
        handle: Handle,
        batch: &RecordBatch,
        send_schema: bool,
    ) -> Result<Vec<Option<Vec<u8>>>, JniError> {
        let (mut arrays, mut schema) = export(batch);
        let schema_address = if send_schema {
            address(&mut *schema)
        } else {
            0
        };
        let rows = batch.num_rows() as jint;
        // SAFETY: freshly exported structs.
        let exported = unsafe { take_exported(&addresses(&mut arrays), schema_address, rows) }?;
        encode_with(handle, exported, values)
    }

    fn encode(handle: Handle, batch: &RecordBatch) -> Result<Vec<Option<Vec<u8>>>, JniError> {
        encode_sending(handle, batch, true)
    }

    #[test]
    fn round_trip_through_the_c_data_interface() {
        let handle = open_encoder(vec![("key.fields".into(), "id".into())]).expect("open");
        let values = encode(handle, &batch()).expect("encode");
        assert_eq!(
            values,
            vec![
                Some(br#"{"id":1,"name":"a\"b"}"#.to_vec()),
                Some(br#"{"id":2,"name":null}"#.to_vec())
            ]
        );
        // The scratch and the schema that crossed are reused: a second batch without schema, same bytes.
        assert_eq!(
            encode_sending(handle, &batch(), false).expect("again"),
            values
        );
        close_encoder(handle).expect("close");
    }

    #[test]
    fn the_first_batch_must_send_its_schema_and_columns_must_fit_it() {
        let handle = open_encoder(Vec::new()).expect("open");
        let first = encode_sending(handle, &batch(), false).expect_err("no schema yet");
        assert!(
            first.to_string().contains("no schema has crossed"),
            "{first}"
        );
        encode(handle, &batch()).expect("with schema");
        // One column short of the held schema.
        let (mut arrays, _schema) = export(&batch());
        let mut short = addresses(&mut arrays);
        short.pop();
        // SAFETY: freshly exported structs (the last one stays Rust's and is dropped with `arrays`).
        let exported = unsafe { take_exported(&short, 0, 2) }.expect("live");
        let count = encode_with(handle, exported, values).expect_err("column count");
        assert!(
            count
                .to_string()
                .contains("1 exported columns for a schema of 2 fields"),
            "{count}"
        );
        // A row count other than the columns' length.
        let (mut arrays, _schema) = export(&batch());
        // SAFETY: freshly exported structs.
        let exported = unsafe { take_exported(&addresses(&mut arrays), 0, 3) }.expect("live");
        let rows = encode_with(handle, exported, values).expect_err("row count");
        assert!(
            rows.to_string()
                .contains("has 2 values but the root has 3 rows"),
            "{rows}"
        );
        close_encoder(handle).expect("close");
    }

    #[test]
    fn take_exported_leaves_released_structs_and_rejects_them_next_time() {
        let (mut arrays, mut schema) = export(&batch());
        let (a, s) = (addresses(&mut arrays), address(&mut *schema));
        // SAFETY: freshly exported structs.
        let taken = unsafe { take_exported(&a, s, 2) }.expect("live");
        assert!(
            arrays.iter().all(|a| a.is_released()),
            "the caller's structs are left released"
        );
        drop(taken);
        // SAFETY: the structs are still valid memory, now released.
        let again = unsafe { take_exported(&a, s, 2) }.expect_err("released");
        assert!(again.to_string().contains("already released"), "{again}");
        // SAFETY: zero addresses are rejected without a read.
        let null = unsafe { take_exported(&[0], 0, 0) }.expect_err("null");
        assert!(null.to_string().contains("null address"), "{null}");
    }

    #[test]
    fn one_dead_struct_still_releases_the_others() {
        let (mut arrays, mut schema) = export(&batch());
        let mut a = addresses(&mut arrays);
        a.insert(1, 0);
        // SAFETY: fresh structs and one zero address.
        let error =
            unsafe { take_exported(&a, address(&mut *schema), 2) }.expect_err("null column");
        assert!(matches!(error, JniError::IllegalArgument(_)), "{error}");
        assert!(error.to_string().contains("column 1"), "{error}");
        assert!(
            arrays.iter().all(|a| a.is_released()),
            "the live arrays were taken and released"
        );
        // SAFETY: the schema struct is valid memory; it was taken, so it is released now.
        let schema_after =
            unsafe { take_exported(&[], address(&mut *schema), 0) }.expect_err("released");
        assert!(
            schema_after.to_string().contains("already released"),
            "{schema_after}"
        );
        // A negative row count is rejected after the structs are taken.
        let (mut arrays, _schema) = export(&batch());
        // SAFETY: freshly exported structs.
        let negative = unsafe { take_exported(&addresses(&mut arrays), 0, -1) }.expect_err("rows");
        assert!(negative.to_string().contains("negative"), "{negative}");
        assert!(arrays.iter().all(|a| a.is_released()));
    }

    #[test]
    fn closed_unknown_and_reused_handles_are_errors() {
        let handle = open_encoder(Vec::new()).expect("open");
        close_encoder(handle).expect("close");
        assert!(matches!(
            close_encoder(handle),
            Err(JniError::IllegalState(_))
        ));
        let closed = encode(handle, &batch()).expect_err("closed");
        assert!(closed.to_string().contains("closed"), "{closed}");
        assert!(matches!(lookup(Handle(0)), Err(JniError::IllegalState(_))));
        assert!(matches!(lookup(Handle(-7)), Err(JniError::IllegalState(_))));
        let next = open_encoder(Vec::new()).expect("open");
        assert_ne!(next, handle, "ids are never reused");
        close_encoder(next).expect("close");
    }

    #[test]
    fn option_and_schema_errors_keep_their_kind() {
        let typo = open_encoder(vec![("key.field".into(), "id".into())]).expect_err("typo");
        assert!(
            matches!(
                &typo,
                JniError::StreamFusion(streamfusion_json::Error::InvalidOption { .. })
            ),
            "{typo}"
        );
        let handle = open_encoder(Vec::new()).expect("open");
        encode(handle, &batch()).expect("first batch plans");
        let other =
            RecordBatch::try_from_iter([("id", Arc::new(StringArray::from(vec!["x"])) as _)])
                .expect("batch");
        let mismatch = encode(handle, &other).expect_err("schema mismatch");
        assert!(
            matches!(
                &mismatch,
                JniError::StreamFusion(streamfusion_json::Error::SchemaMismatch { .. })
            ),
            "{mismatch}"
        );
        // The handle stays usable after an encoder error.
        encode(handle, &batch()).expect("still usable");
        close_encoder(handle).expect("close");
    }

    /// The flat handoff's words for `batch`'s columns, as Java's `crossFlat` writes them: value count, then
    /// address and capacity of the validity bitmap and of the layout's buffers. Columns without nulls get an
    /// all-valid bitmap (Arrow Java vectors always have one); the bitmaps are kept alive in `bitmaps`.
    fn flat_words(batch: &RecordBatch, bitmaps: &mut Vec<Buffer>) -> Vec<jlong> {
        let mut words = Vec::new();
        for column in batch.columns() {
            let data = column.to_data();
            let bitmap = match data.nulls() {
                Some(nulls) => nulls.buffer().clone(),
                None => Buffer::from_vec(vec![0xffu8; data.len().div_ceil(8)]),
            };
            bitmaps.push(bitmap.clone());
            words.push(data.len() as jlong);
            words.push(bitmap.as_ptr() as usize as jlong);
            words.push(bitmap.len() as jlong);
            for b in 0..2 {
                let (address, len) = data.buffers().get(b).map_or((0, 0), |buf| {
                    (buf.as_ptr() as usize as jlong, buf.len() as jlong)
                });
                words.push(address);
                words.push(len);
            }
        }
        words
    }

    fn encode_flat(
        handle: Handle,
        batch: &RecordBatch,
        words: Vec<jlong>,
        send_schema: bool,
    ) -> Result<Vec<Option<Vec<u8>>>, JniError> {
        let mut schema = FFI_ArrowSchema::try_from(batch.schema().as_ref()).expect("schema");
        let schema_address = if send_schema { address(&mut schema) } else { 0 };
        // SAFETY: the words describe `batch`'s buffers (and bitmaps kept by the caller), alive meanwhile.
        let exported = unsafe { take_flat(words, schema_address, batch.num_rows() as jint) }?;
        encode_with(handle, exported, values)
    }

    fn flat_batch() -> RecordBatch {
        use arrow_array::{BooleanArray, LargeStringArray, TimestampMillisecondArray};
        RecordBatch::try_from_iter([
            (
                "id",
                Arc::new(Int64Array::from(vec![Some(1), None, Some(3)])) as ArrayRef,
            ),
            (
                "name",
                Arc::new(StringArray::from(vec![Some("a\"b"), Some(""), None])) as _,
            ),
            (
                "ok",
                Arc::new(BooleanArray::from(vec![true, false, true])) as _,
            ),
            (
                "big",
                Arc::new(LargeStringArray::from(vec!["x", "yy", "é"])) as _,
            ),
            (
                "ts",
                Arc::new(TimestampMillisecondArray::from(vec![
                    0,
                    1_795_910_400_001,
                    -1,
                ])) as _,
            ),
        ])
        .expect("batch")
    }

    #[test]
    fn the_flat_handoff_gives_the_c_data_interface_bytes() {
        let batch = flat_batch();
        let handle = open_encoder(vec![("key.fields".into(), "id".into())]).expect("open");
        let expected = encode(handle, &batch).expect("through the C Data Interface");
        let mut bitmaps = Vec::new();
        let words = flat_words(&batch, &mut bitmaps);
        assert_eq!(
            encode_flat(handle, &batch, words.clone(), false).expect("flat"),
            expected
        );
        assert_eq!(
            encode_flat(handle, &batch, words, true).expect("flat, schema"),
            expected
        );
        assert_eq!(
            expected[0].as_deref(),
            Some(&br#"{"id":1,"name":"a\"b","ok":true,"big":"x","ts":"1970-01-01 00:00:00"}"#[..])
        );
        close_encoder(handle).expect("close");
    }

    #[test]
    fn a_misaligned_buffer_is_copied_not_misread() {
        let batch = RecordBatch::try_from_iter([(
            "id",
            Arc::new(Int64Array::from(vec![7, -8])) as ArrayRef,
        )])
        .expect("batch");
        let handle = open_encoder(Vec::new()).expect("open");
        // The values one byte into a buffer: not aligned for i64.
        let mut bytes = [0u8; 17];
        bytes[1..9].copy_from_slice(&7i64.to_le_bytes());
        bytes[9..17].copy_from_slice(&(-8i64).to_le_bytes());
        let bitmap = [0b11u8];
        let words = vec![
            2,
            bitmap.as_ptr() as usize as jlong,
            1,
            bytes[1..].as_ptr() as usize as jlong,
            16,
            0,
            0,
        ];
        let values = encode_flat(handle, &batch, words, true).expect("flat");
        assert_eq!(values[1].as_deref(), Some(&br#"{"id":-8}"#[..]));
        close_encoder(handle).expect("close");
    }

    #[test]
    fn flat_buffers_that_do_not_fit_their_values_are_rejected() {
        let batch = flat_batch();
        let handle = open_encoder(Vec::new()).expect("open");
        encode(handle, &batch).expect("the schema crosses");
        let mut bitmaps = Vec::new();
        let words = flat_words(&batch, &mut bitmaps);
        let fails = |edit: &dyn Fn(&mut Vec<jlong>), expected: &str| {
            let mut w = words.clone();
            edit(&mut w);
            let error = encode_flat(handle, &batch, w, false).expect_err(expected);
            assert!(matches!(error, JniError::IllegalArgument(_)), "{error}");
            assert!(
                error.to_string().contains(expected),
                "{error} lacks {expected}"
            );
        };
        // Column 0 (Int64): data capacity one value short; validity capacity 0.
        fails(
            &|w| w[4] = 16,
            "`id`: its data buffer holds 16 bytes, 24 are needed",
        );
        fails(
            &|w| w[2] = 0,
            "`id`: its validity buffer holds 0 bytes, 1 are needed",
        );
        // Column 1 (Utf8): offsets capacity short; data capacity below the last offset.
        fails(
            &|w| w[FLAT_WORDS + 4] = 12,
            "`name`: its offsets buffer holds 12 bytes, 16 are needed",
        );
        fails(
            &|w| w[FLAT_WORDS + 6] = 2,
            "`name`: offset 1 is negative, decreasing or beyond the 2 data bytes",
        );
        // A value count other than the row count, a null data address, a partial column, a short schema.
        fails(&|w| w[0] = 2, "`id` has 2 values but the root has 3 rows");
        fails(&|w| w[3] = 0, "a buffer of 24 bytes at a null address");
        fails(
            &|w| w.truncate(FLAT_WORDS * 2 + 1),
            "do not describe whole columns",
        );
        fails(
            &|w| w.truncate(FLAT_WORDS * 2),
            "2 exported columns for a schema of 5 fields",
        );
        close_encoder(handle).expect("close");
    }

    #[test]
    fn decreasing_offsets_are_rejected_before_any_value_is_read() {
        let batch = RecordBatch::try_from_iter([(
            "s",
            Arc::new(StringArray::from(vec!["ab", "c"])) as ArrayRef,
        )])
        .expect("batch");
        let handle = open_encoder(Vec::new()).expect("open");
        let offsets: [i32; 3] = [0, 2, 1];
        let data = b"abc";
        let bitmap = [0b11u8];
        let words = vec![
            2,
            bitmap.as_ptr() as usize as jlong,
            1,
            offsets.as_ptr() as usize as jlong,
            12,
            data.as_ptr() as usize as jlong,
            3,
        ];
        let error = encode_flat(handle, &batch, words, true).expect_err("decreasing");
        assert!(
            error
                .to_string()
                .contains("offset 2 is negative, decreasing"),
            "{error}"
        );
        close_encoder(handle).expect("close");
    }

    #[test]
    fn nested_types_cannot_cross_flat() {
        use arrow_array::types::Int64Type;
        use arrow_array::ListArray;
        let list = ListArray::from_iter_primitive::<Int64Type, _, _>([Some(vec![Some(1)])]);
        let batch = RecordBatch::try_from_iter([("l", Arc::new(list) as ArrayRef)]).expect("batch");
        let handle = open_encoder(Vec::new()).expect("open");
        let bitmap = [1u8];
        let words = vec![1, bitmap.as_ptr() as usize as jlong, 1, 0, 0, 0, 0];
        let error = encode_flat(handle, &batch, words, true).expect_err("nested");
        assert!(error.to_string().contains("cannot cross flat"), "{error}");
        close_encoder(handle).expect("close");
    }

    /// Flat words for one Utf8 column over `offsets` and `data`, all valid.
    fn utf8_words(offsets: &[i32], data: &[u8], bitmap: &[u8]) -> Vec<jlong> {
        vec![
            (offsets.len() - 1) as jlong,
            bitmap.as_ptr() as usize as jlong,
            bitmap.len() as jlong,
            offsets.as_ptr() as usize as jlong,
            std::mem::size_of_val(offsets) as jlong,
            data.as_ptr() as usize as jlong,
            data.len() as jlong,
        ]
    }

    #[test]
    fn strings_that_are_not_utf8_are_invalid_values_naming_field_and_row() {
        let batch = RecordBatch::try_from_iter_with_nullable([(
            "s",
            Arc::new(StringArray::from(vec!["ok", "x", "é"])) as ArrayRef,
            true,
        )])
        .expect("batch");
        let handle = open_encoder(Vec::new()).expect("open");
        let all = [0b111u8];
        // Row 1 holds 0xff, which starts no UTF-8 sequence.
        let data = b"ok\xffabc\xc3\xa9";
        let error = encode_flat(handle, &batch, utf8_words(&[0, 2, 6, 8], data, &all), true)
            .expect_err("0xff");
        assert!(
            matches!(&error, JniError::StreamFusion(streamfusion_json::Error::InvalidValue { field, row: 1, .. }) if field == "s"),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .contains("not valid UTF-8 (byte 0 of 4, 0xff)"),
            "{error}"
        );
        // A value boundary inside a character: each half is invalid although the whole range is valid.
        let data = "oké".as_bytes();
        let error = encode_flat(handle, &batch, utf8_words(&[0, 2, 3, 4], data, &all), false)
            .expect_err("split character");
        assert!(error.to_string().contains("row 1"), "{error}");
        // Invalid bytes in a null slot are never read, as in Flink.
        let data = b"ok\xff\xc3\xa9";
        let values = encode_flat(
            handle,
            &batch,
            utf8_words(&[0, 2, 3, 5], data, &[0b101]),
            false,
        )
        .expect("null slot");
        assert_eq!(values[1].as_deref(), Some(&br#"{"s":null}"#[..]));
        assert_eq!(values[2].as_deref(), Some("{\"s\":\"é\"}".as_bytes()));
        close_encoder(handle).expect("close");
    }

    #[test]
    fn nested_strings_are_checked_too() {
        use arrow_array::StructArray;
        use arrow_buffer::OffsetBuffer;
        // SAFETY: deliberately invalid UTF-8, which the check below must catch before anything reads it.
        let bad = unsafe {
            StringArray::new_unchecked(
                OffsetBuffer::new(vec![0, 1, 2].into()),
                Buffer::from_vec(b"a\xfe".to_vec()),
                None,
            )
        };
        let inner = StructArray::from(vec![(
            Arc::new(Field::new("x", DataType::Utf8, true)),
            Arc::new(bad) as ArrayRef,
        )]);
        let batch =
            RecordBatch::try_from_iter([("s", Arc::new(inner) as ArrayRef)]).expect("batch");
        let handle = open_encoder(Vec::new()).expect("open");
        let error = encode(handle, &batch).expect_err("nested 0xfe");
        assert!(error.to_string().contains("field `s.x`, row 1"), "{error}");
        close_encoder(handle).expect("close");
    }

    #[test]
    fn concurrent_encodes_on_one_handle_are_serialised() {
        let handle = open_encoder(Vec::new()).expect("open");
        let expected = encode(handle, &batch()).expect("encode");
        // Miri interprets each encode in about 0.4 s: 4 x 50 took 80 s there, 4 x 4 still interleaves the
        // threads' lock, encode and copy-out (which is what Miri's data-race detector checks).
        let iterations = if cfg!(miri) { 4 } else { 50 };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..iterations {
                        assert_eq!(encode(handle, &batch()).expect("encode"), expected);
                    }
                });
            }
        });
        close_encoder(handle).expect("close");
    }
}
