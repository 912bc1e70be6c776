//! The `streamfusion` command over SASL_SSL with ACLs: `produce` (exactly once) and `verify`, run in-process as
//! the binary's `main` runs them, with the user's settings (its password among them) in a `--command-config`
//! file that only its owner can read, never on the command line.
//!
//! * Least privilege for `produce` into topics made beforehand: the sink's (`WRITE` on the data topic, `READ`
//!   and `WRITE` on the progress topic, `WRITE` on `TransactionalId:streamfusion-sink-<writer>`, `DESCRIBE` on
//!   `Group:streamfusion-sink-recover-<writer>`); `verify` adds `READ` on the data topic and `DESCRIBE` on the
//!   groups of prefix `streamfusion-read-` (its own group, which it commits nothing to). Every row read back.
//! * Without `READ` on the data topic, `verify` fails naming the permission and the topic.
//! * Without `CREATE`, `produce` into a topic that does not exist fails naming the permission and the topic.
//! * With a wrong password, `produce`, `verify` and `consume` are refused at once, naming the authentication
//!   failure.
//!
//! Every error's text and the broker's logs are searched for every password the test made or read. Skipped,
//! with the reason printed, unless `scripts/security-tests.sh` set the environment ([`Secure::for_test`]).

use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use security_tests::{Acl, Resource, Secure, SinkTopics, User};
use streamfusion_cli::cli::{run, Cli};
use streamfusion_cli::read::READ_GROUP_PREFIX;

/// Bids each test produces.
const EVENTS: &str = "300";

/// One test's topics (the data topic made by the super user unless the test says otherwise) and writer.
struct Case {
    secure: Secure,
    names: SinkTopics,
    config_file: PathBuf,
}

impl Case {
    fn new(name: &str, make_data_topic: bool) -> Option<Self> {
        let secure = Secure::for_test(name)?;
        let names = SinkTopics::new(&secure, "secure-cli", name, make_data_topic, true);
        let config_file = std::env::temp_dir().join(format!("{}.properties", names.data));
        Some(Self {
            secure,
            names,
            config_file,
        })
    }

    /// A user with what `produce` needs, and `READ` on the data topic when `read`.
    fn user(&self, read: bool) -> User {
        let mut acls = vec![
            acl(Resource::Topic(self.names.data.clone()), "Write"),
            acl(Resource::Topic(self.names.progress.clone()), "Read"),
            acl(Resource::Topic(self.names.progress.clone()), "Write"),
            acl(
                Resource::TransactionalId(format!("streamfusion-sink-{}", self.names.writer)),
                "Write",
            ),
            acl(
                Resource::Group(format!("streamfusion-sink-recover-{}", self.names.writer)),
                "Describe",
            ),
        ];
        acls.push(acl(
            Resource::GroupPrefix(READ_GROUP_PREFIX.to_owned()),
            "Describe",
        ));
        if read {
            acls.push(acl(Resource::Topic(self.names.data.clone()), "Read"));
        }
        self.secure.user("cli", &acls)
    }

    /// Writes `user`'s settings to this case's `--command-config` file, readable by its owner only.
    fn write_config(&self, user: &User) {
        let text: String = self
            .secure
            .properties(user)
            .iter()
            .map(|(key, value)| format!("{key}={value}\n"))
            .collect();
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&self.config_file)
            .expect("the config file");
        std::io::Write::write_all(&mut file, text.as_bytes()).expect("write the config file");
    }

    /// Runs `streamfusion COMMAND --topic DATA ... --command-config FILE` (`--events` for `produce` and
    /// `verify`) and returns its exit code or error text.
    fn command(&self, command: &str) -> Result<ExitCode, String> {
        let config = self.config_file.to_str().expect("a UTF-8 path");
        let mut args = vec![
            "streamfusion",
            command,
            "--topic",
            &self.names.data,
            "--bootstrap-servers",
            self.secure.bootstrap(),
            "--command-config",
            config,
            "--ci",
        ];
        if command != "consume" {
            args.extend(["--events", EVENTS]);
        }
        if command == "produce" {
            args.extend([
                "--progress-topic",
                &self.names.progress,
                "--writer-id",
                &self.names.writer,
                "--checkpoint-interval-ms",
                "200",
                "--transaction-timeout-ms",
                "10000",
                "--batch-rows",
                "100",
            ]);
        }
        let cli = Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        run(cli).map_err(|error| {
            let text = error.to_string();
            self.secure
                .assert_no_secret(&[&text, &format!("{error:?}")]);
            text
        })
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.config_file);
    }
}

