//! The iteration order of the `java.util.HashMap` into which Flink's json deserializer puts a MAP or MULTISET
//! (`JsonParserToRowDataConverters.createMapConverter`), so that the decoder's entries come out in the order
//! Flink's `MapDataSerializer.toBinaryMap` writes them.
//!
//! Flink's keys are `StringData`, whose `hashCode` is `MurmurHashUtils.hashBytes` (seed 42) of the string's UTF-8
//! bytes ([`string_data_hash`]). `HashMap` spreads that hash (`h ^ (h >>> 16)`), keeps one list per bucket in
//! insertion order (a resize splits each list keeping its order), and iterates bucket by bucket; its table starts
//! at 16 buckets and doubles when the size passes three quarters of it, or when a ninth key lands in one bucket of
//! a table smaller than 64. In a table of 64 or more, that ninth key turns the bucket into a tree, whose order is
//! no longer the insertion order: [`JavaHashMap::put`] reports it, and the decoder leaves such a message to Flink.

/// Flink's `BinaryStringData.hashCode` of a string's UTF-8 bytes (`MurmurHashUtils.hashBytes`, seed 42): the
/// 4-byte words as little-endian ints (a little-endian host's `MemorySegment.getInt`), then each remaining byte
/// alone, sign-extended, then the final mix with the length.
pub(crate) fn string_data_hash(bytes: &[u8]) -> i32 {
    let mut h1: u32 = 42;
    let words = bytes.chunks_exact(4);
    let tail = words.remainder();
    for word in words {
        h1 = mix_h1(
            h1,
            mix_k1(u32::from_le_bytes([word[0], word[1], word[2], word[3]])),
        );
    }
    for &b in tail {
        h1 = mix_h1(h1, mix_k1(b as i8 as i32 as u32));
    }
    fmix(h1 ^ bytes.len() as u32) as i32
}

fn mix_k1(k1: u32) -> u32 {
    k1.wrapping_mul(0xcc9e_2d51)
        .rotate_left(15)
        .wrapping_mul(0x1b87_3593)
}

