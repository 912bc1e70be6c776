//! The harness of the Rust clients' security tests (SASL/TLS and ACLs, `docs/security.md`). Not published.
//!
//! [`Secure`] is the local broker started with `KAFKA_SECURITY=sasl_ssl` (SASL/SCRAM-SHA-512 over TLS,
//! `StandardAuthorizer`, super user `admin`): it reads the super user's client settings, makes users with a fresh
//! random password and exactly the [`Acl`]s a test names (through Kafka's own `ConfigCommand` and `AclCommand`,
//! run by `kafka/broker tool`: librdkafka has no ACL API in rust-rdkafka), and gives each user's librdkafka
//! settings. Every password it makes or reads is kept ([`Secure::secrets`]) so that a test can check that none
//! reached an error message or a log.
//!
//! The tests run only when [`BOOTSTRAP_ENV`] and [`ADMIN_CONFIG_ENV`] are set (`scripts/security-tests.sh`
//! starts the broker and sets them); without them each test prints why it is skipped and passes.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rdkafka::config::ClientConfig;

/// The broker's `SASL_SSL` listener.
pub const BOOTSTRAP_ENV: &str = "KAFKA_SECURE_BOOTSTRAP_SERVERS";
/// The super user's Java client settings (`run/admin.properties` of the broker's home).
pub const ADMIN_CONFIG_ENV: &str = "KAFKA_SECURE_ADMIN_CONFIG";
/// The broker's logs folder; several folders separated by `:` (a cluster's nodes).
pub const LOG_DIR_ENV: &str = "KAFKA_SECURE_LOG_DIR";
/// Bound on every wait of the tests.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// A resource an ACL is on.
#[derive(Debug, Clone)]
pub enum Resource {
    /// A topic, by its literal name.
    Topic(String),
    /// A consumer group.
    Group(String),
    /// Every consumer group whose name starts with this prefix (`--resource-pattern-type prefixed`).
    GroupPrefix(String),
    /// A `transactional.id`.
    TransactionalId(String),
}

/// One `ALLOW` ACL for a user from any host: `operation` (Kafka's name: `Read`, `Write`, `Create`, ...) on
/// `resource`.
#[derive(Debug, Clone)]
pub struct Acl {
    /// What it is on.
    pub resource: Resource,
    /// What it allows.
    pub operation: &'static str,
}

/// A user made by [`Secure::user`].
#[derive(Debug, Clone)]
pub struct User {
    /// The user name (principal `User:<name>`).
    pub name: String,
    /// Its password.
    pub password: String,
}

/// The local `SASL_SSL` broker, as `scripts/security-tests.sh` started it.
pub struct Secure {
    bootstrap: String,
    admin_config: PathBuf,
    admin: User,
    ca: PathBuf,
    broker_script: PathBuf,
    secrets: Mutex<Vec<String>>,
}

impl Secure {
    /// The broker of [`BOOTSTRAP_ENV`] and [`ADMIN_CONFIG_ENV`] for the test `test`; `None` (after printing why
    /// the test is skipped) when they are not set.
    pub fn for_test(test: &str) -> Option<Self> {
        let (Ok(bootstrap), Ok(admin_config)) = (
            std::env::var(BOOTSTRAP_ENV),
            std::env::var(ADMIN_CONFIG_ENV),
        ) else {
            eprintln!(
                "{test}: skipped: {BOOTSTRAP_ENV} and {ADMIN_CONFIG_ENV} are not set (scripts/security-tests.sh \
                 starts the SASL_SSL broker and sets them)"
            );
            return None;
        };
        let admin_config = PathBuf::from(admin_config);
        let text = fs::read_to_string(&admin_config)
            .unwrap_or_else(|e| panic!("read {}: {e}", admin_config.display()));
        let property = |key: &str| -> String {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
                .unwrap_or_else(|| panic!("{} has no {key}", admin_config.display()))
                .to_owned()
        };
        let jaas = property("sasl.jaas.config");
        let password = jaas
            .split("password=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the admin's JAAS settings hold a password")
            .to_owned();
        let truststore = PathBuf::from(property("ssl.truststore.location"));
        let ca = truststore.with_file_name("ca.pem");
        let secrets = vec![password.clone(), property("ssl.truststore.password")];
        Some(Self {
            bootstrap,
            admin_config,
            admin: User {
                name: "admin".into(),
                password,
            },
            ca,
            broker_script: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kafka/broker"),
            secrets: Mutex::new(secrets),
        })
    }

