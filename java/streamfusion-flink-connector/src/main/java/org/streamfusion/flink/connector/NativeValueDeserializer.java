package org.streamfusion.flink.connector;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.streamfusion.flink.FlinkArrowTypes;

/**
 * The value deserializer of a table read through a {@link NativeKafkaSource}, where Flink's
 * {@code KafkaDynamicSource} puts the value format's ({@link NativeValueFormat}): for a record whose value the split
 * reader decoded natively ({@link DecodedRecord}, announced by {@link #next}), it collects the rows the record
 * carries; for every other message, it is Flink's own json deserializer. Flink's
 * {@code DynamicKafkaDeserializationSchema} calls it once per record with the record's value and joins its rows with
 * the key fields and metadata columns, exactly as it does for the stock table.
 *
 * <p>Flink's record deserializer takes the value rows as they are when the table has no key format and no metadata
 * column, and otherwise reads them as {@code GenericRowData} (its {@code OutputProjectionCollector} casts): then each
 * native row is handed on as a {@code GenericRowData} of the same fields ({@link #projectedInto}).
 */
@Internal
final class NativeValueDeserializer implements DeserializationSchema<RowData> {
    private static final long serialVersionUID = 1L;

    private final DeserializationSchema<RowData> flink;
    private final RowType type;
    private final HashMap<String, String> jsonOptions;
    /** Why the native decoder cannot read these rows, or null. */
    private final String notNative;

    private final boolean ignoreParseErrors;

    private boolean projected;
    private transient DecodedRecord pending;
    private transient RowData.FieldGetter[] fields;
    private transient ToGeneric toGeneric;

    /**
     * @param flink the value format's own deserializer, for every message not decoded natively
     * @param type the value rows' type
     * @param jsonOptions the value format's json decoding options, Flink's names without prefix
     */
    NativeValueDeserializer(DeserializationSchema<RowData> flink, RowType type, Map<String, String> jsonOptions) {
        this.flink = flink;
        this.type = type;
        this.jsonOptions = new HashMap<>(jsonOptions);
        this.ignoreParseErrors = "true"
                .equalsIgnoreCase(jsonOptions
                        .getOrDefault(JsonFormatOptions.IGNORE_PARSE_ERRORS.key(), "false")
                        .trim());
        String why;
        try {
            FlinkArrowTypes.schema(type);
            why = null;
        } catch (IllegalArgumentException e) {
            why = e.getMessage();
        }
        this.notNative = why;
    }

    /** @return the value rows' type */
    RowType type() {
        return type;
    }

    /** @return the json decoding options, Flink's names without prefix */
    Map<String, String> jsonOptions() {
        return jsonOptions;
    }

    /** @return why the native decoder cannot read these rows, or null when it can */
    String notNative() {
        return notNative;
    }

    /**
     * Whether Flink's record deserializer projects the value rows into its own (a key format or a metadata column),
     * and so needs them as {@code GenericRowData}; set while planning.
     */
    void projectedInto(boolean projected) {
        this.projected = projected;
    }

    /** The record whose value the next call decodes: its rows when it is a {@link DecodedRecord}, or null. */
    void next(DecodedRecord record) {
        this.pending = record;
    }

    @Override
    public void open(InitializationContext context) throws Exception {
        flink.open(context);
        fields = new RowData.FieldGetter[type.getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = RowData.createFieldGetter(type.getTypeAt(i), i);
        }
    }

    /** Flink's deserializer's single-row form (the record deserializer calls the collecting one). */
    @Override
    public RowData deserialize(byte[] message) throws IOException {
        return flink.deserialize(message);
    }

    @Override
    public void deserialize(byte[] message, Collector<RowData> out) throws IOException {
        DecodedRecord decoded = pending;
        if (decoded == null) {
            flink.deserialize(message, out);
            return;
        }
        pending = null;
        Collector<RowData> rows = out;
        if (projected) {
            if (toGeneric == null) {
                toGeneric = new ToGeneric();
            }
            toGeneric.out = out;
            rows = toGeneric;
        }
        try {
            decoded.emit(rows);
        } catch (Throwable t) {
            // As Flink's JsonParserRowDataDeserializationSchema.deserialize(byte[], Collector), which collects
            // inside its try: what the collector throws (Flink's record deserializer refuses a null row of a table
            // that is not upsert-kafka) fails the message with Flink's message, or under ignore-parse-errors ends
            // it, its later rows dropped.
            if (!ignoreParseErrors) {
                throw new IOException(String.format("Failed to deserialize JSON '%s'.", new String(message)), t);
            }
        }
    }

    @Override
    public boolean isEndOfStream(RowData nextElement) {
        return flink.isEndOfStream(nextElement);
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return flink.getProducedType();
    }

    /** Hands each row on as a {@code GenericRowData} of its fields (the nested values stay binary); null stays null. */
    private final class ToGeneric implements Collector<RowData> {
        Collector<RowData> out;

        @Override
        public void collect(RowData row) {
            if (row == null) {
                out.collect(null);
                return;
            }
            GenericRowData generic = new GenericRowData(row.getRowKind(), fields.length);
            for (int i = 0; i < fields.length; i++) {
                generic.setField(i, fields[i].getFieldOrNull(row));
            }
            out.collect(generic);
        }

        @Override
        public void close() {}
    }
}
