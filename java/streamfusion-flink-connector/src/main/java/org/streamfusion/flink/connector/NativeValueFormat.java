package org.streamfusion.flink.connector;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The value format of a table whose JSON values may be decoded natively: Flink's own {@code json} decoding format,
 * put back into the stock {@link KafkaDynamicSource} in its place, whose runtime decoder it wraps in a
 * {@link NativeValueDeserializer}. Everything else (changelog mode, including upsert-kafka's, and format metadata) is
 * the wrapped format's. The stock source then builds Flink's own record deserializer around the wrapped decoder, so
 * key fields ({@code key.format}, {@code key.fields}, {@code key.fields-prefix}, {@code value.fields-include}),
 * metadata columns and upsert tombstones are joined to the value rows by Flink's code, for natively decoded values
 * as for the others.
 *
 * <p>The source creates its decoders while planning ({@code KafkaDynamicSource.getScanRuntimeProvider}); the table
 * source takes the one just made with {@link #takeCreated()}.
 */
@Internal
final class NativeValueFormat implements DecodingFormat<DeserializationSchema<RowData>> {
    private final DecodingFormat<DeserializationSchema<RowData>> flink;
    private final Map<String, String> jsonOptions;
    private NativeValueDeserializer created;

    private NativeValueFormat(DecodingFormat<DeserializationSchema<RowData>> flink, Map<String, String> jsonOptions) {
        this.flink = flink;
        this.jsonOptions = Map.copyOf(jsonOptions);
    }

    /**
     * Puts a native value format in the place of the stock source's value format ({@code KafkaDynamicSource}'s
     * field {@code valueDecodingFormat}, the only way in: the stock factories build the source themselves).
     *
     * @param stock the stock factory's source
     * @param jsonOptions the value format's json decoding options, Flink's names without prefix
     * @return the format now in the source
     * @throws IllegalStateException if the source is not a {@code KafkaDynamicSource} or its field cannot be set
     *     (another flink-connector-kafka than this class was built for, or a JVM that forbids it)
     */
    static NativeValueFormat replaceValueFormatOf(DynamicTableSource stock, Map<String, String> jsonOptions) {
        if (!(stock instanceof KafkaDynamicSource)) {
            throw new IllegalStateException(
                    "the stock table source is a " + stock.getClass().getName());
        }
        try {
            Field field = KafkaDynamicSource.class.getDeclaredField("valueDecodingFormat");
            field.setAccessible(true);
            @SuppressWarnings("unchecked")
            DecodingFormat<DeserializationSchema<RowData>> flink =
                    (DecodingFormat<DeserializationSchema<RowData>>) field.get(stock);
            NativeValueFormat format = new NativeValueFormat(flink, jsonOptions);
            field.set(stock, format);
            return format;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot set KafkaDynamicSource.valueDecodingFormat: " + e, e);
        }
    }

    /**
     * Flink's decoder for the value rows, wrapped: decoded natively when the row type is one the native decoder
     * reads ({@link org.streamfusion.flink.FlinkArrowTypes}), and by Flink's decoder otherwise.
     *
     * @param context the source's planning context
     * @param physicalDataType the value rows' type (the value fields, key fields left out under
     *     {@code EXCEPT_KEY})
     */
    @Override
    public DeserializationSchema<RowData> createRuntimeDecoder(
            DynamicTableSource.Context context, DataType physicalDataType) {
        created = new NativeValueDeserializer(
                flink.createRuntimeDecoder(context, physicalDataType),
                (RowType) physicalDataType.getLogicalType(),
                jsonOptions);
        return created;
    }

    /** @return the decoder made last, and forgets it; null if none was made since the last call */
    NativeValueDeserializer takeCreated() {
        NativeValueDeserializer last = created;
        created = null;
        return last;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return flink.getChangelogMode();
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return flink.listReadableMetadata();
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys) {
        flink.applyReadableMetadata(metadataKeys);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NativeValueFormat
                && flink.equals(((NativeValueFormat) o).flink)
                && jsonOptions.equals(((NativeValueFormat) o).jsonOptions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(flink, jsonOptions);
    }
}
