//! The exactly-once sink (`streamfusion-sink`) through node failures of the three-node cluster (the cluster
//! failure tests, `docs/reliability.md`): SIGKILL of a data partition's leader between a flush and the commit and
//! during the commit, SIGKILL of the transaction coordinator of the sink's `transactional.id` at the same points,
//! SIGKILL of either with `EndTxn` in flight (the commit's first phase done: `prepare_commit`), SIGKILL of a
//! leader and of the active controller during a long run of transactions, the node rejoining while the run goes
//! on, and a leader SIGSTOPped (silent, as if cut off the network) for longer than the broker session timeout, and
//! a rolling restart of all three nodes during a long run. Each ends with [`verify_exactly_once`] and prints one
//! `RESULT` line with what the writer saw (docs/reliability.md quotes them).
//!
//! Skipped, with the reason printed, unless `KAFKA_CLUSTER_BOOTSTRAP_SERVERS` is set
//! (`scripts/cluster-faults.sh`). The writer is in process: the faults are the brokers'.

use std::time::{Duration, Instant};

use cluster_reliability::{
    read_values, transaction_state, unique, verify_exactly_once, Cluster, Writer, INTERVAL,
    PARTITIONS, TIMEOUT,
};

/// The sinks' transaction timeout: longer than a node's fencing (9 s) and the election after it.
const TRANSACTION_TIMEOUT: Duration = TIMEOUT;

/// A test's topic, progress topic and writer id, and its writer (with `transaction_timeout` and the librdkafka
/// `properties`, added to [`Writer::config`]'s) with interval 0 (rows 0..100) committed.
fn committed_once(
    cluster: &Cluster,
    name: &str,
    transaction_timeout: Duration,
    properties: &[(&str, &str)],
) -> (String, Writer) {
    let topic = unique(name);
    cluster.create_topic(&topic);
    let mut config = Writer::config(
        cluster.bootstrap(),
        &topic,
        &unique(&format!("{name}-p")),
        &unique("w"),
        transaction_timeout,
    );
    for (key, value) in properties {
        config = config.with_property(*key, *value);
    }
    let mut writer = Writer::open_with(config);
    writer.run_until(INTERVAL, |_| {});
    (topic, writer)
}

/// When a test kills its node, interval 1 (rows 100..200) being written and flushed.
#[derive(Clone, Copy)]
enum When {
    /// Before `checkpoint 1` is called.
    BetweenFlushAndCommit,
    /// While `checkpoint 1` runs: the node is SIGSTOPped first, so the commit's requests (the progress record's
    /// produce, which every replica must acknowledge, then `EndTxn` and the markers) wait on it; after
    /// [`IN_FLIGHT`] of the commit the silent node is SIGKILLed.
    DuringTheCommit,
    /// While `commit 1` runs after `prepare_commit 1`, so that every record of the transaction (the interval's
    /// and the progress record) is acknowledged and `EndTxn` is the only request left: the node is SIGSTOPped,
    /// `commit` called on a thread, and [`IN_FLIGHT`] later (the test fails if `commit` returned by then) the
    /// silent node is SIGKILLed. The coordinator as the victim: `EndTxn` waits on it. A data partition's leader
    /// as the victim: the coordinator has `EndTxn`, and its `PrepareCommit` record waits for the silent node,
    /// which follows `__transaction_state` (three replicas on three nodes) until it is fenced; the commit
    /// markers go out only after that (the test asks the coordinator for the transaction's state meanwhile).
    WithEndTxnInFlight,
}

impl When {
    /// As the RESULT lines say it.
    fn name(self) -> &'static str {
        match self {
            When::BetweenFlushAndCommit => "between flush and commit",
            When::DuringTheCommit => "during the commit",
            When::WithEndTxnInFlight => "with EndTxn in flight (after prepare_commit)",
        }
    }
}

/// How long `checkpoint 1` ([`When::DuringTheCommit`]) or `commit 1` ([`When::WithEndTxnInFlight`]) runs against
/// the silent node before it is killed.
const IN_FLIGHT: Duration = Duration::from_secs(2);

/// When the test asks the coordinator for the transaction's state ([`When::WithEndTxnInFlight`], the victim not
/// the coordinator): after the commit was called, before the kill.
const OBSERVED: Duration = Duration::from_millis(500);

