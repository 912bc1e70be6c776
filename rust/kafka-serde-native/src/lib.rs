//! The project's one JNI library (`libkafka_serde_native`).
//!
//! Every exported function does three things only: convert the JVM arguments, call
//! ordinary Rust in a codec crate, convert the result. `bijou64` serves `org.bijou64.NativeCodec`;
//! `streamfusion` serves `org.streamfusion.kafka.NativeJsonEncoder` (Arrow batches in through the
//! C Data Interface or the flat handoff, both imported by `streamfusion_json::ffi`, Kafka key/value JSON slabs
//! out, one crossing per batch); `decoder` serves `org.streamfusion.kafka.NativeJsonDecoder` (a chunk of Kafka
//! JSON messages in, Flink binary rows out, one crossing per chunk); both hold their native objects in a
//! registry of handles (`handles`). Errors and panics become Java
//! exceptions through [`error::throwing`]; nothing unwinds into the JVM. Native code
//! keeps no reference to JVM memory after a call returns: arguments are copied in,
//! results are fresh JVM arrays. `docs/jni.md` lists what each call throws.

mod bijou64;
mod decoder;
mod error;
mod handles;
mod streamfusion;

pub use error::JniError;
