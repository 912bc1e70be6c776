package org.bijou64;

/** Which implementation a codec uses. */
public enum Implementation {
    /**
     * The Rust core (upstream {@code bijoux}) through the JNI library bundled in
     * {@code org.bijou64:kafka-serde-native}.
     */
    NATIVE,
    /** The pure-Java codec, byte-identical to the native one. */
    JAVA,
    /**
     * Chosen per call by measurement ({@code docs/benchmarks.md}): pure Java for single values and for bulk
     * calls below {@link Bijou64#NATIVE_BULK_MIN_VALUES} values, where one JNI crossing costs more than it
     * saves; native for larger bulk calls when the library is loaded. What {@link Bijou64#codec(Mapping)}
     * returns.
     */
    AUTO
}
