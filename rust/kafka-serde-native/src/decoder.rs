//! Entry points of `org.streamfusion.kafka.NativeJsonDecoder` (module `java/streamfusion-kafka`).
//!
//! A Java decoder owns one native [`JsonDecoder`] (with the one [`BinaryRows`] it reuses across chunks) through
//! a `long` handle with an explicit `open` / `decode` / `close` lifecycle (module `handles`). The row type
//! crosses once, at `open`, as an exported Arrow schema; each `decode` copies a chunk of messages in (one
//! `byte[]` slab with per-message offsets and lengths; only the part the chunk's messages span, into a buffer the
//! decoder reuses), decodes it into Flink binary rows and copies them out into fresh JVM arrays. This module only
//! converts; `streamfusion_json` decodes.

use jni::objects::{JByteArray, JClass, JIntArray, JObject, JObjectArray};
use jni::sys::{jint, jlong, jobjectArray};
use jni::JNIEnv;
use streamfusion_json::{BinaryRows, DecoderOptions, Error, JsonDecoder};

use crate::error::{non_null, throwing, JniError};
use crate::handles::{Handle, Registry};
use crate::streamfusion::{copy_region_into, read_option_pairs, region_len};

/// A decoder, the rows it reuses and the copy of the messages it decodes.
struct Decoding {
    decoder: JsonDecoder,
    rows: BinaryRows,
    slab: Vec<u8>,
}

/// The open decoders.
static DECODERS: Registry<Decoding> = Registry::new("StreamFusion decoder");

/// The result arrays of one `decode`: rows, row offsets, rows per message, null rows, stop kind, stop reason.
const RESULT_ARRAYS: jint = 6;

/// Parses `pairs` (Flink's json option names) and registers a decoder for rows of the exported schema.
///
/// # Safety
/// As [`streamfusion_json::ffi::import_schema`].
unsafe fn open_decoder(
    pairs: Vec<(String, String)>,
    schema_address: usize,
) -> Result<Handle, JniError> {
    let options = DecoderOptions::from_pairs(pairs)?;
    // SAFETY: as this function's contract.
    let schema = unsafe { streamfusion_json::ffi::import_schema(schema_address) }?;
    let decoder = JsonDecoder::new(schema, options)?;
    Ok(DECODERS.insert(Decoding {
        decoder,
        rows: BinaryRows::new(),
        slab: Vec::new(),
    }))
}

/// The bytes a chunk's messages span in a slab of `slab_len` bytes, `start..end` (empty when every message is
/// null): message `i` is `lengths[i]` bytes from `offsets[i]`, or null for a negative length. An offset or length
/// outside the slab is [`JniError::OutOfBounds`].
fn span(slab_len: usize, offsets: &[i32], lengths: &[i32]) -> Result<(usize, usize), JniError> {
    let mut span: Option<(usize, usize)> = None;
    for (i, (&offset, &length)) in offsets.iter().zip(lengths).enumerate() {
        if length < 0 {
            continue;
        }
        let start = usize::try_from(offset).ok();
        let Some((start, end)) = start
            .and_then(|s| Some((s, s.checked_add(length as usize)?)))
            .filter(|&(_, end)| end <= slab_len)
        else {
            return Err(JniError::OutOfBounds(format!(
                "message {i}: {length} bytes at offset {offset} are outside the slab's {slab_len} bytes"
            )));
        };
        span = Some(span.map_or((start, end), |(s, e)| (s.min(start), e.max(end))));
    }
    Ok(span.unwrap_or((0, 0)))
}

/// The messages of a chunk in `copy`, the bytes from `base` of the slab their offsets index (inside it: checked
/// by [`span`]).
fn messages<'s>(
    copy: &'s [u8],
    base: usize,
    offsets: &[i32],
    lengths: &[i32],
) -> Vec<Option<&'s [u8]>> {
    offsets
        .iter()
        .zip(lengths)
        .map(|(&offset, &length)| {
            let start = (offset as usize).wrapping_sub(base);
            (length >= 0).then(|| &copy[start..start + length as usize])
        })
        .collect()
}

/// `private static native long open(String[] optionKeys, String[] optionValues, long arrowSchemaAddress)`:
/// a decoder of rows of the exported schema (taken over, released even when this throws), with Flink's json
/// options (`fail-on-missing-field`, `ignore-parse-errors`, `timestamp-format.standard`, with or without the
/// `json.` prefix). Throws `IllegalArgumentException` for an unknown option, a bad value, options Flink
/// refuses together, arrays of different lengths or a zero schema address; `NullPointerException` for a null
/// array or element; `org.streamfusion.kafka.StreamFusionException` (kind `UNSUPPORTED_TYPE`) for a column
/// type the decoder does not read.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonDecoder_open<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    option_keys: JObjectArray<'local>,
    option_values: JObjectArray<'local>,
    arrow_schema_address: jlong,
) -> jlong {
    throwing(&mut env, |env| {
        let pairs = read_option_pairs(env, &option_keys, &option_values)?;
        // SAFETY: the address is `ArrowSchema.memoryAddress()` of a struct the Java caller just filled with
        // `Data.exportSchema` and hands over.
        let handle = unsafe { open_decoder(pairs, arrow_schema_address as usize) }?;
        Ok(handle.into())
    })
}

