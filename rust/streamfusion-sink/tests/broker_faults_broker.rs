//! Fault tests that change the broker itself, so they run against a dedicated broker of this
//! test binary ([`Broker`]), never against the shared one at `KAFKA_BOOTSTRAP_SERVERS`:
//!
//! - the broker stopped (SIGTERM) between a flush and the commit, and started again while `checkpoint` waits;
//! - the broker frozen (SIGSTOP) while a commit is in flight, then SIGKILLed and started again;
//! - a writer idle past the broker's `transactional.id.expiration.ms` (6 s here) resumes, the same instance and a
//!   new one;
//! - the writer process SIGKILLed while its commit is in flight at the (frozen) broker.
//!
//! Each ends with [`verify_exactly_once_at`]: `read_committed` to the end offsets captured when it starts holds
//! exactly the expected rows, zero duplicates, zero missing.
//!
//! The dedicated broker is `kafka/broker` with its own `KAFKA_HOME_DIR` (under cargo's `target/tmp`), free ports,
//! a 256 MiB heap, and extra server properties through `KAFKA_EXTRA_PROPERTIES` ([`PROPERTIES`]); the jars are
//! the shared `kafka/lib` (fetched by the first `kafka/broker start` of the default broker, or here). The first
//! test starts it, the tests take it one at a time ([`test_broker`]), and a watchdog process stops it when this
//! test process ends, however it ends. A broker that cannot start fails the test. Needs Java 17+ and Linux
//! (`/proc`, `kill`).

mod common;

use std::ffi::OsStr;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use common::helper::{replay, resume_point, Helper, EXIT_ABORTED, EXIT_FATAL, INTERVAL};
use common::{create_topic_at, read_all_at, records, unique, verify_exactly_once_at};
use streamfusion_sink::{DeliveryGuarantee, Sink, SinkConfig};

const PARTITIONS: i32 = 3;
/// The transaction timeout of the writers that wait through a broker restart: longer than a restart (about
/// 10 s on a busy machine), shorter than the bound on waiting for their answer.
const RESTART_TXN_TIMEOUT: Duration = Duration::from_secs(40);
/// Bound on waiting for a `checkpoint` whose commit waits through a broker restart.
const COMMIT_WAIT: Duration = Duration::from_secs(60);
/// Producer settings of a writer that must find a restarted broker quickly: librdkafka's reconnect backoff
/// grows to 10 s by default.
const RECONNECT_FAST: &[&str] = &["reconnect.backoff.ms=50", "reconnect.backoff.max.ms=500"];
/// The broker's `transactional.id.expiration.ms` (set in [`PROPERTIES`]): only a transactional id without an
/// open transaction expires, so of these tests only the expiration test idles long enough. Long enough for one
/// `TransactionsCommand` (a JVM, 1.5-2.5 s on a loaded machine) to see the id before it expires.
const ID_EXPIRATION: Duration = Duration::from_secs(6);
/// The test broker's settings beyond `kafka/config/server.properties`: the short id expiration (checked every
/// 500 ms instead of every hour), and a broker restarted after SIGKILL may register again after 2 s instead of
/// 9 s (`broker.session.timeout.ms`: until then the controller keeps the dead one's registration).
const PROPERTIES: &str = "transactional.id.expiration.ms=6000
transaction.remove.expired.transaction.cleanup.interval.ms=500
broker.session.timeout.ms=2000
broker.heartbeat.interval.ms=500";

/// The broker of this test binary; `None` until the first test starts it.
static BROKER: Mutex<Option<Broker>> = Mutex::new(None);

/// The broker of this test binary, for one test: starts it on first use, and revives it when the previous test
/// failed (it may have left it frozen or down). Holding it serialises the tests.
fn test_broker() -> TestBroker {
    let mut guard = BROKER.lock().unwrap_or_else(PoisonError::into_inner);
    match guard.as_mut() {
        None => *guard = Some(Broker::start()),
        Some(broker) if broker.suspect => {
            broker.signal_if_running("CONT");
            broker.restart();
            broker.suspect = false;
        }
        Some(_) => {}
    }
    TestBroker(guard)
}

