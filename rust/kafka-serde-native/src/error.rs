//! The crate's one error type and the one policy that turns errors and panics into
//! Java exceptions.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::objects::{JObject, JValue};
use jni::JNIEnv;

/// Java class of codec errors; constructed as `(String kind, int recordIndex, String message)`.
const BIJOU64_EXCEPTION: &str = "org/bijou64/Bijou64Exception";

/// Java class of JSON encoder errors; constructed as `(String kind, String message)`.
const STREAMFUSION_EXCEPTION: &str = "org/streamfusion/kafka/StreamFusionException";

/// Why a JNI call failed. Each variant becomes one Java exception (see `docs/jni.md`).
#[derive(Debug, thiserror::Error)]
pub enum JniError {
    /// Invalid bytes or offsets: `org.bijou64.Bijou64Exception` with the kind and record index.
    #[error(transparent)]
    Codec(#[from] bijou64_kafka::Error),
    /// A null array argument: `java.lang.NullPointerException`.
    #[error("{0} is null")]
    NullArgument(&'static str),
    /// Offset/length outside an array: `java.lang.IndexOutOfBoundsException`.
    #[error("{0}")]
    OutOfBounds(String),
    /// Any other bad argument (an unknown mapping code, option keys and values of different lengths):
    /// `java.lang.IllegalArgumentException`.
    #[error("{0}")]
    IllegalArgument(String),
    /// A closed or unknown encoder handle: `java.lang.IllegalStateException`.
    #[error("{0}")]
    IllegalState(String),
    /// A JSON encoder or Arrow import error. An option error (`InvalidOption`) and a handoff that does not
    /// describe a batch (`InvalidHandoff`: a null or released Arrow struct, a buffer too small...) become
    /// `java.lang.IllegalArgumentException`; every other one (`ArrowImport` included)
    /// `org.streamfusion.kafka.StreamFusionException` with its kind.
    #[error(transparent)]
    StreamFusion(#[from] streamfusion_json::Error),
    /// A JNI call failed; if it left a Java exception pending, that one propagates,
    /// else `java.lang.IllegalStateException`.
    #[error("JNI call failed: {0}")]
    Jni(#[from] jni::errors::Error),
}

/// Runs `f`, returning its value; on an error or a panic, throws the matching Java
/// exception and returns `R::default()` (which the JVM ignores once an exception is
/// pending). No panic unwinds into the JVM.
pub fn throwing<'local, R: Default>(
    env: &mut JNIEnv<'local>,
    f: impl FnOnce(&mut JNIEnv<'local>) -> Result<R, JniError>,
) -> R {
    match catch_unwind(AssertUnwindSafe(|| f(env))) {
        Ok(Ok(value)) => value,
        Ok(Err(error)) => {
            throw(env, &error);
            R::default()
        }
        Err(payload) => {
            let message = format!(
                "native panic (a bug, please report): {}",
                panic_message(&*payload)
            );
            throw_simple(env, "java/lang/IllegalStateException", &message);
            R::default()
        }
    }
}

fn throw(env: &mut JNIEnv<'_>, error: &JniError) {
    if env.exception_check().unwrap_or(false) {
        return; // a Java exception raised by a JNI call is already on its way
    }
    let message = error.to_string();
    match error {
        JniError::Codec(codec) => {
            if throw_codec(env, codec, &message).is_err() {
                throw_simple(env, "java/lang/IllegalArgumentException", &message);
            }
        }
        JniError::NullArgument(_) => throw_simple(env, "java/lang/NullPointerException", &message),
        JniError::OutOfBounds(_) => {
            throw_simple(env, "java/lang/IndexOutOfBoundsException", &message)
        }
        JniError::IllegalArgument(_)
        | JniError::StreamFusion(
            streamfusion_json::Error::InvalidOption { .. }
            | streamfusion_json::Error::InvalidHandoff(_),
        ) => throw_simple(env, "java/lang/IllegalArgumentException", &message),
        JniError::IllegalState(_) => throw_simple(env, "java/lang/IllegalStateException", &message),
        JniError::StreamFusion(encoder) => throw_kind(env, encoder.kind(), &message),
        JniError::Jni(_) => throw_simple(env, "java/lang/IllegalStateException", &message),
    }
}

fn throw_codec(
    env: &mut JNIEnv<'_>,
    error: &bijou64_kafka::Error,
    message: &str,
) -> jni::errors::Result<()> {
    let kind = env.new_string(error.kind().as_str())?;
    let text = env.new_string(message)?;
    let index = error
        .record_index()
        .and_then(|i| i32::try_from(i).ok())
        .unwrap_or(-1);
    let exception = env.new_object(
        BIJOU64_EXCEPTION,
        "(Ljava/lang/String;ILjava/lang/String;)V",
        &[
            JValue::Object(&kind),
            JValue::Int(index),
            JValue::Object(&text),
        ],
    )?;
    env.throw(jni::objects::JThrowable::from(exception))
}

/// Throws `org.streamfusion.kafka.StreamFusionException(kind, message)`; if that class cannot be made
/// (not on the class path), an `IllegalStateException` with the same message.
fn throw_kind(env: &mut JNIEnv<'_>, kind: &str, message: &str) {
    let thrown = (|| -> jni::errors::Result<()> {
        let kind = env.new_string(kind)?;
        let text = env.new_string(message)?;
        let exception = env.new_object(
            STREAMFUSION_EXCEPTION,
            "(Ljava/lang/String;Ljava/lang/String;)V",
            &[JValue::Object(&kind), JValue::Object(&text)],
        )?;
        env.throw(jni::objects::JThrowable::from(exception))
    })();
    if thrown.is_err() {
        throw_simple(env, "java/lang/IllegalStateException", message);
    }
}

fn throw_simple(env: &mut JNIEnv<'_>, class: &str, message: &str) {
    let _ = env.exception_clear();
    // If even this fails the JVM is out of memory and has an OutOfMemoryError pending.
    let _ = env.throw_new(class, message);
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown panic payload")
}

/// Fails with [`JniError::NullArgument`] when `obj` is a Java null.
pub fn non_null(obj: &JObject<'_>, name: &'static str) -> Result<(), JniError> {
    if obj.is_null() {
        Err(JniError::NullArgument(name))
    } else {
        Ok(())
    }
}
