package org.bijou64.perf.compare;

import java.util.Arrays;
import java.util.List;

/**
 * The line protocol between the coordinator ({@link ProducerComparison}) and a {@link ModeWorker}: one command
 * line on the worker's stdin, one reply line on its stdout, UTF-8, fields separated by single spaces.
 *
 * <table>
 *   <caption>Commands and replies</caption>
 *   <tr><th>command</th><th>reply</th></tr>
 *   <tr><td>(start-up: topic created, producer made, metadata fetched)</td>
 *       <td>{@code ready <implementation>}: {@code NATIVE}, {@code JAVA} or {@code -}</td></tr>
 *   <tr><td>{@code values <file> <n>}: the next passes send the n big-endian longs of the file</td>
 *       <td>{@code ok <n>}</td></tr>
 *   <tr><td>{@code pass}: one timed pass of the current values</td>
 *       <td>{@code ok <wall ns> <process CPU ns> <records> <value bytes>} ({@link PassReply})</td></tr>
 *   <tr><td>{@code verify}: close the producer, read the topic back, compare with every pass sent</td>
 *       <td>{@code ok <records> <value bytes>} ({@link Verified})</td></tr>
 *   <tr><td>{@code quit}</td><td>{@code ok}, then the worker exits</td></tr>
 * </table>
 *
 * Any command may instead get {@code error <message>}; the message is one line. A worker whose stdin ends
 * (the coordinator is gone) exits. On the wire every reply starts with {@link #REPLY_PREFIX}: the JVM itself may
 * print to stdout (e.g. {@code -XX:StartFlightRecording} announces the recording there), and such lines are not
 * replies ({@link #unwrap}).
 */
final class WorkerProtocol {
    /** What every reply line starts with on the worker's stdout. */
    static final String REPLY_PREFIX = "@worker ";
    /** The start-up reply's first field. */
    static final String READY = "ready";
    /** The first field of a successful reply. */
    static final String OK = "ok";
    /** The first field of a failed reply. */
    static final String ERROR = "error";
    /** Command: switch to another values file. */
    static final String VALUES = "values";
    /** Command: one timed pass. */
    static final String PASS = "pass";
    /** Command: read back and check. */
    static final String VERIFY = "verify";
    /** Command: exit. */
    static final String QUIT = "quit";

    private WorkerProtocol() {}

    /** The worker's answer to {@link #PASS}: what one timed pass took. */
    record PassReply(long wallNanos, long cpuNanos, long records, long valueBytes) {
        /** @return the reply line, e.g. {@code ok 2000000000 2500000000 1000000 2985000} */
        String line() {
            return OK + " " + wallNanos + " " + cpuNanos + " " + records + " " + valueBytes;
        }

        /** @return records per second of wall time */
        double rate() {
            return records / (wallNanos / 1e9);
        }

        /** @return process CPU microseconds per record */
        double cpuMicrosPerRecord() {
            return cpuNanos / 1e3 / records;
        }

        /**
         * @throws WorkerException when the line is an {@code error} reply or not four non-negative counts with
         *     wall time and records above 0
         */
        static PassReply parse(String line) {
            long[] f = counts(line, PASS, 4);
            if (f[0] == 0 || f[2] == 0) {
                throw new WorkerException("pass: reply '" + line + "' has no wall time or no records");
            }
            return new PassReply(f[0], f[1], f[2], f[3]);
        }
    }

    /** The worker's answer to {@link #VERIFY}: every record read back equal to what was sent. */
    record Verified(long records, long valueBytes) {
        /** @return the reply line */
        String line() {
            return OK + " " + records + " " + valueBytes;
        }

        /** @throws WorkerException when the line is an {@code error} reply or not two counts */
        static Verified parse(String line) {
            long[] f = counts(line, VERIFY, 2);
            return new Verified(f[0], f[1]);
        }
    }

    /** @return the reply as the worker writes it: {@link #REPLY_PREFIX} and the reply */
    static String wrap(String reply) {
        return REPLY_PREFIX + reply;
    }

    /**
     * @param line a line of the worker's stdout
     * @return the reply it carries, or null for a line that is not a reply (the JVM's own output)
     */
    static String unwrap(String line) {
        return line.startsWith(REPLY_PREFIX) ? line.substring(REPLY_PREFIX.length()) : null;
    }

    /** @return the {@code values} command line */
    static String valuesCommand(String file, int n) {
        if (file.contains(" ") || file.contains("\n")) {
            throw new IllegalArgumentException("the values file '" + file + "' must not contain spaces");
        }
        return VALUES + " " + file + " " + n;
    }

    /** @return an {@code error} reply: the message with line breaks turned into spaces */
    static String error(String message) {
        return ERROR + " " + String.valueOf(message).replaceAll("[\\r\\n]+", " ");
    }

    /**
     * The implementation named by the start-up reply.
     *
     * @throws WorkerException for an {@code error} reply or anything but {@code ready <implementation>}
     */
    static String parseReady(String line) {
        List<String> f = fields(line, "start-up");
        if (f.size() != 2 || !f.get(0).equals(READY)) {
            throw new WorkerException("start-up: expected 'ready <implementation>', got '" + line + "'");
        }
        return f.get(1);
    }

    /**
     * Checks a reply with no fields of interest ({@code values}, {@code quit}).
     *
     * @throws WorkerException for an {@code error} reply or a reply not starting with {@code ok}
     */
    static void parseOk(String line, String command) {
        List<String> f = fields(line, command);
        if (!f.get(0).equals(OK)) {
            throw new WorkerException(command + ": expected 'ok', got '" + line + "'");
        }
    }

    /**
     * A parsed command: its name and arguments.
     *
     * @throws IllegalArgumentException for an empty line
     */
    static List<String> parseCommand(String line) {
        if (line == null || line.isBlank()) {
            throw new IllegalArgumentException("empty command");
        }
        return Arrays.asList(line.strip().split(" +"));
    }

    private static long[] counts(String line, String command, int count) {
        List<String> f = fields(line, command);
        if (!f.get(0).equals(OK) || f.size() != count + 1) {
            throw new WorkerException(command + ": expected 'ok' and " + count + " counts, got '" + line + "'");
        }
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            try {
                out[i] = Long.parseLong(f.get(i + 1));
            } catch (NumberFormatException e) {
                throw new WorkerException(command + ": '" + f.get(i + 1) + "' in '" + line + "' is not a count");
            }
            if (out[i] < 0) {
                throw new WorkerException(command + ": negative count in '" + line + "'");
            }
        }
        return out;
    }

    /** The fields of a reply; an {@code error} reply becomes a {@link WorkerException} with its message. */
    private static List<String> fields(String line, String command) {
        if (line == null || line.isBlank()) {
            throw new WorkerException(command + ": empty reply");
        }
        String stripped = line.strip();
        if (stripped.equals(ERROR) || stripped.startsWith(ERROR + " ")) {
            throw new WorkerException(
                    command + ": " + stripped.substring(ERROR.length()).strip());
        }
        return Arrays.asList(stripped.split(" +"));
    }

    /** A worker's reply that reports an error or breaks the protocol; the message says which. */
    static final class WorkerException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WorkerException(String message) {
            super(message);
        }
    }
}
