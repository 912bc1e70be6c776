//! The first contact with a cluster: a broker answers, or the client learns at once why not.
//!
//! librdkafka retries a failed SASL handshake (wrong password, unknown user) or TLS handshake by itself, as it
//! retries a lost connection, and a request waiting for the broker meanwhile ends only with its own timeout
//! (`OperationTimedOut`, `BrokerTransportFailure`): the reason is reported only as an error event on the
//! client's main queue. rust-rdkafka's `AdminClient` (0.39) never serves that queue, so a check made through
//! it cannot see the reason. [`check_broker`] makes its metadata requests through a `BaseProducer`, serves its
//! main queue between them, and stops at the first authentication or TLS failure it reports.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::DeliveryResult;
use rdkafka::producer::{BaseProducer, Producer, ProducerContext};
use rdkafka::ClientContext;

use crate::Error;

/// How long one metadata request of [`check_broker`] waits before the main queue is served again.
const STEP: Duration = Duration::from_millis(200);

/// Waits until a broker at `bootstrap` answers a metadata request, at most `wait`, with the client settings
/// of `config` (`bootstrap.servers` and the security settings; consumer-only settings are ignored, with
/// librdkafka's warning). Fails as soon as librdkafka reports that the broker refused the client's
/// credentials (SASL, librdkafka's `__AUTHENTICATION` or Kafka's `SASL_AUTHENTICATION_FAILED`) or that the
/// TLS handshake failed (`__SSL`: an untrusted certificate, a host name that does not match), typically
/// within a second, instead of retrying until the wait ends. `bootstrap` names the cluster in the error. The
/// client is dropped on return.
///
/// # Errors
/// [`Error::Unauthenticated`] when the broker refused the credentials or the TLS handshake failed;
/// [`Error::NoBroker`] when no broker answered within `wait` (the last request's error); [`Error::Kafka`] when
/// the client cannot be created (an invalid setting).
pub fn check_broker(config: &ClientConfig, bootstrap: &str, wait: Duration) -> Result<(), Error> {
    let client: BaseProducer<Refusals> = config
        .create_with_context(Refusals::default())
        .map_err(Error::kafka("create client"))?;
    let deadline = Instant::now() + wait;
    loop {
        let step = STEP.min(deadline.saturating_duration_since(Instant::now()));
        let answer = client.client().fetch_metadata(None, step);
        client.poll(Duration::ZERO);
        if let Some((code, reason)) = client.context().take() {
            return Err(Error::Unauthenticated {
                bootstrap: bootstrap.to_owned(),
                code,
                reason,
            });
        }
        match answer {
            Ok(_) => return Ok(()),
            Err(source) if Instant::now() >= deadline => {
                return Err(Error::NoBroker {
                    bootstrap: bootstrap.to_owned(),
                    waited: wait,
                    source,
                })
            }
            Err(_) => {}
        }
    }
}

/// A producer context that keeps the first authentication or TLS failure librdkafka reports.
#[derive(Default)]
struct Refusals(Mutex<Option<(RDKafkaErrorCode, String)>>);

impl Refusals {
    fn take(&self) -> Option<(RDKafkaErrorCode, String)> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl ClientContext for Refusals {
    fn error(&self, error: KafkaError, reason: &str) {
        if let Some(
            code @ (RDKafkaErrorCode::Authentication
            | RDKafkaErrorCode::SaslAuthenticationFailed
            | RDKafkaErrorCode::SSL),
        ) = error.rdkafka_error_code()
        {
            let mut first = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            first.get_or_insert_with(|| (code, reason.to_owned()));
        } else {
            DefaultClientContext.error(error, reason);
        }
    }
}

impl ProducerContext for Refusals {
    type DeliveryOpaque = ();

    fn delivery(&self, _: &DeliveryResult<'_>, _: ()) {}
}
