package org.streamfusion.perf;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.bijou64.perf.common.BenchTopics;

/** The benchmark's topics on the broker: the admin client, creating and deleting the per-run topics, end offsets. */
final class Topics {

    /** The bound of every admin call, of waiting for a new topic's leader and of closing a producer. */
    static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private Topics() {}

    /** @return an admin client for {@code bootstrap} with short timeouts */
    public static Admin admin(String bootstrap) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** Creates {@code topic} (1 partition, replication factor 1) and waits until its partition has a leader. */
    static void create(Admin admin, String topic) throws Exception {
        BenchTopics.create(admin, topic, ADMIN_TIMEOUT);
    }

    /** Deletes {@code topic}; a failure is a warning on {@code progress}, not an error. */
    static void delete(Admin admin, String topic, PrintStream progress) {
        try {
            admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            progress.println("warning: could not delete topic " + topic + ": " + ProducerComparison.describe(e));
        }
    }

    /** @return the {@code read_committed} end offset of {@code partition} */
    static long endOffset(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(
                        Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(partition)
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .offset();
    }
}
