//! The timed producer: rdkafka's `ThreadedProducer` plus a flush that skips `linger.ms`.
//!
//! librdkafka hands delivery reports to the application as events on its main queue;
//! the producer's own thread serves that queue, so delivery callbacks
//! ([`Deliveries`]) run there while this thread sends. A pass ends with
//! `rd_kafka_flush`, which (like the Java client's `flush()`) makes every partly filled
//! batch ready at once instead of after `linger.ms`, and returns when no message is in
//! flight any more: every delivery report has been handled.
//!
//! rust-rdkafka's own `flush` calls `rd_kafka_flush(0)` and then polls in steps of up to
//! 100 ms (0.39), so a pass would end up to 100 ms late and, outside the short
//! `rd_kafka_flush(0)` call, wait for `linger.ms` too. That is why this module calls
//! `rd_kafka_flush` itself, the one FFI call of the crate.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bijou64_kafka::{encode_slab_into, EncodedSlab, Mapping};
use rdkafka::bindings as rdsys;
use rdkafka::config::ClientConfig;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::DeliveryResult;
use rdkafka::producer::{BaseRecord, Producer, ProducerContext, ThreadedProducer};
use rdkafka::ClientContext;

use super::ValueCodec;
use crate::Error;

/// Counts delivery reports; written by the producer's polling thread.
#[derive(Default)]
pub(crate) struct Deliveries {
    delivered: AtomicU64,
    failed: AtomicU64,
    value_bytes: AtomicU64,
    first_error: Mutex<Option<String>>,
}

impl Deliveries {
    fn reset(&self) {
        self.delivered.store(0, Ordering::SeqCst);
        self.failed.store(0, Ordering::SeqCst);
        self.value_bytes.store(0, Ordering::SeqCst);
        *self.first_error.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn reported(&self) -> u64 {
        self.delivered.load(Ordering::SeqCst) + self.failed.load(Ordering::SeqCst)
    }
}

impl ClientContext for Deliveries {}

impl ProducerContext for Deliveries {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        match result {
            Ok(message) => {
                self.value_bytes
                    .fetch_add(message.payload_len() as u64, Ordering::Relaxed);
                self.delivered.fetch_add(1, Ordering::Release);
            }
            Err((error, _)) => {
                self.first_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert_with(|| error.to_string());
                self.failed.fetch_add(1, Ordering::Release);
            }
        }
    }
}

/// One timed pass: its duration and the value bytes the deliveries reported.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimedPass {
    pub(crate) elapsed: Duration,
    pub(crate) value_bytes: u64,
}

/// A producer for one topic, created and given the topic's metadata before any clock
/// starts.
pub(crate) struct TimedProducer {
    producer: ThreadedProducer<Deliveries>,
    topic: String,
    flush_timeout: Duration,
}

impl TimedProducer {
    /// Creates the producer and fetches the topic's metadata.
    pub(crate) fn new(
        config: &ClientConfig,
        topic: &str,
        timeout: Duration,
    ) -> Result<Self, Error> {
        let producer: ThreadedProducer<Deliveries> = config
            .create_with_context(Deliveries::default())
            .map_err(Error::kafka("create producer"))?;
        producer
            .client()
            .fetch_metadata(Some(topic), timeout)
            .map_err(Error::kafka(format!("fetch metadata of {topic}")))?;
        Ok(Self {
            producer,
            topic: topic.to_owned(),
            flush_timeout: timeout,
        })
    }

    /// Sends every value once, in order, to partition 0, and waits until each delivery
    /// succeeded. The clock runs from the first send (for `bijou`, from encoding the
    /// slab: serialization is timed, as inside the Java client's `send()`) until
    /// the flush returned and every delivery was reported.
    ///
    /// `slab` is reused across passes, so its allocation is not timed after the first.
    pub(crate) fn pass(
        &self,
        mode: ValueCodec,
        values: &[i64],
        slab: &mut EncodedSlab,
    ) -> Result<TimedPass, Error> {
        let deliveries = self.producer.context();
        deliveries.reset();
        let start = Instant::now();
        match mode {
            ValueCodec::Long => {
                for value in values {
                    self.send(&value.to_be_bytes())?;
                }
            }
            ValueCodec::Bijou => {
                encode_slab_into(values, Mapping::Unsigned, slab)?;
                for record in slab.iter() {
                    self.send(record)?;
                }
            }
        }
        self.flush()?;
        let sent = values.len() as u64;
        // rd_kafka_flush returns once no message is left, i.e. after the polling thread
        // handled the last report; this only makes that visible to this thread.
        let deadline = Instant::now() + Duration::from_secs(10);
        while deliveries.reported() < sent && Instant::now() < deadline {
            std::thread::yield_now();
        }
        let elapsed = start.elapsed();
        let delivered = deliveries.delivered.load(Ordering::Acquire);
        if delivered != sent {
            let first = deliveries
                .first_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone()
                .unwrap_or_else(|| "no delivery report".to_owned());
            return Err(Error::Delivery {
                sent,
                failed: sent - delivered,
                first,
            });
        }
        Ok(TimedPass {
            elapsed,
            value_bytes: deliveries.value_bytes.load(Ordering::Acquire),
        })
    }

    /// Enqueues one record; waits while librdkafka's queue is full.
    fn send(&self, payload: &[u8]) -> Result<(), Error> {
        let mut record = BaseRecord::<(), [u8]>::to(&self.topic)
            .partition(0)
            .payload(payload);
        loop {
            match self.producer.send(record) {
                Ok(()) => return Ok(()),
                Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), back)) => {
                    record = back;
                    std::thread::sleep(Duration::from_micros(100));
                }
                Err((error, _)) => return Err(Error::kafka("send")(error)),
            }
        }
    }

    /// `rd_kafka_flush` with the producer's timeout (see the module docs).
    fn flush(&self) -> Result<(), Error> {
        let timeout_ms = i32::try_from(self.flush_timeout.as_millis()).unwrap_or(i32::MAX);
        // SAFETY: `native_ptr` is the live `rd_kafka_t` owned by `self.producer`, which
        // outlives this call. `rd_kafka_flush` is thread-safe; in librdkafka's event mode
        // (the one rust-rdkafka uses) it only waits for the in-flight message count to
        // reach zero while another thread serves the event queue, which the
        // ThreadedProducer's polling thread does.
        let code =
            unsafe { rdsys::rd_kafka_flush(self.producer.client().native_ptr(), timeout_ms) };
        match RDKafkaErrorCode::from(code) {
            RDKafkaErrorCode::NoError => Ok(()),
            code => Err(Error::kafka("flush")(KafkaError::Flush(code))),
        }
    }
}
