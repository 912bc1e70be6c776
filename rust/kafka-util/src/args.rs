//! The `clap` arguments of every command that talks to Kafka, flattened into each (`#[command(flatten)]`).

use std::fmt;
use std::path::PathBuf;

use clap::Args;
use rdkafka::config::ClientConfig;

use crate::{Properties, DEFAULT_BOOTSTRAP};

/// `--bootstrap-servers HOST:PORT`, `--command-config FILE` and `-X key=value` (repeatable): where the cluster
/// is and any extra librdkafka client property (security settings, `linger.ms`, ...). Its `Debug` form hides
/// secrets ([`Properties`]).
#[derive(Clone, Args)]
pub struct KafkaArgs {
    /// Kafka bootstrap servers.
    #[arg(long, default_value = DEFAULT_BOOTSTRAP)]
    pub bootstrap_servers: String,
    /// A file of librdkafka properties, one KEY=VALUE per line (blank lines and lines
    /// starting with `#` or `!` are skipped), applied before any -X: the place for
    /// `sasl.password` and other secrets, which a command line shows to every user of
    /// the machine. As the `--command-config` of Kafka's own tools.
    #[arg(long = "command-config", value_name = "FILE", value_parser = read_properties_file)]
    pub command_config: Option<PropertiesFile>,
    /// An extra or overriding librdkafka property of the command's producer or consumer, e.g.
    /// `-X linger.ms=20` or `-X security.protocol=SASL_SSL` (repeatable).
    #[arg(short = 'X', long = "property", alias = "producer-property", value_name = "KEY=VALUE",
          value_parser = parse_property)]
    pub properties: Vec<(String, String)>,
}

impl KafkaArgs {
    /// The cluster at `bootstrap_servers`, with no extra property.
    #[must_use]
    pub fn new(bootstrap_servers: impl Into<String>) -> Self {
        Self {
            bootstrap_servers: bootstrap_servers.into(),
            command_config: None,
            properties: Vec::new(),
        }
    }

    /// Every extra property in the order it applies: the `--command-config` file's, then each `-X` (a later
    /// one overrides an earlier one of the same key).
    #[must_use]
    pub fn all_properties(&self) -> Properties {
        let file = self
            .command_config
            .iter()
            .flat_map(|file| file.properties.iter());
        file.chain(&self.properties).cloned().collect()
    }

    /// A client configuration with `bootstrap.servers` and [every extra property](Self::all_properties).
    #[must_use]
    pub fn client_config(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.bootstrap_servers);
        for (key, value) in self.all_properties() {
            config.set(key, value);
        }
        config
    }
}

/// `KafkaArgs { bootstrap_servers: .., command_config: .., properties: {"sasl.password": "[hidden]", ..} }`.
impl fmt::Debug for KafkaArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KafkaArgs")
            .field("bootstrap_servers", &self.bootstrap_servers)
            .field("command_config", &self.command_config)
            .field("properties", &Properties::from(self.properties.clone()))
            .finish()
    }
}

/// The properties read from a `--command-config` file. Its `Debug` form names the file and the keys, never
/// a value: the file is where secrets go.
#[derive(Clone, PartialEq, Eq)]
pub struct PropertiesFile {
    /// The file.
    pub path: PathBuf,
    /// Its properties, in file order.
    pub properties: Vec<(String, String)>,
}

impl fmt::Debug for PropertiesFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys: Vec<&str> = self
            .properties
            .iter()
            .map(|(key, _)| key.as_str())
            .collect();
        f.debug_struct("PropertiesFile")
            .field("path", &self.path)
            .field("keys", &keys)
            .finish()
    }
}

