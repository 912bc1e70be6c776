//! Fault tests of the writer process against the real broker: a writer process killed with SIGKILL after a
//! flush and right after a commit, an old instance paused with SIGSTOP while a new one commits and then resumed with
//! SIGCONT (it must be fenced), and a transaction that outlives `transaction.timeout.ms`. Each ends with
//! [`verify_exactly_once`]: `read_committed` to the end offsets captured when it starts holds exactly the
//! expected records, zero duplicates, zero missing.
//!
//! The killed and paused writers are `sink-fault-helper` processes (`src/bin/sink-fault-helper.rs`), driven over
//! stdin: each answer line means the call has returned, so the test kills or pauses at that exact point
//! instead of after a sleep. Needs a broker at `KAFKA_BOOTSTRAP_SERVERS` (default 127.0.0.1:19092;
//! `kafka/broker start`) and Linux (`/proc`, `kill`).

mod common;

use std::time::{Duration, Instant};

use common::helper::{replay, resume_point, Helper, EXIT_FATAL, WAIT};
use common::{bootstrap, config, create_topic, read_all, records, unique, verify_exactly_once};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use streamfusion_sink::Sink;

const PARTITIONS: i32 = 3;

fn open(topic: &str, progress: &str, writer: &str, timeout: Duration) -> Sink {
    Sink::new(config(topic, progress, writer).with_transaction_timeout(timeout)).unwrap_or_else(
        |e| panic!("Sink::new for {topic} (is the broker up? run `kafka/broker start`): {e}"),
    )
}

/// The transaction timeout of the writers these tests kill or pause: long enough that a loaded machine's flush
/// fits in it (a CI run once saw a 10 s flush time out). The restarted writer fences them through
/// `init_transactions` whatever their timeout; only the timeout test sets a short one.
const TRANSACTION_TIMEOUT: Duration = Duration::from_secs(60);

