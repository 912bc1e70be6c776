//! Entry points of `org.bijou64.NativeCodec` (module `java/native`).
//!
//! `mapping` is `org.bijou64.Mapping.ordinal()`: 0 = unsigned, 1 = zigzag.

use std::cell::RefCell;

use bijou64_kafka::{BijouValue, EncodedSlab, Mapping};
use jni::objects::{JByteArray, JClass, JIntArray, JLongArray, JPrimitiveArray, TypeArray};
use jni::sys::{jbyteArray, jint, jintArray, jlong, jlongArray, jstring};
use jni::JNIEnv;

use crate::error::{non_null, throwing, JniError};

fn mapping(code: jint) -> Result<Mapping, JniError> {
    match code {
        0 => Ok(Mapping::Unsigned),
        1 => Ok(Mapping::Zigzag),
        other => Err(JniError::IllegalArgument(format!(
            "unknown mapping code {other}: expected 0 (unsigned) or 1 (zigzag)"
        ))),
    }
}

/// Per-thread buffers reused by every call, so a call allocates only the JVM array it returns: for the bulk
/// calls, large transient allocations would cost page faults on every call; for the single-value calls, a
/// heap allocation and free are a measurable share of the whole call (`docs/benchmarks.md`, the JNI floor).
/// They grow to the largest call seen on the thread and live as long as the thread; no JVM reference is ever
/// kept in them.
#[derive(Default)]
struct Scratch {
    longs: Vec<i64>,
    ints: Vec<i32>,
    slab: EncodedSlab,
    bytes: Vec<i8>,
    offsets: Vec<u32>,
    java_offsets: Vec<jint>,
    /// The encoding of one value (`encodeLong`, `encodeInt`).
    record: Vec<u8>,
}

/// `bytes` viewed as `u8`, the type the codec reads.
fn unsigned(bytes: &[i8]) -> &[u8] {
    // SAFETY: i8 and u8 have the same size and alignment and every bit pattern is valid for both; the view
    // borrows `bytes`, so it lives no longer than they do.
    unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u8>(), bytes.len()) }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// A Java primitive element type that is also a bijou value (`long`, `int`).
trait JavaValue: BijouValue + TypeArray + Default {
    /// This type's value buffer in the scratch.
    fn buffer(scratch: &mut Scratch) -> &mut Vec<Self>;
    /// Copies a JVM array into `into` (cleared first).
    fn read_into(
        env: &mut JNIEnv<'_>,
        array: &JPrimitiveArray<'_, Self>,
        into: &mut Vec<Self>,
    ) -> jni::errors::Result<()>;
    /// A new JVM array holding `values`.
    fn new_array<'local>(
        env: &mut JNIEnv<'local>,
        values: &[Self],
    ) -> jni::errors::Result<JPrimitiveArray<'local, Self>>;
}

impl JavaValue for i64 {
    fn buffer(scratch: &mut Scratch) -> &mut Vec<i64> {
        &mut scratch.longs
    }

    fn read_into(
        env: &mut JNIEnv<'_>,
        array: &JLongArray<'_>,
        into: &mut Vec<i64>,
    ) -> jni::errors::Result<()> {
        into.clear();
        into.resize(env.get_array_length(array)? as usize, 0);
        env.get_long_array_region(array, 0, into)
    }

    fn new_array<'local>(
        env: &mut JNIEnv<'local>,
        values: &[i64],
    ) -> jni::errors::Result<JLongArray<'local>> {
        let array = env.new_long_array(java_len(values.len())?)?;
        env.set_long_array_region(&array, 0, values)?;
        Ok(array)
    }
}

impl JavaValue for i32 {
    fn buffer(scratch: &mut Scratch) -> &mut Vec<i32> {
        &mut scratch.ints
    }

    fn read_into(
        env: &mut JNIEnv<'_>,
        array: &JIntArray<'_>,
        into: &mut Vec<i32>,
    ) -> jni::errors::Result<()> {
        into.clear();
        into.resize(env.get_array_length(array)? as usize, 0);
        env.get_int_array_region(array, 0, into)
    }

