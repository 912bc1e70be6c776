//! `sink-fault-helper`: a [`Sink`] in a process of its own, driven line by line over stdin, for the fault tests
//! in `tests/writer_faults_broker.rs` (which kill, pause and resume it). Not a tool for users.
//!
//! Usage: `sink-fault-helper BOOTSTRAP TOPIC PROGRESS_TOPIC WRITER_ID TRANSACTION_TIMEOUT_MS [KEY=VALUE ...]`
//!
//! It builds the sink (exactly once, key hash partitioning, `linger.ms=5`, then the optional `KEY=VALUE`
//! producer properties, e.g. `reconnect.backoff.max.ms=500` for a broker that restarts), prints `ready`, then runs one
//! command per stdin line and answers each with one stdout line (flushed at once):
//!
//! | command | does | answers |
//! | --- | --- | --- |
//! | `write FIRST COUNT` | writes rows `FIRST .. FIRST+COUNT` (the records of `tests/common::records`) | `ok write` |
//! | `flush` | [`Sink::flush`] | `ok flush` |
//! | `checkpoint ID POSITION` | [`Sink::checkpoint`] with the position's UTF-8 bytes | `ok checkpoint ID` |
//!
//! Between commands it waits for the next line: a marker line answered means the call has returned, so the test
//! can kill or pause the process at that exact point. At end of input it exits with 0. A failing call prints
//! `err fatal|aborted|other MESSAGE` and exits with [`EXIT_FATAL`] (fenced or otherwise [`Error::Fatal`]),
//! [`EXIT_ABORTED`] ([`Error::Aborted`]) or 1 (anything else, including a bad command line).

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};
use streamfusion_sink::{DeliveryGuarantee, Error, Sink, SinkConfig};

/// Exit code after an [`Error::Fatal`] (for example fenced by a newer instance).
const EXIT_FATAL: u8 = 2;
/// Exit code after an [`Error::Aborted`].
const EXIT_ABORTED: u8 = 3;

/// Rows `first .. first + count` as Flink JSON, key `{"id":n}`, value `{"id":n,"name":"row-n"}`: the same
/// records as `records` in `tests/common/mod.rs`.
fn records(first: i64, count: i64) -> EncodedRecords {
    let ids: Vec<i64> = (first..first + count).collect();
    let names: Vec<String> = ids.iter().map(|i| format!("row-{i}")).collect();
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(Int64Array::from(ids)) as _),
        ("name", Arc::new(StringArray::from(names)) as _),
    ])
    .expect("two equal-length columns");
    let options = EncoderOptions::from_pairs([("key.fields", "id")]).expect("valid options");
    JsonEncoder::new(options)
        .and_then(|mut encoder| encoder.encode(&batch))
        .expect("plain columns encode")
}

/// Prints one answer line and flushes it, so the test sees it before the next command.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A test that stopped reading is no reason to fail: it kills this process anyway.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints the error line and returns the exit code for `error`.
fn failed(error: &Error) -> ExitCode {
    let (class, code) = match error {
        Error::Fatal { .. } => ("fatal", EXIT_FATAL),
        Error::Aborted { .. } => ("aborted", EXIT_ABORTED),
        _ => ("other", 1),
    };
    say(&format!("err {class} {error}"));
    ExitCode::from(code)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [bootstrap, topic, progress, writer, timeout_ms, properties @ ..] = args.as_slice() else {
        eprintln!(
            "usage: sink-fault-helper BOOTSTRAP TOPIC PROGRESS_TOPIC WRITER_ID TRANSACTION_TIMEOUT_MS [KEY=VALUE ...]"
        );
        return ExitCode::from(1);
    };
    let Ok(timeout_ms) = timeout_ms.parse::<u64>() else {
        eprintln!("TRANSACTION_TIMEOUT_MS is not a number: {timeout_ms}");
        return ExitCode::from(1);
    };
    let mut config = SinkConfig::new(bootstrap, topic, progress, writer)
        .with_mode(DeliveryGuarantee::ExactlyOnce)
        .with_transaction_timeout(Duration::from_millis(timeout_ms))
        .with_property("linger.ms", "5");
    for property in properties {
        let Some((key, value)) = property.split_once('=') else {
            eprintln!("not a KEY=VALUE producer property: {property}");
            return ExitCode::from(1);
        };
        config = config.with_property(key, value);
    }
    let mut sink = match Sink::new(config) {
        Ok(sink) => sink,
        Err(error) => return failed(&error),
    };
    say("ready");
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let result = match words.as_slice() {
            ["write", first, count] => match (first.parse(), count.parse()) {
                (Ok(first), Ok(count)) => sink
                    .write(&records(first, count))
                    .map(|()| "ok write".to_owned()),
                _ => {
                    say(&format!("err other bad command: {line}"));
                    return ExitCode::from(1);
                }
            },
            ["flush"] => sink.flush().map(|()| "ok flush".to_owned()),
            ["checkpoint", id, position] => match id.parse() {
                Ok(id) => sink
                    .checkpoint(id, position.as_bytes())
                    .map(|()| format!("ok checkpoint {id}")),
                Err(_) => {
                    say(&format!("err other bad command: {line}"));
                    return ExitCode::from(1);
                }
            },
            _ => {
                say(&format!("err other bad command: {line}"));
                return ExitCode::from(1);
            }
        };
        match result {
            Ok(answer) => say(&answer),
            Err(error) => return failed(&error),
        }
    }
    ExitCode::SUCCESS
}
