//! The exactly-once sink (`streamfusion-sink`) over SASL_SSL with the least-privilege ACLs of
//! `docs/security.md`, and with each of them removed. Each test makes a user of its own
//! ([`Secure::user`]) with exactly the ACLs it names, a data topic of its own and a progress topic, runs a writer
//! of two checkpoints (rows 0..200), and checks what a `read_committed` reader sees (as the super user):
//!
//! * with every needed ACL: exactly the 200 rows, and a second sink of the same writer recovers checkpoint 2;
//! * without one: [`Error::Unauthorized`] naming the permission and the resource, within the transaction
//!   timeout (no retry loop), and nothing visible;
//! * a wrong password: `Error::Unauthenticated` at once (before the transaction timeout), and nothing visible;
//! * at least once: least privilege (no `TransactionalId`), and `WRITE` on the data and the progress topic removed.
//!
//! Every error's text and the broker's logs are searched for every password the test made or read.
//!
//! Skipped, with the reason printed, unless `KAFKA_SECURE_BOOTSTRAP_SERVERS` and `KAFKA_SECURE_ADMIN_CONFIG`
//! are set (`scripts/security-tests.sh`).

use std::time::{Duration, Instant};

use cluster_reliability::records;
use rdkafka::error::RDKafkaErrorCode;
use security_tests::{Acl, Resource, Secure, SinkTopics, User, TIMEOUT};
use streamfusion_sink::{DeliveryGuarantee, Error, Sink, SinkConfig};

/// The sinks' transaction timeout: every failure must come before it.
const TRANSACTION_TIMEOUT: Duration = Duration::from_secs(10);

/// An ACL the sink may need, on the topics and writer of one [`Case`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Grant {
    DataWrite,
    ProgressRead,
    ProgressWrite,
    ProgressCreate,
    TransactionalIdWrite,
    RecoveryGroupDescribe,
}

/// What exactly once over SASL_SSL needs, with a progress topic made beforehand.
const LEAST: [Grant; 5] = [
    Grant::DataWrite,
    Grant::ProgressRead,
    Grant::ProgressWrite,
    Grant::TransactionalIdWrite,
    Grant::RecoveryGroupDescribe,
];

/// One test's data topic (made by the super user), progress topic and writer id.
struct Case {
    secure: Secure,
    names: SinkTopics,
    mode: DeliveryGuarantee,
}

impl Case {
    /// The case of test `name`, with the progress topic made beforehand when `made_beforehand`; `None` when the
    /// test is skipped.
    fn new(name: &str, made_beforehand: bool) -> Option<Self> {
        let secure = Secure::for_test(name)?;
        let names = SinkTopics::new(&secure, "secure", name, true, made_beforehand);
        Some(Self {
            secure,
            names,
            mode: DeliveryGuarantee::ExactlyOnce,
        })
    }

    /// A user with exactly `grants` on this case's resources.
    fn user(&self, grants: &[Grant]) -> User {
        let acls: Vec<Acl> = grants
            .iter()
            .map(|grant| {
                let (resource, operation) = match grant {
                    Grant::DataWrite => (Resource::Topic(self.names.data.clone()), "Write"),
                    Grant::ProgressRead => (Resource::Topic(self.names.progress.clone()), "Read"),
                    Grant::ProgressWrite => (Resource::Topic(self.names.progress.clone()), "Write"),
                    Grant::ProgressCreate => {
                        (Resource::Topic(self.names.progress.clone()), "Create")
                    }
                    Grant::TransactionalIdWrite => (
                        Resource::TransactionalId(format!(
                            "streamfusion-sink-{}",
                            self.names.writer
                        )),
                        "Write",
                    ),
                    Grant::RecoveryGroupDescribe => (
                        Resource::Group(format!("streamfusion-sink-recover-{}", self.names.writer)),
                        "Describe",
                    ),
                };
                Acl {
                    resource,
                    operation,
                }
            })
            .collect();
        self.secure.user("sink", &acls)
    }

    fn config(&self, user: &User) -> SinkConfig {
        let mut config = SinkConfig::new(
            self.secure.bootstrap(),
            &self.names.data,
            &self.names.progress,
            &self.names.writer,
        )
        .with_mode(self.mode)
        .with_transaction_timeout(TRANSACTION_TIMEOUT);
        for (key, value) in self.secure.properties(user) {
            config = config.with_property(key, value);
        }
        config
    }

    /// Opens a sink as `user`, recovers, writes rows 0..100 and 100..200 with a checkpoint after each; returns
    /// the first error and how long the run took.
    fn run(&self, user: &User) -> (Result<(), Error>, Duration) {
        let started = Instant::now();
        let result = (|| {
            let mut sink = Sink::new(self.config(user))?;
            sink.recover()?;
            sink.write(&records(0, 100))?;
            sink.checkpoint(1, b"100")?;
            sink.write(&records(100, 100))?;
            sink.checkpoint(2, b"200")
        })();
        (result, started.elapsed())
    }