    fn new_array<'local>(
        env: &mut JNIEnv<'local>,
        values: &[i32],
    ) -> jni::errors::Result<JIntArray<'local>> {
        let array = env.new_int_array(java_len(values.len())?)?;
        env.set_int_array_region(&array, 0, values)?;
        Ok(array)
    }
}

fn java_len(len: usize) -> jni::errors::Result<jint> {
    jint::try_from(len).map_err(|_| jni::errors::Error::JniCall(jni::errors::JniError::NoMemory))
}

/// Copies `src[offset .. offset + length]` into `into` (cleared first), after checking the bounds as
/// `java.util.Objects.checkFromIndexSize` does, with its message, so that the native and the pure-Java codec
/// throw the same `IndexOutOfBoundsException` for the same bad bounds.
fn read_bytes(
    env: &mut JNIEnv<'_>,
    src: &JByteArray<'_>,
    offset: jint,
    length: jint,
    into: &mut Vec<i8>,
) -> Result<(), JniError> {
    non_null(src, "src")?;
    let array_len = env.get_array_length(src)?;
    if offset < 0 || length < 0 || offset > array_len - length {
        return Err(JniError::OutOfBounds(format!(
            "Range [{offset}, {offset} + {length}) out of bounds for length {array_len}"
        )));
    }
    into.clear();
    into.resize(length as usize, 0);
    env.get_byte_array_region(src, offset, into)?;
    Ok(())
}

/// Largest Java array length that HotSpot allocates.
const MAX_JAVA_ARRAY: usize = i32::MAX as usize - 8;

fn new_byte_array<'local>(env: &mut JNIEnv<'local>, bytes: &[u8]) -> Result<jbyteArray, JniError> {
    if bytes.len() > MAX_JAVA_ARRAY {
        return Err(bijou64_kafka::Error::SlabTooLarge { bytes: bytes.len() }.into());
    }
    Ok(env.byte_array_from_slice(bytes)?.into_raw())
}

fn encode_one<T: JavaValue>(env: &mut JNIEnv<'_>, value: T, code: jint) -> jbyteArray {
    throwing(env, |env| {
        let mapping = mapping(code)?;
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.record.clear();
            bijou64_kafka::encode(value, mapping, &mut scratch.record);
            Ok(Some(new_byte_array(env, &scratch.record)?))
        })
    })
    .unwrap_or(std::ptr::null_mut())
}

fn decode_one<T: JavaValue>(
    env: &mut JNIEnv<'_>,
    src: &JByteArray<'_>,
    offset: jint,
    length: jint,
    code: jint,
) -> T {
    throwing(env, |env| {
        let mapping = mapping(code)?;
        SCRATCH.with_borrow_mut(|scratch| {
            read_bytes(env, src, offset, length, &mut scratch.bytes)?;
            Ok(bijou64_kafka::decode::<T>(
                unsigned(&scratch.bytes),
                mapping,
            )?)
        })
    })
}

fn decode_prefix_one<T: JavaValue>(
    env: &mut JNIEnv<'_>,
    src: &JByteArray<'_>,
    offset: jint,
    length: jint,
    code: jint,
    consumed_out: &JIntArray<'_>,
) -> T {
    throwing(env, |env| {
        non_null(consumed_out, "consumedOut")?;
        if env.get_array_length(consumed_out)? < 1 {
            return Err(JniError::IllegalArgument(
                "consumedOut must hold 1 element".into(),
            ));
        }
        let mapping = mapping(code)?;
        let (value, consumed) = SCRATCH.with_borrow_mut(|scratch| {
            read_bytes(env, src, offset, length, &mut scratch.bytes)?;
            Ok::<_, JniError>(bijou64_kafka::decode_prefix::<T>(
                unsigned(&scratch.bytes),
                mapping,
            )?)
        })?;
        env.set_int_array_region(consumed_out, 0, &[consumed as jint])?;
        Ok(value)
    })
}

