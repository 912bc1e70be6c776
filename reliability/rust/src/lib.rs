//! The harness of the cluster failure tests (`docs/reliability.md`). Not published.
//!
//! * [`Cluster`]: the three-node cluster of `kafka/cluster`, one test at a time: kill a node (SIGKILL), start it
//!   again, pause and resume it (SIGSTOP, SIGCONT), restart every node in turn, find a partition's leader, a transactional id's coordinator
//!   or the active controller. Nodes a test leaves paused or down are resumed or started again when its
//!   `Cluster` is dropped, so the next test finds three.
//! * [`Writer`]: an exactly-once writer over [`Sink`] whose source is "rows 0, 1, 2, ...", the source position
//!   the next row id. It recovers and replays after an error that asks for it, and records what the caller of
//!   the sink saw: how long each checkpoint took, the errors, the rows written again ([`Report`]).
//! * [`verify_exactly_once`]: the check every test ends with: a `read_committed` read holds exactly the expected
//!   rows, none missing, none twice, nothing else.
//!
//! The tests run only when [`CLUSTER_ENV`] names the cluster (`scripts/cluster-faults.sh` starts
//! `kafka/cluster` and sets it); without it each test prints why it is skipped and passes, so `cargo test`
//! against the single broker needs no cluster.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arrow_array::{Int64Array, RecordBatch, StringArray};
use kafka_util::topics::TopicSpec;
use kafka_util::Topics;
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use streamfusion_json::{EncodedRecords, EncoderOptions, JsonEncoder};
use streamfusion_sink::{DeliveryGuarantee, Error, Sink, SinkConfig};

/// The environment variable with the cluster's bootstrap servers (`kafka/cluster bootstrap`).
pub const CLUSTER_ENV: &str = "KAFKA_CLUSTER_BOOTSTRAP_SERVERS";
/// Bound on every wait of the harness: topic creation, a read to the end, a transaction left open.
pub const TIMEOUT: Duration = Duration::from_secs(60);
/// Rows per checkpoint interval of a [`Writer`].
pub const INTERVAL: i64 = 100;
/// Partitions of the tests' data topics: one led by each node, as the cluster spreads them.
pub const PARTITIONS: i32 = 3;

/// Serialises the tests of one process: each kills nodes of the one cluster.
static TURN: Mutex<()> = Mutex::new(());

/// The cluster, held by one test ([`Cluster::for_test`]).
pub struct Cluster {
    bootstrap: String,
    /// Nodes this test killed and has not started again.
    down: Vec<u32>,
    /// Nodes this test paused and has not resumed.
    paused: Vec<u32>,
    _turn: MutexGuard<'static, ()>,
}

impl Cluster {
    /// The cluster at [`CLUSTER_ENV`] for the test `test`, once no other test of this process holds it; `None`
    /// (after printing why the test is skipped) when the variable is not set.
    pub fn for_test(test: &str) -> Option<Self> {
        let Ok(bootstrap) = std::env::var(CLUSTER_ENV) else {
            eprintln!(
                "{test}: skipped: {CLUSTER_ENV} is not set (scripts/cluster-faults.sh starts kafka/cluster and sets it)"
            );
            return None;
        };
        let turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
        Some(Self {
            bootstrap,
            down: Vec::new(),
            paused: Vec::new(),
            _turn: turn,
        })
    }

    /// The bootstrap servers (all three nodes).
    pub fn bootstrap(&self) -> &str {
        &self.bootstrap
    }

    /// A node id printed by `kafka/cluster` (`leader`, `coordinator`, `controller`), asked again while the
    /// lookup fails, for up to [`TIMEOUT`]. The script bootstraps from the nodes that are not paused, but the
    /// metadata lists a paused node until the controller fences it, and a request sent to it times out.
    fn node_id(&self, args: &[&str]) -> u32 {
        let out = ask_until_answered(|| try_kafka_cluster(args));
        out.parse()
            .unwrap_or_else(|_| panic!("kafka/cluster {}: not a node id: {out}", args.join(" ")))
    }

    /// SIGKILLs node `node` (`kafka/cluster kill`, which returns once the process is gone), paused or not;
    /// returns the moment it was gone.
    pub fn kill(&mut self, node: u32) -> Instant {
        kafka_cluster(&["kill", &node.to_string()]);
        // A paused node is killed too (SIGKILL ends a stopped process); it is then down, not paused.
        self.paused.retain(|&n| n != node);
        self.down.push(node);
        Instant::now()
    }

