package org.bijou64.perf.compare;

import java.io.PrintStream;

/**
 * Progress on stderr. Plain mode ({@code --ci}, or stderr not a terminal) prints one line per pass; otherwise
 * one line per run is redrawn with a carriage return and left showing the run's summary.
 */
final class Progress {
    private final PrintStream err;
    private final boolean plain;
    private int lastWidth;

    Progress(PrintStream err, boolean plain) {
        this.err = err;
        this.plain = plain;
    }

    /**
     * Reports one pass.
     *
     * @param what which pass, e.g. {@code warm-up} or {@code round 2/5}
     * @param rate msgs/s
     * @param seconds wall time of the pass
     * @param cpuMicrosPerRecord the producer process's CPU time per record
     */
    void pass(String label, String what, double rate, double seconds, double cpuMicrosPerRecord) {
        redraw(String.format(
                "%s %s: %,.0f msgs/s (%.3f s, %.3f CPU us/record)", label, what, rate, seconds, cpuMicrosPerRecord));
    }

    /** Ends a run with its summary line. */
    void done(String summary) {
        redraw(summary);
        if (!plain) {
            err.println();
            lastWidth = 0;
        }
    }

    /** A message on its own line. */
    void message(String text) {
        if (!plain && lastWidth > 0) {
            err.println();
            lastWidth = 0;
        }
        err.println(text);
    }

    private void redraw(String line) {
        if (plain) {
            err.println(line);
            return;
        }
        String padding = lastWidth > line.length() ? " ".repeat(lastWidth - line.length()) : "";
        err.print("\r" + line + padding);
        err.flush();
        lastWidth = line.length();
    }
}
