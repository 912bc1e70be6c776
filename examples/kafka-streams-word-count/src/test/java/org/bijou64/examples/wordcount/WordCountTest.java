package org.bijou64.examples.wordcount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.bijou64.perf.kafka.Bijou64Serdes;
import org.junit.jupiter.api.Test;

/** The topology in Kafka's {@code TopologyTestDriver}: the counts, and their bytes on the output topic. */
class WordCountTest {
    @Test
    void countsWordsAndWritesEachCountAsBijou64() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "word-count-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver =
                new TopologyTestDriver(WordCount.topology("lines", "counts", Bijou64Serdes.Long()), props)) {
            TestInputTopic<String, String> lines =
                    driver.createInputTopic("lines", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, byte[]> raw =
                    driver.createOutputTopic("counts", new StringDeserializer(), new ByteArrayDeserializer());
            lines.pipeInput("Hello Kafka, hello bijou64!");
            for (int i = 0; i < 300; i++) {
                lines.pipeInput("kafka");
            }
            Map<String, byte[]> last = raw.readKeyValuesToMap();
            assertArrayEquals(new byte[] {0x02}, last.get("hello"), "2 is one byte");
            assertArrayEquals(new byte[] {0x01}, last.get("bijou64"));
            // 301 = 248 + 53: the two-byte tier, f8 35 (Serdes.Long() writes 8 bytes).
            assertArrayEquals(new byte[] {(byte) 0xf8, 0x35}, last.get("kafka"));
            assertEquals(301L, driver.<String, Long>getKeyValueStore("counts").get("kafka"));
            assertEquals(8, Serdes.Long().serializer().serialize("t", 301L).length);
        }
    }
}
