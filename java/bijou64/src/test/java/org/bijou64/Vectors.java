package org.bijou64;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The test vectors ({@code testdata/vectors}) that every implementation of the format is checked against.
 * Also used by the serializer module's tests through this module's test jar.
 */
public final class Vectors {
    /** One row of {@code bijou.csv}: format, decimal value, hex bytes. */
    public record Valid(String format, String value, byte[] bytes) {
        /** @return the mapping this row's format uses */
        public Mapping mapping() {
            return format.endsWith("s") ? Mapping.ZIGZAG : Mapping.UNSIGNED;
        }

        /** @return true for the Long rows (bijou64, bijou64-long, bijou64s) */
        public boolean isLong() {
            return format.startsWith("bijou64");
        }

        /** @return the Kafka Long this row encodes (bijou64 rows hold u64 values: their two's-complement bits) */
        public long longValue() {
            return format.equals("bijou64") ? Long.parseUnsignedLong(value) : Long.parseLong(value);
        }

        /** @return the Kafka Integer this row encodes (bijou32 rows hold u32 values) */
        public int intValue() {
            return format.equals("bijou32") ? Integer.parseUnsignedInt(value) : Integer.parseInt(value);
        }

        @Override
        public String toString() {
            return format + " " + value + " = " + HexFormat.of().formatHex(bytes);
        }
    }

    /** One row of {@code bijou-invalid.csv}: format, hex bytes, expected ({@code ok:V} or an error word). */
    public record Invalid(String format, byte[] bytes, String expected) {
        @Override
        public String toString() {
            return format + " [" + HexFormat.of().formatHex(bytes) + "] -> " + expected;
        }
    }

    private Vectors() {}

    /** @return the vectors directory, from the system property {@code bijou64.vectors.dir} */
    public static Path dir() {
        String dir = System.getProperty("bijou64.vectors.dir");
        if (dir == null) {
            throw new IllegalStateException("system property bijou64.vectors.dir is not set (Surefire sets it)");
        }
        return Path.of(dir);
    }

    private static List<String[]> rows(String file) {
        try {
            return Files.readAllLines(dir().resolve(file)).stream()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split(",", -1))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every row of {@code bijou.csv} */
    public static List<Valid> valid() {
        return rows("bijou.csv").stream()
                .map(r -> new Valid(r[0], r[1], HexFormat.of().parseHex(r[2])))
                .collect(Collectors.toList());
    }

    /** @return every row of {@code bijou-invalid.csv} */
    public static List<Invalid> invalid() {
        return rows("bijou-invalid.csv").stream()
                .map(r -> new Invalid(r[0], HexFormat.of().parseHex(r[1]), r[2]))
                .collect(Collectors.toList());
    }

    /** @return the bytes of a hex string such as {@code "f834"} */
    public static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
