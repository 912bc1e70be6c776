package org.streamfusion.perf.nexmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The replay source's rows and plans (no job runs, no broker). */
class MemorySourceTest {
    private static final Corpus.Spec SPEC =
            new Corpus.Spec(100, 2, 1, NexmarkGenerator.DEFAULT_BASE_TIME_MS, NexmarkGenerator.DEFAULT_RATE);

    @Test
    void rowsCarryTheGeneratorsFieldsInTheKafkaTablesShape() {
        assertEquals(
                "ROW<`event_type` INT, `person` ROW<`id` BIGINT, `name` STRING, `emailAddress` STRING,"
                        + " `creditCard` STRING, `city` STRING, `state` STRING, `dateTime` TIMESTAMP(3), `extra` STRING>,"
                        + " `auction` ROW<`id` BIGINT, `itemName` STRING, `description` STRING, `initialBid` BIGINT,"
                        + " `reserve` BIGINT, `dateTime` TIMESTAMP(3), `expires` TIMESTAMP(3), `seller` BIGINT,"
                        + " `category` BIGINT, `extra` STRING>, `bid` ROW<`auction` BIGINT, `bidder` BIGINT,"
                        + " `price` BIGINT, `channel` STRING, `url` STRING, `dateTime` TIMESTAMP(3), `extra` STRING>>",
                MemorySource.ROW_TYPE.asSummaryString());
        NexmarkGenerator g = SPEC.generator();
        for (int n = 0; n < 50; n++) {
            NexmarkGenerator.Event e = g.next();
            RowData row = MemorySource.row(e);
            assertEquals(e.type().ordinal(), row.getInt(0));
            assertEquals(e.person() == null, row.isNullAt(1));
            assertEquals(e.auction() == null, row.isNullAt(2));
            assertEquals(e.bid() == null, row.isNullAt(3));
            if (e.bid() != null) {
                RowData bid = row.getRow(3, 7);
                assertEquals(e.bid().auction(), bid.getLong(0));
                assertEquals(e.bid().bidder(), bid.getLong(1));
                assertEquals(e.bid().price(), bid.getLong(2));
                assertEquals(e.bid().url(), bid.getString(4).toString());
                assertEquals(TimestampData.fromEpochMillis(e.bid().dateTime()), bid.getTimestamp(5, 3));
                assertEquals(e.bid().extra(), bid.getString(6).toString());
            } else if (e.auction() != null) {
                RowData auction = row.getRow(2, 10);
                assertEquals(e.auction().id(), auction.getLong(0));
                assertEquals(e.auction().expires(), auction.getTimestamp(6, 3).getMillisecond());
                assertEquals(e.auction().category(), auction.getLong(8));
            } else {
                RowData person = row.getRow(1, 8);
                assertEquals(e.person().id(), person.getLong(0));
                assertEquals(e.person().state(), person.getString(5).toString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"q0", "q9", "q19"})
    void queriesPlanOverTheReplayWithTheWatermark(String name) {
        MemorySource.load(SPEC);
        Queries.Query query = Queries.Query.of(name);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        MemorySource.register(env, tEnv);
        Queries.viewDdls().forEach(tEnv::executeSql);
        tEnv.executeSql(Queries.sinkDdl(query, true, "out", "127.0.0.1:1", "plan-test-" + name));
        String plan = tEnv.explainSql(Queries.insert(query));
        assertTrue(plan.contains("WatermarkAssigner"), plan);
        assertFalse(plan.contains("TableSourceScan(table=[[default_catalog, default_database, nexmark_kafka"), plan);
        assertFalse(plan.contains("upsertMaterialize=[true]"), plan);
    }
}
