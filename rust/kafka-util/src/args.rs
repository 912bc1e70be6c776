//! The `clap` arguments of every command that talks to Kafka, flattened into each (`#[command(flatten)]`).

use clap::Args;
use rdkafka::config::ClientConfig;

use crate::DEFAULT_BOOTSTRAP;

/// `--bootstrap-servers HOST:PORT` and `-X key=value` (repeatable): where the cluster is and any extra
/// librdkafka client property (security settings, `linger.ms`, ...).
#[derive(Debug, Clone, Args)]
pub struct KafkaArgs {
    /// Kafka bootstrap servers.
    #[arg(long, default_value = DEFAULT_BOOTSTRAP)]
    pub bootstrap_servers: String,
    /// An extra or overriding librdkafka property of the command's producer or consumer, e.g.
    /// `-X linger.ms=20` or `-X security.protocol=SASL_SSL` (repeatable).
    #[arg(short = 'X', long = "property", alias = "producer-property", value_name = "KEY=VALUE",
          value_parser = parse_property)]
    pub properties: Vec<(String, String)>,
}

impl KafkaArgs {
    /// A client configuration with `bootstrap.servers` and every `-X` property (later ones win).
    #[must_use]
    pub fn client_config(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config.set("bootstrap.servers", &self.bootstrap_servers);
        for (key, value) in &self.properties {
            config.set(key, value);
        }
        config
    }
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
    use super::parse_property;

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
}