fn mix_h1(h1: u32, k1: u32) -> u32 {
    (h1 ^ k1)
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// No node: the end of a bucket's list.
const NONE: u32 = u32::MAX;
/// `HashMap.TREEIFY_THRESHOLD`: a bucket that already holds this many keys becomes a tree on the next one.
const TREEIFY_THRESHOLD: usize = 8;
/// `HashMap.MIN_TREEIFY_CAPACITY`: below this table size, such a bucket makes the table grow instead.
const MIN_TREEIFY_CAPACITY: usize = 64;

/// The structure of a `new HashMap<>()` as keys are put into it, each key known by its index in the order it was
/// first put (the caller keeps the keys and values).
#[derive(Debug, Default)]
pub(crate) struct JavaHashMap {
    /// The first and last key of each bucket's list (empty before the first put, as Java allocates lazily).
    heads: Vec<(u32, u32)>,
    /// Per key: its spread hash and the next key of its bucket.
    nodes: Vec<(u32, u32)>,
}

/// The map's next put makes a bucket a tree: its iteration order is no longer the one [`JavaHashMap`] follows.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Treeified;

impl JavaHashMap {
    /// Puts a key whose `hashCode` is `hash`: `Ok(Some(i))` when key `i`, already in the map, equals it (`same(i)`,
    /// asked only of keys with the same hash; Java then replaces the value in place), `Ok(None)` when it is new (it
    /// becomes the next key number: 0, 1, ...).
    pub(crate) fn put(
        &mut self,
        hash: i32,
        mut same: impl FnMut(usize) -> bool,
    ) -> Result<Option<usize>, Treeified> {
        if self.heads.is_empty() {
            self.heads = vec![(NONE, NONE); 16];
        }
        let spread = (hash as u32) ^ ((hash as u32) >> 16);
        let bucket = spread as usize & (self.heads.len() - 1);
        let mut in_bucket = 0usize;
        let mut node = self.heads[bucket].0;
        while node != NONE {
            let (node_hash, next) = self.nodes[node as usize];
            if node_hash == spread && same(node as usize) {
                return Ok(Some(node as usize));
            }
            in_bucket += 1;
            node = next;
        }
        let index = self.nodes.len() as u32;
        self.nodes.push((spread, NONE));
        self.append(bucket, index);
        if in_bucket >= TREEIFY_THRESHOLD {
            // HashMap.treeifyBin: a small table grows instead.
            if self.heads.len() >= MIN_TREEIFY_CAPACITY {
                return Err(Treeified);
            }
            self.resize();
        }
        // HashMap.putVal: ++size > threshold (three quarters of the table).
        if self.nodes.len() > self.heads.len() / 4 * 3 {
            self.resize();
        }
        Ok(None)
    }

    /// The keys in the order the map iterates them: bucket by bucket, each bucket in insertion order.
    pub(crate) fn order(&self) -> impl Iterator<Item = usize> + '_ {
        self.heads.iter().flat_map(move |&(head, _)| {
            std::iter::successors((head != NONE).then_some(head), move |&n| {
                let next = self.nodes[n as usize].1;
                (next != NONE).then_some(next)
            })
            .map(|n| n as usize)
        })
    }

    fn append(&mut self, bucket: usize, index: u32) {
        match self.heads[bucket] {
            (NONE, _) => self.heads[bucket] = (index, index),
            (head, tail) => {
                self.nodes[tail as usize].1 = index;
                self.heads[bucket] = (head, index);
            }
        }
    }

    /// Doubles the table. Java splits each bucket keeping its order, so each new bucket holds its keys in
    /// insertion order: relinking the keys in insertion order gives the same lists.
    fn resize(&mut self) {
        let buckets = self.heads.len() * 2;
        self.heads.clear();
        self.heads.resize(buckets, (NONE, NONE));
        for index in 0..self.nodes.len() {
            self.nodes[index].1 = NONE;
            let bucket = self.nodes[index].0 as usize & (buckets - 1);
            self.append(bucket, index as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `BinaryStringData.fromString(s).hashCode()`, printed by Flink 2.2.1's flink-table-common on JDK 17.
    #[test]
    fn string_hashes_are_flinks() {
        let flink = [
            ("", 142_593_372),
            ("a", 1_485_273_170),
            ("ab", -97_053_317),
            ("abc", 1_322_437_556),
            ("abcd", -396_302_900),
            ("abcde", 814_637_928),
            ("key-17", 1_263_347_807),
            ("caf\u{e9}", -1_360_878_028),
            ("\u{ff}\u{fe}\u{fd}", -1_848_368_187),
            ("\u{1f600} emoji", -216_633_217),
            ("a longer key of thirty-one chars", 398_834_760),
        ];
        for (text, hash) in flink {
            assert_eq!(string_data_hash(text.as_bytes()), hash, "{text:?}");
        }
    }

    /// The keys `k0`..`k19` put into a `HashMap<Object, Object>` as `StringData`, then `k3` again: the order
    /// Flink 2.2.1 / JDK 17 iterates them (`keySet()`), across one resize.
    #[test]
    fn order_is_javas_across_a_resize() {
        let keys: Vec<String> = (0..20)
            .map(|i| format!("k{i}"))
            .chain(["k3".into()])
            .collect();
        let mut map = JavaHashMap::default();
        let mut distinct: Vec<&str> = Vec::new();
        for key in &keys {
            let found = map
                .put(string_data_hash(key.as_bytes()), |i| distinct[i] == key)
                .unwrap();
            match found {
                Some(i) => assert_eq!(distinct[i], "k3"),
                None => distinct.push(key),
            }
        }
        assert_eq!(map.nodes.len(), 20);
        let order: Vec<&str> = map.order().map(|i| distinct[i]).collect();
        assert_eq!(
            order.join(" "),
            "k6 k9 k19 k3 k14 k8 k0 k10 k18 k1 k2 k15 k4 k5 k12 k16 k7 k11 k13 k17"
        );
    }

    /// Nine keys of one hash: a ninth in a bucket of a 16-bucket table doubles it (and again to 64 as more come),
    /// and in a 64-bucket table makes the bucket a tree.
    #[test]
    fn a_crowded_bucket_grows_the_table_then_treeifies() {
        let mut map = JavaHashMap::default();
        for _ in 0..8 {
            assert_eq!(map.put(7, |_| false), Ok(None));
        }
        assert_eq!(map.heads.len(), 16);
        assert_eq!(map.put(7, |_| false), Ok(None));
        assert_eq!(map.heads.len(), 32);
        assert_eq!(map.put(7, |_| false), Ok(None));
        assert_eq!(map.heads.len(), 64);
        assert_eq!(map.put(7, |_| false), Err(Treeified));
    }
}
