package org.streamfusion.perf.nexmark;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * The replay variant's source: the corpus' events held in this JVM as Flink rows, so a job reads them without
 * the Kafka source (no fetch, no JSON decode) and the sinks' difference stands out.
 *
 * <p>{@link #register} defines {@link Queries#SOURCE_TABLE} with the Kafka table's physical columns
 * ({@link Queries#PHYSICAL_COLUMNS}, parsed once), the same computed {@code dateTime} and watermark, over
 * {@code env.fromSequence(0, N - 1)} (Flink's bounded {@code NumberSequenceSource}, split into contiguous
 * ranges, one per subtask) mapped to the {@link #load loaded} row of each event number. The rows live in a
 * static array: this works because the harness runs the job on a MiniCluster in its own JVM, and only there.
 * Flink copies each row into the chained operators (object reuse is off, as in the Kafka-sourced jobs), which is
 * the replay's whole cost besides the sequence itself. Event order differs from the Kafka corpus (a subtask reads
 * a range, not every P-th event); the queries' answers do not depend on it beyond the ties that
 * {@link OutputCheck} already accepts.
 */
final class MemorySource {
    /**
     * The Kafka table's row type, {@code ROW<event_type INT, person ROW<...>, auction ROW<...>, bid ROW<...>>}.
     * The DDL's {@code VARCHAR} without a length is read by the SQL planner as {@code VARCHAR(2147483647)} and by
     * {@link LogicalTypeParser} as {@code VARCHAR(1)}, so it is parsed here as {@code STRING}, the planner's type.
     */
    static final RowType ROW_TYPE = (RowType) LogicalTypeParser.parse(
            "ROW<" + String.join(", ", Queries.PHYSICAL_COLUMNS).replaceAll("\\bVARCHAR\\b", "STRING") + ">",
            MemorySource.class.getClassLoader());

    private static volatile RowData[] events = new RowData[0];
    private static volatile Corpus.Spec loaded;

    private MemorySource() {}

    /**
     * Generates the events of {@code spec} into memory as rows, unless they are loaded already.
     *
     * @throws ArithmeticException when the corpus has more than {@link Integer#MAX_VALUE} events
     */
    static synchronized void load(Corpus.Spec spec) {
        if (spec.equals(loaded)) {
            return;
        }
        RowData[] rows = new RowData[Math.toIntExact(spec.events())];
        NexmarkGenerator g = spec.generator();
        for (int n = 0; n < rows.length; n++) {
            rows[n] = row(g.next());
        }
        events = rows;
        loaded = spec;
    }

    /** The event as a row of {@link #ROW_TYPE}: Flink's internal structures, timestamps in milliseconds. */
    static RowData row(NexmarkGenerator.Event e) {
        GenericRowData person = null;
        GenericRowData auction = null;
        GenericRowData bid = null;
        if (e.person() != null) {
            NexmarkGenerator.Person p = e.person();
            person = GenericRowData.of(
                    p.id(),
                    str(p.name()),
                    str(p.emailAddress()),
                    str(p.creditCard()),
                    str(p.city()),
                    str(p.state()),
                    ts(p.dateTime()),
                    str(p.extra()));
        } else if (e.auction() != null) {
            NexmarkGenerator.Auction a = e.auction();
            auction = GenericRowData.of(
                    a.id(),
                    str(a.itemName()),
                    str(a.description()),
                    a.initialBid(),
                    a.reserve(),
                    ts(a.dateTime()),
                    ts(a.expires()),
                    a.seller(),
                    a.category(),
                    str(a.extra()));
        } else {
            NexmarkGenerator.Bid b = e.bid();
            bid = GenericRowData.of(
                    b.auction(),
                    b.bidder(),
                    b.price(),
                    str(b.channel()),
                    str(b.url()),
                    ts(b.dateTime()),
                    str(b.extra()));
        }
        return GenericRowData.of(e.type().ordinal(), person, auction, bid);
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    private static TimestampData ts(long millis) {
        return TimestampData.fromEpochMillis(millis);
    }

    /**
     * Defines {@link Queries#SOURCE_TABLE} over the loaded events.
     *
     * @throws IllegalStateException when nothing is loaded
     */
    static void register(StreamExecutionEnvironment env, StreamTableEnvironment tEnv) {
        int n = events.length;
        if (n == 0) {
            throw new IllegalStateException("no events loaded: call MemorySource.load first");
        }
        DataStream<RowData> rows = env.fromSequence(0, n - 1)
                .name("nexmark-memory")
                .map(new Lookup())
                .returns(InternalTypeInfo.of(ROW_TYPE))
                .name("nexmark-memory-rows");
        tEnv.createTemporaryView(
                Queries.SOURCE_TABLE,
                tEnv.fromDataStream(
                        rows,
                        Schema.newBuilder()
                                .columnByExpression("dateTime", Queries.DATE_TIME)
                                .watermark("dateTime", Queries.WATERMARK)
                                .build()));
    }

    /** Event number to its loaded row. */
    private static final class Lookup implements MapFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public RowData map(Long n) {
            return events[(int) (long) n];
        }
    }
}
