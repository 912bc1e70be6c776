package org.streamfusion.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Seeded Nexmark-shaped Flink rows, the same shapes as the Rust criterion benchmark
 * ({@code rust/streamfusion-json/benches/json_batch.rs}): bids, and q9's winning bid joined to its auction; and
 * Nexmark's auctions and persons (the columns of Nexmark's {@code auction} and {@code person} tables).
 * Rows are {@code BinaryRowData}, the form a Flink sink receives them in from the network stack.
 */
public final class NexmarkRows {
    /** Nexmark bids: auction, bidder, price BIGINT; channel, url VARCHAR; dateTime TIMESTAMP(3); extra VARCHAR. */
    public static final RowType BID = RowType.of(
            new LogicalType[] {
                new BigIntType(), new BigIntType(), new BigIntType(), string(), string(), new TimestampType(3), string()
            },
            new String[] {"auction", "bidder", "price", "channel", "url", "dateTime", "extra"});

    /** q9 rows: the auction's ten columns, then the winning bid's seven, prefixed {@code bid_}. */
    public static final RowType Q9 = RowType.of(
            new LogicalType[] {
                new BigIntType(),
                string(),
                string(),
                new BigIntType(),
                new BigIntType(),
                new TimestampType(3),
                new TimestampType(3),
                new BigIntType(),
                new BigIntType(),
                string(),
                new BigIntType(),
                new BigIntType(),
                new BigIntType(),
                string(),
                string(),
                new TimestampType(3),
                string()
            },
            new String[] {
                "id",
                "itemName",
                "description",
                "initialBid",
                "reserve",
                "dateTime",
                "expires",
                "seller",
                "category",
                "extra",
                "bid_auction",
                "bid_bidder",
                "bid_price",
                "bid_channel",
                "bid_url",
                "bid_dateTime",
                "bid_extra"
            });

    /** Nexmark auctions: the first ten columns of {@link #Q9} (id to extra). */
    public static final RowType AUCTION = new RowType(Q9.getFields().subList(0, 10));

    /**
     * Nexmark persons: id BIGINT; name, emailAddress, creditCard, city, state VARCHAR; dateTime TIMESTAMP(3);
     * extra VARCHAR.
     */
    public static final RowType PERSON = RowType.of(
            new LogicalType[] {
                new BigIntType(), string(), string(), string(), string(), string(), new TimestampType(3), string()
            },
            new String[] {"id", "name", "emailAddress", "creditCard", "city", "state", "dateTime", "extra"});

    private static final String[] CITIES = {"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend"};
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};

    private static final String[] CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    /** 2026-11-29T00:00:00Z in epoch milliseconds. */
    private static final long START_MS = 1_795_910_400_000L;

    private NexmarkRows() {}

    private static VarCharType string() {
        return new VarCharType(VarCharType.MAX_LENGTH);
    }

    /**
     * @param shape {@code bid}, {@code q9}, {@code auction} or {@code person}
     * @return the row type of that shape
     * @throws IllegalArgumentException for another name
     */
    public static RowType type(String shape) {
        switch (shape) {
            case "bid":
                return BID;
            case "q9":
                return Q9;
            case "auction":
                return AUCTION;
            case "person":
                return PERSON;
            default:
                throw new IllegalArgumentException("unknown shape " + shape + ": expected bid, q9, auction or person");
        }
    }

    /**
     * {@code n} rows of {@code shape}, deterministic for a seed.
     *
     * @param shape {@code bid}, {@code q9}, {@code auction} or {@code person}
     * @param seed the random seed
     * @param first the index of the first row (event times advance 10 ms per row from 2026-11-29T00:00Z)
     * @param n how many rows
     * @return new {@code BinaryRowData} rows
     */
    public static List<RowData> rows(String shape, long seed, long first, int n) {
        RowType type = type(shape);
        RowDataSerializer binary = new RowDataSerializer(type);
        SplittableRandom r = new SplittableRandom(seed ^ first);
        List<RowData> rows = new ArrayList<>(n);
        for (long i = first; i < first + n; i++) {
            GenericRowData row;
            if (type == BID) {
                row = bid(r, i, 0);
            } else if (type == PERSON) {
                row = person(r, i);
            } else {
                GenericRowData joined = q9(r, i);
                row = type == Q9 ? joined : auction(joined);
            }
            rows.add(binary.toBinaryRow(row).copy());
        }
        return rows;
    }

    private static GenericRowData bid(SplittableRandom r, long i, int jitter) {
        return GenericRowData.of(
                1000L + r.nextInt(10_000),
                1000L + r.nextInt(100_000),
                1L + r.nextInt(10_000_000),
                StringData.fromString(CHANNELS[r.nextInt(4)]),
                StringData.fromString("https://www.nexmark.com/" + text(r, 3, 5) + "/" + text(r, 3, 5) + "/"
                        + text(r, 3, 5) + "/item.htm?query=1"),
                TimestampData.fromEpochMillis(START_MS + i * 10 + r.nextInt(10 + jitter)),
                StringData.fromString(text(r, 54, 81)));
    }

    private static GenericRowData q9(SplittableRandom r, long i) {
        GenericRowData bid = bid(r, i, 990);
        Object[] fields = {
            (long) r.nextInt(1_000_000),
            StringData.fromString(text(r, 20, 30)),
            StringData.fromString(text(r, 80, 120)),
            (long) r.nextInt(10_000),
            (long) r.nextInt(20_000),
            TimestampData.fromEpochMillis(START_MS + i * 10 + r.nextInt(1000)),
            TimestampData.fromEpochMillis(START_MS + i * 10 + r.nextInt(1000)),
            (long) r.nextInt(100_000),
            (long) r.nextInt(20),
            StringData.fromString(text(r, 120, 200)),
            bid.getField(0),
            bid.getField(1),
            bid.getField(2),
            bid.getField(3),
            bid.getField(4),
            bid.getField(5),
            bid.getField(6)
        };
        return GenericRowData.of(fields);
    }

    private static GenericRowData auction(GenericRowData q9) {
        GenericRowData row = new GenericRowData(10);
        for (int f = 0; f < 10; f++) {
            row.setField(f, q9.getField(f));
        }
        return row;
    }

    private static GenericRowData person(SplittableRandom r, long i) {
        String first = text(r, 4, 8);
        String last = text(r, 5, 10);
        return GenericRowData.of(
                1000L + i,
                StringData.fromString(first + " " + last),
                StringData.fromString(first + "@" + last + ".com"),
                StringData.fromString(String.format(
                        "%04d %04d %04d %04d",
                        r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000))),
                StringData.fromString(CITIES[r.nextInt(CITIES.length)]),
                StringData.fromString(STATES[r.nextInt(STATES.length)]),
                TimestampData.fromEpochMillis(START_MS + i * 10 + r.nextInt(10)),
                StringData.fromString(text(r, 100, 180)));
    }

    private static String text(SplittableRandom r, int min, int max) {
        int len = min + r.nextInt(max - min + 1);
        char[] chars = new char[len];
        for (int c = 0; c < len; c++) {
            chars[c] = (char) ('a' + r.nextInt(26));
        }
        return new String(chars);
    }
}
