//! Topics through rdkafka's `AdminClient`: create (waiting until every partition has a leader) and delete.
//!
//! The admin client's calls return futures that its own background thread completes; they are simply
//! blocked on here.

use std::time::{Duration, Instant};

use futures_executor::block_on;
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::error::RDKafkaErrorCode;

use crate::{Error, BROKER_WAIT};

/// How much longer than the broker's operation timeout the client waits for an admin answer.
const REQUEST_MARGIN: Duration = Duration::from_secs(5);
/// Pause between two metadata requests while waiting for leaders.
const LEADER_BACKOFF: Duration = Duration::from_millis(50);

/// A topic to create.
#[derive(Debug, Clone)]
pub struct TopicSpec<'a> {
    /// Its name.
    pub name: &'a str,
    /// Partitions (at least 1).
    pub partitions: i32,
    /// Replicas per partition; `-1`: the broker's `default.replication.factor`.
    pub replication: i32,
    /// Topic configs, e.g. `("cleanup.policy", "compact")`.
    pub configs: &'a [(&'a str, &'a str)],
}

impl<'a> TopicSpec<'a> {
    /// `partitions` partitions of one replica each, no configs.
    #[must_use]
    pub fn new(name: &'a str, partitions: i32) -> Self {
        Self {
            name,
            partitions,
            replication: 1,
            configs: &[],
        }
    }
}

/// An admin client and the timeout of its operations.
pub struct Topics {
    admin: AdminClient<DefaultClientContext>,
    timeout: Duration,
}

impl Topics {
    /// An admin client from `config` (`bootstrap.servers` and any security settings); each operation may take
    /// up to `timeout`. Nothing is sent yet.
    ///
    /// # Errors
    /// [`Error::Kafka`] when the client cannot be created.
    pub fn new(config: &ClientConfig, timeout: Duration) -> Result<Self, Error> {
        let admin = config
            .create()
            .map_err(Error::kafka("create admin client"))?;
        Ok(Self { admin, timeout })
    }

    /// Checks that a broker answers within [`BROKER_WAIT`] ([`check_broker`](crate::check_broker)), then
    /// [`new`](Self::new); returns the cluster id when the broker reports one. `bootstrap` names the cluster
    /// in the error.
    ///
    /// # Errors
    /// [`Error::Kafka`] when the client cannot be created; [`Error::NoBroker`] when no broker answers;
    /// [`Error::Unauthenticated`] when the broker refuses the credentials or the TLS handshake.
    pub fn connect(
        config: &ClientConfig,
        bootstrap: &str,
        timeout: Duration,
    ) -> Result<(Self, Option<String>), Error> {
        crate::check_broker(config, bootstrap, BROKER_WAIT)?;
        let topics = Self::new(config, timeout)?;
        let cluster_id = topics.admin.inner().fetch_cluster_id(timeout);
        Ok((topics, cluster_id))
    }

    /// The broker may take the timeout to finish an operation; the client waits a little longer for its
    /// answer.
    fn options(&self) -> AdminOptions {
        AdminOptions::new()
            .operation_timeout(Some(self.timeout))
            .request_timeout(Some(self.timeout + REQUEST_MARGIN))
    }

