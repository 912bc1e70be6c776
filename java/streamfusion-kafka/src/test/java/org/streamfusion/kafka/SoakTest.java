package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak test of the native JSON encoder: 10^6 Nexmark-bid batches through one native encoder, then 10^5 encoders opened, used
 * for one batch and closed, with resident memory flat.
 *
 * <p>The soak runs in a child JVM ({@link #main}) whose heap cannot move RSS: {@code -Xms128m -Xmx128m
 * -XX:+AlwaysPreTouch} commits and touches the whole heap at start-up, and the serial collector keeps no
 * per-region side structures that grow with use. The child reads {@code VmRSS} from /proc/self/status at four
 * points (start, after a warm-up that runs both phases' code paths so the JIT and malloc arenas settle, after
 * the batches, after the handles) and fails if RSS grew more than {@link #RSS_BOUND_KIB} after warm-up. The
 * bound is far below what a per-batch or per-handle leak would add: an exported struct pair or a
 * plan-plus-scratch left behind is hundreds of bytes to a few KiB, times 10^6 batches or 10^5 handles.
 *
 * <p>Besides RSS it checks the work itself: every batch has 8 records whose first key carries this batch's
 * auction id (so no stale scratch comes back), every 1000th batch and every 100th handle's batch is compared
 * record by record with the expected Flink JSON, one fixed row against a hand-written literal, the encoder's
 * counters against the totals, and the Arrow allocator holds only the root's own buffers after each phase
 * and nothing once the root is closed.
 *
 * <p>Run alone: {@code mvn -B -pl java/streamfusion-kafka -am install -Dtest=SoakTest
 * -Dsurefire.failIfNoSpecifiedTests=false}. The child takes the counts as arguments ({@code batches handles}),
 * for a quicker run by hand.
 */
class SoakTest {
    static final int ROWS = 8;
    static final int BATCHES = 1_000_000;
    static final int HANDLES = 100_000;
    static final int WARMUP_BATCHES = 10_000;
    static final int WARMUP_HANDLES = 2_000;
    /** Allowed RSS growth after warm-up (KiB): 32 MiB. */
    static final long RSS_BOUND_KIB = 32 * 1024;

    static final Map<String, String> OPTIONS = Map.of("key.fields", "auction");
    static final long BASE_MILLIS =
            LocalDateTime.of(2026, 11, 29, 0, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    static final String[] CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    static final String[] URLS = new String[ROWS];
    static final String[] EXTRAS = new String[ROWS];
    static final byte[][] CHANNEL_BYTES = new byte[ROWS][];
    static final byte[][] URL_BYTES = new byte[ROWS][];
    static final byte[][] EXTRA_BYTES = new byte[ROWS][];
    /** Flink's SQL timestamp format: fraction trimmed of trailing zeros, dropped with its point when zero. */
    static final DateTimeFormatter FLINK_TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .toFormatter();

    static {
        String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        for (int r = 0; r < ROWS; r++) {
            URLS[r] = "https://www.nexmark.com/" + (char) ('a' + r) + "x/item.htm?query=" + r;
            StringBuilder extra = new StringBuilder();
            for (int i = 0; i < 60; i++) {
                extra.append(letters.charAt((i * 7 + r * 13) % letters.length()));
            }
            EXTRAS[r] = extra.toString();
            CHANNEL_BYTES[r] = CHANNELS[r % CHANNELS.length].getBytes(StandardCharsets.UTF_8);
            URL_BYTES[r] = URLS[r].getBytes(StandardCharsets.UTF_8);
            EXTRA_BYTES[r] = EXTRAS[r].getBytes(StandardCharsets.UTF_8);
        }
    }

    static long auction(long n) {
        return 1000 + n;
    }

    static long bidder(long n) {
        return 1_000_000_007L + n;
    }

    static long price(long n) {
        return n % 10_000 + 1;
    }

    static long dateTime(long n) {
        return BASE_MILLIS + n;
    }

    /** The value Flink's json format writes for row {@code n} (global row number) of the bid stream. */
    static String expectedValue(long n) {
        int r = (int) (n % ROWS);
        String time = FLINK_TIMESTAMP.format(LocalDateTime.ofEpochSecond(
                Math.floorDiv(dateTime(n), 1000), (int) Math.floorMod(dateTime(n), 1000) * 1_000_000, ZoneOffset.UTC));
        return "{\"auction\":" + auction(n) + ",\"bidder\":" + bidder(n) + ",\"price\":" + price(n)
                + ",\"channel\":\"" + CHANNELS[r % CHANNELS.length] + "\",\"url\":\"" + URLS[r]
                + "\",\"dateTime\":\"" + time + "\",\"extra\":\"" + EXTRAS[r] + "\"}";
    }

    /** One root of seven vectors, refilled in place for every batch. */
    static final class Bids implements AutoCloseable {
        final VectorSchemaRoot root;
        final BigIntVector auction;
        final BigIntVector bidder;
        final BigIntVector price;
        final VarCharVector channel;
        final VarCharVector url;
        final TimeStampMilliVector dateTime;
        final VarCharVector extra;

        Bids(BufferAllocator allocator) {
            auction = new BigIntVector("auction", allocator);
            bidder = new BigIntVector("bidder", allocator);
            price = new BigIntVector("price", allocator);
            channel = new VarCharVector("channel", allocator);
            url = new VarCharVector("url", allocator);
            dateTime = new TimeStampMilliVector("dateTime", allocator);
            extra = new VarCharVector("extra", allocator);
            root = VectorSchemaRoot.of(auction, bidder, price, channel, url, dateTime, extra);
            root.allocateNew();
        }

        /** Fills batch {@code b}: rows b*8 .. b*8+7. Strings are written in row order over the last batch's. */
        VectorSchemaRoot fill(long b) {
            for (int r = 0; r < ROWS; r++) {
                long n = b * ROWS + r;
                auction.setSafe(r, auction(n));
                bidder.setSafe(r, bidder(n));
                price.setSafe(r, price(n));
                channel.setSafe(r, CHANNEL_BYTES[r]);
                url.setSafe(r, URL_BYTES[r]);
                dateTime.setSafe(r, SoakTest.dateTime(n));
                extra.setSafe(r, EXTRA_BYTES[r]);
            }
            root.setRowCount(ROWS);
            return root;
        }

        @Override
        public void close() {
            root.close();
        }
    }

    static long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /** Every batch: 8 records, and the first key is this batch's (`{"auction":N}`), not a stale one. */
    static void checkShape(EncodedBatch batch, long b) {
        check(batch.size() == ROWS, "batch " + b + " has " + batch.size() + " records");
        byte[] keys = batch.keys();
        long auction = 0;
        int prefix = "{\"auction\":".length();
        for (int i = prefix; i < batch.keyLength(0) - 1; i++) {
            auction = auction * 10 + (keys[i] - '0');
        }
        check(auction == auction(b * ROWS), "batch " + b + " key 0 is " + Vectors.text(batch.key(0)));
    }

    /** Some batches: every record against the expected Flink JSON. */
    static void checkRecords(EncodedBatch batch, long b) {
        for (int r = 0; r < ROWS; r++) {
            long n = b * ROWS + r;
            String key = Vectors.text(batch.key(r));
            String value = Vectors.text(batch.value(r));
            check(key.equals("{\"auction\":" + auction(n) + "}"), "batch " + b + " row " + r + " key " + key);
            check(
                    value.equals(expectedValue(n)),
                    "batch " + b + " row " + r + " value " + value + "\nexpected " + expectedValue(n));
        }
    }

    /** Child JVM: {@code [batches [handles]]}; prints the summary line, exits non-zero on any failed check. */
    public static void main(String[] args) throws IOException {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : BATCHES;
        int handles = args.length > 1 ? Integer.parseInt(args[1]) : HANDLES;
        long rssStart = rssKib();
        BufferAllocator allocator = new RootAllocator();
        Bids bids = new Bids(allocator);

        // The fixed row, by hand: batch 0, row 1 (n = 1, one millisecond after midnight).
        String fixedValue = "{\"auction\":1001,\"bidder\":1000000008,\"price\":2,\"channel\":\"Facebook\","
                + "\"url\":\"https://www.nexmark.com/bx/item.htm?query=1\",\"dateTime\":\"2026-11-29 00:00:00.001\","
                + "\"extra\":\"" + EXTRAS[1] + "\"}";
        check(fixedValue.equals(expectedValue(1)), "expectedValue(1) is " + expectedValue(1));
        check(expectedValue(0).contains("\"dateTime\":\"2026-11-29 00:00:00\""), expectedValue(0));

        // Warm-up: both phases' paths, so that what follows measures steady state.
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(OPTIONS)) {
            EncodedBatch first = encoder.encode(bids.fill(0));
            check(Vectors.text(first.key(1)).equals("{\"auction\":1001}"), Vectors.text(first.key(1)));
            check(Vectors.text(first.value(1)).equals(fixedValue), Vectors.text(first.value(1)));
            checkRecords(first, 0);
            for (int b = 1; b < WARMUP_BATCHES; b++) {
                checkShape(encoder.encode(bids.fill(b)), b);
            }
        }
        for (int h = 0; h < WARMUP_HANDLES; h++) {
            try (NativeJsonEncoder encoder = new NativeJsonEncoder(OPTIONS)) {
                checkShape(encoder.encode(bids.fill(h)), h);
            }
        }
        long rootBytes = allocator.getAllocatedMemory();
        long rssWarm = rssKib();

        // Phase 1: batches through one handle.
        long valueBytes = 0;
        long start = System.nanoTime();
        try (NativeJsonEncoder encoder = new NativeJsonEncoder(OPTIONS)) {
            for (int b = 0; b < batches; b++) {
                EncodedBatch batch = encoder.encode(bids.fill(b));
                checkShape(batch, b);
                if (b % 1000 == 999 || b == 0) {
                    checkRecords(batch, b);
                }
                valueBytes += batch.valueBytes();
            }
            check(encoder.batches() == batches, "batches() " + encoder.batches());
            check(encoder.rows() == (long) batches * ROWS, "rows() " + encoder.rows());
            check(encoder.valueBytes() == valueBytes, "valueBytes() " + encoder.valueBytes() + " != " + valueBytes);
        }
        double batchSeconds = (System.nanoTime() - start) / 1e9;
        check(
                allocator.getAllocatedMemory() == rootBytes,
                "allocator after batches: " + allocator.getAllocatedMemory() + " bytes, the root alone holds "
                        + rootBytes);
        long rssBatches = rssKib();

        // Phase 2: handles opened, used for one batch (which builds the plan and scratch lazily), closed.
        start = System.nanoTime();
        long handleRows = 0;
        for (int h = 0; h < handles; h++) {
            long b = batches + h; // fresh values for every handle
            try (NativeJsonEncoder encoder = new NativeJsonEncoder(OPTIONS)) {
                EncodedBatch batch = encoder.encode(bids.fill(b));
                checkShape(batch, b);
                if (h % 100 == 99) {
                    checkRecords(batch, b);
                }
                handleRows += encoder.rows();
            }
        }
        double handleSeconds = (System.nanoTime() - start) / 1e9;
        check(handleRows == (long) handles * ROWS, "rows through the handles: " + handleRows);
        check(
                allocator.getAllocatedMemory() == rootBytes,
                "allocator after handles: " + allocator.getAllocatedMemory() + " bytes, the root alone holds "
                        + rootBytes);
        long rssHandles = rssKib();

        bids.close();
        check(allocator.getAllocatedMemory() == 0, "allocator leaks " + allocator.getAllocatedMemory() + " bytes");
        allocator.close();

        System.out.printf(
                "soak: %d batches (%d rows) through one handle in %.1f s; %d handles opened and closed "
                        + "in %.1f s; RSS KiB: start %d, after warm-up %d, after batches %d, after handles %d%n",
                batches,
                (long) batches * ROWS,
                batchSeconds,
                handles,
                handleSeconds,
                rssStart,
                rssWarm,
                rssBatches,
                rssHandles);
        check(
                rssBatches - rssWarm <= RSS_BOUND_KIB,
                "RSS grew " + (rssBatches - rssWarm) + " KiB over the batches (bound " + RSS_BOUND_KIB + " KiB)");
        check(
                rssHandles - rssWarm <= RSS_BOUND_KIB,
                "RSS grew " + (rssHandles - rssWarm) + " KiB over batches and handles (bound " + RSS_BOUND_KIB
                        + " KiB)");
    }

    @Test
    void residentMemoryStaysFlat(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux /proc for VmRSS");
        assumeTrue(NativeLibrary.isLoaded(), "native library not loaded");
        List<String> command = new ArrayList<>(Arrays.asList(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms128m",
                "-Xmx128m",
                "-XX:+AlwaysPreTouch",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SoakTest.class.getName()));
        Path log = dir.resolve("soak.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = process.waitFor(300, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        System.out.print(output);
        assertTrue(finished, "soak child JVM did not finish in 300 s:\n" + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("soak: " + BATCHES + " batches"), output);
    }
}
