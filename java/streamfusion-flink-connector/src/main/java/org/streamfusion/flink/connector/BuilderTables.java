package org.streamfusion.flink.connector;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * What the DataStream builders ({@link StreamFusionKafkaSink}, {@link StreamFusionKafkaSource}) share: the table a
 * row type and a {@code WITH} option map stand for, which the table factories then plan and validate as for SQL.
 */
@Internal
final class BuilderTables {
    private BuilderTables() {}

    /**
     * The table of {@code rowType}'s physical columns with {@code options} ({@code connector} defaulting to
     * {@code streamfusion-kafka}) and the primary key {@code primaryKey} (none if empty).
     *
     * @param role what builds it, for the error ({@code StreamFusionKafkaSink writes}, {@code ... reads})
     * @throws NullPointerException without a row type
     * @throws ValidationException for a connector that is not one of ours
     */
    static ResolvedCatalogTable table(
            String role, RowType rowType, Map<String, String> options, List<String> primaryKey) {
        Objects.requireNonNull(rowType, "rowType");
        Map<String, String> all = new LinkedHashMap<>(options);
        all.putIfAbsent(FactoryUtil.CONNECTOR.key(), StreamFusionKafkaTableFactory.IDENTIFIER);
        String connector = all.get(FactoryUtil.CONNECTOR.key());
        if (!connector.equals(StreamFusionKafkaTableFactory.IDENTIFIER)
                && !connector.equals(StreamFusionUpsertKafkaTableFactory.IDENTIFIER)) {
            throw new ValidationException(String.format(
                    "%s through '%s' or '%s', not 'connector' = '%s'.",
                    role,
                    StreamFusionKafkaTableFactory.IDENTIFIER,
                    StreamFusionUpsertKafkaTableFactory.IDENTIFIER,
                    connector));
        }
        List<Column> columns = new ArrayList<>();
        for (RowType.RowField field : rowType.getFields()) {
            columns.add(Column.physical(field.getName(), TypeConversions.fromLogicalToDataType(field.getType())));
        }
        ResolvedSchema schema = new ResolvedSchema(
                columns, List.of(), primaryKey.isEmpty() ? null : UniqueConstraint.primaryKey("pk", primaryKey));
        CatalogTable table = CatalogTable.newBuilder()
                .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                .options(all)
                .build();
        return new ResolvedCatalogTable(table, schema);
    }

    /** The name errors give a builder's table: {@code default_catalog.default_database.<name>}. */
    static ObjectIdentifier identifier(String name) {
        return ObjectIdentifier.of("default_catalog", "default_database", name);
    }
}
