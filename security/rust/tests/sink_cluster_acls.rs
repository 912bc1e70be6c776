//! The exactly-once sink (`streamfusion-sink`) over SASL_SSL with the least-privilege ACLs of
//! `docs/security.md`, on the secured three-node cluster (`KAFKA_SECURITY=sasl_ssl kafka/cluster start`), while
//! the leader of a data partition is SIGKILLed (a security test and a cluster failure test in one). A user with exactly the
//! sink's five ACLs writes rows `0..2000` in 20 checkpoints to a topic of three partitions (three replicas,
//! `min.insync.replicas=2`); after checkpoint 5 the leader of a partition that is not the transaction
//! coordinator is SIGKILLed, after checkpoint 12 it is started again while the writer goes on. The test asserts:
//!
//! * the sink never fails on an authorisation or authentication error ([`Writer`] panics on an error that asks
//!   for no replay, as `Error::Unauthorized` and `Error::Unauthenticated` are): failover, the new leader's
//!   connections and the recovery are all done with those five ACLs;
//! * the kill was felt (a checkpoint stalled until the controller fenced the node) and the partition moved to
//!   another leader;
//! * the restarted node is back in every ISR (its replication runs over the SASL_SSL inter-broker listener);
//! * a `read_committed` reader (the super user) sees exactly rows `0..2000`: none missing, none twice, nothing
//!   else;
//! * no password is in an error of the run or in any node's logs.
//!
//! Prints one `RESULT` line (docs/reliability.md and docs/security.md quote it). Skipped, with the reason
//! printed, unless `KAFKA_CLUSTER_BOOTSTRAP_SERVERS` and `KAFKA_SECURE_BOOTSTRAP_SERVERS` (the same cluster)
//! and `KAFKA_SECURE_ADMIN_CONFIG` are set (`scripts/security-tests.sh` starts the secured cluster and sets
//! them).

use std::time::Duration;

use cluster_reliability::{verify_exactly_once_with, Cluster, Writer, INTERVAL, PARTITIONS};
use kafka_util::topics::TopicSpec;
use security_tests::{Acl, Resource, Secure, TIMEOUT};

const TEST: &str = "least_privilege_sink_through_a_leader_sigkill_on_the_secured_cluster";
/// Checkpoints of the run.
const INTERVALS: i64 = 20;
/// The checkpoint after which the leader is SIGKILLed.
const KILL_AFTER: u64 = 5;
/// The checkpoint after which it is started again.
const RESTART_AFTER: u64 = 12;
/// The sink's transaction timeout: longer than a node's fencing (9 s) and the election after it.
const TRANSACTION_TIMEOUT: Duration = Duration::from_secs(60);
/// A checkpoint at least this long shows that the kill held the run up (the fencing takes about 9 s).
const FELT: Duration = Duration::from_secs(5);

#[test]
fn least_privilege_sink_through_a_leader_sigkill_on_the_secured_cluster() {
    let Some(secure) = Secure::for_test(TEST) else {
        return;
    };
    let Some(mut cluster) = Cluster::for_test(TEST) else {
        return;
    };
    assert_eq!(
        secure.bootstrap(),
        cluster.bootstrap(),
        "KAFKA_SECURE_BOOTSTRAP_SERVERS and KAFKA_CLUSTER_BOOTSTRAP_SERVERS name the same (secured) cluster"
    );
    let admin = secure.admin_config();
    let topic = kafka_util::unique_name("secure-cluster", "leader-kill");
    let progress = format!("{topic}-progress");
    let writer_id = format!("{topic}-writer");
    cluster.create_topic_with(&admin, &topic);
    // Made beforehand: the sink's user gets no CREATE.
    kafka_util::Topics::new(&admin, TIMEOUT)
        .and_then(|topics| {
            topics.ensure(&TopicSpec {
                name: &progress,
                partitions: 1,
                replication: -1,
                configs: &[("cleanup.policy", "compact")],
            })
        })
        .unwrap_or_else(|e| panic!("create {progress}: {e}"));

    // Exactly the exactly-once sink's least-privilege ACLs (docs/security.md).
    let acls = [
        (Resource::Topic(topic.clone()), "Write"),
        (Resource::Topic(progress.clone()), "Read"),
        (Resource::Topic(progress.clone()), "Write"),
        (
            Resource::TransactionalId(format!("streamfusion-sink-{writer_id}")),
            "Write",
        ),
        (
            Resource::Group(format!("streamfusion-sink-recover-{writer_id}")),
            "Describe",
        ),
    ]
    .map(|(resource, operation)| Acl {
        resource,
        operation,
    });
    let user = secure.user("cluster-sink", &acls);
    let mut config = Writer::config(
        secure.bootstrap(),
        &topic,
        &progress,
        &writer_id,
        TRANSACTION_TIMEOUT,
    );
    for (key, value) in secure.properties(&user) {
        config = config.with_property(key, value);
    }
    let mut writer = Writer::open_with(config);
    let coordinator = cluster.coordinator(&writer.transactional_id());

    let mut victim = None;
    let mut moved_to = None;
    let mut restarting = None;
    writer.run_until(INTERVALS * INTERVAL, |checkpoint| match checkpoint {
        KILL_AFTER => {
            let (partition, leader) = (0..PARTITIONS)
                .map(|p| (p, cluster.leader(&topic, p)))
                .find(|&(_, leader)| leader != coordinator)
                .expect("three partitions on three nodes, not all led by the coordinator");
            cluster.kill(leader);
            victim = Some((partition, leader));
        }
        RESTART_AFTER => {
            let (partition, node) = victim.expect("the kill after checkpoint 5");
            moved_to = Some(cluster.leader(&topic, partition));
            restarting = Some(cluster.start_node_in_background(node));
        }
        _ => {}
    });
    let (partition, node) = victim.expect("checkpoint 5 committed");
    let new_leader = moved_to.expect("checkpoint 12 committed");
    assert_ne!(
        new_leader, node,
        "partition {partition} has another leader than the killed node"
    );
    let restart = restarting
        .expect("checkpoint 12 committed")
        .join()
        .expect("start-node");
    let in_sync = cluster.in_sync();
    let report = writer.report.clone();
    assert!(
        report.longest_checkpoint() >= FELT,
        "the kill held a checkpoint up (longest {:?}): the node led a partition the transactions wrote",
        report.longest_checkpoint()
    );
    let read = verify_exactly_once_with(
        &secure.consumer_config(secure.admin()),
        &topic,
        0..INTERVALS * INTERVAL,
    );
    let errors: Vec<&str> = report.errors.iter().map(String::as_str).collect();
    secure.assert_no_secret(&errors);
    eprintln!(
        "RESULT secured cluster: least-privilege exactly-once sink (5 ACLs), leader SIGKILL (node {node}, leader \
         of partition {partition}, coordinator node {coordinator}) after checkpoint {KILL_AFTER}, partition \
         {partition} then led by node {new_leader}, restarted after checkpoint {RESTART_AFTER} in {restart:.1?}, \
         every partition in sync {in_sync:.1?} after that; longest checkpoint {:.1?}, median {:.1?}; errors {:?}; \
         {} rows replayed; read_committed {read} of {}, missing 0, duplicated 0; no password in errors or logs",
        report.longest_checkpoint(),
        report.median_checkpoint(),
        report.errors,
        report.replayed_rows,
        INTERVALS * INTERVAL,
    );
}
