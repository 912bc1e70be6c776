package org.bijou64.perf.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsSchemaTest {

    @Test
    void theSchemaFileDefinesTheColumnsInOrder() {
        List<ResultsSchema.Column> columns = ResultsSchema.columns();
        assertEquals(50, columns.size(), ResultsSchema.header());
        assertEquals("benchmark", columns.get(0).name());
        assertEquals("problem", columns.get(columns.size() - 1).name());
        assertTrue(
                ResultsSchema.header()
                        .startsWith("benchmark,workload,mode,implementation,compression,guarantee,"
                                + "records,batch_rows,iterations,median_records_per_s,"),
                ResultsSchema.header());
        ResultsSchema.Column share = columns.stream()
                .filter(c -> c.name().equals("encode_cpu_share"))
                .findFirst()
                .orElseThrow();
        assertEquals(ResultsSchema.Kind.NUMBER, share.kind());
        assertEquals(4, share.decimals());
    }

    @Test
    void aRowFormatsByKindAndLeavesTheRestEmpty() {
        ResultsSchema.Row row = ResultsSchema.row()
                .set("benchmark", "bijou64-producer")
                .set("mode", "bijou")
                .set("records", 50_000)
                .set("median_records_per_s", 1_100_000.5)
                .set("value_bytes_per_record", 59_250.0 / 20_000)
                .set("ratio_vs_baseline", Double.NaN)
                .set("verified", true)
                .set("problem", "read 3 records, \"expected\" 4");
        List<String> cells = ResultsSchema.split(row.csv());
        assertEquals(50, cells.size());
        Map<String, String> parsed = ResultsSchema.parse(ResultsSchema.header(), row.csv());
        assertEquals("bijou64-producer", parsed.get("benchmark"));
        assertEquals("50000", parsed.get("records"));
        assertEquals("1100001", parsed.get("median_records_per_s"), "half up, as Java's %.0f");
        assertEquals("2.963", parsed.get("value_bytes_per_record"));
        assertEquals("", parsed.get("ratio_vs_baseline"), "NaN is empty");
        assertEquals("", parsed.get("workload"), "unset is empty");
        assertEquals("true", parsed.get("verified"));
        assertEquals("read 3 records, \"expected\" 4", parsed.get("problem"));
        assertTrue(row.csv().endsWith(",\"read 3 records, \"\"expected\"\" 4\""), row.csv());
    }

    @Test
    void wrongColumnsAndKindsAreRefused() {
        ResultsSchema.Row row = ResultsSchema.row();
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> row.set("median_msgs_per_s", 1.0));
        assertEquals("the results schema has no column median_msgs_per_s", unknown.getMessage());
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> row.set("records", 1.5));
        assertEquals("records holds COUNT, not NUMBER", kind.getMessage());
        IllegalArgumentException foreign =
                assertThrows(IllegalArgumentException.class, () -> ResultsSchema.parse("mode,distribution", "a,b"));
        assertEquals(
                "a results header with a column this schema does not have: 'distribution' in" + " 'mode,distribution'",
                foreign.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ResultsSchema.parse("mode,mode", "a,b"), "twice");
        assertThrows(IllegalArgumentException.class, () -> ResultsSchema.parse(ResultsSchema.header(), "a,b"));
        assertThrows(IllegalArgumentException.class, () -> ResultsSchema.split("\"open"));
        assertThrows(IllegalArgumentException.class, () -> ResultsSchema.split("\"a\"b,c"));
    }

    @Test
    void anOlderHeaderReadsByNameWithTheNewColumnsEmpty() {
        Map<String, String> parsed = ResultsSchema.parse("compression,mode,verified", "zstd,rust-long,true");
        assertEquals(ResultsSchema.columns().size(), parsed.size());
        assertEquals("rust-long", parsed.get("mode"));
        assertEquals("zstd", parsed.get("compression"));
        assertEquals("true", parsed.get("verified"));
        assertEquals("", parsed.get("broker_bytes_per_record"));
        assertEquals(List.copyOf(parsed.keySet()).get(0), "benchmark", "in the schema's order");
    }

    @Test
    void appendWritesTheHeaderOnce(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("sub/results.csv");
        ResultsSchema.append(csv, List.of(ResultsSchema.row().set("mode", "long")));
        ResultsSchema.append(csv, List.of(ResultsSchema.row().set("mode", "bijou")));
        List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size());
        assertEquals(ResultsSchema.header(), lines.get(0));
        assertEquals("bijou", ResultsSchema.parse(lines.get(0), lines.get(2)).get("mode"));
    }

    @Test
    void producerSettingsKeepTheFileOrder() {
        assertEquals(
                List.of("batch.size", "linger.ms", "acks", "enable.idempotence"),
                List.copyOf(ProducerSettings.get().keySet()));
        assertEquals("batch.size=524288 linger.ms=20 acks=all enable.idempotence=true", ProducerSettings.line());
        assertEquals(Map.of("a", "1 2"), ProducerSettings.parse("# c\n\n a = 1 2 \n"));
        assertThrows(IllegalArgumentException.class, () -> ProducerSettings.parse("novalue\n"));
        assertThrows(IllegalArgumentException.class, () -> ProducerSettings.parse("a=1\na=2\n"));
    }
}