fn encode_many<T: JavaValue>(
    env: &mut JNIEnv<'_>,
    values_array: &JPrimitiveArray<'_, T>,
    code: jint,
    offsets_out: &JIntArray<'_>,
) -> jbyteArray {
    throwing(env, |env| {
        non_null(values_array, "values")?;
        non_null(offsets_out, "offsetsOut")?;
        let mapping = mapping(code)?;
        SCRATCH
            .with_borrow_mut(|scratch| {
                let mut values = std::mem::take(T::buffer(scratch));
                let result = encode_into_jvm(
                    env,
                    values_array,
                    &mut values,
                    mapping,
                    offsets_out,
                    scratch,
                );
                *T::buffer(scratch) = values;
                result
            })
            .map(Some)
    })
    .unwrap_or(std::ptr::null_mut())
}

/// The body of [`encode_many`], with the scratch buffers borrowed.
fn encode_into_jvm<T: JavaValue>(
    env: &mut JNIEnv<'_>,
    values_array: &JPrimitiveArray<'_, T>,
    values: &mut Vec<T>,
    mapping: Mapping,
    offsets_out: &JIntArray<'_>,
    scratch: &mut Scratch,
) -> Result<jbyteArray, JniError> {
    T::read_into(env, values_array, values)?;
    let offsets_len = env.get_array_length(offsets_out)? as usize;
    if offsets_len != values.len() + 1 {
        return Err(JniError::IllegalArgument(format!(
            "offsetsOut has {offsets_len} elements, {} values need {}",
            values.len(),
            values.len() + 1
        )));
    }
    bijou64_kafka::encode_slab_into(values, mapping, &mut scratch.slab)?;
    let bytes = new_byte_array(env, scratch.slab.bytes())?;
    // The slab fits a Java array (checked by new_byte_array), so every offset fits an int.
    scratch.java_offsets.clear();
    scratch
        .java_offsets
        .extend(scratch.slab.offsets().iter().map(|&o| o as jint));
    env.set_int_array_region(offsets_out, 0, &scratch.java_offsets)?;
    Ok(bytes)
}

fn decode_many<'local, T: JavaValue>(
    env: &mut JNIEnv<'local>,
    slab: &JByteArray<'_>,
    offsets: &JIntArray<'_>,
    code: jint,
) -> Option<JPrimitiveArray<'local, T>> {
    throwing(env, |env| {
        non_null(slab, "slab")?;
        non_null(offsets, "offsets")?;
        let mapping = mapping(code)?;
        SCRATCH
            .with_borrow_mut(|scratch| {
                let mut values = std::mem::take(T::buffer(scratch));
                let result = decode_from_jvm(env, slab, offsets, mapping, &mut values, scratch);
                *T::buffer(scratch) = values;
                result
            })
            .map(Some)
    })
}

/// The body of [`decode_many`], with the scratch buffers borrowed.
fn decode_from_jvm<'local, T: JavaValue>(
    env: &mut JNIEnv<'local>,
    slab: &JByteArray<'_>,
    offsets: &JIntArray<'_>,
    mapping: Mapping,
    values: &mut Vec<T>,
    scratch: &mut Scratch,
) -> Result<JPrimitiveArray<'local, T>, JniError> {
    scratch.bytes.clear();
    scratch
        .bytes
        .resize(env.get_array_length(slab)? as usize, 0);
    env.get_byte_array_region(slab, 0, &mut scratch.bytes)?;
    scratch.java_offsets.clear();
    scratch
        .java_offsets
        .resize(env.get_array_length(offsets)? as usize, 0);
    env.get_int_array_region(offsets, 0, &mut scratch.java_offsets)?;
    scratch.offsets.clear();
    for (i, &o) in scratch.java_offsets.iter().enumerate() {
        scratch.offsets.push(u32::try_from(o).map_err(|_| {
            bijou64_kafka::Error::InvalidOffsets {
                reason: format!("offsets[{i}] = {o} is negative"),
            }
        })?);
    }
    values.clear();
    bijou64_kafka::decode_slab_into(unsigned(&scratch.bytes), &scratch.offsets, mapping, values)?;
    Ok(T::new_array(env, values)?)
}

