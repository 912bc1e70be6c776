package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seeded differential test, native vs pure Java, over 2^20 values per width and mapping that cover
 * every tier (a random value shifted right by a random amount, so each bit length is equally likely).
 */
class DifferentialTest {
    private static final int COUNT = 1 << 20;
    private static final long SEED = 0x6269_6a6f_7536_34L;

    @BeforeAll
    static void nativeLoaded() {
        assumeTrue(Implementations.all().contains(Implementation.NATIVE), "native library skipped in this build");
    }

    @ParameterizedTest
    @EnumSource(Mapping.class)
    void longsMatch(Mapping mapping) {
        LongCodec java = Bijou64.codec(mapping, Implementation.JAVA);
        LongCodec rust = Bijou64.codec(mapping, Implementation.NATIVE);
        SplittableRandom random = new SplittableRandom(SEED);
        long[] values = new long[COUNT];
        int[] tiers = new int[10];
        for (int i = 0; i < COUNT; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            values[i] = v;
            byte[] expected = rust.encode(v);
            assertArrayEquals(expected, java.encode(v), () -> "encode " + v);
            tiers[expected.length]++;
            assertEquals(v, java.decode(expected));
            assertEquals(v, rust.decode(expected));
        }
        for (int length = 1; length <= 9; length++) {
            assertEquals(true, tiers[length] > 100, "encoded length " + length + " seen " + tiers[length] + " times");
        }
        EncodedSlab slab = rust.encodeAll(values);
        assertEquals(slab, java.encodeAll(values));
        assertArrayEquals(values, java.decodeAll(slab.bytes(), slab.offsets()));
        assertArrayEquals(values, rust.decodeAll(slab.bytes(), slab.offsets()));
        // The default codec takes the native path at this size.
        LongCodec auto = Bijou64.codec(mapping);
        assertEquals(Implementation.AUTO, auto.implementation());
        assertEquals(slab, auto.encodeAll(values));
        assertArrayEquals(values, auto.decodeAll(slab.bytes(), slab.offsets()));
    }

    @ParameterizedTest
    @EnumSource(Mapping.class)
    void intsMatch(Mapping mapping) {
        IntCodec java = Bijou32.codec(mapping, Implementation.JAVA);
        IntCodec rust = Bijou32.codec(mapping, Implementation.NATIVE);
        SplittableRandom random = new SplittableRandom(SEED);
        int[] values = new int[COUNT];
        int[] tiers = new int[6];
        for (int i = 0; i < COUNT; i++) {
            int v = random.nextInt() >> random.nextInt(32);
            values[i] = v;
            byte[] expected = rust.encode(v);
            assertArrayEquals(expected, java.encode(v), () -> "encode " + v);
            tiers[expected.length]++;
            assertEquals(v, java.decode(expected));
        }
        for (int length = 1; length <= 5; length++) {
            assertEquals(true, tiers[length] > 100, "encoded length " + length + " seen " + tiers[length] + " times");
        }
        EncodedSlab slab = rust.encodeAll(values);
        assertEquals(slab, java.encodeAll(values));
        assertArrayEquals(values, rust.decodeAll(slab.bytes(), slab.offsets()));
    }

    @ParameterizedTest
    @EnumSource(Mapping.class)
    void everyTwoByteInputIsJudgedAlike(Mapping mapping) {
        LongCodec java = Bijou64.codec(mapping, Implementation.JAVA);
        LongCodec rust = Bijou64.codec(mapping, Implementation.NATIVE);
        for (int n = 0; n < 1 << 16; n++) {
            byte[] bytes = {(byte) (n >> 8), (byte) n};
            String javaResult = outcome(() -> java.decode(bytes));
            assertEquals(outcome(() -> rust.decode(bytes)), javaResult, "input " + n);
        }
    }

    @org.junit.jupiter.api.Test
    void badOffsetsGetTheSameMessage() {
        LongCodec javaCodec = Bijou64.codec(Mapping.UNSIGNED, Implementation.JAVA);
        LongCodec rustCodec = Bijou64.codec(Mapping.UNSIGNED, Implementation.NATIVE);
        byte[] slab = {0x2a};
        for (int[] offsets : new int[][] {{}, {1, 1}, {0, 2}, {0, 1, 0, 1}, {0, -1, 1}, {0, 1, -3}, {-1, 1}}) {
            String javaMessage = org.junit.jupiter.api.Assertions.assertThrows(
                            Bijou64Exception.class, () -> javaCodec.decodeAll(slab, offsets))
                    .getMessage();
            String rustMessage = org.junit.jupiter.api.Assertions.assertThrows(
                            Bijou64Exception.class, () -> rustCodec.decodeAll(slab, offsets))
                    .getMessage();
            assertEquals(rustMessage, javaMessage, java.util.Arrays.toString(offsets));
        }
    }

    private static String outcome(java.util.function.LongSupplier decode) {
        try {
            return "ok:" + decode.getAsLong();
        } catch (Bijou64Exception e) {
            return e.kind() + ":" + e.getMessage();
        }
    }
}
