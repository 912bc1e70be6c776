package org.streamfusion.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the decode harness on small {@code .case} files against the Flink release on the test classpath (the
 * pom's default) and checks the {@code .rows} text and the {@code .case} parsing.
 */
class FlinkDecodeGoldensTest {
    @TempDir
    Path tmp;

    private String runOne(String caseText) throws IOException {
        Path cases = Files.createDirectories(tmp.resolve("cases"));
        Files.writeString(cases.resolve("c.case"), caseText, StandardCharsets.UTF_8);
        Path out = tmp.resolve("out");
        FlinkDecodeGoldens.run(cases, out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        String env = Files.readString(out.resolve("ENV"), StandardCharsets.UTF_8);
        assertTrue(env.startsWith("flink.version="), env);
        return Files.readString(out.resolve("c.rows"), StandardCharsets.US_ASCII);
    }

    @Test
    void writesRowsAndErrors() throws IOException {
        String rows = runOne("# a comment\n"
                + "type ROW<a INT, f FLOAT, d DOUBLE, s STRING, b BYTES, t TIMESTAMP(3)>\n"
                + "\n"
                + "message {\"a\":1,\"f\":1.0,\"d\":-0.0,\"s\":\"\\u00e9\\\"\",\"b\":\"AAE=\",\"t\":\"2024-01-02 03:04:05.5\"}\n"
                + "message [{\"a\":2},null]\n"
                + "message\n"
                + "null\n"
                + "hex 7b 22 61 22 3a 7d\n");
        assertEquals(
                "type ROW<`a` INT, `f` FLOAT, `d` DOUBLE, `s` VARCHAR(2147483647), `b` VARBINARY(2147483647),"
                        + " `t` TIMESTAMP(3)>\n"
                        + "= 0\n"
                        + "+I(1,f3f800000,d8000000000000000,\"\\xc3\\xa9\\x22\",x'0001',ts(1704164645500,0))\n"
                        + "= 1\n"
                        + "+I(2,null,null,null,null,null)\n"
                        + "null\n"
                        + "= 2\n"
                        + "= 3\n"
                        + "= 4\n",
                rows.substring(0, rows.indexOf("= 4\n") + 4));
        String error = rows.substring(rows.indexOf("= 4\n") + 4);
        assertTrue(
                error.startsWith(
                        "error IOException: Failed to deserialize JSON '{\\x22a\\x22:}'. <- JsonParseException: "),
                error);
        assertTrue(error.endsWith("\n") && error.indexOf('\n') == error.length() - 1, error);
    }

    @Test
    void nestedValuesAndRefusal() throws IOException {
        assertEquals(
                "type ROW<`m` MAP<VARCHAR(2147483647), INT>, `r` ROW<`x` DECIMAL(5, 2)>>\n"
                        + "= 0\n"
                        + "+I({\"a\"=1,\"b\"=null},(1.01))\n",
                runOne("type ROW<m MAP<STRING, INT>, r ROW<x DECIMAL(5, 2)>>\n"
                        + "message {\"m\":{\"b\":null,\"a\":1},\"r\":{\"x\":1.005}}\n"));
        assertEquals(
                "refused fail-on-missing-field and ignore-parse-errors shouldn't both be true.\n",
                runOne("type ROW<a INT>\n"
                        + "option fail-on-missing-field=true\n"
                        + "option ignore-parse-errors=true\n"
                        + "message {}\n"));
    }

    @Test
    void rejectsMalformedCases() {
        IOException e = assertThrows(IOException.class, () -> runOne("type ROW<a INT>\nhex 7g\n"));
        assertTrue(e.getMessage().contains("c.case:2: "), e.getMessage());
        e = assertThrows(IOException.class, () -> runOne("type INT\n"));
        assertTrue(e.getMessage().contains("c.case:1: the type must be a ROW"), e.getMessage());
        e = assertThrows(IOException.class, () -> runOne("message {}\n"));
        assertTrue(e.getMessage().contains("no 'type' line"), e.getMessage());
        e = assertThrows(IOException.class, () -> runOne("type ROW<a INT>\noption json.ignore-parse-errors=true\n"));
        assertTrue(e.getMessage().contains("c.case:2: unknown option"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("out").resolve("c.rows")));
    }
}
