package org.bijou64.perf.common;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;

/** The run topics of the producer comparisons: created once per run, one partition, replication factor 1. */
public final class BenchTopics {
    private BenchTopics() {}

    /**
     * Creates {@code topic} (1 partition, replication factor 1) and waits until its partition has a leader, so a
     * producer's first metadata request finds it.
     *
     * @param timeout the bound of the creation and, separately, of the wait for a leader
     * @throws ExecutionException when the broker refuses the topic (e.g. it exists)
     * @throws TimeoutException when the creation or the leader takes longer than {@code timeout}
     * @throws InterruptedException when interrupted while waiting
     */
    public static void create(Admin admin, String topic, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                .all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        .get(topic);
                if (!description.partitions().isEmpty()
                        && description.partitions().get(0).leader() != null) {
                    return;
                }
            } catch (ExecutionException e) {
                // Not yet known to the broker's metadata cache: retry until the deadline.
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topic " + topic + " has no leader after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }
}
