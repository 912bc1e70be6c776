//! The fault tests' writer: `sink-fault-helper` as a child process driven over stdin ([`Helper`]), and the
//! writer's loop after a recovery ([`resume_point`], [`replay`]). The source is "rows 0, 1, 2, ...", the
//! source position the next row id, intervals of [`INTERVAL`] rows.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use streamfusion_sink::{Progress, Sink};

use super::{bootstrap, records};

/// Rows per checkpoint interval.
pub const INTERVAL: i64 = 100;
/// Bound on every wait for the helper.
pub const WAIT: Duration = Duration::from_secs(20);
/// Exit code of the helper after `Error::Fatal` (see `sink-fault-helper.rs`).
pub const EXIT_FATAL: i32 = 2;
/// Exit code of the helper after `Error::Aborted`.
pub const EXIT_ABORTED: i32 = 3;

/// A `sink-fault-helper` process. Dropping it kills it (SIGKILL also ends a stopped process) and reaps it.
pub struct Helper {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Helper {
    /// Starts the helper for `writer` on the broker at [`bootstrap`] and waits until its sink is built
    /// (`init_transactions` done).
    pub fn spawn(topic: &str, progress: &str, writer: &str, timeout: Duration) -> Self {
        Self::spawn_at(&bootstrap(), topic, progress, writer, timeout, &[])
    }

    /// [`spawn`](Self::spawn) on the broker at `bootstrap`, with extra `KEY=VALUE` producer `properties`.
    pub fn spawn_at(
        bootstrap: &str,
        topic: &str,
        progress: &str,
        writer: &str,
        timeout: Duration,
        properties: &[&str],
    ) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sink-fault-helper"))
            .args([bootstrap, topic, progress, writer])
            .arg(timeout.as_millis().to_string())
            .args(properties)
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

    /// The helper's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one command line (without waiting for its answer).
    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{command}")
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("helper {}: send {command:?}: {e}", self.pid()));
    }

    /// The next answer line, within [`WAIT`].
    pub fn answer(&mut self) -> String {
        self.answer_within(WAIT)
    }

    /// The next answer line, within `limit`.
    pub fn answer_within(&mut self, limit: Duration) -> String {
        self.lines.recv_timeout(limit).unwrap_or_else(|e| {
            panic!(
                "helper {}: no answer within {limit:?} ({e}); stderr:\n{}",
                self.pid(),
                self.stderr.lock().unwrap()
            )
        })
    }

    /// Asserts that the last command has not been answered: its call is still running in the helper.
    pub fn assert_still_running(&mut self, what: &str) {
        if let Ok(line) = self.lines.try_recv() {
            panic!("helper {}: {what} returned too early: {line}", self.pid());
        }
    }

    /// Waits for the answer line `line`.
    pub fn expect(&mut self, line: &str) {
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
    pub fn call(&mut self, command: &str, line: &str) {
        self.send(command);
        self.expect(line);
    }

    /// SIGKILL (`Child::kill`) and reap: the process dies wherever it is, nothing of it runs afterwards.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        let status = self.child.wait().expect("reap the helper");
        assert!(!status.success(), "killed, not exited: {status:?}");
    }

    /// Sends `signal` (`STOP`, `CONT`) with `kill(1)` and waits until `/proc` shows the process stopped or not.
    pub fn signal(&mut self, signal: &str) {
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
    pub fn is_stopped(&self) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // pid (comm) state ...: the command may contain spaces and parentheses, the state follows the last ')'.
        let state = stat[stat.rfind(')').unwrap() + 1..].trim_start();
        state.starts_with('T')
    }

    /// Waits (at most [`WAIT`]) for the helper to exit on its own.
    pub fn exit_status(&mut self) -> ExitStatus {
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

/// The position and checkpoint id to resume from after `recovered` (the source position is the next row id).
pub fn resume_point(recovered: Option<Progress>) -> (i64, u64) {
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
pub fn replay(sink: &mut Sink, from: i64, end: i64, mut next_id: u64) {
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
