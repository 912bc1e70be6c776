package org.bijou64;

import static org.bijou64.ByteInputs.hex;
import static org.bijou64.ByteInputs.outcome;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/**
 * Property tests (QuickTheories) of every decoder: the inputs of {@link ByteInputs#records()} (mostly near a
 * valid record, some wholly random) decoded by the pure-Java, the native and the default codec of each width
 * and mapping. All three must give the same value, or fail with the same exception class,
 * {@link Bijou64Exception.Kind}, record index and message; a value that decodes encodes back to exactly the
 * record. Slabs likewise ({@link ByteInputs#slabs()}). The Java codec is the reference because
 * {@code VectorsTest} and {@code CasesTest} pin it to the shared vectors; the native one is also pinned to
 * upstream {@code bijoux} by the Rust fuzz target {@code bijou_decode}. A failure prints the shrunk input and
 * the seed; {@code withFixedSeed(seed)} replays it.
 */
class DecodeProperties {
    @Test
    void anyBytesDecodeAlikeAsLongs() {
        qt().withExamples(20_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    List<LongCodec> codecs = longCodecs(mapping);
                    LongCodec java = codecs.get(0);
                    String expected = outcome(() -> java.decode(record));
                    String expectedPrefix = outcome(() -> java.decodePrefix(record, 0, record.length));
                    for (LongCodec codec : codecs) {
                        assertEquals(
                                expected,
                                outcome(() -> codec.decode(record)),
                                () -> codec.implementation() + " " + hex(record));
                        assertEquals(
                                expectedPrefix,
                                outcome(() -> codec.decodePrefix(record, 0, record.length)),
                                () -> "decodePrefix, " + codec.implementation() + " " + hex(record));
                    }
                    if (expected.startsWith("ok:")) {
                        long value = java.decode(record);
                        for (LongCodec codec : codecs) {
                            assertArrayEquals(
                                    record, codec.encode(value), () -> codec.implementation() + " re-encodes " + value);
                            assertEquals(record.length, codec.encodedLength(value));
                        }
                    }
                });
    }

    @Test
    void anyBytesDecodeAlikeAsInts() {
        qt().withExamples(20_000)
                .forAll(ByteInputs.records(), Generate.enumValues(Mapping.class))
                .checkAssert((record, mapping) -> {
                    List<IntCodec> codecs = intCodecs(mapping);
                    IntCodec java = codecs.get(0);
                    String expected = outcome(() -> java.decode(record));
                    String expectedPrefix = outcome(() -> java.decodePrefix(record, 0, record.length));
                    for (IntCodec codec : codecs) {
                        assertEquals(
                                expected,
                                outcome(() -> codec.decode(record)),
                                () -> codec.implementation() + " " + hex(record));
                        assertEquals(
                                expectedPrefix,
                                outcome(() -> codec.decodePrefix(record, 0, record.length)),
                                () -> "decodePrefix, " + codec.implementation() + " " + hex(record));
                    }
                    if (expected.startsWith("ok:")) {
                        int value = java.decode(record);
                        for (IntCodec codec : codecs) {
                            assertArrayEquals(
                                    record, codec.encode(value), () -> codec.implementation() + " re-encodes " + value);
                        }
                    }
                });
    }

    /**
     * A record inside a larger array (0 to 3 filler bytes either side), read at bounds up to 2 off in either
     * direction: the same value, or the same exception ({@code IndexOutOfBoundsException} with the JDK's
     * message for bounds outside the array).
     */
    @Test
    void aRecordInsideAnArrayDecodesAlikeWhateverTheBounds() {
        qt().withExamples(10_000)
                .forAll(
                        ByteInputs.records(),
                        Generate.range(0, 15),
                        Generate.range(0, 24),
                        Generate.enumValues(Mapping.class))
                .checkAssert((record, padding, error, mapping) -> {
                    int before = padding & 3;
                    byte[] src = new byte[before + record.length + (padding >> 2)];
                    Arrays.fill(src, (byte) 0x99);
                    System.arraycopy(record, 0, src, before, record.length);
                    int offset = before + error % 5 - 2;
                    int length = record.length + error / 5 - 2;
                    List<LongCodec> codecs = longCodecs(mapping);
                    String expected = outcome(() -> codecs.get(0).decode(src, offset, length));
                    String expectedPrefix = outcome(() -> codecs.get(0).decodePrefix(src, offset, length));
                    for (LongCodec codec : codecs) {
                        String where = codec.implementation() + " " + hex(src) + " at " + offset + " length " + length;
                        assertEquals(expected, outcome(() -> codec.decode(src, offset, length)), where);
                        assertEquals(
                                expectedPrefix,
                                outcome(() -> codec.decodePrefix(src, offset, length)),
                                "decodePrefix, " + where);
                    }
                });
    }

    @Test
    void anySlabDecodesAlike() {
        qt().withExamples(3_000)
                .forAll(ByteInputs.slabs(), Generate.enumValues(Mapping.class))
                .checkAssert((slab, mapping) -> {
                    List<LongCodec> longs = longCodecs(mapping);
                    String expected = outcome(() -> longs.get(0).decodeAll(slab.bytes(), slab.offsets()));
                    for (LongCodec codec : longs) {
                        assertEquals(
                                expected,
                                outcome(() -> codec.decodeAll(slab.bytes(), slab.offsets())),
                                () -> codec.implementation() + " " + slab);
                    }
                    List<IntCodec> ints = intCodecs(mapping);
                    String expectedInts = outcome(() -> ints.get(0).decodeAll(slab.bytes(), slab.offsets()));
                    for (IntCodec codec : ints) {
                        assertEquals(
                                expectedInts,
                                outcome(() -> codec.decodeAll(slab.bytes(), slab.offsets())),
                                () -> codec.implementation() + " as ints " + slab);
                    }
                });
    }

    private static List<LongCodec> longCodecs(Mapping mapping) {
        return Implementations.all().stream()
                .map(i -> Bijou64.codec(mapping, i))
                .toList();
    }

    private static List<IntCodec> intCodecs(Mapping mapping) {
        return Implementations.all().stream()
                .map(i -> Bijou32.codec(mapping, i))
                .toList();
    }
}
