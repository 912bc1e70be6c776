package org.bijou64;

import java.util.Locale;

/**
 * Bytes that are not a valid bijou record, or offsets that do not describe a slab. Thrown by both
 * implementations with the same {@link Kind} and message; a decoder never returns a value for
 * malformed bytes.
 */
public class Bijou64Exception extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The classification, as in {@code docs/format.md} and {@code bijou-invalid.csv}. */
    public enum Kind {
        /** A record of zero bytes ({@code new byte[0]}); distinct from a null tombstone. */
        EMPTY("empty"),
        /** The tag byte announces more bytes than the record holds ({@code f8}, {@code fb 00 00 00}). */
        TRUNCATED("truncated"),
        /** A maximal-length value past the type's range ({@code ff fe fe fe fe fe fe fe 08}). */
        OVERFLOW("overflow"),
        /** A valid value followed by more bytes ({@code 2a 99}, or LongSerializer's 8 bytes). */
        TRAILING_BYTES("trailing"),
        /** Slab offsets that are not n + 1 non-decreasing offsets from 0 to the slab length. */
        INVALID_OFFSETS("invalid-offsets"),
        /** An encoded slab larger than a Java array can hold. */
        SLAB_TOO_LARGE("slab-too-large");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** @return the lower-case word used by the test vectors and the native library */
        public String word() {
            return word;
        }

        static Kind fromWord(String word) {
            for (Kind kind : values()) {
                if (kind.word.equals(word)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown error kind " + word.toLowerCase(Locale.ROOT));
        }
    }

    private final Kind kind;
    private final int recordIndex;

    /**
     * @param kind the classification
     * @param recordIndex the failing record of a slab, or -1 for a single record
     * @param message the reason, e.g. {@code truncated: tag 0xf8 announces a 2-byte bijou64 value, 1 bytes present}
     */
    public Bijou64Exception(Kind kind, int recordIndex, String message) {
        super(recordIndex < 0 ? message : "record " + recordIndex + ": " + message);
        this.kind = kind;
        this.recordIndex = recordIndex;
    }

    /** Called by the native library, which already prefixes a slab error's message with its record. */
    Bijou64Exception(String kindWord, int recordIndex, String message) {
        super(message);
        this.kind = Kind.fromWord(kindWord);
        this.recordIndex = recordIndex;
    }

    /** @return the classification */
    public Kind kind() {
        return kind;
    }

    /** @return the zero-based index of the failing record in a slab, or -1 for a single record */
    public int recordIndex() {
        return recordIndex;
    }
}
