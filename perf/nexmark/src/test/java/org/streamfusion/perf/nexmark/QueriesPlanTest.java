package org.streamfusion.perf.nexmark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Plans each query with each sink (no job runs, no broker is contacted). */
class QueriesPlanTest {
    @ParameterizedTest
    @CsvSource({"q0,false", "q0,true", "q9,false", "q9,true", "q19,false", "q19,true"})
    void plansWithTheSinkAndNoUpsertMaterializer(String name, boolean ours) {
        Queries.Query query = Queries.Query.of(name);
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.executeSql(Queries.sourceDdl(ours, "corpus", "127.0.0.1:1", "plan-test"));
        Queries.viewDdls().forEach(tEnv::executeSql);
        tEnv.executeSql(Queries.sinkDdl(query, ours, "out", "127.0.0.1:1", "plan-test-" + name));
        String plan = tEnv.explainSql(Queries.insert(query));
        assertTrue(plan.contains("nexmark_" + name), plan);
        assertFalse(plan.contains("upsertMaterialize=[true]"), plan);
        switch (query) {
            case Q0 -> assertFalse(plan.contains("Rank") || plan.contains("Join"), plan);
            case Q9 -> assertTrue(plan.contains("Join(") && plan.contains("Rank("), plan);
            case Q19 -> assertTrue(plan.contains("Rank(") && !plan.contains("Join("), plan);
        }
        assertTrue(plan.contains("WatermarkAssigner") || plan.contains("watermark"), plan);
    }
}