#[test]
fn killed_after_flush_before_commit_the_interval_is_replayed_once() {
    let (topic, progress, writer) = (unique("kill-flush"), unique("kill-flush-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut a = Helper::spawn(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    a.call("write 0 100", "ok write");
    a.call("checkpoint 0 100", "ok checkpoint 0");
    a.call("write 100 100", "ok write");
    a.call("flush", "ok flush"); // interval 1 is in the log, its transaction open
    a.kill();
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        200,
        "the killed interval reached the log"
    );

    // The restarted writer: init_transactions aborts the killed one's transaction.
    let mut b = open(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    let recovered = b.recover().unwrap();
    assert_eq!(
        resume_point(recovered),
        (100, 1),
        "recover returns checkpoint 0"
    );
    replay(&mut b, 100, 200, 1);
    assert_eq!(verify_exactly_once(&topic, PARTITIONS, 0..200), 200);
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        300,
        "the killed interval stays in the log, aborted"
    );
}

#[test]
fn killed_right_after_a_commit_recover_returns_it() {
    let (topic, progress, writer) = (unique("kill-commit"), unique("kill-commit-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut a = Helper::spawn(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    a.call("write 0 100", "ok write");
    a.call("checkpoint 0 100", "ok checkpoint 0");
    a.call("write 100 100", "ok write");
    // Killed as soon as checkpoint 1 returned: the writer never acted on it.
    a.call("checkpoint 1 200", "ok checkpoint 1");
    a.kill();

    let mut b = open(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    let recovered = b.recover().unwrap();
    assert_eq!(
        resume_point(recovered),
        (200, 2),
        "recover returns checkpoint 1, so the replay starts after it"
    );
    replay(&mut b, 200, 300, 2);
    assert_eq!(verify_exactly_once(&topic, PARTITIONS, 0..300), 300);
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        300,
        "nothing was written twice, not even aborted"
    );
}

#[test]
fn a_paused_instance_is_fenced_when_it_resumes() {
    let (topic, progress, writer) = (unique("zombie"), unique("zombie-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    // A writes rows 1000.. in an open transaction and is paused there.
    let mut a = Helper::spawn(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    a.call("write 1000 50", "ok write");
    a.call("flush", "ok flush");
    a.signal("STOP");

    // B, same writer id: init_transactions fences A and aborts its transaction; B commits rows 0..50.
    let mut b = open(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    assert_eq!(b.recover().unwrap(), None, "A committed nothing");
    replay(&mut b, 0, 50, 1);

    // A resumes and tries to commit its interval: fenced, a fatal error, the helper exits with EXIT_FATAL.
    a.send("checkpoint 1 a");
    a.signal("CONT");
    let answer = a.answer();
    assert!(answer.starts_with("err fatal "), "A's checkpoint: {answer}");
    assert_eq!(a.exit_status().code(), Some(EXIT_FATAL), "{answer}");

    assert_eq!(verify_exactly_once(&topic, PARTITIONS, 0..50), 50);
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        100,
        "A's 50 records are in the log, aborted"
    );
    let recovered = b.recover().unwrap();
    assert_eq!(
        resume_point(recovered),
        (50, 2),
        "B's progress stands; A wrote none"
    );
}

/// Polls until no partition of `topic` has an open transaction (the `read_committed` end, the last stable
/// offset, reaches the high watermark), at most `limit`. Returns whether one was open at the first poll.
fn wait_no_open_transaction(topic: &str, limit: Duration) -> bool {
    let consumer = |level: &str| -> BaseConsumer {
        ClientConfig::new()
            .set("bootstrap.servers", bootstrap())
            .set("group.id", unique("lso"))
            .set("isolation.level", level)
            .create()
            .unwrap()
    };
    let (uncommitted, committed) = (consumer("read_uncommitted"), consumer("read_committed"));
    let deadline = Instant::now() + limit;
    let mut first = None;
    loop {
        let open = (0..PARTITIONS).any(|p| {
            let high = uncommitted.fetch_watermarks(topic, p, WAIT).unwrap().1;
            committed.fetch_watermarks(topic, p, WAIT).unwrap().1 < high
        });
        first.get_or_insert(open);
        if !open {
            return first.unwrap();
        }
        assert!(
            Instant::now() < deadline,
            "{topic}: the broker did not abort the transaction within {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_transaction_outliving_its_timeout_is_aborted_and_replayed() {
    let (topic, progress, writer) = (unique("txn-timeout"), unique("txn-timeout-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let timeout = Duration::from_secs(3);
    // Checkpoint 0 under a timeout a loaded machine's first transaction on a new topic cannot outlive (a clean-clone
    // run's flush timed out under 3 s there, the topic's metadata still on its way); then the writer restarts with
    // the short timeout, recovering that checkpoint, for the interval that is to outlive it.
    let mut sink = open(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    replay(&mut sink, 0, 100, 0);
    drop(sink);
    let mut sink = open(&topic, &progress, &writer, timeout);
    assert_eq!(resume_point(sink.recover().unwrap()), (100, 1));
    // Timed from before the transaction begins (its first partition is added during the write), so that a slow
    // flush cannot make the broker's abort look early.
    let started = Instant::now();
    sink.write(&records(100, 100)).unwrap();
    sink.flush().unwrap();
    // The writer stalls. The broker aborts the transaction once it is older than transaction.timeout.ms, at its
    // next check (transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s by default).
    assert!(
        wait_no_open_transaction(&topic, Duration::from_secs(25)),
        "the interval's transaction was open after the flush"
    );
    let stalled = started.elapsed();
    assert!(
        stalled >= timeout - Duration::from_millis(500),
        "aborted after {stalled:?}"
    );

    let error = sink
        .checkpoint(1, b"200")
        .expect_err("the broker aborted the transaction: its commit must fail");
    assert!(error.requires_replay(), "aborted or fatal: {error:?}");
    let recovered = sink.recover().unwrap();
    assert_eq!(
        resume_point(recovered),
        (100, 1),
        "recover returns checkpoint 0 (error was {error})"
    );
    // The replay, as a restarted writer runs it: with a transaction timeout that a loaded machine's first
    // transaction after the epoch bump cannot outlive (3 s did once in CI, its flush timing out), recovering the
    // same checkpoint.
    drop(sink);
    let mut sink = open(&topic, &progress, &writer, TRANSACTION_TIMEOUT);
    assert_eq!(resume_point(sink.recover().unwrap()), (100, 1));
    replay(&mut sink, 100, 200, 1);
    assert_eq!(verify_exactly_once(&topic, PARTITIONS, 0..200), 200);
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        300,
        "the timed-out interval stays in the log, aborted"
    );
    eprintln!(
        "transaction aborted by the broker after {stalled:?}; checkpoint failed with: {error}"
    );
}
