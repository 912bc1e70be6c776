package org.bijou64;

import java.util.Locale;

/**
 * How a signed Kafka value maps onto the unsigned bijou formats (config {@code bijou64.mapping}).
 *
 * <table>
 *   <caption>Mappings</caption>
 *   <tr><th>mapping</th><th>Long</th><th>Integer</th><th>one byte holds</th></tr>
 *   <tr><td>{@link #UNSIGNED} (default)</td><td>bijou64 of the two's-complement bits</td>
 *       <td>bijou32 of the bits</td><td>0..247 (0..251 for Integer); negatives take 9 (5) bytes</td></tr>
 *   <tr><td>{@link #ZIGZAG}</td><td>bijou64s: bijou64 of {@code (n << 1) ^ (n >> 63)}</td>
 *       <td>bijou32s</td><td>-124..123 (-126..125)</td></tr>
 * </table>
 *
 * <p>The ordinal is the mapping code the native library receives; do not reorder.
 */
public enum Mapping {
    /** Two's-complement bits read as unsigned; non-negative values sort numerically by their bytes. */
    UNSIGNED,
    /** Zigzag first, so small negative values stay short. */
    ZIGZAG;

    /**
     * Parses a config word, {@code unsigned} or {@code zigzag} (case-insensitive, trimmed).
     *
     * @param word the config value
     * @return the mapping
     * @throws IllegalArgumentException for any other word or null, naming the accepted ones
     */
    public static Mapping parse(String word) {
        if (word != null) {
            switch (word.trim().toLowerCase(Locale.ROOT)) {
                case "unsigned":
                    return UNSIGNED;
                case "zigzag":
                    return ZIGZAG;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("unknown bijou64.mapping '" + word + "': expected 'unsigned' or 'zigzag'");
    }

    /** @return the config word: {@code unsigned} or {@code zigzag} */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