    /// Asks the broker to create `spec` unless a topic of that name exists; does not wait for leaders.
    /// Returns whether it was created. A principal without `CREATE` gets `TOPIC_AUTHORIZATION_FAILED` from
    /// Kafka's `CreateTopics` even for a topic that exists; when this client can see the topic
    /// ([`exists`](Self::exists)), that is not an error: a topic made beforehand by an operator needs no
    /// `CREATE`.
    ///
    /// # Errors
    /// [`Error::Kafka`] when the request fails; [`Error::Topic`] (operation `create`, with the broker's code)
    /// when the broker refuses.
    pub fn create(&self, spec: &TopicSpec<'_>) -> Result<bool, Error> {
        let mut new_topic = NewTopic::new(
            spec.name,
            spec.partitions,
            TopicReplication::Fixed(spec.replication),
        );
        for (key, value) in spec.configs {
            new_topic = new_topic.set(key, value);
        }
        let results = block_on(self.admin.create_topics([&new_topic], &self.options()))
            .map_err(Error::kafka(format!("create topic {}", spec.name)))?;
        let mut created = true;
        for result in results {
            match result {
                Ok(_) => {}
                Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => created = false,
                Err((_, RDKafkaErrorCode::TopicAuthorizationFailed))
                    if self.exists(spec.name).unwrap_or(false) =>
                {
                    created = false;
                }
                Err((_, code)) => {
                    let reason = if code == RDKafkaErrorCode::TopicAuthorizationFailed {
                        format!(
                            "not authorised: grant CREATE on Topic:{} to the client's principal, or \
                             create the topic beforehand ({code})",
                            spec.name
                        )
                    } else {
                        code.to_string()
                    };
                    return Err(Error::Topic {
                        topic: spec.name.to_owned(),
                        operation: "create",
                        reason,
                        code: Some(code),
                    });
                }
            }
        }
        Ok(created)
    }

    /// [`create`](Self::create), then waits until every partition of the topic has a leader. Returns whether
    /// it was created.
    ///
    /// # Errors
    /// As [`create`](Self::create); [`Error::Topic`] (operation `wait for leader`) when a partition has no
    /// leader within the timeout.
    pub fn ensure(&self, spec: &TopicSpec<'_>) -> Result<bool, Error> {
        let created = self.create(spec)?;
        self.wait_for_leaders(spec.name)?;
        Ok(created)
    }

    /// Whether `topic` exists and this client may see it (its metadata comes back without an error and with
    /// partitions): a topic this principal may not `DESCRIBE` reads as absent.
    ///
    /// # Errors
    /// [`Error::Kafka`] when the metadata request fails.
    pub fn exists(&self, topic: &str) -> Result<bool, Error> {
        let metadata = self
            .admin
            .inner()
            .fetch_metadata(Some(topic), self.timeout)
            .map_err(Error::kafka(format!("fetch metadata of {topic}")))?;
        Ok(metadata
            .topics()
            .iter()
            .any(|t| t.name() == topic && t.error().is_none() && !t.partitions().is_empty()))
    }

    /// Waits until `topic` is known and every one of its partitions has a leader.
    ///
    /// # Errors
    /// [`Error::Topic`] (operation `wait for leader`) when that takes longer than the timeout.
    pub fn wait_for_leaders(&self, topic: &str) -> Result<(), Error> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let ready = self
                .admin
                .inner()
                .fetch_metadata(Some(topic), self.timeout)
                .ok()
                .is_some_and(|metadata| {
                    metadata.topics().iter().any(|t| {
                        t.name() == topic
                            && t.error().is_none()
                            && !t.partitions().is_empty()
                            && t.partitions().iter().all(|p| p.leader() >= 0)
                    })
                });
            if ready {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(Error::Topic {
                    topic: topic.to_owned(),
                    operation: "wait for leader",
                    reason: format!("no leader after {} s", self.timeout.as_secs()),
                    code: None,
                });
            }
            std::thread::sleep(LEADER_BACKOFF);
        }
    }

    /// Deletes `topic`.
    ///
    /// # Errors
    /// [`Error::Kafka`] when the request fails; [`Error::Topic`] (operation `delete`) when the broker refuses.
    pub fn delete(&self, topic: &str) -> Result<(), Error> {
        let results = block_on(self.admin.delete_topics(&[topic], &self.options()))
            .map_err(Error::kafka(format!("delete topic {topic}")))?;
        match results.into_iter().find_map(Result::err) {
            Some((_, code)) => Err(Error::Topic {
                topic: topic.to_owned(),
                operation: "delete",
                reason: code.to_string(),
                code: Some(code),
            }),
            None => Ok(()),
        }
    }
}
