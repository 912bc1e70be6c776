package org.streamfusion.perf;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;

/**
 * The key row of the Kafka connector's layout: the {@code key.fields} projection, names as in the row.
 *
 * @param type the key row's type
 * @param positions each key field's position in the row
 */
record KeyProjection(RowType type, int[] positions) {
    static KeyProjection of(RowType type, List<String> keyFields) {
        if (keyFields.isEmpty()) {
            return null;
        }
        List<RowType.RowField> fields = new ArrayList<>();
        int[] positions = new int[keyFields.size()];
        for (int k = 0; k < positions.length; k++) {
            positions[k] = type.getFieldIndex(keyFields.get(k));
            if (positions[k] < 0) {
                throw new IllegalArgumentException("key field " + keyFields.get(k) + " is not a field of " + type);
            }
            fields.add(new RowType.RowField(keyFields.get(k), type.getTypeAt(positions[k])));
        }
        return new KeyProjection(new RowType(fields), positions);
    }
}
