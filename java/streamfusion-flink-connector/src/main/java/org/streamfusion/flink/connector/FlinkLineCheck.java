package org.streamfusion.flink.connector;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.ValidationException;

/**
 * Refuses, at planning, a connector built for one Flink line on another: a jar for Flink 2.x on Flink 1.x or the
 * other way round would otherwise fail in the running job with a {@code NoSuchMethodError} or
 * {@code AbstractMethodError}. Within a major line the jar is accepted (built for 2.2, it compiles unchanged
 * against 2.0 and 2.1; {@code docs/flink.md} lists what was run on each).
 */
@Internal
final class FlinkLineCheck {
    private FlinkLineCheck() {}

    /**
     * @param identifier the connector being planned, for the message
     * @throws ValidationException when the running Flink ({@code EnvironmentInformation.getVersion()}) is of
     *     another major line than {@link FlinkLine#LINE}; the message names both and the artifacts to use
     */
    static void requireBuiltLine(String identifier) {
        mismatch(identifier, FlinkLine.LINE, EnvironmentInformation.getVersion())
                .ifPresent(message -> {
                    throw new ValidationException(message);
                });
    }

    /**
     * @param builtLine the line the classes are built for ({@code 2.2})
     * @param running the running Flink's version ({@code 1.20.3}); one that does not start with a number
     *     ({@code <unknown>}, when Flink's version file is missing) is accepted
     * @return the message when {@code running} is of another major line than {@code builtLine}
     */
    static Optional<String> mismatch(String identifier, String builtLine, String running) {
        String runningMajor = running.split("\\.", 2)[0];
        String builtMajor = builtLine.split("\\.", 2)[0];
        if (!runningMajor.matches("\\d+") || runningMajor.equals(builtMajor)) {
            return Optional.empty();
        }
        String line = runningMajor.equals("1") ? "1.20" : "2.2";
        return Optional.of(String.format(
                "The connector '%s' is built for Flink %s and cannot run on Flink %s. Use the StreamFusion "
                        + "artifacts built for Flink %s: version suffix -%s, as in "
                        + "streamfusion-sql-connector-kafka-<version>-%s.jar.",
                identifier, builtLine, running, line, line, line));
    }
}
