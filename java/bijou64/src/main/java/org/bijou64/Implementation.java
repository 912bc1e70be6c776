package org.bijou64;

/** Which implementation a codec uses. */
public enum Implementation {
    /** The Rust core (upstream {@code bijoux}) through the JNI library bundled in this jar. */
    NATIVE,
    /** The pure-Java codec, byte-identical to the native one. */
    JAVA
}