/// `static native String version()`: the crate version, checked by the Java loader.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_version<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jstring {
    throwing(&mut env, |env| {
        Ok(Some(env.new_string(env!("CARGO_PKG_VERSION"))?.into_raw()))
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `static native byte[] encodeLong(long value, int mapping)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_encodeLong<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    value: jlong,
    mapping: jint,
) -> jbyteArray {
    encode_one(&mut env, value, mapping)
}

/// `static native byte[] encodeInt(int value, int mapping)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_encodeInt<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    value: jint,
    mapping: jint,
) -> jbyteArray {
    encode_one(&mut env, value, mapping)
}

/// `static native long decodeLong(byte[] src, int offset, int length, int mapping)`:
/// strict whole-record decode; throws `Bijou64Exception`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeLong<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    src: JByteArray<'local>,
    offset: jint,
    length: jint,
    mapping: jint,
) -> jlong {
    decode_one(&mut env, &src, offset, length, mapping)
}

/// `static native int decodeInt(byte[] src, int offset, int length, int mapping)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeInt<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    src: JByteArray<'local>,
    offset: jint,
    length: jint,
    mapping: jint,
) -> jint {
    decode_one(&mut env, &src, offset, length, mapping)
}

/// `static native long decodeLongPrefix(byte[] src, int offset, int length, int mapping, int[] consumedOut)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeLongPrefix<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    src: JByteArray<'local>,
    offset: jint,
    length: jint,
    mapping: jint,
    consumed_out: JIntArray<'local>,
) -> jlong {
    decode_prefix_one(&mut env, &src, offset, length, mapping, &consumed_out)
}

/// `static native int decodeIntPrefix(byte[] src, int offset, int length, int mapping, int[] consumedOut)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeIntPrefix<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    src: JByteArray<'local>,
    offset: jint,
    length: jint,
    mapping: jint,
    consumed_out: JIntArray<'local>,
) -> jint {
    decode_prefix_one(&mut env, &src, offset, length, mapping, &consumed_out)
}

/// `static native byte[] encodeLongs(long[] values, int mapping, int[] offsetsOut)`:
/// one slab; `offsetsOut` (length n + 1) receives the record boundaries.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_encodeLongs<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    values: JLongArray<'local>,
    mapping: jint,
    offsets_out: JIntArray<'local>,
) -> jbyteArray {
    encode_many(&mut env, &values, mapping, &offsets_out)
}

/// `static native byte[] encodeInts(int[] values, int mapping, int[] offsetsOut)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_encodeInts<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    values: JIntArray<'local>,
    mapping: jint,
    offsets_out: JIntArray<'local>,
) -> jbyteArray {
    encode_many(&mut env, &values, mapping, &offsets_out)
}

/// `static native long[] decodeLongs(byte[] slab, int[] offsets, int mapping)`:
/// validates every record; throws `Bijou64Exception` naming the first bad one.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeLongs<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    slab: JByteArray<'local>,
    offsets: JIntArray<'local>,
    mapping: jint,
) -> jlongArray {
    decode_many::<i64>(&mut env, &slab, &offsets, mapping)
        .map_or(std::ptr::null_mut(), JLongArray::into_raw)
}

/// `static native int[] decodeInts(byte[] slab, int[] offsets, int mapping)`.
#[no_mangle]
pub extern "system" fn Java_org_bijou64_NativeCodec_decodeInts<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    slab: JByteArray<'local>,
    offsets: JIntArray<'local>,
    mapping: jint,
) -> jintArray {
    decode_many::<i32>(&mut env, &slab, &offsets, mapping)
        .map_or(std::ptr::null_mut(), JIntArray::into_raw)
}
