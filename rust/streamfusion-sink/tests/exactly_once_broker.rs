//! Exactly-once sink against the real broker: committed intervals, an interval left open by a dropped
//! instance, a fenced older instance, and empty intervals. Needs a broker at `KAFKA_BOOTSTRAP_SERVERS`
//! (default 127.0.0.1:19092; start it with `kafka/broker start`).

mod common;

use common::{config, create_topic, read_all, records, unique, value_of};
use kafka_util::Record;
use streamfusion_sink::{partition_for_key, Error, Progress, Sink};

const PARTITIONS: i32 = 3;

fn open(topic: &str, progress: &str, writer: &str) -> Sink {
    Sink::new(config(topic, progress, writer)).unwrap_or_else(|e| {
        panic!("Sink::new for {topic} (is the broker up? run `kafka/broker start`): {e}")
    })
}

/// The records of ids `ids`, in the order the sink wrote them, grouped by the partition the key hash gives.
fn expected_by_partition(ids: impl Iterator<Item = i64>) -> Vec<Vec<Vec<u8>>> {
    let mut by = vec![Vec::new(); PARTITIONS as usize];
    for id in ids {
        let key = format!("{{\"id\":{id}}}");
        by[partition_for_key(key.as_bytes(), PARTITIONS) as usize].push(value_of(id));
    }
    by
}

fn values_by_partition(read: &[Record]) -> Vec<Vec<Vec<u8>>> {
    let mut by = vec![Vec::new(); PARTITIONS as usize];
    for r in read {
        let key = r.key.as_deref().expect("every record is keyed");
        assert_eq!(
            r.partition,
            partition_for_key(key, PARTITIONS),
            "record at {}@{} is not where the key hash puts it",
            r.partition,
            r.offset
        );
        by[r.partition as usize].push(r.value.clone().expect("no tombstones written"));
    }
    by
}

fn progress(writer: &str, checkpoint_id: u64, position: &str) -> Progress {
    Progress {
        writer_id: writer.into(),
        checkpoint_id,
        source_position: position.as_bytes().to_vec(),
    }
}

