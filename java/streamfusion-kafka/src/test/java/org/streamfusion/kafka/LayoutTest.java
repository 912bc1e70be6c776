package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bijou64.Bijou64;
import org.junit.jupiter.api.Test;

/**
 * The layout constants the Java side mirrors equal the native library's: the words and buffers per column of
 * the flat handoff, and the arrays one encode returns. A constant changed on one side only fails here, not
 * as misread buffers at run time.
 */
class LayoutTest {
    @Test
    void javaConstantsEqualTheNativeOnes() {
        assertTrue(Bijou64.nativeAvailable(), () -> "native library not loaded: "
                + Bijou64.nativeLoadError().map(Throwable::getMessage).orElse("unknown reason"));
        assertArrayEquals(
                new int[] {NativeJsonEncoder.FLAT_WORDS, NativeJsonEncoder.FLAT_BUFFERS, EncodedBatch.NATIVE_ARRAYS},
                NativeJsonEncoder.layout(),
                "FLAT_WORDS, FLAT_BUFFERS, NATIVE_ARRAYS (Java) vs layout() (native)");
    }
}