/// Kills `victim` as `when` says, commits interval 1 and goes on to row 300; verifies rows 0..300 and starts
/// the node again. `coordinator` is the writer's transaction coordinator. Returns the RESULT line's
/// measurements.
fn kill_around_the_commit(
    cluster: &mut Cluster,
    topic: &str,
    mut writer: Writer,
    victim: u32,
    coordinator: u32,
    when: When,
) -> String {
    writer.write(INTERVAL).expect("write interval 1");
    writer.flush().expect("flush interval 1");
    let mut called_to_end = None;
    let mut returned_before_the_kill = false;
    let mut observed = None;
    let transactional_id = writer.transactional_id();
    let (outcome, commit) = match when {
        When::BetweenFlushAndCommit => {
            let killed = cluster.kill(victim);
            let outcome = writer.checkpoint();
            (outcome, killed.elapsed())
        }
        When::WithEndTxnInFlight => {
            writer.prepare_commit().expect("prepare_commit 1");
            cluster.pause(victim);
            std::thread::scope(|scope| {
                let called = Instant::now();
                let committing = scope.spawn(|| writer.commit());
                // What the coordinator owes, asked while the node is silent (a JVM: it may take seconds).
                let describing = (victim != coordinator).then(|| {
                    let bootstrap = cluster.bootstrap().to_owned();
                    let transactional_id = &transactional_id;
                    scope.spawn(move || {
                        std::thread::sleep(OBSERVED);
                        let asked = called.elapsed();
                        let state = transaction_state(&bootstrap, coordinator, transactional_id);
                        (asked, called.elapsed(), state)
                    })
                });
                std::thread::sleep(IN_FLIGHT);
                returned_before_the_kill = committing.is_finished();
                assert!(
                    !returned_before_the_kill,
                    "commit 1 returned within {IN_FLIGHT:?} of a silent node"
                );
                let killed = cluster.kill(victim);
                let outcome = committing.join().expect("the commit's thread");
                called_to_end = Some(called.elapsed());
                observed = describing.map(|d| d.join().expect("the describe thread"));
                (outcome, killed.elapsed())
            })
        }
        When::DuringTheCommit => {
            cluster.pause(victim);
            std::thread::scope(|scope| {
                let committing = scope.spawn(|| writer.checkpoint());
                std::thread::sleep(IN_FLIGHT);
                assert!(
                    !committing.is_finished(),
                    "checkpoint 1 returned within {IN_FLIGHT:?} of a silent node"
                );
                let killed = cluster.kill(victim);
                let outcome = committing.join().expect("the commit's thread");
                (outcome, killed.elapsed())
            })
        }
    };
    let next = Instant::now();
    writer.run_until(3 * INTERVAL, |_| {});
    let rest = next.elapsed();
    // Read while the node is still dead: the readers' bootstrap list names it.
    let read = verify_exactly_once(cluster.bootstrap(), topic, 0..3 * INTERVAL);
    let in_log = read_values(cluster.bootstrap(), topic, "read_uncommitted").len();
    let restart = cluster.start_node(victim);
    // Beyond the committed rows, the log holds at most the replayed ones once more (aborted).
    assert!(
        (3 * INTERVAL..=3 * INTERVAL + writer.report.replayed_rows).contains(&(in_log as i64)),
        "{in_log} records in the log, {} rows replayed",
        writer.report.replayed_rows
    );
    format!(
        "{} 1 returned {} {commit:.1?} after the kill{}; intervals 2-3 took {rest:.1?}; errors {:?}; \
         {} rows replayed; read_committed {read} of 300, missing 0, duplicated 0; {in_log} records in the log; \
         node {victim} restarted in {restart:.1?}",
        match when {
            When::BetweenFlushAndCommit | When::DuringTheCommit => "checkpoint",
            When::WithEndTxnInFlight => "commit",
        },
        outcome.map_or_else(|e| format!("Err({e})"), |()| "Ok".to_owned()),
        match when {
            When::BetweenFlushAndCommit => String::new(),
            When::DuringTheCommit => format!(" ({IN_FLIGHT:?} into the commit, the node silent until then)"),
            When::WithEndTxnInFlight => format!(
                ", {:.1?} after it was called (the node SIGSTOPped after prepare_commit, killed {:.1?} into \
                 the commit; returned before the kill: {returned_before_the_kill}{})",
                called_to_end.expect("commit called"),
                called_to_end.expect("commit called").saturating_sub(commit),
                observed.map_or_else(String::new, |(asked, answered, state)| format!(
                    "; the coordinator's state of the transaction, asked {asked:.1?} into the commit, answered \
                     {answered:.1?}: {}",
                    state.unwrap_or_else(|e| format!("Err({e})"))
                )),
            ),
        },
        writer.report.errors,
        writer.report.replayed_rows,
    )
}