#[test]
fn committed_intervals_are_read_exactly_once_in_order() {
    let (topic, progress_topic, writer) = (unique("eos"), unique("eos-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut sink = open(&topic, &progress_topic, &writer);
    assert_eq!(
        sink.recover().unwrap(),
        None,
        "a new writer has no progress"
    );
    // Three intervals of 200 rows, each written as two batches.
    for interval in 0..3 {
        let first = interval * 200;
        sink.write(&records(first, 120)).unwrap();
        sink.write(&records(first + 120, 80)).unwrap();
        sink.checkpoint(interval as u64, (first + 200).to_string().as_bytes())
            .unwrap();
    }
    drop(sink);

    let committed = read_all(&topic, "read_committed");
    assert_eq!(committed.len(), 600, "committed record count");
    assert_eq!(
        values_by_partition(&committed),
        expected_by_partition(0..600),
        "committed records per partition, in write order"
    );
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        600,
        "no aborted data was written"
    );
    let mut again = open(&topic, &progress_topic, &writer);
    assert_eq!(
        again.recover().unwrap(),
        Some(progress(&writer, 2, "600")),
        "recover returns the last checkpoint"
    );
}

#[test]
fn an_interval_left_open_by_a_dropped_sink_is_aborted_and_replayed() {
    let (topic, progress_topic, writer) = (unique("open"), unique("open-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut first = open(&topic, &progress_topic, &writer);
    first.write(&records(0, 100)).unwrap();
    first.checkpoint(1, b"100").unwrap();
    first.write(&records(100, 100)).unwrap();
    first.flush().unwrap(); // the interval's data reaches the log, uncommitted
    drop(first); // no commit

    // init_transactions of the new instance aborts the open transaction.
    let mut second = open(&topic, &progress_topic, &writer);
    assert_eq!(
        second.recover().unwrap(),
        Some(progress(&writer, 1, "100")),
        "recover returns the checkpoint before the open interval"
    );
    assert_eq!(
        read_all(&topic, "read_committed").len(),
        100,
        "the open interval is invisible to read_committed"
    );
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        200,
        "the aborted records exist in the log"
    );

    // Replaying the interval from the recovered position commits it once.
    second.write(&records(100, 100)).unwrap();
    second.checkpoint(2, b"200").unwrap();
    let committed = read_all(&topic, "read_committed");
    assert_eq!(
        values_by_partition(&committed),
        expected_by_partition(0..200),
        "after the replay every record is committed once"
    );
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        300,
        "read_uncommitted also sees the 100 aborted records"
    );
}

#[test]
fn an_older_instance_is_fenced_by_a_newer_one() {
    let (topic, progress_topic, writer) = (unique("fence"), unique("fence-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut old = open(&topic, &progress_topic, &writer);
    old.write(&records(0, 50)).unwrap();
    old.flush().unwrap();

    let mut new = open(&topic, &progress_topic, &writer);
    assert_eq!(new.recover().unwrap(), None, "nothing was committed");

    let error = old
        .checkpoint(1, b"50")
        .expect_err("a fenced producer cannot commit");
    assert!(
        matches!(error, Error::Fatal { .. }),
        "fencing is fatal: {error:?}"
    );
    assert!(error.requires_replay(), "{error}");

    new.write(&records(0, 50)).unwrap();
    new.checkpoint(1, b"50").unwrap();
    assert_eq!(
        read_all(&topic, "read_committed").len(),
        50,
        "only the new instance's interval is committed"
    );
    assert_eq!(new.recover().unwrap(), Some(progress(&writer, 1, "50")));

    // After a fatal error the old instance builds a new producer on its next call: init_transactions fences the
    // other instance in turn, and recover reads what that one committed.
    assert_eq!(
        old.recover().unwrap(),
        Some(progress(&writer, 1, "50")),
        "the rebuilt producer recovers the last commit"
    );
    new.write(&records(50, 10)).unwrap();
    let error = new
        .checkpoint(2, b"60")
        .expect_err("the rebuilt old instance fenced the new one");
    assert!(error.is_fatal(), "{error:?}");
    assert_eq!(
        read_all(&topic, "read_committed").len(),
        50,
        "the fenced interval is not committed"
    );
}

#[test]
fn empty_intervals_commit_repeatedly() {
    let (topic, progress_topic, writer) = (unique("empty"), unique("empty-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut sink = open(&topic, &progress_topic, &writer);
    for id in 1..=5u64 {
        sink.checkpoint(id, format!("pos-{id}").as_bytes())
            .unwrap_or_else(|e| panic!("empty checkpoint {id}: {e}"));
    }
    drop(sink);
    let mut again = open(&topic, &progress_topic, &writer);
    assert_eq!(
        again.recover().unwrap(),
        Some(progress(&writer, 5, "pos-5")),
        "recover returns the 5th empty checkpoint"
    );
    assert!(
        read_all(&topic, "read_uncommitted").is_empty(),
        "no data record"
    );
}

#[cfg(feature = "fault-injection")]
#[test]
fn a_prepared_checkpoint_is_invisible_until_its_commit() {
    let (topic, progress_topic, writer) = (unique("2pc"), unique("2pc-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut sink = open(&topic, &progress_topic, &writer);
    sink.write(&records(0, 100)).unwrap();
    sink.checkpoint(0, b"100").unwrap();
    sink.write(&records(100, 100)).unwrap();
    assert_eq!(sink.prepared_checkpoint(), None, "nothing prepared yet");

    sink.prepare_commit(1, b"200").unwrap();
    assert_eq!(sink.prepared_checkpoint(), Some(1), "checkpoint 1 prepared");
    // Read without waiting for the open transaction: the interval is in the log, not committed.
    let in_log = common::read_now(&topic, "read_uncommitted");
    assert_eq!(
        in_log.len(),
        200,
        "prepare_commit waited until every record of the interval was acknowledged"
    );
    assert_eq!(
        values_by_partition(&common::read_now(&topic, "read_committed")),
        expected_by_partition(0..100),
        "read_committed sees nothing of the prepared interval"
    );

    sink.commit().unwrap();
    assert_eq!(
        sink.prepared_checkpoint(),
        None,
        "the commit ends the prepared state"
    );
    assert_eq!(
        values_by_partition(&read_all(&topic, "read_committed")),
        expected_by_partition(0..200),
        "after the commit read_committed sees the interval once"
    );
    // The next interval goes on as after a checkpoint.
    sink.write(&records(200, 50)).unwrap();
    sink.checkpoint(2, b"250").unwrap();
    drop(sink);
    let mut again = open(&topic, &progress_topic, &writer);
    assert_eq!(
        again.recover().unwrap(),
        Some(progress(&writer, 2, "250")),
        "the progress of checkpoint 1 committed with its interval, then checkpoint 2"
    );
    assert_eq!(read_all(&topic, "read_committed").len(), 250);
}

#[cfg(feature = "fault-injection")]
#[test]
fn the_two_commit_phases_are_called_in_order() {
    let (topic, progress_topic, writer) = (unique("order"), unique("order-progress"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut sink = open(&topic, &progress_topic, &writer);
    let error = sink.commit().expect_err("commit without prepare_commit");
    assert!(
        matches!(
            error,
            Error::CommitOrder {
                operation: "commit",
                prepared: None
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "commit: no checkpoint is prepared: call prepare_commit first"
    );
    assert!(!error.requires_replay() && !error.is_fatal(), "{error:?}");

    sink.write(&records(0, 100)).unwrap();
    sink.prepare_commit(0, b"100").unwrap();
    // A prepared transaction takes nothing more, and nothing is sent.
    let refused = [
        ("write", sink.write(&records(100, 10))),
        ("flush", sink.flush()),
        ("prepare_commit", sink.prepare_commit(1, b"110")),
        ("checkpoint", sink.checkpoint(1, b"110")),
    ];
    for (call, result) in refused {
        let error = result.expect_err("a call between prepare_commit and commit");
        assert!(
            matches!(error, Error::CommitOrder { operation, prepared: Some(0) } if operation == call),
            "{call}: {error:?}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "{call}: checkpoint 0 is prepared and not committed: call commit (or recover, which aborts it) \
                 first"
            )
        );
    }
    assert_eq!(
        sink.prepared_checkpoint(),
        Some(0),
        "still prepared after the refusals"
    );
    sink.commit().unwrap();
    assert!(matches!(
        sink.commit(),
        Err(Error::CommitOrder { prepared: None, .. })
    ));
    assert_eq!(
        values_by_partition(&read_all(&topic, "read_committed")),
        expected_by_partition(0..100),
        "exactly the prepared interval committed; the refused write sent nothing"
    );
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        100,
        "nothing else reached the log"
    );
    assert_eq!(sink.recover().unwrap(), Some(progress(&writer, 0, "100")));
}

#[cfg(feature = "fault-injection")]
#[test]
fn recover_aborts_a_prepared_checkpoint_and_a_dead_writer_s_is_aborted_too() {
    let (topic, progress_topic, writer) = (unique("2pc-abort"), unique("2pc-abort-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut sink = open(&topic, &progress_topic, &writer);
    sink.write(&records(0, 100)).unwrap();
    sink.checkpoint(0, b"100").unwrap();

    // recover on the same sink gives the prepared checkpoint up.
    sink.write(&records(100, 100)).unwrap();
    sink.prepare_commit(1, b"200").unwrap();
    assert_eq!(
        sink.recover().unwrap(),
        Some(progress(&writer, 0, "100")),
        "recover aborts the prepared transaction and returns the checkpoint before it"
    );
    assert_eq!(sink.prepared_checkpoint(), None);
    assert!(matches!(sink.commit(), Err(Error::CommitOrder { .. })));

    // A writer that dies between the phases: the next instance aborts what it prepared.
    sink.write(&records(100, 100)).unwrap();
    sink.prepare_commit(1, b"200").unwrap();
    drop(sink);
    let mut next = open(&topic, &progress_topic, &writer);
    assert_eq!(
        next.recover().unwrap(),
        Some(progress(&writer, 0, "100")),
        "a prepared checkpoint that was never committed is not recovered"
    );
    assert_eq!(
        read_all(&topic, "read_committed").len(),
        100,
        "neither prepared copy of the interval is visible"
    );
    next.write(&records(100, 100)).unwrap();
    next.prepare_commit(1, b"200").unwrap();
    next.commit().unwrap();
    assert_eq!(
        values_by_partition(&read_all(&topic, "read_committed")),
        expected_by_partition(0..200),
        "the replayed interval commits once"
    );
    assert_eq!(
        read_all(&topic, "read_uncommitted").len(),
        400,
        "the two aborted copies stay in the log"
    );
}

#[cfg(feature = "fault-injection")]
#[test]
fn at_least_once_the_progress_is_written_by_prepare_commit() {
    let (topic, progress_topic, writer) = (unique("alo-2pc"), unique("alo-2pc-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let config = common::config(&topic, &progress_topic, &writer)
        .with_mode(streamfusion_sink::DeliveryGuarantee::AtLeastOnce);
    let mut sink = Sink::new(config).unwrap();
    assert!(matches!(
        sink.commit(),
        Err(Error::CommitOrder { prepared: None, .. })
    ));
    sink.write(&records(0, 100)).unwrap();
    sink.prepare_commit(0, b"100").unwrap();
    assert_eq!(sink.prepared_checkpoint(), Some(0));
    assert_eq!(
        read_all(&topic, "read_committed").len(),
        100,
        "at least once, prepare_commit flushed the data"
    );
    assert_eq!(
        Sink::new(
            common::config(&topic, &progress_topic, &writer)
                .with_mode(streamfusion_sink::DeliveryGuarantee::AtLeastOnce)
        )
        .unwrap()
        .recover()
        .unwrap(),
        Some(progress(&writer, 0, "100")),
        "and wrote the progress"
    );
    sink.commit().unwrap();
    assert_eq!(sink.prepared_checkpoint(), None);
}