    /// The rows of the data topic a `read_committed` reader sees (the super user's), in offset order.
    fn committed(&self) -> Vec<i64> {
        let mut config = self.secure.consumer_config(self.secure.admin());
        config.set("isolation.level", "read_committed");
        kafka_util::read_settled_with(&config, &self.names.data, Instant::now() + TIMEOUT)
            .unwrap_or_else(|e| panic!("read {}: {e}", self.names.data))
            .into_iter()
            .map(|record| {
                let value = String::from_utf8(record.value.unwrap_or_default()).expect("UTF-8");
                value
                    .strip_prefix("{\"id\":")
                    .and_then(|rest| rest.split(',').next())
                    .and_then(|id| id.parse().ok())
                    .unwrap_or_else(|| panic!("a row of ours: {value}"))
            })
            .collect()
    }

    /// Runs as a user with every grant of `grants` but `missing` and checks the refusal: an
    /// [`Error::Unauthorized`] with `permission` on a resource that contains `resource`, before the transaction
    /// timeout, with nothing more visible than before exactly once (at least once: at most the rows flushed
    /// before the refusal).
    fn refused(
        &self,
        grants: &[Grant],
        missing: Grant,
        permission: &str,
        resource: &str,
    ) -> String {
        let visible_before = self.committed().len();
        let user = self.user(&without(grants, missing));
        let (result, took) = self.run(&user);
        let error = result.expect_err("refused without the ACL");
        let text = error.to_string();
        match &error {
            Error::Unauthorized {
                permission: p,
                resource: r,
                ..
            } => {
                assert_eq!(*p, permission, "{text}");
                assert!(r.contains(resource), "{text}");
            }
            other => panic!("without {missing:?}: expected Unauthorized, got {other:?}"),
        }
        assert!(
            !error.requires_replay(),
            "an authorisation failure is not retried: {text}"
        );
        assert!(took < TRANSACTION_TIMEOUT, "refused after {took:?}: {text}");
        let visible = self.committed().len() - visible_before;
        if self.mode == DeliveryGuarantee::ExactlyOnce {
            assert_eq!(visible, 0, "nothing more visible: {text}");
        } else {
            // At least once, what was flushed before the refusal stays: at most the first 100 rows.
            assert!(visible <= 100, "{visible} rows visible: {text}");
        }
        self.secure
            .assert_no_secret(&[&text, &format!("{error:?}")]);
        format!(
            "without {missing:?}: {text} after {} ms; {visible} rows more visible",
            took.as_millis()
        )
    }
}

fn without(grants: &[Grant], missing: Grant) -> Vec<Grant> {
    grants.iter().copied().filter(|&g| g != missing).collect()
}

/// Runs with `grants`, expects success, exactly rows 0..200 visible, and a second sink of the same writer that
/// recovers checkpoint 2.
fn carries_every_row(case: &Case, grants: &[Grant]) -> String {
    let user = case.user(grants);
    let (result, took) = case.run(&user);
    if let Err(error) = result {
        panic!(
            "with {grants:?}: {}",
            case.secure.redact(&error.to_string())
        );
    }
    assert_eq!(
        case.committed(),
        (0..200).collect::<Vec<_>>(),
        "rows 0..200, once each, in order"
    );
    let mut again = Sink::new(case.config(&user)).expect("a second sink of the writer");
    let progress = again
        .recover()
        .expect("recover")
        .expect("a committed checkpoint");
    assert_eq!(
        (progress.checkpoint_id, progress.source_position.as_slice()),
        (2, &b"200"[..])
    );
    case.secure.assert_no_secret(&[]);
    format!("{grants:?}: 200 rows committed in {} ms, read_committed 200 of 200, missing 0, duplicated 0; recovered checkpoint 2", took.as_millis())
}

#[test]
fn least_privilege_with_the_progress_topic_made_beforehand() {
    let Some(case) = Case::new("least-privilege", true) else {
        return;
    };
    println!("RESULT {}", carries_every_row(&case, &LEAST));
}

#[test]
fn least_privilege_when_the_sink_makes_its_progress_topic() {
    let Some(case) = Case::new("least-privilege-create", false) else {
        return;
    };
    let mut grants = LEAST.to_vec();
    grants.push(Grant::ProgressCreate);
    println!("RESULT {}", carries_every_row(&case, &grants));
}

/// What at least once needs: exactly once's ACLs but the transactional id (the idempotent producer needs no
/// `IDEMPOTENT_WRITE` since Kafka 3.0, KIP-679).
const LEAST_AT_LEAST_ONCE: [Grant; 4] = [
    Grant::DataWrite,
    Grant::ProgressRead,
    Grant::ProgressWrite,
    Grant::RecoveryGroupDescribe,
];