/// The leader of a data partition that is not the coordinator (so the kill hits the data only), killed
/// `when`; prints the RESULT line.
fn partition_leader_killed(test: &str, name: &str, when: When) {
    let Some(mut cluster) = Cluster::for_test(test) else {
        return;
    };
    let (topic, writer) = committed_once(&cluster, name, TRANSACTION_TIMEOUT, &[]);
    let coordinator = cluster.coordinator(&writer.transactional_id());
    let (partition, leader) = (0..PARTITIONS)
        .map(|p| (p, cluster.leader(&topic, p)))
        .find(|&(_, leader)| leader != coordinator)
        .expect("three partitions on three nodes, not all led by the coordinator");
    let result = kill_around_the_commit(&mut cluster, &topic, writer, leader, coordinator, when);
    eprintln!(
        "RESULT leader SIGKILL {} (node {leader} leads partition {partition}, coordinator node \
         {coordinator}): {result}",
        when.name()
    );
}

/// The transaction coordinator of the writer's `transactional.id`, killed `when`; prints the RESULT line.
fn coordinator_killed(test: &str, name: &str, when: When) {
    let Some(mut cluster) = Cluster::for_test(test) else {
        return;
    };
    let (topic, writer) = committed_once(&cluster, name, TRANSACTION_TIMEOUT, &[]);
    let coordinator = cluster.coordinator(&writer.transactional_id());
    let result =
        kill_around_the_commit(&mut cluster, &topic, writer, coordinator, coordinator, when);
    eprintln!(
        "RESULT coordinator SIGKILL {} (node {coordinator}): {result}",
        when.name()
    );
}

#[test]
fn partition_leader_killed_between_flush_and_commit() {
    partition_leader_killed(
        "partition_leader_killed_between_flush_and_commit",
        "leader-kill",
        When::BetweenFlushAndCommit,
    );
}

#[test]
#[ignore = "soak: the progress record in flight at the kill; CI kills with EndTxn in flight (the tests below); run by make soak (scripts/cluster-faults.sh --soak)"]
fn partition_leader_killed_during_the_commit() {
    partition_leader_killed(
        "partition_leader_killed_during_the_commit",
        "leader-kill-commit",
        When::DuringTheCommit,
    );
}

#[test]
fn transaction_coordinator_killed_between_flush_and_commit() {
    coordinator_killed(
        "transaction_coordinator_killed_between_flush_and_commit",
        "coordinator-kill",
        When::BetweenFlushAndCommit,
    );
}

#[test]
#[ignore = "soak: the progress record in flight at the kill; CI kills with EndTxn in flight (the tests below); run by make soak (scripts/cluster-faults.sh --soak)"]
fn transaction_coordinator_killed_during_the_commit() {
    coordinator_killed(
        "transaction_coordinator_killed_during_the_commit",
        "coordinator-kill-commit",
        When::DuringTheCommit,
    );
}

#[test]
fn transaction_coordinator_killed_with_end_txn_in_flight() {
    coordinator_killed(
        "transaction_coordinator_killed_with_end_txn_in_flight",
        "coordinator-kill-endtxn",
        When::WithEndTxnInFlight,
    );
}

#[test]
fn partition_leader_killed_while_end_txn_waits_on_it() {
    partition_leader_killed(
        "partition_leader_killed_while_end_txn_waits_on_it",
        "leader-kill-endtxn",
        When::WithEndTxnInFlight,
    );
}

/// Intervals of the long runs.
const INTERVALS: i64 = 30;