/// One test's hold on the broker ([`test_broker`]). When the test fails, dropping it marks the broker for
/// revival and keeps its home (logs, data) after the run.
struct TestBroker(MutexGuard<'static, Option<Broker>>);

impl std::ops::Deref for TestBroker {
    type Target = Broker;

    fn deref(&self) -> &Broker {
        self.0.as_ref().expect("started by test_broker")
    }
}

impl Drop for TestBroker {
    fn drop(&mut self) {
        if let (true, Some(broker)) = (std::thread::panicking(), self.0.as_mut()) {
            broker.suspect = true;
            let _ = std::fs::write(broker.home.join("keep"), "a test failed\n");
            eprintln!(
                "test broker's home kept for inspection: {}",
                broker.home.display()
            );
        }
    }
}

/// The dedicated broker: `kafka/broker` with its own home, ports and [`PROPERTIES`].
struct Broker {
    home: PathBuf,
    port: u16,
    controller_port: u16,
    /// A test failed while holding it: it may be frozen or down.
    suspect: bool,
}

impl Broker {
    /// Starts a fresh broker (a new cluster) and waits until it answers a metadata request; panics with the
    /// script's output when it does not start. First it starts the watchdog: a shell in a process group of its
    /// own (spared by a Ctrl-C of the test run) that waits for this test process to end, then stops the broker
    /// (resuming it first, should a test have left it frozen) and deletes its home unless a failed test left a
    /// `keep` file there.
    #[allow(
        clippy::zombie_processes,
        reason = "the watchdog outlives this process; it exits only after this process has"
    )]
    fn start() -> Self {
        let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("faults-broker-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        let [port, controller_port] = free_ports();
        let broker = Self {
            home,
            port,
            controller_port,
            suspect: false,
        };
        broker
            .with_env("sh")
            .arg("-c")
            .arg(
                r#"while kill -0 "$1" 2>/dev/null; do sleep 0.5; done
pid=$(cat "$KAFKA_HOME_DIR/run/kafka.pid" 2>/dev/null) && kill -CONT "$pid" 2>/dev/null
"$2" stop; [ -e "$KAFKA_HOME_DIR/keep" ] || rm -rf "$KAFKA_HOME_DIR""#,
            )
            .arg("watchdog")
            .arg(std::process::id().to_string())
            .arg(Self::script_path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start the broker's watchdog (sh)");
        broker.restart();
        broker
    }

    fn script_path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../kafka/broker")
    }

    /// `program` with this broker's `kafka/broker` environment.
    fn with_env(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env("KAFKA_HOME_DIR", &self.home)
            .env("KAFKA_HOST", "127.0.0.1")
            .env("KAFKA_PORT", self.port.to_string())
            .env("KAFKA_CONTROLLER_PORT", self.controller_port.to_string())
            .env("KAFKA_HEAP_OPTS", "-Xms256m -Xmx256m")
            .env("KAFKA_EXTRA_PROPERTIES", PROPERTIES)
            .env("KAFKA_START_TIMEOUT", "60")
            .env("KAFKA_STOP_TIMEOUT", "20");
        command
    }

    fn bootstrap(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Runs `kafka/broker COMMAND` for this broker.
    fn script(&self, command: &str) -> Output {
        self.with_env(Self::script_path())
            .arg(command)
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", Self::script_path().display()))
    }

    /// `kafka/broker start`: starts the broker (again) and waits until it answers.
    fn restart(&self) {
        let output = self.script("start");
        assert!(
            output.status.success(),
            "the dedicated test broker did not start (kafka/broker start, KAFKA_HOME_DIR={}, port {}): {}\n{}",
            self.home.display(),
            self.port,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// `kafka/broker stop`: SIGTERM (a controlled shutdown), waits until the process is gone.
    fn stop(&self) {
        let output = self.script("stop");
        assert!(
            output.status.success(),
            "kafka/broker stop: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// The broker JVM's pid (`run/kafka.pid`, written by `kafka/broker start`).
    fn pid(&self) -> String {
        let file = self.home.join("run/kafka.pid");
        std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .trim()
            .to_owned()
    }

    /// Sends `signal` (`STOP`, `CONT`, `KILL`) to the broker JVM.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{signal} the broker: {status:?}");
    }

    /// Sends `signal` to the broker JVM if `run/kafka.pid` names one (no panic: for reviving after a failure).
    fn signal_if_running(&self, signal: &str) {
        if let Ok(pid) = std::fs::read_to_string(self.home.join("run/kafka.pid")) {
            let _ = Command::new("kill")
                .arg(format!("-{signal}"))
                .arg(pid.trim())
                .status();
        }
    }

    /// SIGKILL, then waits until nothing listens on the client port any more.
    fn kill(&self) {
        self.signal("KILL");
        wait_for(
            "the killed broker's port to close",
            Duration::from_secs(20),
            || std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err(),
        );
    }

    /// Bytes that clients sent to the broker and it has not read yet (the receive queues of its client
    /// connections in `/proc/net/tcp6`, where the JVM's dual-stack sockets are, and `/proc/net/tcp`): requests
    /// waiting at a frozen broker.
    fn unread_request_bytes(&self) -> u64 {
        let table = ["/proc/net/tcp6", "/proc/net/tcp"]
            .map(|file| std::fs::read_to_string(file).unwrap_or_default())
            .concat();
        assert!(
            !table.is_empty(),
            "neither /proc/net/tcp6 nor /proc/net/tcp"
        );
        table
            .lines()
            .filter(|line| !line.trim_start().starts_with("sl"))
            .filter_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let local_port = u16::from_str_radix(fields[1].rsplit(':').next()?, 16).ok()?;
                let established = fields[3] == "01";
                let rx_queue = u64::from_str_radix(fields[4].rsplit(':').next()?, 16).ok()?;
                (local_port == self.port && established).then_some(rx_queue)
            })
            .sum()
    }

    /// Whether the coordinator still knows `transactional_id` (Kafka's `TransactionsCommand describe`, run
    /// with the broker's jars: `KAFKA_LIB_DIR`, as `kafka/broker` takes it, or `kafka/lib`).
    fn knows_transactional_id(&self, transactional_id: &str) -> bool {
        let kafka = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../kafka");
        let lib =
            std::env::var_os("KAFKA_LIB_DIR").map_or_else(|| kafka.join("lib"), PathBuf::from);
        let java = std::env::var_os("JAVA_HOME")
            .map(|home| PathBuf::from(home).join("bin/java"))
            .filter(|java| java.exists())
            .unwrap_or_else(|| PathBuf::from("java"));
        let output = Command::new(java)
            .args(["-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"])
            .arg(format!(
                "-Dlog4j2.configurationFile={}",
                kafka.join("config/tools-log4j2.xml").display()
            ))
            .arg("-cp")
            .arg(lib.join("*"))
            .arg("org.apache.kafka.tools.TransactionsCommand")
            .args(["--bootstrap-server", &self.bootstrap()])
            .args(["describe", "--transactional-id", transactional_id])
            .output()
            .expect("run TransactionsCommand");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        if output.status.success() {
            assert!(text.contains(transactional_id), "describe: {text}");
            return true;
        }
        assert!(
            text.contains("could not be found"),
            "TransactionsCommand describe {transactional_id}: {text}"
        );
        false
    }
}

/// Two different TCP ports nothing listens on right now (the kernel's choice of ephemeral ports, both bound
/// until both are known, so they differ).
fn free_ports() -> [u16; 2] {
    let bind = || TcpListener::bind("127.0.0.1:0").expect("bind an ephemeral port");
    let (first, second) = (bind(), bind());
    let port = |listener: &TcpListener| listener.local_addr().expect("local address").port();
    [port(&first), port(&second)]
}

/// Polls `condition` every 50 ms until it holds; panics after `limit`. Returns how long it took.
fn wait_for(what: &str, limit: Duration, mut condition: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !condition() {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    started.elapsed()
}

fn open(bootstrap: &str, topic: &str, progress: &str, writer: &str, timeout: Duration) -> Sink {
    let config = SinkConfig::new(bootstrap, topic, progress, writer)
        .with_mode(DeliveryGuarantee::ExactlyOnce)
        .with_transaction_timeout(timeout)
        .with_property("linger.ms", "5");
    Sink::new(config).unwrap_or_else(|e| panic!("Sink::new on the test broker {bootstrap}: {e}"))
}

/// Commits interval 0 (rows 0..100) in `helper`, then writes and flushes interval 1 (rows 100..200): its
/// transaction is open and its records are in the log.
fn commit_one_and_flush_the_next(helper: &mut Helper) {
    helper.call("write 0 100", "ok write");
    helper.call("checkpoint 0 100", "ok checkpoint 0");
    helper.call("write 100 100", "ok write");
    helper.call("flush", "ok flush");
}

/// After a `checkpoint 1 200` that was interrupted by a fault and then answered `answer`: finishes rows up to
/// 300 the way a writer would (the helper goes on after `ok`; after an error a new instance recovers and
/// replays), checks that the recovered progress agrees with the answer, and verifies rows 0..300 exactly once.
/// Returns the checkpoint `recover` returned to the new instance.
fn finish_after_interrupted_commit(
    broker: &Broker,
    names: (&str, &str, &str),
    mut helper: Helper,
    answer: &str,
) -> (i64, u64) {
    let (topic, progress, writer) = names;
    if answer == "ok checkpoint 1" {
        helper.call("write 200 100", "ok write");
        helper.call("checkpoint 2 300", "ok checkpoint 2");
    } else {
        assert!(
            answer.starts_with("err fatal ") || answer.starts_with("err aborted "),
            "the interrupted commit must succeed or ask for a replay: {answer}"
        );
        let code = if answer.starts_with("err fatal ") {
            EXIT_FATAL
        } else {
            EXIT_ABORTED
        };
        assert_eq!(helper.exit_status().code(), Some(code), "after {answer}");
    }
    drop(helper);
    let mut sink = open(
        &broker.bootstrap(),
        topic,
        progress,
        writer,
        Duration::from_secs(20),
    );
    let recovered = resume_point(sink.recover().unwrap());
    if answer == "ok checkpoint 1" {
        assert_eq!(recovered, (300, 3), "the helper committed checkpoint 2");
    } else {
        // Fatal: the new instance's init_transactions settled the commit either way; recover says which.
        assert!(
            [(100, 1), (200, 2)].contains(&recovered),
            "recover after {answer}: {recovered:?}"
        );
    }
    replay(&mut sink, recovered.0, 300, recovered.1);
    assert_eq!(
        verify_exactly_once_at(&broker.bootstrap(), topic, PARTITIONS, 0..300),
        300
    );
    recovered
}

#[test]
fn broker_stopped_between_flush_and_commit_the_commit_waits_for_its_restart() {
    let broker = test_broker();
    let started = Instant::now();
    let (topic, progress, writer) = (unique("restart"), unique("restart-p"), unique("w"));
    create_topic_at(&broker.bootstrap(), &topic, PARTITIONS);
    let mut helper = Helper::spawn_at(
        &broker.bootstrap(),
        &topic,
        &progress,
        &writer,
        RESTART_TXN_TIMEOUT,
        RECONNECT_FAST,
    );
    commit_one_and_flush_the_next(&mut helper);

    broker.stop();
    let down = Instant::now();
    // The commit starts while the broker is down and must wait (retrying) until it is back.
    helper.send("checkpoint 1 200");
    helper.assert_still_running("checkpoint 1 while the broker is down");
    broker.restart();
    let answer = helper.answer_within(COMMIT_WAIT);
    let commit_took = down.elapsed();
    assert_eq!(
        answer, "ok checkpoint 1",
        "a commit that waits through a broker restart (within the transaction timeout) succeeds"
    );
    let recovered =
        finish_after_interrupted_commit(&broker, (&topic, &progress, &writer), helper, &answer);
    assert_eq!(recovered, (300, 3));
    eprintln!(
        "restart: checkpoint 1 answered {answer:?} {commit_took:?} after the stop; test took {:?}",
        started.elapsed()
    );
}

#[test]
fn broker_killed_while_a_commit_is_in_flight_the_outcome_is_exactly_once() {
    let broker = test_broker();
    let started = Instant::now();
    let (topic, progress, writer) = (unique("bkill"), unique("bkill-p"), unique("w"));
    create_topic_at(&broker.bootstrap(), &topic, PARTITIONS);
    let mut helper = Helper::spawn_at(
        &broker.bootstrap(),
        &topic,
        &progress,
        &writer,
        RESTART_TXN_TIMEOUT,
        RECONNECT_FAST,
    );
    commit_one_and_flush_the_next(&mut helper);

    // Frozen, the broker accepts the commit's requests into its sockets but never answers: the commit is in
    // flight for as long as we like. Then the broker dies without a controlled shutdown.
    broker.signal("STOP");
    // Frozen, the broker reads nothing: the count can only grow from here.
    let before = broker.unread_request_bytes();
    helper.send("checkpoint 1 200");
    wait_for(
        "the commit's requests to reach the frozen broker",
        Duration::from_secs(20),
        || broker.unread_request_bytes() > before,
    );
    helper.assert_still_running("checkpoint 1 at the frozen broker");
    broker.kill();
    let down = Instant::now();
    broker.restart();
    let answer = helper.answer_within(COMMIT_WAIT);
    let commit_took = down.elapsed();
    let recovered =
        finish_after_interrupted_commit(&broker, (&topic, &progress, &writer), helper, &answer);
    eprintln!(
        "broker SIGKILL: checkpoint 1 answered {answer:?} {commit_took:?} after the kill, recover gave \
         {recovered:?}; test took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_writer_idle_past_the_transactional_id_expiration_resumes() {
    let broker = test_broker();
    let started = Instant::now();
    let bootstrap = broker.bootstrap();
    let (topic, progress, writer) = (unique("expiry"), unique("expiry-p"), unique("w"));
    create_topic_at(&bootstrap, &topic, PARTITIONS);
    let timeout = Duration::from_secs(10);
    let mut a = open(&bootstrap, &topic, &progress, &writer, timeout);
    let transactional_id = a.config().transactional_id();
    replay(&mut a, 0, INTERVAL, 0);
    let committed = Instant::now();
    // Known right after the commit (unless the check itself took past the expiration).
    let known = broker.knows_transactional_id(&transactional_id);
    assert!(
        known || committed.elapsed() >= ID_EXPIRATION,
        "the coordinator does not know {transactional_id} after its commit"
    );
    // It cannot expire sooner; polling starts then (each poll is a JVM).
    std::thread::sleep(ID_EXPIRATION.saturating_sub(committed.elapsed()));
    wait_for(
        "the transactional id to expire",
        Duration::from_secs(30),
        || !broker.knows_transactional_id(&transactional_id),
    );
    let expired = committed.elapsed();

    // The same instance goes on: its producer id and epoch belong to an id the coordinator forgot.
    a.write(&records(100, 100)).unwrap();
    let first_try = a.checkpoint(1, b"200");
    if let Err(error) = &first_try {
        assert!(error.requires_replay(), "{error:?}");
        assert_eq!(
            resume_point(a.recover().unwrap()),
            (100, 1),
            "after {error}"
        );
        replay(&mut a, 100, 200, 1);
    }
    assert_eq!(resume_point(a.recover().unwrap()), (200, 2));

    // A new instance after the id expired again: a fresh producer id; the progress comes from the topic.
    std::thread::sleep(ID_EXPIRATION);
    wait_for(
        "the transactional id to expire again",
        Duration::from_secs(30),
        || !broker.knows_transactional_id(&transactional_id),
    );
    drop(a);
    let mut b = open(&bootstrap, &topic, &progress, &writer, timeout);
    let recovered = resume_point(b.recover().unwrap());
    assert_eq!(recovered, (200, 2), "recover after the id expired");
    replay(&mut b, 200, 300, 2);
    let committed = Instant::now();
    let known = broker.knows_transactional_id(&transactional_id);
    assert!(
        known || committed.elapsed() >= ID_EXPIRATION,
        "the coordinator does not know {transactional_id} again after the new instance's commit"
    );
    assert_eq!(
        verify_exactly_once_at(&bootstrap, &topic, PARTITIONS, 0..300),
        300
    );
    eprintln!(
        "expiry: id gone {expired:?} after the commit; same instance's next checkpoint: {:?}; test took {:?}",
        first_try.map_err(|e| e.to_string()),
        started.elapsed()
    );
}

#[test]
fn writer_killed_while_its_commit_is_in_flight_ends_exactly_once() {
    let broker = test_broker();
    let started = Instant::now();
    let bootstrap = broker.bootstrap();
    let (topic, progress, writer) = (unique("wkill"), unique("wkill-p"), unique("w"));
    create_topic_at(&bootstrap, &topic, PARTITIONS);
    let mut helper = Helper::spawn_at(
        &bootstrap,
        &topic,
        &progress,
        &writer,
        Duration::from_secs(10),
        &[],
    );
    commit_one_and_flush_the_next(&mut helper);

    // The commit is in flight (its requests wait at the frozen broker) when the writer dies; the broker then
    // reads and serves them for a writer that no longer exists.
    broker.signal("STOP");
    // Frozen, the broker reads nothing: the count can only grow from here.
    let before = broker.unread_request_bytes();
    helper.send("checkpoint 1 200");
    wait_for(
        "the commit's requests to reach the frozen broker",
        Duration::from_secs(20),
        || broker.unread_request_bytes() > before,
    );
    helper.assert_still_running("checkpoint 1 at the frozen broker");
    helper.kill();
    broker.signal("CONT");

    let mut sink = open(
        &bootstrap,
        &topic,
        &progress,
        &writer,
        Duration::from_secs(10),
    );
    let recovered = resume_point(sink.recover().unwrap());
    assert!(
        [(100, 1), (200, 2)].contains(&recovered),
        "recover: {recovered:?}"
    );
    replay(&mut sink, recovered.0, 300, recovered.1);
    assert_eq!(
        verify_exactly_once_at(&bootstrap, &topic, PARTITIONS, 0..300),
        300
    );
    // Rows 100..200 are in the log twice (aborted, then replayed) exactly when recover returned checkpoint 0.
    let in_log = read_all_at(&bootstrap, &topic, "read_uncommitted").len();
    let replayed_twice = if recovered == (100, 1) { 100 } else { 0 };
    assert_eq!(in_log, 300 + replayed_twice, "recover gave {recovered:?}");
    eprintln!(
        "writer SIGKILL mid-commit: recover gave {recovered:?}; test took {:?}",
        started.elapsed()
    );
}
