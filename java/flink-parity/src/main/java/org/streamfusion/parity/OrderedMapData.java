package org.streamfusion.parity;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;

/**
 * A {@link MapData} over a key array and a value array, the layout Flink's own binary maps have. Unlike
 * {@code GenericMapData} (a {@code java.util.Map}) it keeps the entries in the Arrow data order and keeps
 * duplicate keys, so whatever Flink's JSON converter does with order and duplicates is Flink's doing.
 */
final class OrderedMapData implements MapData {
    private final ArrayData keys;
    private final ArrayData values;
    private final int size;

    OrderedMapData(ArrayData keys, ArrayData values) {
        if (keys.size() != values.size()) {
            throw new IllegalArgumentException(
                    "key and value arrays differ in size: " + keys.size() + " vs " + values.size());
        }
        this.keys = keys;
        this.values = values;
        this.size = keys.size();
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public ArrayData keyArray() {
        return keys;
    }

    @Override
    public ArrayData valueArray() {
        return values;
    }
}
