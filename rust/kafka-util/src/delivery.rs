//! Delivery reports and full producer queues.
//!
//! librdkafka reports the outcome of every produced record once, as an event that the application serves by
//! polling the producer (rust-rdkafka's `BaseProducer::poll`, or the thread of a `ThreadedProducer`); the
//! producer's context sees it in [`ProducerContext::delivery`]. A send into a full local queue fails at once
//! with `QueueFull`: serving reports frees room.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rdkafka::error::{KafkaError, KafkaResult, RDKafkaErrorCode};
use rdkafka::message::{DeliveryResult, ToBytes};
use rdkafka::producer::{BaseProducer, BaseRecord, ProducerContext};
use rdkafka::ClientContext;

/// A producer context that remembers the first failed delivery since it was last [taken](Self::take).
///
/// ```
/// use kafka_util::DeliveryErrors;
/// let errors = DeliveryErrors::default();
/// assert!(errors.take().is_none());
/// ```
#[derive(Debug, Default)]
pub struct DeliveryErrors(Mutex<Option<KafkaError>>);

impl DeliveryErrors {
    /// The first delivery error reported since the last call, if any; clears it.
    pub fn take(&self) -> Option<KafkaError> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl ClientContext for DeliveryErrors {}

impl ProducerContext for DeliveryErrors {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((error, _)) = result {
            let mut first = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            first.get_or_insert_with(|| error.clone());
        }
    }
}

/// How long [`send`] serves delivery reports before it tries a full queue again.
pub const QUEUE_FULL_POLL: Duration = Duration::from_millis(10);

/// Sends one record; while the producer's queue is full (`QueueFull`), serves delivery reports for
/// [`QUEUE_FULL_POLL`] and tries again.
///
/// # Errors
/// Any other error of `BaseProducer::send` (the record is dropped).
pub fn send<C, K, P>(
    producer: &BaseProducer<C>,
    mut record: BaseRecord<'_, K, P, C::DeliveryOpaque>,
) -> KafkaResult<()>
where
    C: ProducerContext,
    K: ToBytes + ?Sized,
    P: ToBytes + ?Sized,
{
    loop {
        match producer.send(record) {
            Ok(()) => return Ok(()),
            Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), back)) => {
                record = back;
                producer.poll(QUEUE_FULL_POLL);
            }
            Err((error, _)) => return Err(error),
        }
    }
}
