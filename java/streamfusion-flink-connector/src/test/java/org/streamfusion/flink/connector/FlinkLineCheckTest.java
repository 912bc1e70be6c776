package org.streamfusion.flink.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/** {@link FlinkLineCheck} on every line the connector is built for (this test runs in each line's module). */
class FlinkLineCheckTest {
    @Test
    void theRunningFlinkIsOfTheLineTheClassesAreBuiltFor() {
        String running = EnvironmentInformation.getVersion();
        assertTrue(running.startsWith(FlinkLine.LINE + "."), running + " is not Flink " + FlinkLine.LINE);
        FlinkLineCheck.requireBuiltLine("streamfusion-kafka"); // accepted
    }

    @Test
    void anotherMajorLineIsRefusedNamingBothAndTheArtifactToUse() {
        assertEquals(
                Optional.of("The connector 'streamfusion-kafka' is built for Flink 2.2 and cannot run on Flink 1.20.3."
                        + " Use the StreamFusion artifacts built for Flink 1.20: version suffix -1.20, as in"
                        + " streamfusion-sql-connector-kafka-<version>-1.20.jar."),
                FlinkLineCheck.mismatch("streamfusion-kafka", "2.2", "1.20.3"));
        assertEquals(
                Optional.of("The connector 'streamfusion-upsert-kafka' is built for Flink 1.20 and cannot run on"
                        + " Flink 2.2.1. Use the StreamFusion artifacts built for Flink 2.2: version suffix -2.2, as"
                        + " in streamfusion-sql-connector-kafka-<version>-2.2.jar."),
                FlinkLineCheck.mismatch("streamfusion-upsert-kafka", "1.20", "2.2.1"));
    }

    @Test
    void theSameMajorLineAndAnUnknownVersionAreAccepted() {
        assertEquals(Optional.empty(), FlinkLineCheck.mismatch("streamfusion-kafka", "2.2", "2.1.1"));
        assertEquals(Optional.empty(), FlinkLineCheck.mismatch("streamfusion-kafka", "2.2", "2.3.0"));
        assertEquals(Optional.empty(), FlinkLineCheck.mismatch("streamfusion-kafka", "1.20", "1.20.3"));
        assertEquals(Optional.empty(), FlinkLineCheck.mismatch("streamfusion-kafka", "2.2", "<unknown>"));
    }
}