    /// The bootstrap servers.
    pub fn bootstrap(&self) -> &str {
        &self.bootstrap
    }

    /// The super user.
    pub fn admin(&self) -> &User {
        &self.admin
    }

    /// librdkafka's connection settings for `user`: `SASL_SSL`, SCRAM-SHA-512, the broker's CA.
    pub fn properties(&self, user: &User) -> Vec<(String, String)> {
        [
            ("security.protocol", "SASL_SSL"),
            ("sasl.mechanism", "SCRAM-SHA-512"),
            ("sasl.username", user.name.as_str()),
            ("sasl.password", user.password.as_str()),
            ("ssl.ca.location", self.ca.to_str().expect("a UTF-8 path")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
    }

    /// A `read_committed` consumer configuration of `user` ([`kafka_util::consumer_config`] plus
    /// [`properties`](Self::properties)).
    pub fn consumer_config(&self, user: &User) -> ClientConfig {
        let mut config = kafka_util::consumer_config(&self.bootstrap, "read_committed");
        for (key, value) in self.properties(user) {
            config.set(key, value);
        }
        config
    }

    /// The super user's admin client settings: `bootstrap.servers` and its [`properties`](Self::properties).
    pub fn admin_config(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.bootstrap);
        for (key, value) in self.properties(&self.admin) {
            config.set(key, value);
        }
        config
    }

    /// Asserts that no password of [`secrets`](Self::secrets) is in `texts` (error messages, their `Debug`
    /// forms) or in any file of the broker's log directories ([`LOG_DIR_ENV`]); a failure shows the text with the
    /// passwords [redacted](Self::redact).
    ///
    /// # Panics
    /// When one is, or the log directory cannot be read.
    pub fn assert_no_secret(&self, texts: &[&str]) {
        let mut logs = Vec::new();
        let dirs = std::env::var_os(LOG_DIR_ENV).unwrap_or_default();
        for dir in std::env::split_paths(&dirs).filter(|d| !d.as_os_str().is_empty()) {
            let dir = dir.display().to_string();
            for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("list {dir}: {e}")) {
                let path = entry.expect("a directory entry").path();
                if path.is_file() {
                    logs.push((
                        path.display().to_string(),
                        String::from_utf8_lossy(&fs::read(&path).expect("read a log")).into_owned(),
                    ));
                }
            }
        }
        for secret in self.secrets() {
            for text in texts {
                assert!(
                    !text.contains(&secret),
                    "a password in an error: {}",
                    self.redact(text)
                );
            }
            for (path, log) in &logs {
                assert!(!log.contains(&secret), "a password in {path}");
            }
        }
    }

    /// Every password this broker's tests made or read so far.
    pub fn secrets(&self) -> Vec<String> {
        self.secrets.lock().expect("not poisoned").clone()
    }

    /// `text` with every password of [`secrets`](Self::secrets) replaced by `<password>`.
    pub fn redact(&self, text: &str) -> String {
        self.secrets().iter().fold(text.to_owned(), |text, secret| {
            text.replace(secret.as_str(), "<password>")
        })
    }

