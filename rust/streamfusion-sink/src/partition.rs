//! Partition choice: Kafka's default partitioner for keyed records (murmur2 of the key bytes) and round robin.

/// Kafka's `Utils.murmur2`: the 32-bit MurmurHash2 of `data` with seed `0x9747b28c`, reading 4-byte blocks
/// little-endian, as the Java producer's default partitioner computes it for a record key.
///
/// Returns the signed Java `int` (bit-for-bit the same value `Utils.murmur2(byte[])` returns).
#[must_use]
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;
    let mut h = SEED ^ data.len() as u32;
    let mut blocks = data.chunks_exact(4);
    for block in &mut blocks {
        let mut k = u32::from_le_bytes([block[0], block[1], block[2], block[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = blocks.remainder();
    if tail.len() >= 3 {
        h ^= u32::from(tail[2]) << 16;
    }
    if tail.len() >= 2 {
        h ^= u32::from(tail[1]) << 8;
    }
    if !tail.is_empty() {
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// The partition Kafka's default partitioner (Java `BuiltInPartitioner.partitionForKey`, librdkafka's
/// `murmur2_random` for non-null keys) gives `key` in a topic of `partitions` partitions:
/// `(murmur2(key) & 0x7fffffff) % partitions`.
///
/// # Panics
/// If `partitions <= 0`.
#[must_use]
pub fn partition_for_key(key: &[u8], partitions: i32) -> i32 {
    assert!(partitions > 0, "a topic has at least one partition");
    (murmur2(key) & 0x7fff_ffff) % partitions
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of Kafka's `UtilsTest.testMurmur2` (clients/src/test/java/org/apache/kafka/common/utils).
    #[test]
    fn murmur2_matches_kafka_utils_test() {
        let cases: [(&[u8], i32); 6] = [
            (b"21", -973_932_308),
            (b"foobar", -790_332_482),
            (b"a-little-bit-long-string", -985_981_536),
            (b"a-little-bit-longer-string", -1_486_304_829),
            (
                b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8",
                -58_897_971,
            ),
            (b"abc", 479_470_107),
        ];
        for (key, expected) in cases {
            assert_eq!(
                murmur2(key),
                expected,
                "murmur2({:?})",
                String::from_utf8_lossy(key)
            );
        }
    }

    #[test]
    fn partition_is_the_positive_hash_modulo_partitions() {
        // murmur2("21") = -973932308 = 0xc5f2_f8ec; & 0x7fffffff = 1173551340.
        assert_eq!(partition_for_key(b"21", 1), 0);
        assert_eq!(partition_for_key(b"21", 7), 1_173_551_340 % 7);
        assert_eq!(partition_for_key(b"abc", 10), 479_470_107 % 10);
        assert_eq!(partition_for_key(b"", 3), (murmur2(b"") & 0x7fff_ffff) % 3);
    }
}
