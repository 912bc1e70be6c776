//! [`Properties`]: extra librdkafka client properties, as a list that never prints a secret.
//!
//! Client properties carry the credentials of a secured cluster (`sasl.password`, `ssl.key.password`, an OAuth
//! client secret, a JAAS config). A configuration type that derives `Debug` over a plain `Vec<(String, String)>`
//! prints them in every `{:?}`, panic message and log line it reaches. [`Properties`] keeps the list as it is given
//! and prints the value of every [sensitive](is_sensitive) key as `[hidden]` in its `Debug` and `Display` forms,
//! as rust-rdkafka's `ClientConfig` and Kafka's `Password` type do.
//!
//! ```
//! use kafka_util::Properties;
//!
//! let mut properties = Properties::new();
//! properties.push("linger.ms", "20");
//! properties.push("sasl.password", "s3cret");
//! assert_eq!(properties.to_string(), "linger.ms=20 sasl.password=[hidden]");
//! assert!(!format!("{properties:?}").contains("s3cret"));
//! assert_eq!(properties.get("sasl.password"), Some("s3cret")); // the value itself is kept
//! ```

use std::fmt;
use std::ops::Deref;

/// What `Debug` and `Display` print instead of a [sensitive](is_sensitive) value (Kafka's `Password.toString()`).
pub const HIDDEN: &str = "[hidden]";

/// Sensitive keys that neither [`is_sensitive`]'s `password` nor its `secret` rule catches: the JAAS config
/// (Java's form, which holds the password), librdkafka's inline private key and its OAuth config string (which
/// may hold a client secret), and Java's PEM private key.
const SENSITIVE_KEYS: &[&str] = &[
    "sasl.jaas.config",
    "ssl.key.pem",
    "ssl_key",
    "ssl.keystore.key",
    "sasl.oauthbearer.config",
];

/// Whether a client property's value is a secret that must never be printed: every key that contains `password`
/// (`sasl.password`, `ssl.key.password`, `ssl.keystore.password`, `ssl.truststore.password`) or `secret`
/// (`sasl.oauthbearer.client.secret`), the JAAS config (`sasl.jaas.config`), inline private keys (`ssl.key.pem`,
/// `ssl_key`, `ssl.keystore.key`) and librdkafka's `sasl.oauthbearer.config`. Keys compare case-insensitively.
#[must_use]
pub fn is_sensitive(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.contains("password") || key.contains("secret") || SENSITIVE_KEYS.contains(&key.as_str())
}

/// Extra librdkafka client properties, `(key, value)` in the order they apply (a later one overrides an earlier
/// one of the same key). Derefs to the slice of pairs; `Debug` and `Display` hide [sensitive](is_sensitive)
/// values (module docs).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Properties(Vec<(String, String)>);

impl Properties {
    /// No properties.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one property.
    pub fn push(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.0.push((key.into(), value.into()));
    }

    /// The value that applies for `key`: the last one given, or `None`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value as printed: `[hidden]` for a sensitive key.
    fn shown<'a>(key: &str, value: &'a str) -> &'a str {
        if is_sensitive(key) {
            HIDDEN
        } else {
            value
        }
    }
}

impl Deref for Properties {
    type Target = [(String, String)];

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl From<Vec<(String, String)>> for Properties {
    fn from(pairs: Vec<(String, String)>) -> Self {
        Self(pairs)
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for Properties {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        Self(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = &'a (String, String);
    type IntoIter = std::slice::Iter<'a, (String, String)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Properties {
    type Item = (String, String);
    type IntoIter = std::vec::IntoIter<(String, String)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// `{"linger.ms": "20", "sasl.password": "[hidden]"}`.
impl fmt::Debug for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, Self::shown(k, v))))
            .finish()
    }
}

/// `linger.ms=20 sasl.password=[hidden]`: one `key=value` per property, separated by spaces.
impl fmt::Display for Properties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (key, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}={}", Self::shown(key, value))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{is_sensitive, Properties};

    /// One property of every secret kind a Kafka or librdkafka client takes, each with a value that appears
    /// nowhere else.
    const SECRETS: &[(&str, &str)] = &[
        ("sasl.password", "secret-value-sasl"),
        ("ssl.key.password", "secret-value-key"),
        ("ssl.keystore.password", "secret-value-keystore"),
        ("ssl.truststore.password", "secret-value-truststore"),
        ("sasl.oauthbearer.client.secret", "secret-value-oauth"),
        ("sasl.oauthbearer.config", "secret-value-oauth-config"),
        (
            "sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required password=\"secret-value-jaas\";",
        ),
        ("ssl.key.pem", "secret-value-pem"),
        ("ssl.keystore.key", "secret-value-java-pem"),
        ("SASL.PASSWORD", "secret-value-upper"),
    ];

    #[test]
    fn debug_and_display_hide_every_secret_kind_and_keep_the_rest() {
        let mut properties: Properties = SECRETS.iter().copied().collect();
        properties.push("linger.ms", "20");
        properties.push("sasl.username", "alice");
        for text in [
            format!("{properties:?}"),
            properties.to_string(),
            format!("{properties:#?}"),
        ] {
            for (key, value) in SECRETS {
                assert!(text.contains(key), "{key} missing from {text}");
                assert!(
                    !text.contains("secret-value"),
                    "{key}'s value {value} printed in {text}"
                );
            }
            assert!(
                text.contains("20") && text.contains("alice"),
                "the other values are kept: {text}"
            );
        }
        assert_eq!(properties.get("sasl.password"), Some("secret-value-sasl"));
    }

    #[test]
    fn ordinary_keys_are_not_sensitive() {
        for key in [
            "linger.ms",
            "sasl.username",
            "sasl.mechanism",
            "security.protocol",
            "ssl.ca.location",
        ] {
            assert!(!is_sensitive(key), "{key}");
        }
    }

    #[test]
    fn the_last_value_of_a_key_applies() {
        let properties: Properties = [("linger.ms", "5"), ("linger.ms", "20")]
            .into_iter()
            .collect();
        assert_eq!(properties.get("linger.ms"), Some("20"));
        assert_eq!(properties.get("batch.size"), None);
        assert_eq!(properties.to_string(), "linger.ms=5 linger.ms=20");
    }
}