/// A long run: rows 0..3000 in 30 intervals with `transaction_timeout` and the librdkafka `properties`;
/// `fault(cluster, topic, checkpoint)` is
/// called after each commit (where the test kills, pauses, restarts or resumes a node). Verifies every row
/// once; returns the RESULT line's measurements.
fn long_run(
    cluster: &mut Cluster,
    name: &str,
    transaction_timeout: Duration,
    properties: &[(&str, &str)],
    mut fault: impl FnMut(&mut Cluster, &str, u64),
) -> String {
    let (topic, mut writer) = committed_once(cluster, name, transaction_timeout, properties);
    let started = Instant::now();
    writer.run_until(INTERVALS * INTERVAL, |checkpoint| {
        fault(cluster, &topic, checkpoint)
    });
    let run = started.elapsed();
    let read = verify_exactly_once(cluster.bootstrap(), &topic, 0..INTERVALS * INTERVAL);
    let report = &writer.report;
    format!(
        "run {run:.1?}; longest checkpoint {:.1?}, median {:.1?}; errors {:?}; {} rows replayed; \
         read_committed {read} of {}, missing 0, duplicated 0",
        report.longest_checkpoint(),
        report.median_checkpoint(),
        report.errors,
        report.replayed_rows,
        INTERVALS * INTERVAL,
    )
}

/// A long run in which `victim(cluster, topic)` is SIGKILLed after checkpoint 9 and started again from
/// checkpoint 19 while the writer goes on (the start takes seconds: the node rejoins during the following
/// transactions and the verifying read). Returns the victim and the RESULT line's measurements.
fn kill_during_a_long_run(
    cluster: &mut Cluster,
    name: &str,
    victim: impl Fn(&Cluster, &str) -> u32,
) -> (u32, String) {
    let mut killed = None;
    let mut rejoined = None;
    let result = long_run(
        cluster,
        name,
        TRANSACTION_TIMEOUT,
        &[],
        |cluster, topic, checkpoint| match checkpoint {
            9 => {
                let node = victim(cluster, topic);
                cluster.kill(node);
                killed = Some(node);
            }
            19 => rejoined = killed.map(|node| cluster.start_node_in_background(node)),
            _ => {}
        },
    );
    let restart = rejoined
        .expect("checkpoint 19 committed")
        .join()
        .expect("start-node");
    let node = killed.expect("checkpoint 9 committed");
    (
        node,
        format!("{result}; node {node} restarted in {restart:.1?}"),
    )
}

#[test]
fn partition_leader_killed_during_a_long_run_of_transactions() {
    let Some(mut cluster) =
        Cluster::for_test("partition_leader_killed_during_a_long_run_of_transactions")
    else {
        return;
    };
    let (node, result) = kill_during_a_long_run(&mut cluster, "long-run", |cluster, topic| {
        cluster.leader(topic, 0)
    });
    eprintln!(
        "RESULT leader SIGKILL during a run of {INTERVALS} transactions (node {node}, leader of partition 0, \
         killed after checkpoint 9, restarted from checkpoint 19): {result}"
    );
}

#[test]
fn active_controller_killed_during_a_long_run_of_transactions() {
    let Some(mut cluster) =
        Cluster::for_test("active_controller_killed_during_a_long_run_of_transactions")
    else {
        return;
    };
    // Every node is broker and controller: the active controller also leads a data partition.
    let (node, result) = kill_during_a_long_run(&mut cluster, "controller-kill", |cluster, _| {
        cluster.controller()
    });
    eprintln!(
        "RESULT active controller SIGKILL during a run of {INTERVALS} transactions (node {node}, killed after \
         checkpoint 9, restarted from checkpoint 19; the new quorum leader is node {}): {result}",
        cluster.controller()
    );
}

/// The transaction timeout of the writer whose leader is paused: the commit after the pause waits that long
/// (librdkafka keeps waiting on the silent node's connection; a 60 s timeout measured 60.1 s), so 20 s keeps the
/// test short. Still longer than the fencing, so the pause outlasts the session timeout.
const PAUSED_TRANSACTION_TIMEOUT: Duration = Duration::from_secs(20);

