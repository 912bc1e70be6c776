package org.bijou64.perf.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads this package's resources (the files at the top of {@code perf/common}). */
final class Resources {
    private Resources() {}

    /**
     * The UTF-8 text of a resource of this package.
     *
     * @throws IllegalStateException when the jar does not hold it (a build that skipped the resources)
     */
    static String text(String name) {
        try (InputStream in = Resources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "org/bijou64/perf/common/" + name + " is not on the classpath: rebuild perf/common");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read org/bijou64/perf/common/" + name, e);
        }
    }
}
