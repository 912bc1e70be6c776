package org.streamfusion.perf;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * The broker the tests run against: {@code kafka.bootstrap.servers}, by default the local one of
 * {@code kafka/broker start} (127.0.0.1:19092). A test fails, never skips, when no broker answers.
 */
final class TestBroker {

    private static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:19092";

    private TestBroker() {}

    /** @return the system property {@code kafka.bootstrap.servers}, or the local broker's address */
    static String bootstrapServers() {
        String value = System.getProperty("kafka.bootstrap.servers");
        return value == null || value.isBlank() || value.startsWith("${") ? DEFAULT_BOOTSTRAP_SERVERS : value.trim();
    }

    /** @return an admin client of {@code bootstrapServers}, after the broker answered; fails the test otherwise */
    static Admin admin(String bootstrapServers) throws InterruptedException {
        Admin admin = Topics.admin(bootstrapServers);
        try {
            admin.describeCluster().clusterId().get(15, SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            admin.close(Duration.ZERO);
            fail(
                    "No Kafka broker answers at " + bootstrapServers + " (system property kafka.bootstrap.servers). "
                            + "Start the local one with `kafka/broker start`, or point the tests at your own cluster with "
                            + "-Dkafka.bootstrap.servers=host:port.",
                    e);
        }
        return admin;
    }
}