    /// Starts node `node` again (`kafka/cluster start-node`, which returns once it answers); returns how long
    /// that took.
    pub fn start_node(&mut self, node: u32) -> Duration {
        let started = Instant::now();
        kafka_cluster(&["start-node", &node.to_string()]);
        self.down.retain(|&n| n != node);
        started.elapsed()
    }

    /// [`start_node`](Self::start_node) on a thread of its own, while the test goes on; the thread returns how
    /// long the start took.
    pub fn start_node_in_background(&mut self, node: u32) -> JoinHandle<Duration> {
        self.down.retain(|&n| n != node);
        std::thread::spawn(move || {
            let started = Instant::now();
            kafka_cluster(&["start-node", &node.to_string()]);
            started.elapsed()
        })
    }

    /// `kafka/cluster rolling-restart` on a thread of its own while the test goes on: each node in turn stopped
    /// (a controlled shutdown), started and waited for until no partition is under-replicated, the active
    /// controller last. The thread returns the command's report (a line per node and step) or its error. A
    /// failed restart can leave a node down: the next test's [`kill`](Self::kill)s and checks then fail, and
    /// `scripts/cluster-faults.sh` stops the cluster at the end either way.
    pub fn rolling_restart_in_background(&self) -> JoinHandle<Result<String, String>> {
        std::thread::spawn(|| try_kafka_cluster(&["rolling-restart"]))
    }

    /// SIGSTOPs node `node` (`kafka/cluster pause`, which returns once `/proc` shows it stopped): alive, its
    /// connections open, but silent, as a node cut off the network.
    pub fn pause(&mut self, node: u32) -> Instant {
        kafka_cluster(&["pause", &node.to_string()]);
        self.paused.push(node);
        Instant::now()
    }

    /// SIGCONTs node `node` (`kafka/cluster resume`).
    pub fn resume(&mut self, node: u32) {
        kafka_cluster(&["resume", &node.to_string()]);
        self.paused.retain(|&n| n != node);
    }

    /// Waits until no partition is under-replicated (`kafka/cluster in-sync`: every replica back in its ISR, at
    /// most `KAFKA_IN_SYNC_TIMEOUT`, 120 s); returns how long that took.
    pub fn in_sync(&self) -> Duration {
        let started = Instant::now();
        kafka_cluster(&["in-sync"]);
        started.elapsed()
    }

    /// The active controller: the node leading the metadata quorum (`kafka/cluster controller`).
    pub fn controller(&self) -> u32 {
        self.node_id(&["controller"])
    }

    /// The node leading `topic`-`partition`: `kafka/cluster leader`, or, while a node is paused, a metadata
    /// request to the nodes that are not ([`Cluster::leader_from_metadata`]). `kafka/cluster leader`'s
    /// TopicCommand also lists the partition's reassignments, which a broker forwards to the active controller: a
    /// paused controller holds those up until the broker gives up on it (40 s to over a minute in clean-clone
    /// runs), where a broker answers metadata from its own cache. Only the plaintext cluster's tests pause nodes.
    pub fn leader(&self, topic: &str, partition: i32) -> u32 {
        if self.paused.is_empty() {
            self.node_id(&["leader", topic, &partition.to_string()])
        } else {
            self.leader_from_metadata(topic, partition)
        }
    }

    /// The leader of `topic`-`partition` in the metadata of the nodes that are not paused, asked again
    /// ([`ask_until_answered`], each request given 5 s) while the request fails or names no leader. The
    /// brokers' metadata names a paused leader until the controller fences it (`broker.session.timeout.ms`).
    fn leader_from_metadata(&self, topic: &str, partition: i32) -> u32 {
        let answering: Vec<&str> = (1..)
            .zip(self.bootstrap.split(','))
            .filter(|(node, _)| !self.paused.contains(node))
            .map(|(_, address)| address)
            .collect();
        let servers = answering.join(",");
        let consumer: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", &servers)
            .create()
            .unwrap_or_else(|e| panic!("a metadata client of {servers}: {e}"));
        ask_until_answered(|| {
            consumer
                .fetch_metadata(Some(topic), Duration::from_secs(5))
                .map_err(|e| e.to_string())
                .and_then(|metadata| {
                    metadata
                        .topics()
                        .iter()
                        .filter(|t| t.name() == topic)
                        .flat_map(|t| t.partitions())
                        .find(|p| p.id() == partition)
                        .and_then(|p| u32::try_from(p.leader()).ok())
                        .ok_or_else(|| "no leader in the metadata".to_owned())
                })
                .map_err(|error| {
                    format!("the leader of {topic}-{partition} from {servers}: {error}")
                })
        })
    }

