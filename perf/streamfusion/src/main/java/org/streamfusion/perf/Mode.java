package org.streamfusion.perf;

import org.streamfusion.flink.RowDataJsonEncoder;
import org.streamfusion.kafka.KafkaRecords;

/** The two ways of producing the same rows. */
public enum Mode {
    /** Flink's {@code JsonRowDataSerializationSchema}: one {@code serialize} for the key, one for the value. */
    FLINK_PER_ROW("flink-per-row"),
    /** {@link RowDataJsonEncoder} over batches of {@code batch} rows, sent with {@link KafkaRecords#send}. */
    NATIVE_BATCH("native-batch");

    private final String cliName;

    Mode(String cliName) {
        this.cliName = cliName;
    }

    /** @return the name on the command line and in the output */
    public String cliName() {
        return cliName;
    }

    static Mode parse(String name) {
        for (Mode mode : values()) {
            if (mode.cliName.equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown mode " + name + ": expected flink-per-row or native-batch");
    }
}