/// Reads a `--command-config` file: one `KEY=VALUE` per line, both trimmed; blank lines and lines whose first
/// non-blank character is `#` or `!` (the comments of Java's `.properties` files) are skipped. Java's line
/// continuations and `KEY VALUE` / `KEY:VALUE` forms are not read.
///
/// # Errors
/// A message naming the file when it cannot be read, or the file and the line number of a line that is not
/// `KEY=VALUE` (without the line itself, which may hold a secret).
pub fn read_properties_file(path: &str) -> Result<PropertiesFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut properties = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let property = parse_property(line)
            .map_err(|_| format!("{path}, line {}: expected KEY=VALUE", number + 1))?;
        properties.push(property);
    }
    Ok(PropertiesFile {
        path: PathBuf::from(path),
        properties,
    })
}

/// Parses `KEY=VALUE` (both trimmed; the key must not be empty).
///
/// # Errors
/// A message naming the text when it has no `=` or an empty key.
pub fn parse_property(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            Ok((key.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("expected KEY=VALUE, got '{text}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_property, read_properties_file, KafkaArgs};

    #[test]
    fn the_debug_form_of_the_arguments_hides_an_x_secret() {
        let mut args = KafkaArgs::new("h:1");
        args.properties = vec![
            ("sasl.password".to_owned(), "s3cret-x".to_owned()),
            ("linger.ms".to_owned(), "20".to_owned()),
        ];
        let debug = format!("{args:?}");
        assert!(
            debug.contains("sasl.password") && debug.contains("[hidden]"),
            "{debug}"
        );
        assert!(!debug.contains("s3cret-x"), "{debug}");
        assert!(debug.contains("\"20\"") && debug.contains("h:1"), "{debug}");
    }

    #[test]
    fn properties_are_key_equals_value() {
        assert_eq!(
            parse_property(" linger.ms = 20 "),
            Ok(("linger.ms".to_owned(), "20".to_owned()))
        );
        assert_eq!(
            parse_property("sasl.password=a=b"),
            Ok(("sasl.password".to_owned(), "a=b".to_owned()))
        );
        assert_eq!(
            parse_property("=x"),
            Err("expected KEY=VALUE, got '=x'".to_owned())
        );
        assert_eq!(
            parse_property("linger.ms"),
            Err("expected KEY=VALUE, got 'linger.ms'".to_owned())
        );
    }

    #[test]
    fn a_command_config_file_applies_before_each_x_and_hides_its_values() {
        let path =
            std::env::temp_dir().join(format!("kafka-util-args-{}.properties", std::process::id()));
        std::fs::write(
            &path,
            "# the cluster\n\nsecurity.protocol = SASL_SSL\n  ! another comment\nsasl.password=s3cr=et\nlinger.ms=5\n",
        )
        .unwrap();
        let file = read_properties_file(path.to_str().unwrap()).unwrap();
        assert_eq!(
            file.properties,
            [
                ("security.protocol".to_owned(), "SASL_SSL".to_owned()),
                ("sasl.password".to_owned(), "s3cr=et".to_owned()),
                ("linger.ms".to_owned(), "5".to_owned()),
            ]
        );
        let debug = format!("{file:?}");
        assert!(
            debug.contains("sasl.password") && !debug.contains("s3cr"),
            "{debug}"
        );
        let mut args = KafkaArgs::new("h:1");
        args.command_config = Some(file);
        args.properties = vec![("linger.ms".to_owned(), "20".to_owned())];
        let config = args.client_config();
        assert_eq!(config.get("linger.ms"), Some("20"), "-X wins over the file");
        assert_eq!(config.get("sasl.password"), Some("s3cr=et"));
        assert_eq!(config.get("bootstrap.servers"), Some("h:1"));

        std::fs::write(&path, "ok=1\nsasl.password\n").unwrap();
        let error = read_properties_file(path.to_str().unwrap()).unwrap_err();
        assert!(error.ends_with("line 2: expected KEY=VALUE"), "{error}");
        std::fs::remove_file(&path).unwrap();
        let error = read_properties_file(path.to_str().unwrap()).unwrap_err();
        assert!(error.starts_with("cannot read "), "{error}");
    }
}