fn acl(resource: Resource, operation: &'static str) -> Acl {
    Acl {
        resource,
        operation,
    }
}

fn success(code: &ExitCode) -> bool {
    format!("{code:?}") == format!("{:?}", ExitCode::SUCCESS)
}

#[test]
fn produce_and_verify_with_least_privilege() {
    let Some(case) = Case::new("cli-least", true) else {
        return;
    };
    let user = case.user(true);
    case.write_config(&user);
    let produced = case
        .command("produce")
        .unwrap_or_else(|e| panic!("produce: {e}"));
    assert!(success(&produced), "produce exited with {produced:?}");
    let verified = case
        .command("verify")
        .unwrap_or_else(|e| panic!("verify: {e}"));
    assert!(
        success(&verified),
        "verify found the topic different from the {EVENTS} bids: {verified:?}"
    );
    case.secure.assert_no_secret(&[]);
    println!(
        "RESULT cli least privilege: produce and verify of {EVENTS} bids over SASL_SSL passed"
    );
}

#[test]
fn verify_without_read_names_the_permission_and_the_topic() {
    let Some(case) = Case::new("cli-no-read", true) else {
        return;
    };
    let user = case.user(false);
    case.write_config(&user);
    let produced = case
        .command("produce")
        .unwrap_or_else(|e| panic!("produce: {e}"));
    assert!(success(&produced), "produce exited with {produced:?}");
    let error = case.command("verify").expect_err("verify without READ");
    assert!(
        error.contains(&format!("grant READ on Topic:{}", case.names.data)),
        "{error}"
    );
    println!("RESULT cli without READ: {error}");
}

#[test]
fn produce_without_create_names_the_permission_and_the_topic() {
    let Some(case) = Case::new("cli-no-create", false) else {
        return;
    };
    let user = case.user(true);
    case.write_config(&user);
    let error = case
        .command("produce")
        .expect_err("produce into a missing topic without CREATE");
    assert!(
        error.contains(&format!("grant CREATE on Topic:{}", case.names.data)),
        "{error}"
    );
    println!("RESULT cli without CREATE: {error}");
}

#[test]
fn a_wrong_password_is_refused_at_once_by_every_command() {
    let Some(case) = Case::new("cli-wrong-password", true) else {
        return;
    };
    let mut user = case.user(true);
    user.password = "not-the-password-0123456789".to_owned();
    case.write_config(&user);
    for command in ["produce", "verify", "consume"] {
        let started = Instant::now();
        let error = case
            .command(command)
            .expect_err("refused with a wrong password");
        let took = started.elapsed();
        // librdkafka alone would retry the handshake until the broker check's wait (10 s) passed and report
        // `BrokerTransportFailure`; the check stops at the first authentication failure it reports.
        assert!(
            error.contains("refused the connection")
                && error.contains("Authentication failed")
                && error.contains("Check the client's sasl.* and ssl.* settings"),
            "{command}: {error}"
        );
        assert!(
            took < kafka_util::BROKER_WAIT,
            "{command}: refused after {took:?}: {error}"
        );
        assert!(
            !error.contains(&user.password),
            "{command}: the password in {error}"
        );
        println!(
            "RESULT cli wrong password, {command}: {error} after {} ms",
            took.as_millis()
        );
    }
    case.secure.assert_no_secret(&[]);
}
