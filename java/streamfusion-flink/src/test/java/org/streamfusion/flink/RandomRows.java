package org.streamfusion.flink;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;
import org.apache.flink.types.RowKind;

/** Seeded random rows of every type the Arrow writer supports, with nulls, extremes and awkward text. */
final class RandomRows {
    /** Every supported type, nullable, under field names that need escaping too. */
    static final RowType ALL_TYPES = RowType.of(
            new LogicalType[] {
                new BigIntType(),
                new IntType(),
                new VarCharType(VarCharType.MAX_LENGTH),
                new BooleanType(),
                new TinyIntType(),
                new SmallIntType(),
                new FloatType(),
                new DoubleType(),
                new CharType(3),
                new VarBinaryType(VarBinaryType.MAX_LENGTH),
                new DecimalType(10, 2),
                new DecimalType(38, 6),
                new DecimalType(5, 0),
                new DateType(),
                new TimeType(0),
                new TimeType(3),
                new TimestampType(3),
                new TimestampType(6),
                new TimestampType(9),
                new TimestampType(0),
                new LocalZonedTimestampType(3),
                new LocalZonedTimestampType(6),
                new YearMonthIntervalType(YearMonthIntervalType.YearMonthResolution.YEAR_TO_MONTH),
                new DayTimeIntervalType(DayTimeIntervalType.DayTimeResolution.DAY_TO_SECOND)
            },
            new String[] {
                "id", "k2", "name", "flag", "tiny", "small", "f", "d", "chr", "bytes", "dec10_2", "dec38_6", "dec5",
                "day", "t0", "t3", "ts3", "ts6", "ts9", "ts0", "ltz3", "ltz6", "ym", "dt"
            });

    private static final String[] TEXT = {
        "",
        "a",
        "plain text",
        "quote \" back \\ slash /",
        "tab\tnew\nline\r",
        "\u0000\u0001\u001f\u007f",
        "é ü ß",
        "日本語",
        "emoji \uD83D\uDE00!",
        "\u2028\u2029",
        "<script>&amp;"
    };
    private static final double[] DOUBLES = {
        0.0,
        -0.0,
        1.0,
        0.1,
        1e7,
        1e-3,
        9.99e-4,
        1e21,
        1e22,
        123456.789,
        Double.MAX_VALUE,
        Double.MIN_VALUE,
        // Digits that differ between JDK 17 and JDK 19+ (1.9999999999999998E23 vs 2.0E23 ...).
        2.0e23,
        1.0e23,
        9.5e21,
        0x1p62,
        9.007199254740993e15,
        Double.MIN_VALUE * 2,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY
    };
    private static final long MIN_NANOS_MS = Long.MIN_VALUE / 1_000_000 + 1;
    private static final long MAX_NANOS_MS = Long.MAX_VALUE / 1_000_000 - 1;

    private RandomRows() {}

    /**
     * {@code n} rows of {@link #ALL_TYPES}, about one field in six null, row kinds spread over all four; every
     * other row in Flink's binary form ({@code BinaryRowData}, as rows arrive from the network), the rest generic.
     */
    static List<RowData> allTypes(long seed, int n) {
        Random r = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(ALL_TYPES);
        List<RowData> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            GenericRowData row = new GenericRowData(RowKind.values()[r.nextInt(4)], ALL_TYPES.getFieldCount());
            Object[] v = {
                r.nextInt(4) == 0 ? (Object) extremeLong(r) : (Object) (long) r.nextInt(1000),
                r.nextInt(),
                StringData.fromString(text(r)),
                r.nextBoolean(),
                (byte) r.nextInt(),
                (short) r.nextInt(),
                r.nextInt(4) == 0
                        ? Float.intBitsToFloat(r.nextInt())
                        : (float) DOUBLES[r.nextInt(DOUBLES.length)] * (r.nextBoolean() ? 1 : 3.7f),
                switch (r.nextInt(3)) {
                    case 0 -> DOUBLES[r.nextInt(DOUBLES.length)];
                    case 1 -> Double.longBitsToDouble(r.nextLong());
                    default -> r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
                },
                StringData.fromString(new String(new char[] {(char) ('a' + r.nextInt(26)), 'b', 'c'})),
                text(r).getBytes(StandardCharsets.UTF_8),
                decimal(r, 10, 2),
                decimal(r, 38, 6),
                decimal(r, 5, 0),
                r.nextInt(200_000) - 100_000,
                r.nextInt(86_400) * 1000,
                r.nextInt(86_400_000),
                TimestampData.fromEpochMillis(r.nextLong() % 253_402_300_799_000L),
                TimestampData.fromEpochMillis(r.nextLong() % 253_402_300_799_000L, r.nextInt(1000) * 1000),
                TimestampData.fromEpochMillis(
                        MIN_NANOS_MS + (long) (r.nextDouble() * (MAX_NANOS_MS - MIN_NANOS_MS)), r.nextInt(1_000_000)),
                TimestampData.fromEpochMillis((r.nextLong() % 253_402_300_799L) * 1000),
                TimestampData.fromEpochMillis(r.nextLong() % 253_402_300_799_000L),
                TimestampData.fromEpochMillis(r.nextLong() % 253_402_300_799_000L, r.nextInt(1000) * 1000),
                r.nextInt(240_000) - 120_000,
                r.nextLong() % 100_000_000_000L
            };
            for (int f = 0; f < v.length; f++) {
                row.setField(f, r.nextInt(6) == 0 ? null : v[f]);
            }
            rows.add(i % 2 == 0 ? binary.toBinaryRow(row).copy() : row);
        }
        return rows;
    }

    private static long extremeLong(Random r) {
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, Integer.MIN_VALUE, 9_007_199_254_740_993L};
        return extremes[r.nextInt(extremes.length)];
    }

    private static String text(Random r) {
        return TEXT[r.nextInt(TEXT.length)] + (r.nextBoolean() ? "" : TEXT[r.nextInt(TEXT.length)]);
    }

    private static DecimalData decimal(Random r, int precision, int scale) {
        int digits = 1 + r.nextInt(precision);
        BigInteger unscaled = new BigInteger(digits * 3 + 1, r).mod(BigInteger.TEN.pow(digits));
        BigDecimal value = new BigDecimal(r.nextBoolean() ? unscaled : unscaled.negate(), scale);
        return DecimalData.fromBigDecimal(value, precision, scale);
    }
}
