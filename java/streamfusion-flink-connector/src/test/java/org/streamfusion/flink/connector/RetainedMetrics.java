package org.streamfusion.flink.connector;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * A test class's MiniCluster (one TaskManager of two slots) and the {@link InMemoryReporter} that keeps its jobs'
 * metrics after they end. Every start of the cluster registers a new reporter: {@code InMemoryReporter.close},
 * called when a cluster stops, unregisters its reporter, so one made once per class would leave the next cluster
 * of the same JVM without one (a test surefire reruns after a failure starts the class's cluster again, and found
 * no metric there).
 */
final class RetainedMetrics {
    private final AtomicReference<InMemoryReporter> current = new AtomicReference<>();

    /** @return the extension to register (once, in a static field): its cluster gets a reporter at each start */
    MiniClusterExtension cluster() {
        return new MiniClusterExtension(() -> {
            InMemoryReporter reporter = InMemoryReporter.createWithRetainedMetrics();
            current.set(reporter);
            return new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(reporter.addToConfiguration(new Configuration()))
                    .build();
        });
    }

    /**
     * @return the reporter of the running cluster
     * @throws NullPointerException if the cluster has not started
     */
    InMemoryReporter reporter() {
        return Objects.requireNonNull(current.get(), "the MiniCluster has not started");
    }
}
