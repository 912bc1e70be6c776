package org.streamfusion.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bijou64.NativeLibrary;
import org.junit.jupiter.api.Test;

/**
 * The layout constants the Java side mirrors equal the native library's: the words and buffers per column of
 * the flat handoff, and the arrays one encode returns. A constant changed on one side only fails here, not
 * as misread buffers at run time.
 */
class LayoutTest {
    @Test
    void javaConstantsEqualTheNativeOnes() {
        assertTrue(
                NativeLibrary.isLoaded(),
                () -> "native library not loaded: "
                        + NativeLibrary.loadError().map(Throwable::getMessage).orElse("unknown reason"));
        assertArrayEquals(
                new int[] {NativeJsonEncoder.FLAT_WORDS, NativeJsonEncoder.FLAT_BUFFERS, EncodedBatch.NATIVE_ARRAYS},
                NativeJsonEncoder.layout(),
                "FLAT_WORDS, FLAT_BUFFERS, NATIVE_ARRAYS (Java) vs layout() (native)");
    }
}