    /// The node coordinating the transactions of `transactional_id` (`kafka/cluster coordinator`); the id must
    /// have been used (`init_transactions`).
    pub fn coordinator(&self, transactional_id: &str) -> u32 {
        self.node_id(&["coordinator", transactional_id])
    }

    /// Creates `topic` with [`PARTITIONS`] partitions of the cluster's default replication (three) and waits
    /// until each has a leader.
    pub fn create_topic(&self, topic: &str) {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.bootstrap);
        self.create_topic_with(&config, topic);
    }

    /// [`create_topic`](Self::create_topic) through an admin client of `config` (e.g. a secured cluster's super
    /// user: `bootstrap.servers` and the connection settings).
    pub fn create_topic_with(&self, config: &ClientConfig, topic: &str) {
        let spec = TopicSpec {
            replication: -1,
            ..TopicSpec::new(topic, PARTITIONS)
        };
        let created = Topics::new(config, TIMEOUT)
            .and_then(|topics| topics.create(&spec))
            .unwrap_or_else(|e| panic!("create topic {topic} on the cluster: {e}"));
        assert!(created, "create topic {topic}: it exists already");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for node in std::mem::take(&mut self.paused) {
            if let Err(error) = try_kafka_cluster(&["resume", &node.to_string()]) {
                eprintln!("after the test: {error}");
            }
        }
        for node in std::mem::take(&mut self.down) {
            // A failed test may leave a node down; the next one needs all three. No panic while panicking.
            if let Err(error) = try_kafka_cluster(&["start-node", &node.to_string()]) {
                eprintln!("after the test: {error}");
            }
        }
    }
}

/// The state of `transactional_id`'s transaction as its coordinator reports it, with how many partitions it
/// spans (`Ongoing (4 partitions)`): Kafka's `TransactionsCommand describe` (a JVM with the broker's jars, through `kafka/broker tool`),
/// asking node `node` only (the `node`-th address of the cluster's `bootstrap`, as `kafka/cluster bootstrap`
/// lists them), each request given up after 1 s, so that a paused node cannot hold it up for long. `Ongoing` while
/// the coordinator has not written `PrepareCommit` (also while that record waits for its replicas),
/// `PrepareCommit` while it writes the commit markers, `CompleteCommit` once they are written.
pub fn transaction_state(
    bootstrap: &str,
    node: u32,
    transactional_id: &str,
) -> Result<String, String> {
    let address = bootstrap
        .split(',')
        .nth(node as usize - 1)
        .ok_or_else(|| format!("node {node} is not in {bootstrap}"))?;
    // The admin client sends some requests to any node it knows: a silent one is given up after 1 s.
    let settings = std::env::temp_dir().join(format!("{}.properties", unique("describe")));
    std::fs::write(&settings, "request.timeout.ms=1000\nretry.backoff.ms=100\n")
        .map_err(|e| format!("write {}: {e}", settings.display()))?;
    let table = try_script(
        "broker",
        &[
            "tool",
            "org.apache.kafka.tools.TransactionsCommand",
            "--bootstrap-server",
            address,
            "--command-config",
            &settings.to_string_lossy(),
            "describe",
            "--transactional-id",
            transactional_id,
        ],
    );
    let _ = std::fs::remove_file(&settings);
    let table = table?;
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let row: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .map(|i| row.get(i).map_or("", |v| v.trim()).to_owned())
            .ok_or_else(|| format!("no {name} in the describe output: {table}"))
    };
    let partitions = column("TopicPartitions")?;
    Ok(format!(
        "{} ({} partitions)",
        column("TransactionState")?,
        partitions.split(',').filter(|p| !p.is_empty()).count()
    ))
}

/// `ask()`'s answer, asked again every 500 ms while it fails (its error printed), for up to [`TIMEOUT`]; panics
/// with the last error after that.
fn ask_until_answered<T>(mut ask: impl FnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        match ask() {
            Ok(answer) => return answer,
            Err(error) if Instant::now() < deadline => {
                eprintln!("{error}; asking again");
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(error) => panic!("{error}"),
        }
    }
}

