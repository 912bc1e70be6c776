package org.streamfusion.kafka;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Small builders for hand-made roots, and record readers for assertions. */
final class Vectors {
    private Vectors() {}

    static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    static VarCharVector strings(BufferAllocator allocator, String name, String... values) {
        VarCharVector v = new VarCharVector(name, allocator);
        v.allocateNew();
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                v.setNull(i);
            } else {
                v.setSafe(i, utf8(values[i]));
            }
        }
        v.setValueCount(values.length);
        return v;
    }

    static BigIntVector longs(BufferAllocator allocator, String name, Long... values) {
        BigIntVector v = new BigIntVector(name, allocator);
        v.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                v.setNull(i);
            } else {
                v.set(i, values[i]);
            }
        }
        v.setValueCount(values.length);
        return v;
    }

    /** A root over {@code vectors} (which it then owns), row count from the first vector. */
    static VectorSchemaRoot root(FieldVector... vectors) {
        VectorSchemaRoot root = new VectorSchemaRoot(Arrays.asList(vectors));
        root.setRowCount(vectors.length == 0 ? 0 : vectors[0].getValueCount());
        return root;
    }

    /** The values of a batch as UTF-8 strings (null for tombstones). */
    static List<String> values(EncodedBatch batch) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            out.add(text(batch.value(i)));
        }
        return out;
    }

    /** The keys of a batch as UTF-8 strings (null for null keys). */
    static List<String> keys(EncodedBatch batch) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            out.add(text(batch.key(i)));
        }
        return out;
    }
}
