package org.streamfusion.flink.connector;

import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;

/** The connector's counters of a job, as a MiniCluster's {@link InMemoryReporter} retained them. */
final class JobMetrics {
    private JobMetrics() {}

    /**
     * The sum of the counters {@code streamfusion.<name>} of {@code job}'s operators, 0 when none was
     * registered. Read group by group, not by identifier: encoders chained into one task under one name (several
     * sinks of one source) have the same identifier, which {@link InMemoryReporter#findMetrics} refuses.
     *
     * @param reporter the reporter the MiniCluster was configured with (retaining metrics)
     * @param job the job
     * @param name the counter's name in the {@code streamfusion} group, e.g. {@code numNativeBatches}
     * @return the sum of the counts
     */
    static long counter(InMemoryReporter reporter, JobID job, String name) {
        long sum = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                reporter.getMetricsByGroup().entrySet()) {
            if (!job.toString().equals(group.getKey().getAllVariables().get("<job_id>"))) {
                continue;
            }
            for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
                if (group.getKey().getMetricIdentifier(metric.getKey()).endsWith(".streamfusion." + name)) {
                    sum += ((Counter) metric.getValue()).getCount();
                }
            }
        }
        return sum;
    }
}