/// `private static native Object[] decode(long handle, byte[] slab, int[] offsets, int[] lengths, int first,
/// int count)`: decodes the `count` messages from message `first` (message `i`: `lengths[i]` bytes of `slab` at
/// `offsets[i]`; a negative length is a null message) into Flink binary rows, until the first message the native decoder
/// leaves to Flink. Returns `Object[6]`: `byte[] rows`; `int[] rowOffsets` (rows + 1); `int[] rowsPerMessage`,
/// one per message decoded (fewer than `count` when one stopped the chunk: its index is the array's length);
/// `int[] nullRows`; and, when a message stopped the chunk, `String stopKind` (`DECODE`: Flink fails on it;
/// `NOT_EXACT`: Flink's result is not reproduced; `SLAB_TOO_LARGE`) and `String stopReason`, else two nulls.
/// Throws `IllegalStateException` for a closed handle, `NullPointerException` for a null array,
/// `IndexOutOfBoundsException` for a negative `first` or `count`, messages beyond either array, or a message
/// outside the slab.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonDecoder_decode<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    slab: JByteArray<'local>,
    offsets: JIntArray<'local>,
    lengths: JIntArray<'local>,
    first: jint,
    count: jint,
) -> jobjectArray {
    throwing(&mut env, |env| {
        non_null(&slab, "slab")?;
        non_null(&offsets, "offsets")?;
        non_null(&lengths, "lengths")?;
        let end = first
            .checked_add(count)
            .filter(|_| first >= 0 && count >= 0)
            .unwrap_or(-1);
        region_len(end, env.get_array_length(&offsets)?, "first + count")?;
        region_len(end, env.get_array_length(&lengths)?, "first + count")?;
        let mut starts = vec![0; count as usize];
        env.get_int_array_region(&offsets, first, &mut starts)?;
        let mut lens = vec![0; count as usize];
        env.get_int_array_region(&lengths, first, &mut lens)?;
        let slab_len = env.get_array_length(&slab)? as usize;
        let (start, end) = span(slab_len, &starts, &lens)?;
        let handle = Handle::from(handle);
        DECODERS.with(handle, |decoding| {
            copy_region_into(env, &slab, start, end - start, &mut decoding.slab)?;
            let chunk = messages(&decoding.slab, start, &starts, &lens);
            let stop = match decoding.decoder.decode_binary(chunk, &mut decoding.rows) {
                Ok(()) => None,
                Err(
                    e
                    @ (Error::Decode { .. } | Error::NotExact { .. } | Error::SlabTooLarge { .. }),
                ) => Some(e),
                Err(other) => return Err(other.into()),
            };
            Ok(Some(
                to_java(env, &decoding.rows, stop.as_ref())?.into_raw(),
            ))
        })
    })
    .unwrap_or(std::ptr::null_mut())
}

/// The six result arrays of `decode` (see there) as fresh JVM objects.
fn to_java<'local>(
    env: &mut JNIEnv<'local>,
    rows: &BinaryRows,
    stop: Option<&Error>,
) -> Result<JObjectArray<'local>, JniError> {
    let out = env.new_object_array(RESULT_ARRAYS, "java/lang/Object", JObject::null())?;
    let data = env.byte_array_from_slice(rows.data())?;
    env.set_object_array_element(&out, 0, data)?;
    let per_message: Vec<i32> = rows.rows_per_message().iter().map(|&n| n as i32).collect();
    let null_rows: Vec<i32> = rows.null_rows().iter().map(|&r| r as i32).collect();
    for (slot, ints) in (1..).zip([rows.offsets(), &per_message, &null_rows]) {
        let array = env.new_int_array(ints.len() as jint)?;
        env.set_int_array_region(&array, 0, ints)?;
        env.set_object_array_element(&out, slot, array)?;
    }
    if let Some(stop) = stop {
        let kind = env.new_string(stop.kind())?;
        env.set_object_array_element(&out, 4, kind)?;
        let reason = env.new_string(stop.to_string())?;
        env.set_object_array_element(&out, 5, reason)?;
    }
    Ok(out)
}

/// `private static native void close(long handle)`: unregisters the handle (a `decode` still running on it
/// finishes first and then frees the decoder). Throws `IllegalStateException` when the handle is already
/// closed or was never opened.
#[no_mangle]
pub extern "system" fn Java_org_streamfusion_kafka_NativeJsonDecoder_close<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    throwing(&mut env, |_| DECODERS.remove(Handle::from(handle)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_cut_from_the_span_of_the_slab_they_cover() {
        let slab = b"..{\"a\":1}{}..";
        let (offsets, lengths) = ([2, 9, 0, 11], [7, 2, -1, 0]);
        assert_eq!(
            span(slab.len(), &offsets, &lengths).expect("inside"),
            (2, 11)
        );
        let copy = &slab[2..11];
        assert_eq!(
            messages(copy, 2, &offsets, &lengths),
            vec![
                Some(&b"{\"a\":1}"[..]),
                Some(&b"{}"[..]),
                None,
                Some(&b""[..])
            ]
        );
        assert_eq!(span(slab.len(), &[5], &[-1]).expect("no bytes"), (0, 0));
        for (offset, length) in [(12, 2), (-1, 1), (0, 14), (i32::MAX, i32::MAX)] {
            let error = span(slab.len(), &[0, offset], &[1, length]).expect_err("outside");
            assert!(
                matches!(&error, JniError::OutOfBounds(m) if m.contains("message 1")),
                "{error}"
            );
        }
    }
}
