package org.streamfusion.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the example against the broker at {@code kafka.bootstrap.servers} (default the local 127.0.0.1:19092 of
 * {@code kafka/broker start}; fails without one) with a few rows and checks what it wrote: one record per
 * generated row, keyed by the auction sequence, written by {@code streamfusion-kafka} in Flink's json layout.
 */
class FlinkSqlKafkaJsonBrokerTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theJobWritesOneJsonRecordPerGeneratedRow() throws Exception {
        String bootstrap = System.getProperty("kafka.bootstrap.servers", "127.0.0.1:19092");
        if (bootstrap.isBlank() || bootstrap.startsWith("${")) {
            bootstrap = "127.0.0.1:19092";
        }
        int rows = 300;
        String topic = "example-flink-sql-" + UUID.randomUUID().toString().substring(0, 8);
        FlinkSqlKafkaJson.Result result = FlinkSqlKafkaJson.run(rows, topic, "streamfusion-kafka", bootstrap);
        assertEquals(rows, result.records(), "records read back");
        String sample = result.sample();
        assertTrue(
                sample.matches(
                        "\\{\"auction\":(\\d+)} => \\{\"auction\":\\1,\"bidder\":\\d+,\"price\":[0-9.E]+,"
                                + "\"channel\":\"[0-9a-f]{8}\",\"ts\":\"\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?\"}"),
                () -> "sample record: " + sample);
    }
}