#[test]
fn least_privilege_at_least_once() {
    let Some(mut case) = Case::new("least-privilege-alo", true) else {
        return;
    };
    case.mode = DeliveryGuarantee::AtLeastOnce;
    println!(
        "RESULT at least once {}",
        carries_every_row(&case, &LEAST_AT_LEAST_ONCE)
    );
}

#[test]
fn at_least_once_without_write_on_the_data_topic() {
    let Some(mut case) = Case::new("no-data-write-alo", true) else {
        return;
    };
    case.mode = DeliveryGuarantee::AtLeastOnce;
    let data = format!("Topic:{}", case.names.data);
    println!(
        "RESULT at least once {}",
        case.refused(&LEAST_AT_LEAST_ONCE, Grant::DataWrite, "WRITE", &data)
    );
}

#[test]
fn at_least_once_without_write_on_the_progress_topic() {
    let Some(mut case) = Case::new("no-progress-write-alo", true) else {
        return;
    };
    case.mode = DeliveryGuarantee::AtLeastOnce;
    let progress = format!("Topic:{}", case.names.progress);
    println!(
        "RESULT at least once {}",
        case.refused(
            &LEAST_AT_LEAST_ONCE,
            Grant::ProgressWrite,
            "WRITE",
            &progress
        )
    );
}

#[test]
fn without_write_on_the_data_topic() {
    let Some(case) = Case::new("no-data-write", true) else {
        return;
    };
    let data = format!("Topic:{}", case.names.data);
    println!(
        "RESULT {}",
        case.refused(&LEAST, Grant::DataWrite, "WRITE", &data)
    );
}

#[test]
fn without_write_on_the_progress_topic() {
    let Some(case) = Case::new("no-progress-write", true) else {
        return;
    };
    let progress = format!("Topic:{}", case.names.progress);
    println!(
        "RESULT {}",
        case.refused(&LEAST, Grant::ProgressWrite, "WRITE", &progress)
    );
}

#[test]
fn without_read_on_the_progress_topic() {
    let Some(case) = Case::new("no-progress-read", true) else {
        return;
    };
    // READ is needed once there is progress to read: another user of the same writer commits first.
    println!("RESULT first {}", carries_every_row(&case, &LEAST));
    let progress = format!("Topic:{}", case.names.progress);
    println!(
        "RESULT {}",
        case.refused(&LEAST, Grant::ProgressRead, "READ", &progress)
    );
}

#[test]
fn without_describe_on_the_recovery_group() {
    let Some(case) = Case::new("no-recovery-group", true) else {
        return;
    };
    // The group's coordinator is looked up once there is progress to read.
    println!("RESULT first {}", carries_every_row(&case, &LEAST));
    let group = format!("Group:streamfusion-sink-recover-{}", case.names.writer);
    println!(
        "RESULT {}",
        case.refused(&LEAST, Grant::RecoveryGroupDescribe, "DESCRIBE", &group)
    );
}

#[test]
fn without_write_on_the_transactional_id() {
    let Some(case) = Case::new("no-transactional-id", true) else {
        return;
    };
    let id = format!("TransactionalId:streamfusion-sink-{}", case.names.writer);
    println!(
        "RESULT {}",
        case.refused(&LEAST, Grant::TransactionalIdWrite, "WRITE", &id)
    );
}

#[test]
fn without_create_when_the_progress_topic_is_missing() {
    let Some(case) = Case::new("no-progress-create", false) else {
        return;
    };
    let progress = format!("Topic:{}", case.names.progress);
    let mut grants = LEAST.to_vec();
    grants.push(Grant::ProgressCreate);
    println!(
        "RESULT {}",
        case.refused(&grants, Grant::ProgressCreate, "CREATE", &progress)
    );
}

#[test]
fn a_wrong_password_is_refused() {
    let Some(case) = Case::new("wrong-password", true) else {
        return;
    };
    let mut user = case.user(&LEAST);
    user.password = "not-the-password-0123456789".to_owned();
    let (result, took) = case.run(&user);
    let error = result.expect_err("refused with a wrong password");
    let text = error.to_string();
    // librdkafka alone would retry the handshake until the first admin request timed out (the transaction
    // timeout plus a margin) and report `OperationTimedOut`; the sink's broker check stops at the first
    // authentication failure librdkafka reports.
    assert!(
        matches!(
            &error,
            Error::Unauthenticated { code, reason, .. }
                if *code == RDKafkaErrorCode::Authentication && reason.contains("Authentication failed")
        ),
        "{error:?}"
    );
    assert!(took < TRANSACTION_TIMEOUT, "refused after {took:?}: {text}");
    assert!(case.committed().is_empty(), "nothing visible");
    case.secure
        .assert_no_secret(&[&text, &format!("{error:?}")]);
    assert!(
        !text.contains(&user.password),
        "the wrong password in the error: {text}"
    );
    println!(
        "RESULT wrong password: {text} after {} ms",
        took.as_millis()
    );
}
