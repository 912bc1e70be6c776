//! The exactly-once sink (`streamfusion-sink`) through node failures of the three-node cluster (issue #17 item
//! 2): SIGKILL of a data partition's leader between a flush and the commit, SIGKILL of the transaction
//! coordinator of the sink's `transactional.id` at the same point, and SIGKILL of a leader during a long run of
//! transactions, the node rejoining while the run goes on. Each ends with [`verify_exactly_once`] and prints one
//! `RESULT` line with what the writer saw (docs/reliability.md quotes them).
//!
//! Skipped, with the reason printed, unless `KAFKA_CLUSTER_BOOTSTRAP_SERVERS` is set
//! (`scripts/cluster-faults.sh`). The writer is in process: the faults are the brokers'.

use std::time::Instant;

use cluster_reliability::{
    read_values, unique, verify_exactly_once, Cluster, Writer, INTERVAL, PARTITIONS,
};

/// A test's topic, progress topic and writer id, and its writer with interval 0 (rows 0..100) committed.
fn committed_once(cluster: &Cluster, name: &str) -> (String, Writer) {
    let topic = unique(name);
    cluster.create_topic(&topic);
    let mut writer = Writer::open(
        cluster.bootstrap(),
        &topic,
        &unique(&format!("{name}-p")),
        &unique("w"),
    );
    writer.run_until(INTERVAL, |_| {});
    (topic, writer)
}

/// Kills `victim` once interval 1 (rows 100..200) is written and flushed, then commits it and goes on to row
/// 300; starts the node again and verifies rows 0..300. Returns the RESULT line's measurements.
fn kill_between_flush_and_commit(
    cluster: &mut Cluster,
    topic: &str,
    mut writer: Writer,
    victim: u32,
) -> String {
    writer.write(INTERVAL).expect("write interval 1");
    writer.flush().expect("flush interval 1");
    let killed = cluster.kill(victim);
    let outcome = writer.checkpoint();
    let commit = killed.elapsed();
    let next = Instant::now();
    writer.run_until(3 * INTERVAL, |_| {});
    let rest = next.elapsed();
    let restart = cluster.start_node(victim);
    let read = verify_exactly_once(cluster.bootstrap(), topic, 0..3 * INTERVAL);
    let in_log = read_values(cluster.bootstrap(), topic, "read_uncommitted").len();
    // Beyond the committed rows, the log holds at most the replayed ones once more (aborted).
    assert!(
        (3 * INTERVAL..=3 * INTERVAL + writer.report.replayed_rows).contains(&(in_log as i64)),
        "{in_log} records in the log, {} rows replayed",
        writer.report.replayed_rows
    );
    format!(
        "checkpoint 1 returned {} {commit:.1?} after the kill; intervals 2-3 took {rest:.1?}; errors {:?}; \
         {} rows replayed; read_committed {read} of 300, missing 0, duplicated 0; {in_log} records in the log; \
         node {victim} restarted in {restart:.1?}",
        outcome.map_or_else(|e| format!("Err({e})"), |()| "Ok".to_owned()),
        writer.report.errors,
        writer.report.replayed_rows,
    )
}

#[test]
fn partition_leader_killed_between_flush_and_commit() {
    let Some(mut cluster) = Cluster::for_test("partition_leader_killed_between_flush_and_commit")
    else {
        return;
    };
    let (topic, writer) = committed_once(&cluster, "leader-kill");
    let coordinator = cluster.coordinator(&writer.transactional_id());
    // A partition led by another node than the coordinator: this kill hits the data only.
    let (partition, leader) = (0..PARTITIONS)
        .map(|p| (p, cluster.leader(&topic, p)))
        .find(|&(_, leader)| leader != coordinator)
        .expect("three partitions on three nodes, not all led by the coordinator");
    let result = kill_between_flush_and_commit(&mut cluster, &topic, writer, leader);
    eprintln!(
        "RESULT leader SIGKILL between flush and commit (node {leader} leads partition {partition}, \
         coordinator node {coordinator}): {result}"
    );
}

#[test]
fn transaction_coordinator_killed_between_flush_and_commit() {
    let Some(mut cluster) =
        Cluster::for_test("transaction_coordinator_killed_between_flush_and_commit")
    else {
        return;
    };
    let (topic, writer) = committed_once(&cluster, "coordinator-kill");
    let coordinator = cluster.coordinator(&writer.transactional_id());
    let result = kill_between_flush_and_commit(&mut cluster, &topic, writer, coordinator);
    eprintln!("RESULT coordinator SIGKILL between flush and commit (node {coordinator}): {result}");
}

#[test]
fn partition_leader_killed_during_a_long_run_of_transactions() {
    let Some(mut cluster) =
        Cluster::for_test("partition_leader_killed_during_a_long_run_of_transactions")
    else {
        return;
    };
    const INTERVALS: i64 = 40;
    let (topic, mut writer) = committed_once(&cluster, "long-run");
    let victim = cluster.leader(&topic, 0);
    let mut killed = None;
    let mut rejoined = None;
    let started = Instant::now();
    // Checkpoint 9 commits, then the leader of partition 0 dies; at checkpoint 24 it starts again while the
    // writer goes on (the start takes seconds: it rejoins during the following transactions).
    writer.run_until(INTERVALS * INTERVAL, |checkpoint| match checkpoint {
        9 => killed = Some(cluster.kill(victim)),
        24 => rejoined = Some(cluster.start_node_in_background(victim)),
        _ => {}
    });
    let run = started.elapsed();
    let restart = rejoined
        .expect("checkpoint 24 committed")
        .join()
        .expect("start-node");
    assert!(killed.is_some(), "checkpoint 9 committed");
    let read = verify_exactly_once(cluster.bootstrap(), &topic, 0..INTERVALS * INTERVAL);
    let report = &writer.report;
    eprintln!(
        "RESULT leader SIGKILL during a run of {INTERVALS} transactions (node {victim}, leader of partition 0, \
         killed after checkpoint 9, restarted from checkpoint 24 in {restart:.1?}): run {run:.1?}; longest \
         checkpoint {:.1?}, median {:.1?}; errors {:?}; {} rows replayed; read_committed {read} of {}, missing 0, \
         duplicated 0",
        report.longest_checkpoint(),
        report.median_checkpoint(),
        report.errors,
        report.replayed_rows,
        INTERVALS * INTERVAL,
    );
}