/// The leader of partition 0 SIGSTOPped after checkpoint 9 and SIGCONTed after checkpoint 19 of a long run whose
/// writer has the librdkafka `properties`; asserts that partition 0 has a new leader once checkpoint 10
/// committed and returns the RESULT line's measurements.
fn pause_during_a_long_run(
    cluster: &mut Cluster,
    name: &str,
    properties: &[(&str, &str)],
) -> String {
    let mut paused = None;
    let mut pause_started = None;
    let mut paused_for = None;
    let mut moved = None;
    // SIGSTOP after checkpoint 9: the node keeps its connections but answers nothing, as if cut off. Checkpoint
    // 10 can only commit once its partition has another leader, so the controller has fenced the silent node
    // (broker.session.timeout.ms, 9 s): it stays paused, past that, until checkpoint 19.
    let result = long_run(
        cluster,
        name,
        PAUSED_TRANSACTION_TIMEOUT,
        properties,
        |cluster, topic, checkpoint| match checkpoint {
            9 => {
                let node = cluster.leader(topic, 0);
                pause_started = Some(cluster.pause(node));
                paused = Some(node);
            }
            10 => {
                // The producer already knows the new leader; the broker the lookup asks may learn it a moment
                // later.
                let node = paused.expect("paused at checkpoint 9");
                let deadline = Instant::now() + TIMEOUT;
                let mut leader = cluster.leader(topic, 0);
                while leader == node && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(200));
                    leader = cluster.leader(topic, 0);
                }
                moved = Some(leader);
            }
            19 => {
                cluster.resume(paused.expect("paused at checkpoint 9"));
                paused_for = pause_started.map(|started: Instant| started.elapsed());
            }
            _ => {}
        },
    );
    let node = paused.expect("checkpoint 9 committed");
    let new_leader = moved.expect("checkpoint 10 committed");
    assert_ne!(
        new_leader, node,
        "partition 0 has a new leader once checkpoint 10 committed"
    );
    format!(
        "node {node}, leader of partition 0, paused after checkpoint 9 for {:.1?} until checkpoint 19; new leader \
         node {new_leader}): {result}",
        paused_for.expect("resumed at checkpoint 19")
    )
}

#[test]
fn partition_leader_paused_beyond_the_session_timeout_during_a_long_run() {
    let Some(mut cluster) =
        Cluster::for_test("partition_leader_paused_beyond_the_session_timeout_during_a_long_run")
    else {
        return;
    };
    let result = pause_during_a_long_run(&mut cluster, "leader-pause", &[]);
    eprintln!(
        "RESULT leader SIGSTOP beyond the session timeout during a run of {INTERVALS} transactions ({result}"
    );
}

/// librdkafka's `socket.timeout.ms` of [`partition_leader_paused_past_a_short_socket_timeout_during_a_long_run`]
/// (default 60 s): shorter than [`PAUSED_TRANSACTION_TIMEOUT`], longer than the fencing.
const SHORT_SOCKET_TIMEOUT: &str = "10000";

#[test]
#[ignore = "soak: a variant of the paused leader; run by make soak (scripts/cluster-faults.sh --soak)"]
fn partition_leader_paused_past_a_short_socket_timeout_during_a_long_run() {
    let Some(mut cluster) =
        Cluster::for_test("partition_leader_paused_past_a_short_socket_timeout_during_a_long_run")
    else {
        return;
    };
    let result = pause_during_a_long_run(
        &mut cluster,
        "leader-pause-socket",
        &[("socket.timeout.ms", SHORT_SOCKET_TIMEOUT)],
    );
    eprintln!(
        "RESULT leader SIGSTOP beyond the session timeout during a run of {INTERVALS} transactions, \
         socket.timeout.ms={SHORT_SOCKET_TIMEOUT} ({result}"
    );
}

#[test]
#[ignore = "soak: two minutes or more; run by make soak (scripts/cluster-faults.sh --soak)"]
fn rolling_restart_of_every_node_during_a_long_run() {
    let Some(cluster) = Cluster::for_test("rolling_restart_of_every_node_during_a_long_run") else {
        return;
    };
    let (topic, mut writer) = committed_once(&cluster, "rolling-restart", TRANSACTION_TIMEOUT, &[]);
    let started = Instant::now();
    let restart = cluster.rolling_restart_in_background();
    // Transactions go on while the nodes restart one by one, and five more once all three are back in sync.
    let intervals = writer.run_while(|| restart.is_finished(), 5);
    let run = started.elapsed();
    let report = restart
        .join()
        .expect("the rolling restart's thread")
        .unwrap_or_else(|error| panic!("{error}"));
    let end = writer.committed_rows();
    let read = verify_exactly_once(cluster.bootstrap(), &topic, 0..end);
    let steps = report.lines().collect::<Vec<_>>().join("; ");
    let report = &writer.report;
    eprintln!(
        "RESULT rolling restart of the three nodes during a run of {intervals} transactions ({steps}): run \
         {run:.1?}; longest checkpoint {:.1?}, median {:.1?}; errors {:?}; {} rows replayed; read_committed \
         {read} of {end}, missing 0, duplicated 0",
        report.longest_checkpoint(),
        report.median_checkpoint(),
        report.errors,
        report.replayed_rows,
    );
}
