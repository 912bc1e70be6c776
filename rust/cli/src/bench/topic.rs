//! The run's topic: created with rdkafka's `AdminClient` (1 partition, replication
//! factor 1), waited on until partition 0 has a leader, deleted after the run.
//!
//! The admin client's calls return futures that its own background thread completes;
//! they are simply blocked on here.

use std::time::{Duration, Instant};

use futures_executor::block_on;
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use rdkafka::error::RDKafkaErrorCode;

use crate::Error;

/// How long the first metadata request may take before the broker counts as absent.
pub(crate) const BROKER_WAIT: Duration = Duration::from_secs(10);

/// An admin client that has reached the broker.
pub(crate) struct Topics {
    admin: AdminClient<DefaultClientContext>,
    timeout: Duration,
}

impl Topics {
    /// Connects and checks that a broker answers; returns the cluster id when the
    /// broker reports one.
    pub(crate) fn connect(
        config: &ClientConfig,
        bootstrap: &str,
        timeout: Duration,
    ) -> Result<(Self, Option<String>), Error> {
        let admin: AdminClient<DefaultClientContext> = config
            .create()
            .map_err(Error::kafka("create admin client"))?;
        admin
            .inner()
            .fetch_metadata(None, BROKER_WAIT)
            .map_err(|source| Error::NoBroker {
                bootstrap: bootstrap.to_owned(),
                waited: BROKER_WAIT,
                source,
            })?;
        let cluster_id = admin.inner().fetch_cluster_id(timeout);
        Ok((Self { admin, timeout }, cluster_id))
    }

    fn options(&self) -> AdminOptions {
        AdminOptions::new().operation_timeout(Some(self.timeout))
    }

    /// Creates `topic` (1 partition, RF 1) and waits until partition 0 has a leader.
    pub(crate) fn create(&self, topic: &str) -> Result<(), Error> {
        let new_topic = NewTopic::new(topic, 1, TopicReplication::Fixed(1));
        let results = block_on(self.admin.create_topics([&new_topic], &self.options()))
            .map_err(Error::kafka(format!("create topic {topic}")))?;
        for result in results {
            if let Err((_, code)) = result {
                let reason = if code == RDKafkaErrorCode::TopicAlreadyExists {
                    format!("{code}: pass another --topic (the bench creates and deletes its own)")
                } else {
                    code.to_string()
                };
                return Err(Error::Topic {
                    topic: topic.to_owned(),
                    operation: "create",
                    reason,
                });
            }
        }
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
                            && t.partitions()
                                .iter()
                                .any(|p| p.id() == 0 && p.leader() >= 0)
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
                });
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Creates `topic` with `partitions` partitions (RF 1) unless it exists, then waits
    /// until every partition has a leader. Returns whether it was created.
    pub(crate) fn ensure(&self, topic: &str, partitions: i32) -> Result<bool, Error> {
        let new_topic = NewTopic::new(topic, partitions, TopicReplication::Fixed(1));
        let results = block_on(self.admin.create_topics([&new_topic], &self.options()))
            .map_err(Error::kafka(format!("create topic {topic}")))?;
        let mut created = true;
        for result in results {
            match result {
                Ok(_) => {}
                Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => created = false,
                Err((_, code)) => {
                    return Err(Error::Topic {
                        topic: topic.to_owned(),
                        operation: "create",
                        reason: code.to_string(),
                    })
                }
            }
        }
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
                return Ok(created);
            }
            if Instant::now() > deadline {
                return Err(Error::Topic {
                    topic: topic.to_owned(),
                    operation: "wait for leader",
                    reason: format!("no leader after {} s", self.timeout.as_secs()),
                });
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Deletes `topic`.
    pub(crate) fn delete(&self, topic: &str) -> Result<(), Error> {
        let results = block_on(self.admin.delete_topics(&[topic], &self.options()))
            .map_err(Error::kafka(format!("delete topic {topic}")))?;
        match results.into_iter().find_map(Result::err) {
            Some((_, code)) => Err(Error::Topic {
                topic: topic.to_owned(),
                operation: "delete",
                reason: code.to_string(),
            }),
            None => Ok(()),
        }
    }
}
