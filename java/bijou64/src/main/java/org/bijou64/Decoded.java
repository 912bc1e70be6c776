package org.bijou64;

/**
 * A value decoded from the start of a buffer, and how many bytes it took.
 *
 * @param value the value (an {@code int} value for the 32-bit codecs, widened)
 * @param consumed bytes the value took, 1 to 9
 */
public record Decoded(long value, int consumed) {}
