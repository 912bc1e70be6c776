//! Entry points of `org.streamfusion.kafka.NativeJsonEncoder` (module `java/streamfusion-kafka`).
//!
//! The model: a Java encoder owns one native [`Encoder`] (with the one [`EncodedRecords`] it reuses across
//! batches) through a `long` handle with an explicit `open` / `encode` / `close` lifecycle (module `handles`:
//! a closed or forged handle throws `IllegalStateException`; concurrent calls on one handle are serialised).
//!
//! One batch crosses per call, in one of the two handoffs of [`streamfusion_json::ffi`], which takes the
//! structs over, checks and imports the batch: `encode` passes the addresses of one exported `ArrowArray` per
//! column (`Data.exportVector`), `encodeFlat` the words of the flat handoff (per column the value count and the
//! address and capacity of each buffer, Java holding a reference on every buffer until the call returns),
//! `encodeBinaryRows` Flink binary rows copied out of a `byte[]` with their `int[]` offsets,
//! `encodeBinaryRowsAt` the same rows read in place from native memory the caller holds. The
//! schema crosses (`Data.exportSchema`) only when it is not the one that crossed last; the handle keeps it.
//! This module only converts: `long`s to addresses and words, the result to JVM arrays, errors to exceptions.
//!
//! Either way the batch is encoded and dropped (which runs Java's release callbacks for exported columns)
//! before the six result arrays are copied into fresh JVM arrays. Nothing native points at JVM memory after
//! the call, and the JVM never sees a view of the reused scratch. `docs/jni.md` has the full ownership and
//! exception rules.

use jni::objects::{JByteArray, JClass, JIntArray, JLongArray, JObject, JObjectArray, JString};
use jni::sys::{jboolean, jint, jintArray, jlong, jobjectArray};
use jni::JNIEnv;
use streamfusion_json::ffi::{Encoder, Handoff, FLAT_BUFFERS, FLAT_WORDS};
use streamfusion_json::{EncodedRecords, EncoderOptions, OPTIONS};

use crate::error::{non_null, throwing, JniError};
use crate::handles::{Handle, Registry};

/// The open encoders.
static ENCODERS: Registry<Encoder> = Registry::new("StreamFusion encoder");

/// Parses `pairs` once, creates an encoder and registers it.
fn open_encoder(pairs: Vec<(String, String)>) -> Result<Handle, JniError> {
    let encoder = Encoder::new(EncoderOptions::from_pairs(pairs)?)?;
    Ok(ENCODERS.insert(encoder))
}

/// Encodes `handoff` with the encoder behind `handle` into the handle's reused records and hands them to `f`
/// while the handle's lock is held (so `f` sees this batch's records, not a concurrent caller's).
fn encode_with<R>(
    handle: Handle,
    handoff: Handoff,
    f: impl FnOnce(&EncodedRecords) -> Result<R, JniError>,
) -> Result<R, JniError> {
    // The imported Arrow data is released (Java's release callbacks run) before any JVM array is made.
    ENCODERS.with(handle, |encoder| f(encoder.encode(handoff)?))
}

/// The result arrays of one `encode`: the key and value slabs, then the key offsets and lengths and the
/// value offsets and lengths.
const RESULT_ARRAYS: usize = 6;

/// A JVM `long` that carries an address (`memoryAddress()` of an Arrow Java struct), as that address.
fn address(word: jlong) -> usize {
    word as usize
}

/// The layout constants the Java classes mirror, in the order `NativeJsonEncoder.layout()` returns them.
fn layout() -> [jint; 3] {
    [FLAT_WORDS, FLAT_BUFFERS, RESULT_ARRAYS].map(|n| n as jint)
}

/// The names of the encoder options ([`OPTIONS`]), in the order `NativeJsonEncoder.optionNames()` returns them.
fn option_names() -> Vec<&'static str> {
    OPTIONS.iter().map(|option| option.name).collect()
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