    /// Makes user `name` (a unique name per call: `name-<nanos>`) with a fresh random password and exactly
    /// `acls` (each one `AclCommand --add`). The password reaches `ConfigCommand` in a file only its owner can
    /// read, deleted right after.
    pub fn user(&self, name: &str, acls: &[Acl]) -> User {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let user = User {
            name: format!("{name}-{nanos}"),
            password: random_password(),
        };
        self.secrets
            .lock()
            .expect("not poisoned")
            .push(user.password.clone());
        let file = std::env::temp_dir().join(format!("{}.scram", user.name));
        {
            let mut f = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&file)
                .unwrap_or_else(|e| panic!("create {}: {e}", file.display()));
            // A properties file: the value without the brackets `--add-config` needs.
            writeln!(
                f,
                "SCRAM-SHA-512=iterations=4096,password={}",
                user.password
            )
            .expect("write the credential file");
        }
        let made = self.tool(
            "kafka.admin.ConfigCommand",
            &[
                "--alter",
                "--entity-type",
                "users",
                "--entity-name",
                &user.name,
                "--add-config-file",
                file.to_str().expect("a UTF-8 path"),
            ],
        );
        fs::remove_file(&file).expect("remove the credential file");
        made.unwrap_or_else(|e| panic!("make user {}: {e}", user.name));
        for acl in acls {
            let (flag, resource, pattern) = match &acl.resource {
                Resource::Topic(t) => ("--topic", t, "literal"),
                Resource::Group(g) => ("--group", g, "literal"),
                Resource::GroupPrefix(g) => ("--group", g, "prefixed"),
                Resource::TransactionalId(t) => ("--transactional-id", t, "literal"),
            };
            let principal = format!("User:{}", user.name);
            self.tool(
                "org.apache.kafka.tools.AclCommand",
                &[
                    "--add",
                    "--allow-principal",
                    &principal,
                    "--operation",
                    acl.operation,
                    flag,
                    resource,
                    "--resource-pattern-type",
                    pattern,
                ],
            )
            .unwrap_or_else(|e| panic!("add {acl:?} for {}: {e}", user.name));
        }
        user
    }

    /// Runs one of Kafka's tools as the super user; its output on failure.
    fn tool(&self, class: &str, args: &[&str]) -> Result<(), String> {
        let output = Command::new(&self.broker_script)
            .arg("tool")
            .arg(class)
            .args(["--bootstrap-server", &self.bootstrap, "--command-config"])
            .arg(&self.admin_config)
            .args(args)
            .output()
            .map_err(|e| format!("run {}: {e}", self.broker_script.display()))?;
        if output.status.success() {
            Ok(())
        } else {
            // Kafka's tools may echo a credential in their errors (ConfigCommand does).
            Err(self.redact(&format!(
                "{class} exited with {}: {}{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )))
        }
    }
}

/// 24 random letters and digits from the kernel.
fn random_password() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut raw = [0u8; 24];
    fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut raw))
        .expect("read /dev/urandom");
    raw.iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// One test's topics for a sink's writer, made by the super user and deleted when dropped: a data topic of one
/// partition (`<prefix>-<test>-<pid>-<nanos>`), its compacted progress topic (`<data>-progress`) and the writer
/// id `<data>-writer`.
pub struct SinkTopics {
    /// The super user's admin client.
    pub topics: kafka_util::Topics,
    /// The data topic's name.
    pub data: String,
    /// The progress topic's name.
    pub progress: String,
    /// The writer id.
    pub writer: String,
}

impl SinkTopics {
    /// Names the topics of test `name` and makes the data topic when `make_data` and the progress topic when
    /// `make_progress` (a test of a missing `CREATE` leaves one to the client).
    ///
    /// # Panics
    /// When the admin client cannot be made or a topic cannot be created.
    pub fn new(
        secure: &Secure,
        prefix: &str,
        name: &str,
        make_data: bool,
        make_progress: bool,
    ) -> Self {
        use kafka_util::topics::TopicSpec;
        let topics =
            kafka_util::Topics::new(&secure.admin_config(), TIMEOUT).expect("an admin client");
        let data = kafka_util::unique_name(prefix, name);
        let progress = format!("{data}-progress");
        if make_data {
            topics
                .ensure(&TopicSpec::new(&data, 1))
                .unwrap_or_else(|e| panic!("create {data}: {e}"));
        }
        if make_progress {
            topics
                .ensure(&TopicSpec {
                    name: &progress,
                    partitions: 1,
                    replication: -1,
                    configs: &[("cleanup.policy", "compact")],
                })
                .unwrap_or_else(|e| panic!("create {progress}: {e}"));
        }
        let writer = format!("{data}-writer");
        Self {
            topics,
            data,
            progress,
            writer,
        }
    }
}

impl Drop for SinkTopics {
    fn drop(&mut self) {
        for topic in [&self.data, &self.progress] {
            let _ = self.topics.delete(topic);
        }
    }
}