/// Runs `kafka/cluster ARGS` (with this process's environment, e.g. `KAFKA_CLUSTER_HOME`) and returns its
/// standard output, trimmed, or what it printed when it failed.
fn try_kafka_cluster(args: &[&str]) -> Result<String, String> {
    try_script("cluster", args)
}

/// Runs `kafka/NAME ARGS` as [`try_kafka_cluster`] runs `kafka/cluster`.
fn try_script(name: &str, args: &[&str]) -> Result<String, String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../kafka")
        .join(name);
    let output = Command::new(&script)
        .args(args)
        .output()
        .map_err(|e| format!("run {}: {e}", script.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    if output.status.success() {
        return Ok(stdout);
    }
    Err(format!(
        "kafka/{name} {} failed ({}): {stdout}\n{}",
        args.join(" "),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// [`try_kafka_cluster`], panicking when the script fails.
fn kafka_cluster(args: &[&str]) -> String {
    try_kafka_cluster(args).unwrap_or_else(|error| panic!("{error}"))
}

/// A name no other test run uses: `reliability-NAME-PID-NANOS`.
pub fn unique(name: &str) -> String {
    kafka_util::unique_name("reliability", name)
}

/// Rows `first .. first + count` as Flink JSON with key `{"id":n}` and value `{"id":n,"name":"row-n"}`.
pub fn records(first: i64, count: i64) -> EncodedRecords {
    let ids: Vec<i64> = (first..first + count).collect();
    let names: Vec<String> = ids.iter().map(|i| format!("row-{i}")).collect();
    let batch = RecordBatch::try_from_iter([
        ("id", Arc::new(Int64Array::from(ids)) as _),
        ("name", Arc::new(StringArray::from(names)) as _),
    ])
    .expect("two columns of one length");
    let options = EncoderOptions::from_pairs([("key.fields", "id")]).expect("valid options");
    JsonEncoder::new(options)
        .and_then(|mut encoder| encoder.encode(&batch))
        .expect("plain columns encode")
}

/// The value bytes [`records`] writes for row `id`.
pub fn value_of(id: i64) -> Vec<u8> {
    format!("{{\"id\":{id},\"name\":\"row-{id}\"}}").into_bytes()
}

/// What the caller of a [`Writer`]'s sink saw.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// How long each `checkpoint` (or `commit`) call took, in call order, failed ones too.
    pub checkpoints: Vec<Duration>,
    /// Every error a sink call returned, as displayed.
    pub errors: Vec<String>,
    /// Rows written again after a recovery.
    pub replayed_rows: i64,
}

impl Report {
    /// The longest checkpoint call.
    pub fn longest_checkpoint(&self) -> Duration {
        self.checkpoints.iter().copied().max().unwrap_or_default()
    }

    /// The median checkpoint call.
    pub fn median_checkpoint(&self) -> Duration {
        let mut sorted = self.checkpoints.clone();
        sorted.sort();
        sorted.get(sorted.len() / 2).copied().unwrap_or_default()
    }
}

/// An exactly-once writer of rows `0, 1, 2, ...` over a [`Sink`], in intervals of at most [`INTERVAL`] rows,
/// checkpoint `n` ending the `n + 1`-th interval with the next row id as the source position.
pub struct Writer {
    sink: Sink,
    /// The first row not covered by the last committed checkpoint.
    committed_rows: i64,
    /// The id of the next checkpoint.
    next_checkpoint: u64,
    /// Rows written since the last committed checkpoint.
    pending: i64,
    /// What the caller saw so far.
    pub report: Report,
}

impl Writer {
    /// A sink for `writer` on `bootstrap` (exactly once, `transaction_timeout`, `linger.ms=5`, librdkafka's
    /// defaults otherwise), resumed from its last committed checkpoint.
    pub fn open(
        bootstrap: &str,
        topic: &str,
        progress: &str,
        writer: &str,
        transaction_timeout: Duration,
    ) -> Self {
        Self::open_with(Self::config(
            bootstrap,
            topic,
            progress,
            writer,
            transaction_timeout,
        ))
    }

    /// The sink configuration of [`open`](Self::open), for a caller that adds properties (e.g. the connection
    /// settings of a secured cluster) before [`open_with`](Self::open_with).
    pub fn config(
        bootstrap: &str,
        topic: &str,
        progress: &str,
        writer: &str,
        transaction_timeout: Duration,
    ) -> SinkConfig {
        SinkConfig::new(bootstrap, topic, progress, writer)
            .with_mode(DeliveryGuarantee::ExactlyOnce)
            .with_transaction_timeout(transaction_timeout)
            .with_property("linger.ms", "5")
    }

    /// A writer over a sink of `config`, resumed from its last committed checkpoint.
    pub fn open_with(config: SinkConfig) -> Self {
        let bootstrap = config.bootstrap_servers.clone();
        let sink = Sink::new(config).unwrap_or_else(|e| panic!("Sink::new on {bootstrap}: {e}"));
        let mut writer = Self {
            sink,
            committed_rows: 0,
            next_checkpoint: 0,
            pending: 0,
            report: Report::default(),
        };
        writer.recover();
        writer
    }

    /// The sink's `transactional.id`.
    pub fn transactional_id(&self) -> String {
        self.sink.config().transactional_id()
    }

    /// The first row not covered by the last committed checkpoint.
    pub fn committed_rows(&self) -> i64 {
        self.committed_rows
    }

    /// Writes the next `count` rows into the open transaction. On an error that asks for a replay it recovers
    /// (the rows are written again by the next calls) and returns the error.
    pub fn write(&mut self, count: i64) -> Result<(), Error> {
        let first = self.committed_rows + self.pending;
        let result = self.sink.write(&records(first, count));
        match result {
            Ok(()) => {
                self.pending += count;
                Ok(())
            }
            Err(error) => Err(self.failed(error)),
        }
    }

    /// [`Sink::flush`]: every row written so far reached the log (acknowledged by `acks=all`), uncommitted.
    pub fn flush(&mut self) -> Result<(), Error> {
        match self.sink.flush() {
            Ok(()) => Ok(()),
            Err(error) => Err(self.failed(error)),
        }
    }

    /// Commits the open interval with the next checkpoint, timing the call. On an error that asks for a replay
    /// it recovers and returns the error.
    pub fn checkpoint(&mut self) -> Result<(), Error> {
        let position = (self.committed_rows + self.pending).to_string();
        let started = Instant::now();
        let result = self
            .sink
            .checkpoint(self.next_checkpoint, position.as_bytes());
        self.report.checkpoints.push(started.elapsed());
        self.settle(result)
    }

    /// [`Sink::prepare_commit`] of the next checkpoint (the open interval, the next row id as the position):
    /// every record acknowledged, nothing committed. On an error that asks for a replay it recovers and returns
    /// the error.
    pub fn prepare_commit(&mut self) -> Result<(), Error> {
        let position = (self.committed_rows + self.pending).to_string();
        match self
            .sink
            .prepare_commit(self.next_checkpoint, position.as_bytes())
        {
            Ok(()) => Ok(()),
            Err(error) => Err(self.failed(error)),
        }
    }

    /// [`Sink::commit`] of the checkpoint [`prepare_commit`](Self::prepare_commit) prepared, timed as a
    /// checkpoint call ([`Report::checkpoints`]). On an error that asks for a replay it recovers and returns the
    /// error.
    pub fn commit(&mut self) -> Result<(), Error> {
        let started = Instant::now();
        let result = self.sink.commit();
        self.report.checkpoints.push(started.elapsed());
        self.settle(result)
    }

    /// After a commit (`checkpoint` or `commit`): on success the interval counts as committed and the next
    /// checkpoint id is taken; on an error that asks for a replay, recovers and returns the error.
    fn settle(&mut self, result: Result<(), Error>) -> Result<(), Error> {
        match result {
            Ok(()) => {
                self.committed_rows += self.pending;
                self.pending = 0;
                self.next_checkpoint += 1;
                Ok(())
            }
            Err(error) => Err(self.failed(error)),
        }
    }

    /// Writes and commits intervals until `done()` holds after a commit, then `then` intervals more; returns
    /// the intervals committed. Errors as in [`run_until`](Self::run_until).
    pub fn run_while(&mut self, mut done: impl FnMut() -> bool, then: i64) -> i64 {
        let first = self.committed_rows;
        while !done() {
            self.run_until(self.committed_rows + INTERVAL, |_| {});
        }
        self.run_until(self.committed_rows + then * INTERVAL, |_| {});
        (self.committed_rows - first) / INTERVAL
    }

    /// Writes and commits intervals until rows `0 .. end` are committed, calling `after_commit` with the
    /// checkpoint id after each successful commit (where a test injects its fault). Errors that ask for a replay
    /// are recovered from (at most ten); any other error fails the test.
    pub fn run_until(&mut self, end: i64, mut after_commit: impl FnMut(u64)) {
        while self.committed_rows < end {
            let count = INTERVAL.min(end - self.committed_rows - self.pending);
            let done = self.write(count).and_then(|()| self.checkpoint());
            if done.is_ok() {
                after_commit(self.next_checkpoint - 1);
            }
            assert!(
                self.report.errors.len() <= 10,
                "too many errors: {:?}",
                self.report.errors
            );
        }
    }

    /// Records `error`, recovers when it asks for a replay (panics otherwise), and returns it.
    fn failed(&mut self, error: Error) -> Error {
        self.report.errors.push(error.to_string());
        assert!(error.requires_replay(), "an error without replay: {error}");
        self.recover();
        error
    }

    /// [`Sink::recover`]: resumes after the last committed checkpoint; what was written since is replayed.
    fn recover(&mut self) {
        let recovered = self
            .sink
            .recover()
            .unwrap_or_else(|e| panic!("recover: {e}"));
        let (rows, next) = match recovered {
            None => (0, 0),
            Some(progress) => (
                String::from_utf8(progress.source_position)
                    .ok()
                    .and_then(|p| p.parse().ok())
                    .expect("the position is a row id"),
                progress.checkpoint_id + 1,
            ),
        };
        self.report.replayed_rows += self.committed_rows + self.pending - rows;
        self.committed_rows = rows;
        self.next_checkpoint = next;
        self.pending = 0;
    }
}

/// Every record value of `topic` under `isolation` (`read_committed` or `read_uncommitted`), to the high
/// watermarks captured when the read starts; `read_committed` first waits until no transaction is open below
/// them.
pub fn read_values(bootstrap: &str, topic: &str, isolation: &str) -> Vec<Vec<u8>> {
    kafka_util::read_settled(bootstrap, topic, isolation, Instant::now() + TIMEOUT)
        .unwrap_or_else(|e| panic!("read {topic}: {e}"))
        .into_iter()
        .map(|record| record.value.unwrap_or_default())
        .collect()
}

/// Reads `topic` with `read_committed` ([`read_values`]) and asserts that it holds exactly rows `expected` of
/// [`records`]: every row once, none missing, nothing else. Returns how many records it read.
pub fn verify_exactly_once(bootstrap: &str, topic: &str, expected: Range<i64>) -> usize {
    verify_exactly_once_with(
        &kafka_util::consumer_config(bootstrap, "read_committed"),
        topic,
        expected,
    )
}

/// [`verify_exactly_once`] with a reader of `config` (`bootstrap.servers`, `isolation.level=read_committed`
/// and, on a secured cluster, the connection settings of a user that may read the topic).
pub fn verify_exactly_once_with(config: &ClientConfig, topic: &str, expected: Range<i64>) -> usize {
    let committed: Vec<Vec<u8>> =
        kafka_util::read_settled_with(config, topic, Instant::now() + TIMEOUT)
            .unwrap_or_else(|e| panic!("read {topic}: {e}"))
            .into_iter()
            .map(|record| record.value.unwrap_or_default())
            .collect();
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for value in &committed {
        *counts.entry(value.as_slice()).or_default() += 1;
    }
    let wanted: HashSet<Vec<u8>> = expected.clone().map(value_of).collect();
    let missing: Vec<i64> = expected
        .clone()
        .filter(|&id| !counts.contains_key(value_of(id).as_slice()))
        .collect();
    let duplicated: Vec<String> = counts
        .iter()
        .filter(|(_, &n)| n > 1)
        .map(|(v, n)| format!("{} x{n}", String::from_utf8_lossy(v)))
        .collect();
    let unexpected = counts.keys().filter(|v| !wanted.contains(**v)).count();
    assert!(
        missing.is_empty() && duplicated.is_empty() && unexpected == 0,
        "{topic}: read_committed read {} records for {} expected: {} missing {:?}, {} duplicated {:?}, {unexpected} unexpected",
        committed.len(),
        wanted.len(),
        missing.len(),
        &missing[..missing.len().min(10)],
        duplicated.len(),
        &duplicated[..duplicated.len().min(10)],
    );
    assert_eq!(committed.len(), wanted.len(), "{topic}: record count");
    committed.len()
}
