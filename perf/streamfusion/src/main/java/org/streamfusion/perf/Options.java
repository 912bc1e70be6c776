package org.streamfusion.perf;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.streamfusion.flink.RowDataJsonEncoder;

/**
 * One invocation's settings, and the command line that makes them ({@link #parse}, {@link #USAGE}).
 *
 * @param shapes {@code bid} and/or {@code q9}
 * @param rows rows per pass
 * @param batch rows per {@link RowDataJsonEncoder#encode} call in {@code native-batch}
 * @param iterations measured passes per mode (one warm-up pass runs first)
 * @param bootstrap Kafka bootstrap servers
 * @param topic base name of the per-run topics
 * @param compressions producer {@code compression.type} values
 * @param modes the modes to run
 * @param seed the rows' seed
 * @param keyFields the key fields ({@code ;}-separated, Flink's {@code key.fields} syntax); null for the
 *     shape's default ({@code auction} for bid, {@code id} for q9); empty for null keys
 * @param keepTopics do not delete the topics afterwards
 * @param resultsDir where {@code results-<UTC>.csv} goes; null for no CSV
 */
public record Options(
        List<String> shapes,
        int rows,
        int batch,
        int iterations,
        String bootstrap,
        String topic,
        List<String> compressions,
        List<Mode> modes,
        long seed,
        String keyFields,
        boolean keepTopics,
        Path resultsDir) {

    /** The local broker of {@code kafka/broker start}. */
    static final String DEFAULT_BOOTSTRAP = "127.0.0.1:19092";

    /** The defaults of the command line. */
    public static Options defaults() {
        return new Options(
                List.of("bid"),
                200_000,
                4096,
                3,
                DEFAULT_BOOTSTRAP,
                "streamfusion-benchmark-topic",
                List.of("none"),
                List.of(Mode.values()),
                42,
                null,
                false,
                Path.of("perf/streamfusion/results"));
    }

    /** @return the key fields of {@code shape}: the option, or the shape's default */
    public List<String> keyFieldsOf(String shape) {
        String fields = keyFields != null ? keyFields : shape.equals("q9") ? "id" : "auction";
        return Arrays.stream(fields.split(";"))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    static final String USAGE = """
            usage: ProducerComparison [--rows N] [--batch N] [--shape bid|q9[,..]] [--iterations N]
                                      [--bootstrap HOST:PORT] [--topic BASE] [--compression C[,C..]]
                                      [--modes flink-per-row,native-batch] [--seed S] [--key-fields F[;F..]]
                                      [--keep-topics] [--results-dir DIR | --no-csv]
              --rows         rows per pass (default 200000)
              --batch        rows per native encode call (default 4096; the last batch may be smaller)
              --shape        bid (default), q9, or both comma-separated
              --iterations   measured passes per mode, after one warm-up pass (default 3; the median is reported)
              --bootstrap    Kafka bootstrap servers (default 127.0.0.1:19092)
              --topic        topic base name: TOPIC-<shape>-<mode>-<compression>-<UTC> (default streamfusion-benchmark-topic)
              --compression  producer compression.type, comma-separated for several (default none)
              --modes        flink-per-row, native-batch (default both)
              --seed         seed of the rows (default 42)
              --key-fields   Flink key.fields (default auction for bid, id for q9; '' for null keys)
              --keep-topics  do not delete the topics after the run
              --results-dir  where results-<UTC>.csv goes (default perf/streamfusion/results)
              --no-csv       write no CSV""";

    /**
     * @return the configuration of the command line, or null when it asks for help
     * @throws IllegalArgumentException for an unknown option or a bad value
     */
    static Options parse(String[] args) {
        Options d = Options.defaults();
        List<String> shapes = d.shapes();
        int rows = d.rows();
        int batch = d.batch();
        int iterations = d.iterations();
        String bootstrap = d.bootstrap();
        String topic = d.topic();
        List<String> compressions = d.compressions();
        List<Mode> modes = d.modes();
        long seed = d.seed();
        String keyFields = d.keyFields();
        boolean keepTopics = d.keepTopics();
        Path resultsDir = d.resultsDir();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--keep-topics" -> keepTopics = true;
                case "--no-csv" -> resultsDir = null;
                default -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(arg + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (arg) {
                        case "--rows" -> rows = positive(arg, value);
                        case "--batch" -> batch = positive(arg, value);
                        case "--iterations" -> iterations = positive(arg, value);
                        case "--shape", "--shapes" -> {
                            shapes = list(value);
                            shapes.forEach(NexmarkRows::type);
                        }
                        case "--bootstrap" -> bootstrap = value;
                        case "--topic" -> topic = value;
                        case "--compression", "--compressions" -> compressions = list(value);
                        case "--modes", "--mode" ->
                            modes = list(value).stream().map(Mode::parse).toList();
                        case "--seed" -> {
                            try {
                                seed = Long.parseLong(value);
                            } catch (NumberFormatException e) {
                                throw new IllegalArgumentException("--seed: not a number: " + value);
                            }
                        }
                        case "--key-fields" -> keyFields = value;
                        case "--results-dir" -> resultsDir = Path.of(value);
                        default -> throw new IllegalArgumentException("unknown option " + arg);
                    }
                }
            }
        }
        if (bootstrap.isBlank() || topic.isBlank()) {
            throw new IllegalArgumentException("--bootstrap and --topic must not be empty");
        }
        return new Options(
                shapes,
                rows,
                batch,
                iterations,
                bootstrap,
                topic,
                compressions,
                modes,
                seed,
                keyFields,
                keepTopics,
                resultsDir);
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": expected a positive integer, got '" + value + "'");
    }

    private static List<String> list(String value) {
        List<String> items = Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        if (items.isEmpty()) {
            throw new IllegalArgumentException("empty list: '" + value + "'");
        }
        return items;
    }
}
