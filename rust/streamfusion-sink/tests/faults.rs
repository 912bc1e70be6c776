//! Fault tests against the real broker (issue #6 item 3): a writer process killed with SIGKILL after a flush and
//! right after a commit, an old instance paused with SIGSTOP while a new one commits and then resumed with
//! SIGCONT (it must be fenced), and a transaction that outlives `transaction.timeout.ms`. Each ends with
//! [`verify_exactly_once`]: `read_committed` to the end offsets captured when it starts holds exactly the
//! expected records, zero duplicates, zero missing.
//!
//! The killed and paused writers are `sink-fault-helper` processes (`src/bin/sink-fault-helper.rs`), driven over
//! stdin: each answer line means the call has returned, so the test kills or pauses at that exact point
//! instead of after a sleep. Needs a broker at `KAFKA_BOOTSTRAP_SERVERS` (default 127.0.0.1:19092;
//! `kafka/broker start`) and Linux (`/proc`, `kill`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{bootstrap, config, create_topic, read_all, records, unique, verify_exactly_once};
use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use streamfusion_sink::{Progress, Sink};

const PARTITIONS: i32 = 3;
/// Rows per checkpoint interval.
const INTERVAL: i64 = 100;
/// Bound on every wait for the helper.
const WAIT: Duration = Duration::from_secs(20);
/// Exit code of the helper after `Error::Fatal` (see `sink-fault-helper.rs`).
const EXIT_FATAL: i32 = 2;

/// A `sink-fault-helper` process. Dropping it kills it (SIGKILL also ends a stopped process) and reaps it.
struct Helper {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Helper {
    /// Starts the helper for `writer` and waits until its sink is built (`init_transactions` done).
    fn spawn(topic: &str, progress: &str, writer: &str, timeout: Duration) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sink-fault-helper"))
            .args([bootstrap().as_str(), topic, progress, writer])
            .arg(timeout.as_millis().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sink-fault-helper");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        let pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                let mut all = sink.lock().unwrap();
                all.push_str(&line);
                all.push('\n');
            }
        });
        let stdin = child.stdin.take();
        let mut helper = Self {
            child,
            stdin,
            lines,
            stderr,
        };
        helper.expect("ready");
        helper
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command line (without waiting for its answer).
    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{command}")
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("helper {}: send {command:?}: {e}", self.pid()));
    }

    /// The next answer line, within [`WAIT`].
    fn answer(&mut self) -> String {
        self.lines.recv_timeout(WAIT).unwrap_or_else(|e| {
            panic!(
                "helper {}: no answer within {WAIT:?} ({e}); stderr:\n{}",
                self.pid(),
                self.stderr.lock().unwrap()
            )
        })
    }

    /// Waits for the answer line `line`.
    fn expect(&mut self, line: &str) {
        let answer = self.answer();
        assert_eq!(
            answer,
            line,
            "helper {}: stderr:\n{}",
            self.pid(),
            self.stderr.lock().unwrap()
        );
    }

    /// Sends `command` and waits for the answer `line`: the call has returned in the helper.
    fn call(&mut self, command: &str, line: &str) {
        self.send(command);
        self.expect(line);
    }

    /// SIGKILL (`Child::kill`) and reap: the process dies wherever it is, nothing of it runs afterwards.
    fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        let status = self.child.wait().expect("reap the helper");
        assert!(!status.success(), "killed, not exited: {status:?}");
    }

    /// Sends `signal` (`STOP`, `CONT`) with `kill(1)` and waits until `/proc` shows the process stopped or not.
    fn signal(&mut self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid().to_string())
            .status()
            .expect("run kill");
        assert!(
            status.success(),
            "kill -{signal} {}: {status:?}",
            self.pid()
        );
        let stopped = signal == "STOP";
        let deadline = Instant::now() + WAIT;
        while self.is_stopped() != stopped {
            assert!(Instant::now() < deadline, "kill -{signal} took no effect");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Whether the process is stopped (state `T` in `/proc/<pid>/stat`).
    fn is_stopped(&self) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // pid (comm) state ...: the command may contain spaces and parentheses, the state follows the last ')'.
        let state = stat[stat.rfind(')').unwrap() + 1..].trim_start();
        state.starts_with('T')
    }

    /// Waits (at most [`WAIT`]) for the helper to exit on its own.
    fn exit_status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the helper did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn open(topic: &str, progress: &str, writer: &str, timeout: Duration) -> Sink {
    Sink::new(config(topic, progress, writer).with_transaction_timeout(timeout)).unwrap_or_else(
        |e| panic!("Sink::new for {topic} (is the broker up? run `kafka/broker start`): {e}"),
    )
}

/// The position and checkpoint id to resume from after `recovered` (the source position is the next row id).
fn resume_point(recovered: Option<Progress>) -> (i64, u64) {
    match recovered {
        None => (0, 0),
        Some(p) => (
            String::from_utf8(p.source_position)
                .unwrap()
                .parse()
                .unwrap(),
            p.checkpoint_id + 1,
        ),
    }
}

/// The writer's loop after a recovery: rows `from .. end` in intervals of [`INTERVAL`], one checkpoint each
/// (position = the next row), numbered from `next_id`.
fn replay(sink: &mut Sink, from: i64, end: i64, mut next_id: u64) {
    let mut position = from;
    while position < end {
        let count = INTERVAL.min(end - position);
        sink.write(&records(position, count)).unwrap();
        position += count;
        sink.checkpoint(next_id, position.to_string().as_bytes())
            .unwrap_or_else(|e| panic!("checkpoint {next_id}: {e}"));
        next_id += 1;
    }
}

const TIMEOUT_10S: Duration = Duration::from_secs(10);

#[test]
fn killed_after_flush_before_commit_the_interval_is_replayed_once() {
    let (topic, progress, writer) = (unique("kill-flush"), unique("kill-flush-p"), unique("w"));
    create_topic(&topic, PARTITIONS);
    let mut a = Helper::spawn(&topic, &progress, &writer, TIMEOUT_10S);
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
    let mut b = open(&topic, &progress, &writer, TIMEOUT_10S);
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
    let mut a = Helper::spawn(&topic, &progress, &writer, TIMEOUT_10S);
    a.call("write 0 100", "ok write");
    a.call("checkpoint 0 100", "ok checkpoint 0");
    a.call("write 100 100", "ok write");
    // Killed as soon as checkpoint 1 returned: the writer never acted on it.
    a.call("checkpoint 1 200", "ok checkpoint 1");
    a.kill();

    let mut b = open(&topic, &progress, &writer, TIMEOUT_10S);
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
    let mut a = Helper::spawn(&topic, &progress, &writer, TIMEOUT_10S);
    a.call("write 1000 50", "ok write");
    a.call("flush", "ok flush");
    a.signal("STOP");

    // B, same writer id: init_transactions fences A and aborts its transaction; B commits rows 0..50.
    let mut b = open(&topic, &progress, &writer, TIMEOUT_10S);
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
    let mut sink = open(&topic, &progress, &writer, timeout);
    replay(&mut sink, 0, 100, 0);
    sink.write(&records(100, 100)).unwrap();
    sink.flush().unwrap();
    let started = Instant::now();
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
