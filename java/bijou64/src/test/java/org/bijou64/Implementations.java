package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/** The implementations every codec test runs against; native must be loaded in this build. */
public final class Implementations {
    private Implementations() {}

    /**
     * @return JAVA, NATIVE and AUTO (the default codec); fails when the native library did not load, unless the
     *     build was told to skip it ({@code -Dbijou64.skipNative=true})
     */
    public static List<Implementation> all() {
        if (Boolean.getBoolean("bijou64.skipNative")) {
            return List.of(Implementation.JAVA);
        }
        assertEquals(
                true,
                Bijou64.nativeAvailable(),
                () -> "native library did not load: "
                        + Bijou64.nativeLoadError().map(Throwable::toString).orElse("?"));
        return List.of(Implementation.JAVA, Implementation.NATIVE, Implementation.AUTO);
    }
}
