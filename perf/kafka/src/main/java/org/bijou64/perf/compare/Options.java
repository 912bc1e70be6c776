package org.bijou64.perf.compare;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The command line of {@link CompareBenchmarks}, parsed and validated.
 *
 * @param ci plain progress lines instead of a carriage-return animation
 * @param distributions the distributions to run, in order
 * @param modes the modes to run for each distribution and compression, in order
 * @param compressions the producer {@code compression.type}s to run
 * @param seed the seed of the random distributions
 * @param keepTopics keep the per-run topics instead of deleting them after verification
 * @param messages the fewest records per pass (N); calibration may raise it to reach {@code minPassSeconds}
 * @param iterations the fewest measured rounds (ITERATIONS); {@link #rounds()} also honours {@code minRounds}
 * @param minPassSeconds the shortest measured pass, in seconds, that calibration aims for; 0 keeps N as given
 * @param minRounds the fewest measured rounds whatever ITERATIONS says
 * @param workerJavaOptions the JVM options of each mode's worker JVM ({@link ModeWorker}), e.g. the heap size
 * @param topic the base name of the per-run topics
 * @param bootstrap the Kafka bootstrap servers
 * @param resultsDir where {@code results-<UTC>.csv} is written
 * @param rustBench the {@code streamfusion-bench} binary: it generates the values every mode sends
 *     ({@link ValueGenerator}) and runs the Rust modes
 * @param stamp the UTC stamp of the CSV name and the topic names ({@code yyyyMMdd'T'HHmmss})
 */
public record Options(
        boolean ci,
        List<Distribution> distributions,
        List<Mode> modes,
        List<String> compressions,
        long seed,
        boolean keepTopics,
        int messages,
        int iterations,
        double minPassSeconds,
        int minRounds,
        List<String> workerJavaOptions,
        String topic,
        String bootstrap,
        Path resultsDir,
        Path rustBench,
        String stamp) {

    /** The default {@code --min-pass-seconds}. */
    public static final double DEFAULT_MIN_PASS_SECONDS = 2;
    /** The default {@code --min-rounds}. */
    public static final int DEFAULT_MIN_ROUNDS = 5;

    /** The usage line, also printed by compare-benchmarks.sh. */
    public static final String USAGE =
            "usage: compare-benchmarks.sh [--ci] [--distribution D[,D...]] [--modes M[,M...]]"
                    + " [--compression C[,C...]] [--seed S] [--min-pass-seconds S] [--min-rounds R] [--keep-topics]"
                    + " [--results-dir DIR] [--worker-java-opts OPTS] --rust-bench BIN [--stamp S]"
                    + " N ITERATIONS TOPIC BOOTSTRAP";

    /** The option details printed after {@link #USAGE}. */
    public static final String HELP =
            """
              N                 the fewest records per pass (calibration raises it, see --min-pass-seconds)
              ITERATIONS        the fewest measured rounds (see --min-rounds); a warm-up round runs first, discarded
              TOPIC             base name of the per-run topics: TOPIC-<distribution>-<mode>-<compression>-<UTC>
              BOOTSTRAP         Kafka bootstrap servers, e.g. 127.0.0.1:19092
              --ci              plain progress lines on stderr (no carriage-return animation)
              --distribution    sequential, uniform, boundary, mixed; comma-separated for several (default sequential)
              --modes           long, bijou, bijou-java, bijou-zigzag, rust-long, rust-bijou
                                (default: all six)
              --compression     producer compression.type values (default none,zstd)
              --seed            seed of the uniform and mixed distributions (default %d)
              --min-pass-seconds  after the warm-up, raise N until every mode's pass (the fastest's) lasts this many
                                seconds (default %s; 0 keeps N as given)
              --min-rounds      the fewest measured rounds whatever ITERATIONS says (default %d)
              --worker-java-opts  JVM options of each mode's worker JVM, space-separated (default none)
              --keep-topics     do not delete the per-run topics
              --results-dir     where results-<UTC>.csv goes (default: the current directory)
              --rust-bench      the streamfusion-bench binary, which generates the values and runs the rust-* modes
                                (required; compare-benchmarks.sh builds and passes it)
              --stamp           the UTC stamp yyyyMMdd'T'HHmmss of the CSV and topic names (default: now)
            """.formatted(Distribution.DEFAULT_SEED, DEFAULT_MIN_PASS_SECONDS, DEFAULT_MIN_ROUNDS);

    private static final Set<String> COMPRESSIONS = Set.of("none", "gzip", "snappy", "lz4", "zstd");
    private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,180}");
    private static final Pattern STAMP = Pattern.compile("\\d{8}T\\d{6}");
    private static final DateTimeFormatter STAMP_FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");

    /**
     * Parses the arguments.
     *
     * @throws IllegalArgumentException with a message saying what is wrong
     */
    public static Options parse(String... args) {
        boolean ci = false;
        boolean keepTopics = false;
        List<Distribution> distributions = List.of(Distribution.SEQUENTIAL);
        List<Mode> modes = null;
        List<String> compressions = List.of("none", "zstd");
        long seed = Distribution.DEFAULT_SEED;
        Path resultsDir = Path.of(".");
        Path rustBench = null;
        String stamp = null;
        double minPassSeconds = DEFAULT_MIN_PASS_SECONDS;
        int minRounds = DEFAULT_MIN_ROUNDS;
        List<String> workerJavaOptions = List.of();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                positional.add(arg);
                continue;
            }
            String inlineValue = null;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                inlineValue = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            if (arg.equals("--ci") || arg.equals("--keep-topics")) {
                if (inlineValue != null) {
                    throw new IllegalArgumentException(arg + " takes no value");
                }
                ci |= arg.equals("--ci");
                keepTopics |= arg.equals("--keep-topics");
                continue;
            }
            String value;
            if (inlineValue != null) {
                value = inlineValue;
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            switch (arg) {
                case "--distribution", "--distributions" -> distributions = parseList(value, Distribution::parse);
                case "--mode", "--modes" -> modes = parseList(value, Mode::parse);
                case "--compression", "--compressions" -> compressions = parseList(value, Options::compression);
                case "--seed" -> seed = parseLong(value, "--seed");
                case "--results-dir" -> resultsDir = Path.of(value);
                case "--rust-bench" -> rustBench = Path.of(value);
                case "--stamp" -> stamp = value;
                case "--min-pass-seconds" -> minPassSeconds = parseSeconds(value);
                case "--min-rounds" -> minRounds = parsePositive(value, "--min-rounds");
                case "--worker-java-opts" ->
                    workerJavaOptions =
                            value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (positional.size() != 4) {
            throw new IllegalArgumentException("expected 4 arguments N ITERATIONS TOPIC BOOTSTRAP, got "
                    + positional.size() + (positional.isEmpty() ? "" : " " + positional));
        }
        int messages = parsePositive(positional.get(0), "N");
        int iterations = parsePositive(positional.get(1), "ITERATIONS");
        String topic = positional.get(2);
        if (!TOPIC_NAME.matcher(topic).matches()) {
            throw new IllegalArgumentException(
                    "TOPIC '" + topic + "' must be 1-180 characters of a-z, A-Z, 0-9, '.', '_' or '-'");
        }
        String bootstrap = positional.get(3);
        if (bootstrap.isBlank()) {
            throw new IllegalArgumentException("BOOTSTRAP is empty");
        }
        if (rustBench == null) {
            throw new IllegalArgumentException(
                    "--rust-bench BIN is required: the streamfusion-bench binary generates the"
                            + " values every mode sends and runs the rust-* modes (compare-benchmarks.sh builds and passes it)");
        }
        if (modes == null) {
            modes = List.of(Mode.values());
        }
        if (stamp == null) {
            stamp = ZonedDateTime.now(ZoneOffset.UTC).format(STAMP_FORMAT);
        } else if (!STAMP.matcher(stamp).matches()) {
            throw new IllegalArgumentException("--stamp '" + stamp + "' must look like 20260101T120000");
        }
        return new Options(
                ci,
                distributions,
                modes,
                compressions,
                seed,
                keepTopics,
                messages,
                iterations,
                minPassSeconds,
                minRounds,
                workerJavaOptions,
                topic,
                bootstrap,
                resultsDir,
                rustBench,
                stamp);
    }

    /** @return the measured rounds: the larger of ITERATIONS and {@code --min-rounds} */
    public int rounds() {
        return Math.max(iterations, minRounds);
    }

    private static double parseSeconds(String text) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            value = Double.NaN;
        }
        if (!(value >= 0 && value <= 600)) {
            throw new IllegalArgumentException(
                    "--min-pass-seconds must be a number of seconds from 0 to 600, got '" + text + "'");
        }
        return value;
    }

    private static <T> List<T> parseList(String csv, Function<String, T> parser) {
        List<T> out = new ArrayList<>();
        for (String part : csv.split(",")) {
            if (!part.isBlank()) {
                T item = parser.apply(part.trim());
                if (!out.contains(item)) {
                    out.add(item);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("empty list '" + csv + "'");
        }
        return List.copyOf(out);
    }

    private static String compression(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!COMPRESSIONS.contains(lower)) {
            throw new IllegalArgumentException(
                    "unknown compression '" + name + "' (choose from none, gzip, snappy, lz4, zstd)");
        }
        return lower;
    }

    private static long parseLong(String text, String what) {
        try {
            return Long.decode(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be an integer, got '" + text + "'");
        }
    }

    private static int parsePositive(String text, String what) {
        long value = parseLong(text.replace("_", ""), what);
        if (value < 1 || value > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    what + " must be between 1 and " + (Integer.MAX_VALUE - 8) + ", got " + text);
        }
        return (int) value;
    }
}