/// The options of an `open`: `String[] optionKeys` and `String[] optionValues`, paired in order. Arrays of
/// different lengths are `IllegalArgumentException`; a null array or element `NullPointerException`.
pub(crate) fn read_option_pairs(
    env: &mut JNIEnv<'_>,
    keys: &JObjectArray<'_>,
    values: &JObjectArray<'_>,
) -> Result<Vec<(String, String)>, JniError> {
    let keys = read_strings(env, keys, "optionKeys")?;
    let values = read_strings(env, values, "optionValues")?;
    if keys.len() != values.len() {
        return Err(JniError::IllegalArgument(format!(
            "{} option keys but {} option values",
            keys.len(),
            values.len()
        )));
    }
    Ok(keys.into_iter().zip(values).collect())
}

/// The six result arrays as fresh JVM arrays in an `Object[6]`: `byte[] keys, byte[] values,
/// int[] keyOffsets, int[] keyLengths, int[] valueOffsets, int[] valueLengths`.
fn to_java<'local>(
    env: &mut JNIEnv<'local>,
    records: &EncodedRecords,
) -> Result<JObjectArray<'local>, JniError> {
    let out = env.new_object_array(RESULT_ARRAYS as jint, "java/lang/Object", JObject::null())?;
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
    take: impl FnOnce(Vec<jlong>) -> Result<Handoff, JniError>,
) -> Result<Option<jobjectArray>, JniError> {
    non_null(words, name)?;
    let mut values = vec![0; env.get_array_length(words)? as usize];
    env.get_long_array_region(words, 0, &mut values)?;
    let handoff = take(values)?;
    let handle = Handle::from(handle);
    ENCODERS.lookup(handle)?;
    let out = encode_with(handle, handoff, |records| to_java(env, records))?;
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
        Ok(open_encoder(read_option_pairs(env, &option_keys, &option_values)?)?.into())
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
                let addresses: Vec<usize> = addresses.iter().map(|&a| address(a)).collect();
                let schema = address(arrow_schema_address);
                // SAFETY: the addresses come from `ArrowArray.memoryAddress()` / `ArrowSchema.memoryAddress()`
                // of structs the Java caller just filled with `Data.exportVector` / `Data.exportSchema` and
                // hands over.
                unsafe { Handoff::take_c_data(&addresses, schema, row_count.into()) }
                    .map_err(JniError::from)
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
            let schema = address(arrow_schema_address);
            // SAFETY: the words are `ArrowBuf.memoryAddress()` / `capacity()` of the root's buffers, each
            // of which the Java caller holds a reference on until this call returns (the handoff and the
            // batch imported from it are dropped before); the schema address as for `encode`.
            unsafe { Handoff::take_flat(words, schema, row_count.into()) }.map_err(JniError::from)
        })
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `private static native Object[] encodeBinaryRows(long handle, byte[] rows, int length, int[] rowOffsets,
/// int rowCount, int arity, long arrowSchemaAddress)`: one batch of Flink binary rows (`BinaryRowData`) of
/// `arity` fields, the first `length` bytes of `rows`, row `i` spanning `rowOffsets[i]..rowOffsets[i + 1]`
/// (`rowCount + 1` offsets are read); decoded natively into the columns of the schema (which crosses as for
/// `encode`). The bytes and offsets are copied in (`Get<Type>ArrayRegion`), so nothing points into JVM memory.
/// Returns the six arrays; throws `NullPointerException` for a null array, `IndexOutOfBoundsException` when
/// `length` or `rowCount + 1` exceeds its array (or is negative), `IllegalArgumentException` for rows that
/// disagree with the schema (naming field and row), else as `encode` does.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_encodeBinaryRows<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    rows: JByteArray<'local>,
    length: jint,
    row_offsets: JIntArray<'local>,
    row_count: jint,
    arity: jint,
    arrow_schema_address: jlong,
) -> jobjectArray {
    throwing(&mut env, |env| {
        non_null(&rows, "rows")?;
        let bytes = region_len(length, env.get_array_length(&rows)?, "length")?;
        let offsets = row_offsets_in(env, &row_offsets, row_count)?;
        let data = copy_bytes(env, &rows, bytes)?;
        let schema = address(arrow_schema_address);
        // SAFETY: the schema address as for `encode`; the rows are owned copies.
        let handoff =
            unsafe { Handoff::binary_rows(data, offsets, arity, schema, row_count.into()) }?;
        let handle = Handle::from(handle);
        let out = encode_with(handle, handoff, |records| to_java(env, records))?;
        Ok(Some(out.into_raw()))
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `private static native Object[] encodeBinaryRowsAt(long handle, long address, long capacity, int length,
/// int[] rowOffsets, int rowCount, int arity, long arrowSchemaAddress)`: as `encodeBinaryRows`, with the rows
/// read in place from the first `length` bytes of the `capacity` bytes at `address` (an `ArrowBuf` the Java
/// caller holds until this returns), so a batch is not copied in. Throws `IllegalArgumentException` for a zero
/// address, or a negative `length` or one past `capacity`, `IndexOutOfBoundsException` when `rowCount + 1`
/// exceeds the offsets, else as `encodeBinaryRows` does.
#[no_mangle]
#[allow(clippy::too_many_arguments)] // the Java method's parameters, one to one
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_encodeBinaryRowsAt<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    rows_address: jlong,
    capacity: jlong,
    length: jint,
    row_offsets: JIntArray<'local>,
    row_count: jint,
    arity: jint,
    arrow_schema_address: jlong,
) -> jobjectArray {
    throwing(&mut env, |env| {
        let offsets = row_offsets_in(env, &row_offsets, row_count)?;
        let schema = address(arrow_schema_address);
        // SAFETY: the Java caller holds the buffer of `capacity` bytes at `rows_address` (and does not write
        // it) until this call returns, and the handoff is consumed by `encode_with` within it; the schema
        // address as for `encode`.
        let handoff = unsafe {
            Handoff::binary_rows_at(
                rows_address,
                capacity,
                length,
                offsets,
                arity,
                schema,
                row_count.into(),
            )
        }?;
        let handle = Handle::from(handle);
        let out = encode_with(handle, handoff, |records| to_java(env, records))?;
        Ok(Some(out.into_raw()))
    })
    .unwrap_or(std::ptr::null_mut())
}

/// The first `row_count + 1` entries of `row_offsets` copied in; a null array is `NullPointerException`, a count
/// past the array (or negative) [`JniError::OutOfBounds`].
fn row_offsets_in(
    env: &mut JNIEnv<'_>,
    row_offsets: &JIntArray<'_>,
    row_count: jint,
) -> Result<Vec<i32>, JniError> {
    non_null(row_offsets, "rowOffsets")?;
    let count = region_len(
        row_count.saturating_add(1),
        env.get_array_length(row_offsets)?,
        "rowCount + 1",
    )?;
    let mut offsets = vec![0; count];
    env.get_int_array_region(row_offsets, 0, &mut offsets)?;
    Ok(offsets)
}

/// The first `len` bytes of `array` (at least that long: checked by the caller) copied into a new `Vec`
/// ([`copy_region_into`]).
pub(crate) fn copy_bytes(
    env: &mut JNIEnv<'_>,
    array: &JByteArray<'_>,
    len: usize,
) -> Result<Vec<u8>, JniError> {
    let mut data = Vec::new();
    copy_region_into(env, array, 0, len, &mut data)?;
    Ok(data)
}

/// The `len` bytes of `array` from `start` (inside the array: checked by the caller) copied into `out`, which is
/// cleared first and keeps its capacity, in one pass: `GetByteArrayRegion` writes straight into the vector's
/// uninitialised capacity, where `get_byte_array_region` would need it zeroed first and an `i8`-to-`u8` pass
/// after (three passes over a batch of several MiB, measured at about 200 ns per q9 row at 4096 rows).
pub(crate) fn copy_region_into(
    env: &mut JNIEnv<'_>,
    array: &JByteArray<'_>,
    start: usize,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<(), JniError> {
    out.clear();
    out.reserve(len);
    let raw = env.get_raw();
    // SAFETY: `raw` is this call's valid JNIEnv; `array` is a live, non-null byte[] holding `start + len`
    // elements (checked by the caller), so the region call writes exactly `len` bytes (i8 and u8 have one layout)
    // into the vector's capacity (at least `len` after the reserve of the cleared vector) through a raw pointer,
    // with no reference to uninitialised memory; the length is set only after it returned without a pending
    // exception.
    unsafe {
        let get = (**raw).GetByteArrayRegion.ok_or(JniError::Jni(
            jni::errors::Error::JNIEnvMethodNotFound("GetByteArrayRegion"),
        ))?;
        get(
            raw,
            array.as_raw(),
            start as jint,
            len as jint,
            out.spare_capacity_mut().as_mut_ptr().cast::<i8>(),
        );
        if env.exception_check()? {
            return Err(JniError::Jni(jni::errors::Error::JavaException));
        }
        out.set_len(len);
    }
    Ok(())
}

/// `count` elements from the start of an array of `available`, as a length; a negative `count` or one past
/// the array is [`JniError::OutOfBounds`] naming the argument.
pub(crate) fn region_len(count: jint, available: jint, name: &str) -> Result<usize, JniError> {
    usize::try_from(count)
        .ok()
        .filter(|_| count <= available)
        .ok_or_else(|| {
            JniError::OutOfBounds(format!(
                "{name} = {count} is negative or beyond the array's {available} elements"
            ))
        })
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
    throwing(&mut env, |_| ENCODERS.remove(Handle::from(handle)));
}

/// `private static native boolean appliesNullMapKeys(long handle)`: whether the encoder behind `handle` applies
/// `map-null-key.mode` to binary rows' null map keys itself ([`Encoder::applies_null_map_keys`]). Throws
/// `IllegalStateException` for a closed handle.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_appliesNullMapKeys<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jboolean {
    throwing(&mut env, |_| {
        ENCODERS.with(Handle::from(handle), |encoder| {
            Ok(jboolean::from(encoder.applies_null_map_keys()))
        })
    })
}

/// `static native int[] layout()` (package-private): the layout constants the Java side mirrors, in order the
/// words per column of the flat handoff ([`FLAT_WORDS`]), the buffers those words describe ([`FLAT_BUFFERS`])
/// and the result arrays of one `encode` ([`RESULT_ARRAYS`]). `LayoutTest` (module `java/streamfusion-kafka`)
/// asserts that `NativeJsonEncoder.FLAT_WORDS`, `NativeJsonEncoder.FLAT_BUFFERS` and
/// `EncodedBatch.NATIVE_ARRAYS` equal them.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_layout<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jintArray {
    throwing(&mut env, |env| {
        let layout = layout();
        let array: JIntArray<'local> = env.new_int_array(layout.len() as jint)?;
        env.set_int_array_region(&array, 0, &layout)?;
        Ok(Some(array.into_raw()))
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `static native String[] optionNames()` (package-private): the names of the encoder options, in the order of
/// [`OPTIONS`] (`streamfusion_json`'s table, which `EncoderOptions::from_pairs` accepts). `EncoderOptionsTest`
/// (module `java/streamfusion-kafka`) asserts that `org.streamfusion.kafka.EncoderOptions.NAMES` equals them.
/// Throws `IllegalStateException` (or the JVM's pending `OutOfMemoryError`) if a JNI call fails.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonEncoder_optionNames<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jobjectArray {
    throwing(&mut env, |env| {
        let names = option_names();
        let array =
            env.new_object_array(names.len() as jint, "java/lang/String", JObject::null())?;
        for (i, name) in (0..).zip(names) {
            let name = env.new_string(name)?;
            env.set_object_array_element(&array, i, &name)?;
            env.delete_local_ref(name)?;
        }
        Ok(Some(array.into_raw()))
    })
    .unwrap_or(std::ptr::null_mut())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::ffi::{to_ffi, FFI_ArrowSchema};
    use arrow_array::{Array, Int64Array, RecordBatch, StringArray};
    use std::sync::Arc;

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

    /// Exports `batch` as `NativeJsonEncoder` does (one `ArrowArray` per column, and its schema), takes it
    /// over through the C Data Interface handoff and encodes it with the encoder behind `handle`.
    fn encode(handle: Handle, batch: &RecordBatch) -> Result<Vec<Option<Vec<u8>>>, JniError> {
        let mut arrays: Vec<_> = batch
            .columns()
            .iter()
            .map(|column| to_ffi(&column.to_data()).expect("export").0)
            .collect();
        let mut schema = FFI_ArrowSchema::try_from(batch.schema().as_ref()).expect("schema");
        let addresses: Vec<usize> = arrays.iter_mut().map(|a| a as *mut _ as usize).collect();
        let schema_address = &mut schema as *mut _ as usize;
        let rows = batch.num_rows() as i64;
        // SAFETY: freshly exported structs.
        let handoff = unsafe { Handoff::take_c_data(&addresses, schema_address, rows) }?;
        encode_with(handle, handoff, |records| {
            Ok(records.iter().map(|(_, v)| v.map(<[u8]>::to_vec)).collect())
        })
    }

    #[test]
    fn round_trip_through_a_handle() {
        let handle = open_encoder(vec![("key.fields".into(), "id".into())]).expect("open");
        let values = encode(handle, &batch()).expect("encode");
        assert_eq!(
            values,
            vec![
                Some(br#"{"id":1,"name":"a\"b"}"#.to_vec()),
                Some(br#"{"id":2,"name":null}"#.to_vec())
            ]
        );
        ENCODERS.remove(handle).expect("close");
    }

    #[test]
    fn each_option_name_opens_an_encoder_with_its_default() {
        let names = option_names();
        assert_eq!(names.len(), OPTIONS.len());
        for (name, option) in names.into_iter().zip(OPTIONS) {
            assert_eq!(name, option.name);
            // `none` is an option unset by default, which an empty value also gives.
            let value = if option.default == "none" {
                ""
            } else {
                option.default
            };
            let handle = open_encoder(vec![(name.into(), value.into())])
                .unwrap_or_else(|e| panic!("{name} = `{value}`: {e}"));
            ENCODERS.remove(handle).expect("close");
        }
    }

    #[test]
    fn binary_row_regions_must_fit_their_arrays() {
        assert_eq!(region_len(3, 3, "length").expect("fits"), 3);
        assert_eq!(region_len(0, 0, "length").expect("empty"), 0);
        for (count, available) in [(4, 3), (-1, 3), (i32::MAX, 3)] {
            let error = region_len(count, available, "rowCount + 1").expect_err("outside");
            assert!(
                matches!(&error, JniError::OutOfBounds(m) if m.contains("rowCount + 1")),
                "{error}"
            );
        }
    }

    #[test]
    fn closed_unknown_and_reused_handles_are_errors() {
        let handle = open_encoder(Vec::new()).expect("open");
        ENCODERS.remove(handle).expect("close");
        assert!(matches!(
            ENCODERS.remove(handle),
            Err(JniError::IllegalState(_))
        ));
        let closed = encode(handle, &batch()).expect_err("closed");
        assert!(closed.to_string().contains("closed"), "{closed}");
        assert!(matches!(
            ENCODERS.lookup(Handle::from(0)),
            Err(JniError::IllegalState(_))
        ));
        assert!(matches!(
            ENCODERS.lookup(Handle::from(-7)),
            Err(JniError::IllegalState(_))
        ));
        let next = open_encoder(Vec::new()).expect("open");
        assert_ne!(next, handle, "ids are never reused");
        ENCODERS.remove(next).expect("close");
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
        ENCODERS.remove(handle).expect("close");
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
        ENCODERS.remove(handle).expect("close");
    }
}
