package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Small inputs that broke other varint serdes, through the codec of both implementations: a lone tag byte, trailing
 * bytes, overflow, a short payload, {@code LongSerializer}'s bytes, an empty record, the extreme values (the Rust
 * codec's own are {@code rust/bijou64-kafka/tests/cases.rs}; the serdes' are {@code SerdeCasesTest}).
 */
class CasesTest {
    static List<Implementation> implementations() {
        return Implementations.all();
    }

    private static Bijou64Exception.Kind kind(Implementation impl, String hex) {
        byte[] bytes = Vectors.hex(hex);
        return assertThrows(
                        Bijou64Exception.class,
                        () -> Bijou64.codec(Mapping.UNSIGNED, impl).decode(bytes),
                        hex)
                .kind();
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void aLoneTagByteIsTruncatedNeverZero(Implementation impl) {
        assertEquals(Bijou64Exception.Kind.TRUNCATED, kind(impl, "f8"));
        assertEquals(Bijou64Exception.Kind.TRUNCATED, kind(impl, "ff"));
        Bijou64Exception e = assertThrows(
                Bijou64Exception.class,
                () -> Bijou64.codec(Mapping.UNSIGNED, impl).decode(new byte[] {(byte) 0xff}));
        assertEquals("truncated: tag 0xff announces a 9-byte bijou64 value, 1 bytes present", e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void aTrailingByteIsLeftByDecodePrefixAndRefusedByDecode(Implementation impl) {
        byte[] bytes = Vectors.hex("2a99");
        assertEquals(new Decoded(42, 1), Bijou64.codec(Mapping.UNSIGNED, impl).decodePrefix(bytes, 0, 2));
        assertEquals(new Decoded(42, 1), Bijou32.codec(Mapping.UNSIGNED, impl).decodePrefix(bytes, 0, 2));
        assertEquals(Bijou64Exception.Kind.TRAILING_BYTES, kind(impl, "2a99"));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void valuesBeyondTheIntegerTypeOverflow(Implementation impl) {
        assertEquals(Bijou64Exception.Kind.OVERFLOW, kind(impl, "fffefefefefefefe08"));
        assertEquals(Bijou64Exception.Kind.OVERFLOW, kind(impl, "ffffffffffffffffff"));
        byte[] int33 = Vectors.hex("fffefefe04"); // u32::MAX + 1 in bijou32
        assertEquals(
                Bijou64Exception.Kind.OVERFLOW,
                assertThrows(
                                Bijou64Exception.class,
                                () -> Bijou32.codec(Mapping.UNSIGNED, impl).decode(int33))
                        .kind());
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void aPayloadShorterThanItsTagAnnouncesIsTruncated(Implementation impl) {
        assertEquals(Bijou64Exception.Kind.TRUNCATED, kind(impl, "fb000000"));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void longSerializerBytesAreTrailingBytesNeverAValue(Implementation impl) {
        Bijou64Exception e = assertThrows(
                Bijou64Exception.class,
                () -> Bijou64.codec(Mapping.UNSIGNED, impl).decode(Vectors.hex("000000000000002a")));
        assertEquals(Bijou64Exception.Kind.TRAILING_BYTES, e.kind());
        assertEquals("trailing bytes: a 1-byte bijou64 value is followed by 7 more bytes", e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void anEmptyRecordIsAnError(Implementation impl) {
        assertEquals(Bijou64Exception.Kind.EMPTY, kind(impl, ""));
        assertEquals(
                Bijou64Exception.Kind.EMPTY,
                assertThrows(
                                Bijou64Exception.class,
                                () -> Bijou32.codec(Mapping.ZIGZAG, impl).decode(new byte[0]))
                        .kind());
        assertThrows(
                NullPointerException.class,
                () -> Bijou64.codec(Mapping.UNSIGNED, impl).decode(null));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void minMaxMinusOneAndZeroMatchTheVectors(Implementation impl) {
        for (Vectors.Valid row : Vectors.valid()) {
            boolean extreme =
                    row.format().equals("bijou64-long") || row.format().equals("bijou64s");
            long value = extreme ? row.longValue() : 0;
            if (extreme && (value == Long.MIN_VALUE || value == Long.MAX_VALUE || value == -1 || value == 0)) {
                assertArrayEquals(
                        row.bytes(), Bijou64.codec(row.mapping(), impl).encode(value), row::toString);
            }
        }
        assertArrayEquals(
                Vectors.hex("ff7efefefefefefe08"),
                Bijou64.codec(Mapping.UNSIGNED, impl).encode(Long.MIN_VALUE));
        assertArrayEquals(Vectors.hex("01"), Bijou64.codec(Mapping.ZIGZAG, impl).encode(-1));
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void badRangesAndOffsetsAreReported(Implementation impl) {
        LongCodec codec = Bijou64.codec(Mapping.UNSIGNED, impl);
        assertThrows(IndexOutOfBoundsException.class, () -> codec.decode(new byte[2], 1, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> codec.decode(new byte[2], -1, 1));
        for (int[] offsets : new int[][] {{}, {1, 1}, {0, 2}, {0, 1, 0, 1}, {0, -1, 1}}) {
            Bijou64Exception e = assertThrows(Bijou64Exception.class, () -> codec.decodeAll(new byte[] {1}, offsets));
            assertEquals(Bijou64Exception.Kind.INVALID_OFFSETS, e.kind());
        }
        assertEquals(0, codec.encodeAll(new long[0]).bytes().length);
        assertArrayEquals(new int[] {0}, codec.encodeAll(new long[0]).offsets());
        assertArrayEquals(new long[0], codec.decodeAll(new byte[0], new int[] {0}));
        assertEquals(
                4_000_000L,
                codec.decode(new byte[] {9, (byte) 0xfa, 0x3c, 0x07, 0x08, 9}, 1, 4)); // 4e6 - 66040 = 0x3c0708
    }
}
