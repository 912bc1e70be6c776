//! [`Progress`]: what one writer had committed, and its record format in the progress topic.

/// The last checkpoint a writer committed: the record the sink writes to the progress topic with each
/// checkpoint, and what [`Sink::recover`](crate::Sink::recover) returns.
///
/// In the progress topic the record key is the writer id (UTF-8) and the value is, big-endian:
/// `version: u8 = 1`, `checkpoint_id: u64`, `writer_id_len: u32`, `writer_id` bytes, then the source position
/// bytes to the end of the value. Compaction keeps the latest record per writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// The writer that committed it.
    pub writer_id: String,
    /// The caller's checkpoint id, as passed to [`Sink::checkpoint`](crate::Sink::checkpoint).
    pub checkpoint_id: u64,
    /// The caller's source position at that checkpoint: opaque bytes (a file offset, Kafka offsets, a
    /// generator's sequence number, ...) that the caller encodes and decodes itself. The caller resumes
    /// reading its source right after this position.
    pub source_position: Vec<u8>,
}

const VERSION: u8 = 1;
const HEADER: usize = 1 + 8 + 4;

impl Progress {
    /// The record value (see the type's documentation for the layout).
    pub(crate) fn encode(writer_id: &str, checkpoint_id: u64, source_position: &[u8]) -> Vec<u8> {
        let mut value = Vec::with_capacity(HEADER + writer_id.len() + source_position.len());
        value.push(VERSION);
        value.extend_from_slice(&checkpoint_id.to_be_bytes());
        value.extend_from_slice(&(writer_id.len() as u32).to_be_bytes());
        value.extend_from_slice(writer_id.as_bytes());
        value.extend_from_slice(source_position);
        value
    }

    /// Parses a record value; the error names what is wrong.
    pub(crate) fn decode(value: &[u8]) -> Result<Self, &'static str> {
        if value.len() < HEADER {
            return Err("shorter than the 13-byte header");
        }
        if value[0] != VERSION {
            return Err("unknown version byte");
        }
        let checkpoint_id = u64::from_be_bytes(value[1..9].try_into().expect("8 bytes"));
        let id_len = u32::from_be_bytes(value[9..13].try_into().expect("4 bytes")) as usize;
        let rest = &value[HEADER..];
        if rest.len() < id_len {
            return Err("writer id runs past the end");
        }
        let writer_id = std::str::from_utf8(&rest[..id_len])
            .map_err(|_| "writer id is not UTF-8")?
            .to_owned();
        Ok(Self {
            writer_id,
            checkpoint_id,
            source_position: rest[id_len..].to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let value = Progress::encode("w-1", 42, b"pos\0\xff");
        assert_eq!(
            Progress::decode(&value),
            Ok(Progress {
                writer_id: "w-1".into(),
                checkpoint_id: 42,
                source_position: b"pos\0\xff".to_vec()
            })
        );
        assert_eq!(&value[..9], &[1, 0, 0, 0, 0, 0, 0, 0, 42]);
    }

    #[test]
    fn rejects_malformed_values() {
        assert!(Progress::decode(b"").is_err(), "empty");
        let mut value = Progress::encode("w", 1, b"");
        value[0] = 2;
        assert!(Progress::decode(&value).is_err(), "version 2");
        let value = Progress::encode("writer", 1, b"");
        assert!(
            Progress::decode(&value[..value.len() - 1]).is_err(),
            "truncated id"
        );
    }
}
