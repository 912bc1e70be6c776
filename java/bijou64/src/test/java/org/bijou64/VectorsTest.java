package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of the shared vectors, through both implementations. */
class VectorsTest {
    static List<Implementation> implementations() {
        return Implementations.all();
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void everyValidRowEncodesAndDecodes(Implementation impl) {
        List<Vectors.Valid> rows = Vectors.valid();
        assertTrue(rows.size() >= 230, "bijou.csv rows: " + rows.size());
        for (Vectors.Valid row : rows) {
            if (row.isLong()) {
                LongCodec codec = Bijou64.codec(row.mapping(), impl);
                long value = row.longValue();
                assertArrayEquals(row.bytes(), codec.encode(value), () -> "encode " + row);
                assertEquals(row.bytes().length, codec.encodedLength(value), () -> "encodedLength " + row);
                assertEquals(value, codec.decode(row.bytes()), () -> "decode " + row);
                assertEquals(
                        new Decoded(value, row.bytes().length),
                        codec.decodePrefix(row.bytes(), 0, row.bytes().length),
                        () -> "decodePrefix " + row);
            } else {
                IntCodec codec = Bijou32.codec(row.mapping(), impl);
                int value = row.intValue();
                assertArrayEquals(row.bytes(), codec.encode(value), () -> "encode " + row);
                assertEquals(row.bytes().length, codec.encodedLength(value), () -> "encodedLength " + row);
                assertEquals(value, codec.decode(row.bytes()), () -> "decode " + row);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void everyFormatRoundTripsAsOneSlab(Implementation impl) {
        for (String format : List.of("bijou64", "bijou64-long", "bijou64s", "bijou32", "bijou32s")) {
            List<Vectors.Valid> rows = Vectors.valid().stream()
                    .filter(r -> r.format().equals(format))
                    .collect(Collectors.toList());
            Mapping mapping = rows.get(0).mapping();
            EncodedSlab slab;
            if (rows.get(0).isLong()) {
                long[] values =
                        rows.stream().mapToLong(Vectors.Valid::longValue).toArray();
                slab = Bijou64.codec(mapping, impl).encodeAll(values);
                assertArrayEquals(values, Bijou64.codec(mapping, impl).decodeAll(slab.bytes(), slab.offsets()), format);
            } else {
                int[] values = rows.stream().mapToInt(Vectors.Valid::intValue).toArray();
                slab = Bijou32.codec(mapping, impl).encodeAll(values);
                assertArrayEquals(values, Bijou32.codec(mapping, impl).decodeAll(slab.bytes(), slab.offsets()), format);
            }
            assertEquals(rows.size(), slab.size(), format);
            for (int i = 0; i < rows.size(); i++) {
                assertArrayEquals(rows.get(i).bytes(), slab.record(i), format + " record " + i);
            }
        }
    }

    /** The static per-record calls the Kafka serdes use, each record also read from the middle of a larger array. */
    @Test
    void theStaticPerRecordCallsWriteAndReadEveryVector() {
        for (Vectors.Valid row : Vectors.valid()) {
            byte[] padded = new byte[row.bytes().length + 6];
            Arrays.fill(padded, (byte) 0xFF);
            System.arraycopy(row.bytes(), 0, padded, 3, row.bytes().length);
            if (row.isLong()) {
                assertArrayEquals(row.bytes(), Bijou64.encode(row.longValue(), row.mapping()), () -> "encode " + row);
                assertEquals(
                        row.longValue(),
                        Bijou64.decode(padded, 3, row.bytes().length, row.mapping()),
                        () -> "decode " + row);
            } else {
                assertArrayEquals(row.bytes(), Bijou32.encode(row.intValue(), row.mapping()), () -> "encode " + row);
                assertEquals(
                        row.intValue(),
                        Bijou32.decode(padded, 3, row.bytes().length, row.mapping()),
                        () -> "decode " + row);
            }
        }
        for (Vectors.Invalid row : Vectors.invalid()) {
            byte[] padded = new byte[row.bytes().length + 6];
            System.arraycopy(row.bytes(), 0, padded, 3, row.bytes().length);
            if (row.expected().startsWith("ok:")) {
                assertEquals(
                        Long.parseUnsignedLong(row.expected().substring(3)),
                        Bijou64.decode(padded, 3, row.bytes().length, Mapping.UNSIGNED),
                        row::toString);
                continue;
            }
            Bijou64Exception e = assertThrows(
                    Bijou64Exception.class,
                    () -> Bijou64.decode(padded, 3, row.bytes().length, Mapping.UNSIGNED),
                    row::toString);
            assertEquals(row.expected(), e.kind().word(), () -> row + ": " + e.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("implementations")
    void everyInvalidRowRaisesItsError(Implementation impl) {
        List<Vectors.Invalid> rows = Vectors.invalid();
        assertTrue(rows.size() >= 14, "bijou-invalid.csv rows: " + rows.size());
        LongCodec codec = Bijou64.codec(Mapping.UNSIGNED, impl);
        for (Vectors.Invalid row : rows) {
            assertEquals("bijou64", row.format(), "only bijou64 rows are expected");
            if (row.expected().startsWith("ok:")) {
                assertEquals(
                        Long.parseUnsignedLong(row.expected().substring(3)), codec.decode(row.bytes()), row::toString);
                continue;
            }
            Bijou64Exception e = assertThrows(Bijou64Exception.class, () -> codec.decode(row.bytes()), row::toString);
            assertEquals(row.expected(), e.kind().word(), () -> row + ": " + e.getMessage());
            assertEquals(-1, e.recordIndex());
            // The same bytes as record 1 of a slab.
            byte[] slab = new byte[row.bytes().length + 1];
            slab[0] = 0x01;
            System.arraycopy(row.bytes(), 0, slab, 1, row.bytes().length);
            Bijou64Exception inSlab = assertThrows(
                    Bijou64Exception.class, () -> codec.decodeAll(slab, new int[] {0, 1, slab.length}), row::toString);
            assertEquals(row.expected(), inSlab.kind().word(), row::toString);
            assertEquals(1, inSlab.recordIndex(), row::toString);
            assertEquals("record 1: " + e.getMessage(), inSlab.getMessage(), row::toString);
        }
    }
}
